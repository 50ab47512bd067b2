"""A table as a plain, synchronous model: its seats and tokens, its match, who may do what.

No I/O and no asyncio here: a table worker (`worker.py`) wraps the `Table` it owns with a lock,
the database and the bus, and a gateway (`gateway.py`) keeps a replica of it for the connections.
Every change comes in two halves — `check_*` says whether it may happen (raising `TableError` or
`IllegalMove` saying why) and changes nothing; the matching verb then does it — so that the owner
can store a change (committed) between the two and never apply one that was not stored. The
server drives games only through the protocol (`make`, `Match`, `State.check`, `apply`, `view`):
nothing here knows any one game.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import parlour
from parlour.bots import Bot, BotLimits, make_bot
from parlour.bots.levels import bot_name
from parlour.core import Match, Move, ParlourError, Result, RulesError, State
from parlour.core.options import rules_to_dict
from parlour.core.rng import fresh_seed

from .errors import TableError
from .levels import is_level_bot, level_names, seat_bot
from .storage import SeatRow, TableRow

# the idle timeout of a seat at a table nobody hosts (a tournament's round, a quick match) on a
# server whose ordinary tables never hand seats on (idle_timeout 0): its games must still end
IDLE_FALLBACK = 300.0

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "MAX_NAME",
    "Seat",
    "Table",
    "TableError",
    "clean_name",
    "game_seeder",
    "hash_token",
    "new_token",
    "plan_table",
    "random_code",
    "rebuild",
    "seat_here",
    "stand_in_name",
]

MAX_NAME = 32
CORRESPONDENCE_CLOCK = 86400.0  # a correspondence table's move clock unless asked: a day
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: easy to read out
CODE_LENGTH = 6


def random_code(length: int = CODE_LENGTH) -> str:
    """A table's (or a tournament's) code: easy to read out; the caller checks it is free."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def game_seeder(secret: bytes, code: str) -> Callable[[int], int]:
    """Each game's seed from the server's secret, the table and the game's number (HMAC-SHA256).

    A finished game's record shows its seed, and the record replays exactly; but the seeds of
    games still to come cannot be worked out from any number of published ones without the secret
    (a generator's stream could: 312 seeds give away a Mersenne Twister's state)."""

    def seed(number: int) -> int:
        digest = hmac.new(secret, f"{code}:{number}".encode(), hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    return seed


def hash_token(token: str) -> str:
    """Tokens are stored and compared only as hashes."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def clean_name(name: Any) -> str:
    """A display name: text, 1–32 printable characters. Escaping is the renderer's job."""
    if not isinstance(name, str):
        raise TableError("name must be text")
    text: str = " ".join(name.split())
    if not text:
        raise TableError("name must not be empty")
    if len(text) > MAX_NAME:
        raise TableError(f"name must be at most {MAX_NAME} characters")
    if any(not ch.isprintable() for ch in text):
        raise TableError("name must not contain control characters")
    return text


def stand_in_name(spec: str, game: str, person: str | None) -> str:
    """The name of a bot playing on for an idle person: "medium bot (for Mum)", the bot named
    after its level as everywhere people see it."""
    name = bot_name(spec, game)
    return (f"{name} (for {person})" if person else name)[:MAX_NAME]


def _bot_names(bots: dict[int, str]) -> dict[int, str]:
    """Display names for bot seats: "hint bot" (or "hard bot", for a level), or "random bot 1",
    "random bot 2" when several seats have the same kind (a spec's parameters are left out of the
    name)."""
    kinds = {seat: spec.split(":")[0] for seat, spec in bots.items()}
    out: dict[int, str] = {}
    for seat in sorted(kinds):
        same = sorted(s for s, k in kinds.items() if k == kinds[seat])
        out[seat] = f"{kinds[seat]} bot" + (f" {same.index(seat) + 1}" if len(same) > 1 else "")
    return out


def plan_table(
    code: str,
    game: str,
    *,
    players: int | None = None,
    preset: str | None = None,
    options: dict[str, Any] | None = None,
    bots: dict[int, str] | None = None,
    move_clock: float | None = None,
    match: str | None = None,
    bot_delay: float,
    bot_limits: BotLimits,
    auto_next: bool = False,
    host_name: str | None = None,
    seed: int | None = None,
    private: bool = False,
    creator: str | None = None,
    idle_timeout: float = 0.0,
    on_idle: str = "bot",
    bot_table_min_delay: float = 0.0,
    correspondence: bool = False,
    on_timeout: str = "move",
    rated: bool = False,
    host_account: tuple[int, str] | None = None,
) -> tuple[TableRow, str, int | None]:
    """Check a request for a new table and plan it: the row to store, the host's token and the
    host's seat (when the host sits down). `host_account` is the logged-in host's (id, username):
    the host's seat is the account's. A rated table is opened by an account, and every person
    seated at it will be one (the host sits under the account's name). Raises TableError saying
    what is wrong."""
    try:
        g = parlour.make(game, players=players, rules=preset, **(options or {}))
        fmt = g.match_format(match)
    except (RulesError, TypeError, ValueError) as exc:
        raise TableError(str(exc), 400, "bad_rules") from None
    asked, bots = dict(bots or {}), {}
    kinds: dict[int, str] = {}  # what each bot seat is named after: a level, or the bot's kind
    for seat, spec in asked.items():
        if not 0 <= seat < g.players:
            raise TableError(f"bot seat {seat} is not a seat (0 to {g.players - 1})")
        try:
            # a level's name is its bot's spec, at this table
            bots[seat], kinds[seat] = seat_bot(spec, g.name, g.preset, g.players)
            make_bot(bots[seat], g, seed=0, limits=bot_limits)
        except RulesError as exc:
            raise TableError(str(exc), 400, "bad_bot") from None
    if move_clock is None:
        # a correspondence table's move is in hours or days: the game waits for people who play
        # when they can
        move_clock = (
            CORRESPONDENCE_CLOCK
            if correspondence
            else float(getattr(g.rules, "move_clock", 0) or 0)
        )
    if correspondence:
        idle_timeout = 0.0  # the move clock decides, not the idle seat's minutes
    only_bots = len(bots) == g.players
    # The table's settings, one rule a row: (what is wrong, the sentence that says so).
    settings: tuple[tuple[object, str], ...] = (
        (
            correspondence and not 3600 <= move_clock <= 7 * 86400,
            "a correspondence table's move_clock is from 1 hour to 7 days",
        ),
        (
            on_timeout not in ("move", "bot"),
            "on_timeout is 'move' (the forced move) or 'bot' (a bot takes the seat)",
        ),
        (
            on_timeout == "bot" and not correspondence,
            "on_timeout 'bot' is for correspondence tables",
        ),
        (
            not correspondence and not 0 <= move_clock <= 3600,
            "move_clock must be from 0 (off) to 3600 seconds",
        ),
        (not 0 <= bot_delay <= 10, "bot_delay must be from 0 to 10 seconds"),
        (
            only_bots and bot_delay < bot_table_min_delay,
            f"a table of bots only plays with bot_delay {bot_table_min_delay:g} s or more",
        ),
        (
            not (idle_timeout == 0 or 30 <= idle_timeout <= 30 * 86400),
            "idle_timeout is 0 (never) or from 30 seconds to 30 days",
        ),
        (
            on_idle not in ("bot", "free"),
            "on_idle is 'bot' (a bot takes the seat) or 'free' (the seat is freed)",
        ),
    )
    for fault, sentence in settings:
        if fault:
            raise TableError(sentence)
    if rated:
        # ratings are kept per preset: house rules would be rated as the preset they changed
        plain = parlour.make(game, players=g.players, rules=g.preset)
        house_rules = g.preset is None or rules_to_dict(plain.rules) != rules_to_dict(g.rules)
        # a bot that plays at no level (a weakened search is not the level its kind plays at)
        weakened = next(
            (asked[seat] for seat, spec in bots.items() if not is_level_bot(spec, g.name)), None
        )
        # what a rated table asks beyond those, a row each: (what is wrong, the error)
        rated_rules: tuple[tuple[object, TableError], ...] = (
            (
                host_account is None,
                TableError(
                    "a rated table is for accounts: log in (or sign up) to open one",
                    401,
                    "login_required",
                ),
            ),
            (only_bots, TableError("a rated table needs a seat for at least one person", 400)),
            (
                host_name is None,
                TableError("the host of a rated table plays at it: give your name", 400),
            ),
            (
                # a game abandoned there must still end, and count against whoever left it
                idle_timeout == 0 or on_idle != "bot",
                TableError(
                    "a rated table hands an absent player's seat to a bot (who plays on, and the "
                    "one who left loses): idle_timeout from 30 s and on_idle 'bot'",
                    400,
                ),
            ),
            (
                weakened is not None,
                TableError(
                    f"a rated table's bots play at a level ({', '.join(level_names(g.name))}): "
                    f"{weakened!r} is not one",
                    400,
                    "bad_bot",
                ),
            ),
            (
                house_rules,
                TableError(
                    "a rated table plays a preset's rules as they are: no rule options", 400
                ),
            ),
        )
        for fault, error in rated_rules:
            if fault:
                raise error
        if host_name is not None and host_account is not None:
            host_name = host_account[1]
    host_token = new_token()
    names = _bot_names(kinds)
    seats = [SeatRow(i, names.get(i), bots.get(i), None) for i in range(g.players)]
    host_seat: int | None = None
    if host_name is not None:
        name = clean_name(host_name)
        free = [s for s in seats if s.bot is None]
        if not free:
            raise TableError("every seat has a bot: there is no seat for the host")
        free[0].name, free[0].token_hash = name, hash_token(host_token)
        free[0].account_id = host_account[0] if host_account is not None else None
        host_seat = free[0].seat
    row = TableRow(
        code=code,
        created_at=time.time(),
        game=g.name,
        players=g.players,
        preset=g.preset,
        rules=rules_to_dict(g.rules),
        match_format=fmt.name,
        match_seed=fresh_seed() if seed is None else seed,
        move_clock=float(move_clock),
        bot_delay=float(bot_delay),
        auto_next=auto_next,
        status="waiting",
        host_hash=hash_token(host_token),
        seats=seats,
        private=private,
        creator=creator,
        idle_timeout=float(idle_timeout),
        on_idle=on_idle,
        correspondence=correspondence,
        on_timeout=on_timeout,
        rated=rated,
    )
    return row, host_token, host_seat


def seat_here(row: TableRow, here: dict[int, str]) -> dict[int, str]:
    """Seat the other people at the host's device (pass and play): each named seat gets a token
    of its own, as a friend who joins does, so that the device holds one token per person and
    each hand stays behind its own token. Returns seat -> token. A rated table seats only
    logged-in people, one account each, so it takes no seats here; a bot's or the host's seat
    is not free."""
    if not here:
        return {}
    if row.rated:
        raise TableError(
            "a rated table seats only logged-in people: pass and play is for unrated tables"
        )
    tokens: dict[int, str] = {}
    for seat, name in sorted(here.items()):
        if not 0 <= seat < row.players:
            raise TableError(f"seat {seat} is not a seat (0 to {row.players - 1})")
        s = row.seats[seat]
        if s.name is not None:
            raise TableError(f"seat {seat} is not free: {s.name} sits there")
        token = new_token()
        s.name, s.token_hash = clean_name(name), hash_token(token)
        tokens[seat] = token
    return tokens


@dataclass
class Seat:
    seat: int
    name: str | None
    bot: str | None
    token_hash: str | None
    account_id: int | None = None  # the account playing the seat (None: a guest, or a bot)
    player: Bot | None = None
    conns: int = 0
    # when a person's seat was last left with no connection (time.monotonic()), for idle seats
    away_since: float | None = None

    @property
    def filled(self) -> bool:
        return self.name is not None

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "bot": self.bot,
            "filled": self.filled,
            "connected": self.bot is not None or self.conns > 0,
        }


