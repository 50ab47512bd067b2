// Who's Who's table. Game No. 1: the table from above with each player's card in the trick (the
// last trick stays in view until the next is led), the deal, the dealer and the Preference suit —
// said in words as the trump suit it is — and the marks on the table explained. Game No. 2: the
// players with their books and what the table knows they hold, and a card just given.
import { h, s } from "/static/js/dom.js";
import { COLOUR, TEAM_LETTERS, cap, cardFace, cardWords, chip, emblem, emblemIcon, parse, shortName, teamOf } from "./cards.js";

/** Game No. 1's line above the table: the deal, the dealer, the Preference suit (trumps), and the
 * partnerships' scores. */
export function tricksInfo(v, name) {
  const pref = v.preference;
  const info = h("div", {class: "ww-info"},
    h("span", {}, `Deal ${v.deal} of ${v.deals}`),
    h("span", {}, `Dealer: ${name(v.dealer)}`),
    pref ? h("span", {class: `ww-pref-badge ww-${pref}`, "data-preference": pref},
      emblemIcon(pref, 20), `Preference: ${cap(pref)} (${COLOUR[pref]})`)
      : h("span", {class: "ww-pref-badge none"}, v.is_over ? "Game over" : `Preference suit: ${name(v.namer)} names it`));
  const teams = v.teams && v.team_scores ? h("div", {class: "ww-teams"},
    v.teams.map((team, t) => h("span", {class: "ww-team", "data-team": t},
      h("b", {}, `[${TEAM_LETTERS[t]}] `), team.map((p) => name(p)).join(" & "), ": ", h("b", {}, String(v.team_scores[t])), " pts"))) : null;
  return [info, teams];
}

/** What the marks on the table mean, and what the Preference suit does (seed 004: the suit named
 * "outranks any of the others" until the next deal). */
export function tableKey(v) {
  const pref = v.preference;
  return h("p", {class: "ww-key small", "data-key": "table"},
    h("span", {}, "▶ to play"), " · ", h("span", {}, "◆ led this trick"), " · ",
    pref ? h("span", {class: "ww-pref-words"}, `Preference (trumps): ${cap(pref)} — the highest ${cap(pref)} card played ` +
      "wins the trick; with none, the highest card of the suit led")
      : h("span", {class: "ww-pref-words"}, "Preference (trumps): the suit named for this deal beats the other suits"));
}

/** The table from above: each player's place around it, their card in the current trick. */
export function tableSvg(v, lit, name) {
  const n = v.players;
  const mine = v.viewer ?? 0;
  const big = n > 4;
  const W = 400, H = big ? 420 : 360, cx = W / 2, cy = big ? 195 : 170;
  const svg = s("svg", {viewBox: `0 0 ${W} ${H}`, class: "ww-table", role: "img",
    "aria-label": trickWords(v, name)});
  svg.append(s("ellipse", {cx, cy, rx: 196, ry: H / 2 - 12, class: "ww-felt"}));
  if (v.preference) {
    svg.append(s("g", {class: "ww-watermark", opacity: 0.3}, emblem(v.preference, cx, cy - 8, 28),
      s("title", {}, `Preference suit: ${v.preference}`)));
  }
  // the current trick, or (between tricks) the last one, faded, with its winner
  let cards = v.trick, done = null;
  if (!cards.length && v.tricks.length && v.phase === "play") {
    done = v.tricks[v.tricks.length - 1];
    cards = done.cards;
  }
  const played = new Map(cards.map(([p, c]) => [p, c]));
  const leader = cards.length ? cards[0][0] : v.leader;
  const rx = big ? 150 : 135, ry = big ? 125 : 100;
  for (let p = 0; p < n; p++) {
    const a = Math.PI / 2 + ((p - mine + n) % n) * 2 * Math.PI / n;
    const x = cx + rx * Math.cos(a), y = cy + ry * Math.sin(a);
    const g = s("g", {class: "ww-seat" + (v.to_play === p && !v.is_over ? " to-play" : "") +
      (done && done.winner === p ? " winner" : "") + (done && lit?.took === p ? " ww-took" : ""),
    "data-player": p});
    const cw = big ? 50 : 62, ch = cw * 1.5;
    const card = played.get(p);
    if (card) {
      g.append(cardFace(card, {x: x - cw / 2, y: y - ch / 2 - 8, width: cw, height: ch,
        class: `ww-card ww-${parse(card).suit}` + (done ? " ww-done" : "") +
          (!done && lit?.played.has(card) ? " ww-fresh" : ""), "data-trick-card": card}));
    } else {
      g.append(s("rect", {x: x - cw / 2, y: y - ch / 2 - 8, width: cw, height: ch, rx: 5, class: "ww-slot"}));
    }
    const team = teamOf(v, p);
    const label = (team ? `[${team}] ` : "") + shortName(name(p));
    g.append(s("rect", {x: x - 52, y: y + ch / 2 - 6, width: 104, height: 30, rx: 6, class: "ww-plate"}),
      s("text", {x, y: y + ch / 2 + 6, class: "ww-plate-name"}, (v.to_play === p && !v.is_over ? "▶ " : "") +
        (p === leader && cards.length ? "◆ " : "") + label),
      s("text", {x, y: y + ch / 2 + 19, class: "ww-plate-score", "data-won": v.won[p], "data-score": v.scores[p]},
        `${v.won[p]} trick${v.won[p] === 1 ? "" : "s"} · ${v.scores[p]} pt${v.scores[p] === 1 ? "" : "s"}`));
    svg.append(g);
  }
  if (done) {
    svg.append(s("text", {x: cx, y: cy + 38, class: "ww-centre-label ww-won-by"}, `${shortName(name(done.winner))} won the trick`));
  }
  return h("div", {class: "ww-table-wrap", "data-trick-size": v.trick.length, "data-tricks-done": v.tricks.length}, svg);
}

