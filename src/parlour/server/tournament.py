"""Tournaments as plain, synchronous rules: who sits where each round, and the standings.

No I/O here (the director, `director.py`, reads and writes the database and opens the tables):
from the entrants and the results of the tables played so far, these functions say what the next
round is and how everyone stands. Two formats, for any game in the registry:

**Swiss** (a table of 2). Every round pairs entrants of equal or near score who have not met
before; with an odd number, the lowest-placed entrant who has had no bye sits out and scores a
win. A win is 1 point, a draw (the game gave both players the same rank) ½, a loss 0; a table
closed with no result scores 0 for both. The standings order by score, then **Buchholz** (the sum
of the final scores of every opponent met; a bye adds nothing), then wins, then the entrant's
number (the order of joining). The seat that moves first goes to whoever has had it less often.

**Elimination** (tables of 3 or 4). Every round the entrants still in are dealt onto tables of
3 or 4, as even as can be (a field no bigger than a table, or of 5 in a game that seats 5, plays
the final table; a field of 5 in a game of 4 at most plays a table of 3 and one of 2), strong and
weak spread across the tables (snake order by the previous round's places). At each table the
better half (rounded up: 2 of 3 or 4, 1 of 2) goes through. The places at a table are the game's
own ranks (the rules' winner first; then, in a game whose points count against a player, the
fewest card-points in hand), ties broken by **fewer cards in hand at the end**, then by the
earlier entrant. The final table's places are the top places; everyone else stands by the round
they went out in (later is better), then their place at that table, then their card-points,
cards in hand and number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "FORMATS",
    "Entrant",
    "Outcome",
    "Seating",
    "elimination_round",
    "elimination_standings",
    "next_round",
    "standings",
    "swiss_round",
    "swiss_rounds",
    "swiss_standings",
    "table_places",
]

FORMATS = ("swiss", "elimination")
PAIRING_BUDGET = 50_000  # search steps for pairings with no repeat before allowing repeats


@dataclass(frozen=True)
class Entrant:
    number: int  # 1, 2, ... in the order of joining: the seed, and the last tie-break
    name: str
    bot: str | None = None


@dataclass
class Outcome:
    """One table of a round as played: the entrants by seat and its game's result (None: not
    finished, or closed without one); a bye is a table of one entrant and no code."""

    round: int
    entrants: list[int]
    code: str | None = None
    result: dict[str, Any] | None = None  # the stored result (by player index = seat here)
    seats: list[int] | None = None  # the game's player order (seats), from the stored game
    done: bool = False  # the table is over: finished, or closed / expired without a result
    game_id: int | None = None

    @property
    def bye(self) -> bool:
        return self.code is None

    def by_entrant(self, key: str) -> dict[int, Any]:
        """A per-player list of the result (`points`, `ranks`, `hand_counts`) by entrant."""
        if self.result is None or not isinstance(self.result.get(key), list):
            return {}
        order = self.seats if self.seats is not None else list(range(len(self.entrants)))
        values = self.result[key]
        return {
            self.entrants[seat]: values[player]
            for player, seat in enumerate(order)
            if player < len(values)
        }


@dataclass
class Seating:
    """The next round: tables (entrant numbers by seat) and byes (entrants sitting out)."""

    round: int
    tables: list[list[int]] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)


# --- swiss ---------------------------------------------------------------------------------------
def swiss_rounds(entrants: int) -> int:
    """The default number of Swiss rounds: enough for one unbeaten winner (log2, rounded up)."""
    return max(1, math.ceil(math.log2(max(2, entrants))))


@dataclass
class SwissLine:
    number: int
    score: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    firsts: int = 0  # times in the seat that moves first
    opponents: list[int] = field(default_factory=list)
    buchholz: float = 0.0


def _swiss_lines(entrants: list[Entrant], outcomes: list[Outcome]) -> dict[int, SwissLine]:
    lines = {e.number: SwissLine(e.number) for e in entrants}
    for o in outcomes:
        if o.bye:
            line = lines[o.entrants[0]]
            line.byes += 1
            line.score += 1.0
            continue
        a, b = o.entrants
        lines[a].firsts += 1
        lines[a].opponents.append(b)
        lines[b].opponents.append(a)
        ranks = o.by_entrant("ranks")
        if not o.done or a not in ranks or b not in ranks:
            if o.done:  # closed without a result: a loss for both
                lines[a].losses += 1
                lines[b].losses += 1
            continue
        if ranks[a] == ranks[b]:
            for n in (a, b):
                lines[n].draws += 1
                lines[n].score += 0.5
        else:
            win, lose = (a, b) if ranks[a] < ranks[b] else (b, a)
            lines[win].wins += 1
            lines[win].score += 1.0
            lines[lose].losses += 1
    for line in lines.values():
        line.buchholz = sum(lines[o].score for o in line.opponents)
    return lines


def _swiss_order(lines: dict[int, SwissLine]) -> list[SwissLine]:
    return sorted(lines.values(), key=lambda x: (-x.score, -x.buchholz, -x.wins, x.number))


def swiss_standings(entrants: list[Entrant], outcomes: list[Outcome]) -> list[dict[str, Any]]:
    names = {e.number: e for e in entrants}
    out = []
    for place, line in enumerate(_swiss_order(_swiss_lines(entrants, outcomes)), 1):
        e = names[line.number]
        out.append(
            {
                "place": place,
                "number": e.number,
                "name": e.name,
                "bot": e.bot,
                "score": line.score,
                "buchholz": line.buchholz,
                "wins": line.wins,
                "draws": line.draws,
                "losses": line.losses,
                "byes": line.byes,
            }
        )
    return out


def swiss_round(entrants: list[Entrant], outcomes: list[Outcome], number: int) -> Seating:
    """Round `number`'s pairings from the rounds played so far."""
    lines = _swiss_lines(entrants, outcomes)
    order = [x.number for x in _swiss_order(lines)]
    seating = Seating(number)
    if len(order) % 2:
        had = [n for n in reversed(order) if lines[n].byes == 0]
        bye = had[0] if had else order[-1]
        order.remove(bye)
        seating.byes.append(bye)
    met = {n: set(lines[n].opponents) for n in order}
    pairs = _pair(order, met, PAIRING_BUDGET)
    if pairs is None:  # no pairing avoids every repeat: the nearest in the standings
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    for a, b in pairs:
        first, second = (a, b) if lines[a].firsts <= lines[b].firsts else (b, a)
        seating.tables.append([first, second])
    return seating


