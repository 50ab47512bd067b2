"""The terminal as a person reads it (issue 31, item 15): words wrapped mid-word ("W" / "HOT"),
"choose 1 to 1", "▶ You (you)", Sorry! events printed twice, and a `help` silent on the card
powers and the board's symbols."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pexpect
import pytest

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "parlour.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def screen_lines(args: list[str], keys: list[str], columns: int) -> list[str]:
    """What `parlour` prints at a terminal `columns` wide, line by line, after `keys` are typed
    at its prompts (then `quit`)."""
    # the terminal's own size, as a person's shell has it (pytest sets COLUMNS to 80)
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "parlour.cli", *args],
        dimensions=(60, columns),
        encoding="utf-8",
        timeout=60,
        env=env,
    )
    seen = []
    for key in [*keys, "quit"]:
        child.expect("your move> ")
        seen.append(child.before)
        child.sendline(key)
    child.expect(pexpect.EOF)
    seen.append(child.before)
    text = ANSI.sub("", "".join(seen)).replace("\r", "")
    return text.split("\n")


def test_a_narrow_terminal_wraps_between_words_never_inside_one() -> None:
    # nine cards each: the hand's line is longer than the terminal is wide
    lines = screen_lines(
        ["play", "whot", "--players", "3", "--seed", "11", "--set", "deal=9"], ["help"], 34
    )
    hand = [i for i, line in enumerate(lines) if line.startswith("Your hand:")]
    assert hand, lines
    # every line fits the width (the terminal never breaks one for Rich), so no word is cut
    too_long = [line for line in lines if len(line.rstrip()) > 34 and "your move>" not in line]
    assert not too_long, too_long
    said = " ".join(lines[hand[0] : hand[0] + 4])
    assert "WHOT" in said or "star" in said or "circle" in said


def test_one_legal_move_is_not_a_choice_from_1_to_1() -> None:
    # Sorry!'s first card is often no use at all: the one legal move is to pass
    out = run("play", "sorry", "--players", "2", "--seed", "3", stdin="9\nquit\n").stdout
    assert "Legal moves: 1 pass" in out
    assert "There is no move 9: the only move is 1." in out
    assert "choose 1 to 1" not in out


@pytest.mark.parametrize("game", ["whot", "whoswho-tricks", "whoswho-books"])
def test_you_are_called_you_once(game: str) -> None:
    out = run("play", game, "--players", "3", "--seed", "3", stdin="quit\n").stdout
    assert "You (you)" not in out
    named = run("play", game, "--players", "3", "--seed", "3", "--name", "Ada", stdin="quit\n")
    assert "Ada (you)" in named.stdout


def test_sorry_events_are_printed_once() -> None:
    out = run("play", "sorry", "--players", "2", "--seed", "3", stdin="1\n" * 6 + "quit\n").stdout
    events = [line[4:] for line in out.splitlines() if line.startswith("  · ")]
    assert len(events) >= 4
    for said in set(events):
        # each event sentence is in the output as often as it happened: once a line, never
        # again in a summary under the board
        assert out.count(said) == events.count(said), said


def test_help_says_what_the_powers_and_the_board_symbols_mean() -> None:
    whot = run("play", "whot", "--players", "2", "--seed", "3", stdin="help\nquit\n").stdout
    assert "Powers in these rules" in whot and "14: general market" in whot
    assert "hint   what the medium bot would play" in whot  # the hint bot's level, by name
    sorry = run("play", "sorry", "--players", "2", "--seed", "3", stdin="help\nquit\n").stdout
    assert "a slide: a pawn that stops on the ▶" in sorry and "safety zone" in sorry
    tricks = run("play", "whoswho-tricks", "--seed", "3", stdin="help\nquit\n").stdout
    assert "Preference" in tricks and "trumps" in tricks


def test_the_bots_are_named_as_the_lobby_names_them() -> None:
    out = run("play", "whot", "--players", "3", "--seed", "3", stdin="hint\nquit\n").stdout
    assert "hard bot 2" in out and "hard bot 3" in out and "greedy" not in out
    assert "hint (medium bot):" in out
