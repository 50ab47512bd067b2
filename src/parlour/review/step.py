"""`parlour replay FILE --step`: a record stepped through move by move in the terminal.

Each position is drawn by the game's own renderer from a chosen seat's view (a spectator's by
default), with the move that led to it and what it made happen in the game's words. With
`open_hands` — a finished game only — the table is the spectator's and every seat's private part
of its view (its hand) is listed under it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.markup import escape

from parlour.core import ParlourError, Record, State, make, view_to_wire
from parlour.core.registry import GameInfo, info

__all__ = ["STEP_HELP", "Stepper", "private_parts", "show_position", "step_through"]

STEP_HELP = "[Enter] next · b back · a number: go to that move · e end · q quit"


class Stepper:
    """A record's positions: `state(0)` before the first move, `state(i)` after move i."""

    def __init__(self, record: Record) -> None:
        game = make(record.game, players=record.players, rules=record.rules)
        state: State = game.new_game(seed=record.seed, **record.setup)
        self.record = record
        self.states = [state.copy()]
        self.movers: list[int | None] = []
        for text in record.moves:
            self.movers.append(state.to_play)
            state.apply(text)
            self.states.append(state.copy())

    def __len__(self) -> int:
        return len(self.record.moves)

    def state(self, i: int) -> State:
        return self.states[i]

    def new_events(self, i: int, viewer: int | None) -> list[Any]:
        """The events move `i` (from 1) made, as `viewer` saw them."""
        before = self.states[i - 1].view(viewer)["events"]
        after = self.states[i].view(viewer)["events"]
        return list(after[len(before) :])


def private_parts(state: State, seat: int) -> dict[str, Any]:
    """What `seat`'s view shows that a spectator's does not (its hand, in the games here)."""
    mine = state.view(seat)
    public = state.view(None)
    missing = object()
    return {
        k: v
        for k, v in mine.items()
        if k not in ("viewer", "events") and public.get(k, missing) != v
    }


def _words(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(x, str) for x in value):
        return ", ".join(value) if value else "nothing"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_words(v)}" for k, v in value.items())
    return json.dumps(value)


def show_position(
    out: Console,
    gi: GameInfo,
    state: State,
    names: list[str],
    seat: int | None,
    open_hands: bool,
) -> None:
    """Draw `state` from `seat`'s view (None: a spectator's), or open with every hand listed."""
    viewer = None if open_hands else seat
    view = state.view(viewer)
    if gi.render is not None:
        out.print(gi.render(view, viewer, names))
    else:
        out.print_json(json.dumps(view_to_wire(view)))
    if open_hands:
        for p in range(len(names)):
            parts = private_parts(state, p)
            if parts:
                words = "; ".join(f"{k}: {_words(v)}" for k, v in parts.items())
                out.print(f"  [bold]{escape(names[p])}[/] — {escape(words)}")
    if state.is_over:
        res = state.result()
        won = ", ".join(names[w] for w in res.winners)
        out.print(f"Winner: {escape(won)}" + (f" — {escape(res.reason)}" if res.reason else ""))


def step_through(
    record: Record,
    names: list[str],
    out: Console,
    *,
    seat: int | None = None,
    open_hands: bool = False,
    read: Callable[[str], str] = input,
) -> int:
    """Step through `record` at the terminal: Enter = next, b = back, a number = that move,
    e = the end, q = quit. Returns the exit code."""
    steps = Stepper(record)
    gi = info(record.game)
    if open_hands and not steps.state(len(steps)).is_over:
        raise ParlourError("--open shows every hand of a finished game only; this one is not")
    n = len(steps)
    i = 0
    out.print(f"{STEP_HELP}  ({n} moves)")
    while True:
        _show_step(out, gi, steps, i, names, seat, open_hands)
        while True:
            try:
                text = read(f"move {i}/{n}> ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                out.print()
                return 0
            if text in ("q", "quit", "exit"):
                return 0
            if text in ("", "n", "next"):
                if i < n:
                    i += 1
                    break
                out.print("That was the last move (b goes back, a number jumps, q quits).")
                continue
            if text in ("b", "back", "p"):
                if i > 0:
                    i -= 1
                    break
                out.print("This is the start of the game.")
                continue
            if text in ("e", "end"):
                i = n
                break
            if text.isdigit() and 0 <= int(text) <= n:
                i = int(text)
                break
            out.print(f"[red]Not a step:[/] {escape(text)}. {STEP_HELP} (moves 0 to {n}).")


def _show_step(
    out: Console,
    gi: GameInfo,
    steps: Stepper,
    i: int,
    names: list[str],
    seat: int | None,
    open_hands: bool,
) -> None:
    n = len(steps)
    if i == 0:
        out.rule(f"{gi.title} — the start ({n} moves)")
    else:
        out.rule(f"{gi.title} — move {i} of {n}")
        mover = steps.movers[i - 1]
        who = names[mover] if mover is not None else "?"
        out.print(f"[bold]{escape(who)}[/]: {escape(steps.record.moves[i - 1])}")
        # an open replay tells each move as its mover saw it (what they drew, say)
        viewer = mover if open_hands else seat
        for ev in steps.new_events(i, viewer):
            out.print("    · " + escape(gi.describe_event(ev, names)))
    show_position(out, gi, steps.state(i), names, seat, open_hands)
