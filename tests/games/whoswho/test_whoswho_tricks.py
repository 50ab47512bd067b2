"""Who's Who, Game No. 1: each test quotes the sentence of seed 004 it checks."""

from __future__ import annotations

import json
import random

import pytest

import parlour
from parlour.bots import make_bot
from parlour.core import IllegalMove, NotAMove, NotLegalNow, RulesError, SetupError
from parlour.core.rng import GameRng
from parlour.games.whoswho.deck import DECK, Card, parse_card
from parlour.games.whoswho.notation import Play, Prefer
from parlour.games.whoswho.tricks import TricksGame, TricksState, trick_winner


def make(players: int = 4, **options: object) -> TricksGame:
    game = parlour.make("whoswho-tricks", players=players, **options)
    assert isinstance(game, TricksGame)
    return game


# A four-player position: player 0 leads (dealer 3), Society preferred.
HANDS = [
    ["3 money", "9 money", "4 society", "12 brains", "5 sport"],
    ["10 money", "15 money", "6 society", "13 brains", "6 sport"],
    ["4 money", "3 society", "14 brains", "7 sport", "8 sport"],
    ["5 money", "6 money", "7 brains", "9 sport", "15 sport"],
]


def spec(**changes: object) -> dict[str, object]:
    """The position above as JSON (docs/whoswho.md, "Positions"), with `changes`."""
    return {"dealer": 3, "hands": HANDS, "preference": "society", **changes}


def position(**changes: object) -> TricksState:
    return make(4).from_position(spec(**changes), seed=1)


def play_out(state: TricksState, seed: int = 0) -> TricksState:
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
    return state


# --- dealing --------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 7])
def test_five_dealt_one_at_a_time_from_the_dealers_left(players: int) -> None:
    # seed 004: "Five cards are dealt, one at a time, face down, to each player, beginning on the
    # dealer's left. The rest of the pack is temporarily laid aside"
    game = make(players)
    dealer = 1 % players
    st = game.new_game(seed=42, dealer=dealer)
    pack = list(DECK)
    GameRng(42).shuffle(pack)
    expected: list[list[Card]] = [[] for _ in range(players)]
    for i in range(5 * players):
        expected[(dealer + 1 + i) % players].append(pack[i])
    for p in range(players):
        assert sorted(st.hands[p]) == sorted(expected[p])
    assert sorted(st.stock) == sorted(pack[5 * players :])
    assert st.view(0)["stock_count"] == 52 - 5 * players


def test_default_dealer_makes_player_0_lead() -> None:
    st = make(4).new_game(seed=3)
    assert st.dealer == 3 and st.to_play == 0


# --- the Preference suit ---------------------------------------------------------------------
def test_left_of_dealer_names_the_preference_after_seeing_the_hand() -> None:
    # seed 004: "The player on the left of the dealer (the non-dealer when two play) now has the
    # right to name one of the suits as his preference"
    st = make(5).new_game(seed=9, dealer=2)
    assert st.to_play == 3
    assert "hand" in st.view(3) and len(st.view(3)["hand"]) == 5
    assert [str(m) for m in st.legal_moves()] == [
        "prefer money",
        "prefer society",
        "prefer brains",
        "prefer sport",
    ]


def test_non_dealer_names_when_two_play() -> None:
    # seed 004: "(the non-dealer when two play)"
    st = make(2).new_game(seed=9, dealer=0)
    assert st.to_play == 1


def test_preference_outranks_every_other_suit() -> None:
    # seed 004: "even the lowest card of that suit will win against the highest of any other."
    plays = [(0, Card(15, "money")), (1, Card(3, "society")), (2, Card(14, "money"))]
    assert trick_winner(plays, "society") == 1


def test_highest_of_suit_led_when_no_preference_played() -> None:
    # seed 004: "The trick is won by the highest card of the Preference suit, if any of that suit
    # has been played; if not, by the highest card of the suit first played."
    plays = [(0, Card(5, "money")), (1, Card(15, "sport")), (2, Card(9, "money"))]
    assert trick_winner(plays, "brains") == 2


def test_highest_preference_wins_among_several() -> None:
    plays = [(0, Card(5, "money")), (1, Card(4, "brains")), (2, Card(11, "brains"))]
    assert trick_winner(plays, "brains") == 2


