// Accounts (optional: a guest plays with a name and a link), leaderboards and profiles.
// Pages: /account (sign up, log in; then the account: password, log out, log out everywhere,
// delete), /leaderboard/GAME?preset=P, /players/NAME (ratings, a chart of the rating over the
// rated games, the games with links to their review, win rates).
import { account, api, myTables } from "./api.js";
import { h, s, fill, toast, announce } from "./dom.js";

/** The seats this browser played as a guest, sent along when signing up or logging in so that
 * they become the account's (its profile then lists those games). */
function heldSeats() {
  return Object.entries(myTables()).filter(([, t]) => t.token).map(([code, t]) => ({table: code, token: t.token}));
}

/** Where to go once logged in: back where the person came from (`?next=`), a page of this site
 * only. `next` is resolved by the browser's own URL parser against this site's origin and kept
 * only if it stays on it: a pattern over the raw text is fooled by what the parser forgives
 * (`/\t/evil.example/` is `//evil.example/` once tabs and newlines are stripped). */
export function nextPage(search = location.search, origin = location.origin) {
  const asked = new URLSearchParams(search).get("next");
  if (asked) {
    try {
      const url = new URL(asked, origin);
      if (url.origin === origin) return url.pathname + url.search + url.hash;
    } catch { /* not a URL at all */ }
  }
  return "/account";
}

function field(id, label, attrs) {
  return h("div", {class: "row"}, h("label", {for: id}, label), h("input", {id, name: id, required: true, ...attrs}));
}

export async function accountPage(root) {
  document.title = "Your account · parlour";
  const me = await account();
  if (me) return drawAccount(root, me);
  const signup = h("form", {id: "signup-form", class: "card"},
    h("h2", {}, "Sign up"),
    h("p", {class: "muted small"}, "An account is optional: it lets you play rated tables, keeps your games on a profile and puts you on the leaderboards. " +
      "Usernames: 3–24 letters, digits, _ or -."),
    field("signup-name", "Username", {autocomplete: "username", maxlength: 24, minlength: 3}),
    field("signup-password", "Password", {type: "password", autocomplete: "new-password", minlength: 10}),
    h("p", {class: "muted small"}, "At least 10 characters, and not your username."),
    h("button", {type: "submit", class: "primary", id: "signup"}, "Sign up"));
  const login = h("form", {id: "login-form", class: "card"},
    h("h2", {}, "Log in"),
    field("login-name", "Username", {autocomplete: "username", maxlength: 64}),
    field("login-password", "Password", {type: "password", autocomplete: "current-password"}),
    h("button", {type: "submit", class: "primary", id: "login"}, "Log in"));
  const send = (path, form, name, password) => async (e) => {
    e.preventDefault();
    const btn = form.querySelector("button");
    btn.disabled = true;
    try {
      const got = await api(path, {username: form.querySelector(name).value, password: form.querySelector(password).value, claim: heldSeats()});
      announce(`Logged in as ${got.username}`);
      location.href = nextPage();
    } catch (err) {
      toast(err.message);
      btn.disabled = false;
    }
  };
  signup.addEventListener("submit", send("/api/account/signup", signup, "#signup-name", "#signup-password"));
  login.addEventListener("submit", send("/api/account/login", login, "#login-name", "#login-password"));
  fill(root, h("h1", {}, "Your account"), h("div", {class: "lobby"}, signup, login),
    h("p", {}, h("a", {href: "/"}, "Back to the tables")));
}

function drawAccount(root, me) {
  const post = async (path, body, done) => {
    try { done(await api(path, body || {})); } catch (err) { toast(err.message); }
  };
  const pw = h("form", {id: "password-form", class: "card"},
    h("h2", {}, "Change the password"),
    field("current-password", "Current password", {type: "password", autocomplete: "current-password"}),
    field("new-password", "New password", {type: "password", autocomplete: "new-password", minlength: 10}),
    h("p", {class: "muted small"}, "Your other devices are logged out."),
    h("button", {type: "submit"}, "Change it"));
  pw.addEventListener("submit", (e) => {
    e.preventDefault();
    post("/api/account/password", {current: pw.querySelector("#current-password").value, new: pw.querySelector("#new-password").value},
      () => { pw.reset(); toast("The password is changed; your other devices are logged out.", "info"); });
  });
  const del = h("form", {id: "delete-form", class: "card"},
    h("h2", {}, "Delete the account"),
    h("p", {class: "small"}, "Your games stay, with your name replaced by “deleted player”; your ratings and profile go."),
    field("delete-password", "Password", {type: "password", autocomplete: "current-password"}),
    h("button", {type: "submit", class: "danger"}, "Delete my account"));
  del.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!confirm("Delete your account for good?")) return;
    post("/api/account/delete", {password: del.querySelector("#delete-password").value}, () => { location.href = "/"; });
  });
  fill(root,
    h("h1", {}, `Logged in as ${me.username}`),
    h("section", {class: "card"},
      h("p", {}, h("a", {href: me.profile, id: "my-profile"}, "Your profile"), " · ", h("a", {href: "/"}, "Open a table")),
      h("div", {class: "row"},
        h("button", {type: "button", id: "logout", onclick: () => post("/api/account/logout", null, () => { location.href = "/"; })}, "Log out"),
        h("button", {type: "button", id: "logout-everywhere", onclick: () => post("/api/account/logout-everywhere", null, () => { location.href = "/"; })},
          "Log out everywhere"))),
    h("div", {class: "lobby"}, pw, del));
}

