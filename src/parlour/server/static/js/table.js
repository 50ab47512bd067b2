// A table: the connection, the seats and whose turn, the clock, the log in words, the match
// scoreboard, the result, hints, host controls. What is drawn of the game itself belongs to the
// game's module in ./games/ (see ./games/README.md for the contract).
import { api, remember, seatOf } from "./api.js";
import { h, fill, toast, announce } from "./dom.js";

const MODULES = {"whot": "whot", "sorry": "sorry", "whoswho-tricks": "whoswho", "whoswho-books": "whoswho"};

export async function table(root, code) {
  let info;
  try {
    info = await api("/api/tables/" + code);
  } catch (e) {
    fill(root, h("div", {class: "card"}, h("h2", {}, "No table " + code),
      h("p", {}, e.message), h("p", {}, h("a", {href: "/"}, "Back to the lobby"))));
    return;
  }
  const t = new TablePage(root, code, info);
  await t.start();
  window.parlourTable = t; // for the browser tests and the curious
}

class TablePage {
  constructor(root, code, info) {
    this.root = root;
    this.code = code;
    this.info = info;
    this.mine = seatOf(code);
    this.seat = this.mine?.seat ?? null;
    this.isHost = false;
    this.ws = null;
    this.retry = 0;
    this.msg = null;
    this.log = [];
    this.logGame = -1;
    this.pending = false;
    this.renderer = null;
    this.closed = false;
    this.clockSeat = null;
    this.clockEnd = 0;
    this.build();
  }

