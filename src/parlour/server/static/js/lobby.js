// The lobby: one tap to play the last game against the computer; open a table (game, rules and
// their options, seats and bots, the rest folded under "More options"), join one by code, the
// open tables, this browser's finished games and whose turn it is in them, the tournaments, the
// account and leaderboards. A game's module may add a note on the rules chosen (`lobbyNote`).
import { account, allTokens, api, myTables, remember } from "./api.js";
import { h, fill, toast, duration } from "./dom.js";
import { listTournaments } from "./tournament.js";
import { sound } from "./sound.js";

// Bot speed in words: the pause before each bot move ("" = the server's own pace).
const SPEEDS = [["", "normal"], ["2", "slow: 2 seconds a move"], ["0.3", "fast: a third of a second"]];

// Correspondence play: a move within hours or days, the game kept however long it takes.
const CORRESPONDENCE = [["", "no: play now"], ["43200", "a move within 12 hours"], ["86400", "a move within a day"],
  ["172800", "a move within 2 days"], ["259200", "a move within 3 days"], ["604800", "a move within 7 days"]];

const MATCHES = [
  ["", "the rules' own"], ["single", "one game"], ["rounds-3", "3 rounds"], ["rounds-5", "5 rounds"],
  ["series-3", "series of 3"], ["rubber-5", "short rubber (5, kitty)"], ["rubber-10", "long rubber (10, kitty)"],
  ["elimination-100", "elimination at 100"],
];

