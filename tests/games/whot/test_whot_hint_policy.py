"""The hint bot's advice played straight off a full state (`hint_policy`), as the search bots use it
on their determinizations: the same move the `hint` bot would choose from that seat's view, from
only what that seat may know."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import Any

import pytest

import parlour
from parlour.core.rng import GameRng
from parlour.games.whot.engine import WhotState, lacks_from_events
from parlour.games.whot.hint import WhotHintBot, hint_policy, lacking
from parlour.testing.positions import played_positions

TABLES = [
    (preset, players, opponents)
    for preset in ("nigerian", "storey-1935", "english")
    for players in (2, 4)
    for opponents in ("hint", "random")
]


def positions(
    preset: str, players: int, opponents: str, games: int = 4, moves: int = 80, **opts: Any
) -> Iterator[WhotState]:
    """Every position of a few seeded games between `opponents` bots (the state is played on after
    each is yielded)."""
    game = parlour.make("whot", players=players, rules=preset, **opts)
    for state in played_positions(game, opponents, range(games), moves):
        assert isinstance(state, WhotState)
        yield state


def lacks_by_seat(state: WhotState) -> list[set[int]]:
    return [{s for s in range(5) if state.lacks >> (5 * q + s) & 1} for q in range(state.n)]


def start(hands: list[list[str]], rules: str = "storey-1935", **pos: Any) -> WhotState:
    game = parlour.make("whot", players=len(hands), rules=rules)
    state = game.new_game(0, position={"hands": hands, **pos})
    assert isinstance(state, WhotState)
    return state


# --- the same advice as the bot's, from the state -------------------------------------------------


@pytest.mark.parametrize(("preset", "players", "opponents"), TABLES)
def test_hint_policy_plays_a_move_the_hint_bot_rates_best(
    preset: str, players: int, opponents: str
) -> None:
    # The search bots model every seat with the hint bot's rules, computed on the full state: the
    # move must be one the bot scores best from that seat's view, and with the same generator the
    # very move the bot picks among its equals.
    checked = 0
    for state in positions(preset, players, opponents, games=6):
        me = state.to_play
        view = state.view(me)
        legal = state.legal_moves()
        if len(legal) == 1:
            assert hint_policy(state, Random(0)) is legal[0]
            continue
        scores, moves = WhotHintBot(state.game, Random(0))._score(view, legal)
        best = {m for s, m in zip(scores, moves, strict=True) if s == max(scores)}
        for k in range(3):
            move = hint_policy(state, Random(k))
            assert move in best, (str(move), view)
            assert move is WhotHintBot(state.game, Random(k)).choose(view, legal)
        checked += 1
    assert checked >= 100


def test_hint_policy_says_the_declarations_as_the_bot_does() -> None:
    # "Always say the declarations (last card, semi-last card, check up): they are free" — the
    # undeclared twin of a declared move is never chosen.
    declarations = ("last card", "semi-last card", "check up")
    checked = 0
    for opponents in ("hint", "random"):
        for state in positions("nigerian", 3, opponents, declarations=declarations):
            view = state.view(state.to_play)
            legal = state.legal_moves()
            move = hint_policy(state, Random(1))
            assert move is WhotHintBot(state.game, Random(1)).choose(view, legal)
            if any(m.say for m in legal):  # type: ignore[attr-defined]
                assert move.say or move.kind != "play"  # type: ignore[attr-defined]
                checked += 1
    assert checked >= 20


@pytest.mark.parametrize("preset", ["nigerian", "storey-1935"])
def test_hint_policy_reads_only_what_its_seat_may_know(preset: str) -> None:
    # Hidden information is a wall: redraw every card the mover cannot see and the advice is the
    # same.
    for state in positions(preset, 3, "random", games=2):
        me = state.to_play
        assert me is not None
        for k in range(2):
            other = state.permute_hidden(me, GameRng(k))
            assert hint_policy(other, Random(k)) is hint_policy(state, Random(k))


# --- what each seat could not follow, kept by the engine ------------------------------------------


@pytest.mark.parametrize(("preset", "players", "opponents"), TABLES)
def test_the_engine_keeps_the_symbols_each_seat_could_not_follow(
    preset: str, players: int, opponents: str
) -> None:
    # seed 000: "note which numbers and symbols your opponents cannot follow, especially the
    # player on your left" — a seat that drew while a symbol was called did not hold it, until it
    # plays one. The engine keeps that up move by move; it is what the events say, read again.
    for n, state in enumerate(positions(preset, players, opponents, games=3)):
        assert lacks_by_seat(state) == lacking(state.view(None))
        if n % 15 == 0:  # and it survives a save, a copy and a determinization
            me = state.to_play
            assert me is not None
            loaded = state.game.load(state.to_json())
            sampled = state.game.sample_state(state.view(me), GameRng(n))
            assert loaded.lacks == sampled.lacks == state.copy().lacks == state.lacks


def test_a_chosen_positions_call_card_was_called_by_no_event() -> None:
    # A position's call card came with no event, so (as the events read) a draw on it tells the
    # table nothing; once a card is played, a draw on its symbol does. seed 000: "He cannot DRAW a
    # card and PLAY a card in the SAME TURN".
    state = start(
        [["5 circle", "7 star"], ["3 cross", "5 square"]],
        pile=["10 cross"],
        pack=["10 circle", "11 circle"],
        to_play=0,
    )
    state.apply("draw")  # nothing follows the cross
    assert lacks_by_seat(state) == lacking(state.view(1)) == [set(), set()]
    saved = state.game.load(state.to_json())
    sampled = state.game.sample_state(state.view(1), GameRng(0))
    for s in (state, saved, sampled):
        s.apply("play 3 cross")
        s.apply("draw")  # still no cross, and now a cross was played and called
        assert lacks_by_seat(s) == lacking(s.view(None)) == [{2}, set()]  # 2: cross
        assert s.lacks == lacks_from_events(s.events, 2)[0]


# --- the sheets' advice on a full state -----------------------------------------------------------


def test_hint_policy_calls_the_symbol_a_near_winner_could_not_follow() -> None:
    # seed 000: "note which numbers and symbols your opponents cannot follow" — P2 drew on a circle
    # call and holds two cards: the WHOT calls circles again rather than the square P1 holds.
    state = start(
        [["whot", "whot", "7 square"], ["13 square"]],
        pile=["4 triangle"],
        pack=["2 star", "3 star"],
        to_play=0,
    )
    state.apply("play whot call circle")
    state.apply("draw")
    assert str(hint_policy(state, Random(0))) == "play whot call circle"
    _, why = WhotHintBot(state.game, Random(0)).explain(state.view(0), state.legal_moves())
    # the players are named by the edge that knows them (`with_names`)
    assert why.startswith("hint: WHOT calling circle, which {P2} could not follow")


def test_hint_policy_holds_back_a_whot_while_another_card_will_do() -> None:
    # seed 000 HINTS ON PLAY: "it is sometimes good to hold back a "WHOT" Card"
    state = start(
        [["whot", "5 circle", "7 triangle", "11 square"], ["1 star", "2 star", "3 star", "4 star"]],
        pile=["10 circle"],
        to_play=0,
    )
    assert str(hint_policy(state, Random(0))) == "play 5 circle"


def test_hint_policy_keeps_a_pick_two_to_answer_a_pick() -> None:
    # seed 002 Strategy: keep the pick cards to answer a pick, "Pick 2 - Defended with a 2-card".
    hands = [
        ["2 circle", "4 circle", "10 square", "11 square", "13 square"],
        ["2 triangle", "4 star", "5 star", "7 star", "8 star"],
    ]
    state = start(hands, rules="nigerian", pile=["7 circle"], to_play=0)
    assert str(hint_policy(state, Random(0))) == "play 4 circle"  # the 2 is kept
    state = start(hands, rules="nigerian", pile=["7 triangle"], to_play=1)
    state.apply("play 2 triangle")
    assert state.pending_pick == 2
    assert str(hint_policy(state, Random(0))) == "play 2 circle"  # and answers the pick
