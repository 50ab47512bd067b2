"""The errors parlour raises. Each is a ValueError so callers can treat bad input uniformly."""

from __future__ import annotations

from collections.abc import Iterable


class ParlourError(ValueError):
    """Base of every error parlour raises about its input."""


class IllegalMove(ParlourError):
    """A move that the rules do not allow here, or text that is not a move at all.

    The message says why and lists what is legal, so a person at a prompt or a client on a socket
    can correct itself without reading the rules. The state is never changed by a refused move.
    """

    def __init__(self, reason: str, legal: Iterable[object] = ()) -> None:
        self.reason = reason
        self.legal = [str(m) for m in legal]
        message = reason
        if self.legal:
            shown = ", ".join(self.legal[:40])
            more = f" (+{len(self.legal) - 40} more)" if len(self.legal) > 40 else ""
            message = f"{reason}. Legal moves: {shown}{more}"
        super().__init__(message)


class RulesError(ParlourError):
    """A rule option, preset or house-rules file that does not make sense."""


class LoadError(ParlourError):
    """A saved game or record that cannot be loaded."""