export async function lobby(root) {
  document.title = "parlour";
  let games;
  try {
    games = await api("/api/games");
  } catch (e) {
    // a request that never reached the server (a TypeError from fetch): offline, or no server
    const unreachable = !navigator.onLine || e instanceof TypeError;
    fill(root, h("div", {class: "card"}, h("h1", {}, unreachable ? "You are offline, or the server is not running" : "The server did not answer"),
      h("p", {}, unreachable ? "parlour is installed on this device, but its games are played on the server: " +
        "connect to the network (the same Wi-Fi as the server) and try again." : e.message),
      h("p", {}, h("button", {type: "button", class: "primary", onclick: () => location.reload()}, "Try again"))));
    return;
  }
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  const me = await account();
  const lastName = me?.username || localStorage.getItem("parlour:name") || "";

  const gameSel = h("select", {id: "game", name: "game"},
    games.map((g) => h("option", {value: g.name}, g.title)));
  const presetSel = h("select", {id: "preset", name: "preset"});
  const players = h("select", {id: "players", name: "players"});
  const summary = h("p", {class: "summary", id: "game-summary"});
  const optionsBox = h("div", {class: "options", id: "options"});
  const seatsBox = h("div", {class: "seats-config", id: "seats-config"});
  const nameIn = h("input", {id: "name", name: "name", maxlength: 32, required: true, value: lastName,
    autocomplete: "nickname", placeholder: "your name"});
  const clockIn = h("input", {id: "clock", type: "number", min: 0, max: 3600, step: 1, value: 0, inputmode: "numeric"});
  const speedSel = h("select", {id: "bot-speed"}, SPEEDS.map(([v, t]) => h("option", {value: v}, t)));
  const rulesLink = h("a", {id: "rules-link", href: "#"}, "Read these rules");
  const learnLink = h("a", {id: "learn-link", href: "#", hidden: true}, "Learn to play (a short tutorial)");
  const matchSel = h("select", {id: "match"}, MATCHES.map(([v, t]) => h("option", {value: v}, t)));
  const createBtn = h("button", {type: "submit", id: "create", class: "primary"}, "Open the table");
  const gameNote = h("div", {class: "game-note", id: "game-note", "aria-live": "polite"});

  let optionInputs = {};
  const modules = {}; // the games' browser modules, loaded when a game is chosen (for lobbyNote)

  function game() { return byName[gameSel.value]; }

  function drawPresets() {
    const g = game();
    fill(presetSel, g.presets.map((p) => h("option", {value: p, selected: p === g.default_preset}, p)));
    const [lo, hi] = g.players;
    fill(players, range(lo, hi).map((n) => h("option", {value: n, selected: n === g.default_players}, `${n} players`)));
    summary.textContent = g.summary;
    learnLink.hidden = !g.web?.tutorial;
    learnLink.href = `/learn/${g.name}`;
    drawOptions();
    drawSeats();
  }

  function drawOptions() {
    const g = game();
    rulesLink.href = `/rules/${g.name}?preset=${encodeURIComponent(presetSel.value)}`;
    const values = g.preset_rules[presetSel.value] || {};
    optionInputs = {};
    fill(optionsBox, g.options.map((o) => {
      const v = values[o.name];
      let input;
      const id = "opt-" + o.name;
      if (o.type === "bool") input = h("input", {type: "checkbox", id, checked: !!v});
      else if (o.type === "map") input = mapEditor(id, o, v || {});
      else if (o.type.startsWith("list") && o.choices.length) input = multiChoice(id, o, v || []);
      else if (o.choices.length) input = h("select", {id}, o.choices.map((c) => h("option", {value: c, selected: String(v) === c}, c)));
      else if (o.type === "int") input = h("input", {type: "number", id, value: v, step: 1, inputmode: "numeric"});
      else if (o.type.startsWith("list")) input = h("input", {type: "text", id, value: (v || []).join(", ")});
      else input = h("input", {type: "text", id, value: v ?? ""});
      optionInputs[o.name] = {input, option: o, initial: readInput(input, o)};
      const label = o.name.replaceAll("_", " ");
      return h("div", {class: "option" + (o.type === "map" ? " option-map" : "")},
        o.type === "map" ? h("span", {class: "option-name", id: id + "-label"}, label) : h("label", {for: id}, label), input,
        h("small", {}, o.doc));
    }));
  }

  function drawSeats() {
    const g = game();
    const n = Number(players.value);
    const rows = [];
    for (let i = 0; i < n; i++) {
      if (i === 0) { rows.push(h("li", {}, h("span", {class: "seatno"}, "Seat 1"), " you")); continue; }
      const levels = g.levels?.length ? g.levels : g.bots.map((b) => ({name: b, bot: b, words: ""}));
      // hard where the game has it; where the ladder separated fewer levels, the strongest
      const preferred = levels.find((lv) => lv.name === "hard") || levels[levels.length - 1];
      const sel = h("select", {"data-seat": i, "aria-label": `Seat ${i + 1}`},
        h("option", {value: ""}, "a friend (invite)"),
        h("option", {value: "here"}, "someone here (pass and play)"),
        levels.map((lv) => h("option", {value: lv.bot, "data-level": lv.name, selected: lv === preferred, title: levelWords(lv, presetSel.value, n)}, `bot: ${lv.name}`)));
      // pass and play: another person at this device, by name; the device is handed over each turn
      const who = h("input", {class: "here-name", "data-here": i, maxlength: 32, placeholder: "their name",
        "aria-label": `Seat ${i + 1}: the name of the person here`, hidden: true});
      sel.addEventListener("change", () => { who.hidden = sel.value !== "here"; if (!who.hidden) who.focus(); });
      rows.push(h("li", {}, h("span", {class: "seatno"}, `Seat ${i + 1}`), " ", sel, who));
    }
    const levels = (g.levels || []).filter((lv) => lv.words);
    const figures = levels.map((lv) => [lv, levelFigure(lv, presetSel.value, n)]).filter(([, f]) => f);
    fill(seatsBox, h("ul", {class: "plain"}, rows),
      n > 1 && levels.length ? h("dl", {class: "levels-legend"}, levels.map((lv) => [h("dt", {}, lv.name),
        h("dd", {}, lv.words + ".")])) : null,
      n > 1 && figures.length ? h("details", {class: "levels-figures", id: "levels-figures"},
        h("summary", {}, "How the levels were measured"),
        h("dl", {class: "levels-legend"}, figures.map(([lv, f]) => [h("dt", {}, lv.name), h("dd", {}, `${f.text}.`)]))) : null);
    drawNote();
  }

  /** The game's own note on the rules as chosen (e.g. how many packs, and why), from its
   * browser module; it may offer to change an option with one tap. */
  async function drawNote() {
    const g = game();
    fill(gameNote);
    if (!g.web?.module) return;
    try {
      modules[g.name] ??= import(g.web.module);
      const mod = await modules[g.name];
      if (game() !== g || typeof mod.lobbyNote !== "function") return;
      const rules = {...(g.preset_rules[presetSel.value] || {}), ...overrides()};
      fill(gameNote, mod.lobbyNote(rules, Number(players.value), {
        set: (name, value) => {
          const entry = optionInputs[name];
          if (!entry) return;
          if (entry.input.type === "checkbox") entry.input.checked = !!value; else entry.input.value = String(value);
          drawNote();
        },
      }));
    } catch (err) { console.error(err); }
  }

  function overrides() {
    const out = {};
    for (const [name, {input, option, initial}] of Object.entries(optionInputs)) {
      const v = readInput(input, option);
      if (JSON.stringify(v) !== JSON.stringify(initial)) out[name] = v;
    }
    return out;
  }

  gameSel.addEventListener("change", drawPresets);
  presetSel.addEventListener("change", () => { drawOptions(); drawSeats(); });
  players.addEventListener("change", drawSeats);
  optionsBox.addEventListener("change", drawNote);

  const corrSel = h("select", {id: "correspondence"}, CORRESPONDENCE.map(([v, t]) => h("option", {value: v}, t)));
  const timeoutSel = h("select", {id: "on-timeout"},
    h("option", {value: "move"}, "the move it must make is played for them"),
    h("option", {value: "bot"}, "a bot takes their seat"));
  const timeoutRow = h("div", {class: "row", hidden: true}, h("label", {for: "on-timeout"}, "Out of time"), timeoutSel);
  corrSel.addEventListener("change", () => { timeoutRow.hidden = !corrSel.value; });
  const privateIn = h("input", {type: "checkbox", id: "private"});
  // rated tables are for accounts: every person seated is logged in (bots are rated too)
  const ratedIn = h("input", {type: "checkbox", id: "rated", disabled: !me, "aria-describedby": "rated-why"});
  const ratedWhy = h("small", {id: "rated-why", class: "muted"}, me
    ? "every person at the table is logged in; the result moves everyone's rating"
    : h("span", {}, h("a", {href: "/account"}, "Log in"), " to play rated games"));
  const idleSel = h("select", {id: "on-idle"},
    h("option", {value: "bot"}, "is replaced by a bot"),
    h("option", {value: "free"}, "frees the seat for someone else"),
    h("option", {value: "never"}, "keeps the seat (the game waits)"));
  const form = h("form", {id: "create-form", class: "card"},
    h("h2", {}, "Open a table"),
    h("div", {class: "row"}, h("label", {for: "game"}, "Game"), gameSel),
    summary,
    h("div", {class: "row"}, h("label", {for: "preset"}, "Rules"), presetSel, rulesLink),
    h("p", {class: "learn-row"}, learnLink),
    gameNote,
    h("details", {class: "opts"}, h("summary", {}, "Rule options"), optionsBox),
    h("div", {class: "row"}, h("label", {for: "players"}, "Seats"), players),
    seatsBox,
    h("div", {class: "row"}, h("label", {for: "name"}, "Your name"), nameIn),
    // what most tables never change, one tap away
    h("details", {class: "more-options", id: "more-options"},
      h("summary", {}, "More options: bot speed, clock, match, privacy, rated"),
      h("div", {class: "row"}, h("label", {for: "bot-speed"}, "Bot speed"), speedSel),
      h("div", {class: "row"}, h("label", {for: "clock"}, "Move clock (seconds, 0 = none)"), clockIn),
      h("div", {class: "row"}, h("label", {for: "match"}, "Match"), matchSel),
      h("div", {class: "row"}, h("label", {for: "correspondence"}, "By correspondence"), corrSel),
      timeoutRow,
      h("div", {class: "row"}, h("label", {}, privateIn, " Private: not listed, friends join by the link")),
      h("div", {class: "row"}, h("label", {}, ratedIn, " Rated"), ratedWhy),
      h("div", {class: "row"}, h("label", {for: "on-idle"}, "A player gone for 5 minutes"), idleSel)),
    createBtn);

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = nameIn.value.trim();
    if (!name) { toast("Please give your name."); nameIn.focus(); return; }
    localStorage.setItem("parlour:name", name);
    const bots = {}, here = {};
    // a level is asked for by its name: the server plays the level's bot and names the seat after it
    for (const sel of seatsBox.querySelectorAll("select[data-seat]")) {
      const seat = sel.dataset.seat;
      if (sel.value === "here") {
        here[seat] = seatsBox.querySelector(`input[data-here="${seat}"]`).value.trim() || `Player ${Number(seat) + 1}`;
      } else if (sel.value) bots[seat] = sel.selectedOptions[0].dataset.level || sel.value;
    }
    const body = {game: gameSel.value, preset: presetSel.value, players: Number(players.value),
      options: overrides(), bots, name};
    if (Object.keys(here).length) {
      if (ratedIn.checked) { toast("A rated table seats logged-in people, each at their own device: pass and play is unrated."); return; }
      body.here = here;
    }
    const clock = Number(clockIn.value);
    if (clock > 0) body.move_clock = clock;
    if (speedSel.value) body.bot_delay = Number(speedSel.value);
    if (matchSel.value) body.match = matchSel.value;
    body.private = privateIn.checked;
    if (ratedIn.checked) body.rated = true;
    if (idleSel.value === "never") body.idle_timeout = 0;
    else body.on_idle = idleSel.value;
    if (corrSel.value) {
      body.correspondence = true;
      body.move_clock = Number(corrSel.value);
      body.on_timeout = timeoutSel.value;
      delete body.idle_timeout;
    }
    createBtn.disabled = true;
    const firstBot = seatsBox.querySelector("select[data-seat]");
    const level = firstBot?.selectedOptions[0]?.dataset.level;
    if (level) rememberPlay({game: body.game, preset: body.preset, players: body.players, level});
    try {
      const t = await api("/api/tables", body);
      remember(t.code, {token: t.token, seat: t.seat, host: t.host_token, game: body.game, here: t.here || []});
      location.href = t.link;
    } catch (err) {
      toast("The table could not be opened: " + err.message);
      createBtn.disabled = false;
    }
  });

  const codeIn = h("input", {id: "code", maxlength: 12, placeholder: "code", autocapitalize: "characters",
    "aria-label": "Table code", pattern: "[A-Za-z0-9]{4,12}"});
  const joinForm = h("form", {id: "join-form", class: "card"},
    h("h2", {}, "Join a table"),
    h("p", {}, "Open the link a friend sent, or type its code:"),
    h("div", {class: "row"}, codeIn, h("button", {type: "submit"}, "Go")));
  joinForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const code = codeIn.value.trim().toUpperCase();
    if (/^[A-Z0-9]{4,12}$/.test(code)) location.href = "/t/" + code;
    else toast("A table code is 4 to 12 letters and digits.");
  });

  const accountCard = h("section", {class: "card", id: "account-card"}, h("h2", {}, "Players"),
    me ? h("p", {}, "Logged in as ", h("a", {href: me.profile, id: "profile-link"}, me.username), " · ", h("a", {href: "/account"}, "account"))
      : h("p", {}, h("a", {href: "/account", id: "account-link"}, "Log in or sign up"), h("span", {class: "muted"}, " (optional: for rated games)")),
    h("p", {class: "small"}, "Leaderboards: ", games.map((g, i) => [i ? " · " : "", h("a", {href: `/leaderboard/${g.name}`}, g.title)])));
  const openList = h("ul", {id: "open-tables", class: "tables"});
  const doneList = h("ul", {id: "my-games", class: "tables"});
  const tournamentList = h("ul", {id: "lobby-tournaments", class: "tables"});
  const turnList = h("ul", {id: "my-turns", class: "tables"});
  fill(root,
    h("h1", {class: "lobby-title"}, "Play a game"),
    playNow(games, byName, me, () => { form.scrollIntoView({block: "start"}); gameSel.focus(); }),
    // above the form: a phone shows the games waiting for you without scrolling
    h("section", {class: "card", id: "turns-card", hidden: true}, h("h2", {}, "Your turn"), turnList),
    h("div", {class: "lobby"}, form,
      h("div", {class: "side"}, accountCard,
        h("section", {class: "card", id: "quick-card"}, h("h2", {}, "Quick match"),
          h("p", {}, "Play now with people of about your rating (bots too, if you like): ",
            h("a", {href: "/quick", id: "quick-link"}, "find a match"), ".")),
        joinForm,
        h("section", {class: "card"}, h("h2", {}, "Tables waiting for players"), openList),
        h("section", {class: "card"}, h("h2", {}, "Tournaments"), tournamentList,
          h("p", {class: "small"}, h("a", {href: "/tournaments", id: "tournaments-link"}, "Every tournament, or make one"))),
        h("section", {class: "card"}, h("h2", {}, "Your finished games"), doneList,
          h("p", {class: "small"}, h("a", {href: "/review"}, "Review a game from a record file"))),
        h("p", {class: "small"}, "The HTTP API: ", h("a", {href: "/docs"}, "/docs"), "."))));
  // /?game=NAME&preset=NAME (from a rules page): that game and rule set chosen
  const asked = new URLSearchParams(location.search);
  const last = lastPlay();
  // the game asked for by the link, else the last one played here, else the house's first
  const first = [asked.get("game"), last?.game].find((x) => byName[x]) || games[0].name;
  gameSel.value = first;
  drawPresets();
  const preset = asked.get("preset") || (first === last?.game ? last.preset : null);
  if (game().presets.includes(preset)) { presetSel.value = preset; drawOptions(); drawSeats(); }
  listTables(openList, byName);
  listFinished(doneList, byName);
  listTournaments(tournamentList, 5);
  listTurns(turnList);
  // the games waiting for you, asked again while the lobby stays open (no outside push service):
  // the list, the tab's title, the installed app's badge, and a sound when a new turn comes
  setInterval(() => { if (!document.hidden || document.title.startsWith("(")) listTurns(turnList); }, TURNS_EVERY);
}

