"""The engine imports only the standard library (docs/architecture.md, "Layers").

A fresh interpreter, without site-packages (`-S`) so that nothing but the standard library could
be found, imports parlour, makes and plays every game under every preset — views, results, saves,
records, positions, replays — and then lists what is in `sys.modules`: nothing may be there but
the standard library and parlour's own engine modules (no server, no bots, no adapters).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

PLAY_EVERY_GAME = """
import json, random, sys
import parlour
for name, gi in sorted(parlour.games().items()):
    for preset in gi.presets:
        game = parlour.make(name, rules=preset)
        state = game.new_game(seed=1)
        rng = random.Random(1)
        while not state.is_over:
            state.view(state.to_play)
            state.apply(rng.choice(state.legal_moves()))
        state.result()
        parlour.load(state.to_json())
        parlour.replay(state.record())
        start = game.new_game(seed=2)
        game.from_position(start.position(), seed=3)
        parlour.core.view_to_wire(start.view(0))
print(json.dumps(sorted(
    m for m in sys.modules
    if m.split(".")[0] not in sys.stdlib_module_names and m != "__main__"
    and not (m == "parlour" or m.startswith(("parlour.core", "parlour.games")))
)))
"""


def test_playing_every_game_imports_nothing_outside_the_standard_library() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(SRC)
    out = subprocess.run(
        [sys.executable, "-S", "-c", PLAY_EVERY_GAME],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    outside = json.loads(out.stdout.strip().splitlines()[-1])
    assert outside == [], f"the engine imported {outside}"


def test_the_check_would_see_an_import_from_outside() -> None:
    """The guard itself: a module from outside the engine does show up in the list."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(SRC)
    code = PLAY_EVERY_GAME.replace("import parlour\n", "import parlour\nimport parlour.bots\n", 1)
    out = subprocess.run(
        [sys.executable, "-S", "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert "parlour.bots" in json.loads(out.stdout.strip().splitlines()[-1])
