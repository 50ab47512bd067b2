// Sorry!'s events as they happen: the last turn marked faintly on the board (where each pawn came
// from and went, its slide, the pawns sent back), and each event shown moving — a pawn step by
// step along the track, its slide, a bump back to START — before the view that follows is drawn.
import { s } from "/static/js/dom.js";
import { COLOURS, INK, boardName, inStartOrHome, kindOf, place, startCentre, stepFrom } from "./geometry.js";

/** The last turn from the typed events (wire objects {kind, ...}): {colour, paths: [[from, to]],
 * slides: [[from, to]], bumps: [square]}, or null. */
export function readEvent(last, ev) {
  if (ev.kind === "play") {
    return {colour: ev.colour, paths: ev.pawns.map(([c, from, to]) => [boardName(c, from), boardName(c, to)]),
      slides: [], bumps: []};
  } else if (ev.kind === "forfeit") {
    return null;
  } else if (last && ev.kind === "slide") {
    last.slides.push([ev.source, ev.dest]);
  } else if (last && ev.kind === "bump") {
    last.bumps.push(ev.square);
  }
  return last;
}

/** The last turn, faintly: where its pawns came from, where they went, slides, pawns sent back. */
export function drawLast(last) {
  const g = s("g", {class: "last-move", "aria-hidden": "true"});
  if (!last) return g;
  const ink = INK[last.colour] || "#1d1d1f";
  for (const [from, to] of last.paths) {
    const [x1, y1] = place(from), [x2, y2] = place(to);
    g.append(s("circle", {cx: x1, cy: y1, r: inStartOrHome(from) ? 30 : 9, class: "last-from", "data-last-from": from}));
    g.append(s("circle", {cx: x2, cy: y2, r: inStartOrHome(to) ? 34 : 19, class: "last-to", stroke: ink,
      "data-last-to": to}));
  }
  for (const [from, to] of last.slides) {
    const [x1, y1] = place(from), [x2, y2] = place(to);
    g.append(s("line", {x1, y1, x2, y2, class: "last-slide", stroke: ink, "data-last-slide": `${from}-${to}`}));
    g.append(s("circle", {cx: x2, cy: y2, r: 19, class: "last-to", stroke: ink, "data-last-to": to}));
  }
  for (const sq of last.bumps) {
    const [x, y] = place(sq);
    g.append(s("text", {x, y: y + 6, class: "last-bump", "data-bumped": sq}, "×"));
  }
  return g;
}

/** The squares a pawn passes on its way: one per step of a move along the track. */
function pathOf(colour, from, to, n) {
  const ci = COLOURS.indexOf(colour);
  const k = kindOf(from);
  if (n && (k === "track" || k === "safety")) {
    const out = [];
    const dir = Math.sign(n);
    for (let j = 1; j <= Math.abs(n); j++) {
      const [sq] = stepFrom(ci, from, dir * j);
      if (sq) out.push(place(sq));
    }
    if (out.length) { out[out.length - 1] = place(to); return out; }
  }
  return [place(to)];
}

export async function animateEvents(svg, m, motion, sound) {
  const spots = new Map(); // "colour:square" -> [{node, origin, at}]
  for (const node of svg.querySelectorAll("g.pawn[data-colour]")) {
    const key = `${node.dataset.colour}:${node.dataset.at}`;
    const xy = [Number(node.dataset.x), Number(node.dataset.y)];
    if (!spots.has(key)) spots.set(key, []);
    spots.get(key).push({node, origin: xy, at: xy});
  }
  const take = (colour, sq) => spots.get(`${colour}:${sq}`)?.shift() || null;
  const put = (colour, sq, p) => {
    const key = `${colour}:${sq}`;
    if (!spots.has(key)) spots.set(key, []);
    spots.get(key).push(p);
  };
  const board = svg.parentNode;
  const events = m.events || [];
  for (let i = 0; i < events.length; i++) {
    const ev = events[i];
    const words = m.log?.[i] || "";
    if (ev.kind === "play") {
      motion.caption(board, words);
      sound("play");
      const mv = ev.move || {};
      const steps = mv.kind === "move" ? {[mv.pawn]: mv.steps}
        : mv.kind === "split" ? {[mv.pawn]: mv.steps, [mv.pawn2]: mv.steps2} : {};
      for (const [colour, from, to] of ev.pawns || []) {
        const a = boardName(colour, from), b = boardName(colour, to);
        const p = take(colour, a);
        if (!p) continue;
        const path = mv.kind === "swap" || mv.kind === "sorry" ? [place(b)] : pathOf(colour, a, b, steps[a]);
        await motion.glide(p.node, [p.at, ...path], {origin: p.origin});
        p.at = path[path.length - 1];
        put(colour, b, p);
      }
    } else if (ev.kind === "slide") {
      const p = take(ev.colour, ev.source);
      if (p) {
        const to = place(ev.dest);
        await motion.glide(p.node, [p.at, to], {origin: p.origin, ms: motion.ms(0.8)});
        p.at = to;
        put(ev.colour, ev.dest, p);
      }
    } else if (ev.kind === "bump") {
      motion.caption(board, words);
      const p = take(ev.colour, ev.square);
      if (p) {
        const home = startCentre(COLOURS.indexOf(ev.colour));
        await motion.glide(p.node, [p.at, home], {origin: p.origin, ms: motion.ms(1)});
        p.at = home;
      }
    } else if (ev.kind === "draw") {
      sound("draw");
    } else if (words && ev.kind !== "reshuffle") {
      motion.caption(board, words);
      await motion.wait(motion.ms(1.2));
    }
  }
}
