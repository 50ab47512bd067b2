"""Inviting friends: the links another machine on the network can open, and their QR codes.

GET /api/invite/{code} says whether this server can be reached beyond this computer (it listens
on more than loopback), gives the invite links on this machine's network addresses, and how to
change it when it cannot; GET /api/invite/{code}/qr.svg draws an invite link as a QR code (a
phone's camera opens it), server-side with `segno`.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from ..lan import HOW, invite_links, listens_beyond_loopback, qr_svg
from ..tables import TableError
from .deps import GatewayDep, SettingsDep
from .models import ERRORS

__all__ = ["router"]

router = APIRouter(tags=["tables"])


@router.get(
    "/api/invite/{code}",
    summary="Invite links a friend's phone on the same network can open",
    responses=ERRORS,
)
async def invite(code: str, gateway: GatewayDep, settings: SettingsDep) -> dict[str, Any]:
    rep = await gateway.replica(code)
    path = f"/t/{rep.code}"
    beyond = listens_beyond_loopback(settings.host)
    return {
        "code": rep.code,
        "path": path,
        "listening": f"{settings.host}:{settings.port}",
        "lan": beyond,
        "links": invite_links(settings.host, settings.port, path),
        "how": None if beyond else HOW,
    }


@router.get(
    "/api/invite/{code}/qr.svg",
    summary="An invite link of the table as a QR code (SVG)",
    response_class=Response,
    responses=ERRORS,
)
async def invite_qr(
    code: str, gateway: GatewayDep, url: Annotated[str, Query(max_length=300)]
) -> Response:
    rep = await gateway.replica(code)
    if not url.startswith(("http://", "https://")) or not url.endswith(f"/t/{rep.code}"):
        raise TableError(f"a QR code here is of an invite link ending /t/{rep.code}", 400)
    return Response(
        qr_svg(url),
        media_type="image/svg+xml",
        headers={"Cache-Control": "public, max-age=86400"},
    )
