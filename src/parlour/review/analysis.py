"""The analysis of a finished game: for each decision of one seat, the search's win estimate for
the move played and for the best move it found — from that seat's view alone.

The record is replayed; at each turn of the seat with more than one legal move, ISMCTS searches
from `state.view(seat)` (never the state: the search draws the hidden cards itself, from the view,
by `game.sample_state`). The search runs in *paired* mode: every legal move is tried in turn on
each determinization, so every move, the one played included, gets the same number of visits on
the same deals, and the luck of a deal, common to every move on it, drops out of their difference.
Each decision then says, per legal move, its mean reward (the seat's win estimate) and the
standard error of its gap to the best move, from the per-deal differences; a mark needs the loss
to pass both its threshold and `z` standard errors.

Each decision has its own generator, derived from the analysis's seed and the ply, so a decision's
estimates do not depend on the others: an analysis is reproducible with its seed (but under a
`seconds` budget, where the machine's speed decides the iterations), and a server may analyse a
game in parts. The result holds nothing the seat could not see — no seed, no hidden card — and the
record's hash, to be cached with it (docs/review.md gives the JSON shape).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import parlour
from parlour.bots.ismcts import ISMCTSBot, terminal_rewards
from parlour.core import Game, IllegalMove, LoadError, Move, Record, RulesError, State, make

__all__ = [
    "ANALYSIS_FORMAT",
    "MARKS",
    "Analysis",
    "Budget",
    "Decision",
    "DecisionPoint",
    "Marks",
    "MoveEstimate",
    "analyse",
    "as_record",
    "assemble",
    "decision_points",
    "judge",
    "judge_point",
    "record_hash",
]

ANALYSIS_FORMAT = "parlour-analysis/1"
MARKS = ("inaccuracy", "mistake", "blunder")  # in rising order of the loss

_MAX_POOL = 1_000_000  # determinizations a decision at most under a time budget

Progress = Callable[[int, int], None]
Cancel = Callable[[], bool]


# --- what an analysis is asked for ----------------------------------------------------------------
@dataclass(frozen=True)
class Budget:
    """What one decision may cost. `iterations` are spread evenly over the legal moves (rounded up
    to whole rounds, one visit per move each) with at least `min_visits` per move; `seconds`, when
    given, wins (then the estimates depend on the machine's speed and are not reproducible)."""

    iterations: int = 1000
    seconds: float | None = None
    min_visits: int = 20

    def __post_init__(self) -> None:
        if not isinstance(self.iterations, int) or self.iterations < 1:
            raise RulesError("an analysis budget needs at least 1 iteration a decision")
        if not isinstance(self.min_visits, int) or self.min_visits < 2:
            raise RulesError("an analysis needs at least 2 visits a move (for its noise)")
        if self.seconds is not None and not (math.isfinite(self.seconds) and self.seconds > 0):
            raise RulesError("an analysis budget in seconds must be a finite number above 0")

    def iterations_for(self, moves: int) -> int:
        """The iterations of a decision between `moves` legal moves: whole rounds."""
        rounds = max(-(-self.iterations // moves), self.min_visits)
        return rounds * moves

    def bot_params(self, moves: int) -> dict[str, str]:
        """The ISMCTS parameters of a decision between `moves` legal moves."""
        iterations = self.iterations_for(moves)
        # a fresh determinization every round: the rounds are then independent draws of the hidden
        # cards, and the standard error of a gap, taken over them, is honest (the search's own
        # pool would recycle a hundred deals however long it ran)
        rounds = iterations // moves if self.seconds is None else _MAX_POOL
        params = {"paired": "1", "iterations": str(iterations), "pool": str(rounds)}
        if self.seconds is not None:
            params["seconds"] = repr(self.seconds)
        return params

    def to_dict(self) -> dict[str, Any]:
        return {
            "iterations": self.iterations,
            "seconds": self.seconds,
            "min_visits": self.min_visits,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Budget:
        seconds = data.get("seconds")
        return cls(
            iterations=int(data.get("iterations", 1000)),
            seconds=None if seconds is None else float(seconds),
            min_visits=int(data.get("min_visits", 20)),
        )


@dataclass(frozen=True)
class Marks:
    """When a decision is marked: a loss (best estimate minus the played move's, as a fraction of
    1) at least the threshold of a mark, and at least `z` standard errors of that loss (so that
    the search's noise alone does not mark a move)."""

    inaccuracy: float = 0.05
    mistake: float = 0.10
    blunder: float = 0.20
    z: float = 2.0

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder <= 1:
            raise RulesError("marks need 0 < inaccuracy <= mistake <= blunder <= 1")
        if not (math.isfinite(self.z) and self.z >= 0):
            raise RulesError("marks need z to be a finite number, 0 or more")

    def mark(self, loss: float, se: float | None) -> str | None:
        """The mark of a loss with standard error `se` (None: unknown, so no mark)."""
        if se is None or loss <= 0 or loss < self.z * se:
            return None
        eps = 1e-9  # thresholds are round figures; estimates are rounded to 6 places
        for name in reversed(MARKS):
            if loss >= getattr(self, name) - eps:
                return name
        return None

    def to_dict(self) -> dict[str, float]:
        return {
            "inaccuracy": self.inaccuracy,
            "mistake": self.mistake,
            "blunder": self.blunder,
            "z": self.z,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Marks:
        return cls(**{k: float(data[k]) for k in ("inaccuracy", "mistake", "blunder", "z")})


# --- what it finds --------------------------------------------------------------------------------
@dataclass(frozen=True)
class MoveEstimate:
    """One legal move of a decision: its win estimate (mean reward over its visits), its visits,
    and the standard error of its gap to the best move (paired by determinization; 0 for the best
    itself, None where there were too few visits to say)."""

    move: str
    estimate: float
    visits: int
    gap_se: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "estimate": self.estimate,
            "visits": self.visits,
            "gap_se": self.gap_se,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MoveEstimate:
        se = data.get("gap_se")
        return cls(
            move=str(data["move"]),
            estimate=float(data["estimate"]),
            visits=int(data["visits"]),
            gap_se=None if se is None else float(se),
        )


@dataclass(frozen=True)
class Decision:
    """One decision of the seat: the position before move `ply` (0-based: `ply` moves had been
    played), the move played, every legal move's estimate (best first) and the mark."""

    ply: int
    played: str
    moves: tuple[MoveEstimate, ...]
    mark: str | None
    iterations: int
    seconds: float

    @property
    def best(self) -> MoveEstimate:
        return self.moves[0]

    @property
    def played_move(self) -> MoveEstimate:
        return next(m for m in self.moves if m.move == self.played)

    @property
    def loss(self) -> float:
        """How much the played move's estimate is below the best's (0 when it is the best)."""
        return round(max(0.0, self.best.estimate - self.played_move.estimate), 6)

    @property
    def loss_se(self) -> float | None:
        return self.played_move.gap_se

    def to_dict(self) -> dict[str, Any]:
        played = self.played_move
        return {
            "ply": self.ply,
            "played": self.played,
            "played_estimate": played.estimate,
            "best": self.best.move,
            "best_estimate": self.best.estimate,
            "loss": self.loss,
            "loss_se": played.gap_se,
            "mark": self.mark,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "moves": [m.to_dict() for m in self.moves],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Decision:
        moves = tuple(MoveEstimate.from_dict(m) for m in data["moves"])
        played = str(data["played"])
        if not moves or all(m.move != played for m in moves):
            raise LoadError(f"decision at ply {data.get('ply')}: the move played is not listed")
        mark = data.get("mark")
        if mark is not None and mark not in MARKS:
            raise LoadError(f"decision at ply {data.get('ply')}: no mark {mark!r}")
        return cls(
            ply=int(data["ply"]),
            played=played,
            moves=moves,
            mark=mark,
            iterations=int(data["iterations"]),
            seconds=float(data["seconds"]),
        )


@dataclass(frozen=True)
class Analysis:
    """One seat's decisions in one game, judged from its view. `complete` is False when it was
    cancelled part way (the decisions judged so far are kept; cache only a complete one)."""

    record: dict[str, Any]  # identity: hash, game, players, rules, moves, finished (no seed)
    seat: int
    budget: Budget
    marks: Marks
    seed: int
    decisions: tuple[Decision, ...]
    total: int  # the seat's decisions in the game (more than one legal move)
    forced: int  # the seat's turns with a single legal move (not judged)
    result: float | None  # the seat's share of the win (1, 0, or shared), None if unfinished
    complete: bool = True
    seconds: float = 0.0
    version: str = field(default=parlour.__version__)

    def summary(self) -> dict[str, Any]:
        """Counts of each mark, the mean loss over the decisions, and the moves that were best."""
        counts = {m: sum(1 for d in self.decisions if d.mark == m) for m in MARKS}
        losses = [d.loss for d in self.decisions]
        return {
            "decisions": len(self.decisions),
            "marks": counts,
            "mean_loss": round(sum(losses) / len(losses), 6) if losses else 0.0,
            "best_played": sum(1 for d in self.decisions if d.loss == 0),
        }

    def chart(self) -> list[tuple[int, float, float]]:
        """The estimate over the game: (ply, played move's estimate, best move's estimate)."""
        return [(d.ply, d.played_move.estimate, d.best.estimate) for d in self.decisions]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": ANALYSIS_FORMAT,
            "parlour": self.version,
            "record": dict(self.record),
            "seat": self.seat,
            "budget": self.budget.to_dict(),
            "marks": self.marks.to_dict(),
            "seed": self.seed,
            "complete": self.complete,
            "total": self.total,
            "forced": self.forced,
            "result": self.result,
            "seconds": self.seconds,
            "summary": self.summary(),
            "decisions": [d.to_dict() for d in self.decisions],
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> Analysis:
        if not isinstance(data, dict) or data.get("format") != ANALYSIS_FORMAT:
            got = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise LoadError(f"not a {ANALYSIS_FORMAT} analysis (format: {got!r})")
        try:
            result = data["result"]
            return cls(
                record=dict(data["record"]),
                seat=int(data["seat"]),
                budget=Budget.from_dict(data["budget"]),
                marks=Marks.from_dict(data["marks"]),
                seed=int(data["seed"]),
                decisions=tuple(Decision.from_dict(d) for d in data["decisions"]),
                total=int(data["total"]),
                forced=int(data["forced"]),
                result=None if result is None else float(result),
                complete=bool(data["complete"]),
                seconds=float(data["seconds"]),
                version=str(data.get("parlour", "")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, LoadError):
                raise
            raise LoadError(f"damaged analysis: {exc!r}") from None

    @classmethod
    def from_json(cls, text: str) -> Analysis:
        try:
            return cls.from_dict(json.loads(text))
        except json.JSONDecodeError as exc:
            raise LoadError(f"not an analysis (invalid JSON: {exc})") from None


# --- the record -----------------------------------------------------------------------------------
def as_record(record: Record | Mapping[str, Any] | str) -> Record:
    """A record from itself, its `to_dict()` form (extra keys such as `names` ignored) or JSON."""
    if isinstance(record, Record):
        return record
    if isinstance(record, str):
        return Record.from_json(record)
    return Record.from_dict(dict(record))


def record_hash(record: Record | Mapping[str, Any] | str) -> str:
    """The record's identity: SHA-256 of its canonical JSON (keys sorted, no spaces), so the same
    game hashes alike however it was saved (names and other extra keys are not part of it)."""
    data = as_record(record).to_dict()
    data.pop("names", None)  # who sat where is not the game: a record keeps its hash once named
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _identity(record: Record, finished: bool) -> dict[str, Any]:
    return {
        "hash": record_hash(record),
        "game": record.game,
        "players": record.players,
        "rules": dict(record.rules),
        "moves": len(record.moves),
        "finished": finished,
    }


@dataclass(frozen=True)
class DecisionPoint:
    """What the seat knew at one of its decisions: the view, the legal moves, the move played."""

    ply: int
    view: Mapping[str, Any]
    legal: list[Move]
    played: Move


def decision_points(
    record: Record, seat: int
) -> tuple[Game[Any, Any], list[DecisionPoint], int, State]:
    """Replay `record`: the game, the seat's decisions (what it knew at each: its view, a snapshot,
    and the legal moves), how many of its turns had a single legal move, and the final state."""
    game = make(record.game, players=record.players, rules=record.rules)
    state: State = game.new_game(seed=record.seed, **record.setup)
    points: list[DecisionPoint] = []
    forced = 0
    for ply, text in enumerate(record.moves):
        mover = state.to_play
        legal = state.legal_moves() if mover == seat else []
        view = state.view(seat) if len(legal) > 1 else None
        try:
            move = state.apply(text)
        except IllegalMove as exc:
            raise LoadError(f"record move {ply + 1} ({text!r}) cannot be played: {exc}") from None
        if view is not None:
            points.append(DecisionPoint(ply, view, legal, move))
        elif mover == seat:
            forced += 1
    return game, points, forced, state


def _decision_seed(seed: int, ply: int) -> int:
    digest = hashlib.sha256(f"parlour-analysis:{seed}:{ply}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


# --- judging one decision -------------------------------------------------------------------------
def _gap_se(best: Sequence[float], other: Sequence[float]) -> float | None:
    """Standard error of mean(best) - mean(other) from their paired visits (visit t of every root
    move was made on the same determinization in paired mode)."""
    n = min(len(best), len(other))
    if n < 2:
        return None
    d = [best[t] - other[t] for t in range(n)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return round(math.sqrt(var / n), 6)


def judge(
    game: Game[Any, Any],
    view: Mapping[str, Any],
    legal: Sequence[Move],
    played: Move,
    *,
    ply: int = 0,
    budget: Budget | None = None,
    marks: Marks | None = None,
    seed: int = 0,
) -> Decision:
    """Judge one decision from a view: search every legal move on the same determinizations (drawn
    from `view` by the game's `sample_state`) and compare the move played with the best found."""
    budget = budget or Budget()
    marks = marks or Marks()
    legal = list(legal)
    if played not in legal:
        raise RulesError(f"{played} is not among the legal moves")
    if len(legal) < 2:
        raise RulesError("a decision needs two legal moves or more")
    bot = ISMCTSBot(game, random.Random(_decision_seed(seed, ply)), **budget.bot_params(len(legal)))
    trace: list[tuple[Move, float]] = []
    stats = bot.search(view, legal, trace=trace)
    rewards: dict[Move, list[float]] = {m: [] for m in legal}
    for move, reward in trace:
        rewards[move].append(reward)
    means = {m: (sum(r) / len(r) if r else 0.0) for m, r in rewards.items()}
    # the best mean first; on a tie the move played, then the order of the legal moves
    order = sorted(legal, key=lambda m: (-round(means[m], 6), m != played))
    top = rewards[order[0]]
    estimates = tuple(
        MoveEstimate(
            move=str(m),
            estimate=round(means[m], 6),
            visits=len(rewards[m]),
            gap_se=0.0 if i == 0 else _gap_se(top, rewards[m]),
        )
        for i, m in enumerate(order)
    )
    decision = Decision(
        ply=ply,
        played=str(played),
        moves=estimates,
        mark=None,
        iterations=stats.iterations,
        seconds=round(stats.seconds, 6),
    )
    mark = marks.mark(decision.loss, decision.loss_se)
    return Decision(ply, decision.played, estimates, mark, decision.iterations, decision.seconds)


# --- a whole game ---------------------------------------------------------------------------------
def analyse(
    record: Record | Mapping[str, Any] | str,
    seat: int,
    budget: Budget | None = None,
    *,
    seed: int = 0,
    marks: Marks | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
) -> Analysis:
    """Judge every decision of `seat` (0-based) in the game `record` describes, from its view.

    `progress(done, total)` is called before the first decision and after each; `cancel()` is
    asked before each decision, and when it says True the analysis stops there and comes back
    with `complete=False`.
    """
    rec = as_record(record)
    budget = budget or Budget()
    marks = marks or Marks()
    if not isinstance(seat, int) or not 0 <= seat < rec.players:
        raise RulesError(f"the seat must be from 0 to {rec.players - 1}, not {seat!r}")
    game, points, forced, end = decision_points(rec, seat)
    total = len(points)
    if progress is not None:
        progress(0, total)
    judged: list[Decision] = []
    complete = True
    start = time.perf_counter()
    for i, point in enumerate(points):
        if cancel is not None and cancel():
            complete = False
            break
        judged.append(judge_point(game, point, budget=budget, marks=marks, seed=seed))
        if progress is not None:
            progress(i + 1, total)
    return assemble(
        rec,
        seat,
        budget,
        marks,
        seed,
        judged,
        total=total,
        forced=forced,
        end=end,
        complete=complete,
        seconds=time.perf_counter() - start,
    )


def judge_point(
    game: Game[Any, Any], point: DecisionPoint, *, budget: Budget, marks: Marks, seed: int
) -> Decision:
    """One decision of `decision_points`, judged as `analyse` judges it (the same generator: a
    server may judge a game's decisions one at a time, in other processes, and get its analysis)."""
    return judge(
        game,
        point.view,
        point.legal,
        point.played,
        ply=point.ply,
        budget=budget,
        marks=marks,
        seed=seed,
    )


def assemble(
    record: Record,
    seat: int,
    budget: Budget,
    marks: Marks,
    seed: int,
    decisions: Sequence[Decision],
    *,
    total: int,
    forced: int,
    end: State,
    complete: bool,
    seconds: float,
) -> Analysis:
    """The analysis of `record` for `seat` from its judged decisions (in the game's order) and
    what `decision_points` said of the game (the decisions' count, forced turns, final state)."""
    result = terminal_rewards(end)[seat] if end.is_over else None
    return Analysis(
        record=_identity(record, end.is_over),
        seat=seat,
        budget=budget,
        marks=marks,
        seed=seed,
        decisions=tuple(decisions),
        total=total,
        forced=forced,
        result=None if result is None else round(result, 6),
        complete=complete,
        seconds=round(seconds, 3),
    )
