// Quick match at /quick: choose a game, rules and players, join the queue, wait (the time and the
// rating band in words), and go to the table once matched. The ticket is kept in localStorage, so
// every tab of this browser, and a reload, shows the same entry; a logged-in person's entry is
// found by the account too. The wait is a long poll (POST /api/quick/status with `wait`).
import { account, api, remember } from "./api.js";
import { h, fill, toast } from "./dom.js";

const KEY = "parlour:quick";
const BOTS = [["", "never: wait for people"], ["15", "after 15 seconds"], ["30", "after 30 seconds"],
  ["60", "after a minute"], ["120", "after 2 minutes"]];

function ticket() { return localStorage.getItem(KEY); }

function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

export async function quickPage(root) {
  document.title = "Quick match · parlour";
  let games;
  try {
    games = await api("/api/games");
  } catch (e) {
    fill(root, h("div", {class: "card"}, h("h1", {}, "The server did not answer"), h("p", {}, e.message)));
    return;
  }
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  const me = await account();
  const box = h("div", {class: "quick"});
  fill(root, box);
  let generation = 0; // a newer state stops an older long poll's loop
  let timer = null;

  function form(last, prev) {
    const gameSel = h("select", {id: "quick-game"}, games.map((g) => h("option", {value: g.name}, g.title)));
    const presetSel = h("select", {id: "quick-preset"});
    const playersSel = h("select", {id: "quick-players"});
    const botsSel = h("select", {id: "quick-bots"}, BOTS.map(([v, t]) => h("option", {value: v}, t)));
    const nameIn = h("input", {id: "quick-name", maxlength: 32, required: !me, autocomplete: "nickname",
      placeholder: "your name", value: localStorage.getItem("parlour:name") || ""});
    const draw = () => {
      const g = byName[gameSel.value];
      fill(presetSel, g.presets.map((p) => h("option", {value: p, selected: p === g.default_preset}, p)));
      const [lo, hi] = g.players;
      const counts = [];
      for (let n = lo; n <= hi; n++) counts.push(n);
      fill(playersSel, counts.map((n) => h("option", {value: n, selected: n === g.default_players}, `${n} players`)));
    };
    gameSel.addEventListener("change", draw);
    if (prev && byName[prev.game]) gameSel.value = prev.game;
    draw();
    if (prev && byName[prev.game]) { presetSel.value = prev.preset; playersSel.value = String(prev.players); }
    const go = h("button", {type: "submit", class: "primary", id: "quick-join"}, "Find a match");
    const f = h("form", {class: "card", id: "quick-form"},
      h("h1", {}, "Quick match"),
      h("p", {}, "Choose a game and we seat you with players of about your rating: the range widens the longer you wait."),
      last,
      h("div", {class: "row"}, h("label", {for: "quick-game"}, "Game"), gameSel),
      h("div", {class: "row"}, h("label", {for: "quick-preset"}, "Rules"), presetSel),
      h("div", {class: "row"}, h("label", {for: "quick-players"}, "Players"), playersSel),
      me ? h("p", {}, "You play as ", h("strong", {}, me.username), ": a table of logged-in players only is rated.")
        : h("div", {class: "row"}, h("label", {for: "quick-name"}, "Your name"), nameIn),
      h("div", {class: "row"}, h("label", {for: "quick-bots"}, "Bots take the empty seats"), botsSel),
      !me ? h("p", {class: "small muted"}, "As a guest you play unrated. ", h("a", {href: "/account"}, "Log in"), " to be matched by your rating.") : null,
      go,
      h("p", {class: "small"}, h("a", {href: "/"}, "Back to the lobby")));
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      const name = nameIn.value.trim();
      if (!me && !name) { toast("Please give your name."); nameIn.focus(); return; }
      if (!me) localStorage.setItem("parlour:name", name);
      const body = {game: gameSel.value, preset: presetSel.value, players: Number(playersSel.value),
        ticket: ticket()};
      if (!me) body.name = name;
      if (botsSel.value) body.bot_after = Number(botsSel.value);
      go.disabled = true;
      try {
        const entry = await api("/api/quick", body);
        localStorage.setItem(KEY, entry.ticket);
        show(entry);
      } catch (err) {
        toast("You could not join the queue: " + err.message);
        go.disabled = false;
      }
    });
    return f;
  }

  function title(entry) {
    const g = byName[entry.game];
    return `${g ? g.title : entry.game}, ${entry.preset} rules, ${entry.players} players`;
  }

  function matched(entry) {
    const t = entry.table;
    remember(t.code, {token: t.token, seat: t.seat, game: entry.game});
    return t.link;
  }

  function show(entry, fromReload = false) {
    const mine = ++generation;
    clearInterval(timer);
    if (entry && entry.status === "matched") {
      const link = matched(entry);
      if (!fromReload) { location.href = link; return; }
      fill(box, form(h("p", {class: "notice", id: "quick-last"}, "You were matched: ",
        h("a", {href: link, id: "quick-table"}, `your table ${entry.table.code}`), ` (${title(entry)}).`), entry));
      return;
    }
    if (!entry || entry.status !== "waiting") {
      const why = entry && entry.status === "expired" ? h("p", {class: "notice"}, "Your last place in the queue expired: nobody asked after it for a while.") : null;
      fill(box, form(why, entry));
      return;
    }
    // waiting: the time, the band in words, the bots, a way out
    const started = Date.now() - entry.waited * 1000;
    const waited = h("span", {id: "quick-waited"}, clock(entry.waited));
    const bandP = h("p", {id: "quick-band"}, entry.band_words);
    const botsP = h("p", {id: "quick-bots-in"});
    const leave = h("button", {type: "button", id: "quick-leave"}, "Leave the queue");
    let at = {entry, since: Date.now()}; // the last answer, to widen the band from
    const drawBand = () => {
      const e = at.entry, dt = (Date.now() - at.since) / 1000;
      const left = Math.ceil(e.open_in - dt);
      if (!e.band || left <= 0) { bandP.textContent = "Any rating now: you have waited long enough to play anyone."; return; }
      // the numbers people see (1500-based, as on the leaderboards)
      const band = e.band_shown, growth = e.band_growth_shown;
      const low = Math.max(0, band.low - growth * dt), high = band.high + growth * dt;
      bandP.textContent = `Players rated ${Math.round(low)} to ${Math.round(high)} (you: ${e.rating_shown}); ` +
        `the range widens as you wait, to anyone in ${plural(left, "second")}.`;
    };
    const drawBots = () => {
      const secs = (Date.now() - started) / 1000;
      drawBand();
      botsP.textContent = entry.bot_after == null ? "No bots: you wait for people."
        : `Bots take the empty seats in ${plural(Math.max(0, Math.ceil(entry.bot_after - secs)), "second")} if nobody comes.`;
      waited.textContent = clock(secs);
    };
    drawBots();
    timer = setInterval(drawBots, 1000);
    leave.addEventListener("click", async () => {
      leave.disabled = true;
      try {
        show(await api("/api/quick/leave", {ticket: ticket()}));
        localStorage.removeItem(KEY);
      } catch (err) {
        toast("Could not leave the queue: " + err.message);
        leave.disabled = false;
      }
    });
    fill(box, h("section", {class: "card", id: "quick-waiting"},
      h("h1", {}, "Looking for players…"),
      h("p", {}, `${entry.name}, you are in the queue for `, h("strong", {}, title(entry)), "."),
      h("p", {class: "quick-time"}, "Waiting ", waited),
      bandP, botsP, leave,
      h("p", {class: "small muted"}, "You may reload this page or open it in another tab: your place is kept.")));
    poll(mine, (e) => { at = {entry: e, since: Date.now()}; drawBots(); });
  }

  async function poll(mine, update) {
    let failures = 0;
    while (mine === generation) {
      try {
        const entry = await api("/api/quick/status", {ticket: ticket(), wait: 20});
        failures = 0;
        if (mine !== generation) return;
        if (entry.status !== "waiting") { show(entry); return; }
        update(entry);
      } catch (err) {
        if (mine !== generation) return;
        failures += 1;
        if (failures > 5) { toast("The queue did not answer: " + err.message); }
        await new Promise((r) => setTimeout(r, Math.min(10000, 1000 * failures)));
      }
    }
  }

  // another tab joined or left: show what it did
  window.addEventListener("storage", async (e) => {
    if (e.key === KEY) await start();
  });

  async function start() {
    if (!ticket() && !me) { show(null); return; }
    try {
      const entry = await api("/api/quick/status", {ticket: ticket(), wait: 0, quiet: true});
      if (entry.status === "none") { localStorage.removeItem(KEY); show(null); return; }
      show(entry, true);
    } catch {
      show(null); // the server could not say: the form
    }
  }
  await start();
}
