"""`parlour admin`: the server's moderators at a terminal — read the reported chat lines, close
a table, suspend an account (and lift it), remove a chat line. Each command asks the running
server over HTTP (`/api/admin/...`, server/routes/moderation.py) with the moderators' token, the
server's `admin_token` setting: the table's owner and every gateway must act on it, not only the
database.

The server's address and the token come from the flags, or as `parlour serve` reads its settings
(PARLOUR_ADMIN_TOKEN, PARLOUR_ADMIN_TOKEN_FILE, the settings file): on the server's own machine,
`parlour admin reports` needs nothing more.
"""

from __future__ import annotations

import argparse
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console

from parlour.core import ParlourError

__all__ = ["Send", "add_admin", "http_sender"]

# (method, path, JSON body or None) -> (status, the answer's JSON)
Send = Callable[[str, str, dict[str, Any] | None], tuple[int, Any]]


def add_admin(sub: Any, commands: dict[str, Any]) -> None:
    p = sub.add_parser(
        "admin",
        help="moderate a running server: reports, close a table, suspend an account, remove "
        "a chat line",
        description="Moderate a running parlour server over HTTP with its moderators' token "
        "(the server's admin_token setting). The address and the token default to the "
        "server's own settings (PARLOUR_ADMIN_TOKEN_FILE, --config), so on its machine no flag "
        "is needed. See docs/deploy.md, 'Moderation'.",
    )
    p.add_argument(
        "--server", help="the server's address (default: http://HOST:PORT of its settings)"
    )
    p.add_argument(
        "--token-file",
        type=Path,
        help="a file holding the moderators' token (default: the server's admin_token setting)",
    )
    p.add_argument("--config", metavar="FILE", help="the server's settings file")
    cmds = p.add_subparsers(dest="admin_command", metavar="COMMAND", required=True)
    r = cmds.add_parser(
        "reports",
        help="the chat lines people reported, newest first",
        description="The chat lines people reported, newest first: the table, the line's id "
        "(for remove-line), who said it, the line as it was said, and who reported it.",
    )
    r.add_argument("--all", action="store_true", help="also the reports of lines removed")
    r.add_argument("--limit", type=int, default=50, help="how many (default 50, at most 500)")
    c = cmds.add_parser(
        "chat",
        help="a table's recent chat lines with their ids",
        description="A table's recent chat lines (it keeps the last 50), with the id of each.",
    )
    c.add_argument("table", help="the table's code")
    rm = cmds.add_parser(
        "remove-line",
        help="remove a chat line from every screen",
        description="Remove a chat line: every screen at the table takes it off, and its "
        "reports are marked removed.",
    )
    rm.add_argument("table", help="the table's code")
    rm.add_argument("line", help="the line's id (from `reports` or `chat`)")
    cl = cmds.add_parser(
        "close",
        help="close a table",
        description="Close a table for everyone at it, as its host would; a rated game closed "
        "by a moderator is not rated.",
    )
    cl.add_argument("table", help="the table's code")
    s = cmds.add_parser(
        "suspend",
        help="suspend an account: no log-in, its sessions end, its seats cannot act",
        description="Suspend an account: it cannot log in, every session of it ends at once, "
        "and its seats at every table are disconnected and cannot act until `unsuspend`.",
    )
    s.add_argument("username", help="the account's username")
    s.add_argument("--reason", help="why (kept with the account, 200 characters at most)")
    u = cmds.add_parser(
        "unsuspend",
        help="lift an account's suspension",
        description="Lift an account's suspension: it may log in and play again.",
    )
    u.add_argument("username", help="the account's username")
    commands["admin"] = cmd_admin


# the tests send through their own client; the command line through urllib
SENDER: Callable[[str, str], Send] | None = None