const TURNS_EVERY = 30_000; // ms between two looks at whose turn it is, the lobby open
let turnsSeen = null;       // the tables where it was your turn at the last look

/** The tables where this browser holds a seat, and whose turn it is at each (GET /api/my-turns):
 * shown when there is at least one game going on; the tab's title counts your turns. */
async function listTurns(ul) {
  const tokens = allTokens().slice(0, 50);
  if (!tokens.length) return;
  let rows = [];
  try {
    const r = await fetch("/api/my-turns", {headers: {"X-Seat-Tokens": tokens.join(",")}});
    if (!r.ok) return;
    // one line a table: a device holding several seats there (pass and play) has its turn on
    // whichever seat is to play
    const byCode = new Map();
    for (const x of (await r.json()).filter((y) => y.status === "playing")) {
      if (!byCode.has(x.code) || (x.your_turn && !byCode.get(x.code).your_turn)) byCode.set(x.code, x);
    }
    rows = [...byCode.values()];
  } catch { return; }
  const yours = rows.filter((x) => x.your_turn);
  document.title = yours.length ? `(${yours.length}) Your turn · parlour` : "parlour";
  try { if (yours.length) navigator.setAppBadge?.(yours.length); else navigator.clearAppBadge?.(); } catch { /* not installed */ }
  const codes = new Set(yours.map((x) => x.code));
  if (turnsSeen && [...codes].some((c) => !turnsSeen.has(c))) sound.play("turn");
  turnsSeen = codes;
  if (!rows.length) { ul.closest("section").hidden = true; return; }
  const now = Date.now() / 1000;
  fill(ul, rows.map((x) => h("li", {class: x.your_turn ? "yours" : ""},
    h("a", {href: x.link}, `${x.title} · ${x.code}`), " ",
    h("span", {class: x.your_turn ? "" : "muted"}, x.your_turn ? "your turn" : "waiting for the others"),
    x.your_turn && x.deadline ? h("span", {class: "muted"}, ` · ${duration(x.deadline - now)} left`) : null,
    x.correspondence ? h("span", {class: "muted small"}, " · by correspondence") : null)));
  ul.closest("section").hidden = false;
}

