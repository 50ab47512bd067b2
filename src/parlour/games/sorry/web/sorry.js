// Sorry!: the board in SVG (60-square track, slides, safety zones, START and HOME), the card, the
// point-score hand, and moves by clicks: a pawn, then one of its destinations. A split 7 is the
// first pawn and how far, then the second pawn; an 11 change is a pawn, then the opponent's pawn;
// SORRY! is a click on the victim. Every choice comes from the legal moves' fields (msg.moves, in
// the order of msg.legal, whose texts are what is sent back); the arithmetic below only says where
// to draw a destination, never what is legal. The last turn is marked on the board from the typed
// events (msg.events): where each pawn came from and went, its slide, the pawns sent back.

import {h, s, fill, clickable} from "/static/js/dom.js";

const COLOURS = ["red", "blue", "yellow", "green"];
const LETTERS = "rbyg";
const INK = {red: "#d1242f", blue: "#1f63c6", yellow: "#f2c230", green: "#238b3e"};
const TINT = {red: "#f6c7c9", blue: "#c6d8f4", yellow: "#fbedb8", green: "#c4e6cc"};
const TEXT_ON = {red: "#fff", blue: "#fff", yellow: "#1d1d1f", green: "#fff"};
const SHAPE_WORD = {red: "circle", blue: "square", yellow: "triangle", green: "diamond"};
const CARD_TEXT = {
  "1": "Start a pawn, or move one pawn forward 1.",
  "2": "Start a pawn, or move one pawn forward 2. Draw again.",
  "3": "Move one pawn forward 3.",
  "4": "Move one pawn backward 4.",
  "5": "Move one pawn forward 5.",
  "7": "Move one pawn forward 7, or split the 7 between two pawns.",
  "8": "Move one pawn forward 8.",
  "10": "Move one pawn forward 10, or backward 1.",
  "11": "Move one pawn forward 11, or change places with an opponent's pawn.",
  "12": "Move one pawn forward 12.",
  "S": "Take a pawn from START to an opponent's square; that pawn goes back to START.",
};
const C = 40;          // one track square
const N = 16;          // squares along a side of the board, corners included
const SIZE = C * N;    // the viewBox

let cssAdded = false;

// --- geometry (for drawing only) --------------------------------------------------------------

/** Centre (x, y) of a place given in red's frame (along the side, depth inward), turned to `side`. */
function at(side, along, depth) {
  let r = depth, c = along;
  if (side === 1) [r, c] = [along, N - 1 - depth];
  else if (side === 2) [r, c] = [N - 1 - depth, N - 1 - along];
  else if (side === 3) [r, c] = [N - 1 - along, depth];
  return [c * C + C / 2, r * C + C / 2];
}

const trackName = (code) => LETTERS[Math.floor(code / 15)] + ((code % 15) + 1);
const startCentre = (ci) => at(ci, 3.6, 2.15);
const homeCentre = (ci) => at(ci, 1.55, 6.55);

/** Every square name of the board (as views, moves and events give them) and what it is, built
 * once: {kind: "track" | "safety" | "start" | "home", ci (its side or colour), code (track
 * 0..59), n (safety 1..5), xy (where it is drawn)}. A table of names, not a reading of notation. */
const SQUARES = new Map();
for (let code = 0; code < 60; code++) {
  const ci = Math.floor(code / 15);
  SQUARES.set(trackName(code), {kind: "track", ci, code, xy: at(ci, code % 15, 0)});
}
COLOURS.forEach((colour, ci) => {
  const L = LETTERS[ci];
  for (let n = 1; n <= 5; n++) SQUARES.set(`${L}s${n}`, {kind: "safety", ci, n, xy: at(ci, 1, n)});
  SQUARES.set(`${L}start`, {kind: "start", ci, xy: startCentre(ci)});
  SQUARES.set(`${L}home`, {kind: "home", ci, xy: homeCentre(ci)});
});
/** A colour's START and HOME as square names, and its start exit (side number 4). */
const START_OF = Object.fromEntries(COLOURS.map((c, ci) => [c, `${LETTERS[ci]}start`]));
const HOME_OF = Object.fromEntries(COLOURS.map((c, ci) => [c, `${LETTERS[ci]}home`]));
const EXIT_OF = Object.fromEntries(COLOURS.map((c, ci) => [c, trackName(ci * 15 + 3)]));
const kindOf = (name) => (SQUARES.get(name) || {}).kind;
const inStartOrHome = (name) => kindOf(name) === "start" || kindOf(name) === "home";
/** A colour's square as events and views name it ("start", "home", "r4") -> a board name. */
const boardName = (colour, sq) => (sq === "start" ? START_OF[colour] : sq === "home" ? HOME_OF[colour] : sq);

/** Where a square name is drawn: track, safety zone, or a colour's START / HOME circle. */
function place(name) {
  const sq = SQUARES.get(name);
  return sq ? sq.xy : [SIZE / 2, SIZE / 2];
}

