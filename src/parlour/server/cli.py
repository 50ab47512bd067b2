"""`parlour serve`: the web server under uvicorn (a plug-in of parlour's CLI)."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

__all__ = ["add_commands", "cmd_serve"]

DEFAULT_DATABASE = "sqlite:///var/parlour.sqlite3"


def add_commands(sub: Any, commands: dict[str, Any]) -> None:
    p = sub.add_parser("serve", help="run the web server: tables for friends and bots")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1 only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--database",
        default=DEFAULT_DATABASE,
        help="sqlite:///path or postgresql://user@host/db (default: ./var/parlour.sqlite3)",
    )
    p.add_argument(
        "--bot-delay", type=float, default=0.6, help="default pause before a bot moves (s)"
    )
    p.add_argument("--log-level", default="info", help="uvicorn log level")
    commands["serve"] = cmd_serve


def cmd_serve(args: argparse.Namespace, out: Console) -> int:
    import uvicorn

    from .app import Settings, create_app

    settings = Settings(database=args.database, bot_delay=args.bot_delay)
    app = create_app(settings)
    shown = args.database.split("@")[-1] if "@" in args.database else args.database
    out.print(f"parlour: http://{args.host}:{args.port}/  (database {shown})")
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=64 * 1024,
        ws_ping_interval=20,
        ws_ping_timeout=20,
    )
    return 0