/** Several of a fixed set (a list option with choices): one checkbox each. A list has an order,
 * so the value is the choices in the order they were ticked, and each ticked box shows its place
 * in it ("1", "2", ...): an option where the order matters says so in its words. */
function multiChoice(id, option, value) {
  const order = value.filter((c) => option.choices.includes(c));
  const places = new Map();
  const box = h("fieldset", {id, class: "multi", "data-multi": "1"},
    h("legend", {class: "sr-only"}, option.name.replaceAll("_", " ")));
  const number = () => {
    for (const [c, place] of places) {
      const i = order.indexOf(c);
      place.textContent = i < 0 ? "" : `(${i + 1})`;
    }
    box.dataset.order = JSON.stringify(order);
  };
  for (const c of option.choices) {
    const tick = h("input", {type: "checkbox", value: c, checked: order.includes(c)});
    const place = h("span", {class: "muted small", "data-place": c});
    places.set(c, place);
    tick.addEventListener("change", () => {
      const i = order.indexOf(c);
      if (tick.checked && i < 0) order.push(c);
      else if (!tick.checked && i >= 0) order.splice(i, 1);
      number();
    });
    box.append(h("label", {}, tick, " ", c, " ", place));
  }
  number();
  return box;
}

function readInput(input, option) {
  if (option.type === "bool") return input.checked;
  if (input.dataset.multi) return JSON.parse(input.dataset.order);
  if (option.type === "int" && !option.choices.length) return Number(input.value);
  if (option.type === "map") {
    const out = {};
    for (const row of input.querySelectorAll(".map-row")) {
      const k = row.querySelector(".map-key").value.trim();
      const v = row.querySelector(".map-value").value.trim();
      if (k && v) out[k] = v;
    }
    return out;
  }
  if (option.type.startsWith("list")) return input.value.split(",").map((x) => x.trim()).filter(Boolean);
  return input.value;
}

