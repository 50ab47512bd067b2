"""parlour's game server: tables for friends and bots over HTTP and websockets, every game stored.

`create_app(Settings(database=...))` builds the ASGI app; `parlour serve` runs it under uvicorn.

Both are imported when first asked for, not with the package: the server's process pools (bots'
searches, `thinking.py`; review analyses, `judging.py`) spawn processes that import only the module
of the function they run, and importing the web app there (FastAPI, SQLAlchemy, Alembic) cost each
new process seconds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.extras import needs

if TYPE_CHECKING:
    from .app import create_app
    from .settings import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    # the server's libraries are the server extra's: without them, a sentence naming it
    with needs("server", "parlour's web server"):
        if name == "create_app":
            from .app import create_app

            return create_app
        if name == "Settings":
            from .settings import Settings

            return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
