// Game review: a finished game stepped through with the game's own module (the table drawn as it
// was, from any seat's view or with every hand open), the seat's decisions analysed on the server
// with their estimates, a chart and marks, and the puzzles found in them. Pages: /review (open a
// record file, or pick a finished game) and /review/GAME_ID. Its data: docs/protocol.md, "Game review".
import { api, myTables } from "./api.js";
import { h, s, fill, toast, announce } from "./dom.js";

const MARK_SIGN = {inaccuracy: "?!", mistake: "?", blunder: "??"};
const MARK_WORDS = {inaccuracy: "inaccuracy", mistake: "mistake", blunder: "blunder"};
const AUTOPLAY_MS = 900;

let cssAdded = false;
export function reviewStyles() {
  if (cssAdded) return;
  cssAdded = true;
  document.head.append(h("link", {rel: "stylesheet", href: "/static/css/review.css"}));
}

const pct = (x) => `${Math.round(x * 100)}%`;
const points = (x) => { const n = Math.round(x * 100); return `${n} point${n === 1 ? "" : "s"}`; };

// --- the pages ---------------------------------------------------------------------------------

/** /review/GAME_ID: a stored finished game. */
export async function reviewGame(root, gameId) {
  reviewStyles();
  const load = (viewer) => api(`/api/review/games/${gameId}` + (viewer === null ? "" : `?seat=${viewer}`));
  let data;
  try {
    data = await load(initialViewer());
  } catch (e) {
    fill(root, h("div", {class: "card"}, h("h2", {}, "This game cannot be reviewed"),
      h("p", {id: "review-problem"}, e.message), h("p", {}, h("a", {href: "/review"}, "Review another game"))));
    return;
  }
  const page = new ReviewPage(root, data, {load, analyse: (seat) => ({game_id: Number(gameId), seat})});
  await page.start();
  window.parlourReview = page; // for the browser tests and the curious
}

/** The viewer the address asks for (?seat=N or ?seat=open), else every hand open. */
function initialViewer() {
  const q = new URLSearchParams(location.search).get("seat");
  if (q === null) return "open";
  return q === "spectator" ? null : q;
}

/** /review: open a record file, or one of this browser's finished games (or a table's). */
export async function reviewHome(root) {
  reviewStyles();
  document.title = "Review a game · parlour";
  const file = h("input", {type: "file", id: "record-file", accept: ".json,application/json", "aria-label": "A record file"});
  const gameSel = h("select", {id: "record-game", hidden: true, "aria-label": "Which game of the file"});
  const openBtn = h("button", {type: "button", id: "open-record", class: "primary", disabled: true}, "Review it");
  const problem = h("p", {class: "problem", id: "upload-problem", role: "alert"});
  const puzzleFile = h("input", {type: "file", id: "puzzle-file", accept: ".json,application/json", "aria-label": "A puzzle file"});
  const list = h("ul", {class: "tables", id: "finished"});
  const host = h("div", {id: "review-host"});
  const table = new URLSearchParams(location.search).get("table");
  let text = null;

  file.addEventListener("change", async () => {
    problem.textContent = "";
    const f = file.files[0];
    if (!f) return;
    text = await f.text();
    let parsed = null;
    try { parsed = JSON.parse(text); } catch { parsed = null; }
    const games = parsed && Array.isArray(parsed.games) ? parsed.games : null;
    fill(gameSel, (games || [null]).map((g, i) => h("option", {value: i + 1},
      g ? `Game ${i + 1}: ${g.game || "?"}, ${g.moves?.length ?? 0} moves` : "the game")));
    gameSel.hidden = !games || games.length < 2;
    openBtn.disabled = false;
  });
  openBtn.addEventListener("click", async () => {
    if (text === null) return;
    const number = gameSel.value || 1;
    const load = async (viewer) => {
      const q = new URLSearchParams({game: number});
      if (viewer !== null) q.set("seat", viewer);
      const r = await fetch(`/api/review/records?${q}`, {method: "POST", headers: {"content-type": "application/json"}, body: text});
      const d = await r.json().catch(() => null);
      if (!r.ok) throw new Error(d?.message || r.statusText);
      return d;
    };
    try {
      let data;
      try { data = await load("open"); } catch (e) {
        if (!/finished/.test(e.message)) throw e;
        data = await load(null); // an unfinished record: a seat's view or the spectator's only
      }
      const page = new ReviewPage(host, data, {load, analyse: (seat) => ({record: data.record, seat})});
      await page.start();
      window.parlourReview = page;
      host.scrollIntoView({block: "start"});
    } catch (e) {
      problem.textContent = "This file cannot be reviewed: " + e.message;
    }
  });
  puzzleFile.addEventListener("change", async () => {
    problem.textContent = "";
    const f = puzzleFile.files[0];
    if (!f) return;
    try {
      const made = await api("/api/puzzles", JSON.parse(await f.text()));
      location.href = made.link;
    } catch (e) { problem.textContent = "This puzzle cannot be opened: " + e.message; }
  });

  fill(root, h("div", {class: "review-home"},
    h("section", {class: "card"},
      h("h1", {}, "Review a game"),
      h("p", {class: "muted"}, "Step through a finished game move by move, from any player's view or with every hand open, and let the bot judge a player's decisions."),
      h("div", {class: "row"}, h("label", {for: "record-file"}, "A record file"), file, gameSel, openBtn),
      h("p", {class: "small muted"}, "From “Download the records” at a table, a game's “record” link, or parlour play --record."),
      h("div", {class: "row"}, h("label", {for: "puzzle-file"}, "A puzzle file"), puzzleFile),
      problem),
    h("section", {class: "card"}, h("h2", {}, table ? `Finished games at table ${table}` : "Your finished games"), list),
    host));
  listGames(list, table);
}

