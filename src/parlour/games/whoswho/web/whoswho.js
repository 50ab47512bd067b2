// Who's Who (docs/whoswho.md): both games of the pack.
//  - whoswho-tricks (Game No. 1): name the Preference suit with four big suit buttons, then play
//    cards by clicking them; the current trick is laid out around the table, the last trick stays
//    in view until the next is led, and each seat shows its tricks this deal and its points.
//  - whoswho-books (Game No. 2): ask for a card with a small picker (player, then number, then
//    suit — each suit button also says its colour, "Four, yellow"), say "Thank you" with a button
//    when a card was given, the books laid down per player, and the public memory of the table
//    (who is known to hold what, from view.known / view.holders) beside the call history.
// Every choice comes from msg.moves (the legal moves with their fields: kind, suit, card, target,
// number), and what just happened from msg.events (typed events: a card played to the trick, a
// trick taken, a card passed between hands, a book laid down); the module never decides what is
// legal and never reads move or event text.

import {h, s, fill} from "/static/js/dom.js";

const SUITS = ["money", "society", "brains", "sport"];
const COLOUR = {money: "yellow", society: "red", brains: "blue", sport: "green"};
const EMBLEM = {money: "dollar mark", society: "fan and slipper", brains: "owl", sport: "crossed dumbbells"};
const INK = {money: "#e0b000", society: "#c62828", brains: "#1f5fbf", sport: "#2e7d32"};
const DARK = {money: "#7a5a00", society: "#8e1b1b", brains: "#153f80", sport: "#1d5321"};
const ON_INK = {money: "#1d1d1f", society: "#fff", brains: "#fff", sport: "#fff"};
const WORDS = ["", "", "", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven",
  "Twelve", "Thirteen", "Fourteen", "Fifteen"];
// The characters, numbers 3..15 (INVENTED, as in src/parlour/games/whoswho/deck.py; a test checks
// that the two lists agree).
const NAMES = {
  money: ["Max", "Cash", "Nabob", "Mr. Gelt", "Cox Bond", "Mr. Ledger", "Silas Till", "Sir Bullion",
    "Rex Dollarby", "Dora Dividend", "Jasper Goldbug", "Baron Moneybags", "Cornelius Coffer"],
  society: ["Flo", "Fifi", "Dolly", "Bertie", "Lady Ivy", "Mrs. Swell", "Lady Fanny", "Lord Fopley",
    "Mrs. Van Snoot", "Lady Gadabout", "Marquis de Ritz", "Algernon Tattle", "Reginald Poshley"],
  brains: ["Doc", "Quiz", "Dr. Wit", "Dr. Nous", "Ada Sums", "Sage Mull", "Dr. Thinkum", "Sophie Lore",
    "Prof. Owlsley", "Abner Almanac", "Minerva Booker", "Euphemia Scroll", "Ignatius Inkwell"],
  sport: ["Tex", "Biff", "Spike", "Kid Jab", "Hap Hurl", "Bunny Lob", "Goalie Gus", "Butch Bicep",
    "Skip Sculler", "Slugger Swatt", "Hurdle Hopkins", "Bronco Bareback", "Hank Hammerthrow"],
};

let cssAdded = false;

// --- cards ------------------------------------------------------------------------------------

/** "11 brains" -> {number: 11, suit: "brains"} */
function parse(text) {
  const [n, suit] = String(text).split(" ");
  return {number: Number(n), suit};
}
const character = (c) => NAMES[c.suit]?.[c.number - 3] ?? "";
const cap = (w) => w.charAt(0).toUpperCase() + w.slice(1);
/** In words, for labels: "11 brains, Prof. Owlsley (blue, owl)". */
function cardWords(text) {
  const c = parse(text);
  return `${c.number} ${c.suit}, ${character(c)} (${COLOUR[c.suit]}, ${EMBLEM[c.suit]})`;
}

