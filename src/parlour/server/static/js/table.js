// A table: the connection, the seats and whose turn, the clock, what happened since your last
// turn, the log in words, chat, the match scoreboard, the result, hints, inviting friends, host
// controls (next game, rematch, close). What is drawn of the game itself belongs to the game's own
// module, served from its folder (see docs/architecture.md, "A game in the browser"); view
// messages are played to it one at a time, so that its animations run in order (js/motion.js).
import { api, heldSeats, remember, rememberHere, reportLine, seatOf } from "./api.js";
import { h, s, fill, toast, announce, duration } from "./dom.js";
import { motion } from "./motion.js";
import { sound } from "./sound.js";
import { chatPanel } from "./chat.js";
import { invitePanel, copyText } from "./invite.js";


// "Since your last turn" shows this many of the newest lines, each whole
const SINCE_LINES = 4;

export async function table(root, code) {
  let info;
  try {
    info = await api("/api/tables/" + code);
  } catch (e) {
    fill(root, h("div", {class: "card"}, h("h1", {}, "No table " + code),
      h("p", {}, e.message), h("p", {}, h("a", {href: "/"}, "Back to the lobby"))));
    return;
  }
  const t = new TablePage(root, code, info);
  window.parlourTable = t; // for the browser tests and the curious
  await t.start();
}

/** A small stopwatch drawn in SVG (no emoji font needed). */
function clockIcon() {
  return s("svg", {viewBox: "0 0 16 16", width: 16, height: 16, class: "clock-icon", "aria-hidden": "true"},
    s("circle", {cx: 8, cy: 9, r: 6, fill: "none", stroke: "currentColor", "stroke-width": 1.8}),
    s("path", {d: "M8 9V5.5M6.5 1.5h3", stroke: "currentColor", "stroke-width": 1.8, "stroke-linecap": "round"}));
}

class TablePage {
  constructor(root, code, info) {
    this.root = root;
    this.code = code;
    this.info = info;
    // The seats this browser holds here: one link (a websocket) each. Several are several people
    // at one device (pass and play): one person's view is shown at a time (`this.link`), the
    // others' links stay connected (so their seats are present), and a hand-off screen stands
    // between their turns.
    this.links = heldSeats(code).map((x) => ({seat: x.seat, token: x.token, ws: null, retry: 0}));
    this.link = this.links[0] || {seat: null, token: null, ws: null, retry: 0};
    this.mine = this.link.token ? this.link : null;
    this.seat = this.mine?.seat ?? null;
    this.isHost = false;
    this.ws = null;
    this.revealed = false;  // pass and play: the person now shown has tapped to see their hand
    this.sinceMarks = new Map(); // pass and play: seat -> {game, at}: where its last turn ended
    this.msg = null;        // the view message drawn last (with `legal`, its moves' texts: whole())
    this.view = null;       // the whole view of the last message received (patches lay over it)
    this.inbox = [];        // view messages received, waiting to be played in order
    this.pumping = false;
    this.lines = [];        // the log: {text, cls}
    this.eventsSeen = 0;    // events of the current game in the log
    this.logGame = -1;
    this.turnEndedAt = null; // log length when this seat's last turn ended
    this.pending = false;
    this.renderer = null;
    this.closed = false;
    this.clockSeat = null;
    this.clockEnd = 0;
    this.whyWaiting = new Map();
    this.motion = motion;
    this.sound = sound;
    this.build();
  }

