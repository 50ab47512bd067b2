// Whot!'s hand: the viewer's cards sorted, the playable ones raised and lit. A long hand goes in
// rows rather than in strips too thin to tap: every card keeps a corner (its number and symbol) in
// view at least MIN_STRIP px wide, and a tap on a card that cannot be played asks why.
import { s, fill, clickable } from "/static/js/dom.js";
import { CW, CH, cardWords, face, parseCard, placed, sortKey } from "./cards.js";
import { reversing, withSay } from "./moves.js";

/** Pixels of each card left in view beside the next: a tap target, and room for its corner. */
export const MIN_STRIP = 32;
const MAX_ROWS = 3;
const LIFT = 14, PAD = 6;

/** Where n cards go in a hand W px wide: the card's width, the rows, and each card's (x, row). A
 * row shows MIN_STRIP px or more of every card but its last; more cards than fit so take another
 * row, each row below the one before and covering its lower part (the corners are at the top); a
 * hand too long even for MAX_ROWS rows scrolls sideways. */
export function handLayout(n, W, narrow) {
  const cw = narrow ? 60 : 84;
  const ch = cw * CH / CW;
  const padX = narrow ? 4 : 28;
  const room = W - 2 * padX;
  const perRow = Math.max(1, Math.floor((room - cw) / MIN_STRIP) + 1);
  const rows = Math.min(MAX_ROWS, Math.max(1, Math.ceil(n / perRow)));
  const inRow = Math.ceil(n / rows);
  let step = cw + 8;
  if (inRow > 1 && inRow * (cw + 8) - 8 > room) step = Math.max(MIN_STRIP, (room - cw) / (inRow - 1));
  const rowWidth = cw + (inRow - 1) * step;
  const width = Math.max(W, rowWidth + 2 * padX);
  // a row below starts low enough that even a raised card there (with its glow) leaves the
  // strip above it whole
  const rowGap = MIN_STRIP + LIFT + 6;
  const fan = rows === 1 && n > 2 && !narrow && step > cw * 0.5;
  const places = [];
  for (let i = 0; i < n; i++) {
    const row = Math.floor(i / inRow), k = i % inRow;
    const count = Math.min(inRow, n - row * inRow);
    const x0 = (width - (cw + (count - 1) * step)) / 2;
    places.push({x: x0 + k * step, y: LIFT + PAD + row * rowGap, row, k, count});
  }
  const height = LIFT + PAD + ch + (rows - 1) * rowGap + (fan ? 20 : 0) + PAD;
  return {cw, ch, rows, step, width, height, fan, places};
}

/** The hand and the line above it ("Your hand: 7 cards — play a raised card"). `parts`: {head,
 * wrap, hand}; `t`: {view, moves, powers, ui, send(move), why(text), openChooser()}. Returns the
 * width it was laid out for. */
export function drawHand(parts, t) {
  const v = t.view;
  const moves = t.moves;
  if ((v.viewer ?? null) === null || !v.hand) {
    parts.head.textContent = "You are watching: the hands stay hidden.";
    fill(parts.hand);
    return parts.wrap.clientWidth;
  }
  const hand = [...v.hand].sort((a, b) => sortKey(a) - sortKey(b));
  const mine = moves.length > 0;
  const playableCards = new Set(moves.filter((m) => m.kind === "play").map((m) => m.card));
  const playable = hand.filter((c) => playableCards.has(c)).length;
  const can = (kind) => moves.some((m) => m.kind === kind);
  let advice = "";
  if (mine && playable) advice = " — play a raised card";
  else if (mine && can("end")) advice = " — no card can follow: end the turn";
  else if (mine && can("pass")) advice = " — pass to accept the skip";
  else if (mine && can("draw")) advice = v.pending_pick ? ` — go to market and pick ${v.pending_pick}` : " — nothing follows: go to market";
  parts.head.textContent = `Your hand: ${hand.length} card${hand.length === 1 ? "" : "s"}${advice}`;

  const shownWidth = parts.wrap.clientWidth;
  const W = Math.max(260, shownWidth || 600);
  // a phone, or a short window (200% zoom): the smaller cards
  const narrow = W < 520 || window.innerHeight < 560;
  const L = handLayout(hand.length, W, narrow);
  const {cw, ch} = L;
  const svg = s("svg", {viewBox: `0 0 ${L.width.toFixed(0)} ${L.height.toFixed(0)}`, width: L.width.toFixed(0),
    class: "whot-hand-svg" + (L.width > W + 1 ? " scrolls" : ""), role: "group", "data-rows": L.rows,
    "aria-label": `Your hand, sorted: ${hand.join(", ")}`});
  const n = hand.length;
  hand.forEach((text, i) => {
    const {x, y} = L.places[i];
    const c = parseCard(text);
    const canPlay = playableCards.has(text);
    const card = s("g", {class: "whot-card" + (canPlay ? " legal" : mine ? " illegal" : ""), "data-card": text});
    const inner = s("g", {class: "whot-lift"}, placed(face(text, t.powers), 0, 0, cw));
    if (canPlay) inner.prepend(s("rect", {class: "whot-glow", x: -3, y: -3, width: cw + 6, height: ch + 6, rx: 8}));
    else if (mine) inner.append(s("rect", {class: "whot-shade", x: 0.5, y: 0.5, width: cw - 1, height: ch - 1, rx: 6 * cw / CW}));
    card.append(inner);
    let dy = canPlay ? -LIFT : 0;
    let rot = "";
    if (L.fan) {
      const mid = (n - 1) / 2;
      const d = i - mid;
      const k = Math.min(3, 24 / n);
      dy += (d / mid) ** 2 * Math.min(16, n * 2);
      rot = ` rotate(${(d * k).toFixed(2)} ${cw / 2} ${ch.toFixed(1)})`;
    }
    card.setAttribute("transform", `translate(${x.toFixed(1)} ${(y + dy).toFixed(1)})${rot}`);
    if (canPlay && c.sym === "whot") {
      card.dataset.opens = "call";
      clickable(card, "Play the WHOT card: choose a symbol to call", () => t.openChooser());
    } else if (canPlay) {
      const turn = t.ui.reverse && moves.some((m) => reversing(m) && m.card === text);
      const move = withSay({kind: "play", card: text, call: null, power: turn ? "reverse" : null}, moves, t.ui.say);
      card.dataset.move = move.text;
      clickable(card, `Play ${cardWords(text, t.powers)}` + (turn ? " and change direction" : "") + (move.say ? `, saying ${move.say}` : ""), () => t.send(move));
    } else {
      card.setAttribute("role", "img");
      card.setAttribute("aria-label", cardWords(text, t.powers) + (mine ? " (cannot be played now)" : ""));
      // a tap on a card that cannot be played says why (the rules' reason, from the server)
      card.addEventListener("click", () => t.why(`play ${text}`));
    }
    svg.append(card);
  });
  fill(parts.hand, svg);
  parts.wrap.classList.toggle("scrolls", L.width > W + 1);
  return shownWidth;
}
