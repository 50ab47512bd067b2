"""Who's Who, Game No. 2 (books): each test quotes the sentence of seed 004 (or RULES-NOTES.md for
a reconstructed point) it checks."""

from __future__ import annotations

import json
import random

import pytest

import parlour
from parlour.bots import make_bot
from parlour.core import IllegalMove, RulesError
from parlour.core.rng import GameRng
from parlour.games.whoswho.books import BooksGame, BooksState
from parlour.games.whoswho.deck import DECK, Card, parse_card
from parlour.games.whoswho.notation import THANK, Ask


def make(players: int = 3, **options: object) -> BooksGame:
    game = parlour.make("whoswho-books", players=players, **options)
    assert isinstance(game, BooksGame)
    return game


def suit(s: str, numbers: range) -> list[str]:
    return [f"{n} {s}" for n in numbers]


# Three players, dealer 2, so player 0 calls first. Nobody holds a book.
HANDS = [
    suit("money", range(3, 16)) + suit("society", range(3, 7)),
    suit("society", range(7, 16)) + suit("brains", range(3, 11)),
    suit("brains", range(11, 16)) + suit("sport", range(3, 16)),
]


def position(game: BooksGame | None = None, **kw: object) -> BooksState:
    game = game or make(3)
    setup: dict[str, object] = {"dealer": 2, "hands": HANDS}
    setup.update(kw)
    return game.new_game(seed=1, **setup)


def texts(cards: list[Card]) -> list[str]:
    return [str(c) for c in cards]


# --- the deal --------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 7])
def test_all_cards_dealt_as_evenly_as_possible(players: int) -> None:
    # seed 004: "The cards are all dealt around, as evenly as possible."
    st = make(players).new_game(seed=players, dealer=0)
    pack = list(DECK)
    GameRng(players).shuffle(pack)
    expected: list[list[Card]] = [[] for _ in range(players)]
    for i, c in enumerate(pack):
        expected[(1 + i) % players].append(c)
    for p in range(players):
        in_hand = sorted(st.hands[p])
        in_books = sorted(c for c in expected[p] if c.number in st.books[p])
        assert sorted(in_hand + in_books) == sorted(expected[p])
    sizes = [len(e) for e in expected]
    assert max(sizes) - min(sizes) <= 1


def test_books_laid_down_at_the_deal() -> None:
    # seed 004: "The players then examine their hands for complete books of four cards of the same
    # number, and lay them before them on the table."
    hands = [list(h) for h in HANDS]
    hands[0].remove("3 money")
    hands[1] += ["3 money"]
    hands[1] = [c for c in hands[1] if c != "3 brains"]
    hands[2] = [c for c in hands[2] if c != "3 sport"]
    hands[1] += ["3 sport"]
    hands[0] += ["3 brains"]
    # now player 1 holds 3 money, 3 sport; put 3 society and 3 brains with them too
    hands[0].remove("3 society")
    hands[0].remove("3 brains")
    hands[1] += ["3 society", "3 brains"]
    st = make(3).new_game(seed=1, dealer=2, hands=hands)
    assert st.books == [[], [3], []]
    assert not any(c.number == 3 for h in st.hands for c in h)
    assert "seat 2 lays down the book of 3s" in st.view(None)["events"]


def test_player_left_of_dealer_calls_first() -> None:
    # seed 004: "The player on the left of the dealer then calls upon any other player for a card
    # that he needs."
    assert make(4).new_game(seed=3, dealer=1).to_play == 2
    assert position().to_play == 0


# --- calling ----------------------------------------------------------------------------------
def test_call_by_number_and_suit_or_colour() -> None:
    # seed 004: 'He may call for the card by the number and the color, "Four, yellow," for instance;
    # or by the number and the title of the suit, as, "Four, money."'
    game = make(3)
    assert game.parse_move("ask 2 for 4 yellow") == game.parse_move("ask 2 for 4 money")
    assert game.parse_move("Ask 2 for Four, yellow") == Ask(1, parse_card("4 money"))
    assert str(Ask(1, parse_card("4 money"))) == "ask 2 for 4 money"
    st = position(game)
    st.apply("ask 2 for 4 blue")
    assert parse_card("4 brains") in st.hands[0]


def test_given_card_changes_hands_and_caller_keeps_the_call() -> None:
    # seed 004: "If the player called upon has the card asked for, he gives it to the caller"
    # RULES-NOTES: "a successful call keeps the turn (until the "Thank you" rule takes it away)"
    st = position()
    st.apply("ask 2 for 4 brains")
    assert parse_card("4 brains") in st.hands[0]
    assert parse_card("4 brains") not in st.hands[1]
    assert st.to_play == 0
    legal = st.legal_moves()
    assert legal[0] == THANK and len(legal) > 1
    st.apply("thank")
    assert st.to_play == 0 and st.pending is None
    assert THANK not in st.legal_moves()


