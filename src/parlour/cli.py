"""The `parlour` command: games, rules, play, replay.

Every game is driven the same way, through the protocol; only `GameInfo.render` knows its look.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

import parlour
from parlour.bots import make_bot
from parlour.bots.levels import bot_name, levels_help, resolve, split_specs
from parlour.core import (
    IllegalMove,
    Match,
    ParlourError,
    State,
    option_table,
    view_to_wire,
)
from parlour.core.events import with_names
from parlour.core.options import parse_assignments
from parlour.core.registry import GameInfo, info
from parlour.core.registry import games as all_games
from parlour.extras import missing_extra

__all__ = ["main"]


def _console() -> Console:
    # At a terminal, Rich wraps between words at its width (left to the terminal, a long line
    # broke mid-word: "W" / "HOT"); piped, lines are left whole.
    return Console(highlight=False, soft_wrap=not sys.stdout.isatty())


# --- parlour games / rules --------------------------------------------------------------------
def cmd_games(args: argparse.Namespace, out: Console) -> int:
    table = Table(title="parlour games")
    for col in ("name", "title", "players", "presets (default first)"):
        table.add_column(col)
    for name, gi in sorted(all_games().items()):
        presets = [gi.default_preset, *(p for p in gi.presets if p != gi.default_preset)]
        table.add_row(name, gi.title, f"{gi.min_players}–{gi.max_players}", ", ".join(presets))
    out.print(table)
    return 0


def cmd_rules(args: argparse.Namespace, out: Console) -> int:
    gi = info(args.game)
    game = _make_game(gi, args)
    table = Table(title=f"{gi.title} — rules {game.preset or '(custom)'}", show_lines=True)
    table.add_column("option", style="bold")
    table.add_column("value")
    table.add_column("meaning and source")
    for row in option_table(gi.rules_class):
        value = getattr(game.rules, row.name)
        if isinstance(value, tuple):
            value = ", ".join(
                f"{k}:{v}" if isinstance(k, int) else str(k) for k, v in _pairs(value)
            )
        choices = f"\n[dim]choices: {', '.join(map(str, row.choices))}[/]" if row.choices else ""
        text = f"{escape(row.doc)}{choices}\n[dim]{escape(row.source)}[/]"
        table.add_row(row.name, escape(str(value)) or "—", text)
    out.print(table)
    out.print(f"Presets: {', '.join(gi.presets)}. Change any option with --set key=value.")
    return 0


def _pairs(value: tuple[Any, ...]) -> list[tuple[Any, Any]]:
    return [(k[0], k[1]) if isinstance(k, tuple) else (k, None) for k in value]


def _make_game(gi: GameInfo, args: argparse.Namespace) -> parlour.Game[Any, Any]:
    rules = getattr(args, "variant", None) or args.rules
    overrides = parse_assignments(args.set)
    return parlour.make(gi.name, players=getattr(args, "players", None), rules=rules, **overrides)


# --- parlour play -------------------------------------------------------------------------------
def _bot_names(game: str, specs: dict[int, str]) -> dict[int, str]:
    """The bots' names at a terminal table, as the lobby names them: after their level ("hard
    bot"), with the seat's number when two would have the same name ("hard bot 2")."""
    names = {seat: bot_name(spec, game) for seat, spec in specs.items()}
    repeated = {n for n in names.values() if list(names.values()).count(n) > 1}
    return {seat: f"{n} {seat + 1}" if n in repeated else n for seat, n in names.items()}


HELP = """Type a move as listed (or its number). Other commands:
  moves    list the legal moves again      hint   what the {hint} would play
  view     show the table again            help   this text
  quit     leave (the match record is saved if you gave --record)"""