const pct = (x) => `${Math.round(x * 100)}%`;
const num = (x) => x.toFixed(1);

export async function leaderboardPage(root, game) {
  const preset = new URLSearchParams(location.search).get("preset");
  let data, games;
  try {
    [data, games] = await Promise.all([
      api(`/api/leaderboard/${encodeURIComponent(game)}` + (preset ? `?preset=${encodeURIComponent(preset)}` : "")),
      api("/api/games")]);
  } catch (err) {
    fill(root, h("div", {class: "card"}, h("h1", {}, "No such leaderboard"), h("p", {}, err.message), h("p", {}, h("a", {href: "/"}, "Back to the tables"))));
    return;
  }
  const title = games.find((g) => g.name === game)?.title || game;
  document.title = `${title} leaderboard · parlour`;
  const presetSel = h("select", {id: "preset"}, data.presets.map((p) => h("option", {value: p, selected: p === data.preset}, p)));
  presetSel.addEventListener("change", () => { location.search = "?preset=" + encodeURIComponent(presetSel.value); });
  const rows = data.players.map((p) => h("tr", {"data-player": p.player},
    h("td", {}, String(p.rank)),
    h("th", {scope: "row"}, h("a", {href: p.link}, p.name), p.kind === "bot" ? h("span", {class: "muted small wide-only"}, ` (${p.bot || "bot"})`) : null),
    h("td", {class: "rating"}, ratingCell(p)),
    h("td", {}, String(p.games)), h("td", {}, pct(p.win_rate)),
    h("td", {class: "wide-only muted small"}, `${num(p.mu)} ± ${num(p.sigma)}`)));
  fill(root,
    h("h1", {}, `Leaderboard: ${title}`),
    h("section", {class: "card"},
      h("div", {class: "row"}, h("label", {for: "preset"}, "Rules"), presetSel),
      data.players.length
        ? h("div", {class: "scroll-x", tabindex: 0, role: "region", "aria-label": "Leaderboard"},
          h("table", {class: "ranking", id: "leaderboard"},
            h("caption", {class: "sr-only"}, `Rated players of ${title}, ${data.preset} rules, best first`),
            h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "Games", "Won", "Model (μ ± σ)"].map((c) =>
              h("th", {scope: "col", class: c.startsWith("Model") ? "wide-only" : null}, c)))),
            h("tbody", {}, rows)))
        : h("p", {class: "muted", id: "leaderboard-empty"}, "No rated games of these rules yet: open a rated table from the lobby."),
      ratingWords()),
    h("p", {}, h("a", {href: "/"}, "Back to the tables")));
}

