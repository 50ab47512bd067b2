"""The HTTP API, one router per subject (see `/docs`): games, tables, history, review,
tournaments, and the pages."""

from .games import router as games_router
from .history import router as history_router
from .pages import router as pages_router
from .review import router as review_router
from .tables import router as tables_router
from .tournaments import router as tournaments_router

__all__ = [
    "games_router",
    "history_router",
    "pages_router",
    "review_router",
    "tables_router",
    "tournaments_router",
]