def test_calling_again_without_thanks_returns_the_card() -> None:
    # seed 004: 'he gives it to the caller, who must at once say, "Thank you." If he neglects to do
    # this, before calling for another card, he must return the card to the player from whom he got
    # it, and the right to make the next call passes to that player.'
    st = position()
    st.apply("ask 2 for 4 brains")
    st.apply("ask 3 for 4 sport")
    assert parse_card("4 brains") in st.hands[1]
    assert parse_card("4 brains") not in st.hands[0]
    assert parse_card("4 sport") in st.hands[2]  # the forgetful call itself is void
    assert st.to_play == 1
    assert st.view(2)["log"][-1] == {"kind": "return", "player": 0, "to": 1, "card": "4 brains"}


def test_failed_call_passes_to_the_player_called_on() -> None:
    # seed 004: "When a player fails to get the card called for, the turn to call goes to the player
    # he last called on."
    st = position()
    st.apply("ask 3 for 4 brains")
    assert st.to_play == 2
    assert len(st.hands[0]) == 17
    # ... and the table now knows who has it: not the caller, not the player called on
    assert st.view(2)["holders"]["4 brains"] == [1]
    assert st.view(0)["known"][1] == ["4 brains"]


def test_caller_must_hold_a_card_of_the_number() -> None:
    # RULES-NOTES (reconstruction): "a caller must hold a card of the number called"
    hands = [
        ["14 money", "14 society", "14 brains"],
        ["14 sport", "15 money"],
        ["15 society", "15 brains", "15 sport"],
    ]
    books = [[3, 4, 5, 6], [7, 8, 9], [10, 11, 12, 13]]
    strict = make(3).new_game(seed=1, dealer=2, hands=hands, books=books)
    assert [str(m) for m in strict.legal_moves()] == ["ask 2 for 14 sport", "ask 3 for 14 sport"]
    with pytest.raises(IllegalMove):
        strict.apply("ask 3 for 15 sport")  # player 0 holds no 15
    loose = make(3, caller_must_hold=False).new_game(seed=1, dealer=2, hands=hands, books=books)
    assert Ask(2, parse_card("15 sport")) in loose.legal_moves()
    loose.apply("ask 3 for 15 sport")
    assert loose.to_play == 0 and loose.pending is not None


def test_no_call_for_own_card_or_on_oneself() -> None:
    st = position()
    legal = st.legal_moves()
    assert all(isinstance(m, Ask) and m.target != 0 for m in legal)
    assert all(m.card not in st.hands[0] for m in legal if isinstance(m, Ask))


def test_book_laid_down_when_the_card_is_kept() -> None:
    # RULES-NOTES: "books are laid down at once"; a book is made when the card is kept ("Thank you")
    st = position()
    st.apply("ask 2 for 4 brains")
    st.apply("thank")
    st.apply("ask 3 for 4 sport")
    assert st.books[0] == []  # not yet thanked
    st.apply("thank")
    assert st.books[0] == [4]
    assert not any(c.number == 4 for c in st.hands[0])


def test_thank_you_rule_can_be_turned_off() -> None:
    st = position(make(3, thank_you=False))
    st.apply("ask 2 for 4 brains")
    assert st.pending is None and THANK not in st.legal_moves()
    st.apply("ask 3 for 4 sport")
    assert st.books[0] == [4] and st.to_play == 0


def test_success_keeps_turn_can_be_turned_off() -> None:
    st = position(make(3, success_keeps_turn=False))
    st.apply("ask 2 for 4 brains")
    assert st.legal_moves() == [THANK]
    st.apply("thank")
    assert st.to_play == 1


# --- the end ------------------------------------------------------------------------------------
END_HANDS = [["15 money", "15 society", "15 brains"], ["15 sport", "14 money"], []]


def end_position(books: list[list[int]]) -> BooksState:
    hands = [list(h) for h in END_HANDS]
    rest = [n for n in range(3, 15) if not any(n in b for b in books)]
    assert rest == [14]
    hands[1] += ["14 society", "14 brains", "14 sport"]
    hands[1].remove("14 money")
    hands[1].append("14 money")
    return make(3).new_game(seed=1, dealer=2, hands=hands, books=books)


def test_game_ends_when_all_books_are_made_and_most_books_wins() -> None:
    # seed 004: "The player who collects the most books, wins the game."
    st = end_position([[3, 4, 5, 6, 7, 8, 9], [10, 11, 12, 13], []])
    assert st.books[1] == [10, 11, 12, 13, 14]  # laid at the start: a full book of 14s
    st.apply("ask 2 for 15 sport")
    st.apply("thank")
    assert st.is_over and st.to_play is None
    res = st.result()
    assert res.points == (8, 5, 0) and res.winners == (0,)