def _pair(order: list[int], met: dict[int, set[int]], budget: int) -> list[tuple[int, int]] | None:
    """Pair `order` (best first) top-down, each with the nearest below not met before,
    backtracking when the rest cannot be paired; None when none is found within `budget`."""
    steps = 0

    def go(rest: list[int]) -> list[tuple[int, int]] | None:
        nonlocal steps
        if not rest:
            return []
        top, others = rest[0], rest[1:]
        for i, other in enumerate(others):
            steps += 1
            if steps > budget:
                return None
            if other in met[top]:
                continue
            tail = go(others[:i] + others[i + 1 :])
            if tail is not None:
                return [(top, other), *tail]
        return None

    return go(order)


# --- elimination ---------------------------------------------------------------------------------
def table_places(o: Outcome) -> list[int]:
    """A table's entrants best first: the game's ranks, card-points, fewer cards in hand, the
    earlier entrant (a table closed with no result: by entrant number)."""
    ranks = o.by_entrant("ranks")
    points = o.by_entrant("points")
    hands = o.by_entrant("hand_counts")
    lower = bool(o.result.get("lower_is_better", True)) if o.result else True

    def key(n: int) -> tuple[float, float, float, int]:
        p = float(points.get(n, math.inf if lower else -math.inf))
        return (
            float(ranks.get(n, math.inf)),
            p if lower else -p,
            float(hands.get(n, math.inf)),
            n,
        )

    return sorted(o.entrants, key=key)


def _advancing(o: Outcome) -> list[int]:
    places = table_places(o)
    return places[: math.ceil(len(places) / 2)]


def _tables_for(n: int, size: int, most: int = 5) -> list[int]:
    """Table sizes for `n` players, as even as can be, each 3 or 4: one final table when n is at
    most `size`, or at most 5 and the game seats that many (`most`); a field of 5 in a game of 4
    at most plays tables of 3 and 2."""
    if n <= size or n <= min(5, most):
        return [n]
    k = math.ceil(n / 4) if size >= 4 else n // 3
    k = max(k, math.ceil(n / most), 1)
    base, extra = divmod(n, k)
    return [base + 1] * extra + [base] * (k - extra)


