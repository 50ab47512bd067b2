// A short interactive tutorial, /learn/GAME: the game's own module draws real positions from its
// folder's tutorial.json (made from the engine by tools/make_tutorials.py); each step says what to
// do, waits for that move, then plays it and the answers with the same animations as a table.
import { api } from "./api.js";
import { h, fill, announce, toast } from "./dom.js";
import { motion } from "./motion.js";
import { sound } from "./sound.js";

export async function learnPage(root, name) {
  let games, tut;
  try {
    games = await api("/api/games");
  } catch (e) {
    fill(root, h("div", {class: "card"}, h("h1", {}, "Learn"), h("p", {class: "problem"}, "The server did not answer: " + e.message)));
    return;
  }
  const g = games.find((x) => x.name === name);
  if (!g || !g.web?.tutorial) {
    fill(root, h("div", {class: "card"}, h("h1", {}, "No tutorial"), h("p", {}, `There is no tutorial for “${name}” yet.`),
      h("p", {}, h("a", {href: "/"}, "Back to the lobby"))));
    return;
  }
  try { tut = await (await fetch(g.web.tutorial)).json(); } catch (e) {
    fill(root, h("p", {class: "problem"}, "The tutorial could not be loaded: " + e.message));
    return;
  }
  document.title = `${tut.title} · parlour`;
  if (g.web.stylesheet) {
    // drawn once the game's styles are in: the board does not jump under a finger about to tap
    const css = h("link", {rel: "stylesheet", href: g.web.stylesheet});
    await new Promise((done) => { css.addEventListener("load", done); css.addEventListener("error", done); document.head.append(css); });
  }
  const rules = g.preset_rules[tut.rules] || {};
  const info = {game: g.name, title: g.title, rules, preset: tut.rules, players: tut.players, bot_delay: 0.6,
    seats: tut.names.map((n, i) => ({seat: i, name: n, bot: i ? "tutor" : null, filled: true, connected: true}))};

  const progress = h("p", {class: "learn-progress", id: "learn-progress"});
  const say = h("p", {class: "learn-say", id: "learn-say", "aria-live": "polite"});
  const note = h("p", {class: "learn-note", id: "learn-note", "aria-live": "assertive", hidden: true});
  const next = h("button", {type: "button", class: "primary", id: "learn-next", hidden: true}, "Next");
  const board = h("section", {class: "board", id: "board", "aria-label": "The game"});
  // the step's words right above the board, and nothing between them: on a phone what to do and
  // the card to tap are both in view (the introduction and the links come after the board)
  const box = h("div", {class: "learn-box card", id: "learn-box"}, progress, say, note, h("div", {class: "actions learn-actions"}, next));
  fill(root, h("article", {class: "learn-page"},
    h("h1", {class: "learn-title"}, tut.title),
    box,
    board,
    h("p", {class: "muted learn-intro"}, tut.intro),
    h("p", {class: "small"}, h("a", {href: "/"}, "← Lobby"), " · ", h("a", {href: `/rules/${g.name}?preset=${tut.rules}`}, "The rules"))));

  let step = 0, busy = false, done = false;
  let renderer;
  const ctx = {
    game: g.name,
    table: () => info,
    seat: () => 0,
    name: (p) => (p === 0 ? `${tut.names[0]} (you)` : tut.names[p] || `Player ${p + 1}`),
    send: (text) => tried(text),
    announce,
    sound: (n) => sound.play(n),
    motion,
    why: (text) => explain(text),
    toast: (text) => toast(text, "info"),
  };
  const mod = await import(g.web.module);
  renderer = mod.mount(board, ctx);

  function show(k) {
    step = k; done = false;
    const st = tut.steps[k];
    progress.textContent = `Step ${k + 1} of ${tut.steps.length}`;
    say.textContent = st.say;
    note.hidden = true;
    next.hidden = true;
    renderer.update(structuredClone(st.before));
    announce(st.say);
    // the next step starts where this one's words are read: the page is not left scrolled away
    if (k > 0) box.scrollIntoView({block: "start"});
  }

  async function tried(text) {
    if (busy || done) return;
    const st = tut.steps[step];
    if (text !== st.expect) {
      note.textContent = "Not quite: " + st.wrong;
      note.hidden = false;
      return;
    }
    busy = true;
    note.hidden = true;
    let prev = st.before;
    for (const m of st.after) {
      const msg = structuredClone(m);
      msg.view = {...prev.view, ...msg.view};
      msg.legal = []; msg.moves = []; // the step is done: nothing to play until the next one
      if (renderer.animate && !motion.reduced()) {
        try { await renderer.animate(msg, motion); } catch (err) { console.error(err); }
      }
      renderer.update(msg);
      motion.settle();
      prev = msg;
    }
    busy = false;
    done = true;
    say.textContent = st.done;
    announce(st.done);
    const last = step === tut.steps.length - 1;
    next.textContent = last ? "Play a real game" : "Next";
    next.hidden = false;
    next.focus({preventScroll: true});
    if (last) sound.play("win");
  }

  function explain(text) {
    const reason = tut.steps[step].why?.[text];
    note.textContent = reason ? `That cannot be played now: ${reason}.` : "That cannot be played now.";
    note.hidden = false;
  }

  next.addEventListener("click", () => {
    if (step === tut.steps.length - 1) { location.href = `/?game=${encodeURIComponent(g.name)}&preset=${encodeURIComponent(tut.rules)}`; return; }
    show(step + 1);
  });
  window.parlourLearn = {tutorial: tut, step: () => step, done: () => done};
  show(0);
}
