// Whot!: the table's module (docs/architecture.md, "A game in the browser"). mount() lays out the
// pieces — the board (board.js: the others, the market and the call card), the prompt (prompt.js:
// what may follow, what is waiting, the turn's buttons, the WHOT chooser), the hand (hand.js) and
// the events as they happen (log.js) — and redraws them from each view message. A click plays one
// of msg.moves, the legal moves with their fields ({text, kind, card, call, power, say}): choices
// are built from the fields, never by reading move texts.
import { h, s, fill } from "/static/js/dom.js";
import { CW, CH, POWER_WORDS, SAY_WORDS, face } from "./cards.js";
import { drawMiddle, drawOpponents } from "./board.js";
import { drawHand } from "./hand.js";
import { animateEvents, readNews } from "./log.js";
import { drawActions, drawChooser, drawInfo, focusChooser, moveWords } from "./prompt.js";
import { reversing } from "./moves.js";

export function mount(el, ctx) {
  el.classList.add("whot");
  const parts = {
    opps: h("div", {class: "whot-opps", "aria-label": "Other players"}),
    middle: h("div", {class: "whot-middle"}),
    info: h("div", {class: "whot-info", "aria-live": "polite"}),
    actions: h("div", {class: "whot-actions"}),
    chooser: h("div", {class: "whot-chooser", role: "group", "aria-label": "Call a symbol", hidden: true}),
    handHead: h("p", {class: "whot-hand-head"}),
    hand: h("div", {class: "whot-hand"}),
  };
  parts.handWrap = h("div", {class: "whot-hand-wrap"}, parts.hand);
  fill(el, parts.opps, h("div", {class: "whot-top"}, parts.middle, parts.info), parts.actions, parts.chooser,
    parts.handHead, parts.handWrap);

  // UI choices of this turn only (no game state): the WHOT chooser, the WHOT power, the declaration,
  // and whether a pick card is played saying "and change direction" (pick_reverses).
  let ui = {ply: -1, chooser: false, power: "", say: "", reverse: false, hint: null};
  let last = null;
  let lastWidth = 0;
  const told = {news: [], over: ""};

  const ro = new ResizeObserver(() => {
    const w = parts.handWrap.clientWidth;
    if (last && Math.abs(w - lastWidth) > 2) draw(last);
  });
  ro.observe(parts.handWrap);

  const rules = () => ctx.table()?.rules || {};
  const powersOf = () => (rules().powers && typeof rules().powers === "object" ? rules().powers : {});
  // a phone, or a short window (200% zoom): the compact layout
  const narrow = () => el.clientWidth < 520 || window.innerHeight < 560;

  function send(move) {
    if (!move || !last || !last.legal.includes(move.text)) return;
    ui.chooser = false;
    ctx.send(move.text);
  }

  /** The message drawn, read once for every piece. */
  function reading(msg) {
    return {
      msg, view: msg.view, moves: msg.moves || [], powers: powersOf(), rules: rules(), ui,
      name: (p) => ctx.name(p), send, why: (text) => ctx.why(text), redraw: () => draw(last),
      openChooser: () => { ui.chooser = true; draw(last); focusChooser(parts.chooser); },
    };
  }

  function update(msg) {
    if (msg.ply !== ui.ply || msg.game_number !== last?.game_number) ui = {ply: msg.ply, chooser: false, power: "", say: "", reverse: false, hint: null};
    // beside the call card, the newest event on a phone (whole), the last three on a wide table
    readNews(told, msg, last, narrow() ? 1 : 3);
    last = msg;
    draw(msg);
  }

  function draw(msg) {
    // keyboard players keep their place: the focused card or button is focused again after a redraw
    const a = document.activeElement;
    const keep = a && a !== el && el.contains(a)
      ? ["card", "move", "symbol", "say", "power", "change"].map((k) => [k, a.dataset?.[k]]).find(([, x]) => x !== undefined) : null;
    const t = reading(msg);
    drawOpponents(parts.opps, t, narrow());
    drawMiddle(parts.middle, t);
    drawInfo(parts.info, t, told.news, told.over);
    drawActions(parts.actions, t);
    drawChooser(parts.chooser, t);
    lastWidth = drawHand({head: parts.handHead, wrap: parts.handWrap, hand: parts.hand}, t);
    if (ui.hint) markHint(ui.hint);
    if (keep) {
      const again = [...el.querySelectorAll(`[data-${keep[0]}]`)].find((e) => e.dataset[keep[0]] === keep[1]);
      if (again && (again.hasAttribute("tabindex") || again instanceof HTMLButtonElement)) again.focus();
    }
  }

  /** The hint bot's move, with its fields: mark where to click. */
  function hint(text, fields) {
    ui.hint = fields || null;
    markHint(ui.hint);
  }

  function markHint(move) {
    for (const e of el.querySelectorAll(".hinted")) e.classList.remove("hinted");
    if (!move) return;
    let target = null;
    if (move.kind === "draw") target = el.querySelector(".whot-market");
    else if (move.kind === "end" || move.kind === "pass") target = el.querySelector(`button.whot-${move.kind}`);
    else target = [...el.querySelectorAll(".whot-card[data-card]")].find((g) => g.dataset.card === move.card) || null;
    if (target) target.classList.add("hinted");
    if (move.say) { const b = el.querySelector(`button[data-say="${move.say}"]`); if (b) b.classList.add("hinted"); }
    if (reversing(move)) { const b = el.querySelector("button.whot-reverse"); if (b) b.classList.add("hinted"); }
  }

  return {
    update,
    hint,
    animate: (msg, motion) => animateEvents(el, parts, msg, motion, last?.view?.viewer ?? null, powersOf(), ctx.sound),
    words: (fields) => moveWords(fields, last?.view || {}, powersOf()),
    ownsPlayers: true,
    resultWords: () => told.over,
    pointsLabel: () => "Card points left in hand (lower is better)",
  };
}

