// Sorry!'s board: the track with its slides, the safety zones, START and HOME, the card in the
// middle, the pawns, and — on this seat's turn — the pawns that can move (a click selects one) and
// where the selected one can go (a click plays the move, or asks which when several end there).
import { s, fill, clickable } from "/static/js/dom.js";
import { C, COLOURS, INK, LETTERS, SHAPE_WORD, SIZE, START_OF, TEXT_ON, TINT, CARD_TEXT, at, boardName, cardWord,
  homeCentre, inStartOrHome, kindOf, place, startCentre, stepFrom, trackName } from "./geometry.js";
import { colourOf, destinations, legalTexts, seconds, sources, squareWords, describe } from "./choices.js";
import { drawLast } from "./log.js";

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

/** A pawn of `colour` at (x, y), r in size: its colour's shape with its letter (colour-blind players). */
export function pawnShape(colour, x, y, r) {
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
function pawnSpots(view) {
  const out = [];
  for (const [colour, squares] of Object.entries(view.pawns)) {
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

function drawCentre(g, v, sel) {
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

function boardSummary(v, name) {
  return v.colours.map((c) => {
    const sq = v.pawns[c];
    return `${c} (${ownerOf(v, c, name)}): ${sq.join(", ")}`;
  }).join("; ");
}

/** The name of the player playing `colour`. */
export function ownerOf(v, colour, name) {
  const i = v.colours.indexOf(colour);
  return i < 0 ? "" : name(v.seats[i]);
}

/** Draw the board into `svg`. `t`: {msg, sel (what has been clicked), last (the last turn, from
 * the events), name(player), choose(moves, question), select(square), split(n)}. */
export function drawBoard(svg, t) {
  const {msg, sel} = t;
  const v = msg.view;
  const legalNow = legalTexts(msg).length > 0;
  const inPlay = v.colours;
  const myColours = inPlay.filter((c, i) => v.seats[i] === v.viewer);
  const board = s("g", {class: "static"});
  drawTrack(board);
  drawZones(board, inPlay);
  drawSlides(board);
  drawCentre(board, v, sel);

  const srcs = legalNow ? sources(msg, sel) : new Map();
  const pawnsG = s("g", {class: "pawns"});
  const marks = s("g", {class: "marks"});
  const seconds2 = legalNow && sel.split ? seconds(msg, sel) : null;
  const dests = legalNow && sel.source && !sel.split ? destinations(msg, sel) : new Map();
  const hintedTexts = sel.hinted ? new Set([sel.hinted]) : new Set();

  // START circles that a move leaves from are clickable as a whole
  const startGroups = new Map();
  for (const [colour, sq, x, y] of pawnSpots(v)) {
    const ci = COLOURS.indexOf(colour);
    const owner = ownerOf(v, colour, t.name);
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
      clickable(g, label, () => t.choose(info.moves, `Split the 7 — which pawn moves first?`));
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
        t.select(sel.source === sq ? null : sq);
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
          t.select(sel.source === src ? null : src);
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
      const label = d.moves.length === 1 ? describe(v, d.moves[0]) : `${squareWords(sq)}: ${d.moves.length} ways to get there`;
      const data = d.moves.length === 1 ? {"data-move": texts[0]} : {"data-dest": sq};
      const mk = marker(sq, "to" + (texts.some((x) => hintedTexts.has(x)) ? " hinted" : ""), label,
        () => t.choose(d.moves, `Which move to ${squareWords(sq)}?`), data);
      marks.append(mk);
    }
    for (const n of d.splits) {
      const label = `split the 7: ${sel.source} forward ${n} to ${squareWords(sq)}, then a second pawn forward ${7 - n}`;
      const mk = marker(sq, "split", label, () => {
        t.split(n);
      }, {"data-split": `${sel.source}+${n}`});
      const [x, y] = place(sq);
      mk.append(s("text", {x, y: y - 20, class: "split-n"}, `+${n}`));
      marks.append(mk);
    }
  }
  // a split 7 under way: where the first pawn goes, and where each second pawn would go
  if (seconds2) {
    const [to] = stepFrom(colourOf(v, sel.split.a), sel.split.a, sel.split.n);
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
        () => t.choose(info.moves, "Split the 7 — which pawn moves first?"), data);
      marks.append(mk);
    }
  }

  fill(svg, s("title", {}, boardSummary(v, t.name)), board, drawLast(t.last), pawnsG, marks);
}