/** A pawn of colour index ci on square `name` moved `n` steps: [landing square, slide end or null].
 * Only where to draw a destination: the server's legal moves say what may be played. */
function stepFrom(ci, name, n) {
  const L = LETTERS[ci];
  const sq = SQUARES.get(name);
  let rel;
  if (sq && sq.kind === "track") rel = (((sq.code - 15 * ci - 2) % 60) + 60) % 60;
  else if (sq && sq.kind === "safety" && sq.ci === ci) rel = 59 + sq.n;
  else return [null, null];
  const to = n < 0 && rel < 60 ? (((rel + n) % 60) + 60) % 60 : rel + n;
  if (to === 65) return [`${L}home`, null];
  if (to >= 60) return [`${L}s${to - 59}`, null];
  if (to < 0 || to > 65) return [null, null];
  const code = (to + 15 * ci + 2) % 60;
  const number = (code % 15) + 1, side = Math.floor(code / 15);
  if ((number === 1 || number === 9) && side !== ci) return [trackName(code), trackName(code + (number === 1 ? 3 : 4))];
  return [trackName(code), null];
}

// --- the legal moves, from their fields (msg.moves, in the order of msg.legal) ------------------

/** A move as this module works with it, from its wire form {text, kind, card, pawn, steps, ...}. */
function fromWire(w) {
  const {text, card} = w;
  switch (w.kind) {
    case "pass": return card ? {kind: "discard", card, text} : {kind: "pass", text};
    case "enter": return {kind: "enter", card, text, source: START_OF[w.colour], dest: EXIT_OF[w.colour]};
    case "sorry": return {kind: "sorry", card, text, source: START_OF[w.colour], dest: w.target};
    case "swap": return {kind: "swap", card, text, source: w.pawn, dest: w.with};
    case "move": return {kind: "move", card, text, source: w.pawn, n: w.steps};
    case "split": return {kind: "split", card, text, parts: [{sq: w.pawn, n: w.steps}, {sq: w.pawn2, n: w.steps2}]};
    default: return {kind: "other", card, text};
  }
}

const cardWord = (c) => (c === "S" ? "SORRY!" : c);

// --- the module -------------------------------------------------------------------------------

