"""Random-play speed of parlour's Whot! beside two peer engines.

    python benchmarks/whot_speed.py            # 3 s per figure, 8 figures
    python benchmarks/whot_speed.py --quick    # a short smoke run
    python benchmarks/whot_speed.py --players 2 --presets nigerian --seconds 12 --rounds 12

Every engine is driven by the same kind of Python loop: each turn, list the legal moves, pick one
uniformly at random with `random.Random(seed)`, apply it, until the game ends. Whole games are
played until the time budget of a figure is used up; building and dealing each game is timed too.
Time is CPU time (time.process_time), so that other processes on a shared machine weigh less. Each
figure's time is split into rounds taken in turn with the other figures, so that a change in the
machine's load during the run falls on every engine alike; the tables give the min/median/max of
the rounds' figures, and each ratio is taken round by round (parlour's figure of a round divided by
the peer's of the same round) before its min/median/max.

* parlour: `parlour.make("whot", players=n, rules=preset)`, moves = calls to `State.apply`.
* whot 0.0.6 (PyPI): it has no legal-move listing, so the loop computes the plays its engine
  accepts from the engine's public state (see `whot_legal_moves`); moves = turns taken, where a
  WHOT played with its call (`play` then `request`) is one move, as in parlour. It deals as many
  cards as parlour's `nigerian` preset.
* OpenSpiel `crazy_eights` (C++ engine through pybind11): chance nodes are resolved by sampling
  `chance_outcomes()`, decisions by `rng.choice(state.legal_actions())`; moves = decisions
  (draws, plays, suit nominations, passes); chance outcomes are counted separately.

After the figures, untimed games played the same way say what the moves counted were on each side
(their kinds, the legal moves on offer and the cards in hand): a check that the ratios compare like
with like.

The peers are optional (`pip install -e '.[peers]'`, as `make bench` does). Nothing is asserted:
the script only prints figures.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import os
import platform
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from _timing import GameTally, Measurement, measure_rounds

PRESETS = ("nigerian", "storey-1935")
PLAYER_COUNTS = (2, 4)
WHOT_VERSION = "0.0.6"
WHOT_DEFAULT_DEAL = 4  # the package's own; parlour's nigerian deal is used when parlour loads
TARGET_VS_OPENSPIEL = 2.0  # issue 21: "the scalar engine at ≥ 2× OpenSpiel's Python-loop speed"
TARGET_VS_WHOT = 5.0
INSTALL_HINT = "install the peers with `pip install -e '.[peers]'` (or run `make bench`)"

PlayGame = Callable[[int], GameTally]


@dataclass(frozen=True)
class Plan:
    """One configuration to measure: an engine, its rules and a table size."""

    engine: str  # "parlour", "whot" or "openspiel"
    label: str  # the engine and its version, as printed
    rules: str
    players: int
    play: PlayGame


@dataclass(frozen=True)
class Figure:
    """One measured configuration."""

    engine: str
    label: str
    rules: str
    players: int
    result: Measurement  # the rounds added up
    rounds: list[Measurement]


# --- parlour --------------------------------------------------------------------------------------


def import_parlour() -> ModuleType:
    """parlour as installed, or else from this checkout's src/ (running without `pip install`)."""
    try:
        return importlib.import_module("parlour")
    except ImportError:
        src = Path(__file__).resolve().parent.parent / "src"
        sys.path.insert(0, str(src))
        return importlib.import_module("parlour")


def parlour_player(
    parlour: ModuleType, players: int, preset: str, max_moves: int
) -> tuple[PlayGame, int | None]:
    """A whole random game of parlour's Whot! through the public API, and the preset's deal."""
    game = parlour.make("whot", players=players, rules=preset)

    def play(seed: int) -> GameTally:
        choice = random.Random(seed).choice
        state = game.new_game(seed=seed)
        moves = 0
        while not state.is_over:
            state.apply(choice(state.legal_moves()))
            moves += 1
            if moves >= max_moves:
                return GameTally(moves, cut_off=True)
        return GameTally(moves)

    deal = getattr(game.rules, "deal", None)
    return play, deal if isinstance(deal, int) else None


# --- whot 0.0.6 (PyPI) ----------------------------------------------------------------------------