  build() {
    const i = this.info;
    document.title = `${i.title} · ${this.code} · parlour`;
    const muted = sound.muted();
    this.el = {
      title: h("h1", {class: "table-title"}, i.title),
      rules: h("span", {class: "muted table-rules"}),
      code: h("code", {class: "code", title: "table code"}, this.code),
      inviteBtn: h("button", {type: "button", id: "copy-link", class: "small-btn", "aria-expanded": "false",
        "aria-controls": "invite-box"}, "Invite"),
      rulesLink: h("a", {class: "small-btn button-link", id: "rules-link", href: `/rules/${i.game}`}, "Rules"),
      mute: h("button", {type: "button", id: "mute", class: "small-btn", "aria-pressed": muted ? "true" : "false"},
        muted ? "Sound off" : "Sound on"),
      chatBtn: h("button", {type: "button", id: "chat-btn", class: "small-btn", "aria-controls": "chat"}, "Chat",
        h("span", {class: "badge", id: "chat-unread", hidden: true})),
      chatPeek: h("button", {type: "button", id: "chat-peek", class: "chat-peek", hidden: true, "aria-live": "polite"}),
      status: h("p", {class: "turn", id: "turn", "aria-live": "polite"}),
      clock: h("span", {class: "clock", id: "clock", role: "timer", hidden: true}, clockIcon(), h("span", {class: "clock-left"})),
      since: h("p", {class: "since", id: "since", hidden: true}),
      join: h("div", {class: "join card", id: "join", hidden: true}),
      here: h("div", {class: "here card", id: "here", hidden: true}),
      inviteBox: h("div", {id: "invite-box", hidden: true}),
      rematch: h("div", {class: "rematch-note card", id: "rematch-note", hidden: true}),
      players: h("ul", {class: "players", id: "players", "aria-label": "Players"}),
      playersTop: h("div", {class: "players-top"}),
      playersBelow: h("section", {class: "card players-card", hidden: true}, h("h2", {}, "Players")),
      board: h("section", {class: "board", id: "board", "aria-label": "The game"}),
      hintBtn: h("button", {type: "button", id: "hint", disabled: true, title: "What would the hint bot play? (key: H)"}, "Hint"),
      hintText: h("span", {class: "hint-text", id: "hint-text", "aria-live": "polite"}),
      moves: h("div", {class: "all-moves", id: "all-moves"}),
      result: h("section", {class: "result card", id: "result", hidden: true, "aria-live": "polite"}),
      log: h("ol", {class: "log", id: "log", tabindex: 0, "aria-label": "What happened"}),
      score: h("div", {class: "scoreboard", id: "scoreboard"}),
      host: h("div", {class: "host", id: "host-controls", hidden: true}),
      conn: h("span", {class: "conn", id: "conn", role: "status"}, "connecting…"),
      handoff: h("section", {class: "handoff", id: "handoff", hidden: true, role: "dialog", "aria-modal": "true",
        "aria-labelledby": "handoff-title"}),
    };
    const e = this.el;
    this.chat = chatPanel({
      code: this.code,
      seat: () => this.seat,
      seats: () => this.info.seats,
      say: (text) => this.sendJSON({type: "chat", text}),
      onLine: (lines) => this.heard(lines),
      // reported as the seat shown now (its token: the server records who reported it)
      report: (line) => reportLine(this.code, line.id, this.link.token),
    });
    e.inviteBtn.addEventListener("click", () => this.toggleInvite());
    // chat is far down a phone's page: a badge counts the lines said while it was out of view,
    // the newest shows at the top for a moment, and either opens it
    this.unread = 0;
    this.chatInView = false;
    e.chatBtn.addEventListener("click", () => this.openChat());
    e.chatPeek.addEventListener("click", () => this.openChat());
    // in view: the chat all but whole on the screen (its heading at the foot of it is not)
    new IntersectionObserver(([entry]) => {
      this.chatInView = entry.intersectionRatio >= 0.9;
      if (this.chatInView) this.markChatRead();
    }, {threshold: [0, 0.5, 0.9, 1]}).observe(this.chat.el);
    e.hintBtn.addEventListener("click", () => this.askHint());
    e.mute.addEventListener("click", () => {
      const on = !sound.muted();
      sound.setMuted(on);
      e.mute.setAttribute("aria-pressed", on ? "true" : "false");
      e.mute.textContent = on ? "Sound off" : "Sound on";
    });
    e.playersTop.append(e.players);
    this.el.page = h("div", {class: "table-page"});
    fill(this.root, e.handoff, e.chatPeek,
      fill(this.el.page,
        h("header", {class: "table-head"},
          h("div", {class: "table-name"}, e.title, " ", e.rules),
          h("div", {class: "head-right"}, e.code, e.inviteBtn, e.rulesLink, e.chatBtn, e.mute, e.conn)),
        e.rematch,
        e.join,
        e.inviteBox,
        e.here,
        e.playersTop,
        h("div", {class: "turn-line"}, e.status, e.clock),
        e.since,
        e.board,
        h("div", {class: "actions"}, e.hintBtn, e.hintText),
        e.result,
        e.host,
        h("details", {class: "moves-box"}, h("summary", {}, "All legal moves (keyboard)"), e.moves),
        h("div", {class: "below"},
          h("section", {class: "card"}, h("h2", {}, "Log"), e.log),
          this.chat.el,
          h("section", {class: "card"}, h("h2", {}, "Scoreboard"), e.score),
          e.playersBelow)));
    document.addEventListener("keydown", (ev) => {
      if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLTextAreaElement) return;
      if (ev.key === "h" || ev.key === "H") { if (!e.hintBtn.disabled) this.askHint(); }
    });
    setInterval(() => this.tick(), 250);
  }

  async start() {
    // The game's own module and stylesheet, from its folder (its manifest says which files).
    const web = this.info.web;
    if (web?.stylesheet) document.head.append(h("link", {rel: "stylesheet", href: web.stylesheet}));
    try {
      if (!web?.module) throw new Error(`${this.info.game} has no browser module`);
      this.module = await import(web.module);
      this.renderer = this.module.mount(this.el.board, this.context());
    } catch (err) {
      console.error(err);
      this.renderer = null;
    }
    this.drawTable(this.info);
    if (!this.links.length) this.links = [this.link]; // a spectator: one link, without a token
    for (const link of this.links) this.connect(link);
  }

  /** Pass and play: more than one person holds a seat here, at this one device. */
  get passing() {
    return this.links.filter((l) => l.token).length > 1;
  }

  context() {
    return {
      game: this.info.game,
      table: () => this.info,
      seat: () => this.seat,
      name: (player) => this.playerName(player),
      send: (move) => this.send(move),
      announce,
      sound: (name) => sound.play(name),
      motion,
      why: (move) => this.explain(move),
      toast: (text) => toast(text, "info"),
    };
  }

  playerName(player) {
    const seats = this.msg?.seats || this.info.seats.map((x) => x.seat);
    const seat = seats[player];
    const st = this.info.seats[seat];
    const base = st?.name || `Seat ${seat + 1}`;
    return seat === this.seat ? `${base} (you)` : base;
  }

  playerNameOfSeat(seat) {
    const st = this.info.seats[seat];
    return st?.name || `Seat ${seat + 1}`;
  }

  /** A legal move in words, from the game's module where it says (else its text). */
  moveWords(text, fields) {
    try {
      const w = fields && this.renderer?.words?.(fields);
      if (w) return w;
    } catch (err) { console.error(err); }
    return text;
  }

  /** Lines said at the table, new to this page (the recent ones too, on arriving): a sound, and
   * — when the chat is out of view — a count on the Chat button and the newest line at the top
   * of the screen for a moment. Lines said at this device are no news. */
  heard(lines) {
    const news = lines.filter((l) => !this.links.some((x) => x.token && x.seat === l.seat));
    if (!news.length) return;
    const line = news[news.length - 1];
    sound.play("chat");
    if (this.chatInView) return;
    this.unread += news.length;
    const badge = this.el.chatBtn.querySelector(".badge");
    badge.textContent = String(this.unread);
    badge.hidden = false;
    this.el.chatBtn.setAttribute("aria-label", `Chat: ${this.unread} new line${this.unread === 1 ? "" : "s"}`);
    const peek = this.el.chatPeek;
    fill(peek, h("strong", {}, `${line.name}: `), line.text, h("span", {class: "chat-peek-go"}, " — tap to answer"));
    peek.hidden = false;
    clearTimeout(this.peekTimer);
    this.peekTimer = setTimeout(() => { peek.hidden = true; }, 6000);
  }

  openChat() {
    this.el.chatPeek.hidden = true;
    this.chat.el.scrollIntoView({block: "center"});
    this.chat.el.querySelector("#chat-text")?.focus({preventScroll: true});
    this.markChatRead();
  }

  markChatRead() {
    this.unread = 0;
    this.el.chatBtn.querySelector(".badge").hidden = true;
    this.el.chatBtn.removeAttribute("aria-label");
    this.el.chatPeek.hidden = true;
  }

  // --- the connection: one websocket for each seat held here (or one, to watch) -----------
  connect(link) {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(proto + location.host + "/ws/" + this.code);
    link.ws = ws;
    if (link === this.link) {
      this.ws = ws;
      this.el.conn.textContent = "connecting…";
    }
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify(link.token ? {type: "hello", token: link.token} : {type: "hello"}));
    });
    ws.addEventListener("message", (ev) => {
      if (link.ws !== ws) return;
      const m = JSON.parse(ev.data);
      if (link === this.link) this.receive(m);
      else this.receiveAside(link, m);
    });
    ws.addEventListener("close", (ev) => {
      if (link.ws !== ws) return;
      const shown = link === this.link;
      if (shown) {
        this.el.conn.textContent = "offline — reconnecting";
        this.el.conn.className = "conn off";
      }
      if (ev.code === 4401) { // this token is not known here
        this.dropLink(link);
        if (!shown) return;
        toast("This browser's seat at the table was not recognised; watching instead.");
        this.mine = null; this.seat = null; link.token = null;
      }
      if (ev.code === 4403) { // the seat's account is suspended by the moderators: no retrying
        if (shown) toast("This account is suspended by the server's moderators.");
        return;
      }
      if (ev.code === 4404 || this.closed) return;
      const delay = Math.min(8000, 500 * 2 ** link.retry++);
      setTimeout(() => { if (link.ws === ws) this.connect(link); }, delay);
    });
  }

  /** A message on the link of a seat not shown now (another person at this device): chat, the
   * host's rights, and what ends the table count for the page; views wait until it is shown. */
  receiveAside(link, m) {
    if (m.type === "welcome") { link.retry = 0; if (m.host) { this.isHost = true; this.drawHost(); } }
    else if (m.type === "chat") this.chat.add(m.lines || []);
    else if (m.type === "chat_removed") this.chat.remove(m.id);
    else if (m.type === "rematch" || m.type === "closed") this.receive(m);
  }

  dropLink(link) {
    if (link === this.link || !this.links.includes(link)) return;
    this.links = this.links.filter((l) => l !== link);
    link.ws = null;
  }

  /** Pass and play: show `seat`'s view (the device went to that person). Everything drawn of the
   * last person's view goes; the new one comes whole from the server, with its whole log. */
  showSeat(seat) {
    const link = this.links.find((l) => l.seat === seat);
    if (!link || link === this.link) return;
    this.link = link;
    this.mine = link;
    this.seat = seat;
    this.ws = link.ws;
    this.msg = null; this.view = null; this.inbox = []; this.lines = [];
    this.eventsSeen = 0; this.logGame = -1; this.turnEndedAt = null; this.wasMine = false;
    this.pending = false; this.switched = true;
    motion.clear();
    fill(this.el.log); fill(this.el.moves); this.el.since.hidden = true; this.el.hintText.textContent = "";
    this.el.result.hidden = true;
    if (this.module) {
      try { fill(this.el.board); this.renderer = this.module.mount(this.el.board, this.context()); }
      catch (err) { console.error(err); this.renderer = null; }
    }
    this.chat.refresh();
    this.drawPlayers();
    if (link.ws?.readyState === WebSocket.OPEN) {
      this.el.conn.textContent = "connected";
      this.el.conn.className = "conn on";
      link.ws.send(JSON.stringify({type: "view"}));
    }
  }

  sendJSON(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) { toast("Not connected; reconnecting…"); return false; }
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  send(move) {
    if (!this.msg || this.pending) return;
    if (!this.msg.legal.includes(move)) { this.explain(move); return; }
    if (this.sendJSON({type: "move", move, ply: this.msg.ply})) this.pending = true;
  }

  /** Say why a move cannot be played now: not this seat's turn (known here), else the rules'
   * reason as the server gives it (a `why` request changes nothing). */
  async explain(move) {
    const m = this.msg;
    if (!m || m.result) { toast("The game is over.", "info"); return; }
    if (this.seat === null) { toast("You are watching this table: take a seat to play.", "info"); return; }
    if (!m.legal.length) {
      const who = m.to_play !== null && m.to_play !== undefined ? this.playerNameOfSeat(m.to_play) : "another player";
      const text = `Not your turn: ${who} is to play.`;
      toast(text, "info"); announce(text);
      return;
    }
    const answer = await new Promise((resolve) => {
      this.whyWaiting.set(move, resolve);
      if (!this.sendJSON({type: "why", move})) resolve(null);
      setTimeout(() => resolve(null), 15000); // a busy server answers late: still worth saying
    });
    this.whyWaiting.delete(move);
    if (!answer || answer.legal) return;
    const text = `You cannot do that now: ${answer.reason || "the rules do not allow it"}.`;
    toast(text, "info");
    announce(text);
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
        this.link.retry = 0;
        this.el.conn.textContent = m.seat === null ? "watching" : "connected";
        this.el.conn.className = "conn on" + (m.seat === null ? " watching" : "");
        this.seat = m.seat;
        this.isHost = this.isHost || m.host;
        this.drawTable(m.table);
        this.chat.refresh();
        break;
      case "table":
        this.drawTable(m.table);
        this.chat.refresh();
        break;
      case "view":
        this.inbox.push(this.whole(m));
        this.pump();
        break;
      case "hint":
        if (this.msg && m.ply === this.msg.ply) {
          const why = String(m.why || "").replace(/^hint:\s*/i, "");
          this.el.hintText.textContent = `Hint: ${this.moveWords(m.move, m.fields)}` + (why ? ` — ${why}` : "");
          this.renderer?.hint?.(m.move, m.fields);
        }
        break;
      case "clock":
        this.timedOut(m);
        break;
      case "chat":
        this.chat.add(m.lines || []);
        break;
      case "chat_removed": // a moderator's
        this.chat.remove(m.id);
        break;
      case "why": {
        const resolve = this.whyWaiting.get(m.move);
        if (resolve) resolve(m);
        break;
      }
      case "rematch":
        this.goToRematch(m.code);
        break;
      case "closed": {
        this.closed = true;
        const why = m.message || "the host closed the table";
        this.el.status.textContent = why.charAt(0).toUpperCase() + why.slice(1) + ".";
        break;
      }
      case "error":
        this.pending = false;
        if (m.code === "unknown_token") { this.mine = null; this.seat = null; }
        else toast(m.message);
        if (m.code === "stale" || m.code === "not_your_turn") this.ws?.send(JSON.stringify({type: "view"}));
        if (this.el.hintText.textContent === "thinking…") this.el.hintText.textContent = "";
        break;
      default:
        break;
    }
  }

  /** A view message as the page reads it: a patch (only the keys that changed, and the keys
   * gone) laid over the view this connection was sent before, and `legal`, the texts of its
   * moves (`moves[i].text`), which the page checks a move against before sending it. `legal`
   * is the page's own: protocol 2 sends only `moves`, and a game's module reads `moves` (the
   * review, puzzle and tutorial pages give it the same messages without `legal`). */
  whole(m) {
    if (m.patch && this.view) {
      const view = {...this.view, ...m.view};
      for (const k of m.removed || []) delete view[k];
      m.view = view;
    }
    this.view = m.view;
    m.legal = (m.moves || []).map((x) => x.text);
    return m;
  }

  /** Play the waiting view messages one at a time: the game's animation of each one's events,
   * then its view drawn. */
  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.inbox.length) {
        const m = this.inbox.shift();
        motion.backlog = this.inbox.length;
        const prev = this.msg;
        const animate = this.renderer?.animate && prev && prev.game_number === m.game_number &&
          m.events_from > 0 && m.events?.length && !motion.reduced() && this.inbox.length < 8 &&
          this.el.handoff.hidden;
        if (animate) {
          this.el.board.setAttribute("aria-busy", "true");
          try {
            await Promise.race([this.renderer.animate(m, motion), motion.wait(6000)]);
          } catch (err) { console.error(err); }
          this.el.board.removeAttribute("aria-busy");
        }
        this.drawView(m);
      }
    } finally {
      motion.backlog = 0;
      this.pumping = false;
    }
  }

  timedOut(m) {
    const who = this.playerNameOfSeat(m.seat);
    const you = m.seat === this.seat;
    const what = this.moveWords(m.move, m.fields);
    const text = `${you ? "You" : who} ran out of time: ${/^[A-Z]/.test(what) ? what.charAt(0).toLowerCase() + what.slice(1) : what} was played for ${you ? "you" : "them"}.`;
    this.lines.push({text, cls: "timeout"});
    this.drawLog();
    motion.caption(this.el.board, text, 3500);
    toast(text, "info");
    announce(text);
  }

  goToRematch(code) {
    const mine = seatOf(this.code);
    // the same token holds the same seat there (each person's at this device too)
    if (mine) remember(code, {...mine, game: this.info.game});
    toast("Rematch! Taking you to the new table…", "info");
    this.closed = true;
    setTimeout(() => { location.href = "/t/" + code; }, 600);
  }

  // --- drawing ----------------------------------------------------------------------------
  drawTable(t) {
    this.info = t;
    const e = this.el;
    e.rules.textContent = `${t.preset || "house rules"} · ${t.players} players` +
      (t.match && t.match !== "single" ? ` · ${t.match}` : "") + (t.correspondence ? ` · by correspondence: a move within ${duration(t.move_clock)}`
        : t.move_clock ? ` · ${t.move_clock}s a move` : "");
    e.rulesLink.href = `/rules/${t.game}` + (t.preset ? `?preset=${encodeURIComponent(t.preset)}` : "");
    motion.base = Math.round(Math.min(480, Math.max(90, (t.bot_delay ?? 0.6) * 700)));
    this.drawPlayers();
    this.drawJoin();
    this.drawScoreboard(t.scoreboard);
    this.drawHost();
    this.drawRematch();
    if (t.status === "waiting") {
      const free = t.seats.filter((x) => !x.filled).length;
      const more = `Waiting for ${free} more player${free === 1 ? "" : "s"}`;
      // the people seated invite the others; someone who came by the link takes a seat
      e.status.textContent = this.seat !== null ? `${more}: send them the invite link.` : `${more}: take a seat to play.`;
      if (!this.inviteAuto && this.seat !== null) { this.inviteAuto = true; this.showInvite(true); }
    } else if (this.inviteAuto) { // opened while waiting: the game is on, make room for it
      this.inviteAuto = false;
      this.showInvite(false);
    }
    if (t.status === "closed") {
      e.status.textContent = "This table is closed.";
    }
    // the board draws every player: the list of players goes below it during a game
    const below = !!this.renderer?.ownsPlayers && t.status !== "waiting";
    if (below && e.players.parentNode !== e.playersBelow) e.playersBelow.append(e.players);
    if (!below && e.players.parentNode !== e.playersTop) e.playersTop.append(e.players);
    e.playersBelow.hidden = !below;
  }

  showInvite(open) {
    const e = this.el;
    if (open && !e.inviteBox.firstChild) e.inviteBox.append(invitePanel(this.code));
    e.inviteBox.hidden = !open;
    e.inviteBtn.setAttribute("aria-expanded", open ? "true" : "false");
  }

  toggleInvite() {
    this.showInvite(this.el.inviteBox.hidden);
    if (!this.el.inviteBox.hidden) this.el.inviteBox.scrollIntoView({block: "nearest"});
  }

  drawRematch() {
    const code = this.info.rematch;
    const e = this.el;
    if (!code || this.closed) { e.rematch.hidden = true; return; }
    const go = h("button", {type: "button", class: "primary", id: "go-rematch"}, "Go to the rematch");
    go.addEventListener("click", () => this.goToRematch(code));
    fill(e.rematch, h("p", {}, "The host started a rematch with the same seats. "), go);
    e.rematch.hidden = false;
  }

  drawPlayers() {
    const t = this.info;
    const toPlay = this.msg && !this.msg.result ? this.msg.to_play : null;
    const counts = this.msg ? (this.msg.view.counts || this.msg.view.hand_counts) : null;
    const seats = this.msg?.seats || [];
    fill(this.el.players, t.seats.map((st) => {
      const p = seats.indexOf(st.seat);
      const n = counts && p >= 0 ? counts[p] : null;
      return h("li", {class: "player" + (st.seat === toPlay ? " to-play" : "") + (st.seat === this.seat ? " me" : ""),
        "data-seat": st.seat, "aria-current": st.seat === toPlay ? "true" : null},
        h("span", {class: "turn-mark", "aria-hidden": "true"}, st.seat === toPlay ? "▶" : ""),
        h("span", {class: "pname"}, st.name || "(free seat)"),
        st.seat === this.seat ? h("span", {class: "tag"}, "you") : null,
        st.bot ? h("span", {class: "tag"}, "bot") : null,
        st.filled && !st.bot ? h("span", {class: "dot " + (st.connected ? "on" : "off"), title: st.connected ? "connected" : "away"},
          st.connected ? "●" : "○", h("span", {class: "sr-only"}, st.connected ? " connected" : " away")) : null,
        n !== null && n !== undefined ? h("span", {class: "count", title: "cards in hand"}, `${n} card${n === 1 ? "" : "s"}`) : null);
    }));
  }

  /** A free seat: the join box for someone without a seat here (a friend who opened the link),
   * first on their page; for someone seated, a way to seat another person at this device (pass
   * and play). */
  drawJoin() {
    const t = this.info;
    const free = t.seats.filter((x) => !x.filled);
    const open = free.length > 0 && t.status !== "closed";
    const seats = `${free.length} free seat${free.length === 1 ? "" : "s"}`;
    const e = this.el;
    e.join.hidden = !(open && this.seat === null);
    e.here.hidden = !(open && this.seat !== null && !t.rated);
    if (this.joinCount) this.joinCount.textContent = `${seats} — join the game:`;
    if (this.hereCount) this.hereCount.textContent = `${seats}. Someone else playing on this device? Seat them here:`;
    if (!e.join.hidden && !this.joinCount) this.drawJoinForm(seats);
    if (!e.here.hidden && !this.hereCount) this.drawHereForm(seats);
  }

  drawJoinForm(seats) {
    this.joinCount = h("p", {}, `${seats} — join the game:`);
    const nameIn = h("input", {id: "join-name", maxlength: 32, value: localStorage.getItem("parlour:name") || "",
      placeholder: "your name", "aria-label": "Your name", autocomplete: "nickname"});
    const form = h("form", {}, h("h2", {}, `Join ${this.hostName() ? `${this.hostName()}'s` : "this"} game of ${this.info.title}`),
      this.joinCount,
      this.info.rated ? h("p", {class: "small", id: "rated-note"}, "A rated table: only logged-in players sit here, under their usernames. ",
        h("a", {href: `/account?next=/t/${this.code}`}, "Log in or sign up"), " first.") : null,
      h("div", {class: "row"}, nameIn, h("button", {type: "submit", class: "primary", id: "join-btn"}, "Take a seat")));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const name = nameIn.value.trim();
      if (!name) { toast("Please give your name."); return; }
      localStorage.setItem("parlour:name", name);
      try {
        const j = await api(`/api/tables/${this.code}/join`, {name});
        remember(this.code, {token: j.token, seat: j.seat, game: this.info.game});
        Object.assign(this.link, {token: j.token, seat: j.seat});
        this.mine = this.link;
        this.seat = j.seat;
        this.el.join.hidden = true;
        this.ws?.close(); // it says hello again, with the seat's token
      } catch (err) { toast("Could not join: " + err.message); }
    });
    fill(this.el.join, form);
  }

  /** Pass and play: another person at this device takes a free seat with a token of their own. */
  drawHereForm(seats) {
    this.hereCount = h("p", {class: "small"}, `${seats}. Someone else playing on this device? Seat them here:`);
    const nameIn = h("input", {id: "here-name", maxlength: 32, placeholder: "their name", "aria-label": "Their name"});
    const form = h("form", {}, this.hereCount,
      h("div", {class: "row"}, nameIn, h("button", {type: "submit", id: "here-btn"}, "Seat them here (pass and play)")));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const name = nameIn.value.trim();
      if (!name) { toast("Please give their name."); return; }
      try {
        const j = await api(`/api/tables/${this.code}/join`, {name});
        rememberHere(this.code, j.seat, j.token);
        const link = {seat: j.seat, token: j.token, ws: null, retry: 0};
        this.links.push(link);
        this.connect(link);
        // the join may have started the game, its first view drawn before this answer came:
        // the device is passed from now on, so the hand-off screen is decided again
        if (this.msg) { this.revealed = false; this.drawHandoff(this.msg, this.msg.legal.length > 0); }
        nameIn.value = "";
        toast(`${name} sits at seat ${j.seat + 1}: the device is passed between you, each turn.`, "info");
      } catch (err) { toast("Could not seat them: " + err.message); }
    });
    fill(this.el.here, form);
  }

  hostName() {
    return this.info.seats.find((x) => x.filled && !x.bot)?.name || "";
  }

  drawHost() {
    const e = this.el;
    if (!this.isHost) { e.host.hidden = true; return; }
    const t = this.info;
    const over = this.msg?.result;
    const sb = t.scoreboard;
    const next = h("button", {type: "button", id: "next-game", class: "primary"}, "Next game");
    next.addEventListener("click", () => this.sendJSON({type: "next"}));
    const again = h("button", {type: "button", id: "rematch"}, "Rematch: same seats, new table");
    again.addEventListener("click", () => this.sendJSON({type: "rematch"}));
    const close = h("button", {type: "button", id: "close-table"}, "Close the table");
    close.addEventListener("click", () => {
      if (confirm("Close this table for everyone?")) this.sendJSON({type: "close"});
    });
    const live = t.status !== "closed";
    fill(e.host, h("span", {class: "muted"}, "You host this table: "),
      over && !sb?.over && !t.auto_next && live ? next : null,
      over && live && !t.rematch ? again : null,
      live ? close : null);
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
      h("div", {class: "table-scroll"}, h("table", {}, h("thead", {}, head), h("tbody", {}, rows))));
  }

  drawView(m) {
    const first = !this.msg || this.msg.game_number !== m.game_number;
    if (first) motion.clear();
    this.msg = m;
    this.pending = false;
    // the log: events_from 0 starts it afresh (a new connection or a new game)
    if (m.events_from === 0 || this.logGame !== m.game_number) {
      this.lines = []; this.eventsSeen = 0; this.logGame = m.game_number; this.turnEndedAt = null;
      // pass and play: this person's "since your last turn" runs from where their turn ended
      const mark = this.sinceMarks.get(this.seat);
      if (this.switched && mark && mark.game === m.game_number) this.turnEndedAt = mark.at;
    }
    if (m.events_from === this.eventsSeen) {
      this.lines.push(...(m.log || m.events.map(String)).map((text) => ({text, cls: ""})));
      this.eventsSeen += m.events.length;
    }
    this.drawLog();
    this.drawPlayers();
    this.drawHost();
    if (m.scoreboard) this.drawScoreboard(m.scoreboard);
    const mine = m.legal.length > 0;
    const e = this.el;
    if (m.result) {
      e.status.textContent = "Game over.";
    } else if (mine) {
      // pass and play: whose turn, by name, for the person now holding the device
      e.status.textContent = this.passing ? `Your turn, ${this.playerNameOfSeat(this.seat)}.` : "Your turn.";
      if (!first && !this.wasMine) { announce("Your turn"); sound.play("turn"); }
    } else if (m.to_play !== null && m.to_play !== undefined) {
      e.status.textContent = `${this.playerNameOfSeat(m.to_play)} to play.`;
    }
    e.status.classList.toggle("mine", mine);
    document.title = `${mine ? "● Your turn · " : ""}${this.info.title} · ${this.code} · parlour`;
    this.drawSince(m, mine, first && !this.switched);
    this.switched = false;
    if (this.wasMine && !mine && this.seat !== null) {
      this.sinceMarks.set(this.seat, {game: m.game_number, at: this.lines.length});
    }
    this.drawHandoff(m, mine);
    this.wasMine = mine;
    // no engine help where ratings are at stake: the server refuses hints at a rated table
    e.hintBtn.hidden = Boolean(this.info.rated);
    e.hintBtn.disabled = !mine || e.hintBtn.hidden;
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
    motion.settle();
  }

  /** "Since your last turn": what the others did while this seat waited, until it moves. */
  drawSince(m, mine, first) {
    const e = this.el;
    if (this.seat === null || m.result) { e.since.hidden = true; return; }
    if (this.wasMine && !mine) this.turnEndedAt = this.lines.length;
    if (mine && !this.wasMine && !first && this.turnEndedAt !== null) {
      const news = this.lines.slice(this.turnEndedAt).map((l) => l.text);
      if (news.length) {
        // every word of the newest lines is shown (never cut): the older ones are in the log
        const shown = news.slice(-SINCE_LINES);
        fill(e.since, h("strong", {}, "Since your last turn: "), shown.join(" · "),
          news.length > shown.length ? ` (and ${news.length - shown.length} before, in the log)` : "");
        e.since.hidden = false;
      }
    }
    if (!mine) e.since.hidden = true;
  }

  /** Pass and play: the hand-off screen. It comes up when the person shown has finished their
   * turn, or when another person at this device is to play, and hides the whole table until
   * that person taps ("Pass to Bob — tap when ready"): what one person's view holds is never in
   * view of the next. A finished game is shown to everyone. */
  drawHandoff(m, mine) {
    if (!this.passing) return;
    const e = this.el;
    // the view's own status: the table's news of the start may come after the first view
    const live = !m.result && (m.status ?? this.info.status) === "playing";
    const toPlay = m.to_play ?? null;
    const next = this.links.find((l) => l.token && l.seat === toPlay) || null;
    const newGame = this.handoffGame !== undefined && this.handoffGame !== m.game_number;
    this.handoffGame = m.game_number;
    // the person shown has ended their turn (a view between two moves of one turn, with the same
    // person still to play, is no end), a new game is dealt, or another person here is to play
    const ended = this.wasMine && !mine && toPlay !== this.seat;
    if (ended || newGame || (next && next.seat !== this.seat)) this.revealed = false;
    if (!live || this.revealed) { this.curtain(false); return; }
    const name = (seat) => this.playerNameOfSeat(seat);
    if (next) {
      const button = h("button", {type: "button", class: "primary handoff-go", id: "handoff-go"},
        `I am ${name(next.seat)}: show my hand`);
      button.addEventListener("click", () => this.reveal(next.seat));
      fill(e.handoff, h("div", {class: "handoff-box"},
        h("h2", {id: "handoff-title"}, `Pass to ${name(next.seat)} — tap when ready`),
        h("p", {}, `${name(next.seat)}, it is your turn. Your hand is shown when you tap.`),
        button));
      this.curtain(true, `Pass to ${name(next.seat)}`);
      if (this.handoffTo !== next.seat) { this.handoffTo = next.seat; sound.play("turn"); }
    } else {
      this.handoffTo = null;
      fill(e.handoff, h("div", {class: "handoff-box"},
        h("h2", {id: "handoff-title"}, toPlay !== null ? `${name(toPlay)} is playing…` : "Wait a moment…"),
        h("p", {}, "The hands here stay hidden until it is one of your turns: this screen will say whose.")));
      this.curtain(true);
    }
  }

  curtain(up, words = "") {
    const e = this.el;
    const was = !e.handoff.hidden;
    e.handoff.hidden = !up;
    e.page.hidden = up;  // not covered: gone, so that no part of the last view can be read
    if (up && words && !was) announce(words);
    if (up) e.handoff.querySelector("button")?.focus();
  }

  /** The person the hand-off screen called tapped: their view, and their turn. */
  reveal(seat) {
    this.revealed = true;
    if (seat !== this.seat) this.showSeat(seat);
    this.curtain(false);
    announce(`${this.playerNameOfSeat(seat)}: your turn`);
  }

  fallback(m) {
    fill(this.el.board, h("pre", {class: "raw"}, JSON.stringify(m.view, null, 1)));
  }

  drawLog() {
    // the last 200 lines, numbered from where they are in the game's log (CSS counters: never
    // clipped, whatever the number's width)
    const start = Math.max(0, this.lines.length - 200);
    const items = this.lines.slice(start).map((line) => h("li", {class: line.cls || null}, line.text));
    this.el.log.style.counterReset = `logline ${start}`;
    fill(this.el.log, items);
    this.el.log.scrollTop = this.el.log.scrollHeight;
  }

  drawMoves(m) {
    if (!m.legal.length) { fill(this.el.moves, h("p", {class: "muted"}, "Not your turn.")); return; }
    const fields = new Map((m.moves || []).map((x) => [x.text, x]));
    fill(this.el.moves, h("ul", {class: "plain move-list"}, m.legal.map((mv) => {
      const b = h("button", {type: "button", "data-move": mv}, this.moveWords(mv, fields.get(mv)));
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
    let words = "", label = r.lower_is_better ? "Points (lower is better)" : "Points";
    try {
      words = this.renderer?.resultWords?.(m) || "";
      label = this.renderer?.pointsLabel?.(r) || label;
    } catch (err) { console.error(err); }
    // ranks are 1-based: 1 is the best, ties share a place
    const order = r.points.map((_, p) => p).sort((a, b) => r.ranks[a] - r.ranks[b] || a - b);
    const rows = order.map((p) => h("tr", {class: r.winners.includes(p) ? "winner" : ""},
      h("td", {class: "place"}, ordinal(r.ranks[p])), h("th", {scope: "row"}, this.playerName(p)), h("td", {}, r.points[p])));
    const sb = m.scoreboard;
    fill(e.result,
      h("h2", {}, meWon ? "You won!" : winners.length ? `${winners.join(" & ")} won.` : "Game over."),
      words ? h("p", {class: "result-words"}, words) : r.reason ? h("p", {}, r.reason) : null,
      h("table", {}, h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Place"), h("th", {scope: "col"}, "Player"), h("th", {scope: "col"}, label))),
        h("tbody", {}, rows)),
      sb?.over ? h("p", {class: "match-over"}, "The match is over: " +
        (sb.winners || []).map((x) => this.playerNameOfSeat(x)).join(" & ") + " won it.")
        : (this.isHost ? h("p", {class: "muted"}, "Start the next game or a rematch with the buttons below.") :
          h("p", {class: "muted"}, this.info.auto_next ? "The next game starts shortly." : "The host starts the next game.")),
      h("p", {}, h("a", {href: `/review?table=${this.code}`, id: "review-games"}, "Review the games"), " · ",
        h("a", {href: `/api/tables/${this.code}/records`, download: `parlour-${this.code}.json`}, "Download the records"),
        " · ", h("a", {href: "/"}, "Lobby")));
    if (e.result.hidden) {
      announce(meWon ? "You won!" : "Game over");
      if (meWon) sound.play("win");
    }
    e.result.hidden = false;
  }

  tick() {
    const c = this.el.clock;
    if (this.clockSeat === null) { c.hidden = true; return; }
    const left = Math.max(0, (this.clockEnd - performance.now()) / 1000);
    c.hidden = false;
    c.querySelector(".clock-left").textContent = duration(left);
    c.setAttribute("aria-label", `${duration(left)} left`);
    c.classList.toggle("low", left < 10);
  }

  async copyLink() {
    await copyText(location.origin + "/t/" + this.code);
  }
}

/** 1 -> "1st", 2 -> "2nd", 11 -> "11th". */
function ordinal(n) {
  const tens = n % 100, ones = n % 10;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ones === 1 ? "st" : ones === 2 ? "nd" : ones === 3 ? "rd" : "th";
  return `${n}${suffix}`;
}