def elimination_round(
    entrants: list[Entrant], outcomes: list[Outcome], number: int, size: int, most: int = 5
) -> Seating | None:
    """Round `number`'s tables (None: the final table has been played: the tournament is over)."""
    if number == 1:
        field_ = [e.number for e in sorted(entrants, key=lambda e: e.number)]
    else:
        last = [o for o in outcomes if o.round == number - 1]
        if len(last) == 1:
            return None  # the last round was the final table
        # those going through, best places first (every table's winners, then its seconds, ...)
        ranked: list[tuple[int, int, int]] = []
        for o in last:
            for place, n in enumerate(_advancing(o)):
                ranked.append((place, n, n))
        field_ = [n for _, _, n in sorted(ranked)]
    sizes = _tables_for(len(field_), size, most)
    tables: list[list[int]] = [[] for _ in sizes]
    # snake order: 1 2 3 3 2 1 1 2 3 ..., skipping full tables
    i, step = 0, 1
    for n in field_:
        while len(tables[i]) >= sizes[i]:
            i, step = _snake(i, step, len(sizes))
        tables[i].append(n)
        i, step = _snake(i, step, len(sizes))
    return Seating(number, tables=tables)


def _snake(i: int, step: int, k: int) -> tuple[int, int]:
    if k == 1:
        return 0, 1
    j = i + step
    if 0 <= j < k:
        return j, step
    return i, -step


def elimination_standings(
    entrants: list[Entrant], outcomes: list[Outcome], finished: bool
) -> list[dict[str, Any]]:
    """Everyone's place: the furthest round reached first, then the place at that round's table.
    While a round is under way, those still in share the round and are listed in seed order."""
    names = {e.number: e for e in entrants}
    last_round: dict[int, Outcome] = {}
    for o in outcomes:
        for n in o.entrants:
            if n not in last_round or o.round > last_round[n].round:
                last_round[n] = o
    final_round = max((o.round for o in outcomes), default=0)

    def key(n: int) -> tuple[float, ...]:
        o = last_round.get(n)
        if o is None:
            return (0, 0, 0, 0, n)
        if not o.done:  # still playing: first of their round, in seed order
            return (-o.round, -1, 0, 0, n)
        place = table_places(o).index(n)
        points = o.by_entrant("points")
        hands = o.by_entrant("hand_counts")
        lower = bool(o.result.get("lower_is_better", True)) if o.result else True
        p = float(points.get(n, 0))
        return (-o.round, place, p if lower else -p, float(hands.get(n, 0)), n)

    out = []
    for place, n in enumerate(sorted(names, key=key), 1):
        at = last_round.get(n)
        through = at is not None and at.done and n in _advancing(at)
        if at is None:
            status = "waiting"
        elif not at.done:
            status = "playing"
        elif at.round == final_round and finished:
            status = "winner" if place == 1 else "final"
        elif through and not finished:
            status = "through"
        else:
            status = "out"
        out.append(
            {
                "place": place,
                "number": n,
                "name": names[n].name,
                "bot": names[n].bot,
                "round": at.round if at is not None else 0,
                "status": status,
            }
        )
    return out


# --- both ----------------------------------------------------------------------------------------
def next_round(
    fmt: str,
    entrants: list[Entrant],
    outcomes: list[Outcome],
    number: int,
    *,
    rounds: int | None,
    size: int,
    most: int = 5,
) -> Seating | None:
    """Round `number` of a tournament (None: the tournament is over); `most`: the most players
    the game seats."""
    if fmt == "swiss":
        assert rounds is not None
        return swiss_round(entrants, outcomes, number) if number <= rounds else None
    return elimination_round(entrants, outcomes, number, size, most)


def standings(
    fmt: str, entrants: list[Entrant], outcomes: list[Outcome], finished: bool = False
) -> list[dict[str, Any]]:
    if fmt == "swiss":
        return swiss_standings(entrants, outcomes)
    return elimination_standings(entrants, outcomes, finished)
