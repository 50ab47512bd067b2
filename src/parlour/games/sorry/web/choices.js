// Sorry!'s turn as a person builds it by clicks: the legal moves of this turn (from their fields,
// msg.moves, in the order of msg.legal), narrowed by what has been clicked so far (`sel`: the card
// chosen in the point-score game, the pawn chosen, the first half of a split 7). The arithmetic
// of geometry.js only says where a destination is drawn, never what is legal.
import { COLOURS, SQUARES, cardWord, fromWire, inStartOrHome, stepFrom } from "./geometry.js";

/** A fresh selection: nothing clicked yet (the card chosen may be kept). */
export function noSelection(card = null, hinted = null) {
  return {card, source: null, split: null, choices: null, hinted};
}

/** The texts of this seat's legal moves now ([] when it is not its turn). */
export const legalTexts = (msg) => (msg && msg.legal ? msg.legal : []);

/** This turn's legal moves from their fields (the server sends them beside the texts). */
export const allMoves = (msg) => (msg && msg.moves ? msg.moves : []).map(fromWire);

/** The colour index of the pawn on `square` (its zone's colour off the track). */
export function colourOf(view, square) {
  const sq = SQUARES.get(square);
  if (sq && sq.kind !== "track") return sq.ci;
  for (const [colour, squares] of Object.entries(view.pawns)) {
    if (squares.includes(square)) return COLOURS.indexOf(colour);
  }
  return null;
}

/** A square's name for people: "red START", or the track's own name. */
export function squareWords(name) {
  const sq = SQUARES.get(name);
  if (inStartOrHome(name)) return `${COLOURS[sq.ci]} ${sq.kind.toUpperCase()}`;
  return name;
}

/** The legal moves, narrowed to the chosen card in the point-score game. */
export function moves(msg, sel) {
  const all = allMoves(msg);
  if (!msg.view.point_score) return all;
  return all.filter((m) => m.kind === "pass" || m.kind === "discard" || m.card === sel.card);
}

export const boardMoves = (msg, sel) => moves(msg, sel).filter((m) => m.kind !== "pass" && m.kind !== "discard");

function sourcesOf(m) {
  if (m.kind === "split") return [m.parts[0].sq, m.parts[1].sq];
  return m.source ? [m.source] : [];
}

/** The pawns (squares) a legal move starts from: square -> its moves. */
export function sources(msg, sel) {
  const out = new Map();
  for (const m of boardMoves(msg, sel)) for (const src of sourcesOf(m)) {
    if (!out.has(src)) out.set(src, []);
    out.get(src).push(m);
  }
  return out;
}

/** Destinations of the selected pawn: square -> {moves, splits, slide}. */
export function destinations(msg, sel) {
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
  const ci = colourOf(msg.view, src);
  for (const m of sources(msg, sel).get(src) || []) {
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

/** Split 7s that move the first pawn `a` by `n`: second pawn -> {moves, n, dest, slide}. */
export function seconds(msg, sel) {
  const out = new Map();
  const {a, n} = sel.split;
  for (const m of boardMoves(msg, sel)) {
    if (m.kind !== "split") continue;
    const mePart = m.parts.find((q) => q.sq === a && q.n === n);
    if (!mePart) continue;
    const other = m.parts.find((q) => q !== mePart);
    if (!out.has(other.sq)) {
      const [to, slide] = stepFrom(colourOf(msg.view, other.sq), other.sq, other.n);
      out.set(other.sq, {moves: [], n: other.n, dest: to, slide});
    }
    out.get(other.sq).moves.push(m);
  }
  return out;
}

/** A move in words ("5: r4 forward 5 to r9, sliding to r13"). */
export function describe(view, m) {
  const card = cardWord(m.card);
  const colour = (sq) => COLOURS[colourOf(view, sq)];
  switch (m.kind) {
    case "pass": return "Pass: no move can be made";
    case "discard": return `Discard the ${card} and draw`;
    case "enter": return `${card}: a ${colour(m.source)} pawn leaves START for ${m.dest}`;
    case "sorry": return `SORRY!: from ${colour(m.source)} START onto ${m.dest}, sending that pawn back to START`;
    case "swap": return `${card}: change places, ${m.source} with ${m.dest}`;
    case "move": {
      const [to, slide] = stepFrom(colourOf(view, m.source), m.source, m.n);
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

/** Choose for the person what is the only choice: the card in the point-score game, the pawn. */
export function autoSelect(msg, sel) {
  if (sel.source || sel.split) return;
  if (msg.view.point_score && !sel.card) {
    const cards = [...new Set(allMoves(msg).filter((m) => m.card && m.kind !== "discard").map((m) => m.card))];
    if (cards.length === 1) sel.card = cards[0];
    else return;
  }
  const srcs = sources(msg, sel);
  if (srcs.size === 1) sel.source = [...srcs.keys()][0];
}

