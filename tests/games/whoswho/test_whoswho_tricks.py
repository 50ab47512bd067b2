"""Who's Who, Game No. 1: each test quotes the sentence of seed 004 it checks."""

from __future__ import annotations

import json
import random

import pytest

import parlour
from parlour.bots import make_bot
from parlour.core import IllegalMove, RulesError
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


def position(preference: str | None = "society", **kw: object) -> TricksState:
    return make(4).new_game(seed=1, dealer=3, hands=HANDS, preference=preference, **kw)


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
    st = make(4, must_follow=False).new_game(seed=1, dealer=3, hands=HANDS, preference="society")
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


def test_bad_setups_say_why() -> None:
    game = make(4)
    with pytest.raises(RulesError, match="dealer"):
        game.new_game(seed=1, dealer=9)
    with pytest.raises(RulesError, match="twice"):
        game.new_game(seed=1, hands=[["3 money"], ["3 money"], ["4 money"], ["5 money"]])
    with pytest.raises(RulesError, match="same number"):
        game.new_game(seed=1, hands=[["3 money"], [], ["4 money"], ["5 money"]])
    with pytest.raises(RulesError, match="unknown setup"):
        game.new_game(seed=1, deck="x")


def test_a_chosen_position_replays_from_its_record() -> None:
    st = position(scores=[1, 2, 3, 4])
    assert st.scores == [1, 2, 3, 4]
    final = play_out(st, 3)
    again = parlour.replay(json.loads(final.record().to_json()))
    assert again.to_dict() == final.to_dict()


def test_short_hands_make_a_short_first_deal() -> None:
    st = make(2).new_game(seed=1, dealer=1, hands=[["15 money"], ["3 money"]], preference="sport")
    st.apply("play 15 money")
    st.apply("play 3 money")
    assert st.scores == [1, 0]
    assert st.deal_no == 1 and all(len(h) == 5 for h in st.hands)


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
