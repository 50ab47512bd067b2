"""The server's settings: one place for every limit and default (`parlour serve` fills them)."""

from __future__ import annotations

from dataclasses import dataclass, field

from parlour.bots import BotLimits

__all__ = ["DEFAULT_DATABASE", "Settings"]

DEFAULT_DATABASE = "sqlite:///var/parlour.sqlite3"


@dataclass
class Settings:
    """Server settings; `parlour serve` fills them from its flags, the environment and a settings
    file (server/configuration.py). Every limit is per server process; the per-client ones are
    well below the totals, so that no one client fills them."""

    database: str = DEFAULT_DATABASE
    # where the server listens (`parlour serve --host/--port`): invite links and the LAN check
    host: str = "127.0.0.1"
    port: int = 8000
    bot_delay: float = 0.6  # default pause before a bot moves, seconds
    # --- processes (docs/deploy.md): all = one process (a gateway and a worker, no bus needed)
    role: str = "all"  # all | gateway | worker
    bus: str | None = None  # redis://host:port/0 between processes; none: inside one process
    bus_drop: float = 0.0  # for tests only: the share of bus messages to lose
    # the process's garbage collection (server/collector.py): `parlour serve` turns it on; off in
    # an app built by create_app alone, since it is a policy for the whole process
    freeze_gc: bool = False
    # group commit (server/database.py): a move waits this many seconds for other tables' moves
    # before its commit when the moves of `commit_siblings` tables came in over the last 0.1 s
    # (0: never waits; a table played alone never does)
    commit_window: float = 0.005
    commit_siblings: int = 4
    # seconds each step of stopping may take (open connections closing, the tables handed on to
    # the other workers, the bus closed): one past it is given up and the log says where it
    # waited (server/stacks.py), so that a process asked to stop stops
    stop_timeout: float = 20.0
    # --- operating it (docs/deploy.md): logs, and the moderators' token
    log_level: str = "info"  # debug | info | warning | error
    # json: one JSON object a line (for a log collector); text: lines for a person at a
    # terminal; auto: text when the output is a terminal, JSON otherwise
    log_format: str = "auto"
    # the bearer token of `parlour admin` (the moderators' API, /api/admin/...); none: no
    # moderation over HTTP. A secret: give it in a file (PARLOUR_ADMIN_TOKEN_FILE)
    admin_token: str | None = None
    reports_per_minute: float = 10.0  # chat lines a client may report a minute (bursts of as many)
    # --- websockets
    max_message: int = 4096  # bytes in one websocket message
    rate: float = 20.0  # websocket messages per second per connection, on average
    burst: int = 40  # … and at most this many at once
    hello_timeout: float = 15.0
    websocket_idle: float = 3600.0  # a websocket that says nothing for this long is closed
    websockets_per_client: int = 32
    # --- HTTP
    max_body: int = 64 * 1024  # bytes in a request body
    request_timeout: float = 10.0  # a request must arrive whole within this many seconds
    connections_per_client: int = 64  # open HTTP connections from one address
    trust_forwarded: bool = False  # behind a proxy: the client is X-Forwarded-For's first address
    # --- tables
    max_tables: int = 5000  # open tables at once
    tables_per_client: int = 20  # open tables one client may have opened
    tables_per_minute: float = 10.0  # new tables per client per minute (bursts of as many)
    seats_per_client: int = 16  # seats one client may hold at open tables
    joins_per_minute: float = 20.0
    waiting_ttl: float = 1800.0  # a waiting table nobody joins for this long expires
    idle_timeout: float = 300.0  # default: a seat that does not act this long goes to a bot
    max_bot_tables: int = 50  # open tables with bots in every seat
    bot_tables_per_client: int = 3
    bot_table_min_delay: float = 0.5  # bots-only tables play at most two moves a second
    # a game with bots in every seat still going after this many moves is stopped and its table
    # closed (0: never): two bots can go round for ever where a player may always draw (Storey's
    # pack turned over, Nigerian's market reshuffled), and no person is there to call it a day
    bots_only_move_cap: int = 3000
    retention_days: float = 30.0  # abandoned tables with no finished game are deleted after this
    sweep_interval: float = 60.0  # seconds between sweeps (expiry, idle seats, retention)
    # --- tournaments (server/tournament.py, server/director.py)
    max_tournaments: int = 50  # tournaments open or running at once
    tournaments_per_client: int = 3  # open or running tournaments one client may have made
    max_entrants: int = 128  # entrants in one tournament
    tournament_poll: float = 1.0  # seconds between looks at running tournaments
    # --- bots
    bot_limits: BotLimits = field(default_factory=BotLimits)  # the most a bot spec may ask for
    bot_workers: int | None = None  # processes for searching bots (default: cores - 1, at least 1)
    # --- game review (docs/protocol.md, "Game review")
    analysis_iterations: int = 1000  # search iterations a decision: the default and the most
    analysis_workers: int = 1  # processes judging decisions, per gateway (one decision each)
    # analyses waiting or running at once, and one per client: in the whole cluster (the queue
    # is in the database, server/storage/analysis_jobs.py)
    analysis_queue: int = 20
    # a running analysis whose gateway has not been heard from for this long (it died, or stalls)
    # is taken over by another gateway, from the next decision not judged yet
    analysis_takeover: float = 15.0
    max_upload: int = 512 * 1024  # bytes in an uploaded record or puzzle file
    # bytes of JSON of one puzzle kept from an uploaded file (a genuine one is its position and
    # the events its seat saw: tens of KB late in a long game, docs/review.md), and how many such
    # bytes one client may have kept a minute
    max_puzzle: int = 256 * 1024
    puzzle_bytes_per_minute: float = 1024 * 1024
    max_review_moves: int = 5000  # moves in a record the review replays
    uploads_per_minute: float = 20.0  # uploaded records and puzzles per client
    # moves of games reviewed step by step a minute per client, stored or uploaded (a step of
    # a long game costs about 0.2 ms and 1.2 KB of answer), and the answers kept, compressed, to
    # answer the same finished game again without replaying it: bytes per gateway
    review_plies_per_minute: float = 20_000.0
    review_cache_bytes: int = 32 * 1024 * 1024
    # --- accounts (docs/architecture.md, "Accounts and ratings")
    session_days: float = 30.0  # a session not used for this long has expired
    logins_per_minute: float = 10.0  # log-in attempts per client (address), bursts of as many
    # … and per username from one address (never from anywhere: anyone could lock the owner out)
    logins_per_name_per_minute: float = 5.0
    signups_per_minute: float = 5.0  # new accounts per client
    # Argon2id's costs: argon2-cffi's defaults (the tests set them small to run fast)
    password_time_cost: int = 3
    password_memory_kib: int = 65536
    password_parallelism: int = 4
    # --- quick match (server/matchmaking.py)
    quick_band_start: float = 3.0  # at first an entry accepts ratings (mu) this far from its own
    quick_band_growth: float = 0.25  # … widening by this much a second of waiting
    quick_band_open: float = 60.0  # … and any rating after this many seconds
    quick_bots_min: float = 5.0  # an entry may ask for bots after this many seconds at the least
    quick_bots_max: float = 300.0  # … and at the most
    quick_ttl: float = 60.0  # a waiting entry nobody asks after for this long expires
    quick_max_wait: float = 25.0  # the longest long poll, seconds
    quick_tick: float = 1.0  # seconds between rounds of matching (0: only after joins; tests)
    quick_per_client: int = 4  # waiting entries from one address (a household, one per tab)
    quick_joins_per_minute: float = 20.0