# The symbols a WHOT may call (the package refuses "whot" itself).
WHOT_CALLS = ("circle", "triangle", "cross", "square", "star")
# A move of the `whot` package: (card index, call) — or MARKET, going to market (drawing).
WhotMove = tuple[int, str | None]
MARKET: WhotMove = (-1, None)


def whot_legal_moves(engine: Any) -> list[WhotMove]:
    """Every move the package's engine accepts now, from its public state.

    The package has no legal-move listing, so this mirrors the checks of `Engine.play` (with its
    defaults: Nigerian mode, pick two, hold on, suspension, general market; no pick three):
    - going to market is always allowed;
    - while a pick is pending, only a card of the picking number (2, or 5 for pick three) defends;
    - otherwise a WHOT may always be played, calling one of the five symbols (with its last card
      no call follows: the game is over);
    - after a call only the called symbol follows (no call yet, after a WHOT turned up: only
      WHOT); else a card matching the top card's symbol or number.
    Identical cards (the five WHOTs) give one move, not one per copy.
    """
    player = engine.current_player.player_id
    view = engine.view(player)
    hand = view["players"][player]
    moves: list[WhotMove] = [MARKET]
    seen: set[Any] = set()
    if engine.pick_mode:
        need = 2 if engine.pick == 2 else 5
        for i, card in enumerate(hand):
            if card.face == need and card not in seen:
                seen.add(card)
                moves.append((i, None))
        return moves
    if engine.request_mode:
        suit, face = engine.requested_suit, None
    else:
        top = view["pile_top"]
        suit, face = top.suit, top.face
    last_card = len(hand) == 1
    for i, card in enumerate(hand):
        if card in seen:
            continue
        seen.add(card)
        if card.suit.value == "whot":
            if last_card:
                moves.append((i, None))
            else:
                moves.extend((i, call) for call in WHOT_CALLS)
        elif card.suit == suit or card.face == face:
            moves.append((i, None))
    return moves


def whot_player(whot: ModuleType, players: int, deal: int, max_moves: int) -> PlayGame:
    """A whole random game of the `whot` package with its default rules, `deal` cards each."""
    engine_class = whot.Whot

    def play(seed: int) -> GameTally:
        random.seed(seed)  # the package shuffles with the module-level generator
        choice = random.Random(seed).choice
        engine = engine_class(number_of_players=players, number_of_cards=deal)
        engine.start_game()
        moves = 0
        while not engine.game_over:
            index, call = choice(whot_legal_moves(engine))
            if index < 0:
                engine.market()
            else:
                engine.play(index)
                if call is not None:
                    engine.request(call)
            moves += 1
            if moves >= max_moves:
                return GameTally(moves, cut_off=True)
        return GameTally(moves)

    return play


# --- OpenSpiel crazy_eights -----------------------------------------------------------------------


def openspiel_player(pyspiel: ModuleType, players: int, max_moves: int) -> PlayGame:
    """A whole random game of OpenSpiel's crazy_eights (default parameters) from Python."""
    game = pyspiel.load_game("crazy_eights", {"players": players})

    def play(seed: int) -> GameTally:
        rng = random.Random(seed)
        choice, choices = rng.choice, rng.choices
        state = game.new_initial_state()
        moves = chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(choices(actions, probs)[0])
                chance += 1
            else:
                state.apply_action(choice(state.legal_actions()))
                moves += 1
                if moves >= max_moves:
                    return GameTally(moves, chance, cut_off=True)
        # The player who went out scores 0; every hand still holding cards scores below 0.
        return GameTally(moves, chance, cut_off=max(state.returns()) < 0)

    return play


# --- what a move is on each side (untimed) -------------------------------------------------------


@dataclass(frozen=True)
class Census:
    """What the moves counted were, over some games played as the timed loop plays them."""

    moves: int
    kinds: dict[str, int]  # moves by kind
    legal: float  # legal moves on offer, a move on average
    hand: float  # cards in the mover's hand, a move on average
    chance: int = 0  # chance outcomes sampled by the loop (OpenSpiel)

    def line(self) -> str:
        kinds = sorted(self.kinds.items(), key=lambda kv: -kv[1])
        shares = ", ".join(f"{k} {v / self.moves:.1%}" for k, v in kinds)
        text = f"{shares}; {self.legal:.1f} legal moves from {self.hand:.1f} cards in hand a move"
        if self.chance:
            text += f"; {self.chance / self.moves:.2f} chance outcomes a move"
        return text


