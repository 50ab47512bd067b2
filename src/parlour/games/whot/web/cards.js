// Whot!'s cards in SVG: the five symbols and the WHOT card, faces and backs, and card names in
// words. Shared by the board, the hand, the prompt and the rules page's legend.
import { s } from "/static/js/dom.js";

export const SYMBOLS = ["circle", "triangle", "cross", "square", "star"];
// Colour helps, the shape and the word carry the meaning (colour-blind players).
export const COLOUR = {circle: "#b3261e", triangle: "#1b6e2c", cross: "#0d4f9c", square: "#6a2a8c", star: "#b45a00", whot: "#7b1e1e"};
export const POWER_WORDS = {
  hold_on: ["HOLD ON", "Hold on: everyone else is skipped and the player plays again"],
  pick_two: ["PICK 2", "Pick two: the next player picks two unless they answer with the same number"],
  pick_three: ["PICK 3", "Pick three: the next player picks three unless they answer with the same number"],
  suspension: ["SUSPEND", "Suspension: the next player misses a turn"],
  general_market: ["GEN. MARKET", "General market: everyone else picks one and the player plays again"],
};
export const SAY_WORDS = {"last card": "Last card!", "semi-last card": "Semi-last card!", "check up": "Check up!"};
export const CW = 60, CH = 86; // a card's own units; scaled to the size drawn

// --- reading card and move texts ------------------------------------------------------------

/** A card's name as the view gives it, "7 cross" or "whot": its number and symbol. */
export function parseCard(text) {
  if (text === "whot") return {text, num: 20, sym: "whot"};
  const [n, sym] = text.split(" ");
  return {text, num: Number(n), sym};
}

export function sortKey(text) {
  const c = parseCard(text);
  const i = c.sym === "whot" ? 9 : SYMBOLS.indexOf(c.sym);
  return i * 100 + c.num;
}

/** Whether two moves are the same but for what is said with them. */
export function sameBase(a, b) {
  return a.kind === b.kind && (a.card ?? null) === (b.card ?? null) && (a.call ?? null) === (b.call ?? null) &&
    (a.power ?? null) === (b.power ?? null);
}

export function cardWords(text, powers) {
  const c = parseCard(text);
  if (c.sym === "whot") return "WHOT card (20)";
  let w = `${c.num} ${c.sym}`;
  if (c.sym === "star") w += ` (scores ${c.num * 2})`;
  const p = powers[String(c.num)];
  if (p && POWER_WORDS[p]) w += `, ${POWER_WORDS[p][1].split(":")[0].toLowerCase()}`;
  return w;
}

// --- drawing ------------------------------------------------------------------------------

/** A symbol's shape centred on (cx, cy), about r in radius. */
export function shape(sym, cx, cy, r, attrs = {}) {
  const pts = (list) => list.map(([x, y]) => `${(cx + x * r).toFixed(2)},${(cy + y * r).toFixed(2)}`).join(" ");
  switch (sym) {
    case "circle": return s("circle", {cx, cy, r: r * 0.92, ...attrs});
    case "triangle": return s("polygon", {points: pts([[0, -1], [1, 0.78], [-1, 0.78]]), ...attrs});
    case "cross": {
      const t = 0.32;
      return s("polygon", {points: pts([[-t, -1], [t, -1], [t, -t], [1, -t], [1, t], [t, t], [t, 1], [-t, 1], [-t, t], [-1, t], [-1, -t], [-t, -t]]), ...attrs});
    }
    case "square": return s("rect", {x: cx - r * 0.8, y: cy - r * 0.8, width: r * 1.6, height: r * 1.6, ...attrs});
    case "star": {
      const list = [];
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        const k = i % 2 ? 0.5 : 1.08;
        list.push([Math.cos(a) * k, Math.sin(a) * k + 0.08]);
      }
      return s("polygon", {points: pts(list), ...attrs});
    }
    default: return s("text", {x: cx, y: cy + r * 0.45, "text-anchor": "middle", "font-size": r * 1.4, "font-weight": 800, ...attrs}, "W");
  }
}

