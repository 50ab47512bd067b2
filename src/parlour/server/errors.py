"""The error a server's request answers with: what is wrong, in words, with its HTTP status and a
stable code (docs/protocol.md, "error"). Every layer of the server raises it, the store's
repositories too, so it depends on nothing of the server."""

from __future__ import annotations

from parlour.core import ParlourError

__all__ = ["TableError"]


class TableError(ParlourError):
    """A request about a table that cannot be done; `status` is the HTTP status to answer, `code`
    the stable word for it, and `legal` the legal moves when a move was refused."""

    def __init__(
        self,
        message: str,
        status: int = 400,
        code: str = "bad_request",
        legal: list[str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.legal = legal
