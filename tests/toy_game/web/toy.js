// High Card in the browser: the scores, the pile, your hand as buttons built from msg.moves.
import { h, fill } from "/static/js/dom.js";

export function mount(el, ctx) {
  el.classList.add("toy");
  return {
    update(msg) {
      const v = msg.view;
      const cards = (v.hand || []).map((c) => {
        const move = (msg.moves || []).find((m) => m.card === c);
        return h("button", {type: "button", class: "toy-card" + (move ? " legal" : ""), "data-card": c,
          "data-move": move ? move.text : null, disabled: !move, onclick: () => move && ctx.send(move.text)}, String(c));
      });
      fill(el,
        h("p", {class: "toy-scores"}, Array.from({length: v.players}, (_, p) => `${ctx.name(p)}: ${v.scores[p]}`).join(" · ")),
        h("p", {class: "toy-pile", "data-pile": v.pile.length}, `Pile: ${v.pile.join(" ") || "empty"} · pack ${v.pack}`),
        h("div", {class: "toy-hand", "aria-label": "Your hand"}, cards));
    },
  };
}
