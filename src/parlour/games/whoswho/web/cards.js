// Who's Who's cards: the four suits with their colours and emblems (drawn in SVG), the characters
// of the pack, card faces and chips, and names as they fit on the table.
import { h, s } from "/static/js/dom.js";

export const SUITS = ["money", "society", "brains", "sport"];
export const COLOUR = {money: "yellow", society: "red", brains: "blue", sport: "green"};
export const EMBLEM = {money: "dollar mark", society: "fan and slipper", brains: "owl", sport: "crossed dumbbells"};
export const INK = {money: "#e0b000", society: "#c62828", brains: "#1f5fbf", sport: "#2e7d32"};
export const DARK = {money: "#7a5a00", society: "#8e1b1b", brains: "#153f80", sport: "#1d5321"};
export const ON_INK = {money: "#1d1d1f", society: "#fff", brains: "#fff", sport: "#fff"};
export const WORDS = ["", "", "", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven",
  "Twelve", "Thirteen", "Fourteen", "Fifteen"];
// The characters, numbers 3..15 (INVENTED, as in src/parlour/games/whoswho/deck.py; a test checks
// that the two lists agree).
export const NAMES = {
  money: ["Max", "Cash", "Nabob", "Mr. Gelt", "Cox Bond", "Mr. Ledger", "Silas Till", "Sir Bullion",
    "Rex Dollarby", "Dora Dividend", "Jasper Goldbug", "Baron Moneybags", "Cornelius Coffer"],
  society: ["Flo", "Fifi", "Dolly", "Bertie", "Lady Ivy", "Mrs. Swell", "Lady Fanny", "Lord Fopley",
    "Mrs. Van Snoot", "Lady Gadabout", "Marquis de Ritz", "Algernon Tattle", "Reginald Poshley"],
  brains: ["Doc", "Quiz", "Dr. Wit", "Dr. Nous", "Ada Sums", "Sage Mull", "Dr. Thinkum", "Sophie Lore",
    "Prof. Owlsley", "Abner Almanac", "Minerva Booker", "Euphemia Scroll", "Ignatius Inkwell"],
  sport: ["Tex", "Biff", "Spike", "Kid Jab", "Hap Hurl", "Bunny Lob", "Goalie Gus", "Butch Bicep",
    "Skip Sculler", "Slugger Swatt", "Hurdle Hopkins", "Bronco Bareback", "Hank Hammerthrow"],
};


// --- cards ------------------------------------------------------------------------------------

/** "11 brains" -> {number: 11, suit: "brains"} */
export function parse(text) {
  const [n, suit] = String(text).split(" ");
  return {number: Number(n), suit};
}
export const character = (c) => NAMES[c.suit]?.[c.number - 3] ?? "";
export const cap = (w) => w.charAt(0).toUpperCase() + w.slice(1);
/** In words, for labels: "11 brains, Prof. Owlsley (blue, owl)". */
export function cardWords(text) {
  const c = parse(text);
  return `${c.number} ${c.suit}, ${character(c)} (${COLOUR[c.suit]}, ${EMBLEM[c.suit]})`;
}

/** The suit's emblem as a simple shape, centred on (cx, cy), about 2r across. */
export function emblem(suit, cx, cy, r) {
  const ink = INK[suit], dark = DARK[suit];
  const g = s("g", {class: `ww-emblem ww-${suit}`, "aria-hidden": "true"});
  const sw = Math.max(1, r / 7);
  if (suit === "money") { // a coin with the dollar mark
    g.append(
      s("circle", {cx, cy, r, fill: ink, stroke: dark, "stroke-width": sw}),
      s("circle", {cx, cy, r: r * 0.78, fill: "none", stroke: dark, "stroke-width": sw * 0.6}),
      s("text", {x: cx, y: cy + r * 0.42, "text-anchor": "middle", "font-size": r * 1.25,
        "font-weight": 800, fill: dark, "font-family": "Georgia, serif"}, "$"));
  } else if (suit === "society") { // an open fan above a little slipper
    const py = cy + r * 0.35; // the fan's pivot
    const R = r * 1.05;
    const a0 = Math.PI * 1.1, a1 = Math.PI * 1.9;
    const pt = (a, rr) => `${(cx + rr * Math.cos(a)).toFixed(2)} ${(py + rr * Math.sin(a)).toFixed(2)}`;
    g.append(s("path", {d: `M ${cx} ${py} L ${pt(a0, R)} A ${R} ${R} 0 0 1 ${pt(a1, R)} Z`,
      fill: ink, stroke: dark, "stroke-width": sw, "stroke-linejoin": "round"}));
    for (let i = 1; i < 5; i++) {
      const a = a0 + (a1 - a0) * i / 5;
      g.append(s("path", {d: `M ${cx} ${py} L ${pt(a, R)}`, stroke: dark, "stroke-width": sw * 0.6}));
    }
    g.append(s("path", {d: `M ${cx - r * 0.75} ${cy + r * 0.8} q ${r * 0.1} ${-r * 0.35} ${r * 0.6} ${-r * 0.3}` +
      ` l ${r * 0.8} ${r * 0.05} q ${r * 0.15} ${r * 0.25} 0 ${r * 0.35} z`,
      fill: dark, stroke: dark, "stroke-width": sw * 0.5}));
  } else if (suit === "brains") { // an owl's face: ear tufts, two big eyes, a beak
    g.append(
      s("path", {d: `M ${cx - r * 0.85} ${cy - r * 0.45} L ${cx - r * 0.75} ${cy - r} L ${cx - r * 0.3} ${cy - r * 0.7} Z` +
        ` M ${cx + r * 0.85} ${cy - r * 0.45} L ${cx + r * 0.75} ${cy - r} L ${cx + r * 0.3} ${cy - r * 0.7} Z`,
        fill: dark}),
      s("ellipse", {cx, cy: cy + r * 0.05, rx: r * 0.9, ry: r * 0.95, fill: ink, stroke: dark, "stroke-width": sw}),
      s("circle", {cx: cx - r * 0.38, cy: cy - r * 0.15, r: r * 0.32, fill: "#fff", stroke: dark, "stroke-width": sw * 0.6}),
      s("circle", {cx: cx + r * 0.38, cy: cy - r * 0.15, r: r * 0.32, fill: "#fff", stroke: dark, "stroke-width": sw * 0.6}),
      s("circle", {cx: cx - r * 0.38, cy: cy - r * 0.15, r: r * 0.14, fill: "#1d1d1f"}),
      s("circle", {cx: cx + r * 0.38, cy: cy - r * 0.15, r: r * 0.14, fill: "#1d1d1f"}),
      s("path", {d: `M ${cx - r * 0.14} ${cy + r * 0.2} L ${cx + r * 0.14} ${cy + r * 0.2} L ${cx} ${cy + r * 0.5} Z`, fill: "#f0a020", stroke: dark, "stroke-width": sw * 0.4}));
  } else { // sport: crossed dumbbells
    for (const angle of [45, -45]) {
      const d = s("g", {transform: `rotate(${angle} ${cx} ${cy})`});
      const L = r * 0.95, bw = r * 0.3, bh = r * 0.75;
      d.append(
        s("rect", {x: cx - L, y: cy - r * 0.09, width: 2 * L, height: r * 0.18, fill: dark}),
        s("rect", {x: cx - L - bw / 2, y: cy - bh / 2, width: bw, height: bh, rx: bw * 0.25, fill: ink, stroke: dark, "stroke-width": sw * 0.6}),
        s("rect", {x: cx + L - bw / 2, y: cy - bh / 2, width: bw, height: bh, rx: bw * 0.25, fill: ink, stroke: dark, "stroke-width": sw * 0.6}));
      g.append(d);
    }
  }
  return g;
}

