"""The games: each package registers itself with parlour.core.registry.

`parlour.games()` lists them (DESIGN.md). Python binds the name `parlour.games` to this package
as soon as any game module is imported, which would hide that function; so the package itself is
made callable and answers exactly like `parlour.core.registry.games()`.
"""

from __future__ import annotations

import sys
import types
from typing import Any


class _GamesPackage(types.ModuleType):
    def __call__(self) -> dict[str, Any]:
        from parlour.core.registry import games

        return games()


sys.modules[__name__].__class__ = _GamesPackage
