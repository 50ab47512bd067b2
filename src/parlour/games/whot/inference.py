"""What the others' plays and draws say of their hands: weights for ISMCTS's determinizations.

ISMCTS draws its determinizations uniformly from the cards its seat cannot place
(`WhotState._from_view`). But the others did not play at random: a player who went to market
while holding a card it could have played is rare, and a hand that would have made a player's
observed plays unlikely is an unlikely hand. Policy-based inference (Rebstock, Solinas, Buro &
Sturtevant 2019, "Policy Based Inference in Trick-Taking Card Games", on Skat) weights each
sampled deal by how likely it makes the others' observed moves under a model of them; the search
then resamples its pool by those weights (`ISMCTSParams.infer`).

Two steps, both from the seat's view alone — the public events and its own hand; never a true
hidden card:

1. `PublicReplay` plays the deal's public events again through the engine itself, from a deal of
   placeholder cards: a card a seat is seen to play is swapped into its hand just before (from the
   placeholders), and a draw takes a placeholder. Nothing public depends on which placeholder was
   where, so at every move of another seat the replay's state is, but for the hidden cards, the
   state that seat decided in: the call, the pile, the pick owed, every hand's size, the events.
   The replay keeps a copy there (a *snapshot*), and for each seat the changes of its hand: cards
   played (public) and cards drawn (hidden: how many).
2. The model judges a determinization's hands against those decisions. `draws` needs only
   counts: the cards a seat could have played at a draw that have since passed through its hand
   (held now, or played since) must all have come from its draws since. `policy` needs the hand
   held at each decision: the hand is walked back through the seat's changes — a play puts its
   card back, a draw takes out as many of the hand's cards, chosen at random (`hands_back`) —
   and the seat's view rebuilt with it.

Models (`INFERENCE`, the ISMCTS spec's `infer=`):

* `draws` — the stated simple model: a player that goes to market holds nothing it could have
  played (the hint, greedy and counter rules all play whenever they can), but for a small
  probability `noise` of drawing anyway: a hand that cannot explain a draw, whichever of its
  cards came later, is weighed by `noise` for it. Plays say nothing under it. Every rule set.
* `policy` — the learned bot's policy: its Q values of the seat's legal moves at the snapshot, a
  softmax with temperature `temp`, mixed with `noise` of a uniformly random legal move so that no
  hand is ruled out; the last `infer_depth` decisions of each seat are read (each costs a
  network row a determinization). Only where networks ship (nigerian and storey-1935 at two
  players); elsewhere it is refused with the learned bot's sentence.

Where the replay cannot follow the events (a game set up from a position rather than dealt, or a
move the events do not show, such as ending a turn of several cards), it stops there and only the
snapshots before are read.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour.core import Game, State
from parlour.core.rng import GameRng

from .cards import PACK, WHOT, parse_card
from .engine import WhotGame, WhotState, view_events
from .moves import DRAW, END, PASS, WhotMove

__all__ = [
    "INFERENCE",
    "PRIORS",
    "DrawsModel",
    "PolicyModel",
    "PublicReplay",
    "Snapshot",
    "hands_back",
    "policy_prior",
]

_SLOTS = WHOT + 1  # card ints run up to WHOT's

LogWeigh = Callable[[Sequence[State]], list[float]]


@dataclass(frozen=True)
class Snapshot:
    """Another seat's decision in the replay: its state (placeholders in the hidden hands), the
    seat, the move it made, and where in the seat's list of hand changes it came."""

    state: WhotState
    seat: int
    move: WhotMove
    step: int  # index into `PublicReplay.changes[seat]`: the changes after this decision start here


class _Arranged:
    """Stands in for the generator while the replay deals: `shuffle` lays the pack out as asked
    (the deal's placeholders, the turned-up card where it was turned up)."""

    def __init__(self, order: list[int], rng: GameRng) -> None:
        self.order = order
        self.rng = rng

    def shuffle(self, pack: list[int]) -> None:
        pack[:] = self.order

    def randrange(self, n: int) -> int:
        return self.rng.randrange(n)


def _same(a: Any, b: Any) -> bool:
    return bool(a.kind == b.kind and (a.kind == "turn_up" or a == b))


