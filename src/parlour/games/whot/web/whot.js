// Whot!: the cards in SVG (five symbols and the WHOT card), the call card and the called symbol,
// the market, the opponents, your hand. A click plays one of msg.moves, the legal moves with their
// fields ({text, kind, card, call, power, say}): choices are built from the fields, never by reading
// move texts (docs/architecture.md, "A game in the browser").
import { h, s, fill, clickable } from "/static/js/dom.js";

const SYMBOLS = ["circle", "triangle", "cross", "square", "star"];
// Colour helps, the shape and the word carry the meaning (colour-blind players).
const COLOUR = {circle: "#b3261e", triangle: "#1b6e2c", cross: "#0d4f9c", square: "#6a2a8c", star: "#b45a00", whot: "#7b1e1e"};
const POWER_WORDS = {
  hold_on: ["HOLD ON", "Hold on: everyone else is skipped and the player plays again"],
  pick_two: ["PICK 2", "Pick two: the next player picks two unless they answer with the same number"],
  pick_three: ["PICK 3", "Pick three: the next player picks three unless they answer with the same number"],
  suspension: ["SUSPEND", "Suspension: the next player misses a turn"],
  general_market: ["GEN. MARKET", "General market: everyone else picks one and the player plays again"],
};
const SAY_WORDS = {"last card": "Last card!", "semi-last card": "Semi-last card!", "check up": "Check up!"};
const CW = 60, CH = 86; // a card's own units; scaled to the size drawn

// --- reading card and move texts ------------------------------------------------------------

/** A card's name as the view gives it, "7 cross" or "whot": its number and symbol. */
function parseCard(text) {
  if (text === "whot") return {text, num: 20, sym: "whot"};
  const [n, sym] = text.split(" ");
  return {text, num: Number(n), sym};
}

function sortKey(text) {
  const c = parseCard(text);
  const i = c.sym === "whot" ? 9 : SYMBOLS.indexOf(c.sym);
  return i * 100 + c.num;
}

/** Whether two moves are the same but for what is said with them. */
function sameBase(a, b) {
  return a.kind === b.kind && (a.card ?? null) === (b.card ?? null) && (a.call ?? null) === (b.call ?? null) &&
    (a.power ?? null) === (b.power ?? null);
}

