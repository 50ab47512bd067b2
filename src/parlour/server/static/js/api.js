// HTTP calls to the server, and the seat tokens this browser holds (localStorage, per table).

/** The CSRF token of the session, from its readable cookie (none when nobody is logged in): every
 * write carries it, as the server asks of writes a session cookie authenticates. */
function csrf() {
  const m = document.cookie.match(/(?:^|;\s*)parlour_csrf=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : null;
}

export async function api(path, body) {
  const headers = {"content-type": "application/json"};
  const token = csrf();
  if (token) headers["x-csrf-token"] = token;
  const init = body === undefined ? {} : {method: "POST", headers, body: JSON.stringify(body)};
  const r = await fetch(path, init);
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) {
    let msg = (data && (data.message || (Array.isArray(data.detail) && data.detail.map((d) => d.msg).join("; ")) || data.detail)) || r.statusText;
    throw new Error(typeof msg === "string" ? msg : JSON.stringify(msg));
  }
  return data;
}

/** Report a chat line to the server's moderators, as the seat whose token this is. */
export async function reportLine(code, lineId, token) {
  const r = await fetch(`/api/tables/${encodeURIComponent(code)}/chat/${encodeURIComponent(lineId)}/report`, {
    method: "POST", headers: {"content-type": "application/json", authorization: `Bearer ${token}`}, body: "{}"});
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) throw new Error((data && data.message) || r.statusText);
  return data;
}

const KEY = "parlour:tables";

/** Every table this browser has a seat at (or hosts): {code: {token, seat, host, game, at}}. */
export function myTables() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

export function remember(code, entry) {
  const all = myTables();
  all[code] = {...(all[code] || {}), ...entry, at: Date.now()};
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function seatOf(code) {
  return myTables()[code] || null;
}

/** Every seat this browser holds at table `code`: [{seat, token}], the first one its own (the
 * seat it opened or joined with), then the seats of the other people at this device (pass and
 * play: each person's seat has a token of its own). */
export function heldSeats(code) {
  const entry = seatOf(code);
  if (!entry?.token) return [];
  const out = [{seat: entry.seat, token: entry.token}];
  for (const x of entry.here || []) {
    if (x && x.token && !out.some((y) => y.seat === x.seat)) out.push({seat: x.seat, token: x.token});
  }
  return out;
}

/** Hold another seat at table `code` for another person at this device (pass and play). */
export function rememberHere(code, seat, token) {
  const entry = seatOf(code) || {};
  const here = (entry.here || []).filter((x) => x.seat !== seat);
  remember(code, {here: [...here, {seat, token}]});
}

/** Every seat token this browser holds, at every table (for "your turn" lists). */
export function allTokens() {
  const out = [];
  for (const code of Object.keys(myTables())) out.push(...heldSeats(code).map((x) => x.token));
  return [...new Set(out)];
}

export function forget(code) {
  const all = myTables();
  delete all[code];
  localStorage.setItem(KEY, JSON.stringify(all));
}

/** The logged-in account ({username, csrf, profile}), or null: asked of the server once a page. */
let who;
export function account() {
  if (who === undefined) {
    who = csrf() ? fetch("/api/account").then((r) => (r.ok ? r.json() : null)).catch(() => null) : Promise.resolve(null);
  }
  return who;
}