class PublicReplay:
    """The deal's public events replayed through the engine (see the module doc). `snapshots`:
    every other seat's decision met, in order; `changes[seat]`: that seat's hand changes in order,
    ("lose", cards) or ("gain", k); `complete`: whether the replay reached the view's present."""

    def __init__(self, game: WhotGame, view: Mapping[str, Any]) -> None:
        self.me: int = view["viewer"]
        n = game.players
        self.snapshots: list[Snapshot] = []
        self.changes: list[list[tuple[str, Any]]] = [[] for _ in range(n)]
        self.complete = False
        events = view_events(view)  # typed, whether the view came from `view()` or as JSON
        if not events or events[0].kind != "deal":
            return  # a position, not a deal: its first hands are unknown to everyone
        st = self._deal(game, events)
        if st is None:
            return
        self.state = st
        while len(st.events) < len(events) and not st.is_over:
            at = len(st.events)
            ev = events[at]
            p = st.current
            if p is None:
                return
            if ev.kind == "play" and ev.player == p:
                move: WhotMove = ev.move
                if not self._take(st, p, move.card):
                    return
            elif ev.kind == "draw" and ev.player == p:
                move = DRAW
            else:
                # a move the events do not show (ending a turn of several cards), or lost
                legal = st.legal_moves()
                ends = [m for m in (END, PASS) if m in legal]
                if not ends:
                    return
                move = ends[0]
            if p != self.me and move is not END and move is not PASS:
                self.snapshots.append(Snapshot(st.copy(), p, move, len(self.changes[p])))
            before = [len(h) for h in st.hands]
            try:
                st.apply(move)
            except Exception:  # an illegal move here means the replay lost the thread
                return
            new = st.events[at:]
            if len(st.events) > len(events) or not all(
                _same(a, b) for a, b in zip(new, events[at : len(st.events)], strict=True)
            ):
                return
            for q in range(n):
                if q == self.me:
                    continue
                played = [e.move.card for e in new if e.kind == "play" and e.player == q]
                gained = len(st.hands[q]) - before[q] + len(played)
                if played:
                    self.changes[q].append(("lose", played))
                if gained > 0:
                    self.changes[q].append(("gain", gained))
        counts = view["hand_counts"]
        self.complete = len(st.events) == len(events) and all(
            len(st.hands[q]) == counts[q] for q in range(n) if q != self.me
        )

    def _deal(self, game: WhotGame, events: Sequence[Any]) -> WhotState | None:
        rules = game.rules
        n = game.players
        dealer = events[0].dealer
        top = parse_card(events[1].card) if len(events) > 1 and events[1].kind == "turn_up" else -1
        cards = list(PACK) * rules.packs
        if top >= 0:
            cards.remove(top)
        cut = rules.deal * n
        seq = cards[:cut] + ([top] if top >= 0 else []) + cards[cut:]
        st = game.state_class.__new__(game.state_class)
        st._init_empty(game, 0, {})
        real = GameRng(0)
        st.rng = _Arranged(seq[::-1], real)  # type: ignore[assignment]
        st._deal(dealer)
        st.rng = real
        return st if all(_same(a, b) for a, b in zip(st.events, events, strict=False)) else None

    @staticmethod
    def _take(st: WhotState, p: int, card: int) -> bool:
        """Put `card` in `p`'s hand before it is played, swapped with a placeholder of the hand
        (from the pack, or another hand's placeholders): no public fact changes."""
        hand = st.hands[p]
        if card in hand:
            return True
        known = st.known[p]
        slot = next((i for i, c in enumerate(hand) if c not in known), None)
        if slot is None:
            return False
        places = [(st.pack, ())] + [(h, st.known[q]) for q, h in enumerate(st.hands) if q != p]
        for place, seen in places:
            if card in place and card not in seen:
                j = place.index(card)
                place[j], hand[slot] = hand[slot], card
                return True
        return False


def hands_back(
    replay: PublicReplay, hand: list[int], seat: int, rng: random.Random
) -> dict[int, list[int]]:
    """The hands `seat` held at each of its snapshots, walked back from its hand now: by the
    snapshot's index in `replay.snapshots`."""
    at: dict[int, list[int]] = {}
    mine = [i for i, s in enumerate(replay.snapshots) if s.seat == seat]
    changes = replay.changes[seat]
    h = list(hand)
    k = len(changes)
    for i in reversed(mine):
        step = replay.snapshots[i].step
        while k > step:
            k -= 1
            what, x = changes[k]
            if what == "lose":
                h.extend(x)
            else:
                for _ in range(min(x, len(h))):
                    h.pop(rng.randrange(len(h)))
        at[i] = h[:]
    return at


def _playable(snap: Snapshot) -> frozenset[int]:
    """The cards the seat could have played at the snapshot (any hand's)."""
    s = snap.state.copy()
    s.hands[snap.seat] = sorted(set(PACK))
    s._legal = None
    return frozenset(
        m.card for m in s.legal_moves() if isinstance(m, WhotMove) and m.kind == "play"
    )