class Table:
    """One table: seats, tokens, the match and its current game (or the last one, once over).

    `seeder` gives each game's seed (`game_seeder`); None keeps the match generator's stream, as
    tables stored before the seeds were keyed were played."""

    def __init__(self, row: TableRow, seeder: Callable[[int], int] | None = None) -> None:
        self.code = row.code
        self.created_at = row.created_at
        self.game = parlour.make(row.game, players=row.players, rules=row.rules)
        self.info = parlour.core.info(row.game)
        self.preset = row.preset
        self.move_clock = row.move_clock
        self.bot_delay = row.bot_delay
        self.auto_next = row.auto_next
        self.status = row.status
        self.host_hash = row.host_hash
        self.match_seed = row.match_seed
        self.private = row.private
        self.creator = row.creator
        self.idle_timeout = row.idle_timeout
        self.on_idle = row.on_idle
        self.correspondence = row.correspondence
        self.on_timeout = row.on_timeout
        self.last_active = row.last_active or row.created_at  # wall clock, as stored
        self.seq = row.seq  # the table's change number: one more with every stored change
        self.clock_deadline = row.clock_deadline  # as stored with the last move (wall clock)
        self.rated = row.rated
        self.seats = [Seat(s.seat, s.name, s.bot, s.token_hash, s.account_id) for s in row.seats]
        for s in self.seats:
            if s.bot is not None:
                s.player = make_bot(s.bot, self.game, seed=(row.match_seed + s.seat) % 2**63)
        self.match = Match(
            self.game,
            row.match_format,
            seed=row.match_seed,
            names=[s.name or f"seat {s.seat + 1}" for s in self.seats],
            seeder=seeder,
        )
        self.state: State | None = None
        self.game_id: int | None = None
        self.game_number = -1
        self.rematch = row.rematch  # the code of the rematch table, once the host made one

    # --- what everyone may know ----------------------------------------------------------------
    @property
    def live(self) -> bool:
        return self.state is not None and not self.state.is_over

    @property
    def ply(self) -> int:
        return len(self.state.history) if self.state is not None else 0

    def local_player(self, seat: int | None) -> int | None:
        """The player index in the current game of a match seat (None: not playing it)."""
        if seat is None or self.state is None:
            return None
        seats = self.match.seats  # stays the last game's seats once it is over
        return seats.index(seat) if seat in seats else None

    def seat_to_play(self) -> int | None:
        if self.state is None or self.state.to_play is None:
            return None
        return self.match.seats[self.state.to_play]

    def player_names(self) -> list[str]:
        """The names of the current game's players, by player index."""
        return [self.seats[s].name or f"Seat {s + 1}" for s in self.match.seats]

    def seat_for_token(self, token: str) -> tuple[int | None, bool] | None:
        """(seat or None, is host) for a token of this table; None for a token it does not know."""
        h = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.seat, secrets.compare_digest(self.host_hash, h)
        if secrets.compare_digest(self.host_hash, h):
            return None, True
        return None

    @property
    def all_seated(self) -> bool:
        return all(s.filled for s in self.seats)

    @property
    def bots_only(self) -> bool:
        return all(s.bot is not None for s in self.seats)

    def hand_to_bot(self, seat: int, spec: str = "hint") -> str:
        """An idle person's seat goes to a bot (their token no longer acts here); its name."""
        s = self.seats[seat]
        s.name = stand_in_name(spec, self.game.name, s.name)
        s.name = s.name[:MAX_NAME]
        s.bot, s.token_hash = spec, None
        s.player = make_bot(spec, self.game, seed=(self.match_seed + seat) % 2**63)
        self.match.names[seat] = s.name
        return s.name

    def free_seat(self, seat: int) -> None:
        """An idle person's seat is emptied for someone else to take."""
        s = self.seats[seat]
        s.name, s.token_hash, s.bot, s.player = None, None, None, None
        s.account_id = None

    # --- joining -------------------------------------------------------------------------------
    def check_join(
        self, name: Any, seat: int | None, account: int | None = None
    ) -> tuple[str, int]:
        """The clean name and the seat a join would take (`account`: the joining person's)."""
        name = clean_name(name)
        if self.status in ("closed", "expired", "finished"):
            raise TableError(f"the table is {self.status}", 409, "closed")
        if self.rated:
            if account is None:
                raise TableError(
                    "this table is rated: log in (or sign up) to take a seat",
                    401,
                    "login_required",
                )
            if any(s.account_id == account and s.filled for s in self.seats):
                raise TableError("you hold a seat at this table already", 409, "seated")
        free = [s.seat for s in self.seats if not s.filled]
        if seat is None:
            if not free:
                raise TableError("every seat is taken", 409, "full")
            seat = free[0]
        elif not 0 <= seat < len(self.seats):
            raise TableError(f"seat must be from 0 to {len(self.seats) - 1}", 400)
        elif seat not in free:
            raise TableError(f"seat {seat} is taken", 409, "taken")
        return name, seat

    def take_seat(
        self, seat: int, name: str, token_hash: str, account_id: int | None = None
    ) -> None:
        s = self.seats[seat]
        s.name, s.token_hash, s.account_id = name, token_hash, account_id
        self.match.names[seat] = name

    # --- moving --------------------------------------------------------------------------------
    def check_move(self, seat: int, move: Move | str, ply: int | None) -> Move:
        """The legal move a seat's message names, or TableError/IllegalMove saying why not. A
        move for a ply the game has passed is `stale` even when the game is over since: the
        move that came first ended it (two tabs racing the last move)."""
        if self.status == "closed":
            raise TableError("the table is closed", 409, "closed")
        if ply is not None and self.state is not None and ply != self.ply:
            raise TableError(
                f"stale: the move was for ply {ply} but the game is at ply {self.ply} "
                "(another move came first): here is the table as it is",
                409,
                "stale",
            )
        self._check_playing()
        if self.seat_to_play() != seat:
            raise TableError(
                f"not your turn: seat {self.seat_to_play()} is to play", 409, "not_your_turn"
            )
        assert self.state is not None
        return self.state.check(move)

    def apply(self, move: Move) -> None:
        """Play a move already checked (and stored)."""
        assert self.state is not None
        self.state.apply(move)

    def bot_at(self, seat: int) -> Bot | None:
        return self.seats[seat].player

    def decision_seed(self, seat: int) -> int:
        """A seed for one bot decision: different for every seat, game and ply of the match."""
        return hash((self.match_seed, seat, self.game_number, self.ply)) % 2**63

    # --- games of the match --------------------------------------------------------------------
    def check_next(self) -> None:
        if self.status == "closed":
            raise TableError("the table is closed", 409, "closed")
        if self.status == "waiting":
            raise TableError("the table is still waiting for players", 409, "waiting")
        if self.live:
            raise TableError("the current game is not over", 409, "game_on")
        if self.match.is_over:
            raise TableError("the match is over", 409, "match_over")

    def deal_next(self) -> State:
        """The match's next game, not yet begun at the table (its owner stores it first)."""
        return self.match.next_game()

    def begin(self, state: State, game_id: int) -> None:
        self.state, self.game_id = state, game_id
        self.game_number = len(self.match.games)
        self.status = "playing"

    def finish(self) -> tuple[dict[str, Any], str | None]:
        """Score the finished game into the match: the result to store and the table's new status
        (None: unchanged)."""
        assert self.state is not None
        summary = self.match.finish_game(self.state)
        result = summary.result.to_dict()
        result["points_by_seat"] = {str(k): v for k, v in summary.points.items()}
        # cards left in each hand at the end (the envelope's, by player; None in a game without
        # hands): a tournament breaks ties at a table with them
        result["hand_counts"] = self.state.view(None).get("hand_counts")
        return result, "finished" if self.match.is_over else None

    def _check_playing(self) -> None:
        if self.status == "closed":
            raise TableError("the table is closed", 409, "closed")
        if not self.live:
            raise TableError("no game is being played at this table now", 409, "no_game")


def rebuild(t: Table, row: TableRow) -> list[tuple[int, dict[str, Any], str | None]]:
    """The table as stored: every game dealt again from its seed, the finished ones scored from
    their stored results (a match of many games comes back as fast as one of a few), the last one
    played to its last stored move. Returns the results still to store: (game id, result, status)
    of a game whose last move was stored but not its result (killed in between)."""
    unstored: list[tuple[int, dict[str, Any], str | None]] = []
    status = row.status
    for k, g in enumerate(row.games):
        state = t.deal_next()
        if state.seed != g.seed or t.match.seats != g.seats:
            raise ParlourError(f"stored game {g.number} does not follow from the match seed")
        if g.result is not None and k < len(row.games) - 1:
            t.match.restore_game(Result.from_dict(g.result))
            continue
        for text in g.moves:
            state.apply(text)
        t.begin(state, g.id)
        if state.is_over:
            result, finished = t.finish()
            if g.finished_at is None:
                unstored.append((g.id, result, finished))
                status = finished or status
    t.status = status
    return unstored
