"""The errors parlour raises. Each is a ValueError so callers can treat bad input uniformly."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "Fault",
    "IllegalMove",
    "LoadError",
    "NotAMove",
    "NotLegalNow",
    "ParlourError",
    "RulesError",
    "SetupError",
    "refuse",
]


class ParlourError(ValueError):
    """Base of every error parlour raises about its input."""


class IllegalMove(ParlourError):
    """A move that the rules do not allow here, or text that is not a move at all.

    The message says why and lists what is legal, so a person at a prompt or a client on a socket
    can correct itself without reading the rules. The state is never changed by a refused move.
    `State.check` raises one of the two kinds below; `IllegalMove` itself is left for "the game is
    over" and for callers that do not care which.
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


class NotAMove(IllegalMove):
    """Text that names no move of this game at all (a typo, another game's notation)."""


class NotLegalNow(IllegalMove):
    """A real move of the game that the rules do not allow at this moment; `why` says why, where
    the game can tell (e.g. "13 circle cannot follow the call: triangle or 8")."""

    def __init__(self, reason: str, legal: Iterable[object] = (), why: str | None = None) -> None:
        self.why = why
        super().__init__(f"{reason}: {why}" if why else reason, legal)


class RulesError(ParlourError):
    """A rule option, preset or house-rules file that does not make sense."""


class SetupError(RulesError):
    """A position or game setup that cannot be played: too many of a card, a pawn on no square,
    a player to move who is not at the table. (A RulesError, so older callers still catch it.)"""


class LoadError(ParlourError):
    """A saved game or record that cannot be loaded."""


#: One row of a table of checks: a condition that is true when something is wrong, and the
#: sentence that says what (and what would be right).
Fault = tuple[object, str]


def refuse(*faults: Fault) -> None:
    """Raise a SetupError with the sentence of the first row whose condition holds: a position's
    rules written as a table, one row a rule, in the order they are worth telling a person.

        refuse(
            (phase not in PHASES, f"position: phase is one of {PHASES}, not {phase!r}"),
            (phase == "play" and suit is None, "position: phase 'play' needs the suit"),
        )

    The rows are built before they are read, so a row may only use what is already known to be
    there: what a later row needs checked first goes in an earlier table."""
    for fault, sentence in faults:
        if fault:
            raise SetupError(sentence)