def parlour_census(parlour: ModuleType, players: int, preset: str, games: int) -> Census:
    """The moves of `games` random games, by kind (a WHOT played with its call is `whot`)."""
    game = parlour.make("whot", players=players, rules=preset)
    kinds: dict[str, int] = {}
    moves = legal_total = hand_total = 0
    for seed in range(games):
        choice = random.Random(seed).choice
        state = game.new_game(seed=seed)
        while not state.is_over:
            legal = state.legal_moves()
            move = choice(legal)
            fields = move.fields()
            kind = "whot" if fields.get("card") == "whot" else fields["kind"]
            kinds[kind] = kinds.get(kind, 0) + 1
            legal_total += len(legal)
            # (the engine's own list: a view copies the events, and these games run long)
            hand_total += len(state.hands[state.to_play])
            moves += 1
            state.apply(move)
    return Census(moves, kinds, legal_total / moves, hand_total / moves)


def openspiel_census(pyspiel: ModuleType, players: int, games: int) -> Census:
    """The decisions of `games` random crazy_eights games, by kind (the first word of
    `action_to_string`: Play, Draw, Pass, Nominate)."""
    game = pyspiel.load_game("crazy_eights", {"players": players})
    kinds: dict[str, int] = {}
    moves = legal_total = hand_total = chance = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                chance += 1
                continue
            legal = state.legal_actions()
            action = rng.choice(legal)
            player = state.current_player()
            kind = state.action_to_string(player, action).split()[0].lower()
            kinds[kind] = kinds.get(kind, 0) + 1
            legal_total += len(legal)
            # the mover's hand: its observation starts with a pair (0 held, 1 held) for each card
            hand_total += int(sum(state.observation_tensor(player)[1:104:2]))
            moves += 1
            state.apply_action(action)
    return Census(moves, kinds, legal_total / moves, hand_total / moves, chance)


# --- the run --------------------------------------------------------------------------------------


def optional_import(name: str) -> tuple[ModuleType | None, str]:
    try:
        return importlib.import_module(name), ""
    except ImportError as exc:
        return None, str(exc)


def dist_version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def fmt(x: float, digits: int = 0) -> str:
    return f"{x:,.{digits}f}"


def spread(xs: Sequence[float], digits: int = 0, suffix: str = "") -> str:
    """min/median/max of `xs`."""
    return "/".join(f"{x:,.{digits}f}{suffix}" for x in (min(xs), statistics.median(xs), max(xs)))


def print_table(figures: Sequence[Figure]) -> None:
    head = (
        f"{'engine':<16} {'rules':<14} {'players':>7} {'moves/s min/median/max':>28} "
        f"{'games/s':>9} {'moves/game':>10} {'games':>7} {'cut off':>7} {'+chance/s':>10}"
    )
    print(head)
    print("-" * len(head))
    for f in figures:
        r = f.result
        with_chance = fmt(r.actions_per_s) if r.other else "-"
        per_round = spread([x.moves_per_s for x in f.rounds])
        print(
            f"{f.label:<16} {f.rules:<14} {f.players:>7} {per_round:>28} "
            f"{fmt(r.games_per_s, 1):>9} {fmt(r.moves_per_game, 1):>10} {r.games:>7,} "
            f"{r.cut_off:>7,} {with_chance:>10}"
        )
    print("(moves/s: each round's figure; the other columns: all rounds together)")


