"""Build the browser tutorials from the real engine: `python tools/make_tutorials.py`.

Each tutorial is a few steps; each step starts from a position (docs/whot.md, docs/sorry.md), says
what to do, names the learner's move by its fields, and lets the others answer with moves named the
same way. The engine plays every move, so the file holds real views, legal moves, typed events and
their words — the same messages a table sends — and a move the script names that the rules refuse
stops the build. The browser plays them at /learn/GAME with the game's own module
(server/static/js/learn.js). `tests/test_tutorials.py` checks that the files are up to date.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import parlour
from parlour.core import NotLegalNow
from parlour.core.events import view_to_wire
from parlour.games.whot.view import WhotView

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "src" / "parlour" / "games"

Pick = Callable[[dict[str, Any]], bool]


def fields(**want: Any) -> Pick:
    """A move whose fields include `want`."""
    return lambda f: all(f.get(k) == v for k, v in want.items())


def message(
    state: parlour.State, names: list[str], seen: int, ply: int, me: int = 0
) -> dict[str, Any]:
    """The `view` message the server would send seat `me` (see server/wire.py)."""
    gi = parlour.core.info(state.game.name)
    view = view_to_wire(state.view(me))
    events = view.pop("events")
    legal = state.legal_moves() if state.to_play == me else []
    msg: dict[str, Any] = {
        "type": "view",
        "table": "LEARN",
        "game_number": 0,
        "ply": ply,
        "seat": me,
        "to_play": state.to_play,
        "view": view,
        "seats": list(range(state.game.players)),
        "events_from": seen,
        "events": events[seen:],
        "log": [gi.describe_event(e, names) for e in state.view(me)["events"][seen:]],
        "moves": [m.to_wire() for m in legal],
        "clock": None,
        "status": "playing",
    }
    if state.is_over:
        msg["result"] = state.result().to_dict()
        msg["status"] = "finished"
    return msg


def why_not(state: parlour.State, texts: list[str]) -> dict[str, str]:
    """The rules' reason for each of `texts` that is not legal now."""
    out = {}
    for text in texts:
        try:
            state.check(text)
        except NotLegalNow as exc:
            out[text] = exc.why or exc.reason
        except parlour.core.IllegalMove:
            continue
    return out


def build(
    game: str, players: int, rules: str, names: list[str], title: str, intro: str,
    steps: list[dict[str, Any]], tries: Callable[[parlour.State], list[str]],
) -> dict[str, Any]:  # fmt: skip
    g = parlour.make(game, players=players, rules=rules)
    out_steps = []
    for k, step in enumerate(steps):
        state = g.new_game(seed=k + 1, position=step["position"])
        assert state.to_play == 0, f"step {k + 1}: the learner (player 0) must be to play"
        before = message(state, names, 0, 0)
        why = why_not(state, tries(state))
        after: list[dict[str, Any]] = []
        expect = ""
        for n, pick in enumerate([step["learner"], *step.get("replies", [])]):
            legal = state.legal_moves()
            found = [m for m in legal if pick(m.fields())]
            assert found, f"step {k + 1}, move {n + 1}: none legal of {[str(m) for m in legal]}"
            seen = len(state.view(0)["events"])
            state.apply(found[0])
            after.append(message(state, names, seen, n + 1))
            expect = expect or str(found[0])
        out_steps.append(
            {
                "say": step["say"],
                "expect": expect,
                "wrong": step["wrong"],
                "done": step["done"],
                "why": why,
                "before": before,
                "after": after,
            }
        )
    return {
        "format": "parlour-tutorial/1",
        "game": game,
        "rules": rules,
        "players": players,
        "names": names,
        "title": title,
        "intro": intro,
        "steps": out_steps,
    }