async function listGames(ul, table) {
  const mine = myTables();
  let rows = [];
  try {
    const q = table ? `&table=${encodeURIComponent(table)}` : "";
    rows = (await api(`/api/history?limit=200${q}`)).games;
  } catch { rows = []; }
  if (!table) rows = rows.filter((g) => mine[g.table]);
  if (!rows.length) { fill(ul, h("li", {class: "muted"}, "None yet.")); return; }
  fill(ul, rows.slice(0, 50).map((g) => h("li", {},
    h("a", {href: `/review/${g.id}`, class: "review-link"}, `${g.game} · ${g.table} #${g.number + 1}`),
    " ", h("span", {class: "muted small"}, g.players.filter(Boolean).join(", ")))));
}

// --- one game under review ---------------------------------------------------------------------

class ReviewPage {
  constructor(root, data, source) {
    this.root = root;
    this.source = source; // {load(viewer) → data, analyse(seat) → request body}
    this.i = 0;
    this.timer = 0;
    this.renderer = null;
    this.analysis = null;
    this.polling = 0;
    this.setData(data);
    this.build();
  }

  setData(data) {
    this.data = data;
    this.n = data.steps.length - 1;
    // every step's whole view, and where its events start in the game's list of them
    this.views = [];
    this.events = [];
    this.logs = [];
    this.starts = [];
    let view = {};
    for (const st of data.steps) {
      view = {...view, ...st.view};
      for (const k of st.removed || []) delete view[k];
      this.views.push(view);
      this.starts.push(this.events.length);
      this.events.push(...st.events);
      this.logs.push(...st.log);
    }
    this.logStarts = [];
    let k = 0;
    for (const st of data.steps) { this.logStarts.push(k); k += st.log.length; }
  }

  get viewer() { return this.data.viewer; }
  /** The seat whose view the module draws (null: the spectator's, also when every hand is open). */
  get seat() { return typeof this.viewer === "number" ? this.viewer : null; }

