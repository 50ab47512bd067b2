"""A player's view of Who's Who as text for the terminal (Rich console markup).

Both games share it: the view's `game` key says which one. Cards are shown in their suit's colour
(Money yellow, as on the sheet; Society red, Brains blue, Sport green, our choice) with the suit
written out for colour-blind players, and the character's invented name beside it. Events are put
into words by `describe`, for every edge alike.
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from parlour.core.events import counted

from .deck import COLOURS, NAMES, SUITS, parse_card
from .describe import name_of, who_won

__all__ = ["describe_card", "guide", "render"]

_STYLE = {
    "money": "bold yellow",
    "society": "bold red",
    "brains": "bold blue",
    "sport": "bold green",
}


def describe_card(text: str, with_name: bool = False) -> str:
    """`11 brains` -> a coloured `11 brains`, optionally with the character: `(Prof. Owlsley)`."""
    card = parse_card(text)
    out = f"[{_STYLE[card.suit]}]{card.number} {card.suit}[/]"
    if with_name:
        out += f" [dim]({escape(NAMES[card])})[/]"
    return out


def _name(names: list[str], i: int) -> str:
    return escape(name_of(names, i))


def _suit(suit: str) -> str:
    return f"[{_STYLE[suit]}]{suit.capitalize()}[/] ({COLOURS[suit]})"


def render(view: dict[str, Any], viewer: int | None, names: list[str]) -> str:
    if view["game"] == "whoswho-books":
        return _render_books(view, viewer, names)
    return _render_tricks(view, viewer, names)


def _seat_label(view: dict[str, Any], viewer: int | None, names: list[str], i: int) -> str:
    mark = "▶ " if view["to_play"] == i else "  "
    # " (you)" after the viewer's name, unless the name says it already ("You")
    you = " (you)" if i == viewer and name_of(names, i).casefold() != "you" else ""
    return f"{mark}[{i + 1}] {_name(names, i)}{you}"


def _render_tricks(view: dict[str, Any], viewer: int | None, names: list[str]) -> str:
    n = view["players"]
    lines = [
        f"[bold]Who's Who — Game No. 1[/] · deal {view['deal']} of {view['deals']} · "
        f"dealer {_name(names, view['dealer'])}"
    ]
    pref = view["preference"]
    if pref:
        lines.append(f"Preference suit: {_suit(pref)}, named by {_name(names, view['namer'])}")
    elif not view["is_over"]:
        lines.append(f"Preference suit: to be named by {_name(names, view['namer'])}")
    lines.append("[bold]Players[/] (tricks this deal / points):")
    for i in range(n):
        lines.append(
            f"  {_seat_label(view, viewer, names, i)}: {counted(view['hand_counts'][i], 'card')}, "
            f"{view['won'][i]} / {view['scores'][i]}"
        )
    if view["teams"]:
        parts = []
        for t, team in enumerate(view["teams"]):
            who = " & ".join(_name(names, p) for p in team)
            parts.append(f"{who} {view['team_scores'][t]}")
        lines.append("Partnerships: " + " · ".join(parts))
    if view["tricks"]:
        last = view["tricks"][-1]
        cards = ", ".join(f"{_name(names, q)} {describe_card(c)}" for q, c in last["cards"])
        lines.append(f"Last trick: {cards} — won by {_name(names, last['winner'])}")
    if view["trick"]:
        cards = ", ".join(f"{_name(names, q)} {describe_card(c)}" for q, c in view["trick"])
        lines.append(f"[bold]On the table:[/] {cards}")
    if viewer is not None and "hand" in view:
        hand = view["hand"]
        shown = "  ".join(describe_card(c, with_name=True) for c in hand) if hand else "(empty)"
        lines.append(f"[bold]Your hand:[/] {shown}")
    if view["is_over"]:
        lines.append(_game_over(view, names))
    return "\n".join(lines)


def _render_books(view: dict[str, Any], viewer: int | None, names: list[str]) -> str:
    n = view["players"]
    lines = [
        f"[bold]Who's Who — Game No. 2[/] · dealer {_name(names, view['dealer'])} · "
        f"books made {sum(view['book_counts'])} of 13"
    ]
    lines.append("[bold]Players[/]:")
    for i in range(n):
        books = ", ".join(f"{b}s" for b in sorted(view["books"][i])) or "none"
        seat = _seat_label(view, viewer, names, i)
        line = f"  {seat}: {view['hand_counts'][i]} cards, books: {books}"
        known = view["known"][i]
        if known and i != viewer:
            line += " — known to hold " + ", ".join(describe_card(c) for c in known)
        lines.append(line)
    pend = view["pending"]
    if pend:
        lines.append(
            f"[bold]{_name(names, pend['caller'])}[/] "
            f"{'were' if _name(names, pend['caller']) == 'You' else 'was'} given "
            f"{describe_card(pend['card'])} by "
            f"{_name(names, pend['giver'])}: say [bold]thank[/] before calling again"
        )
    if viewer is not None and "hand" in view:
        groups: dict[int, list[str]] = {}
        for t in view["hand"]:
            c = parse_card(t)
            groups.setdefault(c.number, []).append(c.suit)
        parts = []
        for number in sorted(groups):
            suits = sorted(groups[number], key=SUITS.index)
            parts.append(f"{number}: " + " ".join(f"[{_STYLE[s]}]{s}[/]" for s in suits))
        lines.append("[bold]Your hand:[/] " + (" | ".join(parts) if parts else "(empty)"))
    if view["is_over"]:
        lines.append(_game_over(view, names))
    elif view["to_play"] == viewer and viewer is not None:
        lines.append(
            "Call with [bold]ask SEAT for NUMBER SUIT[/] (or a colour), e.g. ask 2 for 4 yellow"
        )
    return "\n".join(lines)


def _game_over(view: dict[str, Any], names: list[str]) -> str:
    """The end in words: who won with how much (from the `game_over` event), and why."""
    res = view["result"]
    over = [e for e in view["events"] if e.kind == "game_over"]
    if over:
        said = who_won(over[-1], names)
    else:  # a game set up from a finished position has no events
        said = " and ".join(name_of(names, w) for w in res["winners"])
    return f"[bold]Game over[/]: {escape(said)} — {escape(res['reason'])}"


def guide(rules: Any) -> str:
    """What `help` adds at a Who's Who table: the suits, and what the game of these rules asks."""
    suits = "  ".join(_suit(s) for s in SUITS)
    lines = [f"[bold]Suits[/]: {suits}; cards 3 to 15, each a character.", "▶: who is to play."]
    if hasattr(rules, "must_follow"):  # Game No. 1: tricks
        lines += [
            "The player after the dealer names the [bold]Preference[/] suit (trumps) for the deal:"
            " the highest Preference card played wins the trick; with none, the highest card of"
            " the suit led.",
            "Follow the suit led when you can." if rules.must_follow else "Any card may be played.",
        ]
    else:  # Game No. 2: books
        lines += [
            "On your call, ask a player for a card (e.g. 'ask 2 for 7 money'): if they hold it "
            "they give it to you; four of a number make a book, laid down at once.",
            "Say 'thank' for a card you were given before your next call, or it goes back."
            if getattr(rules, "thank_you", False)
            else "No thanks are needed for a card given.",
        ]
    return "\n".join(lines)
