// Who's Who (docs/whoswho.md): both games of the pack, the table's module (docs/architecture.md,
// "A game in the browser"). mount() lays out the pieces — the table (board.js), the hand (hand.js),
// the prompts (prompt.js) and the record of what happened (log.js) — for the game at the table:
//  - whoswho-tricks (Game No. 1): name the Preference suit with four big suit buttons, then play
//    cards by clicking them; the current trick is laid out around the table, the last trick stays
//    in view until the next is led, and each seat shows its tricks this deal and its points.
//  - whoswho-books (Game No. 2): ask for a card with a small picker (player, then number, then
//    suit — each suit button also says its colour, "Four, yellow"), say "Thank you" with a button
//    when a card was given, the books laid down per player, and the public memory of the table
//    (who is known to hold what, from view.known / view.holders) beside the call history.
// Every choice comes from msg.moves (the legal moves with their fields: kind, suit, card, target,
// number), and what just happened from msg.events (typed events: a card played to the trick, a
// trick taken, a card passed between hands, a book laid down); the module never decides what is
// legal and never reads move or event text.

import {h, fill} from "/static/js/dom.js";
import {COLOUR, SUITS, WORDS, cap, character, emblemIcon, parse} from "./cards.js";
import {pendingBox, playersPanel, tableKey, tableSvg, tricksInfo} from "./board.js";
import {booksHand, tricksHand} from "./hand.js";
import {animateEvents, dealSummary, historyPanel, news} from "./log.js";
import {picker, preferPanel} from "./prompt.js";

export function mount(el, ctx) {
  const books = ctx.game === "whoswho-books";
  const root = h("div", {class: "ww " + (books ? "ww-books" : "ww-tricks")});
  fill(el, root);
  let last = null;               // the last view message, to redraw after a picker click
  const pick = {target: null, number: null}; // the picker's half-made call (Game No. 2)
  let fresh = null;              // what the newest events changed, lit once when drawn
  const open = {history: true, deals: false}; // the reader's folding of the panels
  const folding = (key, attrs, ...kids) => {
    const d = h("details", {...attrs, open: open[key]}, ...kids);
    d.addEventListener("toggle", () => { open[key] = d.open; });
    return d;
  };

  const me = (m) => (m.view.viewer ?? null);
  const name = (p) => ctx.name(p);
  const send = (move) => {
    if (last && last.legal.includes(move)) ctx.send(move);
  };
  const why = (move) => ctx.why(move);

  const moves = (m) => m.moves || [];
  const ofKind = (m, kind) => moves(m).filter((x) => x.kind === kind);

  let overWords = ""; // the game-over event in words, as the log gave it
  function update(m) {
    if (m.events_from === 0 || m.game_number !== last?.game_number) overWords = "";
    (m.events || []).forEach((e, i) => { if (e.kind === "game_over") overWords = m.log?.[i] || ""; });
    last = m;
    fresh = news(m, name, ctx.announce);
    keepFocus(() => { if (books) drawBooks(m); else drawTricks(m); });
    fresh = null;
  }

  /** Redraw without losing the keyboard's place: focus the same choice (or `next`) afterwards. */
  function keepFocus(draw, next = null) {
    const a = document.activeElement;
    const keys = ["move", "target", "number", "card"];
    const was = a && root.contains(a) ? keys.find((k) => a.dataset?.[k] !== undefined) : null;
    const value = was ? a.dataset[was] : null;
    draw();
    const attr = (k) => "data-" + k;
    const again = next ? root.querySelector(next)
      : was ? [...root.querySelectorAll(`[${attr(was)}]`)].find((x) => x.dataset[was] === value) : null;
    if (again && !again.disabled) again.focus();
  }

  // --- Game No. 1: tricks ---------------------------------------------------------------------

  function drawTricks(m) {
    const v = m.view;
    const plays = new Map(ofKind(m, "play").map((x) => [x.card, x.text]));
    const prefer = ofKind(m, "prefer");
    const parts = tricksInfo(v, name);
    if (prefer.length) parts.push(preferPanel(v, prefer, send));
    const main = h("div", {class: "ww-main"}, h("div", {class: "ww-table-box"}, tableSvg(v, fresh, name), tableKey(v)));
    parts.push(main);
    if (me(m) !== null) main.append(tricksHand({view: v, plays, prefer: prefer.length > 0, send, why}));
    if (v.deal_log?.length) parts.push(dealSummary(v, name, folding));
    fill(root, parts);
  }

  // --- Game No. 2: books ----------------------------------------------------------------------

  function drawBooks(m) {
    const v = m.view;
    const my = me(m);
    const asks = ofKind(m, "ask");
    const thank = ofKind(m, "thank")[0];
    const parts = [h("div", {class: "ww-info"},
      h("span", {}, `Books made: ${v.book_counts.reduce((a, b) => a + b, 0)} of 13`),
      h("span", {}, `Dealer: ${name(v.dealer)}`))];
    parts.push(playersPanel(v, my, fresh, name));
    if (v.pending) parts.push(pendingBox(v, my, thank, asks, name, send));
    // the hand first, then the picker that grows under it (a phone shows the hand at once)
    const redraw = (next) => { if (last) keepFocus(() => drawBooks(last), next); };
    if (my !== null) {
      parts.push(booksHand({view: v, my, asks, lit: fresh, why,
        askNumber: (n) => { pick.number = n; redraw(pick.target !== null ? ".ww-pick-suit" : ".ww-pick-target"); }}));
    }
    if (asks.length) parts.push(picker(v, asks, !!(v.pending && thank !== undefined), {pick, name, send, redraw}));
    else { pick.target = null; pick.number = null; }
    parts.push(historyPanel(v, name, folding));
    fill(root, parts);
  }

  function hint(move) {
    for (const x of root.querySelectorAll(".hinted")) x.classList.remove("hinted");
    const call = last ? moves(last).find((x) => x.text === move) : undefined;
    if (books && call?.kind === "ask") {
      pick.target = call.target;
      pick.number = call.number;
      drawBooks(last);
    }
    const target = [...root.querySelectorAll("[data-move]")].find((x) => x.dataset.move === move);
    if (target) { target.classList.add("hinted"); target.focus?.(); }
  }

  /** A legal move in words ("Ask Bob for the Four, yellow"). */
  function words(f) {
    if (f.kind === "prefer") return `Name ${cap(f.suit)} (${COLOUR[f.suit]}) the Preference suit`;
    if (f.kind === "play") return `Play the ${f.card} (${character(parse(f.card))})`;
    if (f.kind === "ask") return `Ask ${name(f.target)} for the ${WORDS[f.number]}, ${COLOUR[f.suit]} (${f.card})`;
    if (f.kind === "thank") return "Say “Thank you”";
    return f.text;
  }

  return {
    update,
    hint,
    animate: (m, motion) => animateEvents(root, m, motion, last, ctx.sound),
    words,
    ownsPlayers: true,
    resultWords: () => overWords,
    pointsLabel: () => (books ? "Books" : "Points"),
  };
}

