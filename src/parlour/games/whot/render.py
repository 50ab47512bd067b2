"""A player's view of Whot! as text for the terminal (Rich console markup)."""

from __future__ import annotations

import re
from typing import Any

from rich.markup import escape

__all__ = ["describe_card", "describe_event", "render"]

_STYLE = {
    "circle": ("●", "bold red"),
    "triangle": ("▲", "bold green"),
    "cross": ("✚", "bold blue"),
    "square": ("■", "bold magenta"),
    "star": ("★", "bold yellow"),
}


def describe_card(text: str) -> str:
    """`5 circle` -> a coloured `5●` with the word kept for colour-blind players: `5● circle`."""
    if text == "whot":
        return "[bold white on black] WHOT [/]"
    num, sym = text.split()
    glyph, style = _STYLE[sym]
    extra = f" ({int(num) * 2})" if sym == "star" else ""
    return f"[{style}]{num}{glyph}[/] {sym}{extra}"


def _name(names: list[str], i: int) -> str:
    return escape(names[i]) if 0 <= i < len(names) else f"P{i + 1}"


def render(view: dict[str, Any], viewer: int | None, names: list[str]) -> str:
    lines = []
    n = view["players"]
    arrow = "→" if view["direction"] == 1 else "←"
    seats = []
    for i in range(n):
        mark = "▶ " if view["to_play"] == i else "  "
        who = _name(names, i) + (" (you)" if i == viewer else "")
        known = view["known"][i]
        extra = f", known: {', '.join(known)}" if known and i != viewer else ""
        seats.append(f"{mark}{who}: {view['counts'][i]} cards{extra}")
    lines.append(f"[bold]Players[/] (play passes {arrow}):")
    lines.extend("  " + s for s in seats)
    call_card = view.get("call_card")
    if call_card is None:
        lines.append("Call card: none yet — the leader plays any card")
    else:
        line = f"Call card: {describe_card(call_card)}"
        if call_card == "whot" and view["call"]:
            line += f"  calling for [bold]{view['call']}s[/]"
        elif call_card == "whot":
            line += "  (no call: any card may be played)"
        lines.append(line)
    pack = f"Market: {view['pack_count']} cards"
    if view["pack"] is not None:
        more = "…" if len(view["pack"]) > 5 else ""
        pack += " (order known: " + ", ".join(view["pack"][:5]) + more + ")"
    lines.append(pack)
    if view["pending_pick"]:
        pick, number = view["pending_pick"], view["pick_number"]
        lines.append(f"[bold red]Pending: pick {pick}[/] (answer with a {number} or draw)")
    if view["pending_skip"]:
        lines.append("[bold red]Skipped by a WHOT[/]: answer with a WHOT or pass")
    if view["turn_cards"]:
        lines.append("This turn so far: " + ", ".join(view["turn_cards"]) + " — play on or 'end'")
    if viewer is not None and "hand" in view:
        hand = sorted(view["hand"], key=_sort_key)
        lines.append("[bold]Your hand:[/] " + "  ".join(describe_card(c) for c in hand))
    if view["is_over"]:
        lines.append(f"[bold]Game over[/]: {escape(view['reason'])}")
        for i, s in enumerate(view.get("scores", [])):
            won = " — winner" if i in view["winners"] else ""
            lines.append(f"  {_name(names, i)}: {s} points against{won}")
    return "\n".join(lines)


def _sort_key(text: str) -> tuple[int, int]:
    if text == "whot":
        return (9, 20)
    num, sym = text.split()
    return (list(_STYLE).index(sym), int(num))


_SAYINGS = {"last card": "Last card!", "semi-last card": "Semi-last card!", "check up": "Check up!"}


def _card_words(text: str) -> str:
    """`7 cross` -> `7 cross` coloured for the terminal (the words stay: colour is not needed)."""
    if text == "whot":
        return "[bold]WHOT[/]"
    num, sym = text.split()
    return f"[{_STYLE[sym][1]}]{num} {sym}[/]"


def _play_words(text: str) -> str:
    """`play whot call star skip, last card` -> `plays WHOT to skip the next player and calls
    for star, saying "Last card!"`."""
    body, _, say = text.partition(", ")
    words = body.split()[1:]  # after "play"
    if words[:2] == ["whot", "call"] and len(words) >= 3:
        power = {"reverse": " to reverse the direction", "skip": " to skip the next player"}
        out = f"plays [bold]WHOT[/]{power.get(words[3], '') if len(words) > 3 else ''}"
        out += f" and calls for [bold]{words[2]}[/]"
    else:
        out = "plays " + _card_words(" ".join(words))
    if say:
        out += f", saying “{_SAYINGS.get(say, say)}”"
    return out


_FORGOT = re.compile(r"forgot to say (.+): picks (\d+)$")
_PICKED = re.compile(r"picked (\d+)$")
_DEALT = re.compile(r"dealt (\d+) cards? each$")
_TURNED_UP = re.compile(r"turned up (.+)$")


def describe_event(event: list[Any] | tuple[Any, ...], names: list[str]) -> str:
    """One entry of the view's `events` in plain English with the players' names (Rich markup):
    `[0, "play 7 cross"]` -> `Ada plays 7 cross`, `[1, "drew"]` -> `Bob goes to market`."""
    who, what = int(event[0]), str(event[1])
    if who < 0:
        m = _TURNED_UP.match(what)
        if m and m.group(1).split()[-1] in (*_STYLE, "whot"):
            return "The first call card is turned up: " + _card_words(m.group(1))
        if what.endswith("; the lowest hand wins"):
            return "Game over: " + escape(what) + "."
        return escape(what[:1].upper() + what[1:])
    name = _name(names, who)
    if what.startswith("play "):
        try:
            return f"{name} {_play_words(what)}"
        except (KeyError, IndexError, ValueError):
            return f"{name}: {escape(what)}"
    if what == "drew":
        return f"{name} goes to market"
    if m := _PICKED.match(what):
        return f"{name} goes to market and picks {m.group(1)}"
    if m := _DEALT.match(what):
        k = m.group(1)
        return f"{name} deals {k} card{'' if k == '1' else 's'} to each player"
    if m := _FORGOT.match(what):
        said = _SAYINGS.get(m.group(1), m.group(1)).rstrip("!")
        return f"{name} forgot to say “{said}” and picks {m.group(2)}"
    words = {
        "is suspended": f"{name} is suspended and misses a turn",
        "is skipped": f"{name} is skipped",
        "was skipped": f"{name} is skipped",
        "reversed the direction": "Play now passes the other way",
        "general market: everyone else picked one": (
            f"General market: everyone but {name} picks one card"
        ),
        "played the last card": f"{name} has played the last card and wins",
    }
    return words.get(what, f"{name} {escape(what)}")
