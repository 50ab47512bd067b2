"""The conformance suite every registered game must pass (the OpenSpiel idea, adapted).

Each check plays seeded random games through the public protocol and asserts a property of the
protocol itself: games end, `legal_moves()` is never empty before the end, copies are independent,
JSON and records round-trip exactly, every move's text parses back to it and refused moves say
whether they are no move at all or not legal now, views are a wall — redrawing everything hidden
from a player leaves that player's view unchanged, and a state sampled from a view (as objects or
as JSON) shows the same view —, every view has the common envelope with typed events, and a
position round-trips through `Game.from_position`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

from parlour.core import ENVELOPE, Game, IllegalMove, NotAMove, NotLegalNow, State, View, replay
from parlour.core.events import Event, view_to_wire
from parlour.core.rng import GameRng

__all__ = ["CHECKS", "check_all", "random_playout"]

MAX_MOVES = 50_000


def random_playout(
    game: Game[Any, Any], seed: int, every: Callable[[State, int], None] | None = None
) -> State:
    """Play a random game to its end, calling `every(state, i)` before each move."""
    state: State = game.new_game(seed=seed)
    rng = random.Random(seed ^ 0x5EED)
    for i in range(MAX_MOVES):
        if state.is_over:
            return state
        assert state.to_play is not None, "to_play is None but the game is not over"
        moves = state.legal_moves()
        assert moves, f"no legal moves before the end (move {i})"
        if every is not None:
            every(state, i)
        state.apply(rng.choice(moves))
    raise AssertionError(f"game did not end within {MAX_MOVES} moves (seed {seed})")


def _sample_points(seed: int, k: int = 12, most: int = 40) -> Callable[[int], bool]:
    """Probe the first moves, then about one move in `k`, at most `most` times in all.

    Random games can run to thousands of moves (Nigerian picks pile up); probing every move would
    make the suite quadratic in game length without finding more.
    """
    rng = random.Random(seed * 7 + 1)
    taken = [0]

    def pick(i: int) -> bool:
        if taken[0] >= most or not (i < 3 or rng.random() < 1 / k):
            return False
        taken[0] += 1
        return True

    return pick


def check_plays_to_end(game: Game[Any, Any], seed: int) -> None:
    final = random_playout(game, seed)
    assert final.is_over and final.to_play is None
    assert final.legal_moves() == []
    res = final.result()
    n = game.players
    assert len(res.points) == n and len(res.ranks) == n
    assert res.winners, "a finished game has at least one winner"
    assert all(0 <= w < n for w in res.winners)
    assert all(res.ranks[w] == 1 for w in res.winners)
    json.dumps(res.to_dict())
    try:
        final.apply("draw")
    except IllegalMove:
        pass
    else:  # pragma: no cover - the assertion is the point
        raise AssertionError("a finished game accepted a move")


def check_copy_independent(game: Game[Any, Any], seed: int) -> None:
    pick = _sample_points(seed)

    def probe(state: State, i: int) -> None:
        if not pick(i):
            return
        before = state.to_dict()
        twin = state.copy()
        assert twin.to_dict() == before
        assert twin.legal_moves() == state.legal_moves()
        rng = random.Random(i)
        for _ in range(5):
            if twin.is_over:
                break
            twin.apply(rng.choice(twin.legal_moves()))
        assert state.to_dict() == before, "playing on a copy changed the original"

    random_playout(game, seed, probe)


def check_json_round_trip(game: Game[Any, Any], seed: int) -> None:
    pick = _sample_points(seed)

    def probe(state: State, i: int) -> None:
        if not pick(i):
            return
        text = state.to_json()
        back = game.load(text)
        assert back.to_dict() == state.to_dict(), "to_json -> load changed the state"
        assert back.legal_moves() == state.legal_moves()
        for p in [None, *range(game.players)]:
            assert back.view(p) == state.view(p)
        # and the loaded state goes on exactly like the original
        a, b = state.copy(), back
        rng_a, rng_b = random.Random(i), random.Random(i)
        for _ in range(10):
            if a.is_over:
                break
            ma, mb = rng_a.choice(a.legal_moves()), rng_b.choice(b.legal_moves())
            assert ma == mb
            a.apply(ma)
            b.apply(mb)
        assert a.to_dict() == b.to_dict()

    random_playout(game, seed, probe)


def check_replay(game: Game[Any, Any], seed: int) -> None:
    final = random_playout(game, seed)
    record = final.record()
    again = replay(json.loads(record.to_json()))
    assert again.to_dict() == final.to_dict(), "replaying the record gave another game"
    half = len(record.moves) // 2
    partial = replay(record, upto=half)
    assert len(partial.history) == half


def check_notation(game: Game[Any, Any], seed: int) -> None:
    pick = _sample_points(seed, 3, most=150)

    def probe(state: State, i: int) -> None:
        if not pick(i):
            return
        for move in state.legal_moves():
            text = str(move)
            assert game.parse_move(text) == move, f"{text!r} does not parse back to {move!r}"
            assert hash(game.parse_move(text)) == hash(move)
        before = state.to_dict()
        for bad in ("", "   ", "no such move at all", "play", "\x00"):
            try:
                state.apply(bad)
            except NotAMove as exc:
                assert str(exc), "IllegalMove must say why"
                assert exc.legal == [str(m) for m in state.legal_moves()], "it lists the legal"
            else:  # pragma: no cover
                raise AssertionError(f"{bad!r} was accepted (or not refused as NotAMove)")
        # every move the game could name, refused now, says it is not legal now (and why)
        for other in _other_moves(state, i):
            try:
                state.check(other)
            except NotLegalNow as exc:
                assert str(other) in str(exc)
            else:  # pragma: no cover
                raise AssertionError(f"{other} is not legal now, but check() took it")
        assert state.to_dict() == before, "a refused move changed the state"

    random_playout(game, seed, probe)


def _views(state: State, game: Game[Any, Any]) -> Iterator[tuple[int, View]]:
    for p in range(game.players):
        yield p, state.view(p)


def check_hidden_information(game: Game[Any, Any], seed: int) -> None:
    pick = _sample_points(seed, 6, most=25)
    changed = [0]

    def probe(state: State, i: int) -> None:
        if not pick(i):
            return
        full = state.to_dict()
        for p, view in _views(state, game):
            wire = view_to_wire(view)
            text = json.dumps(wire)
            assert '"rng"' not in text, "a view leaks the generator"
            # a bot on the far side of a socket samples from the view as JSON: the same states
            again = game.sample_state(json.loads(text), GameRng(seed + i + p))
            assert again.view(p) == view, "a state sampled from the JSON view differs"
            rng = GameRng(seed * 1000 + i * 10 + p)
            other = state.permute_hidden(p, rng)
            assert other.view(p) == view, f"player {p}'s view changed when hidden cards moved"
            if other.to_dict() != full:
                changed[0] += 1
            if state.to_play == p:
                assert other.legal_moves() == state.legal_moves()
            sampled = game.sample_state(view, GameRng(seed + i + p))
            assert sampled.view(p) == view, f"a state sampled from player {p}'s view differs"
            if state.to_play == p:
                assert sampled.legal_moves() == state.legal_moves()
            # a sampled state must be playable on to the end
            if i < 3:
                rng2 = random.Random(i)
                for _ in range(200):
                    if sampled.is_over:
                        break
                    sampled.apply(rng2.choice(sampled.legal_moves()))
        spectator = state.view(None)
        json.dumps(view_to_wire(spectator))

    random_playout(game, seed, probe)
    assert changed[0] > 0, "permute_hidden never changed anything: the wall test proved nothing"


def check_envelope(game: Game[Any, Any], seed: int) -> None:
    """Every view starts with the common envelope (docs/protocol.md), events are typed records
    and every legal move's wire form has its text and a `kind`."""
    pick = _sample_points(seed, 8, most=20)
    typed: set[type] = set()

    def probe(state: State, i: int) -> None:
        if not pick(i):
            return
        for p in [None, *range(game.players)]:
            view = state.view(p)
            assert list(view)[: len(ENVELOPE)] == list(ENVELOPE), f"envelope keys: {list(view)}"
            assert view["game"] == game.name and view["viewer"] == p
            assert view["players"] == game.players and view["to_play"] == state.to_play
            assert view["is_over"] == state.is_over
            counts = view["hand_counts"]
            assert counts is None or (isinstance(counts, list) and len(counts) == game.players), (
                "hand_counts is one count per player, or None for a game without hands"
            )
            for ev in view["events"]:
                if type(ev) not in typed:  # what makes an event is its class's: checked once
                    assert isinstance(ev, Event), f"untyped event {ev!r}"
                    typed.add(type(ev))
                assert isinstance(ev.kind, str), f"untyped event {ev!r}"
        for move in state.legal_moves():
            wire = move.to_wire()
            assert wire["text"] == str(move) and isinstance(wire.get("kind"), str)
            json.dumps(wire)

    random_playout(game, seed, probe)


