// Whot!'s board: the other players (their fans of backs, counts and the cards they showed) and
// the middle of the table (the market and the call card on the pile).
import { h, s, fill, clickable } from "/static/js/dom.js";
import { CW, CH, COLOUR, back, cardWords, face, placed, shape, sortKey } from "./cards.js";
import { withSay } from "./moves.js";

/** The others, in the order play passes to them from the viewer. `t` is the module's reading of
 * the message drawn: {view, moves, powers, ui, name(p), send(move)}. */
export function drawOpponents(box, t, narrow) {
  const v = t.view;
  const me = v.viewer ?? null;
  const n = v.players;
  const order = [];
  for (let k = 1; k <= n; k++) {
    const p = me === null ? (k - 1) : (((me + k * v.direction) % n) + n) % n;
    if (p !== me) order.push(p);
  }
  // five or more at a phone's table: each chip in two short rows (the name; the fan beside
  // the count), so that three rows of them still leave your hand in view during a pick
  const crowded = narrow && order.length >= 4;
  // six or more others on a phone: each a single line, its name and count (the fans would take
  // three rows of the screen your hand needs)
  const packed = crowded && order.length >= 6;
  box.classList.toggle("crowded", crowded);
  box.classList.toggle("packed", packed);
  fill(box, order.map((p) => {
    const count = v.hand_counts[p];
    const shown = v.is_over && v.hands ? v.hands[p] : null;
    const known = shown ? [] : (v.known?.[p] || []);
    const backs = shown ? 0 : Math.max(0, Math.min(count, narrow ? 7 : 12) - known.length);
    const w = crowded ? 12 : narrow ? 17 : 26, step = crowded ? 4 : narrow ? 5 : 9;
    const items = [];
    let x = 2;
    const cards = shown ? [...shown].sort((a, b) => sortKey(a) - sortKey(b)) : known;
    for (const c of cards) { items.push(placed(face(c, t.powers), x, 2, w, {class: "whot-known", "data-known": c})); x += shown ? w * 0.7 : w * 0.77; }
    for (let i = 0; i < backs; i++) { items.push(placed(back(), x, 2, w)); x += step; }
    const width = Math.max(x + w - step + 4, 40);
    const toPlay = v.to_play === p && !v.is_over;
    const fan = packed && !shown ? null : s("svg", {viewBox: `0 0 ${width} ${w * CH / CW + 4}`, width, height: Math.round(w * CH / CW + 4),
      class: "whot-opp-fan", "aria-hidden": "true"}, items);
    const knownText = known.length ? ` — known: ${known.join(", ")}` : "";
    const shownText = shown ? ` — held at the end: ${shown.length ? shown.join(", ") : "none"}` : "";
    return h("div", {class: "whot-opp" + (toPlay ? " to-play" : ""), "data-player": p,
      "aria-label": `${t.name(p)}: ${count} card${count === 1 ? "" : "s"}${knownText}${shownText}${toPlay ? ", to play" : ""}`},
      h("div", {class: "whot-opp-name"}, toPlay ? h("span", {class: "whot-turn-mark", "aria-hidden": "true"}, "▶ ") : null,
        t.name(p)),
      fan,
      h("div", {class: "whot-opp-count"}, `${count} card${count === 1 ? "" : "s"}`,
        known.length ? h("span", {class: "whot-known-words"}, ` · shown: ${known.join(", ")}`) : null));
  }));
}

/** The market (a stack of backs with its count: a tap goes to market when that is legal) and the
 * pile with the call card on top, and the symbol called by a WHOT. */
export function drawMiddle(box, t) {
  const v = t.view;
  const cw = 64, chh = cw * CH / CW;
  const svg = s("svg", {viewBox: `0 -12 ${cw * 2 + 60} ${chh + (t.rules.packs === 2 ? 58 : 46)}`, class: "whot-table-svg", role: "group",
    "aria-label": "The market and the call card" + (t.rules.packs === 2 ? ", two packs shuffled together" : "")});
  const drawMove = withSay({kind: "draw"}, t.moves, t.ui.say);
  const stack = s("g", {class: "whot-market" + (drawMove ? " legal" : ""), "data-market": v.pack_count});
  stack.append(s("rect", {x: 0, y: -4, width: cw + 16, height: chh + 36, fill: "transparent"})); // the whole place is the target
  const layers = Math.min(4, Math.ceil(v.pack_count / 8));
  for (let i = layers - 1; i >= 0; i--) stack.append(placed(back(), 6 + i * 2, 4 + i * 2, cw));
  if (!v.pack_count) stack.append(s("rect", {x: 6, y: 4, width: cw, height: chh, rx: 6, fill: "none", stroke: "#cfe3d4", "stroke-dasharray": "4 3"}));
  if (drawMove) stack.append(s("rect", {class: "whot-glow", x: 3, y: 1, width: cw + 6 + layers * 2, height: chh + 6 + layers * 2, rx: 8}));
  stack.append(s("text", {x: 6 + cw / 2, y: chh + 26, "text-anchor": "middle", class: "whot-label"}, `Market ${v.pack_count}`));
  // two packs shuffled together (a large table): why the market is big and cards come twice
  if (t.rules.packs === 2) stack.append(s("text", {x: 6 + cw / 2, y: chh + 40, "text-anchor": "middle", class: "whot-label small", "data-packs": 2}, "2 packs"));
  if (drawMove) {
    const pick = v.pending_pick;
    stack.dataset.move = drawMove.text;
    clickable(stack, pick ? `Go to market and pick ${pick}` : `Go to market: draw a card (${v.pack_count} left)`, () => t.send(drawMove));
  } else {
    stack.setAttribute("role", "img");
    stack.setAttribute("aria-label", `Market: ${v.pack_count} card${v.pack_count === 1 ? "" : "s"}`);
  }
  svg.append(stack);
  // the pile: the call card on top of one or two played cards
  const px = cw + 40;
  const pile = s("g", {class: "whot-pile", "data-call-card": v.call_card || ""});
  if (v.call_card) {
    if (v.pile.length > 1) pile.append(placed(face(v.pile[v.pile.length - 2], t.powers), px - 5, 7, cw, {class: "whot-under"}));
    pile.append(placed(face(v.call_card, t.powers), px, 4, cw, {class: "whot-pile-top"}));
    if (v.call_card === "whot" && v.call) {
      pile.append(s("g", {class: "whot-called"},
        s("circle", {cx: px + cw - 2, cy: 10, r: 15, fill: "#fffaf0", stroke: "#ffd400", "stroke-width": 3}),
        shape(v.call, px + cw - 2, 10, 9, {fill: COLOUR[v.call]})));
    }
    pile.setAttribute("role", "img");
    pile.setAttribute("aria-label", `Call card: ${cardWords(v.call_card, t.powers)}` + (v.call_card === "whot" && v.call ? `, calling for ${v.call}` : ""));
  } else {
    pile.append(s("rect", {class: "whot-pile-top", x: px, y: 4, width: cw, height: chh, rx: 6, fill: "none", stroke: "#cfe3d4", "stroke-dasharray": "4 3"}));
    pile.setAttribute("role", "img");
    pile.setAttribute("aria-label", "No call card yet: the leader plays any card");
  }
  pile.append(s("text", {x: px + cw / 2, y: chh + 26, "text-anchor": "middle", class: "whot-label"}, "Call card"));
  svg.append(pile);
  fill(box, svg);
}
