"""Which games exist, what each provides (its manifest), and `make` to build one.

Each game package names everything it provides in one manifest, a `GameInfo` in its `__init__`
(`MANIFESTS`): rules, presets, engine, words for its events, terminal look, bots, search help,
RL encoding, batched engine, self-play for training, browser module and stylesheet. The parts
are written as references ("engine:WhotGame", relative to the package) and imported only when
first used, so importing a game costs nothing and the engine never pulls in what only the
terminal (Rich) or the adapters (NumPy) need.

A game is registered by one line: its package in `BUILTIN_GAMES`, or, for a game that lives
outside parlour, `register_package("my.games.toy")` or the environment variable `PARLOUR_GAMES`
(package names separated by commas), which child processes — a server, simulator workers — see too.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from .errors import RulesError
from .options import load_house_rules, override
from .protocol import Game

__all__ = [
    "GameInfo",
    "WebAssets",
    "games",
    "info",
    "make",
    "register",
    "register_package",
    "resolve_rules",
]

# One line per built-in game package; each lists its games in `MANIFESTS`.
BUILTIN_GAMES = ("parlour.games.whot", "parlour.games.sorry", "parlour.games.whoswho")
ENV_VAR = "PARLOUR_GAMES"


@dataclass(frozen=True)
class WebAssets:
    """A game's browser files: a folder of its package, its ES module and its stylesheet."""

    folder: str = "web"
    module: str = "game.js"
    stylesheet: str | None = None


class GameInfo:
    """A game's manifest: its facts, and references to its parts, loaded on first use.

    References are "module:attribute" relative to `package` ("engine:WhotGame" is
    `<package>.engine.WhotGame`). Only `rules`, `presets`, `engine` and `describe` are required.
    """

    def __init__(
        self,
        *,
        name: str,
        title: str,
        summary: str,
        players: tuple[int, int],
        default_players: int,
        package: str,
        rules: str,
        presets: str,
        default_preset: str,
        engine: str,
        describe: str,
        render: str | None = None,
        guide: str | None = None,
        bots: Mapping[str, str] | None = None,
        search: str | None = None,
        encoding: str | None = None,
        batched: str | None = None,
        train: str | None = None,
        web: WebAssets | None = None,
        aliases: Mapping[str, str] | None = None,
    ) -> None:
        self.name = name
        self.title = title
        self.summary = summary
        self.min_players, self.max_players = players
        self.default_players = default_players
        self.package = package
        self.default_preset = default_preset
        self.aliases = dict(aliases or {})
        self.web = web
        self._refs = {
            "rules": rules,
            "presets": presets,
            "engine": engine,
            "describe": describe,
            "render": render,
            "guide": guide,
            "search": search,
            "encoding": encoding,
            "batched": batched,
            "train": train,
        }
        self._bot_refs = dict(bots or {})

    def __repr__(self) -> str:
        return f"<GameInfo {self.name}>"

    def _load(self, ref: str) -> Any:
        module, _, attr = ref.partition(":")
        if not attr:
            raise ValueError(f"{self.name}: reference {ref!r} is not 'module:attribute'")
        full = module if module.startswith(self.package) else f"{self.package}.{module}"
        return getattr(importlib.import_module(full), attr)

    def _optional(self, part: str) -> Any:
        ref = self._refs[part]
        return None if ref is None else self._load(ref)

    # --- the parts, loaded on first use ---------------------------------------------------------
    @cached_property
    def rules_class(self) -> type[Any]:
        cls: type[Any] = self._load(self._refs["rules"] or "")
        return cls

    @cached_property
    def presets(self) -> Mapping[str, Any]:
        table: Mapping[str, Any] = self._load(self._refs["presets"] or "")
        if self.default_preset not in table:
            raise ValueError(f"{self.name}: default preset {self.default_preset!r} is not a preset")
        return table

    @cached_property
    def game_class(self) -> type[Game[Any, Any]]:
        cls: type[Game[Any, Any]] = self._load(self._refs["engine"] or "")
        return cls

    @cached_property
    def describe_event(self) -> Callable[..., str]:
        """`describe_event(event, names)`: one event in plain words, players by name."""
        fn: Callable[..., str] = self._load(self._refs["describe"] or "")
        return fn

    @cached_property
    def render(self) -> Callable[[dict[str, Any], int | None, list[str]], str] | None:
        """`render(view, viewer, names)`: the table for the terminal, as Rich markup."""
        fn: Callable[[dict[str, Any], int | None, list[str]], str] | None = self._optional("render")
        return fn

    @cached_property
    def guide(self) -> Callable[[Any], str] | None:
        """`guide(rules)`: what the terminal's `help` adds for this game — how to read its table
        (a board's symbols) and what its cards do under these rules — as Rich markup."""
        fn: Callable[[Any], str] | None = self._optional("guide")
        return fn

    @cached_property
    def search(self) -> Any:
        """What the game tells the search bots (`parlour.bots.ismcts.SearchHelp`), or None."""
        return self._optional("search")

    @cached_property
    def encoding(self) -> Callable[..., Any] | None:
        """The factory of the game's RL encoding (`encoding(game) -> Encoding`), or None."""
        factory: Callable[..., Any] | None = self._optional("encoding")
        return factory

    @cached_property
    def batched_engine(self) -> Callable[..., Any] | None:
        """The factory of the game's batched engine on arrays (`factory(players, rules)`; the
        `parlour.vector` protocol), or None. It needs NumPy: imported only when asked for."""
        factory: Callable[..., Any] | None = self._optional("batched")
        return factory

    @cached_property
    def self_play(self) -> Callable[..., Any] | None:
        """The factory of the game's self-play on its batched engine, for `parlour train`
        (`factory(players, rules, batch_size, seed, max_moves)`; `parlour.learn.trainer.SelfPlay`),
        or None."""
        factory: Callable[..., Any] | None = self._optional("train")
        return factory

    @property
    def bot_names(self) -> list[str]:
        """The game's own bots (generic ones like `random` serve every game besides)."""
        return list(self._bot_refs)

    def bot(self, name: str) -> Callable[..., Any] | None:
        """The factory of the game's own bot called `name`, or None."""
        ref = self._bot_refs.get(name)
        return None if ref is None else self._load(ref)

    def web_folder(self) -> Path | None:
        """Where the game's browser files are on disk."""
        if self.web is None:
            return None
        module = importlib.import_module(self.package)
        base = Path(module.__file__ or "").parent
        return base / self.web.folder

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "players": [self.min_players, self.max_players],
            "default_players": self.default_players,
            "presets": list(self.presets),
            "default_preset": self.default_preset,
        }


