"""Packaging by use: the core install plays, and an extra's absence is a sentence naming it.

`pip install parlour` gives the engines, the bots, terminal play and `parlour simulate` without
plots; the web server, plots, RL adapters and the Ray backend are extras (pyproject.toml,
`parlour/extras.py`). These tests run parlour in a Python that sees only the core: `python -S`
(no site-packages) with a folder holding the core dependencies alone (links to the installed
distributions of pyproject's `dependencies` and what they require, nothing else). There the core
commands must work, and each extra's part must say `pip install 'parlour[<extra>]'`.
"""

from __future__ import annotations

import importlib.metadata as metadata
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from parlour.extras import EXTRAS, MissingExtra, extra_of, needs, require

ROOT = Path(__file__).resolve().parent.parent


def core_requirements() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return list(project["dependencies"])


def closure(requirements: list[str]) -> set[str]:
    """The distributions the requirements need, transitively (markers read for this Python, no
    extras)."""
    seen: set[str] = set()
    todo = [Requirement(r) for r in requirements]
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        name = metadata.distribution(req.name).metadata["Name"]
        if name.lower() in seen:
            continue
        seen.add(name.lower())
        todo += [Requirement(r) for r in metadata.requires(name) or []]
    return seen


@pytest.fixture(scope="module")
def core_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the core dependencies' packages (and their metadata) linked in, and only
    those."""
    site = tmp_path_factory.mktemp("core-site")
    for name in closure(core_requirements()):
        dist = metadata.distribution(name)
        for top in {Path(str(f)).parts[0] for f in dist.files or ()}:
            source = Path(str(dist.locate_file(top)))
            if top in ("..", "__pycache__") or not source.exists() or (site / top).exists():
                continue
            (site / top).symlink_to(source)
    return site


def core_python(
    site: Path, code: str, *, cwd: Path | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """Run `code` in a Python that sees the standard library, parlour's source and `site`."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), str(site)])
    return subprocess.run(
        [sys.executable, "-S", "-c", code],
        env=env,
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def cli(site: Path, *args: str, cwd: Path | None = None, stdin: str = "") -> tuple[int, str]:
    code = f"import sys\nfrom parlour.cli import main\nsys.exit(main({list(args)!r}))"
    done = core_python(site, code, cwd=cwd, stdin=stdin)
    return done.returncode, done.stdout + done.stderr


def test_the_core_is_small() -> None:
    # the engines need the standard library only; the terminal rich, the simulator's ratings
    # openskill, the learned bot's network NumPy, and nothing of the server, the plots or the RL
    # toolkits
    assert {Requirement(r).name for r in core_requirements()} == {"rich", "openskill", "numpy"}
    names = closure(core_requirements())
    assert not {n for n in names if extra_of(n.replace("-", "_")) is not None}


def test_the_core_site_lacks_every_extra(core_site: Path) -> None:
    code = (
        "import importlib.util\n"
        f"print(sorted(m for m in {sorted({m for ms in EXTRAS.values() for m in ms})!r} "
        "if importlib.util.find_spec(m)))"
    )
    done = core_python(core_site, code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_core_install_lists_plays_and_simulates(core_site: Path, tmp_path: Path) -> None:
    code, out = cli(core_site, "games")
    assert code == 0, out
    assert "sorry" in out and "whot" in out
    # a whole match in the terminal, a person against a bot
    code, out = cli(
        core_site, "play", "whot", "--players", "2", "--seed", "1", "--bots", "easy",
        "--match", "single", "--quiet", stdin="1\n" * 3000,
    )  # fmt: skip
    assert code == 0, out
    # a simulation with its table of win rates, and its rows written out
    rows = tmp_path / "rows.csv"
    code, out = cli(
        core_site, "simulate", "sorry", "--games", "6", "--bots", "greedy,random",
        "--quiet", "--out", str(rows),
    )  # fmt: skip
    assert code == 0, out
    assert "6 games" in out and rows.exists()


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (("serve", "--port", "65001"), "server"),
        (("simulate", "sorry", "--games", "3", "--bots", "random", "--plot", "x.png"), "plots"),
    ],
    ids=["serve", "plot"],
)
def test_a_command_without_its_extra_names_the_extra(
    core_site: Path, tmp_path: Path, args: tuple[str, ...], extra: str
) -> None:
    code, out = cli(core_site, *args, cwd=tmp_path)
    assert code == 2, out
    assert f"pip install 'parlour[{extra}]'" in out
    assert "Traceback" not in out
    assert not (tmp_path / "x.png").exists()


def test_simulate_says_so_before_it_plays_not_after(core_site: Path, tmp_path: Path) -> None:
    code, out = cli(
        core_site, "simulate", "sorry", "--games", "200", "--bots", "random", "--plot", "x.png",
        cwd=tmp_path,
    )  # fmt: skip
    assert code == 2
    assert "games in" not in out  # no game was played first


@pytest.mark.parametrize("module", ["pettingzoo", "gymnasium", "openspiel"])
def test_the_rl_adapters_without_their_extra_name_it(core_site: Path, module: str) -> None:
    code = (
        "try:\n"
        f"    import parlour.adapters.{module}\n"
        "except ImportError as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    done = core_python(core_site, code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("MissingExtra parlour's RL adapters needs")
    assert "pip install 'parlour[rl]'" in done.stdout


def test_needs_turns_only_an_extras_library_into_the_sentence() -> None:
    sentence = r"the thing needs matplotlib, .* 'parlour\[plots\]'"
    with pytest.raises(MissingExtra, match=sentence), needs("plots", "the thing"):
        raise ModuleNotFoundError("No module named 'matplotlib.pyplot'", name="matplotlib.pyplot")
    # a module no extra brings is a real bug, left as it is
    with pytest.raises(ModuleNotFoundError) as raised, needs("plots", "the thing"):
        raise ModuleNotFoundError("No module named 'parlour.nothing'", name="parlour.nothing")
    assert not isinstance(raised.value, MissingExtra)
    with pytest.raises(MissingExtra, match=r"x needs no_such_lib, .*'parlour\[rl\]'"):
        require("rl", "x", "no_such_lib")
    require("rl", "x", "json")  # present: nothing said


def test_every_extra_named_in_parlour_exists_in_pyproject() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert set(EXTRAS) <= set(extras)
    assert set(extras["all"][0].partition("[")[2].rstrip("]").split(",")) >= set(EXTRAS)


def test_the_web_server_without_its_extra_names_it(core_site: Path) -> None:
    code = (
        "try:\n"
        "    from parlour.server import create_app\n"
        "except ImportError as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    done = core_python(core_site, code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("MissingExtra parlour's web server needs")
    assert "pip install 'parlour[server]'" in done.stdout
