// parlour's service worker: the app's shell (pages, scripts, styles, icons, each game's module)
// is kept so that the client starts, and installs on a phone's home screen, without a network.
// Network first, the kept copy when offline; play (/api, /ws) always needs the server.
const CACHE = "parlour-shell-v2";
const SHELL = [
  "/", "/manifest.webmanifest",
  "/static/css/parlour.css",
  "/static/js/main.js", "/static/js/lobby.js", "/static/js/table.js", "/static/js/dom.js",
  "/static/js/api.js", "/static/js/motion.js", "/static/js/sound.js", "/static/js/chat.js",
  "/static/js/invite.js", "/static/js/rules.js", "/static/js/learn.js", "/static/js/tournament.js",
  "/static/icons/icon.svg", "/static/icons/icon-192.png",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== location.origin) return;
  const page = req.mode === "navigate";
  const asset = url.pathname.startsWith("/static/") || url.pathname.startsWith("/games/") ||
    url.pathname === "/manifest.webmanifest";
  if (!page && !asset) return; // the API, the websocket, /docs: the network only
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const res = await fetch(req);
      if (res.ok) cache.put(page ? "/" : req, res.clone()); // every page is the one shell
      return res;
    } catch (err) {
      const kept = await cache.match(page ? "/" : req);
      if (kept) return kept;
      throw err;
    }
  })());
});
