// Sorry!: the table's module (docs/architecture.md, "A game in the browser"). mount() lays out the
// pieces — the board (board.js: track, slides, zones, the card, the pawns and where they can go),
// the hand of the point-score game (hand.js), the prompt (prompt.js: what to click, the turn's
// buttons, the colours) and the events as they happen (log.js) — and keeps what this person has
// clicked so far this turn. Moves by clicks: a pawn, then one of its destinations; a split 7 is
// the first pawn and how far, then the second pawn; an 11 change is a pawn, then the opponent's
// pawn; SORRY! is a click on the victim. Every choice comes from the legal moves' fields
// (msg.moves, in the order of msg.legal, whose texts are what is sent back).
import { h, s, fill } from "/static/js/dom.js";
import { drawBoard } from "./board.js";
import { allMoves, autoSelect, describe, legalTexts, noSelection } from "./choices.js";
import { CARD_TEXT, SIZE, fromWire } from "./geometry.js";
import { drawHand } from "./hand.js";
import { animateEvents, readEvent } from "./log.js";
import { drawControls, drawLegend, promptWords } from "./prompt.js";

export function mount(el, ctx) {
  let msg = null;
  let key = "";
  let last = null;      // the last turn, from the events (log.js)
  let lastGame = null;
  let winWords = "";
  // what this person has clicked so far this turn (not game state: reset by every new view)
  let sel = noSelection();

  const svg = s("svg", {viewBox: `0 0 ${SIZE} ${SIZE}`, class: "sorry-board", role: "group",
    "aria-label": "Sorry! board"});
  const prompt = h("p", {class: "sorry-prompt", "aria-live": "polite"});
  const controls = h("div", {class: "sorry-controls"});
  const handBox = h("div", {class: "sorry-hand", role: "group", "aria-label": "Your hand"});
  const legend = h("ul", {class: "sorry-legend", "aria-label": "Colours"});
  fill(el, h("div", {class: "sorry"},
    h("div", {class: "sorry-board-wrap"}, svg),
    h("div", {class: "sorry-side"}, prompt, handBox, controls, legend)));

  function play(text) {
    if (!legalTexts(msg).includes(text)) return; // never send anything that is not legal
    sel = noSelection(sel.card);
    ctx.send(text);
  }

  /** One legal move: play it; several: ask which (the chooser lists them as buttons). */
  function choose(list, what) {
    const texts = [...new Set(list.map((m) => m.text))];
    if (texts.length === 1) { play(texts[0]); return; }
    sel.choices = {what, moves: list};
    draw(true);
  }

  const pieces = {
    name: (p) => ctx.name(p),
    play,
    choose,
    select: (square) => { sel.source = square; sel.choices = null; draw(true); },
    split: (n) => { sel.split = {a: sel.source, n}; sel.choices = null; draw(true); },
    chooseCard: (card) => { sel = noSelection(card, sel.hinted); autoSelect(msg, sel); draw(true); },
    cancel: () => { sel = noSelection(sel.card, sel.hinted); draw(true); },
  };

  function draw(focusFirst = false) {
    if (!msg) return;
    const v = msg.view;
    const t = {...pieces, msg, sel, last};
    drawBoard(svg, t);
    drawHand(handBox, t, v.colours.filter((c, i) => v.seats[i] === v.viewer));
    prompt.textContent = promptWords(msg, sel);
    drawControls(controls, t);
    drawLegend(legend, v, pieces.name);
    if (focusFirst) {
      const first = el.querySelector(".sorry-choices button, .marks .clickable, .pawn-hit.second");
      if (first) first.focus({preventScroll: true});
    }
  }

  return {
    animate: (m, motion) => animateEvents(svg, m, motion, ctx.sound),
    ownsPlayers: true,
    words: (fields) => (msg ? describe(msg.view, fromWire(fields)) : fields.text),
    resultWords: () => winWords,
    pointsLabel: () => (msg?.view?.point_score ? "Points" : "Pawns HOME"),
    update(m) {
      if (m.events_from === 0 || m.game_number !== lastGame) winWords = "";
      (m.events || []).forEach((e, i) => { if (e.kind === "win") winWords = m.log?.[i] || ""; });
      msg = m;
      if (m.events_from === 0 || m.game_number !== lastGame) { last = null; lastGame = m.game_number; }
      for (const ev of m.events || []) last = readEvent(last, ev);
      const k = `${m.game_number}:${m.ply}:${(m.legal || []).join("|")}`;
      if (k !== key) {
        key = k;
        sel = noSelection();
        if (legalTexts(msg).length) autoSelect(msg, sel);
      }
      draw(false);
    },
    hint(move) {
      if (!msg || !legalTexts(msg).includes(move)) return;
      const m = allMoves(msg).find((x) => x.text === move);
      if (!m) return;
      sel = noSelection(m.card && m.kind !== "discard" ? m.card : null, move);
      if (m.kind === "split") sel.split = {a: m.parts[0].sq, n: m.parts[0].n};
      else if (m.source) sel.source = m.source;
      draw(false);
      const node = el.querySelector(`[data-move="${CSS.escape(move)}"]`);
      if (node) node.classList.add("hinted");
    },
  };
}

/** How to play Sorry! under rules `r`, in plain words with every card's move: the first thing
 * the rules page says. */
export function howToPlay(r) {
  const goal = r.partnership
    ? "Partners (red with yellow, blue with green) move their own and each other's pawns; the first pair with all eight pawns HOME wins."
    : r.point_score
      ? "Each player holds a hand of cards and plays one a turn; the game is scored by the pawns HOME and the bonuses at the end."
      : "The first player with all four pawns HOME wins.";
  const steps = [
    "Each colour's four pawns start in START. On your turn, draw a card and do what it says with one pawn (a 7 may be split between two).",
    "A pawn leaves START only with a 1 or a 2, onto the square in front of START; it goes round the board the way the arrows point.",
    "Land on another pawn and it goes back to its START (yours cannot share a square). Stop on the triangle at the start of another colour's slide and slide to its end, sending every pawn on the way back to START.",
    "Near the end of its way round a pawn turns into its own safety zone, where nobody can touch it, and must reach HOME by an exact count.",
    goal,
  ];
  return h("div", {class: "sorry-how"},
    h("ol", {class: "how-steps"}, steps.map((x) => h("li", {}, x))),
    h("h3", {}, "The cards"),
    h("dl", {class: "how-cards"}, Object.entries(CARD_TEXT).map(([card, words]) => [
      h("dt", {}, card === "S" ? "SORRY!" : card), h("dd", {}, words)])));
}
