// The one page: the lobby at /, a table at /t/CODE, a game's rules at /rules/GAME, its tutorial at
// /learn/GAME, a game's review at /review and /review/ID, a puzzle at /puzzle/ID (the review's
// modules are loaded only there), the tournaments at /tournaments and /tournaments/ID, the account
// at /account, a game's leaderboard at /leaderboard/GAME, a player's profile at /players/NAME and
// quick match at /quick. The service worker keeps these files for offline starts (play needs the
// server).
import { lobby } from "./lobby.js";
import { table } from "./table.js";

const root = document.getElementById("app");
const path = location.pathname;
const t = path.match(/^\/t\/([A-Za-z0-9]{4,12})\/?$/);
const rules = path.match(/^\/rules\/([A-Za-z0-9_-]{1,40})\/?$/);
const learn = path.match(/^\/learn\/([A-Za-z0-9_-]{1,40})\/?$/);
const review = path.match(/^\/review(?:\/(\d+))?\/?$/);
const puzzle = path.match(/^\/puzzle\/([0-9a-f]{1,16})\/?$/);
const tournament = path.match(/^\/tournaments(?:\/([A-Za-z0-9]{4,16}))?\/?$/);
const board = path.match(/^\/leaderboard\/([A-Za-z0-9_-]{1,40})\/?$/);
const player = path.match(/^\/players\/([^/]{1,64})\/?$/);
if (t) table(root, t[1].toUpperCase());
else if (rules) import("./rules.js").then((m) => m.rulesPage(root, rules[1]));
else if (learn) import("./learn.js").then((m) => m.learnPage(root, learn[1]));
else if (review) import("./review.js").then((r) => (review[1] ? r.reviewGame(root, review[1]) : r.reviewHome(root)));
else if (puzzle) import("./puzzle.js").then((p) => p.puzzle(root, puzzle[1]));
else if (tournament) {
  import("./tournament.js").then((m) => (tournament[1] ? m.tournamentPage(root, tournament[1].toUpperCase()) : m.tournamentsHome(root)));
}
else if (path.replace(/\/$/, "") === "/quick") import("./quickmatch.js").then((q) => q.quickPage(root));
else if (path.replace(/\/$/, "") === "/account") import("./accounts.js").then((a) => a.accountPage(root));
else if (board) import("./accounts.js").then((a) => a.leaderboardPage(root, board[1]));
else if (player) import("./accounts.js").then((a) => a.playerPage(root, decodeURIComponent(player[1])));
else lobby(root);

if ("serviceWorker" in navigator && location.protocol !== "file:") {
  navigator.serviceWorker.register("/sw.js").catch(() => { /* the app works without it */ });
}
