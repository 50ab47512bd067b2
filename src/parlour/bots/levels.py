"""Difficulty levels — easy, medium, hard, expert, master — each a bot, calibrated on the ladder.

The bot of each level in each game, and how often it beat the level below on the ladder (with its
95% interval), come from `levels.json` beside this module, which `benchmarks/ladder.py
--write-levels` writes from the games it played (docs/lab/ladder.md); nothing here is typed by
hand but the words saying what each kind of bot does. A game has as many levels as the ladder
separated in it — each beat the level below with its whole interval above even — so a game may
stop short of expert. A game the ladder has not measured gets the uncalibrated `DEFAULT_LEVELS`,
without figures.

People choose levels in the lobby (the server's `GET /api/games`) and on the command line
(`parlour play --bots easy,expert`, `parlour simulate --bots hard,medium`): `bot_specs` turns a
level's name into its bot spec for the game.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlour.core import RulesError

__all__ = [
    "DEFAULT_LEVELS",
    "LEVELS_FILE",
    "LEVEL_NAMES",
    "Level",
    "Measured",
    "bot_name",
    "bot_specs",
    "level_of",
    "levels",
    "levels_help",
    "resolve",
    "split_specs",
]

LEVELS_FILE = Path(__file__).with_name("levels.json")
LEVEL_NAMES = ("easy", "medium", "hard", "expert", "master")

#: The levels of a game the ladder has not measured: a guess by kind of bot, with no figures.
DEFAULT_LEVELS = ("random", "greedy", "hint", "ismcts:iterations=1000")

# What each kind of bot does, in words for a person choosing an opponent.
_WORDS = {
    "random": "plays any legal move: good for learning the rules",
    "greedy": "takes the best move it can see right now",
    "hint": "plays by the rules of thumb a good player uses",
    "counter": "counts the cards and plays what you are least likely to follow",
    "ismcts": "thinks ahead by playing out many possible games",
    "sleuth": "remembers every call and works out who must hold what",
    "detective": "remembers every call and what each refused call shows a player lacks",
    "lookahead": "tries each card against many likely deals of the unseen cards",
    "expectimax": "weighs every card the others might draw before its next turn",
    "learned": "a network trained by playing itself hundreds of millions of moves: it reads what "
    "the others' draws and the cards gone show, and plays the card most likely to win",
}


@dataclass(frozen=True)
class Measured:
    """A level against the one below on one ladder table: its wins (a tie half) in `games`."""

    rules: str
    players: int
    wins: float
    games: int
    rate: float
    low: float
    high: float
    deals: int | None = None  # duplicate deals: each played once per seat assignment

    def sentence(self, below: str) -> str:
        """`beats medium in 71% of games (95% interval 64–77%; 200 2-player nigerian games)`."""
        if self.deals is not None:
            over = (
                f"{self.deals:,} {self.players}-player {self.rules} deals on the ladder, each "
                "played from every seat"
            )
        else:
            over = f"{self.games:,} {self.players}-player {self.rules} games on the ladder"
        return (
            f"beats {below} in {self.rate:.0%} of games (95% interval {self.low * 100:.0f}–"
            f"{self.high:.0%}; {over})"
        )


@dataclass(frozen=True)
class Level:
    name: str
    bot: str
    vs_below: tuple[Measured, ...]  # one per ladder table of the game; none for the easiest

    @property
    def words(self) -> str:
        return _WORDS.get(self.bot.partition(":")[0], self.bot)

    def measured(self, rules: str | None = None) -> Measured | None:
        """The figure for rule set `rules` where the ladder has one, else its first."""
        for m in self.vs_below:
            if m.rules == rules:
                return m
        return self.vs_below[0] if self.vs_below else None


@functools.lru_cache(maxsize=1)
def _file() -> dict[str, Any]:
    if not LEVELS_FILE.exists():
        return {"games": {}}
    data: dict[str, Any] = json.loads(LEVELS_FILE.read_text(encoding="utf-8"))
    return data


def levels(game: str) -> list[Level]:
    """The levels of `game`, easiest first: measured on the ladder, or `DEFAULT_LEVELS`."""
    entry = _file()["games"].get(game)
    if entry is None:
        return [Level(n, b, ()) for n, b in zip(LEVEL_NAMES, DEFAULT_LEVELS, strict=False)]
    return [
        Level(lv["name"], lv["bot"], tuple(Measured(**m) for m in lv["vs_below"]))
        for lv in entry["levels"]
    ]


def resolve(spec: str, game: str, rules: str | None = None, players: int | None = None) -> str:
    """A level's name (`hard`) as its bot spec in `game`; any other spec as it is. A level the
    ladder did not separate in this game raises RulesError naming the game's levels.

    Given the table (`rules`, a preset's name, and `players`), a level is refused where the ladder
    measured it at that table and it did not beat the level below there (its whole interval above
    50%): a level is offered at the tables where it was separated, and at those not measured."""
    name = spec.strip()
    offered = levels(game)
    for k, lv in enumerate(offered):
        if lv.name == name:
            here = next((m for m in lv.vs_below if m.rules == rules and m.players == players), None)
            if here is not None and here.low <= 0.5:
                below = offered[k - 1].name
                fine = [f"{m.rules} at {m.players} players" for m in lv.vs_below if m.low > 0.5]
                where = f"; it is offered for {', '.join(fine)}" if fine else ""
                raise RulesError(
                    f"{game} has no {name} level for {rules} at {players} players: there the "
                    f"ladder did not separate it from {below} ({lv.bot}: {here.sentence(below)})"
                    f"{where} (docs/bots.md)"
                )
            return lv.bot
    if name in LEVEL_NAMES:
        have = ", ".join(lv.name for lv in offered)
        raise RulesError(
            f"{game} has the levels {have}: the bot ladder separated no more (docs/bots.md)"
        )
    return name


def split_specs(text: str) -> list[str]:
    """Split `ismcts:iterations=200,c=1,hint` into bot specs: a part with `=` and no `:` belongs
    to the bot before it."""
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "=" in part and ":" not in part and out and ":" in out[-1]:
            out[-1] += "," + part
        else:
            out.append(part)
    return out


def bot_specs(
    text: str, game: str, rules: str | None = None, players: int | None = None
) -> list[str]:
    """Comma-separated bot specs or level names (`easy,ismcts:iterations=200,c=1`) as specs (at
    the table of `rules` and `players` where given: see `resolve`)."""
    return [resolve(s, game, rules, players) for s in split_specs(text)]


def levels_help(games: list[str]) -> str:
    """The levels of every game in words, with their figures, for `--help`."""
    lines = ["levels (easy, medium, hard, expert, master in --bots), measured on the bot ladder:"]
    for game in games:
        lines.append(f"  {game}:")
        below = ""
        for lv in levels(game):
            m = lv.measured()
            fig = f"; {m.sentence(below)}" if m else ""
            lines.append(f"    {lv.name:6s} {lv.bot}{fig}")
            below = lv.name
    return "\n".join(lines)


def level_of(spec: str, game: str) -> str | None:
    """The level that plays bot `spec` in `game` (`hard` for `greedy` where hard is greedy): the
    level with this very spec, else the only level of its kind; None when no level plays it."""
    spec = spec.strip()
    offered = levels(game)
    for lv in offered:
        if lv.bot == spec or lv.name == spec:
            return lv.name
    kind = spec.partition(":")[0]
    same = [lv for lv in offered if lv.bot.partition(":")[0] == kind]
    return same[0].name if len(same) == 1 else None


def bot_name(spec: str, game: str) -> str:
    """What people call a bot in `game`: its level's name ("hard bot"), or its kind where no
    level plays it ("random bot"). The kind is for the details (a profile, a record)."""
    return f"{level_of(spec, game) or spec.strip().partition(':')[0]} bot"