class TerminalTable:
    """One person at one seat, bots at the others, for a whole match."""

    def __init__(self, args: argparse.Namespace, out: Console) -> None:
        self.out = out
        self.gi = info(args.game)
        self.game = _make_game(self.gi, args)
        n = self.game.players
        if not 1 <= args.seat <= n:
            raise ParlourError(f"--seat must be from 1 to {n}")
        self.seat = args.seat - 1
        asked = [b.strip() for b in split_specs(args.bots)] if args.bots else ["greedy"]
        others = [i for i in range(n) if i != self.seat]
        asked = [asked[min(k, len(asked) - 1)] for k in range(len(others))]
        # a level's name is its bot's spec (at this table: a level is offered where separated)
        specs = [resolve(a, self.gi.name, self.game.preset, n) for a in asked]
        self.bots = {
            seat: make_bot(spec, self.game, seed=(args.seed or 0) + seat)
            for seat, spec in zip(others, specs, strict=True)
        }
        bots = _bot_names(self.gi.name, dict(zip(others, specs, strict=True)))
        self.names = [args.name if s == self.seat else bots[s] for s in range(n)]
        self.match = Match(self.game, args.match, seed=args.seed, names=self.names)
        self.record_path = Path(args.record) if args.record else None
        self.quiet_bots = args.quiet

    def run(self) -> int:
        out = self.out
        out.print(
            f"[bold]{self.gi.title}[/] — {self.game.preset or 'house rules'}, "
            f"{self.game.players} players, match: {self.match.format.name}. Type 'help'."
        )
        for note in (with_names(n, self.names) for n in self.match.notes):
            out.print(escape(note))
        while not self.match.is_over:
            state = self.match.next_game()
            if self.match.games:
                out.rule(f"Game {len(self.match.games) + 1}")
            if not self._play_game(state):
                self._save()
                out.print("You left the table.")
                return 0
            self.match.finish_game(state)
            self._save()
            self._show_result(state)
        self._show_scoreboard(final=True)
        return 0

    def _local_seat(self) -> int | None:
        seats = self.match.seats
        return seats.index(self.seat) if self.seat in seats else None

    def _names(self) -> list[str]:
        return [self.names[s] for s in self.match.seats]

    def _play_game(self, state: State) -> bool:
        me = self._local_seat()
        shown = 0
        while not state.is_over:
            p = state.to_play
            assert p is not None
            if p == me:
                view = state.view(me)
                shown = self._show_events(view, shown)
                self._render(view, me)
                move = self._ask(state, view)
                if move is None:
                    return False
                state.apply(move)
            else:
                seat = self.match.seats[p]
                bot = self.bots[seat]
                state.apply(bot.choose(state.view(p), state.legal_moves()))
                if not self.quiet_bots and me is not None:
                    shown = self._show_events(state.view(me), shown)
        self._show_events(state.view(me), shown)
        return True

    def _show_events(self, view: dict[str, Any], shown: int) -> int:
        events = view.get("events", [])
        names = self._names()
        for ev in events[shown:]:  # the game's words, plain text
            self.out.print("  · " + escape(self.gi.describe_event(ev, names)))
        return len(events)

    def _render(self, view: dict[str, Any], me: int | None) -> None:
        if self.gi.render is not None:
            self.out.print(self.gi.render(view, me, self._names()))
        else:
            self.out.print_json(json.dumps(view_to_wire(view)))

    def _ask(self, state: State, view: dict[str, Any]) -> Any:
        legal = state.legal_moves()
        self._list_moves(legal)
        while True:
            try:
                text = input("your move> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.out.print()
                return None
            low = text.lower()
            if low in ("quit", "exit", "q"):
                return None
            if low in ("help", "?", "h"):
                self.out.print(escape(HELP.format(hint=bot_name("hint", state.game.name))))
                if self.gi.guide is not None:
                    self.out.print(self.gi.guide(state.game.rules))
                continue
            if low in ("moves", "m"):
                self._list_moves(legal)
                continue
            if low == "view":
                self._render(view, state.to_play)
                continue
            if low == "hint":
                # the browser's hint bot, named as the lobby names its level
                bot = make_bot("hint", state.game, seed=len(state.history))
                move, why = bot.explain(view, legal)
                why = with_names(why, self._names()).removeprefix("hint: ")
                who = bot_name("hint", state.game.name)
                self.out.print(f"hint ({who}): [bold]{escape(str(move))}[/] — {escape(why)}")
                continue
            if low.isdigit():
                k = int(low)
                if 1 <= k <= len(legal):
                    return legal[k - 1]
                choose = "the only move is 1" if len(legal) == 1 else f"choose 1 to {len(legal)}"
                self.out.print(f"[red]There is no move {k}: {choose}.[/]")
                continue
            try:
                return state.check(text)  # the one gate: no move at all, or not legal now and why
            except IllegalMove as exc:  # NotAMove, or NotLegalNow with the game's reason
                self.out.print(
                    f"[red]{escape(exc.reason)}.[/] Type a number from the list, or 'help'."
                )

    def _list_moves(self, legal: Sequence[Any]) -> None:
        cells = [f"[cyan]{i}[/] {escape(str(m))}" for i, m in enumerate(legal, 1)]
        self.out.print("Legal moves: " + "   ".join(cells))

    def _show_result(self, state: State) -> None:
        res = state.result()
        names = self._names()
        me = self._local_seat()
        if me is not None:
            self._render(state.view(me), me)
        won = ", ".join(names[w] for w in res.winners)
        self.out.print(
            f"[bold]Winner:[/] {escape(won)}" + (f" — {escape(res.reason)}" if res.reason else "")
        )
        self._show_scoreboard(final=False)

    def _show_scoreboard(self, final: bool) -> None:
        sb = self.match.scoreboard()
        table = Table(title="Match " + ("result" if final else "scoreboard") + f" ({sb['format']})")
        table.add_column("player")
        for i in range(sb["games_played"]):
            table.add_column(f"g{i + 1}", justify="right")
        table.add_column("total", justify="right", style="bold")
        if self.match.format.kitty:
            table.add_column("kitty paid", justify="right")
        for row in sb["rows"]:
            cells = [escape(row["name"]) + (" (out)" if row["out"] else "")]
            cells += ["" if g is None else str(g) for g in row["games"]]
            cells.append(str(row["total"]))
            if self.match.format.kitty:
                cells.append(str(row["kitty_paid"]))
            table.add_row(*cells)
        self.out.print(table)
        if final:
            winners = ", ".join(self.names[s] for s in sb["winners"])
            pool = f" and takes the kitty of {sb['pool']}" if self.match.format.kitty else ""
            self.out.print(f"[bold]Match winner:[/] {escape(winners)}{pool}")

    def _save(self) -> None:
        if self.record_path is None:
            return
        data = {
            "format": "parlour-match/1",
            "names": self.names,
            "scoreboard": self.match.scoreboard(),
            "games": [g.record for g in self.match.games],
        }
        if self.match.current is not None:
            data["unfinished"] = self.match.current.record().to_dict()
        tmp = self.record_path.with_suffix(self.record_path.suffix + ".tmp")
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        tmp.replace(self.record_path)


def _words(gi: GameInfo, event: Any, names: list[str]) -> str:
    text: str = gi.describe_event(event, names)
    return text


def cmd_play(args: argparse.Namespace, out: Console) -> int:
    return TerminalTable(args, out).run()


# --- parlour replay -------------------------------------------------------------------------------
def cmd_replay(args: argparse.Namespace, out: Console) -> int:
    from parlour.review.files import choose_game, load_games
    from parlour.review.step import show_position, step_through

    games = load_games(args.file)
    if args.step:
        _, entry = choose_game(games, args.game)
        seat = _replay_seat(args, entry.record)
        return step_through(entry.record, entry.names, out, seat=seat, open_hands=args.open)
    chosen = list(enumerate(games, 1))
    if args.game is not None:
        chosen = [choose_game(games, args.game)]
    for k, entry in chosen:
        record, names = entry.record, entry.names
        seat = _replay_seat(args, record)
        gi = info(record.game)
        final = parlour.replay(record)
        names = list(record.names) or names
        if args.open and not final.is_over:
            raise ParlourError("--open shows every hand of a finished game only")
        out.rule(f"{gi.title} — game {k}, {len(record.moves)} moves, seed {record.seed}")
        if args.moves:  # every move, then what it made happen, in the game's words
            state = parlour.replay(record, upto=0)
            seen = 0
            for text in record.moves:
                who = state.to_play
                state.apply(text)
                out.print(f"{escape(names[who]) if who is not None else '?'}: {escape(text)}")
                events = state.view(seat)["events"]
                for ev in events[seen:]:
                    out.print("    · " + escape(_words(gi, ev, names)))
                seen = len(events)
        show_position(out, gi, final, names, seat, args.open)
        if not final.is_over:
            out.print("(unfinished game)")
    return 0


def _replay_seat(args: argparse.Namespace, record: parlour.Record) -> int | None:
    if args.seat is None:
        return None
    if args.open:
        raise ParlourError("choose --seat (one seat's view) or --open (every hand), not both")
    if not 1 <= args.seat <= record.players:
        raise ParlourError(f"--seat must be from 1 to {record.players}")
    return int(args.seat) - 1


# --- entry point ----------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parlour",
        description="Classic tabletop games from their rule sheets: "
        + ", ".join(gi.title for _, gi in sorted(all_games().items()))
        + ".",
    )
    parser.add_argument("--version", action="version", version=f"parlour {parlour.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    sub.add_parser("games", help="list the games, their player counts and rule presets")

    def rules_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("game", help="game name (see `parlour games`)")
        p.add_argument("--rules", "-r", help="rule preset name or house-rules .toml file")
        p.add_argument("--variant", help="another word for --rules (e.g. partnership, points)")
        p.add_argument(
            "--set", "-s", action="append", metavar="KEY=VALUE", help="override one rule option"
        )

    r = sub.add_parser("rules", help="show every rule option of a game with its source")
    rules_args(r)
    r.add_argument("--players", "-n", type=int, help="number of players (options may depend on it)")

    p = sub.add_parser(
        "play",
        help="play in the terminal against bots",
        epilog=levels_help(sorted(all_games())),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rules_args(p)
    p.add_argument("--players", "-n", type=int, help="number of players (default per game)")
    p.add_argument("--seat", type=int, default=1, help="your seat, from 1 (default 1)")
    p.add_argument("--name", default="You", help="your name at the table")
    p.add_argument(
        "--bots",
        default="greedy",
        help="bots for the other seats, comma-separated, in seat order (the last fills the rest): "
        "levels (easy, medium, hard, expert, master: below) or bot specs such as "
        "ismcts:iterations=200 (default greedy)",
    )
    p.add_argument("--match", help="match format: single, rubber-5, elimination-100, rounds-N …")
    p.add_argument("--seed", type=int, help="seed for a reproducible match")
    p.add_argument("--record", help="save the match records to this JSON file as you play")
    p.add_argument("--quiet", action="store_true", help="do not print the bots' moves one by one")

    rp = sub.add_parser("replay", help="replay a saved record in the terminal")
    rp.add_argument("file", help="a record (.json) saved by play, the server or a State.record()")
    rp.add_argument("--moves", action="store_true", help="list every move")
    rp.add_argument(
        "--step",
        action="store_true",
        help="step through one game: Enter next, b back, a number jumps, q quits",
    )
    rp.add_argument("--seat", type=int, help="show the table from this seat's view (from 1)")
    rp.add_argument("--open", action="store_true", help="show every hand (a finished game only)")
    rp.add_argument("--game", type=int, help="which game of a match file, from 1")
    return parser


COMMANDS: dict[str, Any] = {
    "games": cmd_games,
    "rules": cmd_rules,
    "play": cmd_play,
    "replay": cmd_replay,
}

# Subsystems that add their own subcommands: each module has `add_commands(sub, commands)`, which
# adds its parsers to `sub` and its handlers `(args, console) -> exit code` to `commands`.
PLUGINS = ("parlour.sim.cli", "parlour.server.cli", "parlour.review.cli", "parlour.learn.cli")


def _add_plugins(parser: argparse.ArgumentParser) -> None:
    import importlib

    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name in PLUGINS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and name.startswith(exc.name):
                continue  # that subsystem is not written yet
            raise
        module.add_commands(sub, COMMANDS)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    _add_plugins(parser)
    args = parser.parse_args(argv)
    out = _console()
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return int(COMMANDS[args.command](args, out))
    except ParlourError as exc:
        out.print(f"[red]parlour: {escape(str(exc))}[/]")
        return 2
    except ModuleNotFoundError as exc:
        # a library of one of the extras (the server's, the plots'): say which extra brings it
        missing = missing_extra(exc, f"parlour {args.command}")
        if missing is None:
            raise
        out.print(f"[red]parlour: {escape(str(missing))}[/]")
        return 2
    except KeyboardInterrupt:
        out.print("\nInterrupted.")
        return 130


if __name__ == "__main__":
    sys.exit(main())
