// Sorry!'s prompt: what to click now in words, the turn's buttons (the chooser when several moves
// end on one square, pass or discard, cancel) and the colours with who plays each.
import { h, s, fill } from "/static/js/dom.js";
import { CARD_TEXT, cardWord, kindOf } from "./geometry.js";
import { allMoves, describe, legalTexts, squareWords } from "./choices.js";
import { pawnShape } from "./board.js";

/** The prompt line: what this seat may do now, in words. */
export function promptWords(msg, sel) {
  const v = msg.view;
  const legalNow = legalTexts(msg).length > 0;
  const parsed = allMoves(msg);
  let text;
  if (v.is_over) text = "The game is over.";
  else if (!legalNow) text = v.point_score ? `${v.turn} to play.` : `${v.turn} to play with the ${cardWord(v.card || "?")}.`;
  else if (parsed.every((m) => m.kind === "pass")) text = `No move is possible with the ${cardWord(v.card || "?")}: pass.`;
  else if (v.point_score && !sel.card) text = "Choose a card from your hand.";
  else if (sel.split) text = `Split 7: ${sel.split.a} moves ${sel.split.n}. Now click the second pawn (it moves ${7 - sel.split.n}).`;
  else if (sel.source) {
    const what = kindOf(sel.source) === "start" ? `a pawn from ${squareWords(sel.source)}` : `the pawn on ${sel.source}`;
    const card = v.point_score ? sel.card : v.card;
    text = `Click a ringed square: where ${what} goes.`;
    if (card === "7") text += " A dashed ring marked +N moves it N and splits the 7 with a second pawn.";
    if (card === "11") text += " A ring on an opponent's pawn changes places with it.";
    if (card === "S") text += " Click the opponent's pawn to send back to START.";
  }
  else text = `Your ${cardWord(v.point_score ? sel.card : v.card)}: click a pawn to move it.`;
  if (legalNow && v.card && !v.point_score && !parsed.every((m) => m.kind === "pass")) text += ` ${CARD_TEXT[v.card] || ""}`;
  return text;
}

/** The buttons of the turn into `box`; `t`: {msg, sel, play(text), cancel()}. */
export function drawControls(box, t) {
  const {msg, sel} = t;
  const parsed = allMoves(msg);
  const kids = [];
  if (sel.choices) {
    kids.push(h("div", {class: "sorry-choices", role: "group", "aria-label": sel.choices.what},
      h("p", {class: "choices-title"}, sel.choices.what),
      ...sel.choices.moves.map((m) => h("button", {type: "button", class: "primary", "data-move": m.text,
        onclick: () => t.play(m.text)}, describe(msg.view, m)))));
  }
  for (const m of parsed) {
    if (m.kind === "pass") {
      const only = parsed.length === 1;
      kids.push(h("button", {type: "button", class: "pass", "data-move": "pass", onclick: () => t.play("pass")},
        only ? "Forfeit the turn (no move possible)" : "Pass (make no move)"));
    } else if (m.kind === "discard") {
      kids.push(h("button", {type: "button", class: "pass", "data-move": m.text, onclick: () => t.play(m.text)},
        `Discard the ${cardWord(m.card)} and draw`));
    }
  }
  if (legalTexts(msg).length && (sel.source || sel.split || sel.choices)) {
    kids.push(h("button", {type: "button", class: "cancel small-btn", onclick: () => t.cancel()}, "Cancel"));
  }
  fill(box, kids);
}

/** The colours in play, who plays each, and their pawns in START and at HOME. */
export function drawLegend(box, v, name) {
  fill(box, v.colours.map((c, i) => {
    const key = s("svg", {viewBox: "0 0 40 40", width: 22, height: 22, "aria-hidden": "true"}, pawnShape(c, 20, 21, 13));
    const pawns = v.pawns[c];
    const home = pawns.filter((p) => p === "home").length, start = pawns.filter((p) => p === "start").length;
    return h("li", {class: "legend-item" + (c === v.turn ? " turn" : "")}, key,
      h("span", {}, `${c} — ${name(v.seats[i])}`),
      h("span", {class: "muted small"}, ` START ${start} · HOME ${home}`));
  }));
}