/** How to play either game of Who's Who under rules `r`, in plain words, with the suits drawn:
 * the first thing the rules page says. */
export function howToPlay(r, game) {
  const suits = h("ul", {class: "how-suits"}, SUITS.map((s) => h("li", {}, emblemIcon(s, 22), ` ${cap(s)} (${COLOUR[s]})`)));
  const books = game === "whoswho-books";
  const steps = books ? [
    "All the cards are dealt. Four cards of one number make a book, laid down at once.",
    "On your call, ask another player for a card of a number you hold: “Bob, the Seven of Money, please”.",
    r.thank_you === false ? "If they hold it, they give it to you." :
      "If they hold it, they give it to you, and you say “Thank you” before calling again — forget, and the card goes back and the call passes to them.",
    r.success_keeps_turn === false ? "After a card is given the call passes to the left; a refused call passes to the player called on." :
      "A card given lets you call again; a refused call passes to the player called on.",
    "When every book is down, the most books wins." + (r.success_keeps_turn === false && r.given_back_ends
      ? ` (Here a card given ${r.given_back_ends} times with no book made ends the game, the books as they stand.)` : ""),
  ] : [
    `Each player is dealt ${r.hand_size ?? 5} cards; the rest are laid aside unseen. The player on the dealer's left looks at their hand and names a suit the Preference (trumps) until the next deal.`,
    "That player leads a card; each in turn plays one" + (r.must_follow === false ? "." : ", following the suit led if they can."),
    "The highest Preference card played wins the trick; with none, the highest card of the suit led. The winner leads the next.",
    "Each trick won is a point" + (r.partnerships ? " (partners sitting opposite count together)" : "") +
      ". The deal passes to the left; after every deal is played the most points wins.",
  ];
  return h("div", {class: "ww-how"}, h("ol", {class: "how-steps"}, steps.map((x) => h("li", {}, x))),
    h("h3", {}, "The suits"), suits, h("p", {}, "Each suit has the numbers 3 to 15, every card a character of its own."));
}
