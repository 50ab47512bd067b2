"""parlour's game server: tables for friends and bots over HTTP and websockets, every game stored.

`create_app(Settings(database=...))` builds the ASGI app; `parlour serve` runs it under uvicorn.
"""

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
