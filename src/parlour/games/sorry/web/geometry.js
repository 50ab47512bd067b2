// Sorry!'s board as geometry: every square's name, where it is drawn, and where a pawn lands a
// number of steps on. For drawing only: the server's legal moves say what may be played.

export const COLOURS = ["red", "blue", "yellow", "green"];
export const LETTERS = "rbyg";
export const INK = {red: "#d1242f", blue: "#1f63c6", yellow: "#f2c230", green: "#238b3e"};
export const TINT = {red: "#f6c7c9", blue: "#c6d8f4", yellow: "#fbedb8", green: "#c4e6cc"};
export const TEXT_ON = {red: "#fff", blue: "#fff", yellow: "#1d1d1f", green: "#fff"};
export const SHAPE_WORD = {red: "circle", blue: "square", yellow: "triangle", green: "diamond"};
export const CARD_TEXT = {
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
export const C = 40;          // one track square
export const N = 16;          // squares along a side of the board, corners included
export const SIZE = C * N;    // the viewBox


// --- geometry (for drawing only) --------------------------------------------------------------

/** Centre (x, y) of a place given in red's frame (along the side, depth inward), turned to `side`. */
export function at(side, along, depth) {
  let r = depth, c = along;
  if (side === 1) [r, c] = [along, N - 1 - depth];
  else if (side === 2) [r, c] = [N - 1 - depth, N - 1 - along];
  else if (side === 3) [r, c] = [N - 1 - along, depth];
  return [c * C + C / 2, r * C + C / 2];
}

export const trackName = (code) => LETTERS[Math.floor(code / 15)] + ((code % 15) + 1);
export const startCentre = (ci) => at(ci, 3.6, 2.15);
export const homeCentre = (ci) => at(ci, 1.55, 6.55);

/** Every square name of the board (as views, moves and events give them) and what it is, built
 * once: {kind: "track" | "safety" | "start" | "home", ci (its side or colour), code (track
 * 0..59), n (safety 1..5), xy (where it is drawn)}. A table of names, not a reading of notation. */
export const SQUARES = new Map();
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
export const START_OF = Object.fromEntries(COLOURS.map((c, ci) => [c, `${LETTERS[ci]}start`]));
export const HOME_OF = Object.fromEntries(COLOURS.map((c, ci) => [c, `${LETTERS[ci]}home`]));
export const EXIT_OF = Object.fromEntries(COLOURS.map((c, ci) => [c, trackName(ci * 15 + 3)]));
export const kindOf = (name) => (SQUARES.get(name) || {}).kind;
export const inStartOrHome = (name) => kindOf(name) === "start" || kindOf(name) === "home";
/** A colour's square as events and views name it ("start", "home", "r4") -> a board name. */
export const boardName = (colour, sq) => (sq === "start" ? START_OF[colour] : sq === "home" ? HOME_OF[colour] : sq);

/** Where a square name is drawn: track, safety zone, or a colour's START / HOME circle. */
export function place(name) {
  const sq = SQUARES.get(name);
  return sq ? sq.xy : [SIZE / 2, SIZE / 2];
}

/** A pawn of colour index ci on square `name` moved `n` steps: [landing square, slide end or null].
 * Only where to draw a destination: the server's legal moves say what may be played. */
export function stepFrom(ci, name, n) {
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
export function fromWire(w) {
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

export const cardWord = (c) => (c === "S" ? "SORRY!" : c);
