"""Whot! — every rule set of the sources (seeds 000, 001, 002): Storey's 1935 rules, Nigerian,
English, Knock-out, and the variant tables of special cards.

This module is the game's manifest: what parlour needs to know, with every part named by reference
and imported only when used (the terminal's look needs Rich, the encoding NumPy; the engine needs
neither).
"""

from parlour.core.registry import GameInfo, WebAssets

__all__ = ["MANIFESTS"]

MANIFESTS = (
    GameInfo(
        name="whot",
        title="Whot!",
        summary="Shed your cards by symbol or number; WHOT calls the symbol (W. H. Storey, 1935).",
        players=(2, 17),  # seed 000: "For Two or any number of Players"; two packs seat 17
        default_players=4,
        package=__name__,
        rules="rules:WhotRules",
        presets="rules:PRESETS",
        default_preset="nigerian",
        engine="engine:WhotGame",
        describe="describe:describe_event",
        render="render:render",
        guide="render:guide",
        bots={
            "greedy": "bots:GreedyBot",
            "hint": "hint:WhotHintBot",
            "counter": "counter:CounterBot",
            "learned": "learned.bot:LearnedBot",
        },
        search="hint:SEARCH",
        encoding="encoding:WhotEncoding",
        batched="batched.engine:WhotBatch",
        train="learned.selfplay:WhotSelfPlay",
        web=WebAssets("web", module="whot.js", stylesheet="whot.css"),
    ),
)