# --- the play --------------------------------------------------------------------------------
def test_leader_is_the_dealers_left() -> None:
    # seed 004: "The players next, in turn, beginning with the one on the dealer's left hand, play
    # each a card to the table."
    st = position()
    assert st.to_play == 0
    assert {str(m) for m in st.legal_moves()} == {f"play {c}" for c in HANDS[0]}


def test_must_follow_suit_if_able() -> None:
    # seed 004: "All players after the first must play cards of the same suit as the card first
    # played, if they have any; if they have none, they play some other suit."
    st = position()
    st.apply("play 3 money")
    assert st.to_play == 1
    assert {str(m) for m in st.legal_moves()} == {"play 10 money", "play 15 money"}
    with pytest.raises(IllegalMove):
        st.apply("play 6 society")
    st.apply("play 15 money")
    st.apply("play 4 money")
    st.apply("play 5 money")
    # player 1 won with the 15 and leads brains; player 2 has one brains card
    st.apply("play 13 brains")
    assert [str(m) for m in st.legal_moves()] == ["play 14 brains"]


def test_void_player_plays_any_suit() -> None:
    st = position()
    st.apply("play 12 brains")
    st.apply("play 13 brains")
    st.apply("play 14 brains")
    st.apply("play 7 brains")
    assert st.scores == [0, 0, 1, 0]
    # player 2 leads; a sport lead finds player 1 with one sport
    st.apply("play 8 sport")
    st.apply("play 9 sport")
    st.apply("play 5 sport")
    assert [str(m) for m in st.legal_moves()] == ["play 6 sport"]


def test_must_follow_can_be_turned_off() -> None:
    st = make(4, must_follow=False).from_position(spec(), seed=1)
    st.apply("play 3 money")
    assert len(st.legal_moves()) == 5


def test_winner_takes_the_trick_and_leads() -> None:
    # seed 004: "The winner of the trick takes the cards he has won ... He then leads a card for the
    # next trick, and is followed by the others, the play always going round to the left."
    st = position(preference="sport")
    for t in ("play 4 society", "play 6 society", "play 3 society"):
        st.apply(t)
    # player 3 has no Society and trumps with a Sport card, the Preference suit
    st.apply("play 9 sport")
    assert st.to_play == 3
    view = st.view(2)
    assert view["tricks"][0]["winner"] == 3
    assert view["trick"] == [] and view["won"] == [0, 0, 0, 1]


def test_one_point_per_trick_then_a_new_deal_by_the_next_dealer() -> None:
    # seed 004: "the players who have won tricks score one point for each trick (not each card) they
    # have won. The cards are then all put together and shuffled, and five dealt again to each
    # player; this time by the player to the left of the previous dealer. The player on his left now
    # has the right to name the Preference suit for the ensuing round"
    st = position()
    rng = random.Random(1)
    while st.deal_no == 0:
        st.apply(rng.choice(st.legal_moves()))
    assert sum(st.scores) == 5
    assert st.view(None)["deal_log"][0]["won"] == st.scores
    assert st.dealer == 0 and st.to_play == 1 and st.phase == "prefer"
    assert all(len(h) == 5 for h in st.hands)
    assert len(st.stock) == 52 - 20


