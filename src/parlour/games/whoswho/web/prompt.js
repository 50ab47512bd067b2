// Who's Who's prompts: naming the Preference suit (Game No. 1, four big suit buttons) and asking
// for a card (Game No. 2): a player, then a number, then a suit — each suit button saying its
// colour ("Four, yellow") and what the table knows of who holds it.
import { h } from "/static/js/dom.js";
import { COLOUR, EMBLEM, SUITS, WORDS, cap, character, emblemIcon, parse, shortName } from "./cards.js";

/** Naming the Preference suit: one big button a suit, with how many of it this hand holds. */
export function preferPanel(v, prefer, send) {
  const hand = (v.hand || []).map(parse);
  return h("div", {class: "ww-prefer", role: "group", "aria-label": "Name the Preference suit"},
    h("p", {class: "ww-prompt"}, "You name the Preference suit (trumps) for this deal: its cards beat every other suit until the next deal."),
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

/** Ask for a card: a player, then a number, then a suit — all from the legal calls. `t`: {pick
 * (the half-made call: target, number), name(p), send(move), redraw(focus)}. */
export function picker(v, asks, owesThanks, t) {
  const calls = asks.map((a) => ({move: a.text, target: a.target, number: a.number, suit: a.suit}));
  const targets = [...new Set(calls.map((c) => c.target))];
  if (!targets.includes(t.pick.target)) t.pick.target = targets.length === 1 ? targets[0] : null;
  const forTarget = calls.filter((c) => c.target === t.pick.target);
  const numbers = [...new Set(forTarget.map((c) => c.number))].sort((a, b) => a - b);
  if (!numbers.includes(t.pick.number)) t.pick.number = null;
  const holders = v.holders || {};
  const step = (label, ...kids) => h("div", {class: "ww-step"}, h("span", {class: "ww-step-label"}, label), h("div", {class: "ww-step-choices"}, kids));
  const box = h("div", {class: "ww-picker", role: "group", "aria-label": "Ask for a card"},
    h("p", {class: "ww-prompt"}, owesThanks ? "Or call again (without thanks — the card goes back):" : "Your call: ask a player for a card."),
    step("Ask", targets.map((q) => h("button", {type: "button", class: "ww-pick-target", "data-target": q + 1,
      "aria-label": `Ask player ${q + 1}, ${t.name(q)} (${v.hand_counts[q]} cards)`, "aria-pressed": String(t.pick.target === q), onclick: () => { t.pick.target = q; t.redraw(".ww-pick-number"); }},
    h("span", {class: "ww-seatno"}, `${q + 1}`), " ", shortName(t.name(q)), h("small", {}, ` · ${v.hand_counts[q]} cards`)))));
  if (t.pick.target !== null) {
    box.append(step("for", numbers.map((n) => h("button", {type: "button", class: "ww-pick-number", "data-number": n,
      "aria-pressed": String(t.pick.number === n), "aria-label": `${WORDS[n]} (${n})`,
      onclick: () => { t.pick.number = n; t.redraw(".ww-pick-suit"); }}, String(n)))));
  }
  if (t.pick.target !== null && t.pick.number !== null) {
    const options = forTarget.filter((c) => c.number === t.pick.number)
      .sort((a, b) => SUITS.indexOf(a.suit) - SUITS.indexOf(b.suit));
    box.append(step("suit", options.map((c) => {
      const card = `${c.number} ${c.suit}`;
      const who = holders[card];
      const hint = who ? (who.length === 1 && who[0] === c.target ? "known to hold it" : who.includes(c.target) ? "may hold it" : "does not hold it") : "";
      return h("button", {type: "button", class: `ww-pick-suit ww-${c.suit}` + (hint === "known to hold it" ? " sure" : hint === "does not hold it" ? " no" : ""),
        "data-move": c.move, "aria-label": `Ask ${t.name(c.target)} for ${WORDS[c.number]}, ${COLOUR[c.suit]}: ${c.number} ${c.suit}, ${character(parse(card))}` + (hint ? `; ${hint}` : ""),
        onclick: () => t.send(c.move)},
      emblemIcon(c.suit, 26),
      h("span", {class: "ww-suit-name"}, `“${WORDS[c.number]}, ${COLOUR[c.suit]}”`),
      h("span", {class: "ww-suit-sub"}, `${cap(c.suit)} · ${character(parse(card))}` + (hint ? ` — ${hint}` : "")));
    })));
  }
  return box;
}

