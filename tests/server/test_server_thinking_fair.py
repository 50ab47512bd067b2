"""The searching bots' pool is shared in turn among payers (server/thinking.py, `FairTurns`): one
client's batch of searches never stands before another client's table (the issue: a tournament's
16 searching bots made another table's bot wait 30–35 s a move)."""

from __future__ import annotations

import asyncio

from parlour.server.thinking import FairTurns


async def _served_order(places: int, asks: list[str]) -> list[str]:
    """The payers in the order their asks got a place, each ask holding it until the next ask
    has been queued behind everyone (all asks arrive while the places are taken)."""
    turns = FairTurns(places)
    order: list[str] = []
    release = asyncio.Event()

    async def ask(payer: str) -> None:
        await turns.take(payer)
        order.append(payer)
        await release.wait()
        turns.release(payer)

    tasks = []
    for payer in asks:
        tasks.append(asyncio.ensure_future(ask(payer)))
        await asyncio.sleep(0)  # queued in this order
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(*tasks)
    return order


def test_a_batch_of_one_payer_does_not_stand_before_another_payers_ask() -> None:
    asks = ["tournament"] * 16 + ["ada"]
    order = asyncio.run(_served_order(2, asks))
    # two places: the batch's first two think at once, then Ada is next, not 17th
    assert order[:3] == ["tournament", "tournament", "ada"]
    assert sorted(order) == sorted(asks)


def test_free_places_go_round_the_payers_in_turn() -> None:
    asks = ["a"] * 4 + ["b"] * 4 + ["c"]
    order = asyncio.run(_served_order(1, asks))
    assert order == ["a", "b", "c", "a", "b", "a", "b", "a", "b"]


def test_an_ask_given_up_while_waiting_leaves_its_place_to_others() -> None:
    async def run() -> tuple[int, list[str]]:
        turns = FairTurns(1)
        await turns.take("holder")
        gone = asyncio.ensure_future(turns.take("gone"))
        served: list[str] = []

        async def wait(payer: str) -> None:
            await turns.take(payer)
            served.append(payer)
            turns.release(payer)

        later = asyncio.ensure_future(wait("later"))
        await asyncio.sleep(0)
        gone.cancel()  # the table closed while its bot waited
        await asyncio.sleep(0)
        turns.release("holder")  # the holder is done: the place skips the one who left
        await later
        return turns.busy, served

    busy, served = asyncio.run(run())
    assert served == ["later"] and busy == 0
