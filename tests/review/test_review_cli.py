"""`parlour analyse` as a person uses it: the table, the summary, the files, the errors, Ctrl-C."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from review_testkit import played

from parlour.cli import main
from parlour.review import PUZZLES_FORMAT, Analysis, Budget, analyse, record_hash

PARLOUR = [sys.executable, "-m", "parlour.cli"]


def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PARLOUR, *args], capture_output=True, text=True, timeout=timeout)


def _file(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    rec = played("whot", 2, "nigerian").to_dict()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(dict(rec, names=["Ada", "Bob"])))
    return path, rec


def test_analyse_prints_the_table_and_writes_the_analysis_and_puzzles(tmp_path: Path) -> None:
    path, rec = _file(tmp_path)
    out, puzzles = tmp_path / "a.json", tmp_path / "p.json"
    res = run(
        "analyse", str(path), "--seat", "1", "--budget", "60", "--out", str(out),
        "--puzzles", str(puzzles), "--seed", "3",
    )  # fmt: skip
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    text = res.stdout
    assert "Judging Ada (seat 1) from their own view, 60 iterations a decision" in text
    for words in ("played", "best found", "loss", "mark", "average loss", "Result: Ada"):
        assert words in text
    analysis = Analysis.from_json(out.read_text())
    assert analysis.record["hash"] == record_hash(rec) and analysis.seat == 0
    assert analysis.budget == Budget(iterations=60) and analysis.seed == 3
    # the same figures as the library gives with the same seed
    again = analyse(rec, 0, Budget(iterations=60), seed=3)
    assert [d.moves for d in again.decisions] == [d.moves for d in analysis.decisions]
    s = analysis.summary()
    assert f"{s['decisions']} decisions" in text
    assert f"the best move found was played in {s['best_played']}" in text
    data = json.loads(puzzles.read_text())
    assert data["format"] == PUZZLES_FORMAT
    assert f"{len(data['puzzles'])} puzzle(s) written" in text


def test_analyse_with_a_time_budget_and_the_american_spelling(tmp_path: Path) -> None:
    path, _ = _file(tmp_path)
    res = run("analyze", str(path), "--seat", "2", "--seconds", "0.01", "--quiet")
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert "Judging Bob (seat 2)" in res.stdout and "0.01 s a decision" in res.stdout


def test_analyse_errors_are_words_not_tracebacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _file(tmp_path)
    cases = [
        ([str(path), "--seat", "3"], "--seat must be from 1 to 2"),
        ([str(path), "--out", str(tmp_path / "a.txt")], "name a .json file"),
        ([str(path), "--game", "2"], "--game must be 1"),
        ([str(path), "--budget", "0"], "at least 1 iteration"),
        ([str(path), "--margin", "0"], "--margin"),
        ([str(tmp_path / "missing.json")], "no file"),
    ]
    for args, words in cases:
        assert main(["analyse", *args]) == 2
        out = capsys.readouterr().out
        assert words in out, (args, out)
    with pytest.raises(SystemExit):
        main(["analyse", str(path), "--budget", "60", "--seconds", "1"])
    assert "not allowed with" in capsys.readouterr().err


@pytest.mark.usefixtures("ctrl_c_reaches_children")
def test_ctrl_c_keeps_the_decisions_judged_so_far(tmp_path: Path) -> None:
    path, _ = _file(tmp_path)
    out = tmp_path / "part.json"
    proc = subprocess.Popen(
        [*PARLOUR, "analyse", str(path), "--budget", "3000", "--out", str(out), "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert "Judging" in proc.stdout.readline()  # the analysis has begun
        time.sleep(1.5)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, stdout[-2000:] + stderr[-2000:]
    assert "Stopped:" in stdout and "keeping those" in stdout
    part = Analysis.from_json(out.read_text())
    assert not part.complete and len(part.decisions) < part.total
