// A puzzle from a real game, /puzzle/ID: the position from its player's view, drawn by the game's
// own module; the player picks a move (on the board, or from the list) and is told whether it was
// the best one the analysis found, with every move's estimate. Its data: docs/protocol.md.
import { api } from "./api.js";
import { h, fill, toast, announce } from "./dom.js";
import { reviewStyles } from "./review.js";

export async function puzzle(root, id) {
  reviewStyles();
  let p;
  try {
    p = await api(`/api/puzzles/${id}`);
  } catch (e) {
    fill(root, h("div", {class: "card"}, h("h2", {}, "No such puzzle"), h("p", {}, e.message),
      h("p", {}, h("a", {href: "/review"}, "Review a game"))));
    return;
  }
  document.title = `Puzzle · ${p.title} · parlour`;
  const board = h("section", {class: "board", id: "board", "aria-label": "The position"});
  const verdict = h("section", {class: "card verdict", id: "verdict", hidden: true, "aria-live": "polite"});
  const list = h("ul", {class: "plain move-list", id: "puzzle-moves"});
  const log = h("ol", {class: "log", id: "log", tabindex: 0, "aria-label": "What had happened"});
  let answered = null;
  let renderer = null;
  const fieldsOf = new Map(p.message.moves.map((m) => [m.text, m]));
  /** A legal move in the game's words, from its fields (the module's `words`); else its text. */
  const said = (text) => {
    try { return (fieldsOf.has(text) && renderer?.words?.(fieldsOf.get(text))) || text; } catch { return text; }
  };

  async function choose(move) {
    if (answered) return;
    let r;
    try {
      r = await api(`/api/puzzles/${id}/answer`, {move});
    } catch (e) { toast(e.message); return; }
    answered = r;
    const rows = r.moves.map((m) => h("tr", {class: (m.move === r.answer ? "best" : "") + (m.move === r.move ? " chosen" : "")},
      h("td", {"data-move": m.move}, said(m.move)), h("td", {class: "num"}, `${Math.round(m.estimate * 100)}%`),
      h("td", {}, m.move === r.answer ? "best" : "", m.move === r.move ? " (your choice)" : "")));
    fill(verdict,
      h("h2", {id: "verdict-words", class: r.correct ? "good" : "bad"},
        r.correct ? "✔ The best move!" : "✘ Not the best move."),
      h("p", {}, r.correct ? `${said(r.answer)}: the move to find, ${Math.round(r.margin * 100)} points ahead of any other.`
        : `You chose: ${said(r.move)}. The best was: ${said(r.answer)}.`),
      h("table", {class: "decisions"}, h("thead", {}, h("tr", {}, h("th", {}, "Move"), h("th", {}, "Chance to win"), h("th", {}, ""))),
        h("tbody", {}, rows)),
      h("p", {class: "small"}, h("a", {href: `/api/puzzles/${id}/file`, download: `parlour-puzzle-${id}.json`}, "Download the puzzle"),
        " · ", h("a", {href: "/review"}, "Review a game")));
    verdict.hidden = false;
    announce(r.correct ? "The best move!" : "Not the best move.");
    for (const b of list.querySelectorAll("button")) b.disabled = true;
    try { renderer?.update({...p.message, legal: [], moves: []}); } catch (err) { console.error(err); } // answered: nothing more to play
  }

  fill(root, h("div", {class: "puzzle-page"},
    h("header", {class: "table-head"}, h("div", {},
      h("h1", {}, `Find the best move: ${p.title}`),
      h("p", {class: "muted small"}, `You are ${p.names[p.seat]}, to play: tap the card (or what you would do) on the table, ` +
        "or choose from the list below it. Cards you could not see are as they might have been: only what you saw is real."))),
    board,
    verdict,
    h("details", {class: "moves-box", open: true}, h("summary", {}, "Your moves, in words"), list),
    h("section", {class: "card"}, h("h2", {}, "What had happened"), log)));
  const drawList = () => fill(list, p.message.moves.map((m) => {
    const b = h("button", {type: "button", "data-move": m.text}, said(m.text));
    b.addEventListener("click", () => choose(m.text));
    return h("li", {}, b);
  }));
  drawList();
  const recent = p.message.log.slice(-60);
  log.setAttribute("start", String(p.message.log.length - recent.length + 1));
  fill(log, recent.map((line) => h("li", {}, line)));
  log.scrollTop = log.scrollHeight; // the latest events, just before the decision, in view

  if (p.web?.stylesheet) document.head.append(h("link", {rel: "stylesheet", href: p.web.stylesheet}));
  try {
    const module = await import(p.web.module);
    renderer = module.mount(board, {
      game: p.game,
      table: () => ({game: p.game, rules: p.rules, players: p.players}),
      seat: () => p.seat,
      name: (i) => p.names[i] ?? `Player ${i + 1}`,
      send: (move) => choose(move),
      announce,
      sound: () => {},
      why: (text) => toast(text, "info"),
    });
    renderer.update(p.message);
    drawList(); // the module says the moves in words now
  } catch (err) {
    console.error(err);
    fill(board, h("pre", {class: "raw"}, JSON.stringify(p.message.view, null, 1)));
  }
  window.parlourPuzzle = {data: p, answered: () => answered};
}