export function mount(el, ctx) {
  if (!cssAdded) {
    cssAdded = true;
  }
  let msg = null;
  let key = "";
  // the last turn, from the events: {colour, paths: [[from, to]], slides: [[from, to]], bumps: []}
  let last = null;
  let lastGame = null;
  // what this person has clicked so far this turn (not game state: it is reset by every new view)
  let sel = {card: null, source: null, split: null, choices: null, hinted: null};

  const svg = s("svg", {viewBox: `0 0 ${SIZE} ${SIZE}`, class: "sorry-board", role: "group",
    "aria-label": "Sorry! board"});
  const prompt = h("p", {class: "sorry-prompt", "aria-live": "polite"});
  const controls = h("div", {class: "sorry-controls"});
  const handBox = h("div", {class: "sorry-hand", role: "group", "aria-label": "Your hand"});
  const legend = h("ul", {class: "sorry-legend", "aria-label": "Colours"});
  fill(el, h("div", {class: "sorry"},
    h("div", {class: "sorry-board-wrap"}, svg),
    h("div", {class: "sorry-side"}, prompt, handBox, controls, legend)));

  // ---- helpers over the current message
  const view = () => msg.view;
  const mine = () => (msg && msg.legal ? msg.legal : []);
  /** This turn's legal moves from their fields (the server sends them beside the texts). */
  const allMoves = () => (msg && msg.moves ? msg.moves : []).map(fromWire);
  const colourOf = (square) => {
    const sq = SQUARES.get(square);
    if (sq && sq.kind !== "track") return sq.ci;
    for (const [colour, squares] of Object.entries(view().pawns)) {
      if (squares.includes(square)) return COLOURS.indexOf(colour);
    }
    return null;
  };
  const ownerName = (colour) => {
    const i = view().colours.indexOf(colour);
    return i < 0 ? "" : ctx.name(view().seats[i]);
  };
  const squareWords = (name) => {
    const sq = SQUARES.get(name);
    if (inStartOrHome(name)) return `${COLOURS[sq.ci]} ${sq.kind.toUpperCase()}`;
    return name;
  };

  /** The parsed legal moves of this turn, narrowed to the chosen card in the point-score game. */
  function moves() {
    const all = allMoves();
    if (!view().point_score) return all;
    return all.filter((m) => m.kind === "pass" || m.kind === "discard" || m.card === sel.card);
  }
  const boardMoves = () => moves().filter((m) => m.kind !== "pass" && m.kind !== "discard");
  function sourcesOf(m) {
    if (m.kind === "split") return [m.parts[0].sq, m.parts[1].sq];
    return m.source ? [m.source] : [];
  }
  function sources() {
    const out = new Map();
    for (const m of boardMoves()) for (const src of sourcesOf(m)) {
      if (!out.has(src)) out.set(src, []);
      out.get(src).push(m);
    }
    return out;
  }

  /** Destinations of the selected pawn: square -> {moves, split, slide}. */
  function destinations() {
    const out = new Map();
    const src = sel.source;
    if (!src) return out;
    const add = (sq, m, extra = {}) => {
      if (!sq) return;
      if (!out.has(sq)) out.set(sq, {moves: [], splits: new Set(), slide: null});
      const d = out.get(sq);
      if (m) d.moves.push(m);
      if (extra.split) d.splits.add(extra.split);
      if (extra.slide) d.slide = extra.slide;
    };
    const ci = colourOf(src);
    for (const m of sources().get(src) || []) {
      if (m.kind === "enter" || m.kind === "sorry" || m.kind === "swap") add(m.dest, m);
      else if (m.kind === "move") {
        const [to, slide] = stepFrom(ci, src, m.n);
        add(to, m, {slide});
      } else if (m.kind === "split") {
        const p = m.parts.find((q) => q.sq === src);
        const [to] = stepFrom(ci, src, p.n);
        add(to, null, {split: p.n});
      }
    }
    return out;
  }

  /** Split 7s that move `a` by `n`: second pawn -> {moves, n, dest}. */
  function seconds() {
    const out = new Map();
    const {a, n} = sel.split;
    for (const m of boardMoves()) {
      if (m.kind !== "split") continue;
      const mePart = m.parts.find((q) => q.sq === a && q.n === n);
      if (!mePart) continue;
      const other = m.parts.find((q) => q !== mePart);
      if (!out.has(other.sq)) {
        const [to, slide] = stepFrom(colourOf(other.sq), other.sq, other.n);
        out.set(other.sq, {moves: [], n: other.n, dest: to, slide});
      }
      out.get(other.sq).moves.push(m);
    }
    return out;
  }

  function describe(m) {
    const card = cardWord(m.card);
    switch (m.kind) {
      case "pass": return "Pass: no move can be made";
      case "discard": return `Discard the ${card} and draw`;
      case "enter": return `${card}: a ${COLOURS[colourOf(m.source)]} pawn leaves START for ${m.dest}`;
      case "sorry": return `SORRY!: from ${COLOURS[colourOf(m.source)]} START onto ${m.dest}, sending that pawn back to START`;
      case "swap": return `${card}: change places, ${m.source} with ${m.dest}`;
      case "move": {
        const [to, slide] = stepFrom(colourOf(m.source), m.source, m.n);
        const way = m.n < 0 ? `back ${-m.n}` : `forward ${m.n}`;
        return `${card}: ${m.source} ${way} to ${squareWords(to || "?")}${slide ? `, sliding to ${slide}` : ""}`;
      }
      case "split": {
        const [a, b] = m.parts;
        return `7 split: ${a.sq} forward ${a.n} first, then ${b.sq} forward ${b.n}`;
      }
      default: return m.text;
    }
  }

  function play(text) {
    if (!mine().includes(text)) return; // never send anything that is not legal
    sel = {card: sel.card, source: null, split: null, choices: null, hinted: null};
    ctx.send(text);
  }

  /** One legal move: play it; several: ask which (the chooser lists them as buttons). */
  function choose(list, what) {
    const texts = [...new Set(list.map((m) => m.text))];
    if (texts.length === 1) { play(texts[0]); return; }
    sel.choices = {what, moves: list};
    draw(true);
  }

  function reset(keepCard = true) {
    sel = {card: keepCard ? sel.card : null, source: null, split: null, choices: null, hinted: sel.hinted};
  }

  function autoSelect() {
    if (sel.source || sel.split) return;
    if (view().point_score && !sel.card) {
      const cards = [...new Set(allMoves().filter((m) => m.card && m.kind !== "discard").map((m) => m.card))];
      if (cards.length === 1) sel.card = cards[0];
      else return;
    }
    const srcs = sources();
    if (srcs.size === 1) sel.source = [...srcs.keys()][0];
  }

  // ---- drawing

  function drawTrack(g) {
    for (let code = 0; code < 60; code++) {
      const side = Math.floor(code / 15), number = (code % 15) + 1;
      const [x, y] = at(side, code % 15, 0);
      const colour = COLOURS[side];
      const diamond = number === 2, exit = number === 4;
      g.append(s("rect", {x: x - C / 2 + 1, y: y - C / 2 + 1, width: C - 2, height: C - 2, rx: 4,
        class: "sq" + (exit ? " exit" : ""), fill: diamond ? TINT[colour] : "#fbf8f0",
        stroke: exit ? INK[colour] : "#b9b09a"}));
      if (diamond) {
        g.append(s("path", {d: `M${x} ${y - 9} L${x + 9} ${y} L${x} ${y + 9} L${x - 9} ${y} Z`,
          fill: "none", stroke: INK[colour], "stroke-width": 2}));
      }
      g.append(s("text", {x: x - C / 2 + 3, y: y - C / 2 + 10, class: "sq-name"}, trackName(code)));
    }
  }

  function drawSlides(g) {
    for (let side = 0; side < 4; side++) {
      for (const [a, b] of [[1, 4], [9, 13]]) {
        const [x1, y1] = at(side, a - 1, 0), [x2, y2] = at(side, b - 1, 0);
        const colour = INK[COLOURS[side]];
        const dx = Math.sign(x2 - x1), dy = Math.sign(y2 - y1);
        g.append(s("line", {x1, y1, x2, y2, stroke: colour, "stroke-width": 7, "stroke-linecap": "round", opacity: 0.75}));
        // the triangle points the way pawns go; the round end stops them
        const px = -dy, py = dx;
        const tip = [x1 + dx * 10, y1 + dy * 10];
        const b1 = [x1 - dx * 8 + px * 10, y1 - dy * 8 + py * 10];
        const b2 = [x1 - dx * 8 - px * 10, y1 - dy * 8 - py * 10];
        g.append(s("path", {d: `M${tip} L${b1} L${b2} Z`, fill: colour, stroke: "#fff", "stroke-width": 1.5}));
        g.append(s("circle", {cx: x2, cy: y2, r: 8, fill: colour, stroke: "#fff", "stroke-width": 1.5}));
      }
    }
  }

  function drawZones(g, inPlay) {
    for (const colour of inPlay) {
      const ci = COLOURS.indexOf(colour), L = LETTERS[ci];
      for (let n = 1; n <= 5; n++) {
        const [x, y] = at(ci, 1, n);
        g.append(s("rect", {x: x - C / 2 + 3, y: y - C / 2 + 1, width: C - 6, height: C - 2, rx: 4,
          fill: TINT[colour], stroke: INK[colour], "stroke-width": 1.5}));
        g.append(s("text", {x: x - C / 2 + 5, y: y - C / 2 + 10, class: "sq-name"}, `${L}s${n}`));
      }
      for (const [what, [cx, cy]] of [["START", startCentre(ci)], ["HOME", homeCentre(ci)]]) {
        g.append(s("circle", {cx, cy, r: 37, fill: TINT[colour], stroke: INK[colour], "stroke-width": 3}));
        g.append(s("text", {x: cx, y: cy - 21, class: "zone-name"}, what));
      }
    }
  }

  function pawnShape(colour, x, y, r) {
    const fillc = INK[colour];
    let shape;
    if (colour === "red") shape = s("circle", {cx: x, cy: y, r});
    else if (colour === "blue") shape = s("rect", {x: x - r * 0.88, y: y - r * 0.88, width: r * 1.76, height: r * 1.76, rx: 3});
    else if (colour === "yellow") shape = s("path", {d: `M${x} ${y - r * 1.15} L${x + r * 1.1} ${y + r * 0.8} L${x - r * 1.1} ${y + r * 0.8} Z`});
    else shape = s("path", {d: `M${x} ${y - r * 1.2} L${x + r * 1.2} ${y} L${x} ${y + r * 1.2} L${x - r * 1.2} ${y} Z`});
    shape.setAttribute("fill", fillc);
    shape.setAttribute("stroke", "#1d1d1f");
    shape.setAttribute("stroke-width", "2");
    const letter = s("text", {x, y: y + (colour === "yellow" ? r * 0.45 : r * 0.4), class: "pawn-letter",
      fill: TEXT_ON[colour], "font-size": r * 1.1}, colour[0].toUpperCase());
    return s("g", {class: "pawn", "aria-hidden": "true"}, shape, letter);
  }

  /** Every pawn: [colour, square name as in the move texts, x, y]. */
  function pawnSpots() {
    const out = [];
    for (const [colour, squares] of Object.entries(view().pawns)) {
      const ci = COLOURS.indexOf(colour);
      let inStart = 0, atHome = 0;
      for (const sq of squares) {
        if (sq === "start" || sq === "home") {
          const k = sq === "start" ? inStart++ : atHome++;
          const [cx, cy] = sq === "start" ? startCentre(ci) : homeCentre(ci);
          const dx = (k % 2 ? 1 : -1) * 14, dy = k < 2 ? -5 : 17;
          out.push([colour, boardName(colour, sq), cx + dx, cy + dy]);
        } else {
          const [x, y] = place(sq);
          out.push([colour, sq, x, y]);
        }
      }
    }
    return out;
  }

  function drawCentre(g) {
    const v = view();
    const cx = SIZE / 2, cy = SIZE / 2;
    let face = v.card, caption = "card drawn";
    if (v.point_score) {
      face = sel.card || (v.discard.length ? v.discard[v.discard.length - 1] : null);
      caption = sel.card ? "card chosen" : "last played";
    }
    const w = 112, hgt = 160;
    const cardG = s("g", {class: "sorry-card", "data-card-face": face || ""},
      s("rect", {x: cx - w / 2, y: cy - hgt / 2 - 12, width: w, height: hgt, rx: 10, fill: face ? "#fffdf8" : "#e9e3d3",
        stroke: "#1d3b2a", "stroke-width": 3}));
    if (face) {
      cardG.append(s("text", {x: cx, y: cy + (face === "S" ? 2 : 14), class: "card-face" + (face === "S" ? " sorry-word" : "")},
        face === "S" ? "SORRY!" : face));
      cardG.append(s("text", {x: cx - w / 2 + 10, y: cy - hgt / 2 + 8, class: "card-corner"}, face));
    }
    cardG.append(s("title", {}, face ? `${caption}: ${cardWord(face)}. ${CARD_TEXT[face] || ""}` : "no card"));
    g.append(cardG);
    g.append(s("text", {x: cx, y: cy - hgt / 2 - 22, class: "centre-caption"}, face ? caption : (v.point_score ? "point-score game" : "")));
    const turn = v.is_over ? "game over" : `${v.turn} to play${v.again ? " (second card of a 2)" : ""}`;
    g.append(s("text", {x: cx, y: cy + hgt / 2 + 8, class: "centre-caption"}, turn));
    g.append(s("text", {x: cx, y: cy + hgt / 2 + 28, class: "centre-small"}, `pack ${v.pack} · discards ${v.discard.length}`));
  }

  function marker(sq, cls, label, onact, data) {
    const [x, y] = place(sq);
    const big = inStartOrHome(sq);
    const g = s("g", {class: "dest " + cls, ...data},
      s("circle", {cx: x, cy: y, r: big ? 34 : 18, class: "ring"}),
      s("circle", {cx: x, cy: y, r: big ? 8 : 5, class: "dot"}));
    return onact ? clickable(g, label, onact) : g;
  }

  function draw(focusFirst = false) {
    if (!msg) return;
    const v = view();
    const legalNow = mine().length > 0;
    const inPlay = v.colours;
    const myColours = inPlay.filter((c, i) => v.seats[i] === v.viewer);
    const board = s("g", {class: "static"});
    drawTrack(board);
    drawZones(board, inPlay);
    drawSlides(board);
    drawCentre(board);

    const srcs = legalNow ? sources() : new Map();
    const pawnsG = s("g", {class: "pawns"});
    const marks = s("g", {class: "marks"});
    const seconds2 = legalNow && sel.split ? seconds() : null;
    const dests = legalNow && sel.source && !sel.split ? destinations() : new Map();
    const hintedTexts = sel.hinted ? new Set([sel.hinted]) : new Set();

    // START circles that a move leaves from are clickable as a whole
    const startGroups = new Map();
    for (const [colour, sq, x, y] of pawnSpots()) {
      const ci = COLOURS.indexOf(colour);
      const owner = ownerName(colour);
      const yours = myColours.includes(colour);
      const where = kindOf(sq) === "start" ? "in START" : kindOf(sq) === "home" ? "at HOME" : `on ${sq}`;
      const base = `${colour} pawn (${colour[0].toUpperCase()}, ${SHAPE_WORD[colour]}) ${where}, ${yours ? "yours" : owner}`;
      const node = pawnShape(colour, x, y, inStartOrHome(sq) ? 11 : 16);
      node.dataset.colour = colour;
      node.dataset.at = sq;
      node.dataset.x = x;
      node.dataset.y = y;
      if (seconds2 && seconds2.has(sq)) {
        // the second pawn of a split 7
        const info = seconds2.get(sq);
        const g = s("g", {class: "pawn-hit second", "data-second": sq},
          s("rect", {x: x - C / 2, y: y - C / 2, width: C, height: C, class: "hit"}), node);
        const label = `then move ${sq} forward ${info.n} to ${squareWords(info.dest || "?")}`;
        clickable(g, label, () => choose(info.moves, `Split the 7 — which pawn moves first?`));
        if (info.moves.length === 1) g.dataset.move = info.moves[0].text;
        if (info.moves.some((m) => hintedTexts.has(m.text))) g.classList.add("hinted");
        pawnsG.append(g);
        continue;
      }
      if (!seconds2 && srcs.has(sq) && kindOf(sq) !== "start") {
        const g = s("g", {class: "pawn-hit source" + (sel.source === sq ? " selected" : ""), "data-pawn": sq},
          s("rect", {x: x - C / 2, y: y - C / 2, width: C, height: C, class: "hit"}), node);
        if ((srcs.get(sq) || []).some((m) => hintedTexts.has(m.text))) g.classList.add("hinted");
        clickable(g, `${base}: choose to move it`, () => {
          sel.source = sel.source === sq ? null : sq; sel.choices = null; draw(true);
        });
        g.setAttribute("aria-pressed", sel.source === sq ? "true" : "false");
        pawnsG.append(g);
        continue;
      }
      const L = LETTERS[ci];
      if (!seconds2 && kindOf(sq) === "start" && srcs.has(START_OF[colour])) {
        const src = START_OF[colour];
        if (!startGroups.has(L)) {
          const [cx, cy] = startCentre(ci);
          const g = s("g", {class: "pawn-hit source start" + (sel.source === src ? " selected" : ""), "data-pawn": src},
            s("circle", {cx, cy, r: 37, class: "hit"}));
          if ((srcs.get(src) || []).some((m) => hintedTexts.has(m.text))) g.classList.add("hinted");
          clickable(g, `${colour} START: choose a pawn to leave START`, () => {
            sel.source = sel.source === src ? null : src; sel.choices = null; draw(true);
          });
          g.setAttribute("aria-pressed", sel.source === src ? "true" : "false");
          startGroups.set(L, g);
          pawnsG.append(g);
        }
        startGroups.get(L).append(node);
        continue;
      }
      node.append(s("title", {}, base));
      pawnsG.append(node);
    }

    // destinations of the selected pawn
    for (const [sq, d] of dests) {
      if (d.moves.length) {
        const texts = d.moves.map((m) => m.text);
        const label = d.moves.length === 1 ? describe(d.moves[0]) : `${squareWords(sq)}: ${d.moves.length} ways to get there`;
        const data = d.moves.length === 1 ? {"data-move": texts[0]} : {"data-dest": sq};
        const mk = marker(sq, "to" + (texts.some((t) => hintedTexts.has(t)) ? " hinted" : ""), label,
          () => choose(d.moves, `Which move to ${squareWords(sq)}?`), data);
        marks.append(mk);
      }
      for (const n of d.splits) {
        const label = `split the 7: ${sel.source} forward ${n} to ${squareWords(sq)}, then a second pawn forward ${7 - n}`;
        const mk = marker(sq, "split", label, () => {
          sel.split = {a: sel.source, n}; sel.choices = null; draw(true);
        }, {"data-split": `${sel.source}+${n}`});
        const [x, y] = place(sq);
        mk.append(s("text", {x, y: y - 20, class: "split-n"}, `+${n}`));
        marks.append(mk);
      }
    }
    // a split 7 under way: where the first pawn goes, and where each second pawn would go
    if (seconds2) {
      const [to] = stepFrom(colourOf(sel.split.a), sel.split.a, sel.split.n);
      if (to) {
        const ghost = marker(to, "ghost", "", null, {});
        const [x, y] = place(to);
        ghost.append(s("text", {x, y: y - 20, class: "split-n"}, `+${sel.split.n}`));
        marks.append(ghost);
      }
      for (const [sq, info] of seconds2) {
        if (!info.dest) continue;
        const data = info.moves.length === 1 ? {"data-move": info.moves[0].text} : {"data-dest": info.dest};
        const hot = info.moves.some((m) => hintedTexts.has(m.text)) ? " hinted" : "";
        const mk = marker(info.dest, "to" + hot, `then ${sq} forward ${info.n} to ${squareWords(info.dest)}`,
          () => choose(info.moves, "Split the 7 — which pawn moves first?"), data);
        marks.append(mk);
      }
    }

    const title = s("title", {}, boardSummary());
    fill(svg, title, board, drawLast(), pawnsG, marks);
    drawSide(myColours);
    if (focusFirst) {
      const first = el.querySelector(".sorry-choices button, .marks .clickable, .pawn-hit.second");
      if (first) first.focus({preventScroll: true});
    }
  }

  /** One typed event of the game (a wire object {kind, ...}): what the last turn did. */
  function readEvent(ev) {
    if (ev.kind === "play") {
      last = {colour: ev.colour, paths: ev.pawns.map(([c, from, to]) => [boardName(c, from), boardName(c, to)]),
        slides: [], bumps: []};
    } else if (ev.kind === "forfeit") {
      last = null;
    } else if (last && ev.kind === "slide") {
      last.slides.push([ev.source, ev.dest]);
    } else if (last && ev.kind === "bump") {
      last.bumps.push(ev.square);
    }
  }

  /** The last turn, faintly: where its pawns came from, where they went, slides, pawns sent back. */
  function drawLast() {
    const g = s("g", {class: "last-move", "aria-hidden": "true"});
    if (!last) return g;
    const ink = INK[last.colour] || "#1d1d1f";
    for (const [from, to] of last.paths) {
      const [x1, y1] = place(from), [x2, y2] = place(to);
      g.append(s("circle", {cx: x1, cy: y1, r: inStartOrHome(from) ? 30 : 9, class: "last-from", "data-last-from": from}));
      g.append(s("circle", {cx: x2, cy: y2, r: inStartOrHome(to) ? 34 : 19, class: "last-to", stroke: ink,
        "data-last-to": to}));
    }
    for (const [from, to] of last.slides) {
      const [x1, y1] = place(from), [x2, y2] = place(to);
      g.append(s("line", {x1, y1, x2, y2, class: "last-slide", stroke: ink, "data-last-slide": `${from}-${to}`}));
      g.append(s("circle", {cx: x2, cy: y2, r: 19, class: "last-to", stroke: ink, "data-last-to": to}));
    }
    for (const sq of last.bumps) {
      const [x, y] = place(sq);
      g.append(s("text", {x, y: y + 6, class: "last-bump", "data-bumped": sq}, "×"));
    }
    return g;
  }

  function boardSummary() {
    const v = view();
    return v.colours.map((c) => {
      const sq = v.pawns[c];
      return `${c} (${ownerName(c)}): ${sq.join(", ")}`;
    }).join("; ");
  }

  function drawSide(myColours) {
    const v = view();
    const legalNow = mine().length > 0;
    const parsed = allMoves();
    // the point-score hand
    const hands = v.hands || {};
    const handCards = myColours.flatMap((c) => hands[c] || []);
    if (v.point_score && handCards.length) {
      const playable = new Set(parsed.filter((m) => m.card && m.kind !== "discard").map((m) => m.card));
      const kids = [h("span", {class: "hand-title"}, "Your hand:")];
      handCards.forEach((c, i) => {
        const ok = legalNow && playable.has(c);
        const chosen = sel.card === c;
        kids.push(h("button", {type: "button", class: "sorry-cardbtn" + (chosen ? " chosen" : ""),
          "data-card": c, disabled: !ok, "aria-pressed": chosen ? "true" : "false",
          "aria-label": `${cardWord(c)}: ${CARD_TEXT[c] || ""}${ok ? "" : " (cannot be played now)"}`,
          title: CARD_TEXT[c] || "",
          onclick: () => { sel = {card: chosen ? null : c, source: null, split: null, choices: null, hinted: sel.hinted}; autoSelect(); draw(true); },
        }, h("span", {class: "face"}, c === "S" ? "SORRY!" : c), h("span", {class: "idx sr-only"}, ` card ${i + 1}`)));
      });
      fill(handBox, kids);
      handBox.hidden = false;
    } else {
      fill(handBox);
      handBox.hidden = true;
    }

    // prompt
    let text;
    if (v.is_over) text = "The game is over.";
    else if (!legalNow) text = v.point_score ? `${v.turn} to play.` : `${v.turn} to play with the ${cardWord(v.card || "?")}.`;
    else if (parsed.every((m) => m.kind === "pass")) text = `No move is possible with the ${cardWord(v.card || "?")}: pass.`;
    else if (v.point_score && !sel.card) text = "Choose a card from your hand.";
    else if (sel.split) text = `Split 7: ${sel.split.a} moves ${sel.split.n}. Now click the second pawn (it moves ${7 - sel.split.n}).`;
    else if (sel.source) {
      const what = kindOf(sel.source) === "start" ? `a pawn from ${squareWords(sel.source)}` : `the pawn on ${sel.source}`;
      const card = v.point_score ? sel.card : v.card;
      text = `Click a ringed square: where ${what} goes.`;
      if (card === "7") text += " A dashed ring marked +N moves it N and splits the 7 with a second pawn.";
      if (card === "11") text += " A ring on an opponent's pawn changes places with it.";
      if (card === "S") text += " Click the opponent's pawn to send back to START.";
    }
    else text = `Your ${cardWord(v.point_score ? sel.card : v.card)}: click a pawn to move it.`;
    if (legalNow && v.card && !v.point_score && !parsed.every((m) => m.kind === "pass")) text += ` ${CARD_TEXT[v.card] || ""}`;
    prompt.textContent = text;

    // buttons: chooser, pass / discard, cancel
    const kids = [];
    if (sel.choices) {
      kids.push(h("div", {class: "sorry-choices", role: "group", "aria-label": sel.choices.what},
        h("p", {class: "choices-title"}, sel.choices.what),
        ...sel.choices.moves.map((m) => h("button", {type: "button", class: "primary", "data-move": m.text,
          onclick: () => play(m.text)}, describe(m)))));
    }
    for (const m of parsed) {
      if (m.kind === "pass") {
        const only = parsed.length === 1;
        kids.push(h("button", {type: "button", class: "pass", "data-move": "pass", onclick: () => play("pass")},
          only ? "Forfeit the turn (no move possible)" : "Pass (make no move)"));
      } else if (m.kind === "discard") {
        kids.push(h("button", {type: "button", class: "pass", "data-move": m.text, onclick: () => play(m.text)},
          `Discard the ${cardWord(m.card)} and draw`));
      }
    }
    if (legalNow && (sel.source || sel.split || sel.choices)) {
      kids.push(h("button", {type: "button", class: "cancel small-btn",
        onclick: () => { reset(); draw(true); }}, "Cancel"));
    }
    fill(controls, kids);

    // colours and who plays them (with the pawn's shape and letter)
    fill(legend, v.colours.map((c, i) => {
      const key = s("svg", {viewBox: "0 0 40 40", width: 22, height: 22, "aria-hidden": "true"}, pawnShape(c, 20, 21, 13));
      const pawns = v.pawns[c];
      const home = pawns.filter((p) => p === "home").length, start = pawns.filter((p) => p === "start").length;
      return h("li", {class: "legend-item" + (c === v.turn ? " turn" : "")}, key,
        h("span", {}, `${c} — ${ctx.name(v.seats[i])}`),
        h("span", {class: "muted small"}, ` START ${start} · HOME ${home}`));
    }));
  }

  // --- motion: each pawn step by step along the track, its slide, a bump back to START ----------
  /** The squares a pawn passes on its way: one per step of a move along the track. */
  function pathOf(colour, from, to, n) {
    const ci = COLOURS.indexOf(colour);
    const k = kindOf(from);
    if (n && (k === "track" || k === "safety")) {
      const out = [];
      const dir = Math.sign(n);
      for (let j = 1; j <= Math.abs(n); j++) {
        const [sq] = stepFrom(ci, from, dir * j);
        if (sq) out.push(place(sq));
      }
      if (out.length) { out[out.length - 1] = place(to); return out; }
    }
    return [place(to)];
  }

  async function animate(m, motion) {
    const spots = new Map(); // "colour:square" -> [{node, origin, at}]
    for (const node of svg.querySelectorAll("g.pawn[data-colour]")) {
      const key = `${node.dataset.colour}:${node.dataset.at}`;
      const xy = [Number(node.dataset.x), Number(node.dataset.y)];
      if (!spots.has(key)) spots.set(key, []);
      spots.get(key).push({node, origin: xy, at: xy});
    }
    const take = (colour, sq) => spots.get(`${colour}:${sq}`)?.shift() || null;
    const put = (colour, sq, p) => {
      const key = `${colour}:${sq}`;
      if (!spots.has(key)) spots.set(key, []);
      spots.get(key).push(p);
    };
    const board = svg.parentNode;
    const events = m.events || [];
    for (let i = 0; i < events.length; i++) {
      const ev = events[i];
      const words = m.log?.[i] || "";
      if (ev.kind === "play") {
        motion.caption(board, words);
        ctx.sound("play");
        const mv = ev.move || {};
        const steps = mv.kind === "move" ? {[mv.pawn]: mv.steps}
          : mv.kind === "split" ? {[mv.pawn]: mv.steps, [mv.pawn2]: mv.steps2} : {};
        for (const [colour, from, to] of ev.pawns || []) {
          const a = boardName(colour, from), b = boardName(colour, to);
          const p = take(colour, a);
          if (!p) continue;
          const path = mv.kind === "swap" || mv.kind === "sorry" ? [place(b)] : pathOf(colour, a, b, steps[a]);
          await motion.glide(p.node, [p.at, ...path], {origin: p.origin});
          p.at = path[path.length - 1];
          put(colour, b, p);
        }
      } else if (ev.kind === "slide") {
        const p = take(ev.colour, ev.source);
        if (p) {
          const to = place(ev.dest);
          await motion.glide(p.node, [p.at, to], {origin: p.origin, ms: motion.ms(0.8)});
          p.at = to;
          put(ev.colour, ev.dest, p);
        }
      } else if (ev.kind === "bump") {
        motion.caption(board, words);
        const p = take(ev.colour, ev.square);
        if (p) {
          const home = startCentre(COLOURS.indexOf(ev.colour));
          await motion.glide(p.node, [p.at, home], {origin: p.origin, ms: motion.ms(1)});
          p.at = home;
        }
      } else if (ev.kind === "draw") {
        ctx.sound("draw");
      } else if (words && ev.kind !== "reshuffle") {
        motion.caption(board, words);
        await motion.wait(motion.ms(1.2));
      }
    }
  }

  let winWords = "";

  return {
    animate,
    ownsPlayers: true,
    words: (fields) => describe(fromWire(fields)),
    resultWords: () => winWords,
    pointsLabel: () => (msg?.view?.point_score ? "Points" : "Pawns HOME"),
    update(m) {
      if (m.events_from === 0 || m.game_number !== lastGame) winWords = "";
      (m.events || []).forEach((e, i) => { if (e.kind === "win") winWords = m.log?.[i] || ""; });
      msg = m;
      if (m.events_from === 0 || m.game_number !== lastGame) { last = null; lastGame = m.game_number; }
      for (const ev of m.events || []) readEvent(ev);
      const k = `${m.game_number}:${m.ply}:${(m.legal || []).join("|")}`;
      if (k !== key) {
        key = k;
        sel = {card: null, source: null, split: null, choices: null, hinted: null};
        if (mine().length) autoSelect();
      }
      draw(false);
    },
    hint(move) {
      if (!msg || !mine().includes(move)) return;
      const m = allMoves().find((x) => x.text === move);
      if (!m) return;
      sel = {card: m.card && m.kind !== "discard" ? m.card : null, source: null, split: null, choices: null, hinted: move};
      if (m.kind === "split") sel.split = {a: m.parts[0].sq, n: m.parts[0].n};
      else if (m.source) sel.source = m.source;
      draw(false);
      const node = el.querySelector(`[data-move="${CSS.escape(move)}"]`);
      if (node) node.classList.add("hinted");
    },
  };
}