  build() {
    const i = this.info;
    document.title = `${i.title} · ${this.code} · parlour`;
    this.el = {
      title: h("h1", {class: "table-title"}, i.title),
      rules: h("span", {class: "muted"}),
      invite: h("button", {type: "button", id: "copy-link", class: "small-btn"}, "Copy invite link"),
      status: h("p", {class: "turn", id: "turn", "aria-live": "polite"}),
      clock: h("span", {class: "clock", id: "clock", role: "timer", hidden: true}),
      join: h("div", {class: "join card", id: "join", hidden: true}),
      players: h("ul", {class: "players", id: "players", "aria-label": "Players"}),
      board: h("section", {class: "board", id: "board", "aria-label": "The game"}),
      hintBtn: h("button", {type: "button", id: "hint", disabled: true, title: "What would the hint bot play? (key: H)"}, "Hint"),
      hintText: h("span", {class: "hint-text", id: "hint-text", "aria-live": "polite"}),
      moves: h("div", {class: "all-moves", id: "all-moves"}),
      result: h("section", {class: "result card", id: "result", hidden: true, "aria-live": "polite"}),
      log: h("ol", {class: "log", id: "log", "aria-label": "What happened"}),
      score: h("div", {class: "scoreboard", id: "scoreboard"}),
      host: h("div", {class: "host", id: "host-controls", hidden: true}),
      conn: h("span", {class: "conn", id: "conn"}, "connecting…"),
    };
    const e = this.el;
    e.invite.addEventListener("click", () => this.copyLink());
    e.hintBtn.addEventListener("click", () => this.askHint());
    fill(this.root,
      h("div", {class: "table-page"},
        h("header", {class: "table-head"},
          h("div", {}, e.title, " ", e.rules),
          h("div", {class: "head-right"}, h("code", {class: "code", title: "table code"}, this.code), " ", e.invite, " ", e.conn)),
        e.join,
        e.players,
        h("div", {class: "turn-line"}, e.status, e.clock),
        e.board,
        h("div", {class: "actions"}, e.hintBtn, e.hintText),
        e.result,
        h("details", {class: "moves-box"}, h("summary", {}, "All legal moves (keyboard)"), e.moves),
        h("div", {class: "below"},
          h("section", {class: "card"}, h("h2", {}, "Log"), e.log),
          h("section", {class: "card"}, h("h2", {}, "Scoreboard"), e.score)),
        e.host));
    document.addEventListener("keydown", (ev) => {
      if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLTextAreaElement) return;
      if (ev.key === "h" || ev.key === "H") { if (!e.hintBtn.disabled) this.askHint(); }
    });
    setInterval(() => this.tick(), 250);
  }

  async start() {
    const mod = MODULES[this.info.game];
    try {
      const m = await import(`./games/${mod}.js`);
      this.renderer = m.mount(this.el.board, this.context());
    } catch (err) {
      console.error(err);
      this.renderer = null;
    }
    this.drawTable(this.info);
    this.connect();
  }

  context() {
    return {
      game: this.info.game,
      table: () => this.info,
      seat: () => this.seat,
      name: (player) => this.playerName(player),
      send: (move) => this.send(move),
      announce,
    };
  }

  playerName(player) {
    const seats = this.msg?.seats || this.info.seats.map((s) => s.seat);
    const seat = seats[player];
    const s = this.info.seats[seat];
    const base = s?.name || `Seat ${seat + 1}`;
    return seat === this.seat ? `${base} (you)` : base;
  }

  // --- the connection ---------------------------------------------------------------------
  connect() {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(proto + location.host + "/ws/" + this.code);
    this.ws = ws;
    this.el.conn.textContent = "connecting…";
    ws.addEventListener("open", () => {
      const token = this.mine?.token;
      ws.send(JSON.stringify(token ? {type: "hello", token} : {type: "hello"}));
    });
    ws.addEventListener("message", (ev) => this.receive(JSON.parse(ev.data)));
    ws.addEventListener("close", (ev) => {
      if (this.ws !== ws) return;
      this.el.conn.textContent = "offline — reconnecting";
      this.el.conn.className = "conn off";
      if (ev.code === 4401) { // our token is not known here: play on as a spectator
        toast("This browser's seat at the table was not recognised; watching instead.");
        this.mine = null; this.seat = null;
      }
      if (ev.code === 4404 || this.closed) return;
      const delay = Math.min(8000, 500 * 2 ** this.retry++);
      setTimeout(() => this.connect(), delay);
    });
  }

  send(move) {
    if (!this.msg || this.pending) return;
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) { toast("Not connected; reconnecting…"); return; }
    this.pending = true;
    this.ws.send(JSON.stringify({type: "move", move, ply: this.msg.ply}));
  }

  askHint() {
    if (this.ws?.readyState === WebSocket.OPEN) {
      this.el.hintText.textContent = "thinking…";
      this.ws.send(JSON.stringify({type: "hint"}));
    }
  }

  receive(m) {
    switch (m.type) {
      case "welcome":
        this.retry = 0;
        this.el.conn.textContent = m.seat === null ? "watching" : "connected";
        this.el.conn.className = "conn on";
        this.seat = m.seat;
        this.isHost = m.host;
        this.drawTable(m.table);
        break;
      case "table":
        this.drawTable(m.table);
        break;
      case "view":
        this.pending = false;
        this.drawView(m);
        break;
      case "hint":
        if (this.msg && m.ply === this.msg.ply) {
          this.el.hintText.textContent = `Hint: ${m.move} — ${this.named(m.why)}`;
          this.renderer?.hint?.(m.move);
        }
        break;
      case "clock":
        announce(`${this.playerNameOfSeat(m.seat)} ran out of time: ${m.move}`);
        break;
      case "closed":
        this.closed = true;
        this.el.status.textContent = "The host closed the table.";
        break;
      case "error":
        this.pending = false;
        if (m.code === "illegal" || m.code === "late" || m.code === "not_your_turn") toast(m.message);
        else if (m.code === "unknown_token") { this.mine = null; this.seat = null; }
        else toast(m.message);
        if (m.code === "late" || m.code === "not_your_turn") this.ws?.send(JSON.stringify({type: "view"}));
        if (this.el.hintText.textContent === "thinking…") this.el.hintText.textContent = "";
        break;
      default:
        break;
    }
  }

  /** Engine and bot texts say "P2" or "seat 2" for game player 2: put names in. */
  named(text) {
    return String(text).replace(/\b(?:P|[Ss]eat )(\d)\b/g, (m, d) => {
      const p = Number(d) - 1;
      return this.msg && p < this.msg.seats.length ? this.playerName(p) : m;
    });
  }

  playerNameOfSeat(seat) {
    const s = this.info.seats[seat];
    return s?.name || `Seat ${seat + 1}`;
  }

  // --- drawing ----------------------------------------------------------------------------
  drawTable(t) {
    this.info = t;
    const e = this.el;
    e.rules.textContent = `${t.preset || "house rules"} · ${t.players} players` +
      (t.match && t.match !== "single" ? ` · ${t.match}` : "") + (t.move_clock ? ` · ${t.move_clock}s a move` : "");
    this.drawPlayers();
    this.drawJoin();
    this.drawScoreboard(t.scoreboard);
    this.drawHost();
    if (t.status === "waiting") {
      const free = t.seats.filter((s) => !s.filled).length;
      e.status.textContent = `Waiting for ${free} more player${free === 1 ? "" : "s"}: send them the invite link.`;
    } else if (t.status === "closed") {
      e.status.textContent = "This table is closed.";
    }
  }

  drawPlayers() {
    const t = this.info;
    const toPlay = this.msg && !this.msg.result ? this.msg.to_play : null;
    const counts = this.msg ? (this.msg.view.counts || this.msg.view.hand_counts) : null;
    const seats = this.msg?.seats || [];
    fill(this.el.players, t.seats.map((s) => {
      const p = seats.indexOf(s.seat);
      const n = counts && p >= 0 ? counts[p] : null;
      return h("li", {class: "player" + (s.seat === toPlay ? " to-play" : "") + (s.seat === this.seat ? " me" : ""),
        "data-seat": s.seat, "aria-current": s.seat === toPlay ? "true" : null},
        h("span", {class: "turn-mark", "aria-hidden": "true"}, s.seat === toPlay ? "▶" : ""),
        h("span", {class: "pname"}, s.name || "(free seat)"),
        s.seat === this.seat ? h("span", {class: "tag"}, "you") : null,
        s.bot ? h("span", {class: "tag"}, "bot") : null,
        s.filled && !s.bot ? h("span", {class: "dot " + (s.connected ? "on" : "off"), title: s.connected ? "connected" : "away"},
          s.connected ? "●" : "○") : null,
        n !== null && n !== undefined ? h("span", {class: "count", title: "cards in hand"}, `${n} card${n === 1 ? "" : "s"}`) : null);
    }));
  }

  drawJoin() {
    const t = this.info;
    const free = t.seats.filter((s) => !s.filled);
    if (this.seat !== null || !free.length || t.status === "closed") { this.el.join.hidden = true; return; }
    if (this.joinCount) { // already drawn: keep what is being typed, just update the count
      this.joinCount.textContent = `${free.length} free seat${free.length === 1 ? "" : "s"} — join the game:`;
      this.el.join.hidden = false;
      return;
    }
    this.joinCount = h("p", {}, `${free.length} free seat${free.length === 1 ? "" : "s"} — join the game:`);
    const nameIn = h("input", {id: "join-name", maxlength: 32, value: localStorage.getItem("parlour:name") || "",
      placeholder: "your name", "aria-label": "Your name", autocomplete: "nickname"});
    const form = h("form", {}, this.joinCount,
      h("div", {class: "row"}, nameIn, h("button", {type: "submit", class: "primary", id: "join-btn"}, "Take a seat")));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const name = nameIn.value.trim();
      if (!name) { toast("Please give your name."); return; }
      localStorage.setItem("parlour:name", name);
      try {
        const j = await api(`/api/tables/${this.code}/join`, {name});
        remember(this.code, {token: j.token, seat: j.seat, game: this.info.game});
        this.mine = seatOf(this.code);
        this.seat = j.seat;
        this.el.join.hidden = true;
        this.ws?.close();
      } catch (err) { toast("Could not join: " + err.message); }
    });
    fill(this.el.join, form);
    this.el.join.hidden = false;
  }

  drawHost() {
    const e = this.el;
    if (!this.isHost) { e.host.hidden = true; return; }
    const t = this.info;
    const over = this.msg?.result;
    const sb = t.scoreboard;
    const next = h("button", {type: "button", id: "next-game", class: "primary"}, "Next game");
    next.addEventListener("click", () => this.ws?.send(JSON.stringify({type: "next"})));
    const close = h("button", {type: "button", id: "close-table"}, "Close the table");
    close.addEventListener("click", () => {
      if (confirm("Close this table for everyone?")) this.ws?.send(JSON.stringify({type: "close"}));
    });
    fill(e.host, h("span", {class: "muted"}, "You host this table: "),
      over && !sb?.over && !t.auto_next && t.status !== "closed" ? next : null,
      t.status !== "closed" ? close : null);
    e.host.hidden = false;
  }

  drawScoreboard(sb) {
    if (!sb || !sb.rows) { fill(this.el.score, h("p", {class: "muted"}, "No games yet.")); return; }
    const n = Math.max(sb.games_played, 0);
    const head = h("tr", {}, h("th", {scope: "col"}, "Player"),
      Array.from({length: n}, (_, i) => h("th", {scope: "col"}, `#${i + 1}`)), h("th", {scope: "col"}, "Total"));
    const winners = new Set(sb.winners || []);
    const rows = sb.rows.map((r) => h("tr", {class: winners.has(r.seat) && sb.over ? "winner" : ""},
      h("th", {scope: "row"}, r.name || `Seat ${r.seat + 1}`, r.out ? " (out)" : ""),
      r.games.map((g) => h("td", {}, g === null ? "—" : g)), h("td", {}, r.total)));
    fill(this.el.score,
      h("p", {class: "small muted"}, `${sb.format}: ${sb.games_played}` + (sb.games_total ? ` of ${sb.games_total}` : "") +
        ` game${sb.games_played === 1 ? "" : "s"} played` + (sb.lower_wins ? " · lowest total wins" : " · highest total wins") +
        (sb.pool ? ` · kitty ${sb.pool}` : "") + (sb.over ? " · match over" : "")),
      h("table", {}, h("thead", {}, head), h("tbody", {}, rows)));
  }

  drawView(m) {
    const first = !this.msg || this.msg.game_number !== m.game_number;
    this.msg = m;
    // the log: events_from 0 starts it afresh (a new connection or a new game)
    if (m.events_from === 0 || this.logGame !== m.game_number) { this.log = []; this.logGame = m.game_number; }
    if (m.events_from === this.log.length) this.log.push(...(m.log || m.events.map(String)));
    this.drawLog();
    this.drawPlayers();
    this.drawHost();
    if (m.scoreboard) this.drawScoreboard(m.scoreboard);
    const mine = m.legal.length > 0;
    const e = this.el;
    if (m.result) {
      e.status.textContent = "Game over.";
    } else if (mine) {
      e.status.textContent = "Your turn.";
      if (first || !this.wasMine) announce("Your turn");
    } else if (m.to_play !== null && m.to_play !== undefined) {
      e.status.textContent = `${this.playerNameOfSeat(m.to_play)} to play.`;
    }
    e.status.classList.toggle("mine", mine);
    this.wasMine = mine;
    e.hintBtn.disabled = !mine;
    e.hintText.textContent = "";
    if (m.clock && !m.result) {
      this.clockSeat = m.clock.seat;
      this.clockEnd = performance.now() + m.clock.remaining * 1000;
    } else this.clockSeat = null;
    this.tick();
    this.drawMoves(m);
    this.drawResult(m);
    if (this.renderer) {
      try { this.renderer.update(m); } catch (err) { console.error(err); this.fallback(m); }
    } else this.fallback(m);
  }

  fallback(m) {
    fill(this.el.board, h("pre", {class: "raw"}, JSON.stringify(m.view, null, 1)));
  }

  drawLog() {
    const items = this.log.slice(-200).map((line) => h("li", {}, line));
    fill(this.el.log, items);
    this.el.log.scrollTop = this.el.log.scrollHeight;
  }

  drawMoves(m) {
    if (!m.legal.length) { fill(this.el.moves, h("p", {class: "muted"}, "Not your turn.")); return; }
    fill(this.el.moves, h("ul", {class: "plain move-list"}, m.legal.map((mv) => {
      const b = h("button", {type: "button", "data-move": mv}, mv);
      b.addEventListener("click", () => this.send(mv));
      return h("li", {}, b);
    })));
  }

  drawResult(m) {
    const e = this.el;
    if (!m.result) { e.result.hidden = true; return; }
    const r = m.result;
    const winners = r.winners.map((p) => this.playerName(p));
    const meWon = r.winners.some((p) => m.seats[p] === this.seat);
    const rows = r.points.map((pts, p) => h("tr", {class: r.winners.includes(p) ? "winner" : ""},
      h("th", {scope: "row"}, this.playerName(p)), h("td", {}, pts), h("td", {}, r.ranks[p] + 1)));
    const sb = m.scoreboard;
    fill(e.result,
      h("h2", {}, meWon ? "You won!" : winners.length ? `${winners.join(" & ")} won.` : "Game over."),
      r.reason ? h("p", {}, this.named(r.reason)) : null,
      h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, r.lower_is_better ? "Points (lower is better)" : "Points"), h("th", {}, "Place"))),
        h("tbody", {}, rows)),
      sb?.over ? h("p", {class: "match-over"}, "The match is over: " +
        (sb.winners || []).map((s) => this.playerNameOfSeat(s)).join(" & ") + " won it.")
        : (this.isHost ? h("p", {class: "muted"}, "Start the next game with the button below.") :
          h("p", {class: "muted"}, this.info.auto_next ? "The next game starts shortly." : "The host starts the next game.")),
      h("p", {}, h("a", {href: `/api/tables/${this.code}/records`, download: `parlour-${this.code}.json`}, "Download the records"),
        " · ", h("a", {href: "/"}, "Lobby")));
    if (e.result.hidden) announce(meWon ? "You won!" : "Game over");
    e.result.hidden = false;
  }

  tick() {
    const c = this.el.clock;
    if (this.clockSeat === null) { c.hidden = true; return; }
    const left = Math.max(0, (this.clockEnd - performance.now()) / 1000);
    c.hidden = false;
    c.textContent = `⏱ ${Math.ceil(left)} s`;
    c.classList.toggle("low", left < 10);
  }

  async copyLink() {
    const url = location.origin + "/t/" + this.code;
    try { await navigator.clipboard.writeText(url); toast("Invite link copied: " + url, "info"); }
    catch { toast("Invite link: " + url, "info"); }
  }
}
