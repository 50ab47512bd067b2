"""The layers know no game: a game lives in its folder and its manifest (docs/architecture.md).

Nothing in the server, the bots, the simulator, the adapters, the batched machinery
(`parlour.vector`), training (`parlour.learn`), the game review, the command line or the
browser's shared shell names a game: they reach every game through the registry and the protocol.
(The core names the built-in game packages once, in the registry's one line per game.)
"""

from __future__ import annotations

import re
from pathlib import Path

import parlour

SRC = Path(__file__).resolve().parents[1] / "src" / "parlour"
GAME_FREE = [
    SRC / "server",
    SRC / "bots",
    SRC / "sim",
    SRC / "adapters",
    SRC / "vector",
    SRC / "learn",
    SRC / "review",
    SRC / "cli.py",
]


def game_words() -> re.Pattern[str]:
    words: set[str] = set()
    for name, gi in parlour.core.games().items():
        words.update((name, name.split("-")[0]))
        words.add(gi.title.split(" — ")[0].rstrip("!"))
    alts = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"\b(?:{alts})\b", re.IGNORECASE)


def files(root: Path) -> list[Path]:
    if root.is_file():
        return [root]
    return [p for p in root.rglob("*") if p.suffix in (".py", ".js", ".css", ".html", ".md")]


def test_no_layer_outside_the_games_names_a_game() -> None:
    pattern = game_words()
    found = []
    for root in GAME_FREE:
        for path in files(root):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                m = pattern.search(line)
                if m:
                    found.append(f"{path.relative_to(SRC)}:{n}: {m.group(0)!r} in {line.strip()}")
    assert not found, "\n".join(found)


def test_the_check_finds_a_game_name() -> None:
    assert game_words().search("a comment about Whot! rules")
    assert game_words().search('if name == "whoswho-books":')