/** The suit's emblem as a simple shape, centred on (cx, cy), about 2r across. */
function emblem(suit, cx, cy, r) {
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
function emblemIcon(suit, size = 22) {
  return s("svg", {class: "ww-icon", viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true", focusable: "false"},
    emblem(suit, 12, 12, 10));
}

/** Split a character's name into at most two lines of similar length. */
function nameLines(name) {
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
function cardFace(text, attrs = {}) {
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
function chip(text, extra = "") {
  const c = parse(text);
  return h("span", {class: `ww-chip ww-${c.suit} ${extra}`, title: cardWords(text), "data-chip": text},
    emblemIcon(c.suit, 14), h("span", {class: "ww-chip-n"}, String(c.number)),
    h("span", {class: "sr-only"}, " " + c.suit));
}

// --- the module -------------------------------------------------------------------------------

export function mount(el, ctx) {
  if (!cssAdded) {
    cssAdded = true;
  }
  const books = ctx.game === "whoswho-books";
  const root = h("div", {class: "ww " + (books ? "ww-books" : "ww-tricks")});
  fill(el, root);
  let last = null;               // the last view message, to redraw after a picker click
  const pick = {target: null, number: null}; // the picker's half-made call (Game No. 2)
  let fresh = null;              // what the newest events changed, lit once when drawn
  const open = {history: true, deals: false}; // the reader's folding of the panels
  const folding = (key, attrs, ...kids) => {
    const d = h("details", {...attrs, open: open[key]}, ...kids);
    d.addEventListener("toggle", () => { open[key] = d.open; });
    return d;
  };

  const me = (m) => (m.view.viewer ?? null);
  const name = (p) => ctx.name(p);
  const send = (move) => {
    if (last && last.legal.includes(move)) ctx.send(move);
  };

  const moves = (m) => m.moves || [];
  const ofKind = (m, kind) => moves(m).filter((x) => x.kind === kind);

  let overWords = ""; // the game-over event in words, as the log gave it
  function update(m) {
    if (m.events_from === 0 || m.game_number !== last?.game_number) overWords = "";
    (m.events || []).forEach((e, i) => { if (e.kind === "game_over") overWords = m.log?.[i] || ""; });
    last = m;
    fresh = news(m);
    keepFocus(() => { if (books) drawBooks(m); else drawTricks(m); });
    fresh = null;
  }

  /** What this message's events did, to light once: cards played to the trick, the trick's taker,
   *  cards that came into or left this player's hand, books laid down. Not on a first message
   *  (events_from 0), which brings the whole game so far. */
  function news(m) {
    const out = {played: new Set(), took: null, gained: new Set(), books: new Set()};
    if (!m.events_from) return out;
    const my = me(m);
    for (const e of m.events || []) {
      if (e.kind === "play") out.played.add(e.card);
      else if (e.kind === "trick") { out.took = e.player; out.played.clear(); }
      else if (e.kind === "deal") out.took = null;
      else if (e.kind === "call" && e.given) {
        if (e.player === my) {
          out.gained.add(e.card);
          ctx.announce(`${name(e.target)} gave you ${e.card}. Say thank you.`);
        } else if (e.target === my) ctx.announce(`${name(e.player)} took your ${e.card}.`);
      } else if (e.kind === "return") {
        if (e.to === my) { out.gained.add(e.card); ctx.announce(`${e.card} came back to you: your call.`); }
      } else if (e.kind === "book") out.books.add(`${e.player}:${e.number}`);
    }
    return out;
  }

  /** Redraw without losing the keyboard's place: focus the same choice (or `next`) afterwards. */
  function keepFocus(draw, next = null) {
    const a = document.activeElement;
    const keys = ["move", "target", "number", "card"];
    const was = a && root.contains(a) ? keys.find((k) => a.dataset?.[k] !== undefined) : null;
    const value = was ? a.dataset[was] : null;
    draw();
    const attr = (k) => "data-" + k;
    const again = next ? root.querySelector(next)
      : was ? [...root.querySelectorAll(`[${attr(was)}]`)].find((x) => x.dataset[was] === value) : null;
    if (again && !again.disabled) again.focus();
  }

  // --- Game No. 1: tricks ---------------------------------------------------------------------

  function drawTricks(m) {
    const v = m.view;
    const plays = new Map(ofKind(m, "play").map((x) => [x.card, x.text]));
    const prefer = ofKind(m, "prefer");
    const pref = v.preference;
    const info = h("div", {class: "ww-info"},
      h("span", {}, `Deal ${v.deal} of ${v.deals}`),
      h("span", {}, `Dealer: ${name(v.dealer)}`),
      pref ? h("span", {class: `ww-pref-badge ww-${pref}`, "data-preference": pref},
        emblemIcon(pref, 20), `Preference: ${cap(pref)} (${COLOUR[pref]})`)
        : h("span", {class: "ww-pref-badge none"}, v.is_over ? "Game over" : `Preference suit: ${name(v.namer)} names it`));
    const teams = v.teams && v.team_scores ? h("div", {class: "ww-teams"},
      v.teams.map((team, t) => h("span", {class: "ww-team", "data-team": t},
        h("b", {}, `[${TEAM_LETTERS[t]}] `), team.map((p) => name(p)).join(" & "), ": ", h("b", {}, String(v.team_scores[t])), " pts"))) : null;

    const parts = [info, teams];
    if (prefer.length) parts.push(preferPanel(v, prefer));
    const main = h("div", {class: "ww-main"}, tableSvg(v, fresh));
    parts.push(main);
    const hand = v.hand || [];
    if (me(m) !== null) {
      const playable = hand.filter((c) => plays.has(c));
      main.append(h("div", {class: "ww-hand-wrap"},
        h("p", {class: "ww-prompt"}, prefer.length ? "Your hand — name the Preference suit above." :
          playable.length ? "Your turn: click a card to play it." + (playable.length < hand.length ? " Only the lit cards may be played." : "")
            : "Your hand"),
        h("div", {class: "ww-hand", role: "group", "aria-label": "Your hand"},
          hand.map((c) => {
            const move = plays.get(c);
            const ok = move !== undefined;
            const b = h("button", {type: "button", class: "ww-cardbtn" + (ok ? " legal" : ""), "data-card": c,
              "data-move": ok ? move : null, disabled: !ok, "aria-label": (ok ? "play " : "") + cardWords(c)}, cardFace(c));
            if (ok) b.addEventListener("click", () => send(move));
            return b;
          }))));
    }
    if (v.deal_log?.length) parts.push(dealSummary(v));
    fill(root, parts);
  }

  function preferPanel(v, prefer) {
    const hand = (v.hand || []).map(parse);
    return h("div", {class: "ww-prefer", role: "group", "aria-label": "Name the Preference suit"},
      h("p", {class: "ww-prompt"}, "You name the Preference suit (trumps) for this deal:"),
      h("div", {class: "ww-prefer-grid"}, prefer.map(({text: move, suit}) => {
        const held = hand.filter((c) => c.suit === suit).length;
        const b = h("button", {type: "button", class: `ww-suitbtn ww-${suit}`, "data-move": move,
          "aria-label": `Prefer ${suit} (${COLOUR[suit]}, ${EMBLEM[suit]}); you hold ${held}`},
        emblemIcon(suit, 44), h("span", {class: "ww-suit-name"}, cap(suit)),
        h("span", {class: "ww-suit-sub"}, `${COLOUR[suit]} · you hold ${held}`));
        b.addEventListener("click", () => send(move));
        return b;
      })));
  }

  /** The table from above: each player's place around it, their card in the current trick. */
  function tableSvg(v, lit) {
    const n = v.players;
    const mine = v.viewer ?? 0;
    const big = n > 4;
    const W = 400, H = big ? 420 : 360, cx = W / 2, cy = big ? 195 : 170;
    const svg = s("svg", {viewBox: `0 0 ${W} ${H}`, class: "ww-table", role: "img",
      "aria-label": trickWords(v)});
    svg.append(s("ellipse", {cx, cy, rx: 196, ry: H / 2 - 12, class: "ww-felt"}));
    if (v.preference) {
      svg.append(s("g", {class: "ww-watermark", opacity: 0.3}, emblem(v.preference, cx, cy - 8, 28),
        s("title", {}, `Preference suit: ${v.preference}`)));
    }
    // the current trick, or (between tricks) the last one, faded, with its winner
    let cards = v.trick, done = null;
    if (!cards.length && v.tricks.length && v.phase === "play") {
      done = v.tricks[v.tricks.length - 1];
      cards = done.cards;
    }
    const played = new Map(cards.map(([p, c]) => [p, c]));
    const leader = cards.length ? cards[0][0] : v.leader;
    const rx = big ? 150 : 135, ry = big ? 125 : 100;
    for (let p = 0; p < n; p++) {
      const a = Math.PI / 2 + ((p - mine + n) % n) * 2 * Math.PI / n;
      const x = cx + rx * Math.cos(a), y = cy + ry * Math.sin(a);
      const g = s("g", {class: "ww-seat" + (v.to_play === p && !v.is_over ? " to-play" : "") +
        (done && done.winner === p ? " winner" : "") + (done && lit?.took === p ? " ww-took" : ""),
      "data-player": p});
      const cw = big ? 50 : 62, ch = cw * 1.5;
      const card = played.get(p);
      if (card) {
        g.append(cardFace(card, {x: x - cw / 2, y: y - ch / 2 - 8, width: cw, height: ch,
          class: `ww-card ww-${parse(card).suit}` + (done ? " ww-done" : "") +
            (!done && lit?.played.has(card) ? " ww-fresh" : ""), "data-trick-card": card}));
      } else {
        g.append(s("rect", {x: x - cw / 2, y: y - ch / 2 - 8, width: cw, height: ch, rx: 5, class: "ww-slot"}));
      }
      const team = teamOf(v, p);
      const label = (team ? `[${team}] ` : "") + shortName(name(p));
      g.append(s("rect", {x: x - 52, y: y + ch / 2 - 6, width: 104, height: 30, rx: 6, class: "ww-plate"}),
        s("text", {x, y: y + ch / 2 + 6, class: "ww-plate-name"}, (v.to_play === p && !v.is_over ? "▶ " : "") +
          (p === leader && cards.length ? "◆ " : "") + label),
        s("text", {x, y: y + ch / 2 + 19, class: "ww-plate-score", "data-won": v.won[p], "data-score": v.scores[p]},
          `${v.won[p]} trick${v.won[p] === 1 ? "" : "s"} · ${v.scores[p]} pt${v.scores[p] === 1 ? "" : "s"}`));
      svg.append(g);
    }
    if (done) {
      svg.append(s("text", {x: cx, y: cy + 38, class: "ww-centre-label ww-won-by"}, `${shortName(name(done.winner))} won the trick`));
    }
    return h("div", {class: "ww-table-wrap", "data-trick-size": v.trick.length, "data-tricks-done": v.tricks.length}, svg);
  }

  function trickWords(v) {
    const bits = [];
    if (v.preference) bits.push(`Preference suit ${v.preference}.`);
    if (v.trick.length) bits.push("On the table: " + v.trick.map(([p, c]) => `${name(p)} ${cardWords(c)}`).join("; ") + ".");
    else if (v.tricks.length) {
      const t = v.tricks[v.tricks.length - 1];
      bits.push(`Last trick won by ${name(t.winner)}: ` + t.cards.map(([p, c]) => `${name(p)} ${c}`).join(", ") + ".");
    }
    bits.push("Tricks this deal and points: " + v.won.map((w, p) => `${name(p)} ${w} tricks, ${v.scores[p]} points`).join("; ") + ".");
    return bits.join(" ");
  }

  function dealSummary(v) {
    return folding("deals", {class: "ww-deals"}, h("summary", {}, `Earlier deals (${v.deal_log.length})`),
      h("ol", {}, v.deal_log.map((d) => h("li", {},
        d.preference ? [emblemIcon(d.preference, 14), ` ${cap(d.preference)} · `] : "",
        d.won.map((w, p) => `${shortName(name(p))} ${w}`).join(", ")))));
  }

  // --- Game No. 2: books ----------------------------------------------------------------------

  function drawBooks(m) {
    const v = m.view;
    const my = me(m);
    const asks = ofKind(m, "ask");
    const thank = ofKind(m, "thank")[0];
    const canThank = thank !== undefined;
    const parts = [h("div", {class: "ww-info"},
      h("span", {}, `Books made: ${v.book_counts.reduce((a, b) => a + b, 0)} of 13`),
      h("span", {}, `Dealer: ${name(v.dealer)}`))];
    parts.push(playersPanel(v, my, fresh));
    const pend = v.pending;
    if (pend) {
      const mineToThank = canThank && pend.caller === my;
      const box = h("div", {class: "ww-pending" + (mineToThank ? " mine" : ""), "aria-live": "polite"},
        cardFace(pend.card, {class: `ww-card ww-${parse(pend.card).suit} ww-pending-card`}),
        h("div", {},
          h("p", {}, mineToThank ? `${name(pend.giver)} gave you ${cardWords(pend.card)}.`
            : `${name(pend.giver)} gave ${pend.card} to ${name(pend.caller)}, who owes a "Thank you".`),
          mineToThank ? h("button", {type: "button", class: "ww-thank primary", "data-move": thank.text, onclick: () => send(thank.text)},
            "Thank you!") : null,
          mineToThank && asks.length ? h("p", {class: "ww-warn small"},
            "Say it before your next call — forget, and the card goes back and the call passes.") : null));
      parts.push(box);
    }
    // the hand first, then the picker that grows under it (a phone shows the hand at once)
    if (my !== null) parts.push(booksHand(v, asks, fresh));
    if (asks.length) parts.push(picker(v, asks, !!(pend && canThank)));
    else { pick.target = null; pick.number = null; }
    parts.push(historyPanel(v));
    fill(root, parts);
  }

  function playersPanel(v, my, lit) {
    return h("ul", {class: "ww-players", "aria-label": "Books and what the table knows"},
      Array.from({length: v.players}, (_, p) => {
        const known = v.known[p] || [];
        return h("li", {class: "ww-pl" + (p === my ? " me" : "") + (v.to_play === p && !v.is_over ? " to-play" : ""), "data-player": p},
          h("div", {class: "ww-pl-head"},
            h("span", {class: "ww-pl-name"}, (v.to_play === p && !v.is_over ? "▶ " : "") + `${p + 1}. ${name(p)}`),
            h("span", {class: "ww-pl-count"}, `${v.hand_counts[p]} cards`)),
          h("div", {class: "ww-books-row", "data-books": v.books[p].join(",")},
            v.books[p].length ? [...v.books[p]].sort((a, b) => a - b).map((b) =>
              h("span", {class: "ww-book" + (lit?.books.has(`${p}:${b}`) ? " ww-fresh" : ""), title: `the book of ${b}s`},
                h("span", {class: "sr-only"}, "book of "), `${b}s`))
              : h("span", {class: "muted-on-felt small"}, "no books")),
          known.length && p !== my ? h("div", {class: "ww-known"}, h("span", {class: "small"}, "holds: "), known.map((c) => chip(c))) : null);
      }));
  }

  /** Ask for a card: a player, then a number, then a suit — all from the legal calls. */
  function picker(v, asks, owesThanks) {
    const calls = asks.map((a) => ({move: a.text, target: a.target, number: a.number, suit: a.suit}));
    const targets = [...new Set(calls.map((c) => c.target))];
    if (!targets.includes(pick.target)) pick.target = targets.length === 1 ? targets[0] : null;
    const forTarget = calls.filter((c) => c.target === pick.target);
    const numbers = [...new Set(forTarget.map((c) => c.number))].sort((a, b) => a - b);
    if (!numbers.includes(pick.number)) pick.number = null;
    const redraw = (next) => { if (last) keepFocus(() => drawBooks(last), next); };
    const holders = v.holders || {};
    const step = (label, ...kids) => h("div", {class: "ww-step"}, h("span", {class: "ww-step-label"}, label), h("div", {class: "ww-step-choices"}, kids));
    const box = h("div", {class: "ww-picker", role: "group", "aria-label": "Ask for a card"},
      h("p", {class: "ww-prompt"}, owesThanks ? "Or call again (without thanks — the card goes back):" : "Your call: ask a player for a card."),
      step("Ask", targets.map((t) => h("button", {type: "button", class: "ww-pick-target", "data-target": t + 1,
        "aria-label": `Ask player ${t + 1}, ${name(t)} (${v.hand_counts[t]} cards)`, "aria-pressed": String(pick.target === t), onclick: () => { pick.target = t; redraw(".ww-pick-number"); }},
      h("span", {class: "ww-seatno"}, `${t + 1}`), " ", shortName(name(t)), h("small", {}, ` · ${v.hand_counts[t]} cards`)))));
    if (pick.target !== null) {
      box.append(step("for", numbers.map((n) => h("button", {type: "button", class: "ww-pick-number", "data-number": n,
        "aria-pressed": String(pick.number === n), "aria-label": `${WORDS[n]} (${n})`,
        onclick: () => { pick.number = n; redraw(".ww-pick-suit"); }}, String(n)))));
    }
    if (pick.target !== null && pick.number !== null) {
      const options = forTarget.filter((c) => c.number === pick.number)
        .sort((a, b) => SUITS.indexOf(a.suit) - SUITS.indexOf(b.suit));
      box.append(step("suit", options.map((c) => {
        const card = `${c.number} ${c.suit}`;
        const who = holders[card];
        const hint = who ? (who.length === 1 && who[0] === c.target ? "known to hold it" : who.includes(c.target) ? "may hold it" : "does not hold it") : "";
        return h("button", {type: "button", class: `ww-pick-suit ww-${c.suit}` + (hint === "known to hold it" ? " sure" : hint === "does not hold it" ? " no" : ""),
          "data-move": c.move, "aria-label": `Ask ${name(c.target)} for ${WORDS[c.number]}, ${COLOUR[c.suit]}: ${c.number} ${c.suit}, ${character(parse(card))}` + (hint ? `; ${hint}` : ""),
          onclick: () => send(c.move)},
        emblemIcon(c.suit, 26),
        h("span", {class: "ww-suit-name"}, `“${WORDS[c.number]}, ${COLOUR[c.suit]}”`),
        h("span", {class: "ww-suit-sub"}, `${cap(c.suit)} · ${character(parse(card))}` + (hint ? ` — ${hint}` : "")));
      })));
    }
    return box;
  }

  function booksHand(v, asks, lit) {
    const hand = v.hand || [];
    const askable = new Set(asks.map((a) => a.number));
    const groups = new Map();
    for (const c of hand) {
      const n = parse(c).number;
      if (!groups.has(n)) groups.set(n, []);
      groups.get(n).push(c);
    }
    const numbers = [...groups.keys()].sort((a, b) => a - b);
    return h("div", {class: "ww-hand-wrap"},
      h("p", {class: "ww-prompt"}, `Your hand (${hand.length})` + (asks.length ? " — click a card to ask for its number." : "")),
      h("div", {class: "ww-hand ww-hand-books", role: "group", "aria-label": "Your hand"},
        numbers.map((n) => h("div", {class: "ww-group", "data-number": n},
          groups.get(n).map((c) => {
            const ok = askable.has(n);
            const b = h("button", {type: "button", class: "ww-cardbtn small" + (ok ? " legal" : "") +
              (lit?.gained.has(c) ? " ww-fresh" : ""), "data-card": c,
              disabled: !ok, "aria-label": (ok ? "ask for the number of " : "") + cardWords(c)}, cardFace(c));
            if (ok) b.addEventListener("click", () => { pick.number = n; if (last) keepFocus(() => drawBooks(last), pick.target !== null ? ".ww-pick-suit" : ".ww-pick-target"); });
            return b;
          })))));
  }

  function historyPanel(v) {
    const log = v.log || [];
    const lines = log.slice().reverse().map((e) => {
      if (e.kind === "call") {
        return h("li", {class: "ww-call " + (e.given ? "given" : "failed")},
          `${shortName(name(e.player))} → ${shortName(name(e.target))}: `, chip(e.card),
          h("span", {class: "ww-mark", "aria-label": e.given ? "given" : "not held"}, e.given ? " ✓ given" : " ✗ no"));
      }
      if (e.kind === "thank") return h("li", {class: "ww-thanks"}, `${shortName(name(e.player))}: “Thank you”`);
      if (e.kind === "return") {
        return h("li", {class: "ww-return"}, `${shortName(name(e.player))} forgot thanks: `, chip(e.card), ` back to ${shortName(name(e.to))}`);
      }
      if (e.kind === "book") return h("li", {class: "ww-booklog"}, `${shortName(name(e.player))} lays down the ${e.number}s`);
      return h("li", {}, JSON.stringify(e));
    });
    const maybe = Object.entries(v.holders || {}).filter(([, who]) => who.length > 1);
    return folding("history", {class: "ww-history"},
      h("summary", {}, `Calls so far (${log.filter((e) => e.kind === "call").length})`),
      maybe.length ? h("p", {class: "ww-maybe small"}, "Narrowed down: ",
        maybe.slice(0, 12).map(([c, who]) => h("span", {class: "ww-maybe-item"}, chip(c), ` ${who.map((p) => shortName(name(p))).join(" or ")}`))) : null,
      lines.length ? h("ol", {class: "ww-log", reversed: true, tabindex: 0, "aria-label": "Calls so far"}, lines) : h("p", {class: "small"}, "No calls yet."));
  }

  function hint(move) {
    for (const x of root.querySelectorAll(".hinted")) x.classList.remove("hinted");
    const call = last ? moves(last).find((x) => x.text === move) : undefined;
    if (books && call?.kind === "ask") {
      pick.target = call.target;
      pick.number = call.number;
      drawBooks(last);
    }
    const target = [...root.querySelectorAll("[data-move]")].find((x) => x.dataset.move === move);
    if (target) { target.classList.add("hinted"); target.focus?.(); }
  }

  // --- motion: a card from a hand to the table, a trick gathered to its winner, a card passed ---
  const seatEl = (p) => root.querySelector(`.ww-seat[data-player="${p}"]`);
  const plateOf = (p) => seatEl(p)?.querySelector(".ww-plate") || seatEl(p);
  const slotOf = (p) => seatEl(p)?.querySelector(".ww-slot, [data-trick-card]") || seatEl(p);
  const panelOf = (p) => root.querySelector(`.ww-pl[data-player="${p}"]`);
  const handCard = (card) => root.querySelector(`.ww-hand [data-card="${CSS.escape(card)}"]`);
  const face = (card) => cardFace(card);
  /** A card-sized box centred on an element (where a card leaves from or lands). */
  function cardBox(target, like) {
    const r = target?.getBoundingClientRect();
    const l = like?.getBoundingClientRect() || {width: 44, height: 66};
    if (!r) return null;
    const k = Math.min(1, (r.height * 1.2) / l.height);
    const w = l.width * k, hh = l.height * k;
    return {left: r.left + r.width / 2 - w / 2, top: r.top + r.height / 2 - hh / 2, width: w, height: hh};
  }

  async function animate(m, motion) {
    const my = me(m);
    const events = m.events || [];
    const trick = new Map((last?.view?.trick || []).map(([p, c]) => [p, c]));
    for (let i = 0; i < events.length; i++) {
      const e = events[i];
      const words = m.log?.[i] || "";
      if (e.kind === "play") {
        const slot = slotOf(e.player);
        const mine = e.player === my ? handCard(e.card) : null;
        const from = mine || cardBox(plateOf(e.player), slot);
        if (mine) mine.style.visibility = "hidden";
        ctx.sound("play");
        trick.set(e.player, e.card);
        await motion.fly(face(e.card), from, slot, {keep: true});
      } else if (e.kind === "trick") {
        motion.caption(root, words);
        await motion.wait(motion.ms(0.8));
        motion.settle();
        const to = cardBox(plateOf(e.player), slotOf(e.player));
        await Promise.all([...trick].map(([p, c]) => motion.fly(face(c), slotOf(p), to, {ms: motion.ms(1.1)})));
        trick.clear();
        await motion.pulse(seatEl(e.player), motion.ms(0.8));
      } else if (e.kind === "call" && e.given) {
        motion.caption(root, words);
        const from = cardBox(panelOf(e.target)), to = e.player === my ? cardBox(root.querySelector(".ww-hand")) : cardBox(panelOf(e.player));
        ctx.sound("draw");
        await motion.fly(face(e.card), from, to);
      } else if (e.kind === "return") {
        motion.caption(root, words);
        await motion.fly(face(e.card), cardBox(e.player === my ? root.querySelector(".ww-hand") : panelOf(e.player)),
          cardBox(e.to === my ? root.querySelector(".ww-hand") : panelOf(e.to)));
      } else if (e.kind === "book") {
        motion.caption(root, words);
        await motion.pulse(panelOf(e.player), motion.ms(1.3));
      } else if (words && e.kind !== "deal_around") {
        motion.caption(root, words);
        await motion.wait(motion.ms(1.1));
      }
    }
  }

  /** A legal move in words ("Ask Bob for the Four, yellow"). */
  function words(f) {
    if (f.kind === "prefer") return `Name ${cap(f.suit)} (${COLOUR[f.suit]}) the Preference suit`;
    if (f.kind === "play") return `Play the ${f.card} (${character(parse(f.card))})`;
    if (f.kind === "ask") return `Ask ${name(f.target)} for the ${WORDS[f.number]}, ${COLOUR[f.suit]} (${f.card})`;
    if (f.kind === "thank") return "Say “Thank you”";
    return f.text;
  }

  return {
    update,
    hint,
    animate,
    words,
    ownsPlayers: true,
    resultWords: () => overWords,
    pointsLabel: () => (books ? "Books" : "Points"),
  };
}

const TEAM_LETTERS = "ABCDEFG";
/** The partnership letter of player p ("A", "B", …), or "" when everyone plays alone. */
function teamOf(v, p) {
  if (!v.teams || !v.team_scores) return "";
  const t = v.teams.findIndex((team) => team.includes(p));
  return t >= 0 ? TEAM_LETTERS[t] : "";
}

function shortName(n) {
  return n.length > 14 ? n.slice(0, 13) + "…" : n;
}