export async function playerPage(root, name) {
  let p;
  try {
    p = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (err) {
    fill(root, h("div", {class: "card"}, h("h1", {}, "No such player"), h("p", {}, err.message), h("p", {}, h("a", {href: "/"}, "Back to the tables"))));
    return;
  }
  document.title = `${p.name} · parlour`;
  const ratings = p.ratings.length
    ? h("div", {class: "scroll-x", tabindex: 0, role: "region", "aria-label": "Ratings"},
      h("table", {class: "ranking", id: "ratings"},
        h("thead", {}, h("tr", {}, ["Game", "Rules", "Rating", "Games", "Won"].map((c) => h("th", {scope: "col"}, c)))),
        h("tbody", {}, p.ratings.map((r) => h("tr", {},
          h("th", {scope: "row"}, h("a", {href: r.leaderboard}, r.game)), h("td", {}, r.preset),
          h("td", {class: "rating"}, ratingCell(r)), h("td", {}, String(r.games)), h("td", {}, pct(r.win_rate)))))))
    : h("p", {class: "muted"}, "No rated games yet.");
  const rates = Object.entries(p.win_rate);
  const games = p.games.length
    ? h("ul", {class: "tables", id: "player-games"}, p.games.map((g) => h("li", {},
      h("a", {href: g.review}, `${g.game} · ${g.table} #${g.number + 1}`),
      " ", h("span", {class: "muted"}, `${g.players.map((n) => n || "?").join(", ")} · ${g.won ? "won" : "lost"}${g.rated ? " · rated" : ""}`),
      " ", h("a", {href: g.record, download: `parlour-${g.id}.json`, class: "small"}, "record"))))
    : h("p", {class: "muted"}, "No finished games yet.");
  fill(root,
    h("h1", {}, p.name, p.kind === "bot" ? h("span", {class: "muted small"}, ` (a bot: ${p.bot})`) : null),
    h("section", {class: "card"}, h("h2", {}, "Ratings"), ratings, p.ratings.length ? ratingWords() : null),
    h("section", {class: "card"}, h("h2", {}, "Rating over the rated games"), chart(p, (root.clientWidth || 640) - 40)),
    h("section", {class: "card"}, h("h2", {}, "Win rate by game"),
      rates.length ? h("ul", {class: "plain", id: "win-rates"}, rates.map(([g, t]) => h("li", {}, `${g}: ${pct(t.rate)} (${t.won} of ${t.played})`)))
        : h("p", {class: "muted"}, "No finished games yet.")),
    h("section", {class: "card"}, h("h2", {}, "Games"), games),
    h("p", {}, h("a", {href: "/"}, "Back to the tables")));
}

/** A rating as people read it: "1612", or "1420?" while provisional (too few games to be sure). */
function ratingCell(r) {
  return h("span", {"data-rating": r.rating, title: r.provisional ? "provisional: too few games yet for the rating to be sure" : null},
    String(r.rating), r.provisional ? h("abbr", {class: "provisional", title: "provisional"}, "?") : null);
}

/** What the numbers mean, the model one tap away. */
function ratingWords() {
  return h("div", {class: "rating-words small"},
    h("p", {class: "muted"}, "Everyone starts at 1500; a win against stronger players raises a rating more. ",
      h("strong", {}, "?"), " marks a provisional rating: too few games yet for it to be sure. The leaderboard lists the sure ratings first."),
    h("details", {}, h("summary", {}, "How ratings are worked out"),
      h("p", {}, "Each rated game moves the players' ratings by their places in it, with openskill's Plackett–Luce model: ",
        "a skill μ and an uncertainty σ for each player (μ 25, σ 25/3 to start). The rating shown is 1500 + 42 × (μ − 25), ",
        "never below 0, provisional while σ is above 6 — about the first ten games of two players.")));
}

/** The rating after each rated game, one line per game and rules, drawn as SVG; each line starts
 * where every newcomer starts (1500). As wide as the page (so its words keep their size on a
 * phone), 640 at most. */
function chart(p, width) {
  if (!p.history.length) return h("p", {class: "muted"}, "The chart starts with the first rated game.");
  const W = Math.round(Math.max(300, Math.min(640, width))), H = 220, L = 40, R = 10, T = 12, B = 28;
  const lines = {};
  p.history.forEach((e, k) => {
    const key = `${e.game} · ${e.preset}`;
    if (!lines[key]) lines[key] = [{k, v: START, e: null}];
    lines[key].push({k: k + 1, v: e.rating, e});
  });
  const values = p.history.map((e) => e.rating);
  const lo = Math.floor(Math.min(START - 100, ...values) / 100) * 100, hi = Math.ceil(Math.max(START + 100, ...values) / 100) * 100;
  const n = p.history.length;
  const x = (k) => L + (k / n) * (W - L - R);
  const y = (v) => T + (1 - (v - lo) / (hi - lo)) * (H - T - B);
  const ticks = [lo, (lo + hi) / 2, hi];
  const names = Object.keys(lines);
  const svg = s("svg", {viewBox: `0 0 ${W} ${H}`, class: "chart rating-chart", id: "rating-chart", role: "img",
    "aria-label": `${p.name}'s rating after each of ${n} rated games: ` +
      names.map((nm) => `${nm} from ${START} to ${lines[nm].at(-1).v}`).join("; ")},
    ticks.map((v) => [s("line", {x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid"}),
      s("text", {x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "axis"}, String(Math.round(v)))]),
    s("text", {x: L, y: H - 6, class: "axis"}, `start, then rated game 1 … ${n}`),
    names.map((nm, i) => s("g", {class: `series-${i % 4}`},
      s("path", {d: lines[nm].map((pt, j) => `${j ? "L" : "M"}${x(pt.k).toFixed(1)},${y(pt.v).toFixed(1)}`).join(" ")}),
      lines[nm].filter((pt) => pt.e).map((pt) => s("circle", {cx: x(pt.k), cy: y(pt.v), r: 4, "data-game": pt.e.game_id},
        s("title", {}, `${nm}, game ${pt.e.game_id}: ${pt.v}${pt.e.provisional ? "?" : ""} (place ${pt.e.rank})`))),
      s("text", {x: W - R, y: T + 12 + 14 * i, "text-anchor": "end", class: "axis legend-name"}, nm))));
  svg.style.maxWidth = `${W}px`; // set as a property: a style attribute would need the CSP's leave
  return svg;
}

const START = 1500; // every newcomer's rating
