"""The guides stay true to the code: every link resolves, and every code name they mention exists.

The guides are README.md and docs/*.md (the lab notebook, docs/lab/, records runs of their day
and may name what has gone since; its links must still resolve). A code name is what a guide puts
in backticks and reads as code, and each kind is checked where it lives:

* a path (`benchmarks/ladder.py`, `games/whot/hint.py`, `docs/deploy.md`): the file exists, from
  the root, from `src/parlour/` or from `docs/`;
* a dotted name starting `parlour.` (`parlour.bots.advise`): it imports, and each attribute after
  the module exists;
* a call or a method (`register_bot(...)`, `ISMCTSBot.search(...)`, `state.view(player)`): the
  function or method is defined (a `def`, a class, or an assignment of that name) in parlour's
  code, benchmarks or tools; for `Class.method`, the class defines or inherits it;
* an identifier that can only be code (`hint_policy`, `SearchHelp`: snake_case with an underscore,
  or CamelCase of two words or more): it appears as a name in the code (sources, tests, tools,
  benchmarks and the browser's modules; rule options, JSON keys and fields count);
* a command-line flag: in a span or command line of `parlour …`, the flag is one of the `parlour`
  command's; of `benchmarks/x.py …` or `tools/x.py …`, one of that script's; a span that is a flag
  alone (`--write-levels`), one of any of them;
* `make target`: the Makefile has the target.

Everything else in backticks (notation such as `play 6 circle`, presets, bot specs, JSON values)
is left alone: words are not code names.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LAB = sorted((ROOT / "docs" / "lab").glob("*.md"))
CODE_DIRS = ("src", "benchmarks", "tools", "tests", "examples")

FENCE = re.compile(r"^(```|~~~)")
SPAN = re.compile(r"(?<!`)`([^`]+)`(?!`)")
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)\)")
PATH = re.compile(r"^[\w.-]+(/[\w.<>*-]+)*/?[\w-]+\.(py|md|json|toml|c|js|css|html|png|txt|ini)$")
DOTTED = re.compile(r"^parlour(\.[A-Za-z_]\w*)+")
CALL = re.compile(r"^(?:([A-Za-z_]\w*)\.)?([A-Za-z_]\w*)\(")
SNAKE = re.compile(r"^_{0,2}[a-z][a-z0-9]*(_[a-z0-9]+)+_{0,2}$")
CAMEL = re.compile(r"^_?[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$")
FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")
SCRIPT = re.compile(r"((?:benchmarks|tools)/[\w-]+\.py)")
BUILTINS = frozenset(dir(builtins))
# modules of Python and of other libraries a guide may name things of (`random.Random(seed)`)
EXTERNAL = frozenset(
    {"gc", "gymnasium", "jax", "jnp", "json", "lax", "math", "np", "numpy", "os", "pyspiel",
     "random", "spaces", "sys", "time"}
)  # fmt: skip


def _lines(path: Path) -> Iterator[tuple[int, str, bool]]:
    """Each line of a guide, and whether it is inside a fenced block."""
    fenced = False
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        yield n, line, fenced


def spans(path: Path) -> Iterator[tuple[int, str]]:
    """Each inline code span outside fenced blocks, with its line; a span may run over a line
    break within its paragraph (read as one space)."""
    paragraph: list[tuple[int, str]] = []
    for n, line, fenced in [*_lines(path), (0, "", True)]:
        if not fenced and line.strip():
            paragraph.append((n, line))
            continue
        if paragraph:
            text = "\n".join(line for _, line in paragraph)
            for m in SPAN.finditer(text):
                where = paragraph[text.count("\n", 0, m.start())][0]
                yield where, " ".join(m.group(1).split())
        paragraph = []


def command_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Lines of fenced blocks that run `parlour` or one of the project's scripts."""
    for n, line, fenced in _lines(path):
        text = line.strip()
        if fenced and re.match(r"^(\.venv/bin/)?(parlour|python|\$L)\b", text):
            yield n, text


# --- what the code defines -------------------------------------------------------------------
@cache
def code_files() -> tuple[Path, ...]:
    found = [p for d in CODE_DIRS for p in (ROOT / d).rglob("*.py")]
    found += [p for p in (ROOT / "src").rglob("*") if p.suffix in (".js", ".json", ".c")]
    # (not this file: it names what does not exist, to test the checks)
    return tuple(p for p in found if ".venv" not in p.parts and p != Path(__file__).resolve())


