"""A player's view of Whot! as text for the terminal (Rich console markup). Events are put into
words by `describe`, for every edge alike."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from parlour.core.events import counted

from .describe import describe_event

__all__ = ["describe_card", "guide", "render"]

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


def _you(names: list[str], i: int, viewer: int | None) -> str:
    """ " (you)" after the viewer's name — unless the name already says it ("You")."""
    if i != viewer or (0 <= i < len(names) and names[i].casefold() == "you"):
        return ""
    return " (you)"


# What each power does, in a few words, for the terminal's help.
_POWERS = {
    "hold_on": "hold on: everyone else is skipped and you play again",
    "pick_two": "pick two: the next player picks two unless they answer with the same number",
    "pick_three": "pick three: the next player picks three unless they answer with the same number",
    "suspension": "suspension: the next player misses a turn",
    "general_market": "general market: everyone else picks one card and you play again",
}


def guide(rules: Any) -> str:
    """What `help` adds at a Whot! table: the cards' symbols and the powers of these rules."""
    symbols = "  ".join(f"[{style}]{glyph}[/] {sym}" for sym, (glyph, style) in _STYLE.items())
    lines = [
        f"[bold]Cards[/]: {symbols}; a star card scores double ([bold yellow]7★[/] star (14)); "
        "[bold white on black] WHOT [/] (20) follows anything and calls the symbol to follow.",
        "Play a card of the call card's symbol or number; nothing follows: draw from the market.",
    ]
    powers = [(n, p) for n, p in rules.powers]
    if powers:
        lines.append("[bold]Powers in these rules[/]:")
        lines.extend(f"  {n}: {_POWERS.get(p, p.replace('_', ' '))}" for n, p in powers)
    else:
        lines.append("No card has a power in these rules.")
    return "\n".join(lines)


def render(view: dict[str, Any], viewer: int | None, names: list[str]) -> str:
    lines = []
    n = view["players"]
    arrow = "→" if view["direction"] == 1 else "←"
    seats = []
    for i in range(n):
        mark = "▶ " if view["to_play"] == i else "  "
        who = _name(names, i) + _you(names, i, viewer)
        known = view["known"][i]
        extra = f", known: {', '.join(known)}" if known and i != viewer else ""
        held = counted(view["hand_counts"][i], "card")
        seats.append(f"{mark}{who}: {held}{extra}")
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
    pack = "Market: " + counted(view["pack_count"], "card")
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
        over = [e for e in view["events"] if e.kind == "game_over"]
        said = describe_event(over[-1], names) if over else view["reason"]
        lines.append(f"[bold]Game over[/]: {escape(said)}")
        for i, s in enumerate(view.get("scores", [])):
            won = " — winner" if i in view["winners"] else ""
            lines.append(f"  {_name(names, i)}: {s} points against{won}")
    return "\n".join(lines)


def _sort_key(text: str) -> tuple[int, int]:
    if text == "whot":
        return (9, 20)
    num, sym = text.split()
    return (list(_STYLE).index(sym), int(num))
