// Tournaments: the list with a form to make one (/tournaments), and a tournament's page
// (/tournaments/ID): join, start (its maker), the standings with places from 1, and every round's
// tables — play at your own (your entrant token is your seat token there), watch the others, and
// review a finished game. The page reads the server again every few seconds while it runs.
import { api, remember } from "./api.js";
import { h, fill, toast } from "./dom.js";

const KEY = "parlour:tournaments";

/** The tournaments this browser has entered or made: {id: {token, number, host}}. */
function mine() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

function keep(id, entry) {
  const all = mine();
  all[id] = {...(all[id] || {}), ...entry};
  localStorage.setItem(KEY, JSON.stringify(all));
}

const FORMAT_WORDS = {
  swiss: "Swiss: tables of two, paired by score; ties by Buchholz",
  elimination: "elimination: tables of 3 or 4, the better half of each goes through",
};
const STATUS_WORDS = {open: "taking entrants", running: "being played", finished: "finished"};

export function statusLine(t) {
  if (t.status === "running") return t.rounds ? `round ${t.round} of ${t.rounds}` : `round ${t.round}`;
  return STATUS_WORDS[t.status] || t.status;
}

/** The list of tournaments (for the lobby too): each a link with its game, format and state. */
export async function listTournaments(ul, limit = 30) {
  let rows = [];
  try { rows = await api("/api/tournaments"); } catch (e) { fill(ul, h("li", {}, "(could not load: " + e.message + ")")); return; }
  if (!rows.length) { fill(ul, h("li", {class: "muted"}, "No tournaments yet.")); return; }
  fill(ul, rows.slice(0, limit).map((t) => h("li", {},
    h("a", {href: t.link}, t.title),
    " ", h("span", {class: "muted"}, `${t.game_title} · ${t.format} · ${t.entrants} of ${t.max_entrants} · ${statusLine(t)}`))));
}

export async function tournamentsHome(root) {
  document.title = "Tournaments · parlour";
  let games = [];
  try { games = await api("/api/games"); } catch (e) { fill(root, h("p", {}, e.message)); return; }
  const gameSel = h("select", {id: "t-game"}, games.map((g) => h("option", {value: g.name}, g.title)));
  const presetSel = h("select", {id: "t-preset"});
  const formatSel = h("select", {id: "t-format"},
    h("option", {value: "swiss"}, "Swiss (tables of 2)"),
    h("option", {value: "elimination"}, "elimination (tables of 3–4)"));
  const sizeIn = h("input", {id: "t-size", type: "number", min: 2, max: 128, value: 8, inputmode: "numeric"});
  const botSel = h("select", {id: "t-bots"});
  const titleIn = h("input", {id: "t-title", maxlength: 32, placeholder: "a name for it"});
  const nameIn = h("input", {id: "t-name", maxlength: 32, value: localStorage.getItem("parlour:name") || "",
    autocomplete: "nickname", placeholder: "your name (to play in it)"});
  const go = h("button", {type: "submit", class: "primary", id: "t-create"}, "Make the tournament");
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  function drawGame() {
    const g = byName[gameSel.value];
    fill(presetSel, g.presets.map((p) => h("option", {value: p, selected: p === g.default_preset}, p)));
    const levels = g.levels?.length ? g.levels : g.bots.map((b) => ({name: b, bot: b}));
    fill(botSel, h("option", {value: ""}, "no bots: only those who join"),
      levels.map((lv) => h("option", {value: lv.bot, "data-level": lv.name, selected: lv.name === "hard"}, `bots: ${lv.name}`)));
  }
  gameSel.addEventListener("change", drawGame);
  drawGame();
  const form = h("form", {class: "card", id: "t-form"}, h("h2", {}, "Make a tournament"),
    h("div", {class: "row"}, h("label", {for: "t-game"}, "Game"), gameSel),
    h("div", {class: "row"}, h("label", {for: "t-preset"}, "Rules"), presetSel),
    h("div", {class: "row"}, h("label", {for: "t-format"}, "Format"), formatSel),
    h("p", {class: "small muted"}, "Swiss: every round pairs players of the same score who have not met; " +
      "ties by Buchholz. Elimination: tables of 3 or 4, the better half of each goes through to the final table."),
    h("div", {class: "row"}, h("label", {for: "t-size"}, "Entrants (at most)"), sizeIn),
    h("div", {class: "row"}, h("label", {for: "t-bots"}, "Empty places at the start"), botSel),
    h("div", {class: "row"}, h("label", {for: "t-title"}, "Name"), titleIn),
    h("div", {class: "row"}, h("label", {for: "t-name"}, "Your name"), nameIn),
    go);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = {game: gameSel.value, preset: presetSel.value, format: formatSel.value, size: Number(sizeIn.value)};
    if (botSel.value) body.bot_fill = botSel.selectedOptions[0].dataset.level || botSel.value;  // a level by its name
    if (titleIn.value.trim()) body.title = titleIn.value.trim();
    if (nameIn.value.trim()) { body.name = nameIn.value.trim(); localStorage.setItem("parlour:name", body.name); }
    go.disabled = true;
    try {
      const t = await api("/api/tournaments", body);
      keep(t.id, {host: t.host_token, token: t.token, number: t.number});
      location.href = t.link;
    } catch (err) {
      toast("The tournament could not be made: " + err.message);
      go.disabled = false;
    }
  });
  const list = h("ul", {id: "tournament-list", class: "tables"});
  fill(root, h("div", {class: "lobby"}, form,
    h("div", {class: "side"}, h("section", {class: "card"}, h("h2", {}, "Tournaments"), list),
      h("p", {class: "small"}, h("a", {href: "/"}, "Back to the tables")))));
  listTournaments(list);
}

