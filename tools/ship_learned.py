"""Ship a trained network as a learned bot's weights, with its card.

    .venv/bin/python tools/ship_learned.py RUN_DIR [RUN_DIR ...] [--note TEXT]

Each RUN_DIR is a `parlour train` folder (weights.npz, card.json); several are one lineage, in
order, each later run started from the one before (`--init`). The last run's weights go to the
game's `learned/weights/PRESET-Np.npz`, and the card beside it (`.json`) names every run: its
command, seed, decisions, hours, device and commit, with the totals.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import shutil
from pathlib import Path

from parlour.core.registry import info


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("runs", nargs="+", help="run folders, the first run first")
    ap.add_argument("--note", default="", help="a sentence for the card (where it was trained)")
    args = ap.parse_args()
    cards = [json.loads((Path(r) / "card.json").read_text(encoding="utf-8")) for r in args.runs]
    last = cards[-1]
    game, rules, players = last["game"], last["rules"], last["players"]
    for c in cards:
        if (c["game"], c["rules"], c["players"]) != (game, rules, players):
            raise SystemExit("the runs are of different games, rules or tables")
    module = importlib.import_module(info(game).package + ".learned")
    folder = Path(module.__file__ or "").parent
    target = folder / "weights" / f"{rules}-{players}p.npz"
    target.parent.mkdir(exist_ok=True)
    shutil.copyfile(Path(args.runs[-1]) / "weights.npz", target)
    size = target.stat().st_size
    if size > 2 * 1024 * 1024:
        raise SystemExit(f"{target} is {size:,} bytes: over the 2 MB a shipped network may weigh")

    def total(key: str, device: str | None = None) -> float:
        return round(
            sum(float(c[key]) for c in cards if device is None or c["device"].startswith(device)),
            3,
        )

    card = {
        "game": game,
        "rules": rules,
        "players": players,
        "weights": target.name,
        "bytes": size,
        "note": args.note,
        "decisions": sum(c["decisions"] for c in cards),
        "wall_hours": total("wall_hours"),
        "cpu_hours": total("cpu_hours", "cpu"),
        "gpu_hours": total("wall_hours", "gpu"),
        "shipped": datetime.date.today().isoformat(),
        "runs": cards,
    }
    target.with_suffix(".json").write_text(json.dumps(card, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {target} ({size:,} bytes) and its card")


if __name__ == "__main__":
    main()