@cache
def words() -> frozenset[str]:
    """Every identifier-like word of the code and its data (names, attributes, keys)."""
    out: set[str] = set()
    for p in code_files():
        out.update(re.findall(r"[A-Za-z_]\w*", p.read_text(errors="replace")))
    return frozenset(out)


@cache
def definitions() -> dict[str, set[str]]:
    """Name -> the classes that define it ("" for a module-level function, class or name)."""
    out: dict[str, set[str]] = {}
    for p in code_files():
        if p.suffix != ".py":
            continue
        tree = ast.parse(p.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                out.setdefault(node.name, set()).add("")
                for item in node.body:
                    for name in _defined(item):
                        out.setdefault(name, set()).add(node.name)
            elif isinstance(node, ast.Module):
                for item in node.body:
                    for name in _defined(item):
                        out.setdefault(name, set()).add("")
    return out


def _defined(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []


@cache
def bases() -> dict[str, set[str]]:
    """Class -> the names of its bases, for methods a class inherits."""
    out: dict[str, set[str]] = {}
    for p in code_files():
        if p.suffix == ".py":
            for node in ast.walk(ast.parse(p.read_text())):
                if isinstance(node, ast.ClassDef):
                    names = {
                        b.id if isinstance(b, ast.Name) else ast.unparse(b) for b in node.bases
                    }
                    out.setdefault(node.name, set()).update(n.split(".")[-1] for n in names)
    return out


def has_method(cls: str, name: str) -> bool:
    seen: set[str] = set()
    todo = [cls]
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        seen.add(c)
        if c in definitions().get(name, set()):
            return True
        todo += bases().get(c, set())
    return False


@cache
def flags(script: str | None) -> frozenset[str]:
    """The option strings a script (or the `parlour` command, for None) takes."""
    if script is None:
        files = [p for p in (ROOT / "src" / "parlour").rglob("*.py") if "cli" in p.name]
    else:
        files = [ROOT / script]
    out: set[str] = {"--help"}  # argparse's own
    for p in files:
        if p.exists():
            out.update(re.findall(r"[\"'](--[a-z][a-z0-9-]*)[\"']", p.read_text()))
    return frozenset(out)


@cache
def make_targets() -> frozenset[str]:
    text = (ROOT / "Makefile").read_text()
    return frozenset(re.findall(r"^([\w.-]+):", text, re.M))


# --- the checks ------------------------------------------------------------------------------
def path_exists(text: str) -> bool:
    """From the root, from `src/parlour/` or `docs/`; a path written from inside its folder (the
    server's `settings.py`, `routes/review.py`, the shell's `js/api.js`) ends some file's path."""
    text = text.rstrip("/")
    if any(c in text for c in "<>*…"):
        return True  # a pattern, not a file
    if text.startswith(("build/", "var/")):
        return True  # made by running something
    if any((b / text).exists() for b in (ROOT, ROOT / "src" / "parlour", ROOT / "docs")):
        return True
    return any(f == text or f.endswith("/" + text) for f in project_files())


@cache
def project_files() -> tuple[str, ...]:
    skip = {".venv", ".git", "build", "__pycache__", ".mypy_cache", ".ruff_cache", ".hypothesis"}
    return tuple(
        str(p.relative_to(ROOT))
        for d in ("src", "tests", "benchmarks", "tools", "examples", "docs")
        for p in (ROOT / d).rglob("*")
        if p.is_file() and not skip & set(p.parts)
    )


def dotted_exists(text: str) -> bool:
    parts = DOTTED.match(text)
    assert parts is not None
    names = parts.group(0).split(".")
    for cut in range(len(names), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(names[:cut]))
        except ImportError:
            continue
        for attr in names[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def problems(text: str) -> list[str]:
    """What is wrong with one backticked span (empty: nothing, or not a code name)."""
    out: list[str] = []
    first = text.split()[0]
    if first in ("parlour", ".venv/bin/parlour") or (SCRIPT.search(first) and " " in text):
        out += bad_flags(text)
        return out
    if first == "make" and len(text.split()) >= 2:
        target = text.split()[1]
        if "=" not in target and target not in make_targets():
            out.append(f"no make target {target!r}")
        return out
    if " " in text.split("(")[0]:
        return out  # a phrase or a notation, not a name
    if text.startswith("--"):
        flag = FLAG.match(text)
        everyone = flags(None).union(*(flags(str(p.relative_to(ROOT))) for p in _scripts()))
        if flag and flag.group(1) not in everyone:
            out.append(f"no command takes {flag.group(1)}")
        return out
    if PATH.match(text):
        if not path_exists(text):
            out.append(f"no file {text}")
        return out
    if DOTTED.match(text):
        if not dotted_exists(text):
            out.append(f"{DOTTED.match(text).group(0)} does not import")  # type: ignore[union-attr]
        return out
    call = CALL.match(text)
    if call:
        owner, name = call.groups()
        if owner in EXTERNAL or (owner is None and name in BUILTINS):
            return out  # Python's or another library's
        if owner and owner in definitions() and "" in definitions()[owner] and owner[0].isupper():
            if not has_method(owner, name):
                out.append(f"{owner} has no {name}")
        elif owner and CAMEL.match(owner):
            out.append(f"no class {owner}")
        elif name not in words():
            out.append(f"nothing defines {name}")
        return out
    dotted = re.match(r"^[A-Za-z_][\w.]*$", text)
    if not dotted or text.split(".")[0] in EXTERNAL:
        return out
    bare = text.split(".")[-1]
    if (SNAKE.match(bare) or CAMEL.match(bare)) and bare not in words() | runtime_names():
        out.append(f"no name {bare} in the code")
    return out


@cache
def runtime_names() -> frozenset[str]:
    """Names the code makes as it runs: each game's OpenSpiel short name (`parlour_whot`)."""
    from parlour.core import games

    return frozenset("parlour_" + g.replace("-", "_") for g in games())


@cache
def _scripts() -> tuple[Path, ...]:
    return tuple(sorted([*(ROOT / "benchmarks").glob("*.py"), *(ROOT / "tools").glob("*.py")]))


def bad_flags(command: str) -> list[str]:
    script = SCRIPT.search(command)
    known = flags(script.group(1) if script else None)
    if script and not (ROOT / script.group(1)).exists():
        return [f"no file {script.group(1)}"]
    return [f"{command.split()[0]} … takes no {f}" for f in FLAG.findall(command) if f not in known]


def guide_problems(path: Path) -> list[str]:
    rel = path.relative_to(ROOT)
    out = [f"{rel}:{n}: `{text}`: {why}" for n, text in spans(path) for why in problems(text)]
    for n, line in command_lines(path):
        if SCRIPT.search(line) or re.match(r"^(\.venv/bin/)?parlour\b", line):
            out += [f"{rel}:{n}: {line}: {why}" for why in bad_flags(line)]
    return out


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: p.name)
def test_every_code_name_a_guide_mentions_exists(guide: Path) -> None:
    assert guide_problems(guide) == []


@pytest.mark.parametrize("page", GUIDES + LAB, ids=lambda p: str(p.relative_to(ROOT / "docs"))
                         if "docs" in p.parts else p.name)  # fmt: skip
def test_every_link_and_image_resolves(page: Path) -> None:
    broken = []
    for n, line, fenced in _lines(page):
        if fenced:
            continue
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"^[a-z]+:", target):
                continue  # a URL
            file, _, anchor = target.partition("#")
            dest = (page.parent / file).resolve() if file else page
            if not dest.exists():
                broken.append(f"{page.name}:{n}: {target}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                broken.append(f"{page.name}:{n}: {target}: no heading #{anchor}")
    assert broken == []


@cache
def anchors(page: Path) -> frozenset[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to '-'."""
    out = set()
    for _, line, fenced in _lines(page):
        if not fenced and line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", title)))
    return frozenset(out)


def test_the_checks_see_a_name_that_is_gone() -> None:
    # the checks themselves: each kind of name, present and gone
    assert problems("register_playout(game, policy)") == ["nothing defines register_playout"]
    assert problems("ISMCTSBot.search(view, legal)") == []
    assert problems("ISMCTSBot.no_such(view)") == ["ISMCTSBot has no no_such"]
    assert problems("parlour.bots.advise") == []
    assert problems("parlour.bots.no_such") == ["parlour.bots.no_such does not import"]
    assert problems("benchmarks/ladder.py") == []
    assert problems("benchmarks/no_such.py") == ["no file benchmarks/no_such.py"]
    assert problems("games/whot/hint.py") == []
    assert problems("--write-levels") == []
    assert problems("--no-such-flag") == ["no command takes --no-such-flag"]
    assert problems("parlour simulate --plot x.png") == []
    assert problems("parlour simulate --plott x.png") == ["parlour … takes no --plott"]
    assert problems("hint_policy") == []
    assert problems("hint_polici") == ["no name hint_polici in the code"]
    assert problems("make bench") == [] and problems("make benchh") == ["no make target 'benchh'"]
    assert problems("play 6 circle") == [] and problems("storey-1935") == []
