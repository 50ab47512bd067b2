"""Rules as data: one frozen dataclass of options per game, named presets, and house rules.

Every option is declared with `option(...)`, which records the seed sentence it comes from and what
it means, so `parlour rules GAME` can print the whole table and a wrong `--set` can say what would
be right. Overrides arrive as typed values (keyword arguments, TOML) or as text (`--set key=value`);
both are checked against the field's type and choices here, in one place.
"""

from __future__ import annotations

import dataclasses
import tomllib
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .errors import RulesError

__all__ = [
    "OptionInfo",
    "load_house_rules",
    "option",
    "option_table",
    "override",
    "parse_assignments",
    "parse_bool",
    "rules_to_dict",
]

R = TypeVar("R")

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def option(
    default: Any,
    doc: str,
    source: str,
    *,
    choices: tuple[Any, ...] | None = None,
    low: int | None = None,
    high: int | None = None,
) -> Any:
    """Declare a rule option: its default, its meaning and the sentence of the sheets behind it."""
    return dataclasses.field(
        default=default,
        metadata={"doc": doc, "source": source, "choices": choices, "low": low, "high": high},
    )


@dataclass(frozen=True)
class OptionInfo:
    name: str
    type: str
    default: Any
    doc: str
    source: str
    choices: tuple[Any, ...] | None


_OPTION_TYPES: dict[type[Any], dict[str, Any]] = {}


def option_types(rules_cls: type[Any]) -> dict[str, Any]:
    """The options' types (the annotations resolved once per rules class: resolving them is slow,
    and the server turns rules into JSON each time a table's facts go out)."""
    hints = _OPTION_TYPES.get(rules_cls)
    if hints is None:
        hints = _OPTION_TYPES[rules_cls] = typing.get_type_hints(rules_cls)
    return hints


def option_table(rules_cls: type[Any]) -> list[OptionInfo]:
    hints = option_types(rules_cls)
    rows = []
    for f in dataclasses.fields(rules_cls):
        rows.append(
            OptionInfo(
                name=f.name,
                type=_type_name(hints[f.name]),
                default=f.default,
                doc=f.metadata.get("doc", ""),
                source=f.metadata.get("source", ""),
                choices=f.metadata.get("choices"),
            )
        )
    return rows


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            inner = args[0]
            if typing.get_origin(inner) is tuple:
                return "map"
            return f"list of {_type_name(inner)}"
    return getattr(tp, "__name__", str(tp))


def rules_to_dict(rules: Any) -> dict[str, Any]:
    """A JSON-able dict of every option (maps become {"key": value} objects)."""
    out: dict[str, Any] = {}
    hints = option_types(type(rules))
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        if _type_name(hints[f.name]) == "map":
            value = {str(k): v for k, v in value}
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out


def override(rules: R, values: Mapping[str, Any]) -> R:
    """A copy of `rules` with `values` applied; text values are parsed by the option's type."""
    if not values:
        return rules
    fields = {f.name: f for f in dataclasses.fields(rules)}  # type: ignore[arg-type]
    hints = option_types(type(rules))
    changes: dict[str, Any] = {}
    for key, raw in values.items():
        name = key.replace("-", "_")
        if name not in fields:
            known = ", ".join(sorted(fields))
            raise RulesError(f"unknown rule option {key!r}; the options are: {known}")
        changes[name] = _coerce(name, raw, hints[name], fields[name].metadata)
    try:
        return dataclasses.replace(rules, **changes)  # type: ignore[type-var]
    except RulesError:
        raise
    except (TypeError, ValueError) as exc:  # __post_init__ checks of the game's own
        raise RulesError(str(exc)) from exc


def _coerce(name: str, raw: Any, tp: Any, meta: Mapping[str, Any]) -> Any:
    kind = _type_name(tp)
    try:
        if kind == "bool":
            value: Any = parse_bool(raw)
        elif kind == "int":
            if isinstance(raw, bool):
                raise ValueError
            value = int(raw)
        elif kind == "float":
            value = float(raw)
        elif kind == "str":
            value = str(raw).strip()
        elif kind == "map":
            value = _to_map(raw, typing.get_args(typing.get_args(tp)[0]))
        elif kind.startswith("list of"):
            items = [s.strip() for s in raw.split(",")] if isinstance(raw, str) else list(raw)
            value = tuple(x for x in items if x != "")
        else:  # pragma: no cover - every game's options use the kinds above
            value = raw
    except (TypeError, ValueError):
        raise RulesError(f"option {name} takes {_describe_kind(kind)}, not {raw!r}") from None
    choices = meta.get("choices")
    if choices is not None:
        values = value if isinstance(value, tuple) and kind != "map" else (value,)
        if kind == "map":
            values = tuple(v for _, v in value)
        for v in values:
            if v not in choices:
                allowed = ", ".join(str(c) for c in choices)
                raise RulesError(f"option {name} cannot be {v!r}; choose from: {allowed}")
    low, high = meta.get("low"), meta.get("high")
    if (low is not None and value < low) or (high is not None and value > high):
        raise RulesError(f"option {name} must be between {low} and {high}, not {value}")
    return value


def _describe_kind(kind: str) -> str:
    return {
        "bool": "true or false",
        "int": "a whole number",
        "float": "a number",
        "map": "pairs like 1:hold_on,2:pick_two",
    }.get(kind, kind)


def parse_bool(raw: Any) -> bool:
    """true/yes/on/1 or false/no/off/0 (any case), as rule options and bot parameters take them."""
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(f"{raw!r} is not true or false (1 or 0, yes or no, on or off)")


def _to_map(raw: Any, types: tuple[Any, ...]) -> tuple[tuple[Any, Any], ...]:
    key_type, value_type = types
    if isinstance(raw, str):
        pairs = []
        for part in raw.split(","):
            if not part.strip():
                continue
            k, sep, v = part.partition(":")
            if not sep:
                raise ValueError(part)
            pairs.append((k.strip(), v.strip()))
    elif isinstance(raw, Mapping):
        pairs = list(raw.items())
    else:
        pairs = [tuple(p) for p in raw]
    return tuple(sorted((key_type(k), value_type(v)) for k, v in pairs))


def parse_assignments(items: list[str] | None) -> dict[str, str]:
    """`["deal=5", "straights=any-symbol"]` -> dict; a word without `=` is an error that says so."""
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RulesError(f"--set takes key=value, not {item!r}")
        out[key.strip()] = value.strip()
    return out


def load_house_rules(path: str | Path) -> tuple[str | None, dict[str, Any]]:
    """Read a house-rules TOML file: an optional `preset = "name"` and any options beside it.

    Options may also sit under a `[rules]` table. Returns (preset, overrides).
    """
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesError(f"house-rules file {str(p)!r} does not exist") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"house-rules file {str(p)!r} is not valid TOML: {exc}") from None
    preset = data.pop("preset", None)
    if preset is not None and not isinstance(preset, str):
        raise RulesError(f"{p}: preset must be a name in quotes")
    table = data.pop("rules", {})
    if not isinstance(table, dict):
        raise RulesError(f"{p}: [rules] must be a table of options")
    data.update(table)
    return preset, data
