// Motion that explains: a small toolkit the game modules use to show each event move from where
// it happens to where it goes (a card from a hand to the pile, a pawn step by step along a track).
//
// The table plays view messages one at a time: it hands each message to the game module's
// `animate(msg, motion)` (the board still shows the state before it), waits for the promise, then
// draws the message's view. So several bot moves play one after another, and the board always ends
// in the state the latest view describes. The pace follows the table's bot speed and quickens when
// messages queue up; with `prefers-reduced-motion` (or a hidden tab) nothing moves at all.

// What a person may have to tap: a caption is never put over one of these.
const TAPPABLE = "#app [data-move], #app .clickable, #app button:not([disabled]), #app a[href], #app input, #app select, #app summary";
const MARGIN = 8; // px a caption keeps from the edges of the screen

const reducedQuery = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;

export const motion = {
  /** Milliseconds for one step of an event at the table's pace (set by the table). */
  base: 420,
  /** View messages waiting behind the one being played (set by the table). */
  backlog: 0,
  /** Animations played so far (for the tests and the curious). */
  played: 0,
  /** Whether an animation is running now. */
  busy: false,

  /** Whether to skip motion: the person asked for less, or nobody is looking. */
  reduced() {
    return !!(reducedQuery && reducedQuery.matches) || document.hidden;
  },

  /** Milliseconds for `k` steps now: quicker when messages are waiting behind this one. */
  ms(k = 1) {
    const hurry = 1 + Math.min(this.backlog, 6) * 0.6;
    return Math.max(60, Math.round((this.base * k) / hurry));
  },

  wait(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  },

  /** The layer over the page that flying things are drawn in. */
  layer() {
    let el = document.getElementById("motion-layer");
    if (!el) {
      el = document.createElement("div");
      el.id = "motion-layer";
      el.setAttribute("aria-hidden", "true");
      document.body.append(el);
    }
    return el;
  },

  /** Fly `node` (an element to show, e.g. a card's SVG) from one place to another: `from` and `to`
   * are elements or DOMRects; the node takes `to`'s size and is scaled from `from`'s. Resolves when
   * it has landed (and the node is gone). */
  async fly(node, from, to, {ms = this.ms(), keep = false} = {}) {
    const a = rectOf(from), b = rectOf(to);
    if (!a || !b) return;
    const box = document.createElement("div");
    box.className = "flying" + (keep ? " kept" : "");
    Object.assign(box.style, {left: `${b.left}px`, top: `${b.top}px`, width: `${b.width}px`, height: `${b.height}px`});
    box.append(node);
    this.layer().append(box);
    const sx = a.width / b.width || 1, sy = a.height / b.height || 1;
    const dx = a.left + a.width / 2 - (b.left + b.width / 2), dy = a.top + a.height / 2 - (b.top + b.height / 2);
    await this.run(box.animate([
      {transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})`, opacity: 0.9},
      {transform: "translate(0, 0) scale(1, 1)", opacity: 1},
    ], {duration: ms, easing: "cubic-bezier(.2,.7,.3,1)"}));
    if (!keep) box.remove(); // a kept one lies where it landed until the view is drawn
  },

  /** Move an SVG element through points [[x, y], …] of its own user space, a step per point;
   * `origin` is where the element is drawn (default: the first point). It stays where it lands
   * until the next view is drawn. */
  async glide(el, points, {origin = points[0], ms} = {}) {
    if (!el || points.length < 2) return;
    const steps = points.length - 1;
    const time = ms ?? this.ms(steps > 1 ? Math.min(3, 0.3 * steps + 0.4) : 1);
    const [x0, y0] = origin;
    const frames = points.map(([x, y]) => ({transform: `translate(${x - x0}px, ${y - y0}px)`}));
    await this.run(el.animate(frames, {duration: Math.max(time, 80), easing: "linear", fill: "forwards"}));
  },

  /** A short caption over `host` (the event in words), for as long as the event plays: one at a
   * time (a new one replaces the last), inside the viewport, and never over something to tap (a
   * card, the market, a button): it takes the first free place from the top of `host` down, else
   * the free edge of the screen, else it is not shown. */
  caption(host, text, ms = this.ms(1.6)) {
    if (!host || !text) return;
    const layer = this.layer();
    for (const old of layer.querySelectorAll(".motion-caption")) old.remove();
    const el = document.createElement("div");
    el.className = "motion-caption";
    el.textContent = text; // text, never markup
    layer.append(el);
    const vw = document.documentElement.clientWidth, vh = window.innerHeight;
    const w = el.offsetWidth, hh = el.offsetHeight;
    const r = host.getBoundingClientRect();
    const left = Math.max(MARGIN, Math.min(vw - MARGIN - w, r.left + r.width / 2 - w / 2));
    const avoid = tappable();
    const overlap = (top) => covered(avoid, {left, top, right: left + w, bottom: top + hh});
    const lowest = vh - MARGIN - hh;
    const tops = [];
    for (let y = Math.max(MARGIN, r.top + MARGIN); y <= Math.min(lowest, r.bottom - hh); y += 10) tops.push(y);
    tops.push(MARGIN, lowest);
    let best = tops[0], least = Infinity;
    for (const y of tops) {
      const o = overlap(y);
      if (o < least) { best = y; least = o; }
      if (o === 0) break;
    }
    // nowhere free: no caption (the log and the since line say the same). An animation that
    // outlived its wait (a loaded device) ends after its view is drawn, when your turn may have
    // made the whole board tappable
    if (least > 0) { el.remove(); return; }
    el.style.left = `${left}px`;
    el.style.top = `${best}px`;
    guard(el);
    setTimeout(() => el.remove(), ms);
  },

  /** Light an element up for a moment (a pile, a seat). */
  async pulse(el, ms = this.ms()) {
    if (!el || !el.animate) return;
    await this.run(el.animate([{filter: "none"}, {filter: "drop-shadow(0 0 10px #ffd400)"}, {filter: "none"}],
      {duration: ms}));
  },

  async run(animation) {
    this.busy = true;
    this.played += 1;
    try { await animation.finished; } catch { /* cancelled: the view is drawn anyway */ }
    finally { this.busy = false; }
  },

  /** Remove what landed and was kept (called once the view that holds it is drawn), and a
   * caption that the view drawn put something to tap under (your cards, when your turn begins). */
  settle() {
    for (const el of document.querySelectorAll("#motion-layer .kept")) el.remove();
    const avoid = tappable();
    for (const el of document.querySelectorAll("#motion-layer .motion-caption")) {
      if (covered(avoid, el.getBoundingClientRect()) > 0) el.remove();
    }
  },

  /** Remove whatever is still flying (a new game, a whole view). */
  clear() {
    const el = document.getElementById("motion-layer");
    if (el) el.replaceChildren();
  },
};

/** Keep a caption off what can be tapped while it shows: the page may change under it after it
 * was placed (your turn drawn while an animation that outlived its wait still plays, a pawn's
 * START lit, a line of the log pushing the board down). A change to the page is seen before the
 * next frame is drawn (a MutationObserver's callback runs first); a move without one (a
 * transition) at the next frame. */
function guard(el) {
  const app = document.getElementById("app");
  if (!app || typeof MutationObserver !== "function") return;
  const check = () => {
    if (!el.isConnected) { watcher.disconnect(); return false; }
    if (covered(tappable(), el.getBoundingClientRect()) > 0) {
      el.remove();
      watcher.disconnect();
      return false;
    }
    return true;
  };
  const watcher = new MutationObserver(check);
  watcher.observe(app, {subtree: true, childList: true, attributes: true, characterData: true});
  const frame = () => { if (check()) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
}

/** The boxes of what can be tapped on screen now. */
function tappable() {
  const vh = window.innerHeight;
  return [...document.querySelectorAll(TAPPABLE)].map((x) => x.getBoundingClientRect())
    .filter((b) => b.width && b.height && b.bottom > 0 && b.top < vh);
}

/** How much of the boxes `avoid` the box `r` lies over (square px). */
function covered(avoid, r) {
  return avoid.reduce((sum, b) => sum + Math.max(0, Math.min(r.right, b.right) - Math.max(r.left, b.left)) *
    Math.max(0, Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top)), 0);
}

function rectOf(x) {
  if (!x) return null;
  if (typeof x.getBoundingClientRect === "function") {
    const r = x.getBoundingClientRect();
    return r.width || r.height ? r : null;
  }
  return x;
}