  build() {
    const d = this.data;
    document.title = `Review · ${d.title} · parlour`;
    const e = this.el = {
      title: h("h1", {}, `Review: ${d.title}`),
      sub: h("p", {class: "muted small", id: "review-sub"}),
      viewer: h("select", {id: "viewer", "aria-label": "Whose view"}),
      board: h("section", {class: "board", id: "board", "aria-label": "The game as it was"}),
      hands: h("div", {class: "open-hands", id: "open-hands", hidden: true, "aria-label": "Every hand"}),
      first: h("button", {type: "button", id: "first", title: "The start (Home)", "aria-label": "The start"}, "|◀"),
      back: h("button", {type: "button", id: "back", title: "One move back (←)", "aria-label": "One move back"}, "◀"),
      play: h("button", {type: "button", id: "autoplay", title: "Play the moves one after another (space)", "aria-label": "Autoplay"}, "▶ Play"),
      fwd: h("button", {type: "button", id: "forward", title: "One move on (→)", "aria-label": "One move on"}, "▶"),
      last: h("button", {type: "button", id: "last", title: "The end (End)", "aria-label": "The end"}, "▶|"),
      slider: h("input", {type: "range", id: "step", min: 0, max: this.n, value: 0, "aria-label": "Move"}),
      where: h("p", {class: "where", id: "where", "aria-live": "polite"}),
      told: h("ul", {class: "told small", id: "told"}),
      moves: h("ol", {class: "review-moves", id: "moves", start: 1, "aria-label": "Moves"}),
      log: h("ol", {class: "log", id: "log", tabindex: 0, "aria-label": "What happened so far"}),
      result: h("p", {class: "review-result", id: "review-result"}),
      analysis: h("section", {class: "card analysis", id: "analysis", "aria-label": "Analysis"}),
    };
    e.first.addEventListener("click", () => this.go(0));
    e.back.addEventListener("click", () => this.go(this.i - 1));
    e.fwd.addEventListener("click", () => this.go(this.i + 1));
    e.last.addEventListener("click", () => this.go(this.n));
    e.play.addEventListener("click", () => this.toggleAutoplay());
    e.slider.addEventListener("input", () => this.go(Number(e.slider.value)));
    e.viewer.addEventListener("change", () => this.changeViewer(e.viewer.value));
    if (!this.keys) {
      this.keys = (ev) => this.onKey(ev);
      document.addEventListener("keydown", this.keys);
    }
    fill(this.root, h("div", {class: "review-page"},
      h("header", {class: "table-head"}, h("div", {}, e.title, e.sub),
        h("div", {class: "head-right"}, h("label", {for: "viewer", class: "small"}, "View: "), e.viewer)),
      e.board, e.hands,
      h("div", {class: "review-controls", role: "group", "aria-label": "Step through the game"},
        e.first, e.back, e.play, e.fwd, e.last, e.slider),
      e.where, e.told, e.result,
      h("div", {class: "below"},
        h("section", {class: "card"}, h("h2", {}, "Moves"), e.moves),
        h("section", {class: "card"}, h("h2", {}, "Log"), e.log)),
      e.analysis,
      h("p", {class: "small"}, this.data.record
        ? h("a", {href: "/review"}, "Review another game")
        : [h("a", {href: `/api/history/${this.data.id}/record`, download: `parlour-${this.data.id}.json`}, "Download the record"),
          " · ", h("a", {href: "/review"}, "Review another game"), " · ", h("a", {href: "/"}, "Lobby")])));
    this.drawHead();
    this.drawMoves();
    this.drawAnalysisPanel();
  }

  drawHead() {
    const d = this.data;
    const where = d.table ? `table ${d.table}, game ${d.number + 1}` : "an uploaded record";
    this.el.sub.textContent = `${d.names.join(", ")} · ${where} · ${this.n} moves` + (d.finished ? "" : " · not finished");
    const opts = d.names.map((name, p) => h("option", {value: String(p), selected: this.viewer === p}, `${name}'s view`));
    opts.push(h("option", {value: "spectator", selected: this.viewer === null}, "A spectator's view"));
    if (d.finished) opts.push(h("option", {value: "open", selected: this.viewer === "open"}, "All hands open"));
    fill(this.el.viewer, opts);
    if (d.result) {
      const won = d.result.winners.map((p) => d.names[p]).join(" & ");
      this.el.result.textContent = `Result: ${won || "nobody"} won` + (d.result.reason ? ` — ${d.result.reason}` : "");
    }
  }