export async function tournamentPage(root, id) {
  let timer = 0;
  async function draw() {
    let t;
    try { t = await api(`/api/tournaments/${id}`); } catch (e) {
      fill(root, h("div", {class: "card"}, h("h1", {}, "No such tournament"), h("p", {}, e.message),
        h("p", {}, h("a", {href: "/tournaments"}, "Every tournament"))));
      return;
    }
    document.title = `${t.title} · parlour`;
    const me = mine()[t.id] || {};
    const head = h("section", {class: "card", id: "t-head"},
      h("h1", {}, t.title),
      h("p", {}, `${t.game_title} (${t.preset}) · ${FORMAT_WORDS[t.format]}`),
      h("p", {id: "t-status"}, h("strong", {}, statusLine(t)), ` · ${t.entrants.length} of ${t.max_entrants} entrants`,
        t.bot_fill ? ` · empty places become ${t.bot_fill} bots at the start` : ""),
      me.number ? h("p", {}, `You are entrant ${me.number}.`) : null,
      joinForm(t, me), startButton(t, me, draw));
    fill(root, h("div", {class: "tournament"}, head, standingsCard(t, me), roundsCard(t, me),
      h("p", {class: "small"}, h("a", {href: "/tournaments"}, "Every tournament"), " · ", h("a", {href: "/"}, "the tables"))));
    clearTimeout(timer);
    if (t.status !== "finished") timer = setTimeout(draw, 3000);
  }
  await draw();
}

function joinForm(t, me) {
  if (t.status !== "open" || me.number) return null;
  const nameIn = h("input", {id: "t-join-name", maxlength: 32, value: localStorage.getItem("parlour:name") || "",
    "aria-label": "Your name", placeholder: "your name"});
  const form = h("form", {id: "t-join", class: "row"}, nameIn, h("button", {type: "submit", class: "primary"}, "Enter"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const got = await api(`/api/tournaments/${t.id}/join`, {name: nameIn.value.trim()});
      localStorage.setItem("parlour:name", nameIn.value.trim());
      keep(t.id, {token: got.token, number: got.number});
      location.reload();
    } catch (err) { toast("Could not enter: " + err.message); }
  });
  return form;
}

