"""Which games exist, and `make` to build one from a name, a preset and overrides."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import RulesError
from .options import load_house_rules, override
from .protocol import Game

__all__ = ["GameInfo", "games", "make", "register", "resolve_rules"]

# One line per built-in game package; each registers itself when imported.
BUILTIN_GAMES = ("parlour.games.whot", "parlour.games.sorry", "parlour.games.whoswho")


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    summary: str
    min_players: int
    max_players: int
    default_players: int
    presets: Mapping[str, Any]
    default_preset: str
    rules_class: type[Any]
    game_class: type[Game[Any]]
    # Text for the terminal: render(view, viewer, names) -> Rich console markup.
    render: Callable[[dict[str, Any], int | None, list[str]], str] | None = None
    # Preset names to accept under a friendlier word (`--variant partnership`).
    aliases: Mapping[str, str] | None = None
    # Words for one entry of a view's `events`, with players' names, as Rich markup.
    describe_event: Callable[[Any, list[str]], str] | None = None

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
_loaded = False


def register(info: GameInfo) -> None:
    if info.default_preset not in info.presets:
        raise ValueError(f"{info.name}: default preset {info.default_preset!r} is not a preset")
    _REGISTRY[info.name] = info


def _load_builtins() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in BUILTIN_GAMES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            # A game package still being written is simply absent; any other import error is real.
            if exc.name != module:
                raise


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
        preset = gi.aliases.get(rules, rules) if gi.aliases else rules
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
    if gi.aliases and name in gi.aliases:
        name = gi.aliases[name]
    try:
        return gi.presets[name]
    except KeyError:
        names = ", ".join(gi.presets)
        raise RulesError(f"{gi.name} has no preset {name!r}; the presets are: {names}") from None


def make(name: str, players: int | None = None, rules: Any = None, **options: Any) -> Game[Any]:
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
