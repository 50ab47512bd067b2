"""Who's Who, Game No. 1: `hint_policy`, the hint bot's rules read straight off a full state (the
search bots' model of the other seats), chooses exactly what the hint bot chooses from its view."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import parlour
from parlour.core.rng import GameRng
from parlour.games.whoswho.hint import TricksHintBot, hint_policy
from parlour.games.whoswho.tricks import TricksGame, TricksState
from parlour.testing.positions import played_positions


def make(players: int = 4, **options: object) -> TricksGame:
    game = parlour.make("whoswho-tricks", players=players, **options)
    assert isinstance(game, TricksGame)
    return game


def positions(game: TricksGame, bot: str, seeds: range) -> Iterator[TricksState]:
    """Every position of whole games played by four-of-a-kind `bot`s (the state is played on after
    the caller has looked at it, so the caller must not change it)."""
    for state in played_positions(game, bot, seeds):
        assert isinstance(state, TricksState)
        yield state


TABLES = [
    pytest.param(2, {}, id="2 players"),
    pytest.param(4, {}, id="4 players"),
    pytest.param(4, {"partnerships": True}, id="4 players in partnerships"),
    pytest.param(5, {}, id="5 players"),
    # without the duty to follow a player who does not follow is still read as out of the suit,
    # as the bot reads its view; the policy must read the tricks the same way
    pytest.param(4, {"must_follow": False}, id="4 players, following not required"),
]


@pytest.mark.parametrize("bot", ["hint", "random"])
@pytest.mark.parametrize(("players", "options"), TABLES)
def test_policy_on_the_state_chooses_what_the_bot_chooses_from_the_view(
    players: int, options: dict[str, object], bot: str
) -> None:
    # The Who's Who hint bot draws on its rng only when no move names a suit or plays a card, and
    # every legal move of Game No. 1 does one or the other: its choice is deterministic, so every
    # position is compared — and the policy is checked not to touch its rng either.
    game = make(players, **options)
    hint = TricksHintBot(game, random.Random(0))
    rng = random.Random(7)
    checked = 0
    for state in positions(game, bot, range(3)):
        me = state.to_play
        assert me is not None
        before = rng.getstate()
        assert hint_policy(state, rng) == hint.choose(state.view(me), state.legal_moves())
        assert rng.getstate() == before
        checked += 1
    assert checked >= 100


@pytest.mark.parametrize(("players", "options"), TABLES[1:3])
def test_policy_reads_only_the_movers_hand_and_the_public_tricks(
    players: int, options: dict[str, object]
) -> None:
    # Hidden information is a wall: redealing every card the mover cannot see (the other hands
    # and the cards laid aside, keeping every void shown) never changes the policy's move.
    game = make(players, **options)
    for i, state in enumerate(positions(game, "random", range(2))):
        me = state.to_play
        assert me is not None
        rng = random.Random(i)
        redealt = state.permute_hidden(me, GameRng(i))
        assert hint_policy(redealt, rng) == hint_policy(state, rng)


# A four-player position: player 0 leads (dealer 3).
HANDS = [
    ["3 money", "9 money", "4 society", "12 brains", "5 sport"],
    ["10 money", "15 money", "6 society", "13 brains", "6 sport"],
    ["4 money", "3 society", "14 brains", "7 sport", "8 sport"],
    ["5 money", "6 money", "7 brains", "9 sport", "15 sport"],
]


def position(
    moves: list[str], preference: str | None = "society", **options: object
) -> TricksState:
    """The position above (docs/whoswho.md, "Positions"), played on by `moves`."""
    spec = {"dealer": 3, "hands": HANDS, "preference": preference}
    state = make(4, **options).from_position(spec, seed=1)
    for m in moves:
        state.apply(m)
    return state


def explained(state: TricksState) -> tuple[str, str]:
    """The policy's move, checked against the bot's, and the bot's reason."""
    me = state.to_play
    assert me is not None
    move, reason = TricksHintBot(state.game, random.Random(0)).explain(
        state.view(me), state.legal_moves()
    )
    assert hint_policy(state, random.Random(0)) == move
    return str(move), reason


def test_names_the_suit_held_longest_and_strongest() -> None:
    # seed 004: "The player naturally chooses the suit that is most strongly represented in his
    # hand": player 0 holds two Money cards and one of each other suit
    assert explained(position([], preference=None)) == (
        "prefer money",
        "hint: name money, the suit held longest and strongest",
    )


def test_leads_low_from_a_side_suit_without_a_master() -> None:
    # every suit's fifteen is still out, so player 0 holds no master: lead low, not Society
    assert explained(position([])) == (
        "play 3 money",
        "hint: lead low from a side suit nobody has shown out of",
    )


def test_leads_a_master() -> None:
    # player 3 wins the Sport trick with the nine and leads the fifteen: nothing left can beat it
    state = position(["play 5 sport", "play 6 sport", "play 7 sport", "play 9 sport"])
    assert explained(state) == (
        "play 15 sport",
        "hint: lead a master card (the highest left in its suit)",
    )


def test_wins_with_a_card_nobody_left_can_beat() -> None:
    # player 1, second to play to 3 money, holds 10 and 15 money: only the fifteen is sure
    assert explained(position(["play 3 money"])) == (
        "play 15 money",
        "hint: win with a card nobody left can beat",
    )


def test_last_to_play_wins_as_cheaply_as_possible() -> None:
    # 5, 6 and 8 sport are down; player 3 holds 9 and 15 sport and plays last: the nine will do
    state = position(["play 5 sport", "play 6 sport", "play 8 sport"])
    assert explained(state) == ("play 9 sport", "hint: last to play; win as cheaply as possible")


def test_does_not_overtake_a_partner_and_throws_the_cheapest_card() -> None:
    # 9, 15 and 4 money are down: player 1's fifteen wins; player 3 holds 5 and 6 money
    moves = ["play 9 money", "play 15 money", "play 4 money"]
    assert explained(position(moves)) == (
        "play 5 money",
        "hint: cannot win it; throw the cheapest card, keeping Preference cards",
    )
    # partners sit opposite: player 1 is player 3's partner
    assert explained(position(moves, partnerships=True)) == (
        "play 5 money",
        "hint: partner is winning the trick; throw the cheapest card",
    )
