// Who's Who's hands. Game No. 1: the cards that may be played lit; a tap on one plays it, a tap on
// another says why not (follow suit). Game No. 2: the cards grouped by number; a tap asks for that
// number (the picker then asks whom and which suit), or says why it cannot be asked now.
import { h } from "/static/js/dom.js";
import { SUITS, cardFace, cardWords, parse } from "./cards.js";

/** Game No. 1's hand; `t`: {view, plays (card -> move text), prefer (naming the Preference now),
 * send(move), why(move)}. */
export function tricksHand(t) {
  const hand = t.view.hand || [];
  const playable = hand.filter((c) => t.plays.has(c));
  const mine = t.plays.size > 0;
  return h("div", {class: "ww-hand-wrap"},
    h("p", {class: "ww-prompt"}, t.prefer ? "Your hand — name the Preference suit above." :
      playable.length ? "Your turn: click a card to play it." + (playable.length < hand.length ? " Only the lit cards may be played." : "")
        : "Your hand"),
    h("div", {class: "ww-hand", role: "group", "aria-label": "Your hand"},
      hand.map((c) => {
        const move = t.plays.get(c);
        const ok = move !== undefined;
        // a card that cannot be played is still a button (not disabled): a tap says why, in the
        // rules' words
        const b = h("button", {type: "button", class: "ww-cardbtn" + (ok ? " legal" : " unplayable"), "data-card": c,
          "data-move": ok ? move : null,
          "aria-label": ok ? `play ${cardWords(c)}` : `${cardWords(c)}${mine ? " (cannot be played now)" : ""}`}, cardFace(c));
        b.addEventListener("click", () => (ok ? t.send(move) : t.why(`play ${c}`)));
        return b;
      })));
}

/** Game No. 2's hand, grouped by number; `t`: {view, my, asks, lit, askNumber(n), why(move)}. */
export function booksHand(t) {
  const v = t.view;
  const hand = v.hand || [];
  const askable = new Set(t.asks.map((a) => a.number));
  const groups = new Map();
  for (const c of hand) {
    const n = parse(c).number;
    if (!groups.has(n)) groups.set(n, []);
    groups.get(n).push(c);
  }
  const numbers = [...groups.keys()].sort((a, b) => a - b);
  return h("div", {class: "ww-hand-wrap"},
    h("p", {class: "ww-prompt"}, `Your hand (${hand.length})` + (t.asks.length ? " — click a card to ask for its number." : "")),
    h("div", {class: "ww-hand ww-hand-books", role: "group", "aria-label": "Your hand"},
      numbers.map((n) => h("div", {class: "ww-group", "data-number": n},
        groups.get(n).map((c) => {
          const ok = askable.has(n);
          const b = h("button", {type: "button", class: "ww-cardbtn small" + (ok ? " legal" : " unplayable") +
            (t.lit?.gained.has(c) ? " ww-fresh" : ""), "data-card": c,
            "aria-label": ok ? `ask for the number of ${cardWords(c)}` : `${cardWords(c)}${t.asks.length ? " (cannot be asked for now)" : ""}`},
          cardFace(c));
          b.addEventListener("click", () => (ok ? t.askNumber(n) : t.why(askFor(v, t.my, n, hand))));
          return b;
        })))));
}

/** A call for a card of number n that the viewer lacks, from the next player holding cards: the
 * move whose refusal says why n cannot be asked for now. */
function askFor(v, my, n, hand) {
  const suit = SUITS.find((x) => !hand.includes(`${n} ${x}`)) || SUITS[0];
  let target = (my + 1) % v.players;
  for (let k = 1; k < v.players; k++) {
    const q = (my + k) % v.players;
    if (v.hand_counts[q] > 0) { target = q; break; }
  }
  return `ask ${target + 1} for ${n} ${suit}`;
}