function trickWords(v, name) {
  const bits = [];
  if (v.preference) bits.push(`Preference suit ${v.preference}.`);
  if (v.trick.length) bits.push("On the table: " + v.trick.map(([p, c]) => `${name(p)} ${cardWords(c)}`).join("; ") + ".");
  else if (v.tricks.length) {
    const t = v.tricks[v.tricks.length - 1];
    bits.push(`Last trick won by ${name(t.winner)}: ` + t.cards.map(([p, c]) => `${name(p)} ${c}`).join(", ") + ".");
  }
  bits.push("Tricks this deal and points: " + v.won.map((w, p) => `${name(p)} ${w} tricks, ${v.scores[p]} points`).join("; ") + ".");
  return bits.join(" ");
}

/** A card just given (Game No. 2): to whom, and the "Thank you" owed for it. `thank` is the legal
 * thank-you move (or undefined), `asks` the legal calls. */
export function pendingBox(v, my, thank, asks, name, send) {
  const pend = v.pending;
  const mineToThank = thank !== undefined && pend.caller === my;
  return h("div", {class: "ww-pending" + (mineToThank ? " mine" : ""), "aria-live": "polite"},
    cardFace(pend.card, {class: `ww-card ww-${parse(pend.card).suit} ww-pending-card`}),
    h("div", {},
      h("p", {}, mineToThank ? `${name(pend.giver)} gave you ${cardWords(pend.card)}.`
        : `${name(pend.giver)} gave ${pend.card} to ${name(pend.caller)}, who owes a "Thank you".`),
      mineToThank ? h("button", {type: "button", class: "ww-thank primary", "data-move": thank.text, onclick: () => send(thank.text)},
        "Thank you!") : null,
      mineToThank && asks.length ? h("p", {class: "ww-warn small"},
        "Say it before your next call — forget, and the card goes back and the call passes.") : null));
}

export function playersPanel(v, my, lit, name) {
  return h("ul", {class: "ww-players", "aria-label": "Books and what the table knows"},
    Array.from({length: v.players}, (_, p) => {
      const known = v.known[p] || [];
      return h("li", {class: "ww-pl" + (p === my ? " me" : "") + (v.to_play === p && !v.is_over ? " to-play" : ""), "data-player": p},
        h("div", {class: "ww-pl-head"},
          h("span", {class: "ww-pl-name"}, (v.to_play === p && !v.is_over ? "▶ " : "") + `${p + 1}. ${name(p)}`),
          h("span", {class: "ww-pl-count"}, `${v.hand_counts[p]} cards`)),
        h("div", {class: "ww-books-row", "data-books": v.books[p].join(",")},
          v.books[p].length ? [...v.books[p]].sort((a, b) => a - b).map((b) =>
            h("span", {class: "ww-book" + (lit?.books.has(`${p}:${b}`) ? " ww-fresh" : ""), title: `the book of ${b}s`},
              h("span", {class: "sr-only"}, "book of "), `${b}s`))
            : h("span", {class: "muted-on-felt small"}, "no books")),
        known.length && p !== my ? h("div", {class: "ww-known"}, h("span", {class: "small"}, "holds: "), known.map((c) => chip(c))) : null);
    }));
}