def print_ratios(
    ours: Sequence[Figure], openspiel: dict[int, Figure], whot: dict[int, Figure]
) -> None:
    print()
    print(
        f"Ratios of parlour's moves/s, round by round, min/median/max (targets: "
        f"≥ {TARGET_VS_OPENSPIEL:g}× OpenSpiel crazy_eights, ≥ {TARGET_VS_WHOT:g}× whot "
        f"{WHOT_VERSION}; the verdict reads the median)"
    )
    head = (
        f"{'parlour rules':<14} {'players':>7} {'÷ OpenSpiel':>20} {'':<7} "
        f"{'÷ OpenSpiel+chance':>20} {'÷ whot':>20} {'':<7}"
    )
    print(head)
    print("-" * len(head))

    def cell(
        ours: Figure, peer: Figure | None, per_s: str, target: float | None = None
    ) -> tuple[str, str]:
        if peer is None:
            return "n/a", ""
        ratios = [
            a.moves_per_s / getattr(b, per_s)
            for a, b in zip(ours.rounds, peer.rounds, strict=True)
            if getattr(b, per_s)
        ]
        if not ratios:
            return "n/a", ""
        verdict = ""
        if target is not None:
            verdict = "met" if statistics.median(ratios) >= target else "NOT met"
        return spread(ratios, 2, "×"), verdict

    for f in ours:
        spiel = openspiel.get(f.players)
        package = whot.get(f.players)
        os_ratio, os_verdict = cell(f, spiel, "moves_per_s", TARGET_VS_OPENSPIEL)
        all_ratio, _ = cell(f, spiel, "actions_per_s")
        wh_ratio, wh_verdict = cell(f, package, "moves_per_s", TARGET_VS_WHOT)
        print(
            f"{f.rules:<14} {f.players:>7} {os_ratio:>20} {os_verdict:<7} "
            f"{all_ratio:>20} {wh_ratio:>20} {wh_verdict:<7}"
        )
    print(
        "(÷ OpenSpiel counts its decisions only, the target's measure; ÷ OpenSpiel+chance divides"
        " by\n its decisions and chance outcomes together, the stricter reading.)"
    )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="CPU time per figure, in seconds (default 3; 0.25 with --quick)",
    )
    parser.add_argument("--seed", type=int, default=7, help="seed of the first game (default 7)")
    parser.add_argument(
        "--quick", action="store_true", help="a short run (a smoke test of the script)"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=None,
        help="split each figure's time into this many rounds interleaved across the engines, "
        "so that changes in machine load hit all alike (default 3; 1 with --quick)",
    )
    parser.add_argument(
        "--players",
        default=",".join(map(str, PLAYER_COUNTS)),
        help="table sizes to measure, comma-separated (default 2,4)",
    )
    parser.add_argument(
        "--presets",
        default=",".join(PRESETS),
        help=f"parlour presets to measure, comma-separated (default {','.join(PRESETS)})",
    )
    parser.add_argument(
        "--census-games",
        type=int,
        default=None,
        help="untimed games per figure that say what its moves were (default 300 of OpenSpiel's, "
        "a tenth as many of parlour's long random games but at least 3; 0 skips; 20 with --quick)",
    )
    parser.add_argument(
        "--max-moves",
        type=int,
        default=1_000_000,
        help="abandon a game after this many moves, counting it as cut off (default 1000000)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    seconds: float = args.seconds if args.seconds is not None else (0.25 if args.quick else 3.0)
    rounds: int = args.rounds if args.rounds is not None else (1 if args.quick else 3)
    seed: int = args.seed
    cap: int = args.max_moves
    player_counts = [int(x) for x in args.players.split(",")]
    presets = [x for x in args.presets.split(",") if x]
    census_games: int = (
        args.census_games if args.census_games is not None else (20 if args.quick else 300)
    )

    print("parlour Whot! speed: random play through each engine's Python API")
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}) "
        f"on {platform.platform()}, {platform.machine()}"
    )
    print(f"CPU: {cpu_name()}, {os.cpu_count()} logical cores")
    print(
        f"Each figure: whole games for {seconds:g} s of CPU time (time.process_time) in "
        f"{rounds} round(s) interleaved with the other figures, game seeds from {seed}; "
        f"a game is abandoned after {cap:,} moves."
    )
    print()

    notes: list[str] = []
    plans: list[Plan] = []
    whot_deal = WHOT_DEFAULT_DEAL

    parlour: ModuleType | None
    try:
        parlour = import_parlour()
    except ImportError as exc:
        parlour = None
        notes.append(f"parlour: cannot import it ({exc}); run `pip install -e .` first.")
    if parlour is not None:
        label = f"parlour {getattr(parlour, '__version__', '?')}"
        for players in player_counts:
            for preset in presets:
                try:
                    play, deal = parlour_player(parlour, players, preset, cap)
                except Exception as exc:  # the engine may still be being written: say so
                    notes.append(
                        f"{label}: whot/{preset} for {players} players is not available "
                        f"({type(exc).__name__}: {exc})."
                    )
                    continue
                if preset == "nigerian" and deal is not None:
                    whot_deal = deal
                plans.append(Plan("parlour", label, preset, players, play))

    whot, why = optional_import("whot")
    if whot is None:
        notes.append(f"whot {WHOT_VERSION}: not installed ({why}); {INSTALL_HINT}.")
    else:
        version = dist_version("whot")
        if version != WHOT_VERSION:
            notes.append(f"whot: measured version {version}, not the {WHOT_VERSION} compared.")
        for players in player_counts:
            play = whot_player(whot, players, whot_deal, cap)
            plans.append(Plan("whot", f"whot {version}", "Nigerian (pkg)", players, play))

    pyspiel, why = optional_import("pyspiel")
    if pyspiel is None:
        notes.append(f"OpenSpiel: not installed ({why}); {INSTALL_HINT}.")
    else:
        label = f"OpenSpiel {dist_version('open-spiel')}"
        for players in player_counts:
            play = openspiel_player(pyspiel, players, cap)
            plans.append(Plan("openspiel", label, "crazy_eights", players, play))

    def progress(round_: int, index: int) -> None:
        plan = plans[index]
        sys.stdout.flush()
        print(
            f"  round {round_ + 1}/{rounds}: {plan.label} {plan.rules} {plan.players}p …",
            file=sys.stderr,
            flush=True,
        )

    results = measure_rounds([p.play for p in plans], seconds, seed, rounds, progress)
    figures = [
        Figure(p.engine, p.label, p.rules, p.players, sum(r[1:], r[0]), r)
        for p, r in zip(plans, results, strict=True)
    ]
    ours = [f for f in figures if f.engine == "parlour"]
    whot_figures = {f.players: f for f in figures if f.engine == "whot"}
    openspiel_figures = {f.players: f for f in figures if f.engine == "openspiel"}

    if figures:
        print_table(figures)
    for note in notes:
        print(f"! {note}")
    if ours and (whot_figures or openspiel_figures):
        print_ratios(ours, openspiel_figures, whot_figures)

    print()
    print("What is counted:")
    print("  parlour    moves = calls to State.apply (a WHOT with its call is one move).")
    print(
        "  whot       moves = turns: a play (a WHOT's play + request together) or going to\n"
        "             market. The package lists no legal moves: the loop computes the plays its\n"
        "             engine accepts from its public state (view(), pick/request flags) and picks\n"
        "             uniformly among them and market, as parlour lists them (one move per\n"
        "             distinct card, five calls for a WHOT, draw always allowed). Package rules\n"
        f"             (Nigerian mode, no pick three), {whot_deal} cards dealt."
    )
    print(
        "  OpenSpiel  moves = decision-node actions (draw, play, nominate suit, pass); the\n"
        "             +chance/s column adds the chance outcomes (the deal, each card drawn),\n"
        "             which this loop samples in Python too. Default parameters: max_turns=100\n"
        "             card plays, max_draw_cards=5, no reshuffle, no special cards; 'cut off'\n"
        "             counts games that ended without a winner."
    )
    if census_games > 0:
        print_census(parlour, pyspiel, ours, player_counts, census_games)
    return 0


