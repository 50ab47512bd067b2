"""`parlour serve`: the web server under uvicorn, and `parlour leaderboard`: a game's rated
players, from a server or its database (plug-ins of parlour's CLI)."""

from __future__ import annotations

import argparse
import math
import signal
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from parlour.core import ParlourError

from .settings import DEFAULT_DATABASE, Settings
from .stacks import answer_sigusr2

__all__ = ["add_commands", "cmd_leaderboard", "cmd_serve"]


def add_commands(sub: Any, commands: dict[str, Any]) -> None:
    p = sub.add_parser(
        "serve",
        help="run the web server: tables for friends and bots",
        description="Run the web server. Every setting also comes from an environment variable "
        "PARLOUR_<KEY>, a file named by PARLOUR_<KEY>_FILE (secrets) or a TOML settings file "
        "(--config); a flag wins over them all (docs/deploy.md, 'Settings').",
    )
    p.add_argument(
        "--host",
        help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0: every "
        "network, so that friends on the same Wi-Fi can join)",
    )
    p.add_argument(
        "--port",
        type=port_number,
        help="port, 1-65535 (default 8000); a table worker answers health and metrics there, so "
        "each process on a machine needs its own",
    )
    p.add_argument(
        "--database",
        help="a SQLite file's path, sqlite:///path or postgresql://user@host/db (default: "
        "./var/parlour.sqlite3)",
    )
    p.add_argument("--bot-delay", type=float, help="default pause before a bot moves (s)")
    p.add_argument("--log-level", help="debug, info (the default), warning or error")
    p.add_argument(
        "--log-format",
        choices=("auto", "json", "text"),
        help="json: a JSON object a line (for a log collector); text: for a person at a "
        "terminal; auto (the default): text at a terminal, JSON otherwise",
    )
    p.add_argument(
        "--role",
        choices=("all", "gateway", "worker"),
        help="all: one process (the default); gateway: websockets and HTTP; worker: owns tables "
        "(several processes need PostgreSQL and --bus; see docs/deploy.md)",
    )
    p.add_argument("--bus", help="redis://host:6379/0: the bus between the processes of a cluster")
    p.add_argument(
        "--config",
        metavar="FILE",
        help="a TOML settings file (KEY = VALUE for any setting; or PARLOUR_CONFIG)",
    )
    p.add_argument(
        "--setting",
        action="append",
        metavar="KEY=VALUE",
        default=[],
        help="set any server setting, e.g. tables_per_client=50 or waiting_ttl=600 "
        "(the settings and their defaults: parlour.server.settings.Settings)",
    )
    p.add_argument(
        "--print-settings",
        action="store_true",
        help="print the settings as every source gives them (secrets hidden) and exit",
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
    bk = sub.add_parser(
        "backup",
        help="back up a server's store while it runs (SQLite's online backup; pg_dump)",
        description="Copy a server's database whole, while the server runs: a SQLite file with "
        "SQLite's online backup API (checked, then renamed into place), PostgreSQL with pg_dump's "
        "custom format. Restore with `parlour restore`.",
    )
    bk.add_argument("out", type=Path, help="the backup file to write")
    bk.add_argument(
        "--database",
        help=f"the server's database (default: PARLOUR_DATABASE, the settings, {DEFAULT_DATABASE})",
    )
    bk.add_argument("--config", metavar="FILE", help="a settings file naming the database")
    bk.add_argument("--force", action="store_true", help="replace the backup file if it exists")
    bk.add_argument(
        "--print",
        action="store_true",
        dest="dry_run",
        help="PostgreSQL: print the pg_dump command instead of running it",
    )
    commands["backup"] = cmd_backup
    rs = sub.add_parser(
        "restore",
        help="restore a backup into a new database, to serve it",
        description="Restore a `parlour backup` into a new SQLite file (or over one no server "
        "uses, with --force) or an empty PostgreSQL database; then `parlour serve` it: open "
        "tables go on from their last stored move.",
    )
    rs.add_argument("backup", type=Path, help="the backup file")
    rs.add_argument("--database", required=True, help="where to restore it (a new file or URL)")
    rs.add_argument("--force", action="store_true", help="replace what is there")
    rs.add_argument(
        "--print",
        action="store_true",
        dest="dry_run",
        help="PostgreSQL: print the pg_restore command instead of running it",
    )
    commands["restore"] = cmd_restore
    from .admin_cli import add_admin

    add_admin(sub, commands)


def _pages(out: Console) -> Any:
    """A progress bar of pages copied (rich), and the callback that moves it."""
    from rich.progress import Progress

    bar = Progress(console=out, transient=True)
    task = bar.add_task("copying", total=None)

    def step(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    return bar, step


def cmd_backup(args: argparse.Namespace, out: Console) -> int:
    from .backup import backup
    from .configuration import load_settings

    flags = {"database": args.database} if args.database else {}
    settings = load_settings(flags, config=args.config)
    bar, step = _pages(out)
    with bar:
        backup(
            settings.database,
            args.out,
            force=args.force,
            dry_run=args.dry_run,
            say=lambda s: out.print(s, markup=False, highlight=False),
            progress=step,
        )
    return 0


def cmd_restore(args: argparse.Namespace, out: Console) -> int:
    from .backup import restore

    bar, step = _pages(out)
    with bar:
        restore(
            args.backup,
            args.database,
            force=args.force,
            dry_run=args.dry_run,
            say=lambda s: out.print(s, markup=False, highlight=False),
            progress=step,
        )
    return 0


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


FLAGS = ("database", "bot_delay", "host", "port", "role", "bus", "log_level", "log_format")


def settings_from(args: argparse.Namespace, env: Any = None) -> Settings:
    """The server's settings: `parlour serve`'s flags (those given) and `--setting`s over the
    environment, secret files and the settings file (server/configuration.py); anything bad is
    a clear error."""
    from .configuration import load_settings, setting_names

    flags: dict[str, Any] = {
        k: getattr(args, k) for k in FLAGS if getattr(args, k, None) is not None
    }
    known = setting_names()
    for item in args.setting:
        key, sep, raw = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in known:
            raise ParlourError(
                f"--setting {item!r}: use KEY=VALUE with a KEY of: {', '.join(known)}"
            )
        flags[key] = raw
    # a serving process collects its garbage its own way (server/collector.py)
    return load_settings(
        flags, config=getattr(args, "config", None), env=env, defaults={"freeze_gc": True}
    )


def _say_where(out: Console, host: str, port: int) -> None:
    """Where friends can reach the server, or why they cannot (server/lan.py)."""
    from .lan import HOW, invite_links

    links = invite_links(host, port, "/")
    if links:
        out.print("Friends on the same network open: " + "  ".join(links))
    elif host in ("127.0.0.1", "localhost", "::1"):
        out.print(escape(HOW))


def print_settings(settings: Settings, out: Console) -> None:
    """The settings as TOML (a settings file to start from); secrets as ***."""
    import json

    from .configuration import shown_settings

    for key, value in shown_settings(settings).items():
        if value is None:
            out.print(f"# {key} =  (not set)", markup=False, highlight=False)
        elif isinstance(value, bool):
            out.print(f"{key} = {'true' if value else 'false'}", markup=False, highlight=False)
        elif isinstance(value, str):
            out.print(f"{key} = {json.dumps(value)}", markup=False, highlight=False)
        else:
            out.print(f"{key} = {value!r}", markup=False, highlight=False)


def cmd_serve(args: argparse.Namespace, out: Console) -> int:
    import uvicorn

    from .app import create_app
    from .compression import websocket_protocol
    from .logs import configure_logging
    from .protocols import guarded_http
    from .storage import Store, StoreError, database_url

    settings = settings_from(args)
    if args.print_settings:
        print_settings(settings, out)
        return 0
    if settings.role != "all" and not settings.bus:
        out.print("[red]parlour serve: a gateway or a worker needs --bus redis://… (the bus)[/]")
        return 2
    if settings.role != "all" and database_url(settings.database).startswith("sqlite"):
        out.print("[red]parlour serve: several processes share PostgreSQL, not SQLite[/]")
        return 2
    try:
        configure_logging(settings.log_level, settings.log_format, settings.role)
    except ValueError as exc:
        raise ParlourError(str(exc)) from None
    try:  # opened here, so that a database this server cannot use is a sentence, not a traceback
        store = Store(settings.database)
    except StoreError as exc:
        out.print(f"[red]parlour serve: {escape(str(exc))}[/]")
        return 2
    try:
        app = create_app(settings, store)
        where = f"http://{settings.host}:{settings.port}/"
        if settings.role == "worker":
            # a worker answers HTTP for its health and metrics only (server/health.py); uvicorn
            # runs it on uvloop, as it runs a gateway (about 5% less CPU a move than asyncio's
            # own loop: server_load.py --processes, in alternating runs), and its SIGTERM ends
            # the app's lifespan, where the worker drains its tables to its peers
            out.print(f"parlour: a table worker (bus {settings.bus}); health at {where}readyz")
        else:
            shown = settings.database.split("@")[-1]
            out.print(f"parlour: {where}  (database {shown})")
            _say_where(out, settings.host, settings.port)
        # uvicorn stops gracefully on SIGTERM, then raises the signal again so that the process
        # dies by it; by default that skips the interpreter's exit handlers, and with them
        # multiprocessing's finalizers, so the resource tracker found the process pools'
        # semaphores "leaked" whenever a pool was not yet collected (test_server_shutdown.py).
        # Its raised-again SIGTERM ends the serve command instead, which returns 0, as a server
        # asked to stop and stopped.
        previous = signal.signal(signal.SIGTERM, _stop_serving)
        before = answer_sigusr2()  # `kill -USR2 <pid>`: where each task waits, in the log
        try:
            uvicorn.run(
                app,
                host=settings.host,
                port=settings.port,
                log_level=settings.log_level,
                log_config=None,  # every logger goes through server/logs.py
                # X-Forwarded-For is the app's to trust (settings.trust_forwarded), never uvicorn's:
                # uvicorn believes it from 127.0.0.1 by default, which let any local caller pose as
                # any client and spread one client's limits over made-up addresses
                proxy_headers=False,
                http=guarded_http(settings.request_timeout, settings.connections_per_client),
                ws=websocket_protocol(threshold=1024),
                ws_max_size=64 * 1024,
                ws_ping_interval=20,
                ws_ping_timeout=20,
                timeout_graceful_shutdown=math.ceil(settings.stop_timeout),  # uvicorn: whole s
            )
        except _Stopped:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
            signal.signal(signal.SIGUSR2, before)
    finally:
        store.close()
    return 0


class _Stopped(Exception):
    """SIGTERM once uvicorn has shut the app down (see `serve`)."""


def _stop_serving(signum: int, frame: object) -> None:
    raise _Stopped
