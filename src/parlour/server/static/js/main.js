// The one page: the lobby at /, a table at /t/CODE.
import { lobby } from "./lobby.js";
import { table } from "./table.js";

const root = document.getElementById("app");
const m = location.pathname.match(/^\/t\/([A-Za-z0-9]{4,12})\/?$/);
if (m) table(root, m[1].toUpperCase());
else lobby(root);
