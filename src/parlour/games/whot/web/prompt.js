// Whot!'s prompt: what may follow the call card and what is waiting (a pick, a skip, the cards of
// this turn), the buttons of a turn (declarations, change of direction, End turn, Pass), the WHOT
// chooser, and a legal move in words. Every line is shown whole: nothing is cut with "…".
import { h, fill } from "/static/js/dom.js";
import { POWER_WORDS, SAY_WORDS, SYMBOLS, cardWords, parseCard, symbolIcon } from "./cards.js";
import { reversing, withSay } from "./moves.js";

/** What answers a pending pick under the table's rules: the same number (pick_stacking, on
 * unless the rules say otherwise), a WHOT (whot_answers_pick). */
export function pickAnswers(rules, num) {
  return [rules.pick_stacking === false ? null : `a ${num}`, rules.whot_answers_pick ? "a WHOT" : null].filter(Boolean);
}

/** A power's words for the card on top, the pick's answer as the rules have it. */
function powerLine(rules, p, num) {
  if ((p === "pick_two" || p === "pick_three") && !pickAnswers(rules, num).length) {
    return `${POWER_WORDS[p][1].split(":")[0]}: the next player picks ${p === "pick_two" ? "two" : "three"} and loses the turn`;
  }
  return POWER_WORDS[p][1];
}

/** The lines beside the market: the call, the power on top, what is waiting, the direction and
 * the newest events (`news`, in words) or how the game ended (`overWords`). */
