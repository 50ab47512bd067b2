"""Who's Who, Game No. 1: tricks with a Preference suit (seed 004).

One state is the whole game: every deal of it, the deal passing to the left, until "the full number
of deals have been played". Each deal: five cards to each player one at a time from the dealer's
left (the rest laid aside, unseen), the player left of the dealer names the Preference suit after
looking at the hand, then five tricks led first by the player left of the dealer; one point per
trick.

Starting from a chosen position (tests, puzzles, teaching) is `from_position` (docs/whoswho.md,
"Positions"): every hand, the stock, the phase, the trick so far, the finished tricks of the deal,
the points and the log of earlier deals. Later deals are dealt from the seed as usual. The setup of
earlier versions (`dealer`, `hands`, `preference`, `scores`) is still read, so old records replay.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from copy import deepcopy
from typing import Any

from parlour.core import Game, Move, Result, RulesError, SetupError, State, refuse, to_wire
from parlour.core.formats import MatchFormat
from parlour.core.options import rules_to_dict
from parlour.core.rng import GameRng, fresh_seed

from . import positions as read
from .deck import (
    CARD_TEXT,
    DECK,
    SUITS,
    Card,
    constrained_deal,
    constrained_dealer,
    parse_card,
    sort_cards,
)
from .events import DealOver, Dealt, GameOver, Played, Preferred, TrickWon, typed_events
from .notation import Play, Prefer, parse_tricks_move
from .rules import TricksRules, deals_each

__all__ = ["TricksGame", "TricksState", "trick_winner", "winning_play"]

_PREFER_MOVES = {s: Prefer(s) for s in SUITS}
_PLAY_MOVES = {c: Play(c) for c in DECK}
# The events of the hot path, built once: `_PLAYED[card][player]`, `_TAKEN[card][player]`, ...
_SEATS = range(7)
_PLAYED = {c: tuple(Played(p, str(c)) for p in _SEATS) for c in DECK}
_TAKEN = {c: tuple(TrickWon(p, str(c)) for p in _SEATS) for c in DECK}
_PREFERRED = {s: tuple(Preferred(p, s) for p in _SEATS) for s in SUITS}

#: The keys of a Game No. 1 position (docs/whoswho.md, "Positions").
POSITION_KEYS = (
    "phase",
    "dealer",
    "deals_done",
    "namer",
    "preference",
    "leader",
    "trick",
    "tricks",
    "hands",
    "stock",
    "won",
    "scores",
    "deal_log",
)
#: What earlier versions took as `new_game` setup (still read, so their records replay).
_OLD_SETUP = ("dealer", "hands", "preference", "scores")


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


def _whole(value: Any) -> bool:
    """A whole number given as one (not True or False, which Python counts as 1 and 0)."""
    return isinstance(value, int) and not isinstance(value, bool)


class TricksGame(Game[TricksRules, "TricksState"]):
    name = "whoswho-tricks"
    rules: TricksRules

    def __init__(self, players: int, rules: TricksRules, preset: str | None = None) -> None:
        super().__init__(players, rules, preset)
        if not 2 <= players <= 7:
            raise RulesError(f"Who's Who is for two to seven players, not {players}")
        self.partnerships = rules.partnerships and players in (4, 6)
        self.total_deals = players * deals_each(rules, players)
        #: Per seat, its partners (none without partnerships).
        self.partners = tuple(
            tuple(q for q in range(players) if q != p and self.team_of(q) == self.team_of(p))
            for p in range(players)
        )

    def team_of(self, player: int) -> int:
        """Partners sit opposite: with four, 0 & 2 and 1 & 3; with six, 0 & 3, 1 & 4, 2 & 5."""
        return player % (self.players // 2) if self.partnerships else player

    def teams(self) -> list[list[int]] | None:
        if not self.partnerships:
            return None
        half = self.players // 2
        return [[t, t + half] for t in range(half)]

    # --- starting -----------------------------------------------------------------------------
    def new_game(
        self, seed: int | None = None, position: Mapping[str, Any] | None = None, **setup: Any
    ) -> TricksState:
        """A new game: the first deal from the seed, `dealer` (default the last player, so player
        0 names and leads). `position` starts from a chosen position instead: `from_position`.

        Earlier versions set positions up with `hands` (card texts, equal lengths, at most
        `hand_size`: the first deal, the rest laid aside in an order drawn from the seed),
        `preference` (skip the naming) and `scores` (points already won); that setup is still
        read, so their records replay."""
        unknown = set(setup) - set(_OLD_SETUP)
        if unknown:
            raise SetupError(
                f"unknown setup {', '.join(sorted(unknown))}; "
                "Game No. 1 takes position (or dealer, hands, preference, scores)"
            )
        if position is not None:
            if set(setup) - {"dealer"}:
                raise SetupError("give hands, preference and scores inside the position")
            if "dealer" in setup and "dealer" not in position:
                position = {**position, "dealer": setup["dealer"]}
            return self.from_position(position, seed)
        seed = fresh_seed() if seed is None else seed
        n = self.players
        dealer = setup.get("dealer", n - 1)
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
            raise SetupError(f"dealer must be a player from 0 to {n - 1}, not {dealer!r}")
        st = TricksState(self, seed, dict(setup))
        st.dealer = dealer
        scores = setup.get("scores")
        if scores is not None:
            st.scores = read.counts(scores, "scores", n)
        hands = setup.get("hands")
        if hands is None:
            st._deal()
        else:
            st._deal_given(self._check_hands(hands))
        pref = setup.get("preference")
        if pref is not None:
            st._prefer(read.suit(pref, "preference"))
        return st

    def _check_hands(self, hands: Any) -> list[list[Card]]:
        n = self.players
        if not isinstance(hands, list) or len(hands) != n:
            raise SetupError(f"hands must be a list of {n} lists of cards")
        parsed = [read.card_list(h, f"hand {p}") for p, h in enumerate(hands)]
        sizes = {len(h) for h in parsed}
        if len(sizes) != 1 or not 1 <= sizes.pop() <= self.rules.hand_size:
            raise SetupError(
                f"hands must all hold the same number of cards, 1 to {self.rules.hand_size}"
            )
        flat = [c for h in parsed for c in h]
        if len(set(flat)) != len(flat):
            raise SetupError("hands: a card appears twice")
        return parsed

    def from_position(self, spec: Mapping[str, Any], seed: int | None = None) -> TricksState:
        """A game from a chosen position (docs/whoswho.md, "Positions"); only `hands` is needed:

            {"phase": "play",                      "prefer" (the namer to name), "play" or "over"
             "dealer": 3, "deals_done": 0,         deals finished before this one
             "namer": 0,                           the dealer's left (may be left out)
             "preference": "society",              null while it is to be named
             "leader": 0,                          who led the trick on the table
             "trick": [[0, "3 money"]],            the cards played to it, in order
             "tricks": [{"leader": 0, "cards": [[0, "3 money"], ...], "winner": 1}],
                                                   this deal's finished tricks
             "hands": [["9 money", ...], ...],     every player's cards
             "stock": ["7 sport", ...],            the cards laid aside (left out: the rest of
                                                   the pack, in an order drawn from `seed`)
             "won": [0, 1, 0, 0],                  tricks won this deal
             "scores": [2, 3, 1, 2],               points, this deal's included
             "deal_log": [{"dealer": 2, "namer": 3, "preference": "money",
                           "won": [2, 1, 1, 1]}]}  the earlier deals

        `State.position()` gives every key, and `from_position(s.position())` shows the same views
        (but the events) and legal moves as `s`. A bad position raises `SetupError`.
        """
        pos = read.spec_mapping(spec, "Who's Who Game No. 1")
        seed = fresh_seed() if seed is None else seed
        st = TricksState(self, seed, {"position": deepcopy(dict(pos))})
        st._set_position(pos)
        return st

    def parse_move(self, text: str) -> Move:
        return parse_tricks_move(text)

    def match_format(self, name: str | None = None) -> MatchFormat:
        return MatchFormat.parse(name or "single", lower_wins=False)

    # --- loading and sampling -----------------------------------------------------------------
    def state_from_dict(self, data: dict[str, Any]) -> TricksState:
        st = TricksState(self, int(data["seed"]), dict(data.get("setup") or {}))
        st.rng = GameRng.from_jsonable(data["rng"])
        st.history = [self.parse_move(t) for t in data["history"]]
        if any(isinstance(e, str) for e in data["events"]):
            # saved before events were typed: the record in the save replays the same game
            return _replayed(st)
        st._load_public(data)
        st.hands = [[parse_card(t) for t in h] for h in data["hands"]]
        st.stock = [parse_card(t) for t in data["stock"]]
        return st

    def sample_state(self, view: dict[str, Any], rng: GameRng) -> TricksState:
        return self._sampler(view)(rng)

    def sampler(self, view: dict[str, Any]) -> Callable[[GameRng], TricksState]:
        return self._sampler(view)

    def _sampler(self, view: dict[str, Any]) -> Callable[[GameRng], TricksState]:
        """Determinizations of `view` (`sample_state`): the other hands and the cards laid aside
        redealt from the cards the viewer has not seen, keeping every void shown this deal. The
        view is read once; each draw copies the public part and deals."""
        if view.get("game") != self.name or view.get("players") != self.players:
            raise ValueError("the view is not of this game")
        public = TricksState(self, 0, {})
        public._load_public(view)
        viewer = view.get("viewer")
        own = sort_cards(parse_card(t) for t in view["hand"]) if viewer is not None else []
        played = {c for _, c in public.trick} | {
            parse_card(t) for tr in view["tricks"] for _, t in tr["cards"]
        }
        unseen = [c for c in DECK if c not in played and c not in own]
        others = [p for p in range(self.players) if p != viewer]
        sizes = [view["hand_counts"][p] for p in others]
        sizes.append(len(unseen) - sum(sizes))
        if sizes[-1] != view["stock_count"]:
            raise ValueError("the view's counts do not add up to the pack")
        voids = public.voids()
        stock_pile = len(others)
        allowed = [
            [i for i, p in enumerate(others) if c.suit not in voids[p]] + [stock_pile]
            for c in unseen
        ]
        deal = constrained_dealer(unseen, sizes, allowed)
        n = self.players

        def sample(rng: GameRng) -> TricksState:
            seed = rng.getrandbits(63)
            st = public.copy()
            st.seed = seed
            st.rng = GameRng(seed)
            piles = deal(rng)
            hands: list[list[Card]] = [[] for _ in range(n)]
            if viewer is not None:
                hands[viewer] = list(own)
            for i, p in enumerate(others):
                hands[p] = sort_cards(piles[i])
            st.hands = hands
            st.stock = piles[stock_pile]
            return st

        return sample


def _replayed(saved: TricksState) -> TricksState:
    """The game a save's seed, setup and moves make (for saves older than typed events)."""
    state = saved.game.new_game(saved.seed, **saved.setup)
    for move in saved.history:
        state.apply(move)
    return state