/** A small standalone emblem picture (for buttons and labels). */
export function emblemIcon(suit, size = 22) {
  return s("svg", {class: "ww-icon", viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true", focusable: "false"},
    emblem(suit, 12, 12, 10));
}

/** Split a character's name into at most two lines of similar length. */
export function nameLines(name) {
  const words = name.split(" ");
  if (words.length === 1 || name.length <= 8) return [name];
  let best = [name], bestLen = Infinity;
  for (let i = 1; i < words.length; i++) {
    const a = words.slice(0, i).join(" "), b = words.slice(i).join(" ");
    const m = Math.max(a.length, b.length);
    if (m < bestLen) { best = [a, b]; bestLen = m; }
  }
  return best;
}

/** A card face as an <svg> (64 × 96 units): the number on its suit's colour, the emblem, the name. */
export function cardFace(text, attrs = {}) {
  const c = parse(text);
  const name = character(c);
  const svg = s("svg", {viewBox: "0 0 64 96", class: `ww-card ww-${c.suit}`, "aria-hidden": "true", focusable: "false", ...attrs});
  svg.append(
    s("rect", {x: 1.5, y: 1.5, width: 61, height: 93, rx: 6, fill: "#fffdf6", stroke: INK[c.suit], "stroke-width": 3}),
    s("rect", {x: 5, y: 5, width: 25, height: 20, rx: 4, fill: INK[c.suit], stroke: DARK[c.suit], "stroke-width": 1}),
    s("text", {x: 17.5, y: 20.5, "text-anchor": "middle", class: "ww-num", fill: ON_INK[c.suit]}, String(c.number)),
    emblem(c.suit, 49, 15, 9),
    emblem(c.suit, 32, 48, 15));
  const lines = nameLines(name);
  const y0 = lines.length === 1 ? 84 : 77;
  const long = Math.max(...lines.map((l) => l.length));
  const size = long > 10 ? 7.2 : long > 8 ? 8.2 : 9;
  lines.forEach((line, i) => svg.append(
    s("text", {x: 32, y: y0 + i * 10, "text-anchor": "middle", class: "ww-name", "font-size": size}, line)));
  svg.append(s("title", {}, `${c.number} ${cap(c.suit)}: ${name}`));
  return svg;
}

/** A tiny card chip for lists (number + emblem + suit letter): "4 $". */
export function chip(text, extra = "") {
  const c = parse(text);
  return h("span", {class: `ww-chip ww-${c.suit} ${extra}`, title: cardWords(text), "data-chip": text},
    emblemIcon(c.suit, 14), h("span", {class: "ww-chip-n"}, String(c.number)),
    h("span", {class: "sr-only"}, " " + c.suit));
}

export const TEAM_LETTERS = "ABCDEFG";
/** The partnership letter of player p ("A", "B", …), or "" when everyone plays alone. */
export function teamOf(v, p) {
  if (!v.teams || !v.team_scores) return "";
  const t = v.teams.findIndex((team) => team.includes(p));
  return t >= 0 ? TEAM_LETTERS[t] : "";
}

export function shortName(n) {
  return n.length > 14 ? n.slice(0, 13) + "…" : n;
}
