"""`parlour.core` is a stack: each module imports only modules below it (docs/architecture.md).

Every import statement counts, at the top of a module or inside a function: an import placed in a
function to hold a circle open is still a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "src" / "parlour" / "core"
# From the bottom of the stack up, as `parlour/core/__init__.py` lists them.
STACK = [
    "errors",
    "options",
    "rng",
    "events",
    "formats",
    "record",
    "protocol",
    "match",
    "registry",
    "replay",
]


def core_imports(module: str, root: Path = CORE) -> set[str]:
    """The core modules that `module` imports, anywhere in its source."""
    tree = ast.parse((root / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                found.add(node.module.split(".")[0])
            elif node.level == 1:
                found.update(a.name for a in node.names)
            elif node.module and node.module.startswith("parlour.core."):
                found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("parlour.core."):
                    found.add(alias.name.split(".")[2])
    return found & set(STACK)


def test_every_core_module_is_in_the_stack() -> None:
    modules = {p.stem for p in CORE.glob("*.py")} - {"__init__"}
    assert modules == set(STACK)


def test_each_core_module_imports_only_modules_below_it() -> None:
    for i, module in enumerate(STACK):
        above = core_imports(module) - set(STACK[:i])
        assert not above, f"core.{module} imports {sorted(above)}, which stand above it"


def test_the_check_sees_a_function_level_import(tmp_path: Path) -> None:
    (tmp_path / "protocol.py").write_text(
        "def record():\n    from .registry import make\n    import parlour.core.match\n"
    )
    assert core_imports("protocol", tmp_path) == {"registry", "match"}