/** A small stand-alone picture of a symbol (for buttons and the called symbol). */
export function symbolIcon(sym, size = 22) {
  return s("svg", {viewBox: "0 0 24 24", width: size, height: size, class: "whot-icon", "aria-hidden": "true"},
    s("rect", {x: 0.5, y: 0.5, width: 23, height: 23, rx: 5, fill: "#fffaf0", stroke: "#3b2a1a"}),
    shape(sym, 12, 12, 8.5, {fill: COLOUR[sym] || "#333"}));
}

/** The face of a card in CW x CH units, its top-left at (0, 0). */
export function face(text, powers) {
  const c = parseCard(text);
  const col = COLOUR[c.sym] || "#333";
  const g = s("g", {class: "whot-face", "data-face": text});
  g.append(s("rect", {class: "whot-edge", x: 0.5, y: 0.5, width: CW - 1, height: CH - 1, rx: 6, fill: "#fffaf0", stroke: "#3b2a1a", "stroke-width": 1.2}));
  if (c.sym === "whot") {
    g.append(
      s("rect", {x: 5, y: 5, width: CW - 10, height: CH - 10, rx: 4, fill: "none", stroke: col, "stroke-width": 1.5}),
      s("text", {x: 9, y: 17, "font-size": 11, "font-weight": 700, fill: col}, "20"),
      s("text", {x: CW / 2, y: 55, "text-anchor": "middle", "font-size": 34, "font-weight": 900, fill: col, "font-family": "Georgia, serif"}, "W"),
      s("text", {x: CW / 2, y: 72, "text-anchor": "middle", "font-size": 10, "font-weight": 800, fill: col, "letter-spacing": 1}, "WHOT"));
    return g;
  }
  const power = powers[String(c.num)];
  const label = power && POWER_WORDS[power] ? POWER_WORDS[power][0] : "";
  g.append(
    s("text", {x: 5, y: 15, "font-size": 13, "font-weight": 800, fill: col}, String(c.num)),
    shape(c.sym, 10, 23, 4, {fill: col}),
    shape(c.sym, CW / 2, 45, 17, {fill: col}));
  if (c.sym === "star") { // the inner scoring number: twice the outer one
    g.append(s("text", {x: CW / 2, y: 51, "text-anchor": "middle", "font-size": 11, "font-weight": 800, fill: "#fffaf0"}, String(c.num * 2)));
  }
  if (label) {
    g.append(s("text", {x: CW / 2, y: 78, "text-anchor": "middle", "font-size": 7.5, "font-weight": 800, fill: "#3b2a1a",
      textLength: label.length > 8 ? 44 : null, lengthAdjust: "spacingAndGlyphs"}, label));
  } else {
    g.append(s("g", {transform: `rotate(180 ${CW / 2} ${CH / 2})`},
      s("text", {x: 5, y: 15, "font-size": 13, "font-weight": 800, fill: col}, String(c.num)),
      shape(c.sym, 10, 23, 4, {fill: col})));
  }
  return g;
}

/** The back of a card in CW x CH units. */
export function back() {
  return s("g", {class: "whot-back"},
    s("rect", {x: 0.5, y: 0.5, width: CW - 1, height: CH - 1, rx: 6, fill: "#7b1e1e", stroke: "#2a0d0d", "stroke-width": 1.2}),
    s("rect", {x: 5, y: 5, width: CW - 10, height: CH - 10, rx: 4, fill: "none", stroke: "#f3d9a4", "stroke-width": 1.2}),
    s("text", {x: CW / 2, y: CH / 2 + 5, "text-anchor": "middle", "font-size": 13, "font-weight": 900, fill: "#f3d9a4",
      transform: `rotate(-60 ${CW / 2} ${CH / 2})`}, "WHOT"));
}

/** A card placed at (x, y) drawn w wide (keeping the card's proportions). */
export function placed(inner, x, y, w, extra = {}) {
  const k = w / CW;
  return s("g", {transform: `translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${k.toFixed(4)})`, ...extra}, inner);
}
