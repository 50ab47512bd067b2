"""Headers on every HTTP answer that tell the browser what the pages may do: no other site may
frame them (clickjacking), nothing is sniffed into another type, no address leaves the site in a
Referer, and the pages run only the server's own scripts and styles (a Content-Security-Policy).

The browser client is plain files from this server: modules (`/static/js`, each game's
`/games/NAME/`), stylesheets, SVG and PNG icons, `fetch` to the API and a websocket to
`/ws/CODE` on the same host — so `'self'` covers everything, with `ws:`/`wss:` to the page's own
host (older browsers do not count a websocket to it as `'self'`). No script or style is written
inline: styles set from scripts go through the CSSOM (`el.style.left = …`), which the policy
allows. The API page at `/docs` (Swagger UI) has one inline script that starts it: its route
allows exactly that script by its hash (routes/docs.py), and `data:` images for Swagger's icons.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["SecurityHeaders", "content_security_policy"]


def content_security_policy(host: str | None, scripts: str = "'self'") -> str:
    """The pages' policy; `host` is the Host the page was asked of (its websocket's host). A
    Host header is the asker's own to write: only a plain host[:port] goes in."""
    plain = host and all(c.isalnum() or c in ".-:[]" for c in host)
    sockets = f" ws://{host} wss://{host}" if plain else ""
    return "; ".join(
        (
            "default-src 'self'",
            f"script-src {scripts}",
            "style-src 'self'",
            "img-src 'self' data:",
            f"connect-src 'self'{sockets}",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    )


class SecurityHeaders:
    """Adds the headers to every HTTP answer (a route may set its own CSP: it is kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if "content-security-policy" not in headers:
                    headers["Content-Security-Policy"] = content_security_policy(host)
                headers["X-Content-Type-Options"] = "nosniff"
                headers["X-Frame-Options"] = "DENY"  # frame-ancestors, for browsers before CSP 2
                headers["Referrer-Policy"] = "same-origin"
            await send(message)

        await self.app(scope, receive, with_headers)
