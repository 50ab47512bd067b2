"""Who's Who, Game No. 1: tricks with a Preference suit (seed 004).

One state is the whole game: every deal of it, the deal passing to the left, until "the full number
of deals have been played". Each deal: five cards to each player one at a time from the dealer's
left (the rest laid aside, unseen), the player left of the dealer names the Preference suit after
looking at the hand, then five tricks led first by the player left of the dealer; one point per
trick.

Starting from a chosen position (tests, puzzles, teaching)::

    game.new_game(seed, dealer=1, hands=[["3 money", ...], ["15 sport", ...]],
                  preference="society", scores=[2, 1])

`hands` (card texts, equal lengths, at most `hand_size`) replace the first deal, and the cards left
over are laid aside in an order drawn from the seed; `preference` skips the naming; `scores` are the
points already won. Later deals are dealt from the seed as usual. All of it is kept in `setup`, so
the record replays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core import Game, IllegalMove, Move, Result, RulesError, State
from parlour.core.match import MatchFormat
from parlour.core.options import rules_to_dict
from parlour.core.rng import GameRng, fresh_seed

from .deck import DECK, SUITS, Card, constrained_deal, parse_card, sort_cards
from .notation import Play, Prefer, parse_tricks_move
from .rules import TricksRules, deals_each

__all__ = ["TricksGame", "TricksState", "trick_winner", "winning_play"]

_PREFER_MOVES = {s: Prefer(s) for s in SUITS}
_PLAY_MOVES = {c: Play(c) for c in DECK}


def winning_play(plays: Sequence[tuple[int, Card]], preference: str | None) -> tuple[int, Card]:
    """Seed 004: "The trick is won by the highest card of the Preference suit, if any of that suit
    has been played; if not, by the highest card of the suit first played." Returns the player
    and the card winning the trick so far."""
    best_p, best = plays[0]
    for p, c in plays[1:]:
        if c.suit == best.suit:
            if c.number > best.number:
                best_p, best = p, c
        elif c.suit == preference and best.suit != preference:
            best_p, best = p, c
        # a card of neither the suit led nor the Preference suit never wins
    return best_p, best


def trick_winner(plays: Sequence[tuple[int, Card]], preference: str | None) -> int:
    """The player winning the trick (so far): see `winning_play`."""
    return winning_play(plays, preference)[0]


class TricksGame(Game["TricksState"]):
    name = "whoswho-tricks"
    rules: TricksRules

    def __init__(self, players: int, rules: TricksRules, preset: str | None = None) -> None:
        super().__init__(players, rules, preset)
        if not 2 <= players <= 7:
            raise RulesError(f"Who's Who is for two to seven players, not {players}")
        self.partnerships = rules.partnerships and players in (4, 6)
        self.total_deals = players * deals_each(rules, players)

    def team_of(self, player: int) -> int:
        """Partners sit opposite: with four, 0 & 2 and 1 & 3; with six, 0 & 3, 1 & 4, 2 & 5."""
        return player % (self.players // 2) if self.partnerships else player

    def teams(self) -> list[list[int]] | None:
        if not self.partnerships:
            return None
        half = self.players // 2
        return [[t, t + half] for t in range(half)]

    # --- starting -----------------------------------------------------------------------------
    def new_game(self, seed: int | None = None, **setup: Any) -> TricksState:
        seed = fresh_seed() if seed is None else seed
        unknown = set(setup) - {"dealer", "hands", "preference", "scores"}
        if unknown:
            raise RulesError(
                f"unknown setup {', '.join(sorted(unknown))}; "
                "Game No. 1 takes dealer, hands, preference, scores"
            )
        n = self.players
        dealer = setup.get("dealer", n - 1)
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            raise RulesError(f"dealer must be a player from 0 to {n - 1}, not {dealer!r}")
        st = TricksState(self, seed, dict(setup))
        st.dealer = dealer
        scores = setup.get("scores")
        if scores is not None:
            if len(scores) != n or not all(isinstance(x, int) and x >= 0 for x in scores):
                raise RulesError(f"scores must be {n} whole numbers")
            st.scores = list(scores)
        hands = setup.get("hands")
        if hands is None:
            st._deal()
        else:
            st._deal_given(self._check_hands(hands))
        pref = setup.get("preference")
        if pref is not None:
            if pref not in SUITS:
                raise RulesError(f"preference must be one of {', '.join(SUITS)}, not {pref!r}")
            st._prefer(pref)
        return st

    def _check_hands(self, hands: Any) -> list[list[Card]]:
        n = self.players
        if not isinstance(hands, list) or len(hands) != n:
            raise RulesError(f"hands must be a list of {n} lists of cards")
        try:
            parsed = [[parse_card(t) for t in h] for h in hands]
        except (IllegalMove, AttributeError, TypeError) as exc:
            raise RulesError(f"hands: {exc}") from None
        sizes = {len(h) for h in parsed}
        if len(sizes) != 1 or not 1 <= sizes.pop() <= self.rules.hand_size:
            raise RulesError(
                f"hands must all hold the same number of cards, 1 to {self.rules.hand_size}"
            )
        flat = [c for h in parsed for c in h]
        if len(set(flat)) != len(flat):
            raise RulesError("hands: a card appears twice")
        return parsed

    def parse_move(self, text: str) -> Move:
        return parse_tricks_move(text)

    def match_format(self, name: str | None = None) -> MatchFormat:
        return MatchFormat.parse(name or "single", lower_wins=False)

    # --- loading and sampling -----------------------------------------------------------------
    def state_from_dict(self, data: dict[str, Any]) -> TricksState:
        st = TricksState(self, int(data["seed"]), dict(data.get("setup") or {}))
        st.rng = GameRng.from_jsonable(data["rng"])
        st.history = [self.parse_move(t) for t in data["history"]]
        st._load_public(data)
        st.hands = [[parse_card(t) for t in h] for h in data["hands"]]
        st.stock = [parse_card(t) for t in data["stock"]]
        return st

    def sample_state(self, view: dict[str, Any], rng: GameRng) -> TricksState:
        if view.get("game") != self.name or view.get("players") != self.players:
            raise ValueError("the view is not of this game")
        seed = rng.getrandbits(63)
        st = TricksState(self, seed, {})
        st.rng = GameRng(seed)
        st._load_public(view)
        viewer = view.get("viewer")
        own = [parse_card(t) for t in view["hand"]] if viewer is not None else []
        played = {c for _, c in st.trick} | {
            parse_card(t) for tr in view["tricks"] for _, t in tr["cards"]
        }
        unseen = [c for c in DECK if c not in played and c not in own]
        others = [p for p in range(self.players) if p != viewer]
        sizes = [view["hand_counts"][p] for p in others]
        sizes.append(len(unseen) - sum(sizes))
        if sizes[-1] != view["stock_count"]:
            raise ValueError("the view's counts do not add up to the pack")
        voids = st.voids()
        stock_pile = len(others)
        allowed = [
            [i for i, p in enumerate(others) if c.suit not in voids[p]] + [stock_pile]
            for c in unseen
        ]
        piles = constrained_deal(unseen, sizes, allowed, rng)
        st.hands = [[] for _ in range(self.players)]
        if viewer is not None:
            st.hands[viewer] = sort_cards(own)
        for i, p in enumerate(others):
            st.hands[p] = sort_cards(piles[i])
        st.stock = piles[stock_pile]
        return st


class TricksState(State):
    game: TricksGame

    def __init__(self, game: TricksGame, seed: int, setup: dict[str, Any]) -> None:
        n = game.players
        self.game = game
        self.seed = seed
        self.setup = setup
        self.history: list[Move] = []
        self._legal: list[Move] | None = None
        self.rng = GameRng(seed)
        self.dealer = n - 1
        self.deal_no = 0  # deals finished before this one
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.stock: list[Card] = []
        self.phase = "prefer"  # prefer | play | over
        self.preference: str | None = None
        self.namer = 0
        self.leader = 0
        self.turn = 0
        self.trick: list[tuple[int, Card]] = []
        self.tricks: list[dict[str, Any]] = []  # this deal's finished tricks (public)
        self.won = [0] * n  # tricks won this deal
        self.scores = [0] * n  # points over the whole game
        self.deal_log: list[dict[str, Any]] = []
        self.events: list[str] = []

    # --- dealing ------------------------------------------------------------------------------
    def _deal(self) -> None:
        """Seed 004: "Five cards are dealt, one at a time, face down, to each player, beginning on
        the dealer's left. The rest of the pack is temporarily laid aside"."""
        n, k = self.game.players, self.game.rules.hand_size
        pack = list(DECK)
        self.rng.shuffle(pack)
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(n * k):
            hands[(self.dealer + 1 + i) % n].append(pack[i])
        self._start_deal(hands, pack[n * k :])

    def _deal_given(self, hands: list[list[Card]]) -> None:
        used = {c for h in hands for c in h}
        rest = [c for c in DECK if c not in used]
        self.rng.shuffle(rest)
        self._start_deal(hands, rest)

    def _start_deal(self, hands: list[list[Card]], stock: list[Card]) -> None:
        n = self.game.players
        self.hands = [sort_cards(h) for h in hands]
        self.stock = stock
        self.phase = "prefer"
        self.preference = None
        # Seed 004: "The player on the left of the dealer (the non-dealer when two play) now has the
        # right to name one of the suits as his preference".
        self.namer = self.leader = self.turn = (self.dealer + 1) % n
        self.trick = []
        self.tricks = []
        self.won = [0] * n
        self.events.append(
            f"deal {self.deal_no + 1} of {self.game.total_deals}: seat {self.dealer + 1} deals"
        )

    def _prefer(self, suit: str) -> None:
        self.preference = suit
        self.phase = "play"
        self.events.append(f"seat {self.namer + 1} prefers {suit}")
        # Seed 004: "The players next, in turn, beginning with the one on the dealer's left hand,
        # play each a card to the table."
        self.turn = self.leader

    # --- the protocol -------------------------------------------------------------------------
    @property
    def to_play(self) -> int | None:
        return None if self.phase == "over" else self.turn

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def _legal_moves(self) -> list[Move]:
        if self.phase == "over":
            return []
        if self.phase == "prefer":
            return [_PREFER_MOVES[s] for s in SUITS]
        hand = self.hands[self.turn]
        if self.trick and self.game.rules.must_follow:
            led = self.trick[0][1].suit
            follow = [c for c in hand if c.suit == led]
            if follow:
                return [_PLAY_MOVES[c] for c in follow]
        return [_PLAY_MOVES[c] for c in hand]

    def _apply(self, move: Move) -> None:
        if isinstance(move, Prefer):
            self._prefer(move.suit)
            return
        assert isinstance(move, Play)
        p, card = self.turn, move.card
        self.hands[p].remove(card)
        self.trick.append((p, card))
        self.events.append(f"seat {p + 1} plays {card}")
        n = self.game.players
        if len(self.trick) < n:
            self.turn = (p + 1) % n
            return
        w = trick_winner(self.trick, self.preference)
        self.won[w] += 1
        self.scores[w] += 1
        self.tricks.append(
            {"leader": self.leader, "cards": [[q, str(c)] for q, c in self.trick], "winner": w}
        )
        self.events.append(f"seat {w + 1} wins the trick")
        self.trick = []
        # Seed 004: "He then leads a card for the next trick".
        self.leader = self.turn = w
        if not self.hands[w]:
            self._end_deal()

    def _end_deal(self) -> None:
        n = self.game.players
        self.deal_log.append(
            {
                "dealer": self.dealer,
                "namer": self.namer,
                "preference": self.preference,
                "won": list(self.won),
            }
        )
        summary = ", ".join(f"seat {p + 1} {self.won[p]}" for p in range(n) if self.won[p])
        self.events.append(f"deal {self.deal_no + 1} over: tricks {summary}")
        self.deal_no += 1
        if self.deal_no >= self.game.total_deals:
            self.phase = "over"
            res = self.result()
            who = " and ".join(f"seat {w + 1}" for w in res.winners)
            self.events.append(f"game over: {who} {'win' if len(res.winners) > 1 else 'wins'}")
            return
        # Seed 004: "five dealt again to each player; this time by the player to the left of the
        # previous dealer."
        self.dealer = (self.dealer + 1) % n
        self._deal()

    def team_scores(self) -> list[int]:
        g = self.game
        if not g.partnerships:
            return list(self.scores)
        out = [0] * (g.players // 2)
        for p, s in enumerate(self.scores):
            out[g.team_of(p)] += s
        return out

    def result(self) -> Result:
        if self.phase != "over":
            raise ValueError("the game is not over")
        g = self.game
        teams = self.team_scores()
        # Seed 004: "partners ... count their scores together".
        points = tuple(teams[g.team_of(p)] for p in range(g.players))
        best = max(points)
        winners = tuple(p for p in range(g.players) if points[p] == best)
        word = "partnership" if g.partnerships else "player"
        reason = f"the {word} with the most points ({best}) after {g.total_deals} deals wins"
        if len({g.team_of(w) for w in winners}) > 1:
            reason += "; the tie is shared"
        return Result.ranked(winners, points, lower_is_better=False, reason=reason)

    def voids(self) -> list[set[str]]:
        """Suits each player has shown to be out of this deal (failed to follow)."""
        v: list[set[str]] = [set() for _ in range(self.game.players)]
        if not self.game.rules.must_follow:
            return v
        rounds = [[(q, parse_card(t)) for q, t in tr["cards"]] for tr in self.tricks]
        if self.trick:
            rounds.append(self.trick)
        for plays in rounds:
            led = plays[0][1].suit
            for q, c in plays[1:]:
                if c.suit != led:
                    v[q].add(led)
        return v

    def view(self, player: int | None) -> dict[str, Any]:
        g = self.game
        v: dict[str, Any] = {
            "game": g.name,
            "players": g.players,
            "viewer": player,
            "to_play": self.to_play,
            "is_over": self.is_over,
            "phase": self.phase,
            "deal": min(self.deal_no + 1, g.total_deals),
            "deals": g.total_deals,
            "deals_done": self.deal_no,
            "dealer": self.dealer,
            "namer": self.namer,
            "preference": self.preference,
            "leader": self.leader,
            "trick": [[q, str(c)] for q, c in self.trick],
            "tricks": [dict(t, cards=[list(x) for x in t["cards"]]) for t in self.tricks],
            "won": list(self.won),
            "scores": list(self.scores),
            "teams": g.teams(),
            "team_scores": self.team_scores() if g.partnerships else None,
            "hand_counts": [len(h) for h in self.hands],
            "stock_count": len(self.stock),
            "deal_log": [dict(d, won=list(d["won"])) for d in self.deal_log],
            "events": list(self.events),
        }
        if player is not None:
            v["hand"] = [str(c) for c in self.hands[player]]
        if self.is_over:
            v["result"] = self.result().to_dict()
        return v

    def _load_public(self, d: dict[str, Any]) -> None:
        """The public part of a state, from `to_dict()` or a view (their keys agree)."""
        self.phase = d["phase"]
        self.deal_no = d["deals_done"]
        self.dealer = d["dealer"]
        self.namer = d["namer"]
        self.preference = d["preference"]
        self.leader = d["leader"]
        self.turn = self.leader if d["to_play"] is None else d["to_play"]
        self.trick = [(q, parse_card(t)) for q, t in d["trick"]]
        self.tricks = [dict(t, cards=[list(x) for x in t["cards"]]) for t in d["tricks"]]
        self.won = list(d["won"])
        self.scores = list(d["scores"])
        self.deal_log = [dict(x, won=list(x["won"])) for x in d["deal_log"]]
        self.events = list(d["events"])

    def to_dict(self) -> dict[str, Any]:
        g = self.game
        return {
            "game": g.name,
            "players": g.players,
            "rules": rules_to_dict(g.rules),
            "seed": self.seed,
            "setup": dict(self.setup),
            "history": [str(m) for m in self.history],
            "rng": self.rng.to_jsonable(),
            "phase": self.phase,
            "to_play": self.to_play,
            "deals_done": self.deal_no,
            "dealer": self.dealer,
            "namer": self.namer,
            "preference": self.preference,
            "leader": self.leader,
            "trick": [[q, str(c)] for q, c in self.trick],
            "tricks": [dict(t, cards=[list(x) for x in t["cards"]]) for t in self.tricks],
            "won": list(self.won),
            "scores": list(self.scores),
            "deal_log": [dict(d, won=list(d["won"])) for d in self.deal_log],
            "events": list(self.events),
            "hands": [[str(c) for c in h] for h in self.hands],
            "stock": [str(c) for c in self.stock],
        }

    def copy(self) -> TricksState:
        new = TricksState.__new__(TricksState)
        new.__dict__.update(self.__dict__)
        new.setup = dict(self.setup)
        new.history = list(self.history)
        new._legal = None if self._legal is None else list(self._legal)
        new.rng = self.rng.copy()
        new.hands = [list(h) for h in self.hands]
        new.stock = list(self.stock)
        new.trick = list(self.trick)
        new.tricks = list(self.tricks)  # finished tricks are never changed in place
        new.won = list(self.won)
        new.scores = list(self.scores)
        new.deal_log = list(self.deal_log)
        new.events = list(self.events)
        return new

    def permute_hidden(self, player: int, rng: GameRng) -> TricksState:
        """Redeal the other hands and the laid-aside cards, keeping every shown void."""
        new = self.copy()
        n = self.game.players
        others = [p for p in range(n) if p != player]
        unseen = [c for p in others for c in self.hands[p]] + list(self.stock)
        sizes = [len(self.hands[p]) for p in others] + [len(self.stock)]
        voids = self.voids()
        stock_pile = len(others)
        allowed = [
            [i for i, p in enumerate(others) if c.suit not in voids[p]] + [stock_pile]
            for c in unseen
        ]
        piles = constrained_deal(unseen, sizes, allowed, rng)
        for i, p in enumerate(others):
            new.hands[p] = sort_cards(piles[i])
        new.stock = piles[stock_pile]
        new.rng = GameRng(rng.getrandbits(63))
        new._legal = None
        return new

    def forced_move(self) -> Move:
        """Out of time: name the suit held most of; otherwise play the lowest card allowed,
        keeping Preference cards when possible."""
        legal = self.legal_moves()
        if self.phase == "prefer":
            hand = self.hands[self.turn]
            return max(
                legal,
                key=lambda m: (
                    sum(1 for c in hand if isinstance(m, Prefer) and c.suit == m.suit),
                    sum(c.number for c in hand if isinstance(m, Prefer) and c.suit == m.suit),
                ),
            )
        pref = self.preference
        return min(
            legal,
            key=lambda m: (
                (m.card.suit == pref, m.card.number) if isinstance(m, Play) else (True, 99)
            ),
        )