# --- Whot! (Nigerian rules) -------------------------------------------------------------------
def whot() -> dict[str, Any]:
    def tries(state: parlour.State) -> list[str]:
        return [f"play {c}" for c in cast(WhotView, state.view(0))["hand"] if c != "whot"]

    ada = ["7 circle", "7 square", "10 cross", "2 star", "8 star"]
    steps = [
        {
            "position": {
                "hands": [ada, ["7 triangle", "3 square", "5 cross", "11 cross", "10 triangle"]],
                "pile": ["4 circle"],
                "to_play": 0,
            },
            "say": "The card on top of the pile is the call card: a 4 circle. Play a card of the "
            "same symbol or the same number. Your 7 circle is raised: tap it.",
            "learner": fields(kind="play", card="7 circle"),
            "replies": [fields(kind="play", card="7 triangle")],
            "wrong": "Look for a circle or a 4: the 7 circle is the one that follows.",
            "done": "Well played. Bola followed with the 7 triangle: same number, new symbol.",
        },
        {
            "position": {
                "hands": [ada[1:], ["3 square", "5 cross", "11 cross", "10 triangle"]],
                "pile": ["4 circle", "7 circle", "7 triangle"],
                "pack": ["whot"],
                "to_play": 0,
            },
            "say": "A number follows too, whatever its symbol. Play your 7 square on the 7 "
            "triangle.",
            "learner": fields(kind="play", card="7 square"),
            "replies": [fields(kind="play", card="3 square")],
            "wrong": "The call card is a 7 triangle: play the other 7, the 7 square.",
            "done": "Bola answered with a square.",
        },
        {
            "position": {
                "hands": [["10 cross", "2 star", "8 star"], ["3 cross", "11 cross", "10 triangle"]],
                "pile": ["7 triangle", "7 square", "3 square"],
                "pack": ["whot", "1 circle"],
                "to_play": 0,
            },
            "say": "Nothing in your hand is a square or a 3. Go to market: tap the market to "
            "draw a card.",
            "learner": fields(kind="draw"),
            "replies": [fields(kind="play", card="3 cross")],
            "wrong": "No card of yours follows a 3 square: the market is the only move.",
            "done": "You drew a WHOT card! Bola played the 3 cross.",
        },
        {
            "position": {
                "hands": [["10 cross", "2 star", "8 star", "whot"], ["11 cross", "10 triangle"]],
                "pile": ["3 square", "3 cross"],
                "pack": ["1 circle", "4 triangle"],
                "to_play": 0,
            },
            "say": "A WHOT goes on any card, and you call the symbol the next player must follow. "
            "Bola holds no stars: tap the WHOT, then call star.",
            "learner": fields(kind="play", card="whot", call="star"),
            "replies": [fields(kind="draw")],
            "wrong": "Tap the WHOT card and choose star in the box that opens.",
            "done": "Bola had no star and went to market.",
        },
        {
            "position": {
                "hands": [
                    ["10 cross", "2 star", "8 star"],
                    ["11 cross", "10 triangle", "1 circle"],
                ],
                "pile": ["3 cross", "whot"],
                "call": "star",
                "pack": ["4 triangle", "12 circle"],
                "to_play": 0,
            },
            "say": "In these rules a 2 is Pick two: the next player picks two cards unless they "
            "answer with a 2. Play the 2 star.",
            "learner": fields(kind="play", card="2 star"),
            "replies": [fields(kind="draw")],
            "wrong": "Star is called: play the 2 star and Bola must pick two.",
            "done": "Bola picked two cards from the market.",
        },
        {
            "position": {
                "hands": [["8 star"], ["11 cross", "10 triangle", "4 triangle", "12 circle"]],
                "pile": ["whot", "2 star"],
                "to_play": 0,
            },
            "say": "One card left, and it follows the star. Play your last card to win.",
            "learner": fields(kind="play", card="8 star"),
            "wrong": "Play the 8 star: it is your last card.",
            "done": "You won! The first to play their last card wins the game.",
        },
    ]
    return build(
        "whot", 2, "nigerian", ["Ada", "Bola"], "Learn Whot! in six moves",
        "You are Ada, playing Nigerian rules against Bola. Follow the call card by symbol or "
        "number, go to market when nothing follows, and be the first to play your last card.",
        steps, tries,
    )  # fmt: skip


# --- Sorry! (regular rules) --------------------------------------------------------------------
def sorry() -> dict[str, Any]:
    def tries(state: parlour.State) -> list[str]:
        return []

    steps = [
        {
            "position": {"pawns": {"red": [], "yellow": ["y9"]}, "turn": "red", "card": "1"},
            "say": "You play red. A pawn leaves START only with a 1 or a 2. Your card is a 1: tap "
            "your START circle, then the ringed square next to it.",
            "learner": fields(kind="enter"),
            "wrong": "Tap the red START circle, then the ringed square.",
            "done": "Your pawn is out, on its start square.",
        },
        {
            "position": {"pawns": {"red": ["r4"], "yellow": ["y9"]}, "turn": "red", "card": "5"},
            "say": "A 5 moves a pawn five squares forward. Tap your pawn on r4, then the ringed "
            "square five ahead.",
            "learner": fields(kind="move", pawn="r4", steps=5),
            "wrong": "Tap the red pawn, then the ring five squares ahead.",
            "done": "Counted out: one square at a time.",
        },
        {
            "position": {"pawns": {"red": ["r14"], "yellow": ["y9"]}, "turn": "red", "card": "2"},
            "say": "A pawn that ends on the start of another colour's slide slides to its end. "
            "Move two forward onto blue's slide.",
            "learner": fields(kind="move", pawn="r14", steps=2),
            "wrong": "Move the pawn on r14 two forward, onto the blue triangle.",
            "done": "It slid down the blue slide, four squares more.",
        },
        {
            "position": {"pawns": {"red": ["b12"], "yellow": ["y9"]}, "turn": "red", "card": "S"},
            "say": "SORRY! takes a pawn from your START to any square an opponent's pawn is on, "
            "and sends that pawn back to its START. Tap your START, then yellow's pawn on y9.",
            "learner": fields(kind="sorry", target="y9"),
            "wrong": "Tap the red START, then the ring on yellow's pawn.",
            "done": "Sorry, yellow! That pawn is back in its START.",
        },
        {
            "position": {"pawns": {"red": ["r5"], "yellow": []}, "turn": "red", "card": "4"},
            "say": "A 4 moves a pawn four squares backward — the quick way round to your safety "
            "zone and HOME. Move the pawn on r5 back four.",
            "learner": fields(kind="move", pawn="r5", steps=-4),
            "wrong": "Tap the pawn on r5, then the ring four squares behind it.",
            "done": "Backward past your START exit: next time it is close to HOME. Bring all four "
            "pawns HOME to win!",
        },
    ]
    return build(
        "sorry", 2, "regular", ["Ada", "Bola"], "Learn Sorry! in five moves",
        "You are Ada, red, against Bola, yellow. Draw a card, move a pawn by it, and bring all "
        "four of your pawns from START to HOME before Bola does.",
        steps, tries,
    )  # fmt: skip


TUTORIALS = {"whot": whot, "sorry": sorry}


def text(game: str) -> str:
    return json.dumps(TUTORIALS[game](), indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    for game in TUTORIALS:
        path = GAMES / game / "web" / "tutorial.json"
        path.write_text(text(game), encoding="utf-8")
        print(f"{path.relative_to(ROOT)}: {len(json.loads(path.read_text())['steps'])} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
