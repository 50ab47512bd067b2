"""Websockets that compress only large messages.

permessage-deflate on every small frame cost the server about a tenth of its time per move (a
typical view patch is a few hundred bytes, which deflate barely shrinks). The extension lets a
sender leave any message uncompressed (RSV1 clear), so messages under `threshold` bytes go as they
are and only large ones — a whole view, a long log on reconnecting — are compressed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import CTRL_OPCODES, Frame, Opcode
from websockets.server import ServerProtocol
from websockets.typing import ExtensionParameter

__all__ = ["LargeOnlyDeflate", "websocket_protocol"]


class LargeOnlyDeflate(PerMessageDeflate):
    """permessage-deflate that sends whole messages under `threshold` bytes uncompressed."""

    threshold = 1024

    def encode(self, frame: Frame) -> Frame:
        small = (
            frame.opcode not in CTRL_OPCODES
            and frame.opcode is not Opcode.CONT
            and frame.fin
            and len(frame.data) < self.threshold
        )
        return frame if small else super().encode(frame)


class _Factory(ServerPerMessageDeflateFactory):
    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, ext = super().process_request_params(params, accepted_extensions)
        ext.__class__ = LargeOnlyDeflate  # the same state, another encode
        return response, ext


def websocket_protocol(threshold: int = 1024) -> type[WebSocketsSansIOProtocol]:
    """uvicorn's websocket protocol class with `LargeOnlyDeflate` (for `uvicorn.run(ws=...)`)."""
    LargeOnlyDeflate.threshold = threshold

    class LargeOnlyDeflateProtocol(WebSocketsSansIOProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if self.config.ws_per_message_deflate:
                factory = _Factory(
                    server_max_window_bits=12,
                    client_max_window_bits=12,
                    compress_settings={"memLevel": 5},
                )
                self.conn = ServerProtocol(
                    extensions=[factory],
                    max_size=self.config.ws_max_size,
                    logger=self.conn.logger,
                )

    return LargeOnlyDeflateProtocol