  async start() {
    const web = this.data.web;
    if (web?.stylesheet && !document.querySelector(`link[href="${web.stylesheet}"]`)) {
      document.head.append(h("link", {rel: "stylesheet", href: web.stylesheet}));
    }
    try {
      this.module = await import(web.module);
    } catch (err) {
      console.error(err);
      this.module = null;
    }
    // the shell's motion queue (js/motion.js), where the client has one: a step on is then shown
    // moving with the module's own `animate`, as at the table; without it, steps are drawn still
    try { this.motion = (await import("./motion.js")).motion; } catch { this.motion = null; }
    this.mount();
    this.go(this.i, true);
    if ((this.data.analysed || []).includes(this.analysisSeat())) this.analyse();
  }

  /** A fresh module on the board (a new viewer starts it again: its memory is of one view). */
  mount() {
    this.renderer = null;
    fill(this.el.board);
    if (!this.module) return;
    const d = this.data;
    const ctx = {
      game: d.game,
      table: () => ({game: d.game, rules: d.rules, players: d.players, seats: d.names.map((name, seat) => ({seat, name, filled: true}))}),
      seat: () => this.seat,
      name: (p) => d.names[p] ?? `Player ${p + 1}`,
      send: () => {}, // nothing is played here: the review only shows
      announce,
      sound: () => {},
      why: (text) => toast(text, "info"),
      motion: this.motion || undefined,
    };
    try { this.renderer = this.module.mount(this.el.board, ctx); } catch (err) { console.error(err); }
  }

  /** The `view` message of step i, as the table would have sent it: every event so far (from
   * 0), or only the last move's when `only` (one step on: the module shows what it did). */
  message(i, only = false) {
    const d = this.data;
    const from = only ? this.starts[i] : 0;
    const to = i < this.n ? this.starts[i + 1] : this.events.length;
    const lf = only ? this.logStarts[i] : 0;
    const lt = i < this.n ? this.logStarts[i + 1] : this.logs.length;
    const st = d.steps[i];
    const m = {
      type: "view", table: d.table ?? null, game_number: 0, ply: i, seat: this.seat,
      to_play: st.to_play, view: this.views[i], seats: d.names.map((_, p) => p),
      events_from: from, events: this.events.slice(from, to), log: this.logs.slice(lf, lt),
      legal: [], moves: [], clock: null, status: i === this.n && d.finished ? "finished" : "playing",
    };
    if (i === this.n && d.result) m.result = d.result;
    return m;
  }

  /** The message the module was last given: what the page shows (the browser tests read it). */
  current() { return this.shown; }

  async go(i, force = false) {
    i = Math.max(0, Math.min(this.n, i));
    if (i === this.i && !force) return;
    const oneOn = i === this.i + 1 && !force;
    this.i = i;
    const m = this.message(i, oneOn);
    this.shown = {...m, events: this.events.slice(0, i < this.n ? this.starts[i + 1] : this.events.length)};
    // the words, slider and buttons at once: the move is read while it moves
    this.drawStep();
    if (this.renderer) {
      try {
        // a new step ends whatever the last one left flying (keys held down step faster than
        // cards fly), so the board never shows a pile of half-moved cards
        this.motion?.clear();
        const animate = oneOn && this.renderer.animate && this.motion && m.events.length && !this.motion.reduced?.();
        if (animate) await Promise.race([this.renderer.animate(m, this.motion), new Promise((r) => setTimeout(r, 2000))]);
        if (this.i !== i) return; // stepped on meanwhile
        this.renderer.update(m);
        this.motion?.settle();
      } catch (err) { console.error(err); this.renderer = null; }
    }
    if (!this.renderer) fill(this.el.board, h("pre", {class: "raw"}, JSON.stringify(m.view, null, 1)));
  }