def test_ties_share_the_win() -> None:
    # seed 004: "The player who collects the most books, wins the game." (ties share: RULES-NOTES)
    fifteens = ["15 money", "15 society", "15 brains"]
    fourteens = ["14 money", "14 society", "14 brains", "14 sport"]
    st = make(3).new_game(
        seed=1,
        dealer=2,
        hands=[fifteens, ["15 sport"], fourteens],
        books=[[3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13], []],
    )
    assert st.books[2] == [14] and st.hands[2] == []
    st.apply("ask 2 for 15 sport")
    st.apply("thank")
    res = st.result()
    assert res.points == (6, 6, 1)
    assert res.winners == (0, 1) and res.ranks == (1, 1, 3)


def test_player_without_cards_is_passed_over() -> None:
    # Our choice (the sheet is silent): a player with no cards left is passed over.
    hands = [
        ["14 money", "14 society", "14 brains"],
        ["14 sport", "15 money"],
        ["15 society", "15 brains", "15 sport"],
    ]
    books = [[3, 4, 5, 6], [7, 8, 9], [10, 11, 12, 13]]
    st = make(3).new_game(seed=1, dealer=2, hands=hands, books=books)
    st.apply("ask 2 for 14 sport")
    st.apply("thank")
    assert st.hands[0] == [] and st.to_play == 1
    assert "seat 1 has no cards left and is passed over" in st.view(None)["events"]
    assert all(isinstance(m, Ask) and m.target == 2 for m in st.legal_moves())


# --- hidden information --------------------------------------------------------------------------
def test_views_show_own_hand_and_the_public_record_only() -> None:
    st = position()
    st.apply("ask 2 for 4 brains")
    view = st.view(2)
    assert view["hand"] == texts(st.hands[2])
    assert view["known"][0] == ["4 brains"]
    assert view["pending"] == {"caller": 0, "giver": 1, "card": "4 brains"}
    text = json.dumps(view)
    for c in st.hands[0]:
        if str(c) != "4 brains":
            assert f'"{c}"' not in text
    assert "hand" not in st.view(None)


def test_sampled_states_keep_publicly_known_cards() -> None:
    # The public history is every player's memory: a card given is in the caller's hand.
    st = position()
    st.apply("ask 2 for 4 brains")
    st.apply("thank")
    st.apply("ask 2 for 5 brains")
    st.apply("thank")
    st.apply("ask 3 for 6 brains")  # fails: 6 brains is with player 1
    view = st.view(2)
    for k in range(30):
        s = st.game.sample_state(view, GameRng(k))
        assert s.view(2) == view
        assert parse_card("4 brains") in s.hands[0]
        assert parse_card("5 brains") in s.hands[0]
        assert parse_card("6 brains") in s.hands[1]
        o = st.permute_hidden(2, GameRng(k))
        assert parse_card("4 brains") in o.hands[0] and parse_card("6 brains") in o.hands[1]


# --- notation, setup, records, bots -------------------------------------------------------------
@pytest.mark.parametrize(
    "bad", ["", "play 3 money", "ask", "ask 9 for 4 money", "ask 2", "prefer x"]
)
def test_bad_notation(bad: str) -> None:
    with pytest.raises(IllegalMove) as exc:
        make(3).parse_move(bad)
    assert str(exc.value)


def test_thank_spellings() -> None:
    game = make(3)
    for t in ("thank", "Thank you", "thanks", '"Thank you."'):
        assert game.parse_move(t) == THANK


def test_bad_setups_say_why() -> None:
    game = make(3)
    with pytest.raises(RulesError, match="every card"):
        game.new_game(seed=1, hands=[["3 money"], [], []])
    with pytest.raises(RulesError, match="together with hands"):
        game.new_game(seed=1, books=[[3], [], []])
    with pytest.raises(RulesError, match="numbers from 3 to 15"):
        game.new_game(seed=1, hands=HANDS, books=[[99], [], []])
    with pytest.raises(RulesError, match="caller"):
        game.new_game(seed=1, hands=HANDS, caller=7)


def test_a_chosen_position_replays_from_its_record() -> None:
    st = position(caller=1)
    assert st.to_play == 1
    rng = random.Random(4)
    for _ in range(200):
        if st.is_over:
            break
        st.apply(rng.choice(st.legal_moves()))
    again = parlour.replay(json.loads(st.record().to_json()))
    assert again.to_dict() == st.to_dict()


def test_greedy_bots_finish_games_and_always_say_thank_you() -> None:
    for players in (2, 4, 7):
        game = make(players)
        st = game.new_game(seed=players)
        bots = [make_bot("greedy", game, seed=p) for p in range(players)]
        moves = 0
        while not st.is_over:
            p = st.to_play
            assert p is not None
            legal = st.legal_moves()
            assert st.forced_move() in legal
            st.apply(bots[p].choose(st.view(p), legal))
            moves += 1
            assert moves < 5000
        assert not any(e["kind"] == "return" for e in st.log)
        assert sum(st.result().points) == 13