// --- the rules page: the card powers as a legend ---------------------------------------------

/** A legend for an option of the rules page (GET /rules/whot): the powers as cards with their
 * words; null for options that need none. */
export function legend(name, value) {
  if (name === "powers" && value && typeof value === "object") {
    const entries = Object.entries(value).sort((a, b) => Number(a[0]) - Number(b[0]));
    if (!entries.length) return h("p", {class: "whot-legend-none"}, "No card has a special power in these rules.");
    return h("ul", {class: "whot-legend", "aria-label": "Card powers"}, entries.map(([num, power]) => {
      const [label, words] = POWER_WORDS[power] || [power, power];
      return h("li", {class: "whot-legend-item", "data-number": num, "data-power": power},
        s("svg", {viewBox: `0 0 ${CW} ${CH}`, width: 54, height: 77, "aria-hidden": "true"},
          face(`${num} circle`, {[num]: power})),
        h("span", {}, h("strong", {}, `${num}: ${label.toLowerCase()}`), h("br"), words.split(": ").slice(1).join(": ") || words));
    }));
  }
  if (name === "whot_powers" && Array.isArray(value)) {
    const w = {reverse: "reverse the direction of play", skip: "skip the next player"};
    return h("p", {class: "whot-legend-none"}, value.length
      ? `A WHOT may also ${value.map((x) => w[x] || x).join(" or ")}, as its player chooses.`
      : "A WHOT only calls a symbol.");
  }
  return null;
}

// --- the rules page: the game in plain words ----------------------------------------------------

/** How to play Whot! under rules `r` (GET /api/games' option values), in plain words, with the
 * powers drawn as cards: the first thing the rules page says. */
export function howToPlay(r) {
  const opening = r.opening === "turn-up"
    ? "The top card of the market is turned up as the first call card."
    : "The player to the dealer's left leads with any card; it becomes the call card.";
  const follow = ["Play one card that matches the call card's symbol or its number: a 7 circle follows any circle or any 7.",
    "A WHOT card (worth 20) follows anything; its player calls the symbol the next player must follow."];
  const draw = r.may_draw_instead
    ? "You may always go to market (draw one card) instead of playing; with nothing that follows you must."
    : "With nothing that follows, go to market: draw one card, and play passes on.";
  const steps = [
    `Each player is dealt ${r.deal} cards. ${opening}`,
    ...follow,
    draw,
    "The first to play their last card wins the game. The others score the card points left in their hands " +
      "(a star card counts double its number, a WHOT 20): lower is better over a match.",
  ];
  if (Array.isArray(r.declarations) && r.declarations.length) {
    steps.push(`Say ${r.declarations.map((d) => `“${SAY_WORDS[d] || d}”`).join(" and ")} when it is due, or pick two as a penalty.`);
  }
  const powers = r.powers && typeof r.powers === "object" ? r.powers : {};
  const pickAnswer = r.pick_stacking === false ? "" :
    " A pick is passed on by answering with a card of the same number" + (r.whot_answers_pick ? " or a WHOT" : "") + ".";
  return h("div", {class: "whot-how"},
    h("ol", {class: "how-steps"}, steps.map((x) => h("li", {}, x))),
    Object.keys(powers).length
      ? [h("h3", {}, "The special cards of these rules"), legend("powers", powers), pickAnswer ? h("p", {}, pickAnswer.trim()) : null]
      : h("p", {}, "No card has a special power in these rules: only symbols and numbers count."));
}

// --- the lobby: how many packs these rules deal from, and why ----------------------------------

const PACK_SIZE = 54;

/** The lobby's note on rules `r` at a table of `players` (GET /api/games' option values): how
 * many packs are shuffled together — from `two_packs_from` players the rules' source advises a
 * second pack, which puts every card in twice — with one tap to change it. */
export function lobbyNote(r, players, {set}) {
  const needed = players * r.deal + (r.opening === "turn-up" ? 1 : 0);
  const auto = r.packs === 0 || r.packs === "0";
  const packs = auto ? (players >= r.two_packs_from || needed > PACK_SIZE ? 2 : 1) : Number(r.packs);
  const oneFits = needed < PACK_SIZE || (needed === PACK_SIZE && r.empty_pack !== "end");
  if (packs === 2) {
    const why = auto && players >= r.two_packs_from
      ? `these rules shuffle in a second pack from ${r.two_packs_from} players, as their source advises, so every card is there twice`
      : auto ? "one pack cannot deal every hand" : "the rule options ask for two";
    return h("p", {class: "whot-packs", "data-packs": 2},
      h("strong", {}, `Two packs (${2 * PACK_SIZE} cards): `), `${why}. `,
      oneFits ? h("button", {type: "button", class: "small-btn", id: "one-pack", onclick: () => set("packs", 1)},
        "Play with one pack") : null);
  }
  if (!auto && players >= r.two_packs_from) {
    return h("p", {class: "whot-packs", "data-packs": 1},
      h("strong", {}, `One pack (${PACK_SIZE} cards)`), `, though these rules advise two from ${r.two_packs_from} players. `,
      h("button", {type: "button", class: "small-btn", id: "two-packs", onclick: () => set("packs", 0)}, "As the rules advise"));
  }
  return h("p", {class: "whot-packs", "data-packs": 1}, `One pack (${PACK_SIZE} cards).`);
}
