"""`parlour serve`: the web server under uvicorn, and `parlour leaderboard`: a game's rated
players, from a server or its database (plug-ins of parlour's CLI)."""

from __future__ import annotations

import argparse
import asyncio
import signal
from dataclasses import fields
from typing import Any

from rich.console import Console
from rich.markup import escape

from parlour.core import ParlourError, RulesError
from parlour.core.options import parse_bool

from .settings import DEFAULT_DATABASE, Settings

__all__ = ["add_commands", "cmd_leaderboard", "cmd_serve"]


def add_commands(sub: Any, commands: dict[str, Any]) -> None:
    p = sub.add_parser("serve", help="run the web server: tables for friends and bots")
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0: every "
        "network, so that friends on the same Wi-Fi can join)",
    )
    p.add_argument("--port", type=port_number, default=8000, help="port, 1-65535 (default 8000)")
    p.add_argument(
        "--database",
        default=DEFAULT_DATABASE,
        help="a SQLite file's path, sqlite:///path or postgresql://user@host/db (default: "
        "./var/parlour.sqlite3)",
    )
    p.add_argument(
        "--bot-delay", type=float, default=0.6, help="default pause before a bot moves (s)"
    )
    p.add_argument("--log-level", default="info", help="uvicorn log level")
    p.add_argument(
        "--role",
        choices=("all", "gateway", "worker"),
        default="all",
        help="all: one process (the default); gateway: websockets and HTTP; worker: owns tables "
        "(several processes need PostgreSQL and --bus; see docs/deploy.md)",
    )
    p.add_argument("--bus", help="redis://host:6379/0: the bus between the processes of a cluster")
    p.add_argument(
        "--setting",
        action="append",
        metavar="KEY=VALUE",
        default=[],
        help="set any server setting, e.g. tables_per_client=50 or waiting_ttl=600 "
        "(the settings and their defaults: parlour.server.settings.Settings)",
    )
    commands["serve"] = cmd_serve
    lb = sub.add_parser("leaderboard", help="a game's rated players, best first (rated tables)")
    lb.add_argument("game", help="game name (see `parlour games`)")
    lb.add_argument("--preset", help="rule preset (default: the game's own)")
    where = lb.add_mutually_exclusive_group()
    where.add_argument(
        "--server", metavar="URL", help="ask a running server, e.g. http://host:8000"
    )
    where.add_argument(
        "--database",
        metavar="URL",
        help=f"read a server's database (default {DEFAULT_DATABASE}; a SQLite file in use by a "
        "running server: ask it with --server)",
    )
    lb.add_argument("--limit", type=int, default=50, help="how many players (default 50)")
    commands["leaderboard"] = cmd_leaderboard


