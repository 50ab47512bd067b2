"""The `learned` Whot! bot (level `master`): a Q(s, a) network trained by self-play, in NumPy.

It plays from its view alone, as every bot does: `WhotEncoding.observe(view)` and what the public
events show each seat lacks (`held_at_most`) make the features (`features.Features`), and the
network (`parlour.learn.qnet`) scores each legal move; the best is played. No search, no JAX: one
decision costs well under a millisecond (`benchmarks/learned_speed.py`).

The weights ship in `weights/` beside this module, one file per rule set and table size they were
trained for (`nigerian-2p.npz`, with its card `nigerian-2p.json` naming the run). A game under any
other rules — another preset, a house rule changed, another number of players — is refused with
a sentence naming what there is: the network never saw those rules.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from parlour.bots.base import Bot
from parlour.core import Game, Move, RulesError
from parlour.learn.qnet import QNet, load

from ..encoding import WhotEncoding
from ..hint import held_at_most
from ..rules import PRESETS, WhotRules
from .features import CAP_MOST, Features

__all__ = ["WEIGHTS", "LearnedBot", "card", "relative_caps", "trained_for", "weights_path"]

WEIGHTS = Path(__file__).with_name("weights")


def relative_caps(caps: Sequence[Sequence[int]], me: int) -> np.ndarray[Any, Any]:
    """`held_at_most`'s caps as the features take them (1, seats, kinds), seats relative to
    `me`, counts above `CAP_MOST` kept as `CAP_MOST` (as `CapsTracker` keeps them in training)."""
    n = len(caps)
    rel = np.array([[caps[(me + k) % n] for k in range(n)]], np.int64)
    return np.minimum(rel, CAP_MOST).astype(np.int16)


def weights_path(preset: str, players: int) -> Path:
    return WEIGHTS / f"{preset}-{players}p.npz"


def trained_for() -> list[tuple[str, int]]:
    """The (preset, players) tables with shipped weights."""
    out = []
    for p in sorted(WEIGHTS.glob("*p.npz")):
        preset, _, n = p.stem.rpartition("-")
        out.append((preset, int(n[:-1])))
    return out


def card(preset: str, players: int) -> dict[str, Any]:
    """The card of the shipped weights: how they were trained (command, seed, decisions, …)."""
    path = weights_path(preset, players).with_suffix(".json")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@functools.lru_cache(maxsize=8)
def _shipped(preset: str, players: int) -> QNet:
    return load(weights_path(preset, players))


# Options of a match or a table, not of the play of one game: a network plays through them.
_TABLE_ONLY = ("move_clock", "match", "dealer_by_cut")


def _play_rules(rules: WhotRules, players: int) -> WhotRules:
    return replace(rules.for_table(players), **{k: getattr(WhotRules(), k) for k in _TABLE_ONLY})


def _table_name(game: Game[Any, Any]) -> str | None:
    """The preset whose rules of play the game has (a match format or a clock may differ), or
    None: the game's rules, not its preset's name, decide (a server rebuilds a table's game from
    its options)."""
    mine = _play_rules(game.rules, game.players)
    names = [game.preset] if game.preset in PRESETS else []
    for name in [*names, *PRESETS]:
        if _play_rules(PRESETS[name], game.players) == mine:
            return name
    return None


class LearnedBot(Bot):
    """Plays the move of highest Q(s, a) under the network trained for the game's rules."""

    name = "learned"

    def __init__(
        self, game: Game[Any, Any], rng: random.Random, net: QNet | None = None, **params: str
    ) -> None:
        super().__init__(game, rng, **params)
        if net is None:
            preset = _table_name(game)
            have = trained_for()
            if preset is None or (preset, game.players) not in have:
                tables = ", ".join(f"{p} at {n} players" for p, n in have) or "none yet"
                what = (
                    f"{preset} at {game.players} players"
                    if preset
                    else "these house rules (a preset with options changed)"
                )
                raise RulesError(
                    f"the learned Whot! bot (level master) has no trained network for {what}: "
                    f"it was trained for {tables}"
                )
            net = _shipped(preset, game.players)
        meta = net.meta
        if meta.get("players", game.players) != game.players:
            raise RulesError(
                f"this network was trained for {meta['players']} players, not {game.players}"
            )
        self.net = net
        self.encoding = WhotEncoding(game)
        self.features = Features.of(game.rules, game.players, self.encoding.layout.offsets)
        if self.features.state_size != net.state_size:
            raise RulesError("this network was trained on other features than these rules give")
        self.ids = dict(self.encoding.index)
        self.whot_on_whot = game.rules.whot_on_whot

    def q_values(self, view: Mapping[str, Any], legal: list[Move]) -> np.ndarray[Any, Any]:
        """Q of each legal move (the network's estimate of the mover's return: +1 a win)."""
        n = self.game.players
        obs = self.encoding.observe(view)[None, :]
        caps = held_at_most(view["events"], n, self.whot_on_whot)
        state, tables = self.features.derive(obs, relative_caps(caps, int(view["viewer"])))
        ids = np.array([self.ids[m] for m in legal], np.int64)
        pair = tables.pairs(np.zeros(ids.size, np.int64), ids)
        q: np.ndarray[Any, Any] = self.net.q(state, ids[None, :], pair[None, :, :])[0]
        return q

    def choose(self, view: Mapping[str, Any], legal: list[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        return legal[int(np.argmax(self.q_values(view, legal)))]

    def explain(self, view: Mapping[str, Any], legal: list[Move]) -> tuple[Move, str]:
        q = self.q_values(view, legal)
        best = int(np.argmax(q))
        chance = (float(q[best]) + 1) / 2
        return legal[best], f"the trained network rates this best (about {chance:.0%} to win)"

    def q_rows(self, views: Sequence[Mapping[str, Any]], legals: list[list[Move]]) -> list[Any]:
        """Q of each legal move in each of many views, in one pass of the network (the views
        padded to the longest list of moves): what the search's inference asks of many hands."""
        n = self.game.players
        obs = np.stack([self.encoding.observe(v) for v in views])
        caps_of: dict[int, list[list[int]]] = {}
        rel = np.empty((len(views), n, 6), np.int16)
        for r, v in enumerate(views):
            events = v["events"]
            key = len(events)  # the views of one decision share a history: one reading a length
            caps = caps_of.get(key)
            if caps is None:
                caps = caps_of[key] = held_at_most(events, n, self.whot_on_whot)
            me = int(v["viewer"])
            rel[r] = [caps[(me + k) % n] for k in range(n)]
        state, tables = self.features.derive(obs, rel)
        width = max(len(m) for m in legals)
        ids = np.zeros((len(views), width), np.int64)
        for r, legal in enumerate(legals):
            row = [self.ids[m] for m in legal]
            ids[r, : len(row)] = row
            ids[r, len(row) :] = row[0]
        rows = np.repeat(np.arange(len(views)), width)
        pair = tables.pairs(rows, ids.reshape(-1)).reshape(len(views), width, -1)
        q = self.net.q(state, ids, pair)
        return [q[r, : len(legal)] for r, legal in enumerate(legals)]
