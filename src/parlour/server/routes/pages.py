"""The browser client's pages: every address the shell draws (`SHELL_PAGES`), the web app
manifest and the service worker."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

__all__ = ["SHELL_PAGES", "STATIC", "router"]

STATIC = Path(__file__).resolve().parents[1] / "static"

router = APIRouter(include_in_schema=False)

# Every one is the same shell (index.html); its script reads the address and draws the page.
SHELL_PAGES = (
    "/",  # the lobby
    "/t/{code}",  # an invite link: a table
    "/rules/{game}",  # a game's rules (?preset=)
    "/learn/{game}",  # a game's tutorial, where its folder has one
    "/review",  # finished games, and uploading a record
    "/review/{game_id}",  # one game's replay and analysis
    "/puzzle/{pid}",  # find the best move
    "/tournaments",  # tournaments: the list and making one
    "/tournaments/{tid}",  # one tournament: standings, rounds, tables
    "/account",  # sign up, log in, the account's page
    "/quick",  # quick match: the queue, then the table
    "/leaderboard/{game}",  # a game's rated players (?preset=)
    "/players/{name}",  # a player's profile
)


async def shell() -> FileResponse:
    return FileResponse(STATIC / "index.html")


for _path in SHELL_PAGES:
    router.add_api_route(_path, shell, methods=["GET"])


@router.get("/sw.js")
async def service_worker() -> FileResponse:
    """The service worker, from the root so that it may serve the whole site offline."""
    return FileResponse(
        STATIC / "sw.js",
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/manifest.webmanifest")
async def manifest() -> FileResponse:
    return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json")