  drawStep() {
    const d = this.data, i = this.i, e = this.el, st = d.steps[i];
    e.slider.value = String(i);
    e.first.disabled = e.back.disabled = i === 0;
    e.fwd.disabled = e.last.disabled = i === this.n;
    if (i === 0) e.where.textContent = `The start — ${this.n} moves to go.`;
    else e.where.textContent = `Move ${i} of ${this.n}: ${this.said(i)}`;
    const dec = this.decisionAt(i - 1);
    if (dec && dec.mark) e.where.append(h("span", {class: `mark ${dec.mark}`}, ` ${MARK_SIGN[dec.mark]} ${MARK_WORDS[dec.mark]}`));
    fill(e.told, st.log.map((line) => h("li", {}, line)));
    const told = this.logs.slice(0, i < this.n ? this.logStarts[i + 1] : this.logs.length);
    const recent = told.slice(-200);
    e.log.setAttribute("start", String(told.length - recent.length + 1)); // each line keeps its number
    fill(e.log, recent.map((l) => h("li", {}, l)));
    e.log.scrollTop = e.log.scrollHeight;
    for (const li of e.moves.children) li.classList.toggle("current", Number(li.dataset.step) === i);
    const cur = e.moves.querySelector("li.current");
    if (cur && typeof cur.scrollIntoView === "function") cur.scrollIntoView({block: "nearest"});
    this.drawHands();
    this.drawChartCursor();
  }

  drawHands() {
    const hands = this.data.steps[this.i].hands;
    if (!hands) { this.el.hands.hidden = true; return; }
    fill(this.el.hands, hands.map((parts, p) => h("div", {class: "open-hand", "data-player": p},
      h("strong", {}, this.data.names[p]),
      Object.entries(parts).map(([k, v]) => h("div", {class: "small"}, h("span", {class: "muted"}, `${k}: `),
        Array.isArray(v) ? (v.length ? v.map((x) => h("span", {class: "chip"}, typeof x === "string" ? x : JSON.stringify(x))) : "none")
          : JSON.stringify(v))))));
    this.el.hands.hidden = false;
  }

  drawMoves() {
    const d = this.data;
    fill(this.el.moves, d.steps.slice(1).map((st, k) => {
      const dec = this.decisionAt(k);
      const b = h("button", {type: "button", class: "move-jump", "data-step": k + 1, "data-move": st.move},
        this.said(k + 1),
        dec?.mark ? h("span", {class: `mark ${dec.mark}`, title: MARK_WORDS[dec.mark]}, ` ${MARK_SIGN[dec.mark]}`) : null);
      b.addEventListener("click", () => { this.stopAutoplay(); this.go(k + 1); });
      return h("li", {"data-step": k + 1}, b);
    }));
  }

  onKey(ev) {
    if (!document.body.contains(this.root)) return;
    const t = ev.target;
    if (t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement ||
        (t instanceof HTMLInputElement && t.type !== "range")) return;
    if (t instanceof HTMLInputElement && t.type === "range" && ev.key !== " ") return; // its own keys
    const keys = {ArrowLeft: () => this.go(this.i - 1), ArrowRight: () => this.go(this.i + 1),
      Home: () => this.go(0), End: () => this.go(this.n), " ": () => this.toggleAutoplay()};
    const f = keys[ev.key];
    if (!f) return;
    if (t instanceof HTMLButtonElement && ev.key === " ") return; // a button's own Space
    ev.preventDefault();
    if (ev.key !== " ") this.stopAutoplay();
    f();
  }

  toggleAutoplay() { if (this.timer) this.stopAutoplay(); else this.startAutoplay(); }

  startAutoplay() {
    if (this.i >= this.n) this.go(0);
    this.el.play.textContent = "⏸ Pause";
    this.el.play.setAttribute("aria-pressed", "true");
    this.timer = setInterval(() => {
      if (this.i >= this.n) { this.stopAutoplay(); return; }
      this.go(this.i + 1);
    }, AUTOPLAY_MS);
  }

