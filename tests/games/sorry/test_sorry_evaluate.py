"""The search bots' evaluation of an unfinished Sorry! game: a win chance per seat from learned
place values (values.py, fitted by tools/fit_sorry_values.py on hint-played games).

The table is data, so these tests check what any honest fit must say (HOME is worth most, a pawn
in its safety zone is past every danger on the track, the first player moves first) and that the
chances are calibrated: over hint-played games they name the winner far better than a blind guess.
"""

from __future__ import annotations

import math
import random

import pytest
from sorry_helpers import GAMES, make

import parlour
from parlour.games.sorry.board import HOME, START, TRACK
from parlour.games.sorry.engine import SorryState
from parlour.games.sorry.hint import evaluate, hint_policy
from parlour.games.sorry.values import PLACE_VALUE, TURN_ORDER


def value(place: int) -> float:
    return PLACE_VALUE[place + 1]


def hint_games(players: int, rules: str, games: int, seed: int = 0) -> list[list[SorryState]]:
    """Every decision point of hint-played games (hint_policy makes the hint bot's choices)."""
    out = []
    for g in range(games):
        state = parlour.make("sorry", players=players, rules=rules).new_game(seed=seed + g)
        rng = random.Random(g)
        seen = []
        while not state.is_over:
            seen.append(state.copy())
            state.apply(hint_policy(state, rng))
        out.append([*seen, state])
    return out


def test_the_table_has_a_value_for_every_place_and_turn() -> None:
    assert len(PLACE_VALUE) == HOME + 2  # START, 60 track squares, 5 safety squares, HOME
    assert len(TURN_ORDER) == 4 and TURN_ORDER[0] == 0.0


def test_home_is_worth_most_and_start_least_of_the_places_a_pawn_can_stand_on() -> None:
    assert value(START) == 0.0
    assert value(HOME) == max(PLACE_VALUE)
    # seed 003 rule 10: in the SAFETY ZONE a pawn cannot be bumped: worth more than any track square
    assert min(value(r) for r in range(TRACK, HOME)) > max(value(r) for r in range(TRACK))
    # the second half of the track, nearer HOME, is worth more than the first
    first = sum(value(r) for r in range(1, 30)) / 29
    second = sum(value(r) for r in range(30, TRACK)) / 30
    assert second > first + 0.1


def test_moving_first_is_worth_something() -> None:
    # nobody has moved: the colour to play has the best chance, the last to play the least
    assert TURN_ORDER[0] > TURN_ORDER[1] > TURN_ORDER[2] > TURN_ORDER[3]
    chances = evaluate(make("1"))
    assert chances == sorted(chances, reverse=True)
    assert chances[0] > 0.25 > chances[3]


@pytest.mark.parametrize(("players", "rules"), GAMES)
def test_the_chances_share_out_one_and_partners_share_theirs(players: int, rules: str) -> None:
    for game in hint_games(players, rules, games=2):
        for state in game[:-1]:
            chances = evaluate(state)
            assert len(chances) == players
            assert math.isclose(sum(chances), 1.0)
            assert all(0.0 < c < 1.0 for c in chances)
            if rules == "partnership" and players == 4:
                # seed 003, partnership rule 5: the first partnership with all 8 pawns HOME wins
                assert chances[0] == chances[2] and chances[1] == chances[3]


def test_a_seats_chance_is_the_softmax_of_its_pawns_values_and_its_turn() -> None:
    state = make("5", {"red": ["home", "rs3", "b7"], "blue": ["y2", "home"]})
    utility = [
        sum(value(state.pos[p]) for p in range(4 * ci, 4 * ci + 4)) + TURN_ORDER[ci]
        for ci in range(4)
    ]
    total = sum(math.exp(u) for u in utility)
    expected = [math.exp(u) / total for u in utility]
    assert state.cur == 0  # red to play
    assert evaluate(state) == pytest.approx(expected, rel=1e-12)
    assert max(evaluate(state)) == evaluate(state)[0]  # red is furthest on


def test_a_pawn_bumped_back_to_start_lowers_its_colours_chance() -> None:
    # seed 003 rule 7: a pawn landed on is bumped back to its own START; blue's pawn on r3 has
    # come three quarters of the way round; a yellow pawn moves 5 from g13 onto it
    before = make(None, {"yellow": ["g13"], "blue": ["r3"]})
    after = make(None, {"yellow": ["r3"]})
    assert evaluate(after)[1] < evaluate(before)[1]
    assert evaluate(after)[2] > evaluate(before)[2]


def test_the_chances_are_calibrated_on_hint_played_games() -> None:
    # the winner's mean log-loss over every decision point of 100 four-player hint games: a blind
    # guess scores ln 4 = 1.386 nats; the hint's own progress score, as a softmax, scored 3.36
    loss = n = 0.0
    for game in hint_games(4, "regular", games=100, seed=50_000):
        winner = game[-1].winners[0]
        for state in game[:-1]:
            loss -= math.log(evaluate(state)[winner])
            n += 1
    assert loss / n < math.log(4) - 0.05