function cardWords(text, powers) {
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
function shape(sym, cx, cy, r, attrs = {}) {
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
function symbolIcon(sym, size = 22) {
  return s("svg", {viewBox: "0 0 24 24", width: size, height: size, class: "whot-icon", "aria-hidden": "true"},
    s("rect", {x: 0.5, y: 0.5, width: 23, height: 23, rx: 5, fill: "#fffaf0", stroke: "#3b2a1a"}),
    shape(sym, 12, 12, 8.5, {fill: COLOUR[sym] || "#333"}));
}

/** The face of a card in CW x CH units, its top-left at (0, 0). */
function face(text, powers) {
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
function back() {
  return s("g", {class: "whot-back"},
    s("rect", {x: 0.5, y: 0.5, width: CW - 1, height: CH - 1, rx: 6, fill: "#7b1e1e", stroke: "#2a0d0d", "stroke-width": 1.2}),
    s("rect", {x: 5, y: 5, width: CW - 10, height: CH - 10, rx: 4, fill: "none", stroke: "#f3d9a4", "stroke-width": 1.2}),
    s("text", {x: CW / 2, y: CH / 2 + 5, "text-anchor": "middle", "font-size": 13, "font-weight": 900, fill: "#f3d9a4",
      transform: `rotate(-60 ${CW / 2} ${CH / 2})`}, "WHOT"));
}

/** A card placed at (x, y) drawn w wide (keeping the card's proportions). */
function placed(inner, x, y, w, extra = {}) {
  const k = w / CW;
  return s("g", {transform: `translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${k.toFixed(4)})`, ...extra}, inner);
}

// --- the module ---------------------------------------------------------------------------

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
  let ui = {ply: -1, chooser: false, power: "", say: "", reverse: false, hint: ""};
  let last = null;
  let lastWidth = 0;
  let news = [];
  let overWords = ""; // the game-over event in words, as the log gave it

  const ro = new ResizeObserver(() => {
    const w = parts.handWrap.clientWidth;
    if (last && Math.abs(w - lastWidth) > 2) draw(last);
  });
  ro.observe(parts.handWrap);

  function powersOf() {
    const r = ctx.table()?.rules || {};
    return r.powers && typeof r.powers === "object" ? r.powers : {};
  }

  /** What answers a pending pick under the table's rules: the same number (pick_stacking, on
   * unless the rules say otherwise), a WHOT (whot_answers_pick). */
  function pickAnswers(num) {
    const r = ctx.table()?.rules || {};
    return [r.pick_stacking === false ? null : `a ${num}`, r.whot_answers_pick ? "a WHOT" : null].filter(Boolean);
  }

  /** A power's words for the card on top, the pick's answer as the rules have it. */
  function powerLine(p, num) {
    if ((p === "pick_two" || p === "pick_three") && !pickAnswers(num).length) {
      return `${POWER_WORDS[p][1].split(":")[0]}: the next player picks ${p === "pick_two" ? "two" : "three"} and loses the turn`;
    }
    return POWER_WORDS[p][1];
  }

  /** The legal move like `base` (kind, card, call, power) said with the chosen declaration, else
   * without one, else any legal form of it; null if none is legal. */
  function withSay(base, moves) {
    const same = moves.filter((m) => sameBase(m, base));
    return same.find((m) => (m.say || "") === ui.say) || same.find((m) => !m.say) || same[0] || null;
  }

  function send(move) {
    if (!move || !last || !last.legal.includes(move.text)) return;
    ui.chooser = false;
    ctx.send(move.text);
  }

  function update(msg) {
    if (msg.ply !== ui.ply || msg.game_number !== last?.game_number) ui = {ply: msg.ply, chooser: false, power: "", say: "", reverse: false, hint: null};
    if (msg.log && msg.log.length) news = msg.log.slice(-3);
    if (msg.events_from === 0 && last && msg.game_number !== last.game_number) news = (msg.log || []).slice(-3);
    if (msg.events_from === 0 || msg.game_number !== last?.game_number) overWords = "";
    (msg.events || []).forEach((e, i) => { if (e.kind === "game_over") overWords = msg.log?.[i] || ""; });
    last = msg;
    draw(msg);
  }

  function draw(msg) {
    // keyboard players keep their place: the focused card or button is focused again after a redraw
    const a = document.activeElement;
    const keep = a && a !== el && el.contains(a)
      ? ["card", "move", "symbol", "say", "power", "change"].map((k) => [k, a.dataset?.[k]]).find(([, x]) => x !== undefined) : null;
    drawAll(msg);
    if (ui.hint) markHint(ui.hint);
    if (keep) {
      const again = [...el.querySelectorAll(`[data-${keep[0]}]`)].find((e) => e.dataset[keep[0]] === keep[1]);
      if (again && (again.hasAttribute("tabindex") || again instanceof HTMLButtonElement)) again.focus();
    }
  }

  function drawAll(msg) {
    const v = msg.view;
    const moves = msg.moves || [];
    const powers = powersOf();
    const me = v.viewer ?? null;
    drawOpponents(v, me, powers);
    drawMiddle(v, moves, powers);
    drawInfo(v, msg, powers);
    drawActions(moves);
    drawChooser(moves);
    drawHand(v, moves, powers, me);
  }

  // --- the others ---------------------------------------------------------------------------
  function drawOpponents(v, me, powers) {
    const n = v.players;
    const order = [];
    for (let k = 1; k <= n; k++) {
      const p = me === null ? (k - 1) : (((me + k * v.direction) % n) + n) % n;
      if (p !== me) order.push(p);
    }
    const narrow = el.clientWidth < 520;
    // five or more at a phone's table: each chip in two short rows (the name; the fan beside
    // the count), so that three rows of them still leave your hand in view during a pick
    const crowded = narrow && order.length >= 4;
    parts.opps.classList.toggle("crowded", crowded);
    fill(parts.opps, order.map((p) => {
      const count = v.hand_counts[p];
      const shown = v.is_over && v.hands ? v.hands[p] : null;
      const known = shown ? [] : (v.known?.[p] || []);
      const backs = shown ? 0 : Math.max(0, Math.min(count, narrow ? 7 : 12) - known.length);
      const w = crowded ? 12 : narrow ? 17 : 26, step = crowded ? 4 : narrow ? 5 : 9;
      const items = [];
      let x = 2;
      const cards = shown ? [...shown].sort((a, b) => sortKey(a) - sortKey(b)) : known;
      for (const c of cards) { items.push(placed(face(c, powers), x, 2, w, {class: "whot-known", "data-known": c})); x += shown ? w * 0.7 : w * 0.77; }
      for (let i = 0; i < backs; i++) { items.push(placed(back(), x, 2, w)); x += step; }
      const width = Math.max(x + w - step + 4, 40);
      const toPlay = v.to_play === p && !v.is_over;
      const fan = s("svg", {viewBox: `0 0 ${width} ${w * CH / CW + 4}`, width, height: Math.round(w * CH / CW + 4),
        class: "whot-opp-fan", "aria-hidden": "true"}, items);
      const knownText = known.length ? ` — known: ${known.join(", ")}` : "";
      const shownText = shown ? ` — held at the end: ${shown.length ? shown.join(", ") : "none"}` : "";
      return h("div", {class: "whot-opp" + (toPlay ? " to-play" : ""), "data-player": p,
        "aria-label": `${ctx.name(p)}: ${count} card${count === 1 ? "" : "s"}${knownText}${shownText}${toPlay ? ", to play" : ""}`},
        h("div", {class: "whot-opp-name"}, toPlay ? h("span", {class: "whot-turn-mark", "aria-hidden": "true"}, "▶ ") : null,
          ctx.name(p)),
        fan,
        h("div", {class: "whot-opp-count"}, `${count} card${count === 1 ? "" : "s"}`,
          known.length ? h("span", {class: "whot-known-words"}, ` · shown: ${known.join(", ")}`) : null));
    }));
  }

  // --- the market and the call card ---------------------------------------------------------
  function drawMiddle(v, moves, powers) {
    const cw = 64, chh = cw * CH / CW;
    const svg = s("svg", {viewBox: `0 -12 ${cw * 2 + 60} ${chh + 46}`, class: "whot-table-svg", role: "group", "aria-label": "The market and the call card"});
    // the market: a stack of backs with its count
    const drawMove = withSay({kind: "draw"}, moves);
    const stack = s("g", {class: "whot-market" + (drawMove ? " legal" : ""), "data-market": v.pack_count});
    stack.append(s("rect", {x: 0, y: -4, width: cw + 16, height: chh + 36, fill: "transparent"})); // the whole place is the target
    const layers = Math.min(4, Math.ceil(v.pack_count / 8));
    for (let i = layers - 1; i >= 0; i--) stack.append(placed(back(), 6 + i * 2, 4 + i * 2, cw));
    if (!v.pack_count) stack.append(s("rect", {x: 6, y: 4, width: cw, height: chh, rx: 6, fill: "none", stroke: "#cfe3d4", "stroke-dasharray": "4 3"}));
    if (drawMove) stack.append(s("rect", {class: "whot-glow", x: 3, y: 1, width: cw + 6 + layers * 2, height: chh + 6 + layers * 2, rx: 8}));
    stack.append(s("text", {x: 6 + cw / 2, y: chh + 26, "text-anchor": "middle", class: "whot-label"}, `Market ${v.pack_count}`));
    if (drawMove) {
      const pick = v.pending_pick;
      stack.dataset.move = drawMove.text;
      clickable(stack, pick ? `Go to market and pick ${pick}` : `Go to market: draw a card (${v.pack_count} left)`, () => send(drawMove));
    } else {
      stack.setAttribute("role", "img");
      stack.setAttribute("aria-label", `Market: ${v.pack_count} card${v.pack_count === 1 ? "" : "s"}`);
    }
    svg.append(stack);
    // the pile: the call card on top of one or two played cards
    const px = cw + 40;
    const pile = s("g", {class: "whot-pile", "data-call-card": v.call_card || ""});
    if (v.call_card) {
      if (v.pile.length > 1) pile.append(placed(face(v.pile[v.pile.length - 2], powers), px - 5, 7, cw, {class: "whot-under"}));
      pile.append(placed(face(v.call_card, powers), px, 4, cw, {class: "whot-pile-top"}));
      if (v.call_card === "whot" && v.call) {
        pile.append(s("g", {class: "whot-called"},
          s("circle", {cx: px + cw - 2, cy: 10, r: 15, fill: "#fffaf0", stroke: "#ffd400", "stroke-width": 3}),
          shape(v.call, px + cw - 2, 10, 9, {fill: COLOUR[v.call]})));
      }
      pile.setAttribute("role", "img");
      pile.setAttribute("aria-label", `Call card: ${cardWords(v.call_card, powers)}` + (v.call_card === "whot" && v.call ? `, calling for ${v.call}` : ""));
    } else {
      pile.append(s("rect", {class: "whot-pile-top", x: px, y: 4, width: cw, height: chh, rx: 6, fill: "none", stroke: "#cfe3d4", "stroke-dasharray": "4 3"}));
      pile.setAttribute("role", "img");
      pile.setAttribute("aria-label", "No call card yet: the leader plays any card");
    }
    pile.append(s("text", {x: px + cw / 2, y: chh + 26, "text-anchor": "middle", class: "whot-label"}, "Call card"));
    svg.append(pile);
    fill(parts.middle, svg);
  }

  function drawInfo(v, msg, powers) {
    const lines = [];
    const turnName = v.to_play !== null && v.to_play !== undefined ? ctx.name(v.to_play) : null;
    if (v.call_card === "whot" && v.call) {
      lines.push(h("p", {class: "whot-call", "data-call": v.call}, symbolIcon(v.call), " ",
        h("strong", {}, `Called: ${v.call}`), ` — play a ${v.call} or a WHOT`));
    } else if (v.call_card === "whot" || (!v.call_card && v.free)) {
      lines.push(h("p", {class: "whot-call"}, h("strong", {}, "Any card may be played"), v.call_card ? " (no symbol called)" : " (the leader plays any card)"));
    } else if (v.call_card) {
      const c = parseCard(v.call_card);
      const p = powers[String(c.num)];
      lines.push(h("p", {class: "whot-call", "data-call": v.call}, symbolIcon(c.sym), " ",
        h("strong", {}, `Follow ${c.sym} or ${c.num}`), " or play a WHOT"));
      if (p && POWER_WORDS[p]) lines.push(h("p", {class: "whot-power", "data-power": p}, `The ${c.num} on top: ${powerLine(p, c.num)}.`));
    }
    if (v.pending_pick) {
      lines.push(h("p", {class: "whot-alert", "data-pending-pick": v.pending_pick},
        `⚠ Pick ${v.pending_pick} waiting${turnName ? ` for ${turnName}` : ""}: ` +
        (pickAnswers(v.pick_number).length ? `answer with ${pickAnswers(v.pick_number).join(" or ")} or ` : "") +
        `go to market and pick ${v.pending_pick}.`));
    }
    if (v.pending_skip) {
      lines.push(h("p", {class: "whot-alert"}, `⚠ ${turnName || "The next player"} is skipped by a WHOT: answer with a WHOT or pass.`));
    }
    if (v.turn_cards && v.turn_cards.length) {
      lines.push(h("p", {class: "whot-alert", "data-turn-cards": v.turn_cards.join(",")},
        `This turn so far: ${v.turn_cards.join(", ")} — play another or end the turn.`));
    }
    if (v.players > 2) {
      lines.push(h("p", {class: "whot-dir", "data-direction": v.direction},
        v.direction === 1 ? "↻ Play passes in seat order (to the left)" : "↺ Play passes in reverse (to the right)"));
    }
    if (news.length && !v.is_over) {
      lines.push(h("p", {class: "whot-news"}, h("span", {class: "sr-only"}, "Just now: "), news.join(" · ")));
    }
    if (v.is_over) lines.push(h("p", {class: "whot-alert"}, `Game over: ${overWords || v.reason || "the game has ended"}.`));
    fill(parts.info, lines);
  }

  /** Whether a card is played by a move that changes the direction (a pick card, pick_reverses). */
  function reversing(m) {
    return m.kind === "play" && m.card !== "whot" && m.power === "reverse";
  }

  // --- buttons: end turn, pass, declarations, change of direction -----------------------------
  function drawActions(moves) {
    const says = [...new Set(moves.map((m) => m.say).filter(Boolean))];
    if (ui.say && !says.includes(ui.say)) ui.say = "";
    const buttons = [];
    if (moves.some(reversing)) {
      // seed 002: "it is said out loud: Pick two and change direction"
      const on = ui.reverse;
      buttons.push(h("button", {type: "button", class: "whot-reverse" + (on ? " on" : ""), "data-change": "direction",
        "aria-pressed": on ? "true" : "false", title: "Say it with the pick card you play now: the pick goes the other way",
        onclick: () => { ui.reverse = !on; draw(last); }}, on ? "✔ Saying “… and change direction”" : "Say “… and change direction”"));
    } else ui.reverse = false;
    for (const say of says) {
      const on = ui.say === say;
      buttons.push(h("button", {type: "button", class: "whot-say" + (on ? " on" : ""), "data-say": say, "aria-pressed": on ? "true" : "false",
        title: "Say it with the card you play now, or pick up a penalty",
        onclick: () => { ui.say = on ? "" : say; draw(last); }}, on ? `✔ Saying “${SAY_WORDS[say] || say}”` : `Say “${SAY_WORDS[say] || say}”`));
    }
    const end = withSay({kind: "end"}, moves);
    if (end) {
      buttons.push(h("button", {type: "button", class: "primary whot-end", "data-move": end.text, onclick: () => send(end)}, "End turn"));
    }
    const pass = withSay({kind: "pass"}, moves);
    if (pass) {
      buttons.push(h("button", {type: "button", class: "whot-pass", "data-move": pass.text, onclick: () => send(pass)}, "Pass (accept the skip)"));
    }
    fill(parts.actions, buttons);
    parts.actions.hidden = !buttons.length;
  }

  // --- the WHOT chooser ------------------------------------------------------------------------
  function drawChooser(moves) {
    const calls = [];
    for (const m of moves) {
      if (m.kind !== "play" || m.card !== "whot") continue;
      const c = {sym: m.call, power: m.power || ""};
      if (!calls.some((x) => x.sym === c.sym && x.power === c.power)) calls.push(c);
    }
    if (!ui.chooser || !calls.length) { parts.chooser.hidden = true; fill(parts.chooser); return; }
    const powerChoices = [...new Set(calls.map((c) => c.power))];
    if (!powerChoices.includes(ui.power)) ui.power = powerChoices[0];
    const syms = SYMBOLS.filter((sym) => calls.some((c) => c.sym === sym && c.power === ui.power));
    const powerWords = {"": "just call", reverse: "and reverse the direction", skip: "and skip the next player"};
    const symButtons = syms.map((sym) => {
      const move = withSay({kind: "play", card: "whot", call: sym, power: ui.power || null}, moves);
      return h("button", {type: "button", class: "whot-sym", "data-move": move.text, "data-symbol": sym,
        "aria-label": `Call ${sym}${ui.power ? ` ${powerWords[ui.power]}` : ""}`, onclick: () => send(move)},
        symbolIcon(sym, 26), h("span", {}, sym));
    });
    fill(parts.chooser,
      h("p", {class: "whot-chooser-title"}, h("strong", {}, "WHOT! "), "Call a symbol for the next player:"),
      powerChoices.length > 1 ? h("div", {class: "whot-powers", role: "group", "aria-label": "What the WHOT does besides calling"},
        powerChoices.map((p) => h("button", {type: "button", class: "whot-power-btn" + (ui.power === p ? " on" : ""), "data-power": p,
          "aria-pressed": ui.power === p ? "true" : "false", onclick: () => { ui.power = p; draw(last); focusChooser(); }},
          ui.power === p ? "✔ " : "", powerWords[p] || p))) : null,
      h("div", {class: "whot-syms"}, symButtons),
      h("button", {type: "button", class: "whot-cancel small-btn", onclick: () => { ui.chooser = false; draw(last); }}, "Cancel"));
    parts.chooser.hidden = false;
  }

  function focusChooser() {
    const b = parts.chooser.querySelector(".whot-sym");
    if (b) b.focus();
  }

  // --- your hand --------------------------------------------------------------------------
  function drawHand(v, moves, powers, me) {
    if (me === null || !v.hand) {
      parts.handHead.textContent = "You are watching: the hands stay hidden.";
      fill(parts.hand);
      return;
    }
    const hand = [...v.hand].sort((a, b) => sortKey(a) - sortKey(b));
    const mine = moves.length > 0;
    const playableCards = new Set(moves.filter((m) => m.kind === "play").map((m) => m.card));
    const playable = hand.filter((t) => playableCards.has(t)).length;
    const can = (kind) => moves.some((m) => m.kind === kind);
    let advice = "";
    if (mine && playable) advice = " — play a raised card";
    else if (mine && can("end")) advice = " — no card can follow: end the turn";
    else if (mine && can("pass")) advice = " — pass to accept the skip";
    else if (mine && can("draw")) advice = v.pending_pick ? ` — go to market and pick ${v.pending_pick}` : " — nothing follows: go to market";
    parts.handHead.textContent = `Your hand: ${hand.length} card${hand.length === 1 ? "" : "s"}${advice}`;

    // One row, never two: the cards overlap so that each shows its corner (number and symbol);
    // a hand too long for that scrolls sideways.
    const W = Math.max(260, parts.handWrap.clientWidth || 600);
    lastWidth = parts.handWrap.clientWidth;
    const narrow = W < 520;
    const cw = narrow ? 60 : 84;
    const ch = cw * CH / CW;
    const lift = 14, pad = 6;
    const n = hand.length;
    const padX = narrow ? 4 : 28;
    const minStep = cw * 0.32; // the corner stays readable
    let step = cw + 8;
    if (n > 1 && n * (cw + 8) - 8 > W - 2 * padX) step = Math.max(minStep, (W - 2 * padX - cw) / (n - 1));
    const rowWidth = cw + (n - 1) * step;
    const width = Math.max(W, rowWidth + 2 * padX);
    const fan = n > 2 && !narrow && step > cw * 0.5;
    const height = lift + pad + ch + (fan ? 20 : 0) + pad;
    const svg = s("svg", {viewBox: `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`, width: width.toFixed(0),
      class: "whot-hand-svg" + (width > W + 1 ? " scrolls" : ""), role: "group",
      "aria-label": `Your hand, sorted: ${hand.join(", ")}`});
    const x0 = (width - rowWidth) / 2;
    hand.forEach((text, i) => {
      const x = x0 + i * step;
      const y = lift + pad;
      const c = parseCard(text);
      const canPlay = playableCards.has(text);
      const card = s("g", {class: "whot-card" + (canPlay ? " legal" : mine ? " illegal" : ""), "data-card": text});
      const inner = s("g", {class: "whot-lift"}, placed(face(text, powers), 0, 0, cw));
      if (canPlay) inner.prepend(s("rect", {class: "whot-glow", x: -3, y: -3, width: cw + 6, height: ch + 6, rx: 8}));
      else if (mine) inner.append(s("rect", {class: "whot-shade", x: 0.5, y: 0.5, width: cw - 1, height: ch - 1, rx: 6 * cw / CW}));
      card.append(inner);
      let dy = canPlay ? -lift : 0;
      let rot = "";
      if (fan) {
        const mid = (n - 1) / 2;
        const d = i - mid;
        const k = Math.min(3, 24 / n);
        dy += (d / mid) ** 2 * Math.min(16, n * 2);
        rot = ` rotate(${(d * k).toFixed(2)} ${cw / 2} ${ch.toFixed(1)})`;
      }
      card.setAttribute("transform", `translate(${x.toFixed(1)} ${(y + dy).toFixed(1)})${rot}`);
      if (canPlay && c.sym === "whot") {
        card.dataset.opens = "call";
        clickable(card, "Play the WHOT card: choose a symbol to call", () => {
          ui.chooser = true;
          draw(last);
          focusChooser();
        });
      } else if (canPlay) {
        const turn = ui.reverse && moves.some((m) => reversing(m) && m.card === text);
        const move = withSay({kind: "play", card: text, call: null, power: turn ? "reverse" : null}, moves);
        card.dataset.move = move.text;
        clickable(card, `Play ${cardWords(text, powers)}` + (turn ? " and change direction" : "") + (move.say ? `, saying ${move.say}` : ""), () => send(move));
      } else {
        card.setAttribute("role", "img");
        card.setAttribute("aria-label", cardWords(text, powers) + (mine ? " (cannot be played now)" : ""));
        // a tap on a card that cannot be played says why (the rules' reason, from the server)
        card.addEventListener("click", () => ctx.why(`play ${text}`));
      }
      svg.append(card);
    });
    fill(parts.hand, svg);
    parts.handWrap.classList.toggle("scrolls", width > W + 1);
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

  // --- motion: each event from where it happens to where it goes -----------------------------
  const cardSvg = (text) => s("svg", {viewBox: `0 0 ${CW} ${CH}`}, face(text, powersOf()));
  const backSvg = () => s("svg", {viewBox: `0 0 ${CW} ${CH}`}, back());
  const oppEl = (p) => el.querySelector(`.whot-opp[data-player="${p}"]`);
  const handCard = (text) => el.querySelector(`.whot-hand .whot-card[data-card="${CSS.escape(text)}"]`);
  /** A card-sized box (the pile's card) centred on an element: where a card leaves or lands. */
  function cardBox(target) {
    const pile = el.querySelector(".whot-pile-top")?.getBoundingClientRect();
    const r = target?.getBoundingClientRect();
    if (!pile || !r) return null;
    const k = Math.min(1, (r.height * 0.9) / pile.height);
    const w = pile.width * k, hh = pile.height * k;
    return {left: r.left + r.width / 2 - w / 2, top: r.top + r.height / 2 - hh / 2, width: w, height: hh};
  }

  async function animate(msg, motion) {
    const me = last?.view?.viewer ?? null;
    const events = msg.events || [];
    const pile = () => el.querySelector(".whot-pile-top");
    for (let i = 0; i < events.length; i++) {
      const e = events[i];
      const words = msg.log?.[i] || "";
      if (e.kind === "play") {
        const card = e.move.card;
        const mineCard = e.player === me ? handCard(card) : null;
        const from = mineCard || cardBox(oppEl(e.player));
        if (e.player !== me) motion.caption(parts.middle, words);
        ctx.sound("play");
        if (mineCard) mineCard.style.visibility = "hidden";
        await motion.fly(cardSvg(card), from, pile(), {keep: true});
      } else if (e.kind === "turn_up") {
        await motion.fly(cardSvg(e.card), el.querySelector(".whot-market"), pile(), {keep: true});
      } else if (e.kind === "draw") {
        const market = cardBox(el.querySelector(".whot-market"));
        const to = e.player === me ? cardBox(parts.handWrap) : cardBox(oppEl(e.player));
        motion.caption(parts.middle, words);
        ctx.sound("draw");
        const k = Math.min(3, e.cards);
        const gap = motion.ms(0.25);
        await Promise.all(Array.from({length: k}, (_, j) =>
          motion.wait(j * gap).then(() => motion.fly(backSvg(), market, to, {ms: motion.ms(0.9)}))));
      } else if (words && e.kind !== "deal") {
        // a skip, a suspension, a reversal, a general market, a penalty, the end: said and lit
        motion.caption(parts.middle, words);
        const who = e.player !== undefined ? oppEl(e.player) : null;
        await (who ? motion.pulse(who, motion.ms(1.3)) : motion.wait(motion.ms(1.3)));
      }
    }
  }

  /** A legal move in words, as a person would say it ("Go to market and pick 2"). */
  function words(fields) {
    const v = last?.view || {};
    const say = fields.say ? `, saying “${SAY_WORDS[fields.say] || fields.say}”` : "";
    if (fields.kind === "play") {
      if (fields.card === "whot") {
        const extra = fields.power === "reverse" ? " and reverse the direction" : fields.power === "skip" ? " and skip the next player" : "";
        return `Play the WHOT and call for ${fields.call}${extra}${say}`;
      }
      return `Play the ${cardWords(fields.card, powersOf())}${say}`;
    }
    if (fields.kind === "draw") return (v.pending_pick ? `Go to market and pick ${v.pending_pick}` : "Go to market") + say;
    if (fields.kind === "end") return "End the turn" + say;
    if (fields.kind === "pass") return "Pass: accept the skip" + say;
    return fields.text;
  }

  return {
    update,
    hint,
    animate,
    words,
    ownsPlayers: true,
    resultWords: () => overWords,
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
