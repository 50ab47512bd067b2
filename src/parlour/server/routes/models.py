"""Request and answer bodies of the HTTP API (they make the OpenAPI page at /docs)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = [
    "ERRORS",
    "CreateTable",
    "CreateTournament",
    "Join",
    "JoinTournament",
    "Joined",
    "JoinedTournament",
    "Problem",
    "TableCreated",
    "TournamentCreated",
]


class CreateTable(BaseModel):
    game: str = Field(description="game name, as in GET /api/games")
    players: int | None = Field(None, description="number of seats (default per game)")
    preset: str | None = Field(None, description="rule preset (default per game)")
    options: dict[str, Any] = Field(
        default_factory=dict, description="rule options overriding the preset", examples=[{}]
    )
    bots: dict[int, str] = Field(
        default_factory=dict,
        description="seat → a level (easy, medium, hard, expert, master: GET /api/games gives "
        "each game's) or a bot spec, for seats played by bots",
        examples=[{"1": "hard", "2": "random"}],
    )
    move_clock: float | None = Field(
        None, description="seconds per move; 0 = off; default: the rules' own move_clock, if any"
    )
    match: str | None = Field(
        None, description="match format: single, rounds-N, series-N, rubber-5, elimination-100"
    )
    bot_delay: float | None = Field(None, description="pause before a bot moves, seconds")
    auto_next: bool = Field(False, description="start the next game of the match by itself")
    name: str | None = Field(None, description="the host's display name: the host takes a seat")
    private: bool = Field(
        False, description="not listed among the open tables: friends join by link or code"
    )
    idle_timeout: float | None = Field(
        None,
        description="seconds a person's seat may stay idle (not moving when to play, or never "
        "connecting before the start) before on_idle happens; 0 = never; default: the server's",
    )
    on_idle: Literal["bot", "free"] = Field(
        "bot", description="what happens to an idle seat: a bot takes it, or it is freed"
    )
    correspondence: bool = Field(
        False,
        description="correspondence play: move_clock is from 3600 s (1 hour) to 604800 s (7 "
        "days), default a day; the table is never expired or deleted, seats never idle out",
    )
    on_timeout: Literal["move", "bot"] = Field(
        "move",
        description="correspondence: when a person's move clock runs out, the forced move is "
        "played for them (move) or a bot takes their seat and plays on (bot)",
    )
    rated: bool = Field(
        False,
        description="a rated table: every person seated is a logged-in account (the host too), "
        "and each finished game moves the players' ratings (bots are rated by kind)",
    )
    here: dict[int, str] = Field(
        default_factory=dict,
        description="pass and play: seat → the name of another person at the host's device; "
        "each such seat gets its own token (in the answer's `here`), as a friend who joins "
        "does. Not at a rated table",
        examples=[{"1": "Bob"}],
    )


class Joined(BaseModel):
    seat: int
    token: str = Field(description="secret seat token: send it in the websocket hello")


class TableCreated(BaseModel):
    code: str
    link: str
    host_token: str = Field(description="secret: lets its holder start the next game or close")
    seat: int | None = Field(description="the host's seat, when a name was given")
    token: str | None = Field(description="secret seat token (the host token, when seated)")
    here: list[Joined] = Field(
        default_factory=list,
        description="the seats of the other people at the host's device (pass and play), each "
        "with its secret token",
    )


class Join(BaseModel):
    name: str = Field(description="display name, 1–32 characters", examples=["Ada"])
    seat: int | None = Field(None, description="a free seat; default the first free one")


class Problem(BaseModel):
    error: str
    message: str


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": Problem},
    401: {"model": Problem},
    403: {"model": Problem},
    404: {"model": Problem},
    409: {"model": Problem},
}


class CreateTournament(BaseModel):
    game: str = Field(description="game name, as in GET /api/games")
    preset: str | None = Field(None, description="rule preset (default per game)")
    options: dict[str, Any] = Field(
        default_factory=dict, description="rule options overriding the preset", examples=[{}]
    )
    format: Literal["swiss", "elimination"] = Field(
        description="swiss: rounds of 2-player tables, paired by score (Buchholz tie-break); "
        "elimination: tables of 3–4, the better half of each table goes through"
    )
    rounds: int | None = Field(
        None, ge=1, le=20, description="swiss: rounds to play (default: log2 of the entrants)"
    )
    table_size: int = Field(4, ge=3, le=4, description="elimination: seats a table (3 or 4)")
    size: int = Field(
        16,
        ge=2,
        description="most entrants (the server's cap: max_entrants); with bot_fill, "
        "the places still empty at the start are bots",
    )
    bot_fill: str | None = Field(
        None,
        description="a level's name (`easy`, `medium`, `hard`: see GET /api/games) or a bot "
        "spec for the empty places at the start; none: only those who joined play",
        examples=["hard", "hint"],
    )
    bot_delay: float | None = Field(None, description="pause before a bot moves, seconds")
    title: str | None = Field(None, description="the tournament's name, 1–32 characters")
    name: str | None = Field(None, description="the maker's display name: they join as entrant 1")


class TournamentCreated(BaseModel):
    id: str
    link: str
    host_token: str = Field(description="secret: lets its holder start the tournament")
    number: int | None = Field(description="the maker's entrant number, when a name was given")
    token: str | None = Field(description="the maker's entrant token (their seat token)")


class JoinTournament(BaseModel):
    name: str = Field(description="display name, 1–32 characters, unique in the tournament")


class JoinedTournament(BaseModel):
    number: int = Field(description="entrant number (the order of joining)")
    token: str = Field(
        description="secret entrant token: the seat token at each of the entrant's tables"
    )