  stopAutoplay() {
    clearInterval(this.timer);
    this.timer = 0;
    this.el.play.textContent = "▶ Play";
    this.el.play.setAttribute("aria-pressed", "false");
  }

  async changeViewer(value) {
    this.stopAutoplay();
    const viewer = value === "spectator" ? null : value;
    try {
      this.setData(await this.source.load(viewer));
    } catch (e) { toast(e.message); return; }
    this.drawHead();
    this.drawMoves();
    this.mount();
    this.go(this.i, true);
    const u = new URL(location.href);
    if (u.pathname.startsWith("/review/")) { u.searchParams.set("seat", value); history.replaceState(null, "", u); }
  }

  // --- analysis --------------------------------------------------------------------------------

  analysisSeat() {
    const sel = this.el?.seatSel;
    if (sel) return Number(sel.value);
    return typeof this.viewer === "number" ? this.viewer : 0;
  }

  /** Move i (from 1) in the game's own words, as the log tells it ("Bob plays 12 triangle": the
   * first line of its step; the move's text where it has none. */
  said(i) {
    const st = this.data.steps[i];
    return st?.log?.[0] || `${this.data.names[st?.mover] ?? "?"}: ${st?.move ?? ""}`;
  }

  /** A legal move of the decision before move ply+1, in the words the game's module gives it
   * (from its fields: the step's `choices`, or the analysed seat's, fetched for the analysis). */
  choiceWords(ply, text) {
    const choices = this.data.steps[ply]?.choices || this.seatChoices?.[ply];
    const fields = choices?.find((m) => m.text === text);
    if (!fields) return null;
    try { return this.renderer?.words?.(fields) || null; } catch { return null; }
  }

  /** The analysed decision before move k+1 (0-based ply k), if the analysed seat made it. */
  decisionAt(ply) {
    return this.byPly?.get(ply) || null;
  }

  drawAnalysisPanel() {
    const d = this.data;
    const seatSel = h("select", {id: "analyse-seat", "aria-label": "Whose decisions"},
      d.names.map((name, p) => h("option", {value: p, selected: p === this.analysisSeat()}, name)));
    const go = h("button", {type: "button", id: "analyse", class: "primary"}, "Analyse");
    go.addEventListener("click", () => this.analyse());
    seatSel.addEventListener("change", () => { this.byPly = null; this.analysis = null; this.drawMoves(); this.drawStep(); fill(this.el.result2); });
    this.el.seatSel = seatSel;
    this.el.progress = h("div", {class: "progress", id: "analysis-progress", "aria-live": "polite"});
    this.el.result2 = h("div", {id: "analysis-result"});
    fill(this.el.analysis,
      h("h2", {}, "Analysis"),
      h("p", {class: "small muted"}, "For each decision of the player, the bot's estimate of the chance to win — for the move played and for the best move it found — searched from that player's view only. A drop of 10 points or more is a mistake."),
      h("div", {class: "row"}, h("label", {for: "analyse-seat"}, "Decisions of"), seatSel, go),
      this.el.progress, this.el.result2);
  }

  async analyse() {
    const seat = this.analysisSeat();
    const btn = this.el.analysis.querySelector("#analyse");
    btn.disabled = true;
    this.el.progress.replaceChildren(h("span", {}, "Asking the server…"));
    let st;
    try {
      st = await api("/api/review/analyses", this.source.analyse(seat));
    } catch (e) {
      this.el.progress.replaceChildren(h("span", {class: "problem", id: "analysis-problem"}, e.message));
      btn.disabled = false;
      return;
    }
    while (st.status === "queued" || st.status === "running") {
      this.drawProgress(st);
      await new Promise((r) => setTimeout(r, 400));
      try { st = await api(`/api/review/analyses/${st.job}`); } catch (e) { st = {status: "failed", error: e.message}; }
    }
    btn.disabled = false;
    if (st.status !== "done") {
      this.el.progress.replaceChildren(h("span", {class: "problem", id: "analysis-problem"}, st.error || `The analysis was ${st.status}.`));
      return;
    }
    this.el.progress.replaceChildren(h("span", {id: "analysis-done"}, st.cached ? "Analysed before (from the cache)." : "Analysed."));
    if (this.viewer !== "open" && this.viewer !== seat) {
      // the analysed seat's own decisions, to say its moves in words
      try {
        const theirs = await this.source.load(seat);
        this.seatChoices = theirs.steps.map((x) => x.choices || null);
      } catch { this.seatChoices = null; }
    } else this.seatChoices = null;
    this.showAnalysis(st.analysis, st.puzzles || []);
  }