class TricksState(State):
    game: TricksGame

    #: Set by a search's playout for its last move only (`hint._tricks_rollout`): a deal that
    #: ends with it is scored, but the next is not dealt — the state is then for the search's
    #: evaluation (points and deals done) and no more play. A search stops its playouts at the
    #: end of the deal, and the shuffle and deal of the next was a tenth of its time.
    hold_deal = False

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
        # What the search's model read off `tricks` (`hint.hint_policy`), kept until they change
        # (set to None wherever `tricks` is): it reads them at every move. Never changed in place.
        self.tricks_read: Any = None
        self.won = [0] * n  # tricks won this deal
        self.scores = [0] * n  # points over the whole game
        self.deal_log: list[dict[str, Any]] = []
        self.events: list[Any] = []  # typed events (.events)

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
        g = self.game
        n = g.players
        self.hands = [sort_cards(h) for h in hands]
        self.stock = stock
        self.phase = "prefer"
        self.preference = None
        # Seed 004: "The player on the left of the dealer (the non-dealer when two play) now has the
        # right to name one of the suits as his preference".
        self.namer = self.leader = self.turn = (self.dealer + 1) % n
        self.trick = []
        self.tricks = []
        self.tricks_read = None
        self.won = [0] * n
        self.events.append(Dealt(self.dealer, self.deal_no + 1, g.total_deals, len(hands[0])))

    def _prefer(self, suit: str) -> None:
        self.preference = suit
        self.phase = "play"
        self.events.append(_PREFERRED[suit][self.namer])
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

    def why_illegal(self, move: Move) -> str | None:
        """The rule that refuses `move` now, in words: "the Preference suit is named first",
        "you must follow suit: you hold society", "you hold no 7 money", ..."""
        if self.phase == "over":
            return None
        if isinstance(move, Prefer):
            # Seed 004: "The player on the left of the dealer ... now has the right to name one of
            # the suits as his preference, and that suit until the next deal, outranks any of
            # the others."
            return f"{self.preference} is already the Preference suit until the next deal"
        if not isinstance(move, Play):
            return None
        if self.phase == "prefer":
            return "first name the Preference suit: prefer money, society, brains or sport"
        card = move.card
        if card not in self.hands[self.turn]:
            return f"you hold no {card}"
        if self.trick and self.game.rules.must_follow:
            led = self.trick[0][1].suit
            if card.suit != led:
                # Seed 004: "All players after the first must play cards of the same suit as the
                # card first played, if they have any".
                return f"you must follow suit: you hold {led}"
        return None

    def _apply(self, move: Move) -> None:
        # The move's class compared, not isinstance: Move is an ABC, whose isinstance is a call.
        if type(move) is Prefer:
            self._prefer(move.suit)
            return
        assert type(move) is Play
        p, card = self.turn, move.card
        self.hands[p].remove(card)
        trick = self.trick
        trick.append((p, card))
        self.events.append(_PLAYED[card][p])
        n = self.game.players
        if len(trick) < n:
            self.turn = (p + 1) % n
            return
        w, top = winning_play(trick, self.preference)
        self.won[w] += 1
        self.scores[w] += 1
        self.tricks.append(
            {"leader": self.leader, "cards": [[q, CARD_TEXT[c]] for q, c in trick], "winner": w}
        )
        self.tricks_read = None
        self.events.append(_TAKEN[top][w])
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
        self.events.append(DealOver(self.deal_no + 1, tuple(self.won)))
        self.deal_no += 1
        if self.deal_no >= self.game.total_deals:
            self.phase = "over"
            res = self.result()
            self.events.append(GameOver(res.winners, res.points, "point"))
            return
        # Seed 004: "five dealt again to each player; this time by the player to the left of the
        # previous dealer."
        self.dealer = (self.dealer + 1) % n
        if self.hold_deal:
            return
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
        for plays in self._rounds():
            led = plays[0][1].suit
            for q, c in plays[1:]:
                if c.suit != led:
                    v[q].add(led)
        return v

    def _rounds(self) -> list[list[tuple[int, Card]]]:
        """This deal's tricks, the one on the table last: (player, card) in the order played."""
        rounds = [[(q, parse_card(t)) for q, t in tr["cards"]] for tr in self.tricks]
        if self.trick:
            rounds.append(self.trick)
        return rounds

    # --- views, positions, saves --------------------------------------------------------------
    def _public(self) -> dict[str, Any]:
        """What everyone sees, in the keys that views, positions and saves share."""
        return {
            "dealer": self.dealer,
            "namer": self.namer,
            "preference": self.preference,
            "leader": self.leader,
            "trick": [[q, str(c)] for q, c in self.trick],
            "tricks": [dict(t, cards=[list(x) for x in t["cards"]]) for t in self.tricks],
            "won": list(self.won),
            "scores": list(self.scores),
            "deal_log": [dict(d, won=list(d["won"])) for d in self.deal_log],
        }

    def view(self, player: int | None) -> dict[str, Any]:
        g = self.game
        v = self._envelope(player, [len(h) for h in self.hands])
        v["events"] = self.events[:]
        v["phase"] = self.phase
        v["deal"] = min(self.deal_no + 1, g.total_deals)
        v["deals"] = g.total_deals
        v["deals_done"] = self.deal_no
        v.update(self._public())
        v["teams"] = g.teams()
        v["team_scores"] = self.team_scores() if g.partnerships else None
        v["stock_count"] = len(self.stock)
        if player is not None:
            v["hand"] = [str(c) for c in self.hands[player]]
        if self.phase == "over":
            v["result"] = self.result().to_dict()
        return v

    def position(self) -> dict[str, Any]:
        """Everything `from_position` needs to set this situation up again (hidden cards too)."""
        pos = {"phase": self.phase, "deals_done": self.deal_no, **self._public()}
        pos["hands"] = [[str(c) for c in h] for h in self.hands]
        pos["stock"] = [str(c) for c in self.stock]
        return {k: pos[k] for k in POSITION_KEYS}

    def _set_position(self, pos: Mapping[str, Any]) -> None:
        """Read `pos` part by part (each reader names what is wrong with its part), checking the
        rules that tie the parts together in tables as soon as the parts they need are read."""
        g = self.game
        n, k, total = g.players, g.rules.hand_size, g.total_deals
        read.check_keys(pos, POSITION_KEYS)
        raw: Any = pos.get("hands")
        given = len(raw) if isinstance(raw, list | tuple) else "no"
        refuse(
            ("hands" not in pos, "position: 'hands' is needed, one list of cards per player"),
            (given != n, f"position gives {given} hands for {n} players"),
        )
        hands = [read.card_list(h, f"hand {p}") for p, h in enumerate(raw)]
        dealer = read.seat(pos.get("dealer", n - 1), "dealer", n)
        namer = (dealer + 1) % n
        named = read.seat(pos["namer"], "namer", n) if "namer" in pos else namer
        refuse(
            (
                named != namer,
                f"position: the namer is the player on the dealer's left, {namer}, "
                f"not {pos.get('namer')}",
            )
        )
        deal_log = self._read_deal_log(pos.get("deal_log", []))
        deals_done = pos.get("deals_done", len(deal_log))
        refuse(
            (
                not _whole(deals_done) or not len(deal_log) <= deals_done <= total,
                f"position: deals_done must be a number from {len(deal_log)} (the deals in "
                f"deal_log) to {total} (the deals of the game), not {deals_done!r}",
            )
        )
        preference = pos.get("preference")
        if preference is not None:
            preference = read.suit(preference, "preference")
        phase = pos.get("phase", "prefer" if preference is None else "play")
        refuse(
            (
                phase not in ("prefer", "play", "over"),
                f"position: phase is 'prefer', 'play' or 'over', not {phase!r}",
            ),
            (
                (phase == "over") != (deals_done == total),
                f"position: the game is over when all {total} deals are done; "
                f"phase {phase!r} with {deals_done} done",
            ),
            (
                phase == "prefer" and preference is not None,
                "position: in phase 'prefer' the Preference suit is not named yet",
            ),
            (
                phase == "play" and preference is None,
                "position: phase 'play' needs the Preference suit ('preference')",
            ),
        )
        tricks = self._read_tricks(pos.get("tricks", []), namer, preference)
        raw_trick = pos.get("trick", [])
        refuse(
            (
                not isinstance(raw_trick, list | tuple),
                "position: trick is a list of [player, card] in the order played",
            )
        )
        trick = [self._read_play(x, f"trick card {i}") for i, x in enumerate(raw_trick)]
        last_winner = tricks[-1]["winner"] if tricks else None
        leader = read.seat(
            pos.get("leader", namer if last_winner is None else last_winner), "leader", n
        )
        refuse(
            (
                last_winner is not None and leader != last_winner,
                f"position: the winner of the last trick, {last_winner}, leads the next, "
                f"not {leader}",
            ),
            (
                phase != "play" and (trick or (tricks and phase == "prefer")),
                f"position: no card is played in phase {phase!r}",
            ),
            (
                phase == "prefer" and leader != namer,
                f"position: the namer, {namer}, leads the first trick",
            ),
            (len(trick) >= n, f"position: a trick on the table has fewer than {n} cards"),
            *(
                (
                    q != (leader + i) % n,
                    f"position: the trick is played in turn from its leader {leader}: "
                    f"card {i} is player {(leader + i) % n}'s, not player {q}'s",
                )
                for i, (q, _) in enumerate(trick)
            ),
        )
        # every card once: the hands, the table, the tricks and the cards laid aside
        used = [c for h in hands for c in h] + [c for _, c in trick]
        used += [parse_card(t) for tr in tricks for _, t in tr["cards"]]
        twice = sorted({str(c) for c in used if used.count(c) > 1})
        refuse((twice, f"position: cards appear twice: {', '.join(twice)}"))
        if "stock" in pos:
            stock = read.card_list(pos["stock"], "stock")
            every = used + stock
            missing = [str(c) for c in DECK if c not in every]
            extra = sorted({str(c) for c in stock if every.count(c) > 1})
            refuse(
                (
                    len(every) != len(DECK) or set(every) != set(DECK),
                    "position: the hands, the trick, the tricks and the stock hold the pack "
                    "once"
                    + (f"; missing {', '.join(missing)}" if missing else "")
                    + (f"; twice {', '.join(extra)}" if extra else ""),
                )
            )
        else:
            stock = [c for c in DECK if c not in set(used)]
            self.rng.shuffle(stock)
        # everyone was dealt alike and plays one card a trick
        in_trick = {q for q, _ in trick}
        dealt = [len(hands[p]) + len(tricks) + (p in in_trick) for p in range(n)]
        playing = phase != "over"
        refuse(
            (
                not playing and any(hands),
                "position: when the game is over the hands are empty",
            ),
            (
                playing and (len(set(dealt)) != 1 or not 1 <= dealt[0] <= k),
                f"position: every player was dealt the same number of cards, 1 to {k}: the "
                f"hands with the cards played this deal make {', '.join(map(str, dealt))}",
            ),
            (
                playing and not hands[(leader + len(trick)) % n],
                "position: the cards of this deal are all played",
            ),
        )
        counted = [sum(1 for tr in tricks if tr["winner"] == p) for p in range(n)]
        won = read.counts(pos.get("won", counted), "won", n)
        refuse(
            (
                phase == "prefer" and any(won),
                "position: no trick is won before the Preference suit is named",
            ),
            (
                tricks and won != counted,
                f"position: won must count the tricks won in 'tricks': {counted}, not {won}",
            ),
        )
        earlier = [sum(d["won"][p] for d in deal_log) for p in range(n)]
        scores = read.counts(
            pos.get("scores", [e + w for e, w in zip(earlier, won, strict=True)]), "scores", n
        )
        refuse(
            (
                any(s < w for s, w in zip(scores, won, strict=True)),
                "position: scores count this deal's tricks too (scores >= won)",
            )
        )
        self.dealer, self.namer, self.deal_no = dealer, namer, deals_done
        self.phase, self.preference, self.leader = phase, preference, leader
        self.turn = namer if phase == "prefer" else (leader + len(trick)) % n
        self.hands = [sort_cards(h) for h in hands]
        self.stock = stock
        self.trick, self.tricks, self.deal_log = trick, tricks, deal_log
        self.tricks_read = None
        self.won, self.scores = won, scores
        if g.rules.must_follow:
            self._check_follows()

    def _read_play(self, value: Any, what: str) -> tuple[int, Card]:
        if not isinstance(value, list | tuple) or len(value) != 2:
            raise SetupError(f"position: {what} is [player, card], not {value!r}")
        return read.seat(value[0], what, self.game.players), read.card(value[1], what)

    def _read_tricks(self, value: Any, namer: int, preference: str | None) -> list[dict[str, Any]]:
        n = self.game.players
        if not isinstance(value, list | tuple):
            raise SetupError("position: tricks is a list of this deal's finished tricks")
        out: list[dict[str, Any]] = []
        lead = namer
        for i, tr in enumerate(value):
            what = f"trick {i}"
            if not isinstance(tr, Mapping) or set(tr) != {"leader", "cards", "winner"}:
                raise SetupError(f"position: {what} is {{'leader', 'cards', 'winner'}}")
            leader = read.seat(tr["leader"], f"{what}'s leader", n)
            if leader != lead:
                raise SetupError(
                    f"position: {what} was led by {lead} (the namer first, then each trick's "
                    f"winner), not {leader}"
                )
            if not isinstance(tr["cards"], list | tuple) or len(tr["cards"]) != n:
                raise SetupError(f"position: {what} has one card from each of the {n} players")
            plays = [self._read_play(x, f"{what}, card {j}") for j, x in enumerate(tr["cards"])]
            for j, (q, _) in enumerate(plays):
                if q != (leader + j) % n:
                    raise SetupError(
                        f"position: {what} is played in turn from its leader {leader}: card "
                        f"{j} is player {(leader + j) % n}'s, not player {q}'s"
                    )
            winner = read.seat(tr["winner"], f"{what}'s winner", n)
            if winner != trick_winner(plays, preference):
                raise SetupError(
                    f"position: {what} is won by player {trick_winner(plays, preference)} "
                    f"under the Preference suit {preference}, not by {winner}"
                )
            out.append(
                {"leader": leader, "cards": [[q, str(c)] for q, c in plays], "winner": winner}
            )
            lead = winner
        return out

    def _read_deal_log(self, value: Any) -> list[dict[str, Any]]:
        n = self.game.players
        if not isinstance(value, list | tuple):
            raise SetupError("position: deal_log is a list of the earlier deals")
        out = []
        for i, d in enumerate(value):
            what = f"deal_log entry {i}"
            if not isinstance(d, Mapping) or set(d) != {"dealer", "namer", "preference", "won"}:
                raise SetupError(f"position: {what} is {{'dealer', 'namer', 'preference', 'won'}}")
            pref = d["preference"]
            out.append(
                {
                    "dealer": read.seat(d["dealer"], f"{what}'s dealer", n),
                    "namer": read.seat(d["namer"], f"{what}'s namer", n),
                    "preference": None if pref is None else read.suit(pref, f"{what}'s preference"),
                    "won": read.counts(d["won"], f"{what}'s won", n),
                }
            )
        return out

    def _check_follows(self) -> None:
        """Nobody has failed to follow a suit they held (or hold) this deal."""
        out: list[set[str]] = [set() for _ in range(self.game.players)]
        for plays in self._rounds():
            led = plays[0][1].suit
            for q, c in plays:
                if c.suit in out[q]:
                    raise SetupError(
                        f"position: player {q} did not follow {c.suit} earlier this deal, "
                        f"so cannot hold {c}"
                    )
                if c.suit != led:
                    out[q].add(led)
        for q, suits in enumerate(out):
            held = [c for c in self.hands[q] if c.suit in suits]
            if held:
                raise SetupError(
                    f"position: player {q} did not follow {held[0].suit} this deal, "
                    f"so cannot hold {held[0]}"
                )

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
        self.tricks_read = None
        self.won = list(d["won"])
        self.scores = list(d["scores"])
        self.deal_log = [dict(x, won=list(x["won"])) for x in d["deal_log"]]
        self.events = typed_events(d["events"])

    def to_dict(self) -> dict[str, Any]:
        g = self.game
        d = {
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
        }
        d.update(self._public())
        d["events"] = [to_wire(e) for e in self.events]
        d["hands"] = [[str(c) for c in h] for h in self.hands]
        d["stock"] = [str(c) for c in self.stock]
        return d

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