/** A map option (number -> power, say): one row per entry, each key and value editable, rows
 * added and removed; values from the option's choices where it has them. */
function mapEditor(id, option, value) {
  const rows = h("div", {class: "map-rows"});
  const box = h("div", {id, class: "map-editor", role: "group", "aria-labelledby": id + "-label", "data-map": "1"}, rows);
  const addRow = (k = "", v = "") => {
    const key = h("input", {type: "text", class: "map-key", value: k, size: 4, inputmode: "numeric",
      "aria-label": `${option.name.replaceAll("_", " ")}: key`});
    const val = option.choices.length
      ? h("select", {class: "map-value", "aria-label": "its value"},
        option.choices.map((c) => h("option", {value: c, selected: c === v}, c.replaceAll("_", " "))))
      : h("input", {type: "text", class: "map-value", value: v, "aria-label": "its value"});
    const del = h("button", {type: "button", class: "small-btn map-del", "aria-label": `remove ${k || "this row"}`}, "Remove");
    const row = h("div", {class: "map-row"}, key, h("span", {"aria-hidden": "true"}, "→"), val, del);
    del.addEventListener("click", () => row.remove());
    rows.append(row);
    return key;
  };
  const entries = Object.entries(value).sort((a, b) => Number(a[0]) - Number(b[0]) || a[0].localeCompare(b[0]));
  for (const [k, v] of entries) addRow(k, v);
  const add = h("button", {type: "button", class: "small-btn map-add"}, "Add one");
  add.addEventListener("click", () => addRow().focus());
  box.append(add);
  return box;
}