@pytest.mark.parametrize(("players", "deals"), [(2, 8), (3, 9), (4, 8), (5, 10), (6, 12), (7, 14)])
def test_number_of_deals(players: int, deals: int) -> None:
    # seed 004: "When there are only two players, each deals four times; when there are three, each
    # has three deals; when four or more, each deals twice"
    final = play_out(make(players).new_game(seed=players))
    assert len(final.deal_log) == deals
    dealers = [d["dealer"] for d in final.deal_log]
    assert dealers == [(players - 1 + k) % players for k in range(deals)]
    assert all(dealers.count(p) == deals // players for p in range(players))
    assert sum(final.scores) == 5 * deals


def test_deals_each_option() -> None:
    final = play_out(make(3, deals_each=1).new_game(seed=1))
    assert len(final.deal_log) == 3


def test_most_points_wins_and_ties_share() -> None:
    # seed 004: "The player who has scored the most points when the full number of deals have been
    # played, wins the game."
    for seed in range(20):
        final = play_out(make(3).new_game(seed=seed), seed)
        res = final.result()
        best = max(final.scores)
        assert res.winners == tuple(p for p in range(3) if final.scores[p] == best)
        assert res.points == tuple(final.scores)
        assert not res.lower_is_better


# --- partnerships ----------------------------------------------------------------------------
def test_partners_sit_opposite_and_count_together() -> None:
    # seed 004: "When there are four or six players, they may play in two or three partnerships if
    # they choose. Partners should sit opposite each other, with an opponent between. ... partners
    # can play into each other's hands and they count their scores together."
    four = parlour.make("whoswho-tricks", players=4, rules="partnership")
    six = parlour.make("whoswho-tricks", players=6, rules="partnership")
    assert isinstance(four, TricksGame) and isinstance(six, TricksGame)
    assert four.teams() == [[0, 2], [1, 3]]
    assert six.teams() == [[0, 3], [1, 4], [2, 5]]
    final = play_out(four.new_game(seed=5), 5)
    res = final.result()
    a, b = final.scores[0] + final.scores[2], final.scores[1] + final.scores[3]
    assert res.points == (a, b, a, b)
    assert final.view(None)["team_scores"] == [a, b]
    if a != b:
        assert set(res.winners) == ({0, 2} if a > b else {1, 3})


def test_partnership_ignored_at_other_sizes() -> None:
    five = parlour.make("whoswho-tricks", players=5, rules="partnership")
    assert isinstance(five, TricksGame)
    assert five.teams() is None


def test_naming_is_the_same_in_partnerships() -> None:
    # seed 004: "The naming of the Preference suit is the same as if each were playing for himself"
    st = parlour.make("whoswho-tricks", players=4, rules="partnership").new_game(seed=2, dealer=1)
    assert st.to_play == 2 and isinstance(st.legal_moves()[0], Prefer)


# --- hidden information ------------------------------------------------------------------------
def test_views_show_only_own_hand() -> None:
    st = position()
    for p in range(4):
        v = st.view(p)
        text = json.dumps(v)
        assert v["hand"] == HANDS[p] or sorted(v["hand"]) == sorted(HANDS[p])
        for q in range(4):
            if q != p:
                for c in HANDS[q]:
                    assert f'"{c}"' not in text
        assert "stock" not in v and "rng" not in v
    assert "hand" not in st.view(None)


def test_sampled_states_respect_shown_voids() -> None:
    st = position()
    for t in ("play 4 society", "play 6 society", "play 3 society", "play 5 money"):
        st.apply(t)
    assert st.voids() == [set(), set(), set(), {"society"}]
    view = st.view(0)
    for k in range(40):
        s = st.game.sample_state(view, GameRng(k))
        assert s.view(0) == view
        assert sorted(s.hands[0]) == sorted(st.hands[0])
        assert [len(h) for h in s.hands] == [len(h) for h in st.hands]
        assert not any(c.suit == "society" for c in s.hands[3])
        o = st.permute_hidden(0, GameRng(k))
        assert not any(c.suit == "society" for c in o.hands[3])


def test_permute_hidden_keeps_the_view_and_redeals_the_rest() -> None:
    st = position()
    st.apply("play 3 money")
    other = st.permute_hidden(1, GameRng(7))
    assert other.view(1) == st.view(1)
    moved = {tuple(h) for h in other.hands} != {tuple(h) for h in st.hands}
    assert moved or other.stock != st.stock


# --- notation, setup, records -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("prefer society", Prefer("society")),
        ("Prefer RED", Prefer("society")),
        ("trump owl", Prefer("brains")),
        ("play 11 brains", Play(parse_card("11 brains"))),
        ("11 blue", Play(parse_card("11 brains"))),
        ("play Eleven, brains", Play(parse_card("11 brains"))),
    ],
)
def test_notation(text: str, move: object) -> None:
    game = make(4)
    assert game.parse_move(text) == move
    assert game.parse_move(str(move)) == move


@pytest.mark.parametrize(
    "bad", ["", "thank", "ask 2 for 4 money", "prefer", "play", "play 2 money"]
)
def test_bad_notation(bad: str) -> None:
    with pytest.raises(IllegalMove) as exc:
        make(4).parse_move(bad)
    assert str(exc.value)


