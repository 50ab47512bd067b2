"""High Card, a toy game that lives outside parlour: its own folder and one registry line.

It exists to prove the architecture's promise (docs/architecture.md): a game is its folder plus
its manifest, and the terminal, the simulator, the bots, the adapters, the server and the browser
client all serve it with no change of their own. Register it with
`parlour.core.registry.register_package("toy_game")` (this folder's parent on `sys.path`), or
`PARLOUR_GAMES=toy_game` for child processes.

The game: a pack of cards 1..9, twice; each player is dealt three. In turn each plays one card
face up and scores its number, then draws one while the pack lasts. When every hand is empty the
highest score wins.
"""

from parlour.core.registry import GameInfo, WebAssets

MANIFESTS = (
    GameInfo(
        name="toy",
        title="High Card",
        summary="Play your cards one by one; the highest total wins (a test game).",
        players=(2, 4),
        default_players=2,
        package=__name__,
        rules="engine:ToyRules",
        presets="engine:PRESETS",
        default_preset="standard",
        engine="engine:ToyGame",
        describe="describe:describe_event",
        render="describe:render",
        bots={"greedy": "bots:HighestBot"},
        encoding="encoding:ToyEncoding",
        web=WebAssets("web", module="toy.js", stylesheet="toy.css"),
    ),
)
