// The lobby: open a table (game, rules and their options, seats and bots, clock, match),
// join one by code, the open tables, and this browser's finished games.
import { api, myTables, remember } from "./api.js";
import { h, fill, toast } from "./dom.js";

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
    fill(root, h("p", {class: "problem"}, "The server did not answer: " + e.message));
    return;
  }
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  const lastName = localStorage.getItem("parlour:name") || "";

  const gameSel = h("select", {id: "game", name: "game"},
    games.map((g) => h("option", {value: g.name}, g.title)));
  const presetSel = h("select", {id: "preset", name: "preset"});
  const players = h("select", {id: "players", name: "players"});
  const summary = h("p", {class: "summary", id: "game-summary"});
  const optionsBox = h("div", {class: "options", id: "options"});
  const seatsBox = h("div", {class: "seats-config", id: "seats-config"});
  const nameIn = h("input", {id: "name", name: "name", maxlength: 32, required: true, value: lastName,
    autocomplete: "nickname", placeholder: "your name"});
  const clockIn = h("input", {id: "clock", type: "number", min: 0, max: 3600, step: 5, value: 0, inputmode: "numeric"});
  const matchSel = h("select", {id: "match"}, MATCHES.map(([v, t]) => h("option", {value: v}, t)));
  const createBtn = h("button", {type: "submit", id: "create", class: "primary"}, "Open the table");

  let optionInputs = {};

  function game() { return byName[gameSel.value]; }

  function drawPresets() {
    const g = game();
    fill(presetSel, g.presets.map((p) => h("option", {value: p, selected: p === g.default_preset}, p)));
    const [lo, hi] = g.players;
    fill(players, range(lo, hi).map((n) => h("option", {value: n, selected: n === g.default_players}, `${n} players`)));
    summary.textContent = g.summary;
    drawOptions();
    drawSeats();
  }

  function drawOptions() {
    const g = game();
    const values = g.preset_rules[presetSel.value] || {};
    optionInputs = {};
    fill(optionsBox, g.options.map((o) => {
      const v = values[o.name];
      let input;
      const id = "opt-" + o.name;
      if (o.type === "bool") input = h("input", {type: "checkbox", id, checked: !!v});
      else if (o.type.startsWith("list") && o.choices.length) {
        // several of a fixed set (Whot! declarations, WHOT's powers): one checkbox each
        input = h("fieldset", {id, class: "multi", "data-multi": "1"},
          h("legend", {class: "sr-only"}, o.name.replaceAll("_", " ")),
          o.choices.map((c) => h("label", {}, h("input", {type: "checkbox", value: c, checked: (v || []).includes(c)}), " ", c)));
      } else if (o.choices.length) input = h("select", {id}, o.choices.map((c) => h("option", {value: c, selected: String(v) === c}, c)));
      else if (o.type === "int") input = h("input", {type: "number", id, value: v, step: 1, inputmode: "numeric"});
      else if (o.type === "map") input = h("input", {type: "text", id, value: Object.entries(v || {}).map(([k, x]) => `${k}:${x}`).join(", ")});
      else if (o.type.startsWith("list")) input = h("input", {type: "text", id, value: (v || []).join(", ")});
      else input = h("input", {type: "text", id, value: v ?? ""});
      optionInputs[o.name] = {input, option: o, initial: readInput(input, o)};
      return h("div", {class: "option"},
        h("label", {for: id}, o.name.replaceAll("_", " ")), input,
        h("small", {}, o.doc));
    }));
  }

  function drawSeats() {
    const g = game();
    const n = Number(players.value);
    const rows = [];
    for (let i = 0; i < n; i++) {
      if (i === 0) { rows.push(h("li", {}, h("span", {class: "seatno"}, "Seat 1"), " you")); continue; }
      const sel = h("select", {"data-seat": i, "aria-label": `Seat ${i + 1}`},
        h("option", {value: ""}, "a friend (invite)"),
        g.bots.map((b) => h("option", {value: b, selected: b === (g.bots.includes("hint") ? "hint" : g.bots[0])}, `${b} bot`)));
      rows.push(h("li", {}, h("span", {class: "seatno"}, `Seat ${i + 1}`), " ", sel));
    }
    fill(seatsBox, h("ul", {class: "plain"}, rows));
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
  presetSel.addEventListener("change", drawOptions);
  players.addEventListener("change", drawSeats);

  const form = h("form", {id: "create-form", class: "card"},
    h("h2", {}, "Open a table"),
    h("div", {class: "row"}, h("label", {for: "game"}, "Game"), gameSel),
    summary,
    h("div", {class: "row"}, h("label", {for: "preset"}, "Rules"), presetSel),
    h("details", {class: "opts"}, h("summary", {}, "Rule options"), optionsBox),
    h("div", {class: "row"}, h("label", {for: "players"}, "Seats"), players),
    seatsBox,
    h("div", {class: "row"}, h("label", {for: "clock"}, "Move clock (seconds, 0 = none)"), clockIn),
    h("div", {class: "row"}, h("label", {for: "match"}, "Match"), matchSel),
    h("div", {class: "row"}, h("label", {for: "name"}, "Your name"), nameIn),
    createBtn);

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = nameIn.value.trim();
    if (!name) { toast("Please give your name."); nameIn.focus(); return; }
    localStorage.setItem("parlour:name", name);
    const bots = {};
    for (const sel of seatsBox.querySelectorAll("select[data-seat]")) if (sel.value) bots[sel.dataset.seat] = sel.value;
    const body = {game: gameSel.value, preset: presetSel.value, players: Number(players.value),
      options: overrides(), bots, name};
    const clock = Number(clockIn.value);
    if (clock > 0) body.move_clock = clock;
    if (matchSel.value) body.match = matchSel.value;
    createBtn.disabled = true;
    try {
      const t = await api("/api/tables", body);
      remember(t.code, {token: t.token, seat: t.seat, host: t.host_token, game: body.game});
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

  const openList = h("ul", {id: "open-tables", class: "tables"});
  const doneList = h("ul", {id: "my-games", class: "tables"});
  fill(root,
    h("div", {class: "lobby"}, form,
      h("div", {class: "side"}, joinForm,
        h("section", {class: "card"}, h("h2", {}, "Open tables"), openList),
        h("section", {class: "card"}, h("h2", {}, "Your finished games"), doneList),
        h("p", {class: "small"}, "The HTTP API: ", h("a", {href: "/docs"}, "/docs"), "."))));
  drawPresets();
  listTables(openList, byName);
  listFinished(doneList, byName);
}

function readInput(input, option) {
  if (option.type === "bool") return input.checked;
  if (input.dataset.multi) return [...input.querySelectorAll("input:checked")].map((x) => x.value);
  if (option.type === "int" && !option.choices.length) return Number(input.value);
  if (option.type === "map") {
    const out = {};
    for (const part of input.value.split(",").map((x) => x.trim()).filter(Boolean)) {
      const [k, v] = part.split(":").map((x) => x.trim());
      out[k] = v;
    }
    return out;
  }
  if (option.type.startsWith("list")) return input.value.split(",").map((x) => x.trim()).filter(Boolean);
  return input.value;
}

function range(lo, hi) { const out = []; for (let i = lo; i <= hi; i++) out.push(i); return out; }

async function listTables(ul, byName) {
  let tables = [];
  try { tables = await api("/api/tables"); } catch (e) { fill(ul, h("li", {}, "(could not load: " + e.message + ")")); return; }
  const mine = myTables();
  if (!tables.length) { fill(ul, h("li", {class: "muted"}, "No open tables yet.")); return; }
  fill(ul, tables.slice(0, 30).map((t) => {
    const free = t.seats.filter((s) => !s.filled).length;
    const names = t.seats.map((s) => s.name || "—").join(", ");
    return h("li", {},
      h("a", {href: "/t/" + t.code}, (byName[t.game]?.title || t.game) + " · " + t.code),
      " ", h("span", {class: "muted"}, `${t.preset || "house rules"} · ${t.status}` +
        (free ? ` · ${free} free seat${free > 1 ? "s" : ""}` : "") + (mine[t.code] ? " · your seat" : "")),
      h("div", {class: "small"}, names));
  }));
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
      " ", h("a", {href: `/api/history/${g.id}/record`, download: `parlour-${g.id}.json`, class: "small"}, "record"));
  }));
}