def test_a_refused_move_says_whether_it_is_no_move_or_not_legal_now_and_why() -> None:
    # seed 004: "All players after the first must play cards of the same suit as the card first
    # played, if they have any; if they have none, they play some other suit."
    st = position()
    st.apply("play 3 money")
    with pytest.raises(NotLegalNow, match="you must follow suit") as info:
        st.check("play 6 society")
    assert info.value.why == "you must follow suit: you hold money"
    assert info.value.legal == ["play 10 money", "play 15 money"]
    with pytest.raises(NotLegalNow, match="you hold no 4 money"):
        st.check("play 4 money")  # player 2's card: the mover's hand is the rule
    # seed 004: "now has the right to name one of the suits as his preference, and that suit until
    # the next deal, outranks any of the others"
    with pytest.raises(NotLegalNow, match="society is already the Preference suit"):
        st.check("prefer money")
    with pytest.raises(NotAMove, match="hearts"):
        st.check("play 3 hearts")
    # seed 004: "The player on the left of the dealer ... now has the right to name one of the
    # suits as his preference" — before anyone plays
    naming = position(preference=None)
    with pytest.raises(NotLegalNow, match="first name the Preference suit"):
        naming.check("play 3 money")


# --- positions, setup, records --------------------------------------------------------------------
def test_a_position_round_trips_and_plays_on() -> None:
    st = position(scores=[1, 2, 3, 4])
    for move in ("play 12 brains", "play 13 brains", "play 14 brains", "play 7 brains"):
        st.apply(move)
    st.apply("play 8 sport")
    pos = json.loads(json.dumps(st.position()))
    assert pos["trick"] == [[2, "8 sport"]] and pos["leader"] == 2
    assert pos["tricks"] == [
        {
            "leader": 0,
            "cards": [[0, "12 brains"], [1, "13 brains"], [2, "14 brains"], [3, "7 brains"]],
            "winner": 2,
        }
    ]
    assert pos["won"] == [0, 0, 1, 0] and pos["scores"] == [1, 2, 4, 4]
    assert len(pos["stock"]) == 52 - 20
    back = make(4).from_position(pos, seed=99)
    assert back.position() == pos
    sports = [Play(parse_card("9 sport")), Play(parse_card("15 sport"))]
    assert back.legal_moves() == st.legal_moves() == sports
    for p in (None, 0, 1, 2, 3):
        a, b = dict(st.view(p)), dict(back.view(p))
        assert a.pop("events") and not b.pop("events")  # a position has no history
        assert a == b


def test_a_chosen_position_replays_from_its_record() -> None:
    st = position(scores=[1, 2, 3, 4])
    assert st.scores == [1, 2, 3, 4]
    assert st.setup == {"position": spec(scores=[1, 2, 3, 4])}
    final = play_out(st, 3)
    again = parlour.replay(json.loads(final.record().to_json()))
    assert again.to_dict() == final.to_dict()


def test_short_hands_make_a_short_first_deal() -> None:
    hands = [["15 money"], ["3 money"]]
    st = make(2).from_position({"dealer": 1, "hands": hands, "preference": "sport"}, seed=1)
    st.apply("play 15 money")
    st.apply("play 3 money")
    assert st.scores == [1, 0]
    assert st.deal_no == 1 and all(len(h) == 5 for h in st.hands)


def test_the_old_setup_still_starts_and_replays() -> None:
    """Records stored before positions (by the server too) set games up with `dealer`, `hands`,
    `preference` and `scores`: they still do, as the position does, and replay."""
    game = make(4)
    old = game.new_game(seed=1, dealer=3, hands=HANDS, preference="society", scores=[1, 2, 3, 4])
    new = position(scores=[1, 2, 3, 4])
    assert old.position() == new.position()
    assert [e.kind for e in old.view(0)["events"]] == ["deal", "prefer"]
    final = play_out(old, 3)
    again = parlour.replay(json.loads(final.record().to_json()))
    assert again.to_dict() == final.to_dict()
    assert game.new_game(seed=5, dealer=2).to_play == 3


def test_a_save_from_before_typed_events_loads_from_its_own_record() -> None:
    st = make(4).new_game(seed=8)
    play_out(st, 8)
    data = st.to_dict()
    data["events"] = ["seat 1 plays 7 money"]  # what saves held then: words, never read back
    assert make(4).load(json.dumps(data)).to_dict() == st.to_dict()


