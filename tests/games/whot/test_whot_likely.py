"""What the other seats' draws say of their hands (`likely`, the search's check of a
determinization): a seat that plays whenever it can — the `hint` and `greedy` rules both do — drew
by choice only holding nothing to follow."""

from __future__ import annotations

import pytest

import parlour
from parlour.bots.base import make_bot
from parlour.core.rng import GameRng
from parlour.games.whot.cards import WHOT, parse_card
from parlour.games.whot.engine import WhotState
from parlour.games.whot.hint import UNBOUNDED, held_at_most, likely


@pytest.mark.parametrize("preset", ["nigerian", "storey-1935", "english"])
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("bots", ["greedy", "hint"])
def test_the_true_state_of_a_game_the_rules_played_is_always_likely(
    preset: str, players: int, bots: str
) -> None:
    # Every position of games the hint or greedy rules played: the real hands are never judged
    # impossible, from any seat; and some positions do bound what a hand holds.
    game = parlour.make("whot", players=players, rules=preset)
    bounded = 0
    for seed in range(6):
        state = game.new_game(seed=seed)
        seats = [make_bot(bots, game, seed * 10 + q) for q in range(players)]
        for _ in range(150):
            if state.is_over:
                break
            assert isinstance(state, WhotState)
            for me in range(players):
                assert likely(state, me)
            caps = held_at_most(state.events, players, state.game.rules.whot_on_whot)
            bounded += any(c != UNBOUNDED for cap in caps for c in cap)
            p = state.to_play
            assert p is not None
            state.apply(seats[p].choose(state.view(p), state.legal_moves()))
    assert bounded >= 50


def start(hands: list[list[str]], **pos: object) -> WhotState:
    game = parlour.make("whot", players=len(hands), rules="storey-1935")
    state = game.new_game(0, position={"hands": hands, **pos})
    assert isinstance(state, WhotState)
    return state


def test_a_seat_that_drew_on_a_symbol_held_none_of_it_and_no_whot() -> None:
    # P2 drew on a circle: it held no circle and no WHOT then, and may hold at most the one card it
    # drew of either since.
    state = start(
        [["5 circle", "7 circle", "1 square"], ["3 cross", "2 square", "4 triangle"]],
        pile=["8 circle"],
        pack=["10 circle", "2 cross"],
        to_play=0,
    )
    state.apply("play 5 circle")
    state.apply("draw")  # nothing follows the 5 circle
    assert state.hands[1][-1] == parse_card("10 circle")
    circle, whot = parse_card("1 circle") & 7, WHOT & 7
    caps = held_at_most(state.events, 2, state.game.rules.whot_on_whot)
    assert caps[1][circle] == caps[1][whot] == 1
    assert [c for k, c in enumerate(caps[1]) if k not in (circle, whot)] == [UNBOUNDED] * 4
    assert caps[0] == [UNBOUNDED] * 6
    assert likely(state, 0)
    # Determinizations of P2's hand: one circle or one WHOT may be the card it drew (each kind is
    # bounded alone); two of either it cannot hold.
    for hand, ok in (
        (["3 cross", "2 square", "4 triangle", "12 circle"], True),
        (["3 cross", "2 square", "4 triangle", "whot"], True),
        (["3 cross", "2 square", "12 circle", "13 circle"], False),
        (["3 cross", "2 square", "whot", "whot"], False),
    ):
        other = state.copy()
        other.hands[1] = [parse_card(t) for t in hand]
        assert likely(other, 0) is ok, hand
        assert likely(other, 1)  # (what a seat holds itself is never in question)
    # Once P2 plays a circle, it may hold any number of them again.
    state.apply("play 7 circle")
    state.apply("play 10 circle")
    assert held_at_most(state.events, 2, False)[1][circle] == UNBOUNDED


def test_determinizations_drawn_for_a_seat_are_mostly_likely() -> None:
    # The search redraws an unlikely determinization (15 times at most): most draws must pass, or
    # the redraws would cost the search its time.
    game = parlour.make("whot", players=2, rules="nigerian")
    passed = drawn = 0
    for seed in range(20):
        state = game.new_game(seed=seed)
        seats = [make_bot("greedy", game, q) for q in range(2)]
        for _ in range(30):
            if state.is_over:
                break
            p = state.to_play
            assert p is not None
            state.apply(seats[p].choose(state.view(p), state.legal_moves()))
        if state.is_over:
            continue
        me = state.to_play
        assert me is not None
        for k in range(10):
            drawn += 1
            passed += likely(game.sample_state(state.view(me), GameRng(k)), me)
    assert drawn >= 100 and passed >= drawn // 2


def test_the_search_redraws_by_the_draws_only_when_asked() -> None:
    # Whot!'s `likely` came after the search's figures were measured and measured no gain, so a
    # Whot! search uses it only when its spec asks (`likely=1`); Who's Who No. 1's stays on.
    from parlour.bots import ISMCTSBot

    whot = parlour.make("whot", players=2, rules="nigerian")
    plain, asked = make_bot("ismcts", whot, 1), make_bot("ismcts:likely=1", whot, 1)
    assert isinstance(plain, ISMCTSBot) and isinstance(asked, ISMCTSBot)
    assert plain.likely is None
    assert asked.likely is likely
    tricks = make_bot("ismcts", parlour.make("whoswho-tricks", players=4), 1)
    assert isinstance(tricks, ISMCTSBot) and tricks.likely is not None
