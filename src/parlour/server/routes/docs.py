"""The OpenAPI page at /docs, served from this server (Swagger UI 5 from the `swagger-ui-bundle-v2`
package, mounted at /docs-assets): it works with no connection to the internet."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from ..headers import content_security_policy

__all__ = ["ASSETS", "mount_assets", "router"]

router = APIRouter(include_in_schema=False)
ASSETS = "/docs-assets"


def _bundle() -> Path | None:
    try:
        from swagger_ui_bundle import swagger_ui_path
    except ImportError:  # pragma: no cover - a dependency of the server
        return None
    return Path(str(swagger_ui_path))


def mount_assets(app: FastAPI) -> None:
    """Serve Swagger UI's files (the app's `mount`)."""
    folder = _bundle()
    if folder is not None and folder.is_dir():
        app.mount(ASSETS, StaticFiles(directory=folder), name="docs-assets")


@router.get("/docs")
async def docs(request: Request) -> HTMLResponse:
    page = get_swagger_ui_html(
        openapi_url="/openapi.json",
        title="parlour — HTTP API",
        swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
        swagger_css_url=f"{ASSETS}/swagger-ui.css",
        swagger_favicon_url=f"{ASSETS}/favicon-32x32.png",
    )
    # the page starts Swagger UI with an inline script: the policy allows that one, by its hash
    inline = re.findall(rb"<script>(.*?)</script>", bytes(page.body), re.DOTALL)
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(s).digest()).decode()}'" for s in inline
    )
    policy = content_security_policy(request.headers.get("host"), f"'self' {hashes}")
    page.headers["Content-Security-Policy"] = policy
    return page