/** What a level's bot does and, measured on the bot ladder (docs/bots.md), how often it beat the
 * level below: the figure of these rules at this table size, else of these rules, else the first. */
function levelWords(lv, preset, players) {
  const m = levelFigure(lv, preset, players);
  return m ? `${lv.words}; ${m.text}` : lv.words;
}

function levelFigure(lv, preset, players) {
  const figures = lv.vs_below || [];
  return figures.find((f) => f.rules === preset && f.players === players)
    || figures.find((f) => f.rules === preset) || figures[0] || null;
}

const PLAY_KEY = "parlour:play-now";

/** The game, rules, table size and level last chosen here ("play now" plays them again). */
function lastPlay() {
  try { return JSON.parse(localStorage.getItem(PLAY_KEY) || "null"); } catch { return null; }
}

function rememberPlay(choice) {
  localStorage.setItem(PLAY_KEY, JSON.stringify(choice));
}

/** One tap to play: the last game, rules and level chosen here (at first the house's first game,
 * two players, its middle level) against the computer. */
function playNow(games, byName, me, elsewhere) {
  const last = lastPlay();
  const g = byName[last?.game] || games[0];
  const preset = g.presets.includes(last?.preset) ? last.preset : g.default_preset;
  const [lo, hi] = g.players;
  const players = Math.min(hi, Math.max(lo, Number(last?.players) || 2));
  const levels = g.levels?.length ? g.levels : g.bots.map((b) => ({name: b, bot: b, words: ""}));
  const level = levels.find((lv) => lv.name === last?.level) || levels.find((lv) => lv.name === "medium") || levels[0];
  const known = me?.username || localStorage.getItem("parlour:name") || "";
  const nameIn = known ? null : h("input", {id: "play-now-name", maxlength: 32, placeholder: "your name",
    "aria-label": "Your name", autocomplete: "nickname"});
  const go = h("button", {type: "button", class: "primary play-now-btn", id: "play-now-btn"},
    `Play ${g.title} against the computer`);
  go.addEventListener("click", async () => {
    const name = known || nameIn?.value.trim() || "Player";
    if (nameIn?.value.trim()) localStorage.setItem("parlour:name", name);
    const bots = {};
    for (let seat = 1; seat < players; seat++) bots[seat] = level.name;
    go.disabled = true;
    try {
      const t = await api("/api/tables", {game: g.name, preset, players, bots, name});
      rememberPlay({game: g.name, preset, players, level: level.name});
      remember(t.code, {token: t.token, seat: t.seat, host: t.host_token, game: g.name});
      location.href = t.link;
    } catch (err) {
      toast("The table could not be opened: " + err.message);
      go.disabled = false;
    }
  });
  const others = players === 2 ? `the ${level.name} bot` : `${players - 1} ${level.name} bots`;
  const change = h("a", {href: "#create-form", id: "play-now-change"}, "another game, rules or level");
  change.addEventListener("click", (ev) => { ev.preventDefault(); elsewhere(); });
  return h("section", {class: "card play-now", id: "play-now"},
    go,
    h("p", {class: "small", id: "play-now-what"}, `${preset} rules · you and ${others}` +
      (level.words ? ` (${level.words})` : "") + " · ", change),
    nameIn ? h("div", {class: "row"}, h("label", {for: "play-now-name"}, "Your name"), nameIn) : null);
}

