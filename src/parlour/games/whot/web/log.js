// Whot!'s events as they happen: the newest ones in words beside the call card, how the game
// ended, and each event shown moving on the board (a card from a hand to the pile, cards from
// the market to a hand) before the view that follows it is drawn (js/motion.js).
import { s } from "/static/js/dom.js";
import { CW, CH, back, face } from "./cards.js";

/** What the newest messages said: `news` (the last events in words) and `over` (the game-over
 * event in words, as the log gave it). `keep`: how many events in words to keep. */
export function readNews(state, msg, last, keep) {
  const newGame = msg.events_from === 0 || msg.game_number !== last?.game_number;
  if (msg.log && msg.log.length) state.news = msg.log.slice(-keep);
  if (msg.events_from === 0 && last && msg.game_number !== last.game_number) state.news = (msg.log || []).slice(-keep);
  if (newGame) state.over = "";
  (msg.events || []).forEach((e, i) => { if (e.kind === "game_over") state.over = msg.log?.[i] || ""; });
}

/** Play msg's events on the board as it still shows the state before them. `el` is the board,
 * `parts` its pieces, `me` the viewer, `powers` the rules' card powers. */
export async function animateEvents(el, parts, msg, motion, me, powers, sound) {
  const cardSvg = (text) => s("svg", {viewBox: `0 0 ${CW} ${CH}`}, face(text, powers));
  const backSvg = () => s("svg", {viewBox: `0 0 ${CW} ${CH}`}, back());
  const oppEl = (p) => el.querySelector(`.whot-opp[data-player="${p}"]`);
  const handCard = (text) => el.querySelector(`.whot-hand .whot-card[data-card="${CSS.escape(text)}"]`);
  const pile = () => el.querySelector(".whot-pile-top");
  /** A card-sized box (the pile's card) centred on an element: where a card leaves or lands. */
  function cardBox(target) {
    const top = pile()?.getBoundingClientRect();
    const r = target?.getBoundingClientRect();
    if (!top || !r) return null;
    const k = Math.min(1, (r.height * 0.9) / top.height);
    const w = top.width * k, hh = top.height * k;
    return {left: r.left + r.width / 2 - w / 2, top: r.top + r.height / 2 - hh / 2, width: w, height: hh};
  }
  const events = msg.events || [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const words = msg.log?.[i] || "";
    if (e.kind === "play") {
      const card = e.move.card;
      const mineCard = e.player === me ? handCard(card) : null;
      const from = mineCard || cardBox(oppEl(e.player));
      if (e.player !== me) motion.caption(el, words);
      sound("play");
      if (mineCard) mineCard.style.visibility = "hidden";
      await motion.fly(cardSvg(card), from, pile(), {keep: true});
    } else if (e.kind === "turn_up") {
      await motion.fly(cardSvg(e.card), el.querySelector(".whot-market"), pile(), {keep: true});
    } else if (e.kind === "draw") {
      const market = cardBox(el.querySelector(".whot-market"));
      const to = e.player === me ? cardBox(parts.handWrap) : cardBox(oppEl(e.player));
      motion.caption(el, words);
      sound("draw");
      const k = Math.min(3, e.cards);
      const gap = motion.ms(0.25);
      await Promise.all(Array.from({length: k}, (_, j) =>
        motion.wait(j * gap).then(() => motion.fly(backSvg(), market, to, {ms: motion.ms(0.9)}))));
    } else if (words && e.kind !== "deal") {
      // a skip, a suspension, a reversal, a general market, a penalty, the end: said and lit
      motion.caption(el, words);
      const who = e.player !== undefined ? oppEl(e.player) : null;
      await (who ? motion.pulse(who, motion.ms(1.3)) : motion.wait(motion.ms(1.3)));
    }
  }
}
