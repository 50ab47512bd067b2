"""GET /api/games: every game with its presets, options, bots and browser files."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from parlour.bots import bot_names
from parlour.core import option_table
from parlour.core.options import rules_to_dict
from parlour.core.registry import games as all_games

from ..levels import levels_for
from ..wire import web_assets

__all__ = ["router"]

router = APIRouter(tags=["games"])


@router.get("/api/games", summary="The games, presets, options and bots")
async def list_games() -> list[dict[str, Any]]:
    """The games in the order the house registers them (the first is the one a lobby opens on)."""
    out = []
    for name, gi in all_games().items():
        d = gi.describe()
        d["bots"] = bot_names(name)
        d["levels"] = levels_for(name)  # bot strength in plain words (server/levels.py)
        d["options"] = [
            {
                "name": r.name,
                "type": r.type,
                "doc": r.doc,
                "source": r.source,
                "choices": [str(c) for c in r.choices or ()],
            }
            for r in option_table(gi.rules_class)
        ]
        # every preset's values, so a lobby can show them and let a host edit them
        d["preset_rules"] = {p: rules_to_dict(r) for p, r in gi.presets.items()}
        d["web"] = web_assets(gi)
        out.append(d)
    return out
