"""The database schema: tables (rooms), their seats, the games they played and every move.

A game is stored as its record — game, rules, seed, setup — plus one row per move, so a move is
one small insert that is committed before anyone hears of it. Seat tokens are stored only as
SHA-256 hashes. Accounts (optional: a guest plays with a name and a link) keep an Argon2id hash
of their password and SHA-256 hashes of their session tokens; ratings are kept per player — an
account or a bot kind — per game and rule preset, with one history row per rated game.
The schema is created and upgraded by the Alembic migrations in `migrations/`.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

__all__ = [
    "accounts",
    "analyses",
    "analysis_decisions",
    "analysis_jobs",
    "chat_reports",
    "games",
    "metadata",
    "moves",
    "puzzles",
    "quick_entries",
    "rating_history",
    "ratings",
    "seats",
    "secrets",
    "sessions",
    "tables",
    "tournament_entrants",
    "tournament_tables",
    "tournaments",
    "workers",
]

metadata = MetaData()

tables = Table(
    "parlour_tables",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("preset", String(64)),
    Column("rules", JSON, nullable=False),
    Column("match_format", String(64), nullable=False),
    Column("match_seed", BigInteger, nullable=False),
    Column("move_clock", Float, nullable=False, default=0.0),
    Column("bot_delay", Float, nullable=False, default=0.0),
    Column("auto_next", Boolean, nullable=False, default=False),
    Column("status", String(16), nullable=False, index=True),
    Column("host_hash", String(64), nullable=False),
    # not listed in the lobby; joined by link or code only
    Column("private", Boolean, nullable=False, default=False),
    # who opened it (a hash of the client's address): per-client limits survive a restart
    Column("creator", String(64), index=True),
    # a seat that does not act for this long (0: never) goes to a bot or is freed (on_idle)
    Column("idle_timeout", Float, nullable=False, default=0.0),
    Column("on_idle", String(8), nullable=False, default="bot"),
    # the last move, join or start: waiting tables nobody joins expire, abandoned ones are pruned
    Column("last_active", Float),
    # the worker that owns the table and since which take-over (a stalled old owner's writes
    # fail on the epoch), and the table's change number, one more with every stored change
    Column("owner", String(64), index=True),
    Column("epoch", Integer, nullable=False, default=0),
    Column("seq", Integer, nullable=False, default=0),
    # when the player to move runs out of time (wall clock), for a worker that takes over
    Column("clock_deadline", Float),
    # the code of the rematch its host opened (the same seats at a new table), once there is one
    Column("rematch", String(16)),
    # a correspondence table: a move clock of hours to days, never expired nor pruned, and what
    # its clock does to a person out of time: "move" (the forced move) or "bot" (a bot sits in)
    Column("correspondence", Boolean, nullable=False, default=False),
    Column("on_timeout", String(8), nullable=False, default="move"),
    # a rated table: every person seated is an account, and each finished game moves ratings
    Column("rated", Boolean, nullable=False, default=False),
    # why it closed or expired, in the words said to everyone watching (a gateway that reads the
    # table again after the bus lost the word says the same)
    Column("closed_why", String(200)),
)

seats = Table(
    "parlour_seats",
    metadata,
    Column("table_code", String(16), ForeignKey("parlour_tables.code"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(64)),
    Column("bot", String(128)),
    Column("token_hash", String(64), index=True),
    # the account playing the seat (a guest: none); a guest's seat can be claimed later
    Column("account_id", Integer, index=True),
)

games = Table(
    "parlour_games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_code", String(16), ForeignKey("parlour_tables.code"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("players", Integer, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("setup", JSON, nullable=False),
    Column("rules", JSON, nullable=False),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, index=True),
    Column("result", JSON),
    # when the ratings were moved by this game (a rated table's): set once, in the same
    # transaction as the moves, so a finish processed twice rates once
    Column("rated_at", Float),
    UniqueConstraint("table_code", "number", name="uq_game_number"),
)

moves = Table(
    "parlour_moves",
    metadata,
    Column("game_id", Integer, ForeignKey("parlour_games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("text", String(256), nullable=False),
    Column("at", Float, nullable=False),
)

# Values the server keeps to itself, such as the key that makes games' seeds unpredictable.
secrets = Table(
    "parlour_secrets",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)

# The table workers of a cluster: alive while their heartbeat is recent.
workers = Table(
    "parlour_workers",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("started_at", Float, nullable=False),
    Column("heartbeat_at", Float, nullable=False),
    Column("tables", Integer, nullable=False, default=0),
    Column("draining", Boolean, nullable=False, default=False),
)

# Game review: an analysis is cached by the record it judged (the hash of its canonical JSON, so an
# uploaded copy of a stored game finds it too), the seat and the budget; `game_id` ties it to a
# stored game (NULL: an uploaded record, pruned with the abandoned tables after the retention).
analyses = Table(
    "parlour_analyses",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("record_hash", String(80), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("budget", String(64), nullable=False),
    Column("game_id", Integer, index=True),
    Column("created_at", Float, nullable=False),
    Column("analysis", Text, nullable=False),
    UniqueConstraint("record_hash", "seat", "budget", name="uq_analysis"),
)

# Analyses asked for and not yet ended, and ended ones for a while (server/analysis_jobs.py): the
# queue lives here, not in a gateway's memory, so that any gateway answers a job's progress and any
# gateway's runners may take it — a job whose runner stops beating is taken over where it was.
# `active_key` (the record's hash, seat and budget) and `active_client` are set while the job is
# queued or running and NULL once it ended: unique, so one analysis of a thing is under way at a
# time, and one per client, however many gateways are asked at once.
analysis_jobs = Table(
    "parlour_analysis_jobs",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("client", String(64), nullable=False),
    Column("record", Text, nullable=False),  # the record judged, as JSON
    Column("record_hash", String(80), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("budget", Text, nullable=False),  # Budget.to_dict() as JSON
    Column("budget_key", String(64), nullable=False),
    Column("game_id", Integer),
    Column("status", String(16), nullable=False, index=True),  # queued running done failed …
    Column("queued_at", Float, nullable=False),
    Column("runner", String(64)),  # the gateway judging it
    Column("beat_at", Float),  # when its runner last said it is at it
    Column("cancel", Boolean, nullable=False, default=False),
    Column("total", Integer),
    Column("done", Integer, nullable=False, default=0),
    Column("seconds", Float, nullable=False, default=0.0),  # spent judging, every runner's
    Column("puzzles", Text),  # the puzzles saved from it, as JSON, once done
    Column("error", Text),
    Column("ended_at", Float, index=True),
    Column("active_key", String(160), unique=True),
    Column("active_client", String(64), unique=True),
)

# The decisions an analysis job has judged so far, one row each: a runner that takes the job over
# goes on from the next one.
analysis_decisions = Table(
    "parlour_analysis_decisions",
    metadata,
    Column("job_id", String(16), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("decision", Text, nullable=False),
)

# Puzzles found by analyses or uploaded: shareable by their id (a hash of their JSON). Those of
# uploaded files (a shared puzzle, an analysis of an uploaded record) are pruned after the
# retention time, like the analyses of uploaded records (migration 0011).
puzzles = Table(
    "parlour_puzzles",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("created_at", Float, nullable=False, index=True),
    Column("puzzle", Text, nullable=False),
    Column("uploaded", Boolean, nullable=False, default=False),
)


# Tournaments (server/tournament.py, server/director.py): a state machine — open (taking
# entrants), running (round `round` being played at its tables), finished (`standings` final) —
# advanced by the table workers' directors with a compare-and-set on `round`, so that two workers
# never open the same round twice.
tournaments = Table(
    "parlour_tournaments",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("title", String(64), nullable=False),
    Column("game", String(64), nullable=False),
    Column("preset", String(64)),
    Column("options", JSON, nullable=False),
    Column("format", String(16), nullable=False),  # swiss | elimination
    Column("rounds", Integer),  # swiss: how many rounds (fixed at the start)
    Column("table_size", Integer, nullable=False),  # seats a table: 2 (swiss), 3 or 4
    Column("max_entrants", Integer, nullable=False),
    Column("bot_fill", String(128)),  # a bot spec: the empty places are bots at the start
    Column("bot_delay", Float, nullable=False, default=0.0),
    Column("status", String(16), nullable=False, index=True),  # open | running | finished
    Column("round", Integer, nullable=False, default=0),  # the round being played (0: none yet)
    Column("host_hash", String(64), nullable=False),
    Column("creator", String(64), index=True),
    Column("started_at", Float),
    Column("finished_at", Float),
    Column("standings", JSON),  # the final standings, once finished
)

tournament_entrants = Table(
    "parlour_tournament_entrants",
    metadata,
    Column("tournament_id", String(16), ForeignKey("parlour_tournaments.id"), primary_key=True),
    Column("number", Integer, primary_key=True),  # 1, 2, ... in the order of joining (the seed)
    Column("name", String(64), nullable=False),
    Column("bot", String(128)),  # a bot spec, or NULL: a person
    # a person's secret: their seat token at every table of the tournament (stored hashed)
    Column("token_hash", String(64)),
    # the seam for accounts: the account an entrant played as, once there are accounts
    Column("account_id", String(64)),
    Column("joined_at", Float, nullable=False),
    UniqueConstraint("tournament_id", "name", name="uq_entrant_name"),
)

# Every table of every round (and every bye: no table). `entrants` are the entrant numbers by seat.
tournament_tables = Table(
    "parlour_tournament_tables",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", String(16), ForeignKey("parlour_tournaments.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("table_code", String(16), ForeignKey("parlour_tables.code"), index=True),
    Column("entrants", JSON, nullable=False),
)

# Accounts: a username (its display form; `name_key`, case folded, what a log-in looks up; and
# `name_skeleton`, the UTS #39 confusable skeleton names that look alike share — both unique,
# migration 0012) and an Argon2id hash of the password. A deleted account keeps its row,
# nameless, so that the games and ratings it played stay whole; nothing in it names the person.
accounts = Table(
    "parlour_accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username", String(64), nullable=False),
    Column("name_key", String(64), nullable=False, unique=True),
    Column("name_skeleton", String(96), unique=True),
    Column("password_hash", String(256), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("deleted_at", Float),
    # suspended by a moderator (`parlour admin suspend`): no log-in, no seat acts, until lifted
    Column("suspended_at", Float),
    Column("suspended_reason", String(200)),
)

# Log-in sessions: the SHA-256 of the session cookie's token (the token itself is never stored).
sessions = Table(
    "parlour_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("parlour_accounts.id"), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
)

# Ratings (openskill, Plackett-Luce) by player — "a:<account id>" or "bot:<kind>" — game and preset.
ratings = Table(
    "parlour_ratings",
    metadata,
    Column("player", String(64), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("preset", String(64), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False, default=0),
    Column("wins", Float, nullable=False, default=0.0),
    Column("updated_at", Float, nullable=False),
)

# A rating after each rated game, per player of it: the profile's chart.
rating_history = Table(
    "parlour_rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", Integer, ForeignKey("parlour_games.id"), nullable=False, index=True),
    Column("player", String(64), nullable=False, index=True),
    Column("game", String(64), nullable=False),
    Column("preset", String(64), nullable=False),
    Column("rank", Integer, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("at", Float, nullable=False),
    UniqueConstraint("game_id", "player", name="uq_rating_game_player"),
)


# Quick match's queue (server/matchmaking.py): one row per entry, found by its ticket's hash.
quick_entries = Table(
    "parlour_quick",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("ticket_hash", String(64), nullable=False, unique=True),
    Column("client", String(64), index=True),
    Column("account_id", Integer, index=True),
    Column("name", String(64), nullable=False),
    Column("game", String(64), nullable=False),
    Column("preset", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("mu", Float, nullable=False),
    Column("bot_after", Float),
    Column("joined_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("table_code", String(16)),
    Column("seat", Integer),
    Column("matched_at", Float),
)


# Chat lines reported by the people at a table, for a moderator to read (`parlour admin reports`).
# Chat is not stored, so a report keeps the line as it was said; one report a line per seat.
chat_reports = Table(
    "parlour_chat_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("created_at", Float, nullable=False, index=True),
    Column("table_code", String(16), nullable=False),
    Column("line_id", String(32), nullable=False),
    Column("line_seat", Integer, nullable=False),
    Column("line_name", String(64), nullable=False),
    Column("line_account_id", Integer),
    Column("line_text", String(400), nullable=False),
    Column("line_at", Float, nullable=False),
    Column("reporter_seat", Integer, nullable=False),
    Column("reporter_name", String(64), nullable=False),
    Column("reporter_account_id", Integer),
    Column("reporter_client", String(64), nullable=False),  # the keyed hash of its address
    Column("reason", String(200)),
    Column("removed_at", Float),  # the line removed by a moderator
    UniqueConstraint("table_code", "line_id", "reporter_seat", name="uq_parlour_chat_report"),
)