def http_sender(base: str, token: str) -> Send:
    """Requests to the server at `base` with the moderators' token."""
    if not base.startswith(("http://", "https://")):
        raise ParlourError(f"--server is an http:// or https:// address, not {base!r}")

    def send(method: str, path: str, body: dict[str, Any] | None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            base.rstrip("/") + path,
            data=data,
            method=method,
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return int(r.status), json.loads(r.read() or b"null")
        except urllib.error.HTTPError as exc:
            try:
                answer = json.loads(exc.read() or b"null")
            except ValueError:
                answer = None
            return int(exc.code), answer
        except (urllib.error.URLError, OSError) as exc:
            raise ParlourError(f"cannot reach the server at {base}: {exc}") from None

    return send


def _sender(args: argparse.Namespace) -> Send:
    from .configuration import load_settings

    settings = load_settings({}, config=args.config)
    token = settings.admin_token
    if args.token_file is not None:
        try:
            token = args.token_file.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ParlourError(f"{args.token_file}: cannot read it ({exc.strerror})") from None
    if not token:
        raise ParlourError(
            "no moderators' token: give --token-file, or set the server's admin_token "
            "(PARLOUR_ADMIN_TOKEN_FILE) for both the server and this command"
        )
    host = "127.0.0.1" if settings.host in ("0.0.0.0", "::", "") else settings.host
    base = args.server or f"http://{host}:{settings.port}"
    if SENDER is not None:
        return SENDER(base, token)
    return http_sender(base, token)


def _ask(send: Send, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    status, answer = send(method, path, body)
    if status != 200:
        message = answer.get("message") if isinstance(answer, dict) else None
        raise ParlourError(f"the server answered {status}: {message or answer}")
    return answer


def _when(at: float | None) -> str:
    if not at:
        return ""
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M:%S")


def _q(text: str) -> str:
    return urllib.parse.quote(text.strip(), safe="")


def cmd_admin(args: argparse.Namespace, out: Console) -> int:
    send = _sender(args)
    say: Callable[[str], None] = lambda s: out.print(s, markup=False, highlight=False)  # noqa: E731
    match args.admin_command:
        case "reports":
            limit = max(1, min(500, args.limit))
            query = f"?limit={limit}" + ("&removed=true" if args.all else "")
            rows = _ask(send, "GET", f"/api/admin/reports{query}")["reports"]
            if not rows:
                say("No reports.")
                return 0
            # a block a report, not a table: a line of chat is never cut or folded to fit
            for r in rows:
                removed = "  [removed]" if r.get("removed_at") else ""
                say(
                    f"#{r['id']}  {_when(r['created_at'])}  table {r['table_code']}  "
                    f"line {r['line_id']}{removed}"
                )
                say(f"    {r['line_name']} (seat {r['line_seat'] + 1}): {r['line_text']}")
                why = f": {r['reason']}" if r.get("reason") else ""
                say(f"    reported by {r['reporter_name']} (seat {r['reporter_seat'] + 1}){why}")
        case "chat":
            lines = _ask(send, "GET", f"/api/admin/tables/{_q(args.table)}/chat")["lines"]
            if not lines:
                say(f"No recent chat lines at {args.table.upper()}.")
            for line in lines:
                say(f"{line['id']}  {_when(line.get('at'))}  {line['name']}: {line['text']}")
        case "remove-line":
            answer = _ask(
                send, "DELETE", f"/api/admin/tables/{_q(args.table)}/chat/{_q(args.line)}"
            )
            say(f"removed line {answer['removed']} ({answer['reports']} reports of it)")
        case "close":
            answer = _ask(send, "POST", f"/api/admin/tables/{_q(args.table)}/close")
            say(f"table {answer['table']}: {answer['status']}")
        case "suspend":
            body = {"reason": args.reason} if args.reason else None
            answer = _ask(send, "POST", f"/api/admin/accounts/{_q(args.username)}/suspend", body)
            say(
                f"suspended {answer['account']}: {answer['sessions_ended']} sessions ended, its "
                "seats disconnected"
                + ("" if answer.get("every_gateway_told", True) else
                   " (the bus is down: other gateways cut them off at their next connection)")
            )  # fmt: skip
        case "unsuspend":
            answer = _ask(send, "POST", f"/api/admin/accounts/{_q(args.username)}/unsuspend")
            say(f"{answer['account']} may log in and play again")
    return 0
