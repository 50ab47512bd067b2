// Sorry!'s hand in the point-score game: this seat's cards as buttons; a playable one is chosen
// with a click (and its moves then shown on the board).
import { h, fill } from "/static/js/dom.js";
import { CARD_TEXT, cardWord } from "./geometry.js";
import { allMoves, legalTexts } from "./choices.js";

/** The hand of `colours` (this seat's) into `box`; `t`: {msg, sel, chooseCard(card)}. */
export function drawHand(box, t, colours) {
  const {msg, sel} = t;
  const v = msg.view;
  const legalNow = legalTexts(msg).length > 0;
  const hands = v.hands || {};
  const cards = colours.flatMap((c) => hands[c] || []);
  if (!v.point_score || !cards.length) {
    fill(box);
    box.hidden = true;
    return;
  }
  const playable = new Set(allMoves(msg).filter((m) => m.card && m.kind !== "discard").map((m) => m.card));
  const kids = [h("span", {class: "hand-title"}, "Your hand:")];
  cards.forEach((c, i) => {
    const ok = legalNow && playable.has(c);
    const chosen = sel.card === c;
    kids.push(h("button", {type: "button", class: "sorry-cardbtn" + (chosen ? " chosen" : ""),
      "data-card": c, disabled: !ok, "aria-pressed": chosen ? "true" : "false",
      "aria-label": `${cardWord(c)}: ${CARD_TEXT[c] || ""}${ok ? "" : " (cannot be played now)"}`,
      title: CARD_TEXT[c] || "",
      onclick: () => t.chooseCard(chosen ? null : c),
    }, h("span", {class: "face"}, c === "S" ? "SORRY!" : c), h("span", {class: "idx sr-only"}, ` card ${i + 1}`)));
  });
  fill(box, kids);
  box.hidden = false;
}