_REGISTRY: dict[str, GameInfo] = {}
_loaded: set[str] = set()


def register(info: GameInfo) -> None:
    """Register one manifest (a game package's `MANIFESTS` are registered by their package)."""
    _REGISTRY[info.name] = info


def register_package(package: str) -> list[GameInfo]:
    """Import a game package and register the games of its `MANIFESTS`."""
    if package in _loaded:
        return [gi for gi in _REGISTRY.values() if gi.package == package]
    module = importlib.import_module(package)
    manifests = tuple(getattr(module, "MANIFESTS", ()))
    if not manifests:
        raise RulesError(f"{package} names no games (it has no MANIFESTS)")
    for gi in manifests:
        register(gi)
    _loaded.add(package)
    return list(manifests)


def _packages() -> list[str]:
    extra = [p.strip() for p in os.environ.get(ENV_VAR, "").split(",") if p.strip()]
    return [*BUILTIN_GAMES, *extra]


def _load_builtins() -> None:
    for package in _packages():
        if package not in _loaded:
            register_package(package)


def games() -> dict[str, GameInfo]:
    """The registered games by name."""
    _load_builtins()
    return dict(_REGISTRY)


def info(name: str) -> GameInfo:
    _load_builtins()
    try:
        return _REGISTRY[name]
    except KeyError:
        names = ", ".join(sorted(_REGISTRY))
        raise RulesError(f"no game called {name!r}; the games are: {names}") from None


def resolve_rules(
    gi: GameInfo, rules: Any = None, overrides: Mapping[str, Any] | None = None
) -> tuple[Any, str | None]:
    """The options object for `rules` (preset name, TOML path, options object or mapping)."""
    preset: str | None = gi.default_preset
    extra: dict[str, Any] = {}
    if rules is None:
        base = gi.presets[gi.default_preset]
    elif isinstance(rules, gi.rules_class):
        base, preset = rules, None
    elif isinstance(rules, Path) or (isinstance(rules, str) and rules.endswith(".toml")):
        named, extra = load_house_rules(rules)
        preset = named or gi.default_preset
        base = _preset(gi, preset)
    elif isinstance(rules, str):
        preset = gi.aliases.get(rules, rules)
        base = _preset(gi, rules)
    elif isinstance(rules, Mapping):
        extra = dict(rules)
        preset = extra.pop("preset", None) or gi.default_preset
        base = _preset(gi, preset)
    else:
        raise RulesError(f"rules must be a preset name, a .toml path or options, not {rules!r}")
    merged = {**extra, **(overrides or {})}
    if merged:
        base = override(base, merged)
    return base, preset


def _preset(gi: GameInfo, name: str) -> Any:
    name = gi.aliases.get(name, name)
    try:
        return gi.presets[name]
    except KeyError:
        names = ", ".join(gi.presets)
        raise RulesError(f"{gi.name} has no preset {name!r}; the presets are: {names}") from None


def make(
    name: str, players: int | None = None, rules: Any = None, **options: Any
) -> Game[Any, Any]:
    """Build a game: `make("whot", players=4, rules="nigerian", deal=5)`.

    `rules` is a preset name, a house-rules .toml path, an options object or a mapping; keyword
    options override it. Raises RulesError with the valid choices when something is off.
    """
    gi = info(name)
    n = gi.default_players if players is None else players
    if not isinstance(n, int) or not gi.min_players <= n <= gi.max_players:
        raise RulesError(
            f"{gi.title} is for {gi.min_players} to {gi.max_players} players, not {players!r}"
        )
    resolved, preset = resolve_rules(gi, rules, options)
    return gi.game_class(n, resolved, preset)
