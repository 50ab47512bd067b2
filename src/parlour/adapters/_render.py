"""Plain-text rendering of a state for the adapters' `render()` (the terminal's look, unstyled)."""

from __future__ import annotations

from parlour.core import State
from parlour.core.registry import info as game_info

__all__ = ["render_text"]


def render_text(state: State, viewer: int | None = None) -> str:
    """The terminal rendering of a state (spectator's view by default), as plain text."""
    gi = game_info(state.game.name)
    view = state.view(viewer)
    if gi.render is None:
        return str(view)
    names = [f"player_{i}" for i in range(state.game.players)]
    markup = gi.render(view, viewer, names)
    try:
        from rich.text import Text

        return Text.from_markup(markup).plain
    except Exception:  # pragma: no cover - rich is a dependency; markup errors fall back
        return markup