  drawProgress(st) {
    const cancel = h("button", {type: "button", class: "small-btn", id: "cancel-analysis"}, "Cancel");
    cancel.addEventListener("click", () => fetch(`/api/review/analyses/${st.job}`, {method: "DELETE"}));
    const words = st.status === "queued"
      ? `Waiting for the server: ${st.queued_ahead ?? 0} analysis${st.queued_ahead === 1 ? "" : "es"} ahead.`
      : st.total === null ? "Replaying the game…" : `Judging decision ${Math.min(st.done + 1, st.total)} of ${st.total}…`;
    this.el.progress.replaceChildren(
      h("progress", {id: "analysis-bar", max: st.total || 1, value: st.done || 0, "aria-label": "Analysis progress"}),
      " ", h("span", {id: "analysis-words"}, words), " ", cancel);
  }

  showAnalysis(a, puzzles) {
    this.analysis = a;
    this.byPly = new Map(a.decisions.map((dec) => [dec.ply, dec]));
    const d = this.data;
    const sum = a.summary;
    const marks = Object.entries(sum.marks).filter(([, n]) => n).map(([m, n]) => `${n} ${MARK_WORDS[m]}${n === 1 ? "" : "s"}`);
    const rows = a.decisions.map((dec) => {
      const tr = h("tr", {class: (dec.mark ? `marked ${dec.mark}` : "") + " decision", "data-ply": dec.ply, tabindex: 0},
        h("td", {}, dec.ply + 1),
        h("td", {"data-move": dec.played}, this.choiceWords(dec.ply, dec.played) || this.said(dec.ply + 1)),
        h("td", {class: "num"}, pct(dec.played_estimate)),
        h("td", {"data-move": dec.best}, dec.best === dec.played ? h("span", {class: "muted"}, "the same") : this.choiceWords(dec.ply, dec.best) || dec.best),
        h("td", {class: "num"}, pct(dec.best_estimate)),
        h("td", {class: "num"}, dec.loss > 0 ? `−${Math.round(dec.loss * 100)}` : "0"),
        h("td", {}, dec.mark ? h("span", {class: `mark ${dec.mark}`}, `${MARK_SIGN[dec.mark]} ${MARK_WORDS[dec.mark]}`) : ""));
      const jump = () => { this.stopAutoplay(); this.go(dec.ply); };
      tr.addEventListener("click", jump);
      tr.addEventListener("keydown", (ev) => { if (ev.key === "Enter") jump(); });
      return tr;
    });
    fill(this.el.result2,
      h("p", {id: "analysis-summary"}, `${d.names[a.seat]}: ${sum.decisions} decisions judged (${a.forced} forced moves not counted), ` +
        `the best move played ${sum.best_played} time${sum.best_played === 1 ? "" : "s"}, on average ${points(sum.mean_loss)} lost a decision` +
        (marks.length ? `; ${marks.join(", ")}.` : "; no clear mistake.")),
      this.chart(a),
      h("div", {class: "table-wrap"}, h("table", {class: "decisions", id: "decisions"},
        h("thead", {}, h("tr", {}, ["Move", "Played", "Chance", "Best found", "Chance", "Lost", "Mark"].map((t) => h("th", {scope: "col"}, t)))),
        h("tbody", {}, rows))),
      puzzles.length ? h("div", {class: "puzzles"}, h("h3", {}, "Puzzles from this game"),
        h("ul", {}, puzzles.map((p) => h("li", {}, h("a", {href: p.link, class: "puzzle-link"}, `Move ${p.ply + 1}: find the best move`),
          h("span", {class: "muted small"}, ` (the best is ${Math.round(p.margin * 100)} points ahead)`))))) : null,
      h("p", {class: "small muted"}, `Budget: ${a.budget.iterations} search iterations a decision; the analysis took ${a.seconds} s.`));
    this.drawMoves();
    this.drawStep();
  }

