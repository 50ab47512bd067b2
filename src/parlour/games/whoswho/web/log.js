// Who's Who's record of what happened: the history of calls (Game No. 2) and the earlier deals
// (Game No. 1), what the newest events changed (lit once), and each event shown moving — a card
// from a hand to the table, a trick gathered to its winner, a card passed between hands.
import { h } from "/static/js/dom.js";
import { cap, cardFace, chip, emblemIcon, shortName } from "./cards.js";

/** What this message's events did, to light once: cards played to the trick, the trick's taker,
 *  cards that came into or left this player's hand, books laid down. Not on a first message
 *  (events_from 0), which brings the whole game so far. */
export function news(m, name, announce) {
  const out = {played: new Set(), took: null, gained: new Set(), books: new Set()};
  if (!m.events_from) return out;
  const my = m.view.viewer ?? null;
  for (const e of m.events || []) {
    if (e.kind === "play") out.played.add(e.card);
    else if (e.kind === "trick") { out.took = e.player; out.played.clear(); }
    else if (e.kind === "deal") out.took = null;
    else if (e.kind === "call" && e.given) {
      if (e.player === my) {
        out.gained.add(e.card);
        announce(`${name(e.target)} gave you ${e.card}. Say thank you.`);
      } else if (e.target === my) announce(`${name(e.player)} took your ${e.card}.`);
    } else if (e.kind === "return") {
      if (e.to === my) { out.gained.add(e.card); announce(`${e.card} came back to you: your call.`); }
    } else if (e.kind === "book") out.books.add(`${e.player}:${e.number}`);
  }
  return out;
}

/** Game No. 2's history, newest first: calls (given or not), thanks, cards sent back, books, and
 * what the calls narrowed down. */
export function historyPanel(v, name, folding) {
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
  // the heading counts what the list holds: every line, and of them the calls (a call's thanks,
  // a card sent back and a book laid down are lines of their own)
  const count = (kind) => log.filter((e) => e.kind === kind).length;
  const calls = count("call"), books = count("book");
  return folding("history", {class: "ww-history"},
    h("summary", {"data-lines": log.length, "data-calls": calls},
      `History: ${log.length} line${log.length === 1 ? "" : "s"} — ${calls} call${calls === 1 ? "" : "s"}, ` +
      `${count("thank")} thank-you${count("thank") === 1 ? "" : "s"}, ${books} book${books === 1 ? "" : "s"}`),
    maybe.length ? h("p", {class: "ww-maybe small"}, "Narrowed down: ",
      maybe.slice(0, 12).map(([c, who]) => h("span", {class: "ww-maybe-item"}, chip(c), ` ${who.map((p) => shortName(name(p))).join(" or ")}`))) : null,
    lines.length ? h("ol", {class: "ww-log", reversed: true, tabindex: 0, "aria-label": "History, newest first"}, lines) : h("p", {class: "small"}, "No calls yet."));
}

/** Game No. 1's earlier deals: each one's Preference suit and the tricks each player won. */
export function dealSummary(v, name, folding) {
  return folding("deals", {class: "ww-deals"}, h("summary", {}, `Earlier deals (${v.deal_log.length})`),
    h("ol", {}, v.deal_log.map((d) => h("li", {},
      d.preference ? [emblemIcon(d.preference, 14), ` ${cap(d.preference)} · `] : "",
      d.won.map((w, p) => `${shortName(name(p))} ${w}`).join(", ")))));
}

/** Play m's events on the table as it still shows the state before them (`last`: the message
 * drawn). */
export async function animateEvents(root, m, motion, last, sound) {
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
  const my = m.view.viewer ?? null;
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
      sound("play");
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
      sound("draw");
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
