// HTTP calls to the server, and the seat tokens this browser holds (localStorage, per table).

export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body),
  };
  const r = await fetch(path, init);
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) {
    let msg = (data && (data.message || (Array.isArray(data.detail) && data.detail.map((d) => d.msg).join("; ")) || data.detail)) || r.statusText;
    throw new Error(typeof msg === "string" ? msg : JSON.stringify(msg));
  }
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

export function forget(code) {
  const all = myTables();
  delete all[code];
  localStorage.setItem(KEY, JSON.stringify(all));
}