def cmd_leaderboard(args: argparse.Namespace, out: Console) -> int:
    """Print a game's leaderboard: rank, player, rating (1500-based, "?" while provisional),
    games, won, and the model's mu ± sigma."""
    from rich.table import Table

    from .routes.players import game_and_preset
    from .tables import TableError

    try:
        game, preset = game_and_preset(args.game, args.preset)
    except TableError as exc:
        raise ParlourError(str(exc)) from None
    limit = max(1, min(500, args.limit))
    if args.server:
        rows = _leaderboard_from(args.server, game, preset, limit)
    else:
        from .storage import Store, StoreError

        try:
            store = Store(args.database or DEFAULT_DATABASE)
        except StoreError as exc:
            raise ParlourError(f"{exc} (or ask it: --server URL)") from None
        try:
            rows = store.ratings.leaderboard(game, preset, limit)
        finally:
            store.close()
    from .ratings import for_people
    from .routes.players import name_bot

    for r in rows:
        name_bot(r, game)
    rows = for_people(rows)
    table = Table(title=f"{game} — {preset}: leaderboard")
    for col in ("#", "player", "rating", "games", "won", "model: mu ± sigma"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for r in rows:
        who = r["name"] + (f" ({r['bot']})" if r["kind"] == "bot" else "")
        table.add_row(
            str(r["rank"]),
            escape(who),
            f"{r['rating']}{'?' if r['provisional'] else ''}",
            str(r["games"]),
            f"{r['win_rate']:.0%}",
            f"{r['mu']:.1f} ± {r['sigma']:.1f}",
        )
    if not rows:
        out.print(f"No rated games of {game} ({preset}) yet.")
        return 0
    out.print(table)
    out.print("rating: 1500 to start; ? = provisional, until enough games make it sure")
    return 0


def _leaderboard_from(base: str, game: str, preset: str, limit: int) -> list[dict[str, Any]]:
    import json
    import urllib.error
    import urllib.parse
    import urllib.request

    if not base.startswith(("http://", "https://")):
        raise ParlourError(f"--server is an http:// or https:// address, not {base!r}")
    query = urllib.parse.urlencode({"preset": preset, "limit": limit})
    url = f"{base.rstrip('/')}/api/leaderboard/{urllib.parse.quote(game)}?{query}"
    try:
        with urllib.request.urlopen(url, timeout=15) as r:
            data = json.loads(r.read())
    except urllib.error.HTTPError as exc:
        raise ParlourError(f"the server answered {exc.code}: {exc.read()[:200]!r}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise ParlourError(f"cannot reach {base}: {exc}") from None
    players: list[dict[str, Any]] = data["players"]
    return players


def port_number(text: str) -> int:
    """A TCP port from 1 to 65535 (argparse's type: anything else is refused in words)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1-65535)") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number: ports go from 1 to 65535")
    return port


def settings_from(args: argparse.Namespace) -> Settings:
    """The server's settings from `parlour serve`'s flags; a bad --setting is a clear error."""
    values: dict[str, Any] = {
        "database": args.database,
        "bot_delay": args.bot_delay,
        "host": args.host,
        "port": args.port,
        "role": getattr(args, "role", "all"),
        "bus": getattr(args, "bus", None),
        "freeze_gc": True,  # a serving process: see server/collector.py
    }
    known = {f.name: f for f in fields(Settings)}
    for item in args.setting:
        key, sep, raw = item.partition("=")
        key = key.strip().replace("-", "_")
        fixed = ("database", "bot_limits", "host", "port", "role", "bus")
        if not sep or key not in known or key in fixed:
            names = ", ".join(k for k in sorted(known) if k not in fixed)
            raise ParlourError(f"--setting {item!r}: use KEY=VALUE with a KEY of: {names}")
        default = getattr(Settings(), key)
        try:
            if isinstance(default, bool):
                values[key] = parse_bool(raw)
            elif default is None or isinstance(default, int):
                values[key] = int(raw)
            else:
                values[key] = type(default)(raw)
        except (ValueError, RulesError) as exc:
            raise ParlourError(f"--setting {item!r}: {exc}") from None
    return Settings(**values)


def _say_where(out: Console, host: str, port: int) -> None:
    """Where friends can reach the server, or why they cannot (server/lan.py)."""
    from .lan import HOW, invite_links

    links = invite_links(host, port, "/")
    if links:
        out.print("Friends on the same network open: " + "  ".join(links))
    elif host in ("127.0.0.1", "localhost", "::1"):
        out.print(escape(HOW))


async def run_worker(settings: Settings, store: Any) -> None:
    """A process that only owns tables: it runs until SIGTERM or SIGINT, then hands its tables to
    its peers (drains) and exits."""
    from .app import serving

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with serving(settings, store):
        await stop.wait()


def run_loop(main: Any) -> None:
    """Run a worker's event loop on uvloop where it is installed (uvicorn[standard] brings it),
    as uvicorn runs a gateway's: about 5% less CPU a move than asyncio's own loop (server_load.py
    --processes, in alternating runs)."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(main)
        return
    uvloop.run(main)


def cmd_serve(args: argparse.Namespace, out: Console) -> int:
    import uvicorn

    from .app import create_app
    from .compression import websocket_protocol
    from .protocols import guarded_http
    from .storage import Store, StoreError, database_url

    settings = settings_from(args)
    if settings.role != "all" and not settings.bus:
        out.print("[red]parlour serve: a gateway or a worker needs --bus redis://… (the bus)[/]")
        return 2
    if settings.role != "all" and database_url(settings.database).startswith("sqlite"):
        out.print("[red]parlour serve: several processes share PostgreSQL, not SQLite[/]")
        return 2
    try:  # opened here, so that a database this server cannot use is a sentence, not a traceback
        store = Store(settings.database)
    except StoreError as exc:
        out.print(f"[red]parlour serve: {escape(str(exc))}[/]")
        return 2
    if settings.role == "worker":
        try:
            out.print(f"parlour: a table worker (bus {settings.bus})")
            run_loop(run_worker(settings, store))
        finally:
            store.close()
        return 0
    try:
        app = create_app(settings, store)
        shown = args.database.split("@")[-1] if "@" in args.database else args.database
        out.print(f"parlour: http://{args.host}:{args.port}/  (database {shown})")
        _say_where(out, args.host, args.port)
        uvicorn.run(
            app,
            host=args.host,
            port=args.port,
            log_level=args.log_level,
            # X-Forwarded-For is the app's to trust (settings.trust_forwarded), never uvicorn's:
            # uvicorn believes it from 127.0.0.1 by default, which let any local caller pose as
            # any client and spread one client's limits over made-up addresses
            proxy_headers=False,
            http=guarded_http(settings.request_timeout, settings.connections_per_client),
            ws=websocket_protocol(threshold=1024),
            ws_max_size=64 * 1024,
            ws_ping_interval=20,
            ws_ping_timeout=20,
        )
    finally:
        store.close()
    return 0
