"""What a move sent for a ply the game has passed is told: `stale` (another move came first, here
is the table as it is), even when the move that came first ended the game — two tabs, or two
gateways, racing a game's last move. The table's model alone, as its owner checks a move."""

from __future__ import annotations

import pytest

from parlour.bots import BotLimits
from parlour.core import Move, State
from parlour.server.tables import Table, TableError, plan_table


def ends_the_game(state: State, move: Move) -> bool:
    after = state.copy()
    after.apply(move)
    return after.is_over


def a_game_one_move_from_its_end() -> Table:
    row, _, _ = plan_table(
        "RACE", "whot", players=2, match="rounds-3", host_name="Ada",
        bot_delay=0.0, bot_limits=BotLimits(),
    )  # fmt: skip
    table = Table(row)
    table.take_seat(1, "Bob", "bob's token hash")
    table.begin(table.deal_next(), 1)
    assert table.state is not None
    while True:
        if any(ends_the_game(table.state, m) for m in table.state.legal_moves()):
            return table
        table.apply(table.state.legal_moves()[0])


def test_a_move_raced_against_the_games_last_move_is_stale() -> None:
    table = a_game_one_move_from_its_end()
    assert table.state is not None
    ply, seat = table.ply, table.seat_to_play()
    assert seat is not None
    last = next(m for m in table.state.legal_moves() if ends_the_game(table.state, m))
    table.apply(table.check_move(seat, last, ply))
    table.finish()
    with pytest.raises(TableError) as second:
        table.check_move(seat, last, ply)  # the other tab's, sent at the same ply
    assert second.value.code == "stale"
    with pytest.raises(TableError) as unaware:  # without a ply, the game is simply over
        table.check_move(seat, last, None)
    assert unaware.value.code == "no_game"