def test_bad_setups_say_why() -> None:
    game = make(4)
    with pytest.raises(SetupError, match="dealer"):
        game.new_game(seed=1, dealer=9)
    with pytest.raises(SetupError, match="twice"):
        game.new_game(seed=1, hands=[["3 money"], ["3 money"], ["4 money"], ["5 money"]])
    with pytest.raises(SetupError, match="same number"):
        game.new_game(seed=1, hands=[["3 money"], [], ["4 money"], ["5 money"]])
    with pytest.raises(SetupError, match="unknown setup"):
        game.new_game(seed=1, deck="x")
    with pytest.raises(RulesError):  # a SetupError is a RulesError, as before
        game.new_game(seed=1, preference="hearts")


def without(p: int, *cards: str) -> list[list[str]]:
    """HANDS with `cards` taken from player `p`'s hand."""
    return [[c for c in h if q != p or c not in cards] for q, h in enumerate(HANDS)]


TRICK_0 = {
    "leader": 0,
    "cards": [[0, "12 brains"], [1, "13 brains"], [2, "14 brains"], [3, "7 brains"]],
    "winner": 2,
}
AFTER_TRICK_0 = [
    ["3 money", "9 money", "4 society", "5 sport"],
    ["10 money", "15 money", "6 society", "6 sport"],
    ["4 money", "3 society", "7 sport", "8 sport"],
    ["5 money", "6 money", "9 sport", "15 sport"],
]


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"hands": HANDS[:3]}, "3 hands for 4 players"),
        ({"colour": "red"}, "unknown keys colour"),
        ({"dealer": 4}, "dealer must be a player from 0 to 3"),
        ({"namer": 2}, "the namer is the player on the dealer's left, 0"),
        ({"preference": "hearts"}, "preference must be one of money"),
        ({"phase": "prefer"}, "not named yet"),
        ({"preference": None, "phase": "play"}, "needs the Preference suit"),
        ({"phase": "over"}, "over when all 8 deals are done"),
        ({"hands": [HANDS[0], HANDS[0], HANDS[2], HANDS[3]]}, "cards appear twice: 12 brains"),
        ({"hands": [h[:4] if p else h for p, h in enumerate(HANDS)]}, "make 5, 4, 4, 4"),
        ({"hands": [["3 money", "banana"], [], [], []]}, "hand 0: 'banana' is not a card"),
        ({"hands": without(1, "10 money"), "trick": [[1, "10 money"]]}, "card 0 is player 0's"),
        ({"stock": ["3 sport"]}, "missing"),
        ({"deals_done": 9}, "deals_done must be a number from 0"),
        ({"won": [1, 0, 0, 0], "scores": [0, 0, 0, 0]}, "scores count this deal's tricks too"),
        ({"hands": AFTER_TRICK_0, "tricks": [dict(TRICK_0, winner=1)]}, "won by player 2"),
        ({"hands": AFTER_TRICK_0, "tricks": [dict(TRICK_0, leader=1)]}, "was led by 0"),
        ({"hands": AFTER_TRICK_0, "tricks": [TRICK_0], "leader": 1}, "leads the next, not 1"),
        (
            {
                # player 1 threw a sport card on the money lead, holding 10 and 15 money
                "hands": [*without(0, "3 money")[:1], *without(1, "6 sport")[1:2], *HANDS[2:]],
                "trick": [[0, "3 money"], [1, "6 sport"]],
            },
            "player 1 did not follow money this deal, so cannot hold 10 money",
        ),
    ],
)
def test_position_errors_are_clear(changes: dict[str, object], why: str) -> None:
    with pytest.raises(SetupError, match=why):
        make(4).from_position(spec(**changes))


def test_forced_move_and_greedy_bot_play_legal_moves() -> None:
    game = make(4)
    st = game.new_game(seed=11)
    bot = make_bot("greedy", game, seed=1)
    i = 0
    while not st.is_over:
        legal = st.legal_moves()
        assert st.forced_move() in legal
        move = bot.choose(st.view(st.to_play), legal) if i % 2 else st.forced_move()
        st.apply(move)
        i += 1
    assert st.result().winners


def test_greedy_names_its_longest_suit() -> None:
    # seed 004: "The player naturally chooses the suit that is most strongly represented in his
    # hand."
    st = position(preference=None)
    bot = make_bot("greedy", st.game, seed=1)
    assert bot.choose(st.view(0), st.legal_moves()) == Prefer("money")
    assert st.forced_move() == Prefer("money")