  /** The estimate over the game: the move played (solid) and the best move found (dashed), by
   * move number, each mark a labelled point; a click on a point shows that position. */
  chart(a) {
    // as wide as the panel (so that its words keep their size on a phone), 640 at most
    const W = Math.round(Math.max(300, Math.min(640, (this.el.analysis.clientWidth || 640) - 26)));
    const H = 220, L = 40, R = 10, T = 10, B = 28;
    const n = Math.max(1, this.n);
    const x = (ply) => L + (ply / n) * (W - L - R);
    const y = (v) => T + (1 - v) * (H - T - B);
    const line = (key) => a.decisions.map((dec, k) => `${k ? "L" : "M"}${x(dec.ply).toFixed(1)},${y(dec[key]).toFixed(1)}`).join(" ");
    const grid = [0, 0.25, 0.5, 0.75, 1].map((v) => [
      s("line", {x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid"}),
      s("text", {x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "axis"}, `${v * 100}%`)]);
    const dots = a.decisions.map((dec) => {
      const g = s("g", {class: "point" + (dec.mark ? ` ${dec.mark}` : ""), tabindex: 0, role: "button", "data-ply": dec.ply,
        "aria-label": `Move ${dec.ply + 1}: ${this.said(dec.ply + 1)}, ${pct(dec.played_estimate)}` + (dec.mark ? `, ${dec.mark}` : "")},
        s("circle", {cx: x(dec.ply), cy: y(dec.played_estimate), r: dec.mark ? 5 : 3}),
        dec.mark ? s("text", {x: x(dec.ply), y: y(dec.played_estimate) - 8, "text-anchor": "middle", class: "mark-sign"}, MARK_SIGN[dec.mark]) : null,
        s("title", {}, `Move ${dec.ply + 1}: ${this.said(dec.ply + 1)} ${pct(dec.played_estimate)}; best: ` +
          `${this.choiceWords(dec.ply, dec.best) || dec.best} ${pct(dec.best_estimate)}`));
      const jump = () => { this.stopAutoplay(); this.go(dec.ply); };
      g.addEventListener("click", jump);
      g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ev.stopPropagation(); jump(); } });
      return g;
    });
    this.cursor = s("line", {x1: x(this.i), x2: x(this.i), y1: T, y2: H - B, class: "cursor"});
    this.cursorX = x;
    return s("svg", {viewBox: `0 0 ${W} ${H}`, class: "chart", id: "chart", role: "img",
      "aria-label": `The chance of winning over the game, as the bot estimated it for ${this.data.names[a.seat]}`},
      grid,
      s("text", {x: L, y: H - 6, class: "axis"}, `move 1 … ${this.n}`),
      s("path", {d: line("best_estimate"), class: "best"}),
      s("path", {d: line("played_estimate"), class: "played"}),
      this.cursor, dots,
      s("g", {class: "legend"},
        s("line", {x1: W - 180, x2: W - 160, y1: H - 10, y2: H - 10, class: "played"}),
        s("text", {x: W - 156, y: H - 6, class: "axis"}, "played"),
        s("line", {x1: W - 100, x2: W - 80, y1: H - 10, y2: H - 10, class: "best"}),
        s("text", {x: W - 76, y: H - 6, class: "axis"}, "best found")));
  }

  drawChartCursor() {
    if (!this.cursor) return;
    const xx = this.cursorX(this.i);
    this.cursor.setAttribute("x1", xx);
    this.cursor.setAttribute("x2", xx);
  }
}