def print_census(
    parlour: ModuleType | None,
    pyspiel: ModuleType | None,
    ours: Sequence[Figure],
    player_counts: Sequence[int],
    games: int,
) -> None:
    """What the moves counted were on each side, from untimed games played the same way."""
    print()
    print(
        "The moves counted, by kind (untimed games played as the timed loops play them; seeds "
        "from 0):"
    )
    if parlour is not None:
        for f in ours:
            n = max(3, games // 10)  # random Whot! games run to thousands of moves
            census = parlour_census(parlour, f.players, f.rules, n)
            print(f"  parlour {f.rules} {f.players}p ({n} games): {census.line()}")
    if pyspiel is not None:
        for players in player_counts:
            census = openspiel_census(pyspiel, players, games)
            print(f"  OpenSpiel crazy_eights {players}p ({games} games): {census.line()}")
    print(
        "  Both sides count one move per decision, each one legal-move listing, one choice and\n"
        "  one apply: like for like. Where they differ, it is against parlour: a WHOT's call is\n"
        "  part of its play (one move) where an 8's suit is a decision of its own in OpenSpiel\n"
        "  (nominate), and random Whot! hands grow larger (more legal moves to list). Against\n"
        "  OpenSpiel: its draws need a chance outcome sampled in Python (timed, not counted: the\n"
        "  +chance column counts them), and its games are short (most cut off at 100 turns), so\n"
        "  its deal weighs more a move."
    )


if __name__ == "__main__":
    raise SystemExit(main())