function range(lo, hi) { const out = []; for (let i = lo; i <= hi; i++) out.push(i); return out; }

async function listTables(ul, byName) {
  let tables = [];
  try { tables = await api("/api/tables"); } catch (e) { fill(ul, h("li", {}, "(could not load: " + e.message + ")")); return; }
  const mine = myTables();
  if (!tables.length) { fill(ul, h("li", {class: "muted"}, "No tables are waiting for players.")); return; }
  // only tables waiting for players are listed, and not who sits at them
  fill(ul, tables.slice(0, 30).map((t) => h("li", {},
    h("a", {href: "/t/" + t.code}, (t.title || byName[t.game]?.title || t.game) + " · " + t.code),
    " ", h("span", {class: "muted"}, `${t.preset || "house rules"} · ${t.players} players` +
      ` · ${t.free} free seat${t.free === 1 ? "" : "s"}` + (t.rated ? " · rated" : "") + (mine[t.code] ? " · your seat" : "")))));
}

async function listFinished(ul, byName) {
  const mine = myTables();
  const codes = Object.keys(mine);
  if (!codes.length) { fill(ul, h("li", {class: "muted"}, "None yet.")); return; }
  let rows = [];
  try { rows = (await api("/api/history?limit=200")).games.filter((g) => mine[g.table]); } catch { rows = []; }
  if (!rows.length) { fill(ul, h("li", {class: "muted"}, "None yet.")); return; }
  fill(ul, rows.slice(0, 30).map((g) => {
    const winners = (g.result?.winners || []).map((p) => g.players[p] || `Seat ${p + 1}`);
    return h("li", {},
      h("a", {href: "/t/" + g.table}, `${byName[g.game]?.title || g.game} · ${g.table} #${g.number + 1}`),
      " ", h("span", {class: "muted"}, winners.length ? "won by " + winners.join(" & ") : ""),
      " ", h("a", {href: `/review/${g.id}`, class: "small review-link"}, "review"),
      " ", h("a", {href: `/api/history/${g.id}/record`, download: `parlour-${g.id}.json`, class: "small"}, "record"));
  }));
}