function startButton(t, me, redraw) {
  if (t.status !== "open" || !me.host) return null;
  const b = h("button", {type: "button", id: "t-start", class: "primary"}, "Start the tournament");
  b.addEventListener("click", async () => {
    b.disabled = true;
    try {
      const r = await fetch(`/api/tournaments/${t.id}/start`, {method: "POST", headers: {authorization: "Bearer " + me.host}});
      if (!r.ok) throw new Error((await r.json()).message);
      redraw();
    } catch (err) { toast("Could not start: " + err.message); b.disabled = false; }
  });
  return b;
}

function standingsCard(t, me) {
  const swiss = t.format === "swiss";
  const head = swiss ? ["Place", "Name", "Points", "Buchholz", "Won", "Drawn", "Lost"] : ["Place", "Name", "Round reached", "Status"];
  // a place means something once a game has ended (or a bye has scored): before, every entrant
  // stands level, and the list is only the order of entering
  const placed = t.rounds_played.some((r) => r.tables.some((x) => x.over) || r.byes?.length);
  const rows = t.standings.map((s) => h("tr", {class: s.number === me.number ? "me" : null, "data-number": s.number},
    h("td", {class: "place"}, placed ? String(s.place) : "–"), h("td", {class: "name"}, s.name),
    swiss ? [h("td", {}, fmt(s.score)), h("td", {}, fmt(s.buchholz)), h("td", {}, String(s.wins + s.byes)),
      h("td", {class: "extra"}, String(s.draws)), h("td", {class: "extra"}, String(s.losses))]
      : [h("td", {}, String(s.round)), h("td", {}, s.status)]));
  return h("section", {class: "card scoreboard", id: "t-standings"},
    h("h2", {}, t.status === "finished" ? "Final standings" : placed ? "Standings" : "Entrants"),
    placed ? null : h("p", {class: "small muted", id: "t-no-places"}, "No game has ended yet: places come with the first results."),
    t.standings.length ? h("div", {class: "t-scroll", tabindex: 0, role: "region", "aria-label": "Standings"},
      h("table", {}, h("thead", {}, h("tr", {}, head.map((x, i) => h("th", {scope: "col", class: swiss && i >= 5 ? "extra" : null}, x)))), h("tbody", {}, rows)))
      : h("p", {class: "muted"}, "Nobody has entered yet."),
    swiss ? h("p", {class: "small muted"}, "A win or a bye is 1 point, a draw ½. Ties: Buchholz (the opponents' points), then wins, then the order of entering.")
      : h("p", {class: "small muted"}, "At each table the better half goes through: the game's own ranking, then fewer cards in hand, then the order of entering."));
}

function roundsCard(t, me) {
  if (!t.rounds_played.length) return null;
  const rounds = [...t.rounds_played].reverse();
  return h("section", {class: "card", id: "t-rounds"}, h("h2", {}, "Rounds"),
    rounds.map((r) => h("section", {class: "t-round", "data-round": r.round},
      h("h3", {}, `Round ${r.round}` + (t.format === "elimination" && r.tables.length === 1 && t.status === "finished" && r.round === t.round ? " (final)" : "")),
      h("ul", {class: "tables"}, r.tables.map((x) => tableLine(t, x, me)),
        r.byes.map((b) => h("li", {class: "bye"}, `${b.name}: a bye (1 point)`))))));
}

function tableLine(t, x, me) {
  const seat = x.entrants.findIndex((e) => e.number === me.number);
  if (seat >= 0 && me.token && !x.over) remember(x.code, {token: me.token, seat, game: t.game});
  // a finished table lists its places in words ("1. Ada, 2. Bea"), a live one who sits there
  const who = x.places ? x.places.map((n, i) => `${i + 1}. ${n}`).join(", ") : x.entrants.map((e) => e.name).join(" · ");
  const links = [h("a", {href: x.link, class: "t-table"}, seat >= 0 && !x.over ? "Play your game" : x.over ? "table" : "Watch")];
  if (x.review) links.push(" ", h("a", {href: x.review, class: "review-link"}, "review"));
  return h("li", {"data-code": x.code},
    h("span", {class: x.over ? "" : "live"}, x.over ? who : `${who} (playing)`), " · ", links);
}

function fmt(x) { return Number.isInteger(x) ? String(x) : x.toFixed(1).replace(".5", "½").replace(/^0½/, "½"); }
