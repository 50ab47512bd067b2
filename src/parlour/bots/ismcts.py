"""Information-set Monte Carlo tree search (single-observer ISMCTS), for every game.

The bot never sees the true state. Each iteration it searches a *determinization*: a full state
drawn by `game.sample_state(view, rng)` from those its seat cannot tell apart from the real one
(Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree Search"). One tree is shared
by all determinizations; its edges are moves, and a move is only considered in a node when the
current determinization allows it. Selection is UCB1 with *availability counts*: a child's
exploration term uses how often it was available, not how often its parent was visited, so moves
that are seldom possible are not starved.

Sampling a state from a view parses the view and is the slowest step, so the bot draws a pool of
determinizations once per decision and each iteration searches a `copy()` of one of them (each
game sets the pool's size: where the model's replies are all but fixed by the hidden cards, a
root move's visits are worth only as many distinct determinizations as they meet).

Playouts are the other cost. A game may give, in its own folder (its manifest's `search`), a
cheap playout *policy* on full states and an *evaluation* that scores an unfinished state; with
them a playout stops after `depth` moves (or after `horizon(state)` moves, where the game knows a
natural stopping point such as the end of a deal) and the evaluation stands in for the rest of the
game. Without them the playout is uniformly random to the end (capped at `max_playout` moves, then
a draw).

A game may also give a *model* of how the other seats play: a policy on full states that
decides only from what the mover may know (each game's `hint` rules, computed on the state). With
it, the tree branches only on the searching seat's own moves; at another seat's turn the search
follows the model, as in the playouts. Against players who do play like the model this turns the
search into policy improvement (the rollout algorithm of Bertsekas & Tsitsiklis; Tesauro & Galperin
1996): each own move is judged by how the game goes on after it, which a one-move rule cannot see.
Against others the model is still a far better guess than the uniformly random choices an unvisited
node would make. The model's move is also the first one tried at a new node of the searcher's.
The model's play so far also says something of the hidden cards: a game may give `likely(state,
seat)`, and a determinization it rejects is redrawn (a few times at most). `settle` plays a
playout on to the searcher's next turn, so that every leaf is scored at the same point of a round.
`paired` evaluates every root move in turn on each determinization (common random numbers) and
plays the best mean: where the evaluation is a calibrated win chance and moves differ by a point
or two of it (a race game's learned evaluation), the luck of the draw, common to every move on
one determinization, then drops out of their comparison. Where it is not, visit counts did as well
(docs/bots.md says which game uses which).

Budget: `iterations=N` (default 1000) or `seconds=S` (whichever is given; `seconds` wins).
Other parameters: `c` (exploration; default 0.7 unless the game gives its own), `depth`,
`pool` (determinizations per move), `model` (0 to branch on every seat's moves instead, or the name
of one of the game's `policies`), `playout` (the name of one of the game's `policies`), `paired`
(1 for common random numbers at the root), `guard` (with `paired`: keep the model's own move
unless another beats it by this many standard errors), `likely` (0 to keep every determinization
drawn, 1 to redraw those the game's `likely` rejects, where the game leaves it off by default).
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar

from parlour.core import Game, Move, RulesError, State
from parlour.core.options import parse_bool
from parlour.core.registry import info
from parlour.core.rng import GameRng

from .base import Bot, register_bot

__all__ = [
    "ISMCTSBot",
    "ISMCTSParams",
    "SearchHelp",
    "SearchStats",
    "search_help",
    "terminal_rewards",
]

Policy = Callable[[State, random.Random], Move]
Evaluate = Callable[[State], Sequence[float]]
Horizon = Callable[[State], int]
Likely = Callable[[State, int], bool]
Rollout = Callable[[State, random.Random, int], int]
Worth = Callable[[State, list[Move]], list[Move]]


@dataclass(frozen=True)
class SearchHelp:
    """What a game tells the search (its manifest's `search`): a fast policy on full states and an
    evaluation of unfinished ones (a win chance per seat, summing to about 1), used after `depth`
    playout moves — or, when the game gives a `horizon`, after `horizon(state)` moves from where
    the playout starts (an explicit `depth=` parameter of the bot still wins)."""

    policy: Policy | None = None
    evaluate: Evaluate | None = None
    depth: int = 1_000_000
    pool: int = 100  # determinizations per decision (fewer where sampling is slow)
    horizon: Horizon | None = None
    c: float = 0.7  # the game's default exploration constant (its rewards' scale differs)
    model: Policy | None = None  # how the other seats play, on full states (see the module doc)
    # Play on past the depth to the searcher's next turn, so every leaf is scored at the same point
    # of the round (a position just after one's own move flatters it: the others have not replied).
    settle: bool = False
    # Common random numbers at the root: every root move in turn on the same determinization, and
    # the best mean wins (see the module doc).
    paired: bool = False
    # `likely(state, seat)`: is this determinization one the model's play so far makes possible
    # (say, the suit a hint-playing namer chose is the one its dealt hand was longest in)? The
    # search then redraws, a few times at most, a determinization that is not.
    likely: Likely | None = None
    # Whether a bot uses `likely` unless its spec says (`likely=0` or `likely=1`): off where it was
    # added after the game's search figures were measured and measured no gain (docs/lab/search.md).
    likely_by_default: bool = True
    # `rollout(state, rng, limit)`: play up to `limit` moves of `policy` (fewer if the game ends)
    # and say how many — the same moves from the same draws as the search's own loop of
    # `state.apply(policy(state, rng))`, written out by the game where a call per move to the
    # policy and to the gate is much of a playout's time.
    rollout: Rollout | None = None
    # `worth(state, legal)`: the searcher's moves worth weighing, where some legal moves are never
    # better than another (say, a courtesy owed before the next move, whose omission only costs).
    # The search branches only on these; the bot still answers from the legal moves.
    worth: Worth | None = None
    # Named policies on full states, each deciding only from what the mover may know, that a bot
    # spec may pick as the model of the other seats or the playout policy
    # (`ismcts:model=greedy,playout=greedy`); the defaults are `model` and `policy` above.
    policies: Mapping[str, Policy] = field(default_factory=dict)


_REDRAWS = 15  # determinizations drawn at most in search of a likely one


def search_help(game: str) -> SearchHelp:
    """The game's help for the search, from its manifest (or none: plain random playouts)."""
    help_ = info(game).search
    return help_ if isinstance(help_, SearchHelp) else SearchHelp()


def terminal_rewards(state: State) -> list[float]:
    """1 shared among the winners, 0 for the others."""
    res = state.result()
    n = len(res.points)
    if not res.winners:
        return [1.0 / n] * n
    share = 1.0 / len(res.winners)
    return [share if i in res.winners else 0.0 for i in range(n)]


@contextmanager
def _collector_paused() -> Iterator[None]:
    """CPython's cyclic collector off for the length of a search. A search makes some 10^5
    objects that reference counting frees (copies, moves, lists), and the tree's nodes, which
    survive it: those survivors start full collections, each walking every object the process
    holds — a game's memo of hands (one game keeps up to 40,000), a server's tables. They were
    12% of that game's slowest decisions (docs/lab/search.md). (The tree has no cycles, so reference
    counting frees it as the search ends.) Restored only if it was on: a
    process that manages its own collections (the server's `collector`) keeps its policy."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _named(
    help_: SearchHelp, param: str, raw: str | None, default: Policy | None, game: str
) -> Policy | None:
    """The policy a bot spec's `model=` or `playout=` names: one of the game's `policies`, or
    (for `model`) 0 for none and 1 for the game's own; no value means the game's own."""
    if raw is None:
        return default
    name = raw.strip()
    if name in help_.policies:
        return help_.policies[name]
    if param == "model":
        try:
            return default if parse_bool(name) else None
        except ValueError:
            pass
    known = ", ".join(sorted(help_.policies)) or "none"
    extra = "0, 1 or " if param == "model" else ""
    raise RulesError(
        f"ismcts {param} must be {extra}one of {game}'s policies ({known}), not {name!r}"
    )


class _Node:
    # No parent pointer: an iteration keeps its path, so the tree has no cycles and reference
    # counting frees it when the search ends (a tree of cycles was left to a collection of its
    # tens of thousands of nodes after every search).
    __slots__ = ("avail", "children", "move", "player", "reward", "visits")

    def __init__(self, move: Move | None, player: int) -> None:
        self.move = move
        self.player = player  # the seat that made `move` (whose reward this node keeps)
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0


@dataclass(frozen=True)
class SearchStats:
    """What a search found: per root move, visits and mean reward (the seat's win estimate)."""

    iterations: int
    seconds: float
    moves: tuple[tuple[Move, int, float], ...]  # (move, visits, mean reward), most visited first


_NO_DEPTH = 1_000_000  # a game's depth when it gives none: play on to the end


@dataclass(frozen=True)
class ISMCTSParams:
    """An ismcts bot's parameters (the module's docstring says what each does). `from_spec` reads
    a spec's words against the game's search help, whose defaults fill what the spec leaves out;
    the checks of their ranges are here, so a search is never built on an impossible budget."""

    iterations: int = 1000
    seconds: float | None = None  # with seconds, the budget is time and `iterations` is unused
    c: float = 0.7
    pool: int = 100
    max_playout: int = 2000
    depth: int = _NO_DEPTH
    paired: bool = False
    guard: float = 0.0
    likely: bool = True  # (where the game has a `likely` and the search a model)
    model: Policy | None = None  # how the other seats play; None: the tree branches on them
    playout: Policy | None = None  # None: uniformly random playouts
    horizon: Horizon | None = None  # the game's, unless the spec sets a depth

    NAMES: ClassVar[tuple[str, ...]] = (
        "c",
        "depth",
        "guard",
        "iterations",
        "likely",
        "max_playout",
        "model",
        "paired",
        "playout",
        "pool",
        "seconds",
    )

    @classmethod
    def from_spec(
        cls, params: Mapping[str, str], game: str, help_: SearchHelp | None = None
    ) -> ISMCTSParams:
        """The parameters a spec gives (`{"iterations": "200", "model": "0"}`) for `game`;
        RulesError names what is wrong and what is allowed."""
        help_ = search_help(game) if help_ is None else help_
        bad = sorted(set(params) - set(cls.NAMES))
        if bad:
            raise RulesError(f"ismcts takes {', '.join(cls.NAMES)}; not {', '.join(bad)}")
        get = params.get
        try:
            iterations = int(get("iterations", 1000))
            seconds = float(params["seconds"]) if "seconds" in params else None
            c = float(get("c", help_.c))
            pool = int(get("pool", help_.pool))
            max_playout = int(get("max_playout", 2000))
            depth = int(get("depth", help_.depth))
            paired = parse_bool(get("paired", help_.paired))
            likely = parse_bool(get("likely", help_.likely_by_default))
            guard = float(get("guard", 0))
        except ValueError as exc:
            raise RulesError(f"bad ismcts parameter: {exc}") from None
        return cls(
            iterations=iterations,
            seconds=seconds,
            c=c,
            pool=pool,
            max_playout=max_playout,
            depth=depth,
            paired=paired,
            guard=guard,
            likely=likely,
            model=_named(help_, "model", get("model"), help_.model, game),
            playout=_named(help_, "playout", get("playout"), help_.policy, game),
            horizon=None if "depth" in params else help_.horizon,
        )

    def __post_init__(self) -> None:
        # nan and inf are floats too: a search must have a finite budget
        if self.seconds is not None and not (math.isfinite(self.seconds) and self.seconds > 0):
            raise RulesError("ismcts seconds must be a finite number above 0")
        if not math.isfinite(self.c) or self.c < 0:
            raise RulesError("ismcts c must be a finite number, 0 or more")
        if not math.isfinite(self.guard) or self.guard < 0:
            raise RulesError("ismcts guard must be a finite number, 0 or more")
        if self.guard and not self.paired:
            raise RulesError(
                "ismcts guard compares root moves on common determinizations: paired=1"
            )
        if self.iterations < 1 or self.pool < 1 or self.max_playout < 1 or self.depth < 0:
            raise RulesError("ismcts needs iterations, pool and max_playout >= 1, depth >= 0")

    def budget(self) -> dict[str, float]:
        """What a search may spend, as the bots' limits check it."""
        out: dict[str, float] = {"pool": self.pool, "max_playout": self.max_playout}
        if self.seconds is not None:
            out["seconds"] = self.seconds
        else:
            out["iterations"] = self.iterations
        if self.depth < _NO_DEPTH:
            out["depth"] = self.depth
        return out


class ISMCTSBot(Bot):
    name = "ismcts"

    def __init__(self, game: Game[Any, Any], rng: random.Random, **params: str) -> None:
        super().__init__(game, rng)
        help_ = search_help(game.name)
        self.params = p = ISMCTSParams.from_spec(params, game.name, help_)
        self.help = help_
        self.model = p.model
        self.policy = p.playout
        # A game's `likely` judges the other seats' play by its model, and holds for each of its
        # named policies too; `rollout` plays the game's own policy only.
        self.likely = help_.likely if p.model is not None and p.likely else None
        ours = p.playout is not None and p.playout is help_.policy
        self.rollout = help_.rollout if ours else None
        self.last: SearchStats | None = None

    searches = True

    def budget(self) -> dict[str, float]:
        return self.params.budget()

    # --- the search -----------------------------------------------------------------------------
    def search(
        self,
        view: dict[str, Any],
        legal: list[Move],
        trace: list[tuple[Move, float]] | None = None,
        *,
        all_moves: bool = True,
    ) -> SearchStats:
        """Search from `view` (never a state) and say what each root move scored. With `trace`,
        each iteration's root move and the searching seat's reward are appended to it, in order:
        what an analysis needs for the noise of its estimates (in `paired` mode the k-th visit of
        every root move was made on the same determinization). With `all_moves` false the root
        weighs only the moves the game's `worth` keeps, as the bot does when it plays; a review
        judges every legal move, since a person may play any of them."""
        start = time.perf_counter()
        me = view.get("viewer")
        if not isinstance(me, int):
            raise RulesError("ismcts needs a player's view")
        with _collector_paused():
            search = _Search(self, view, me, trace, all_moves)
            legal = search.root_moves(legal)
            if len(legal) == 1:
                return SearchStats(0, 0.0, ((legal[0], 0, float("nan")),))
            search.run(legal, start)
            return search.stats(start)

    def _guarded(self, base: Move, legal: list[Move], samples: list[list[float]]) -> Move | None:
        """With `guard` z: the model's own move `base`, unless another root move beat it on the
        same determinizations by more than z standard errors of the paired difference (then the
        best of those by mean). Visit counts alone pick among moves whose chances differ by a
        point, well inside the noise, about as often as among moves that truly differ."""
        if base not in legal:
            return None
        b = legal.index(base)
        n = min(len(x) for x in samples)
        if n < 2:
            return base
        keep, best = base, 0.0
        ref = samples[b]
        for i, other in enumerate(samples):
            if i == b:
                continue
            diffs = [other[j] - ref[j] for j in range(n)]
            mean = math.fsum(diffs) / n
            var = math.fsum((x - mean) ** 2 for x in diffs) / (n - 1)
            if mean - self.params.guard * math.sqrt(var / n) > 0 and mean > best:
                keep, best = legal[i], mean
        return keep

    # --- the bot protocol -------------------------------------------------------------------------
    def _pick(self, stats: SearchStats, legal: list[Move]) -> Move:
        """The first-ranked root move that is legal: the most visited, or the best mean when
        paired (the tree only knows legal moves, but the answer is always taken from `legal`)."""
        index = {m: m for m in legal}
        for move, _, _ in stats.moves:
            if move in index:
                return index[move]
        return self.rng.choice(legal)

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        stats = self.search(view, legal, all_moves=False)
        self.last = stats
        return self._pick(stats, legal)

    def explain(self, view: dict[str, Any], legal: list[Move]) -> tuple[Move, str]:
        stats = self.search(view, legal, all_moves=False)
        self.last = stats
        move = self._pick(stats, legal)
        if stats.iterations == 0:
            return move, "the only legal move"
        top = stats.moves[:3]
        est = next((r for m, _, r in stats.moves if m == move), float("nan"))
        others = "; ".join(f"{m}: {r:.0%} over {v} visits" for m, v, r in top[1:])
        text = (
            f"ismcts estimates a {est:.0%} chance to win with {move} "
            f"({top[0][1]} of {stats.iterations} simulations"
        )
        text += f"; next best {others})" if others else ")"
        return move, text


def _ucb1(children: dict[Move, _Node], moves: list[Move], c: float) -> _Node:
    """The child of the moves available now with the best UCB1 score, its exploration term from
    how often each was available (each available one counted once more)."""
    best = children[moves[0]]
    best_v = -1.0
    log = math.log
    sqrt = math.sqrt
    for m in moves:
        ch = children[m]
        v = ch.reward / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
        ch.avail += 1
        if v > best_v:
            best_v, best = v, ch
    return best


class _Search:
    """One decision's search, along its four steps, each a method: `draw` a determinization (or
    copy one from the pool), `descend` the tree to a new node, `play_out` from it, `back_up` the
    rewards along the path. `run` loops over them; `stats` ranks the root's moves.

    It is built per decision and holds what the decision needs — the bot's parameters and the
    game's help as plain attributes, the view's sampler, the pool, the tree — so the steps read
    them once each (the loop's hot parts keep them in locals)."""

    def __init__(
        self,
        bot: ISMCTSBot,
        view: dict[str, Any],
        me: int,
        trace: list[tuple[Move, float]] | None,
        all_moves: bool,
    ) -> None:
        p = bot.params
        help_ = bot.help
        self.bot = bot
        self.me = me
        self.rng = bot.rng
        self.players = bot.game.players
        self.sample = bot.game.sampler(view)  # the view read once, for every draw
        self.likely = bot.likely
        self.worth = help_.worth
        self.all_moves = all_moves
        self.trace = trace
        self.c = p.c
        self.seconds = p.seconds
        self.iterations = p.iterations
        self.pool_size = p.pool
        self.paired = p.paired
        self.guard = p.guard
        self.model = bot.model
        self.policy = bot.policy
        self.rollout = bot.rollout
        self.evaluate = help_.evaluate
        self.horizon = p.horizon
        self.depth = p.depth
        self.settle = help_.settle
        self.max_playout = p.max_playout
        self.pool: list[State] = []
        self.root = _Node(None, me)
        self.legal: list[Move] = []
        # With the guard: each root move's rewards in visit order, the j-th of each on one
        # determinization (kept only for the guard's test; paired visits alone need the sums).
        self.samples: list[list[float]] | None = None
        self.done = 0  # iterations run

    # --- draw ---------------------------------------------------------------------------------
    def draw(self) -> State:
        """A fresh determinization from the view; where the game's `likely` rejects it, another,
        a few times at most."""
        rng = self.rng
        d: State = self.sample(GameRng(rng.getrandbits(63)))
        likely = self.likely
        if likely is not None:
            for _ in range(_REDRAWS):
                if likely(d, self.me):
                    break
                d = self.sample(GameRng(rng.getrandbits(63)))
        return d

    def determinization(self, it: int, pool_size: int) -> State:
        """Iteration `it`'s state to search: a new draw while the pool is filling (its copy kept),
        then copies of the pool's in turn (in `paired` mode one draw serves a round of root
        moves)."""
        pool = self.pool
        j = it // len(self.legal) if self.paired else it
        if j >= len(pool) and len(pool) < pool_size:
            d = self.draw()
            pool.append(d.copy())
            return d
        return pool[j % len(pool)].copy()

    def root_moves(self, legal: list[Move]) -> list[Move]:
        """The root's moves: the legal ones, or those the game's `worth` keeps when the bot plays
        (what is worth weighing depends only on what the seat knows: any determinization, here
        the pool's first, says it)."""
        worth = self.worth
        if worth is not None and not self.all_moves and len(legal) > 1:
            self.pool.append(self.draw())
            legal = worth(self.pool[0], legal)
        return legal

    # --- descend ------------------------------------------------------------------------------
    def descend(self, d: State, slot: int) -> list[_Node]:
        """From the root down the tree on `d`, applying each move, to the first node made on the
        way (or the game's end): the path. The searcher's moves are chosen by UCB1 with
        availability counts, an untried one first (the model's move first of those); another
        seat's by the model where there is one. In `paired` mode the root move is `slot`."""
        root = self.root
        node = root
        path = [root]
        me = self.me
        if self.paired:
            # Root move `it mod k` on determinization `it div k`: each determinization judges
            # every root move, so luck common to all of them cancels out of their comparison.
            m = self.legal[slot]
            child = root.children.get(m)
            fresh = child is None
            if child is None:
                child = root.children[m] = _Node(m, me)
            d.apply(m)
            path.append(child)
            if fresh:
                return path
            node = child
        model = self.model
        worth = self.worth
        all_moves = self.all_moves
        rng = self.rng
        c = self.c
        while not d.is_over:
            player = d.to_play
            assert player is not None
            children = node.children
            if model is not None and player != me:
                # Another seat moves as the model says: follow it, no branching here.
                m = model(d, rng)
                child = children.get(m)
                if child is None:
                    child = children[m] = _Node(m, player)
                d.apply(m)
                node = child
                path.append(child)
                continue
            moves = d.legal_moves()
            if worth is not None and (node is not root or not all_moves):
                moves = worth(d, moves)
            untried = [m for m in moves if m not in children]
            if untried:
                m = rng.choice(untried)
                if model is not None and len(untried) > 1:
                    first = model(d, rng)
                    if first not in children:
                        m = first
                child = children[m] = _Node(m, player)
                d.apply(m)
                path.append(child)
                return path
            node = _ucb1(children, moves, c)
            assert node.move is not None
            d.apply(node.move)
            path.append(node)
        return path

    # --- play out -----------------------------------------------------------------------------
    def play_out(self, d: State) -> Sequence[float]:
        """Play `d` on by the playout policy (uniformly random without one) to the end, or for
        the depth or horizon and then as far as the searcher's next turn where the game asks to
        `settle`: the rewards per seat, from the result, the game's evaluation, or a draw."""
        evaluate = self.evaluate
        max_playout = self.max_playout
        if evaluate is None:
            limit = max_playout
        elif self.horizon is not None:
            limit = self.horizon(d)
        else:
            limit = self.depth
        rng = self.rng
        steps = 0
        if self.rollout is not None:
            steps = self.rollout(d, rng, limit)
        policy = self.policy
        settle = self.settle
        me = self.me
        while not d.is_over and (
            steps < limit or (settle and d.to_play != me and steps < max_playout)
        ):
            if policy is not None:
                d.apply(policy(d, rng))
            else:
                d.apply(rng.choice(d.legal_moves()))
            steps += 1
        if d.is_over:
            return terminal_rewards(d)
        if evaluate is not None:
            return evaluate(d)
        n = self.players
        return [1.0 / n] * n

    # --- back up ------------------------------------------------------------------------------
    def back_up(self, path: list[_Node], rewards: Sequence[float], slot: int) -> None:
        """Each node on the path one visit more and its mover's reward added; the guard's sample
        and the trace kept where asked."""
        for node in path:
            node.visits += 1
            node.reward += rewards[node.player]
        if self.samples is not None:
            self.samples[slot].append(rewards[self.me])
        if self.trace is not None:
            top = path[1] if len(path) > 1 else self.root
            assert top.move is not None
            self.trace.append((top.move, rewards[self.me]))

    # --- the loop and its answer --------------------------------------------------------------
    def run(self, legal: list[Move], start: float) -> None:
        """Iterate over the root's `legal` moves until the budget (iterations, or seconds from
        `start`) is spent."""
        self.legal = legal
        k = len(legal)
        paired = self.paired
        deadline = None if self.seconds is None else start + self.seconds
        budget = self.iterations if deadline is None else 1 << 62
        if deadline is not None:
            pool_size = self.pool_size
        else:
            pool_size = min(self.pool_size, -(-budget // k) if paired else budget)
        if paired and self.guard:
            self.samples = [[] for _ in range(k)]
        determinization = self.determinization
        descend = self.descend
        play_out = self.play_out
        back_up = self.back_up
        clock = time.perf_counter
        it = 0
        while it < budget:
            if deadline is not None and it & 15 == 0 and clock() >= deadline:
                break
            d = determinization(it, pool_size)
            slot = it % k
            path = descend(d, slot)
            back_up(path, play_out(d), slot)
            it += 1
        self.done = it

    def stats(self, start: float) -> SearchStats:
        """The root's moves ranked: by visits, or in `paired` mode (equal visits) by mean, the
        guard's choice first where it keeps the model's move."""
        root = self.root
        if self.paired:
            ranked = sorted(root.children.values(), key=lambda ch: -ch.reward / ch.visits)
            if self.samples is not None and self.model is not None and self.pool:
                base = self.model(self.pool[0].copy(), self.rng)
                keep = self.bot._guarded(base, self.legal, self.samples)
                if keep is not None:
                    ranked.sort(key=lambda ch: ch.move != keep)  # (stable: the rest by mean)
        else:
            ranked = sorted(root.children.values(), key=lambda ch: -ch.visits)
        stats = tuple(
            (ch.move, ch.visits, ch.reward / ch.visits) for ch in ranked if ch.move is not None
        )
        return SearchStats(self.done, time.perf_counter() - start, stats)


register_bot("ismcts", ISMCTSBot)