class DrawsModel:
    """`infer=draws`: a seat that drew held nothing it could have played, but with probability
    `noise` (see the module doc).

    Which of a hand's cards came from later draws is unknown, so a draw is judged by what any
    choice of them allows: the cards the seat could have played then that have since passed
    through its hand (held now, or played since) must all have been drawn since — no more of them
    than the cards it has drawn since. A hand that breaks this for a draw is weighed by `noise`
    for it. (A walk back that guessed the later draws at random weighed the true hand down about
    as often as a uniform one: benchmarks/inference.py --diagnose, docs/lab/inference.md.)"""

    def __init__(self, game: Game[Any, Any], temp: float, noise: float, depth: int) -> None:
        assert isinstance(game, WhotGame)
        self.game = game
        self.noise = noise

    def weigher(self, view: Mapping[str, Any], rng: random.Random) -> LogWeigh | None:
        replay = PublicReplay(self.game, view)
        if not replay.complete:
            return None
        # Per draw: its seat, the cards it could have played (a row of a 0/1 matrix by card), and
        # its slack: the cards drawn since (its own included) less those of them played since.
        seats: list[int] = []
        rows: list[list[int]] = []
        slack: list[int] = []
        for s in replay.snapshots:
            if s.move.kind != "draw":
                continue
            playable = _playable(s)
            played = drawn = 0
            for what, x in replay.changes[s.seat][s.step :]:
                if what == "lose":
                    played += sum(c in playable for c in x)
                else:
                    drawn += x
            seats.append(s.seat)
            rows.append([int(c in playable) for c in range(_SLOTS)])
            slack.append(drawn - played)
        if not seats:
            return None
        miss = math.log(self.noise)
        by_seat = {
            q: (
                np.array([r for r, t in zip(rows, seats, strict=True) if t == q], np.int32).T,
                np.array([x for x, t in zip(slack, seats, strict=True) if t == q], np.int32),
            )
            for q in set(seats)
        }

        def weigh(states: Sequence[State]) -> list[float]:
            misses = np.zeros(len(states), np.int32)
            for q, (playable, room) in by_seat.items():
                held = np.zeros((len(states), _SLOTS), np.int32)
                for j, d in enumerate(states):
                    assert isinstance(d, WhotState)
                    for c in d.hands[q]:
                        held[j, c] += 1
                # the playable cards each hand holds, per draw, against the draw's slack
                misses += ((held @ playable) > room).sum(axis=1, dtype=np.int32)
            return [float(m) * miss for m in misses]

        return weigh


class PolicyModel:
    """`infer=policy`: the learned bot's softmax policy over its Q values (see the module doc)."""

    def __init__(self, game: Game[Any, Any], temp: float, noise: float, depth: int) -> None:
        from .learned.bot import LearnedBot  # NumPy and the network only where asked for

        assert isinstance(game, WhotGame)
        self.game = game
        self.bot = LearnedBot(game, random.Random(0))  # refused where no network was trained
        self.temp = temp
        self.noise = noise
        self.depth = depth

    def weigher(self, view: Mapping[str, Any], rng: random.Random) -> LogWeigh | None:
        replay = PublicReplay(self.game, view)
        if not replay.complete or not replay.snapshots:
            return None
        seats = sorted({s.seat for s in replay.snapshots})
        read: list[int] = []
        for q in seats:
            read += [i for i, s in enumerate(replay.snapshots) if s.seat == q][-self.depth :]
        read.sort()
        bot = self.bot
        temp, noise = self.temp, self.noise

        def weigh(states: Sequence[State]) -> list[float]:
            views: list[Mapping[str, Any]] = []
            legals: list[list[Any]] = []
            chosen: list[int] = []
            owner: list[int] = []
            for j, d in enumerate(states):
                assert isinstance(d, WhotState)
                held = {q: hands_back(replay, d.hands[q], q, rng) for q in seats}
                for i in read:
                    snap = replay.snapshots[i]
                    s = snap.state.copy()
                    s.hands[snap.seat] = held[snap.seat][i]
                    s._legal = None
                    legal = s.legal_moves()
                    if snap.move not in legal:
                        continue  # cannot happen: the hand walked back holds the card played
                    views.append(s.view(snap.seat))
                    legals.append(legal)
                    chosen.append(legal.index(snap.move))
                    owner.append(j)
            out = [0.0] * len(states)
            if not views:
                return out
            for q, legal, c, j in zip(
                bot.q_rows(views, legals), legals, chosen, owner, strict=True
            ):
                z = q / temp
                z = z - z.max()
                e = [math.exp(float(x)) for x in z]
                p = (1 - noise) * e[c] / sum(e) + noise / len(legal)
                out[j] += math.log(p)
            return out

        return weigh


INFERENCE = {"draws": DrawsModel, "policy": PolicyModel}


def policy_prior(
    game: Game[Any, Any], temp: float
) -> Callable[[Mapping[str, Any], list[Any]], list[float]]:
    """`prior=policy`: the learned bot's softmax policy (temperature `temp`) over the searcher's
    legal moves, from its view, for the root's selection (refused where no network was trained)."""
    from .learned.bot import LearnedBot

    bot = LearnedBot(game, random.Random(0))

    def prior(view: Mapping[str, Any], legal: list[Any]) -> list[float]:
        q = bot.q_values(view, legal) / temp
        e = [math.exp(float(x - q.max())) for x in q]
        total = sum(e)
        return [x / total for x in e]

    return prior


PRIORS = {"policy": policy_prior}