export function drawInfo(box, t, news, overWords) {
  const v = t.view;
  const lines = [];
  const turnName = v.to_play !== null && v.to_play !== undefined ? t.name(v.to_play) : null;
  const waiting = v.pending_pick || v.pending_skip;
  if (v.call_card === "whot" && v.call) {
    lines.push(h("p", {class: "whot-call", "data-call": v.call}, symbolIcon(v.call), " ",
      h("strong", {}, `Called: ${v.call}`), ` — play a ${v.call} or a WHOT`));
  } else if (v.call_card === "whot" || (!v.call_card && v.free)) {
    lines.push(h("p", {class: "whot-call"}, h("strong", {}, "Any card may be played"), v.call_card ? " (no symbol called)" : " (the leader plays any card)"));
  } else if (v.call_card) {
    const c = parseCard(v.call_card);
    const p = t.powers[String(c.num)];
    lines.push(h("p", {class: "whot-call", "data-call": v.call}, symbolIcon(c.sym), " ",
      h("strong", {}, `Follow ${c.sym} or ${c.num}`), " or play a WHOT"));
    // the alert below says what a waiting pick or skip asks: the power's own line would repeat it
    if (p && POWER_WORDS[p] && !waiting) lines.push(h("p", {class: "whot-power", "data-power": p}, `The ${c.num} on top: ${powerLine(t.rules, p, c.num)}.`));
  }
  if (v.pending_pick) {
    const answers = pickAnswers(t.rules, v.pick_number);
    lines.push(h("p", {class: "whot-alert", "data-pending-pick": v.pending_pick},
      `⚠ Pick ${v.pending_pick} waiting${turnName ? ` for ${turnName}` : ""}: ` +
      (answers.length ? `answer with ${answers.join(" or ")} or ` : "") + `go to market and pick ${v.pending_pick}.`));
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
  fill(box, lines);
}

/** The buttons of a turn: change of direction, declarations, End turn, Pass. */
export function drawActions(box, t) {
  const ui = t.ui;
  const moves = t.moves;
  const says = [...new Set(moves.map((m) => m.say).filter(Boolean))];
  if (ui.say && !says.includes(ui.say)) ui.say = "";
  const buttons = [];
  if (moves.some(reversing)) {
    // seed 002: "it is said out loud: Pick two and change direction"
    const on = ui.reverse;
    buttons.push(h("button", {type: "button", class: "whot-reverse" + (on ? " on" : ""), "data-change": "direction",
      "aria-pressed": on ? "true" : "false", title: "Say it with the pick card you play now: the pick goes the other way",
      onclick: () => { ui.reverse = !on; t.redraw(); }}, on ? "✔ Saying “… and change direction”" : "Say “… and change direction”"));
  } else ui.reverse = false;
  for (const say of says) {
    const on = ui.say === say;
    buttons.push(h("button", {type: "button", class: "whot-say" + (on ? " on" : ""), "data-say": say, "aria-pressed": on ? "true" : "false",
      title: "Say it with the card you play now, or pick up a penalty",
      onclick: () => { ui.say = on ? "" : say; t.redraw(); }}, on ? `✔ Saying “${SAY_WORDS[say] || say}”` : `Say “${SAY_WORDS[say] || say}”`));
  }
  const end = withSay({kind: "end"}, moves, ui.say);
  if (end) {
    buttons.push(h("button", {type: "button", class: "primary whot-end", "data-move": end.text, onclick: () => t.send(end)}, "End turn"));
  }
  const pass = withSay({kind: "pass"}, moves, ui.say);
  if (pass) {
    buttons.push(h("button", {type: "button", class: "whot-pass", "data-move": pass.text, onclick: () => t.send(pass)}, "Pass (accept the skip)"));
  }
  fill(box, buttons);
  box.hidden = !buttons.length;
}

/** The WHOT chooser, once a WHOT is tapped: the symbols it may call (and what else it may do). */
export function drawChooser(box, t) {
  const ui = t.ui;
  const moves = t.moves;
  const calls = [];
  for (const m of moves) {
    if (m.kind !== "play" || m.card !== "whot") continue;
    const c = {sym: m.call, power: m.power || ""};
    if (!calls.some((x) => x.sym === c.sym && x.power === c.power)) calls.push(c);
  }
  if (!ui.chooser || !calls.length) { box.hidden = true; fill(box); return; }
  const powerChoices = [...new Set(calls.map((c) => c.power))];
  if (!powerChoices.includes(ui.power)) ui.power = powerChoices[0];
  const syms = SYMBOLS.filter((sym) => calls.some((c) => c.sym === sym && c.power === ui.power));
  const powerWords = {"": "just call", reverse: "and reverse the direction", skip: "and skip the next player"};
  const symButtons = syms.map((sym) => {
    const move = withSay({kind: "play", card: "whot", call: sym, power: ui.power || null}, moves, ui.say);
    return h("button", {type: "button", class: "whot-sym", "data-move": move.text, "data-symbol": sym,
      "aria-label": `Call ${sym}${ui.power ? ` ${powerWords[ui.power]}` : ""}`, onclick: () => t.send(move)},
      symbolIcon(sym, 26), h("span", {}, sym));
  });
  fill(box,
    h("p", {class: "whot-chooser-title"}, h("strong", {}, "WHOT! "), "Call a symbol for the next player:"),
    powerChoices.length > 1 ? h("div", {class: "whot-powers", role: "group", "aria-label": "What the WHOT does besides calling"},
      powerChoices.map((p) => h("button", {type: "button", class: "whot-power-btn" + (ui.power === p ? " on" : ""), "data-power": p,
        "aria-pressed": ui.power === p ? "true" : "false", onclick: () => { ui.power = p; t.redraw(); focusChooser(box); }},
        ui.power === p ? "✔ " : "", powerWords[p] || p))) : null,
    h("div", {class: "whot-syms"}, symButtons),
    h("button", {type: "button", class: "whot-cancel small-btn", onclick: () => { ui.chooser = false; t.redraw(); }}, "Cancel"));
  box.hidden = false;
}

export function focusChooser(box) {
  const b = box.querySelector(".whot-sym");
  if (b) b.focus();
}

/** A legal move in words, as a person would say it ("Go to market and pick 2"). */
export function moveWords(fields, view, powers) {
  const say = fields.say ? `, saying “${SAY_WORDS[fields.say] || fields.say}”` : "";
  if (fields.kind === "play") {
    if (fields.card === "whot") {
      const extra = fields.power === "reverse" ? " and reverse the direction" : fields.power === "skip" ? " and skip the next player" : "";
      return `Play the WHOT and call for ${fields.call}${extra}${say}`;
    }
    return `Play the ${cardWords(fields.card, powers)}${say}`;
  }
  if (fields.kind === "draw") return (view.pending_pick ? `Go to market and pick ${view.pending_pick}` : "Go to market") + say;
  if (fields.kind === "end") return "End the turn" + say;
  if (fields.kind === "pass") return "Pass: accept the skip" + say;
  return fields.text;
}
