"""`python -m parlour.learn train GAME …`: `parlour train` without the rest of the command line
(for a machine that has the `train` extra but not the server's dependencies)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape

from parlour.core import ParlourError

from .cli import add_commands


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m parlour.learn")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    commands: dict[str, Any] = {}
    add_commands(sub, commands)
    args = parser.parse_args(argv)
    out = Console(highlight=False, soft_wrap=True)
    try:
        return int(commands[args.command](args, out))
    except ParlourError as exc:
        out.print(f"[red]parlour: {escape(str(exc))}[/]")
        return 2


if __name__ == "__main__":
    sys.exit(main())