def check_positions(game: Game[Any, Any], seed: int) -> None:
    """`from_position(state.position())` shows the same views (but the events, which a position
    does not hold) and the same legal moves, and its position is the same again."""
    pick = _sample_points(seed, 6, most=25)

    def probe(state: State, i: int) -> None:
        if not pick(i):
            return
        spec = json.loads(json.dumps(state.position()))  # a position is JSON
        back = game.from_position(spec, seed=i)
        assert back.legal_moves() == state.legal_moves(), "from_position changed the legal moves"
        for p in [None, *range(game.players)]:
            a, b = dict(state.view(p)), dict(back.view(p))
            a.pop("events")
            b.pop("events")
            assert a == b, f"from_position changed player {p}'s view"
        assert back.position() == spec, "position() of a position differs"
        rng = random.Random(i)
        for _ in range(20):  # and it plays on
            if back.is_over:
                break
            back.apply(rng.choice(back.legal_moves()))

    random_playout(game, seed, probe)


def _other_moves(state: State, i: int) -> list[Any]:
    """A few moves of this game that were legal at some point of another game, not now."""
    legal = set(state.legal_moves())
    seen = _SEEN.setdefault(state.game, [])
    out = [m for m in seen if m not in legal][:3]
    for m in state.legal_moves():
        if len(seen) < 200 and m not in seen:
            seen.append(m)
    return out


_SEEN: dict[Any, list[Any]] = {}


CHECKS: dict[str, Callable[[Game[Any, Any], int], None]] = {
    "plays_to_end": check_plays_to_end,
    "copy_independent": check_copy_independent,
    "json_round_trip": check_json_round_trip,
    "replay": check_replay,
    "notation": check_notation,
    "hidden_information": check_hidden_information,
    "envelope": check_envelope,
    "positions": check_positions,
}


def check_all(game: Game[Any, Any], seeds: range = range(3)) -> None:
    for seed in seeds:
        for check in CHECKS.values():
            check(game, seed)
