"""What each optional part of parlour needs, and the sentence a person reads when it is missing.

`pip install parlour` is the core: every game's engine, the bots (NumPy: the learned bot's
network), terminal play and `parlour simulate` (without plots). The rest comes as extras named
after their use:

    pip install 'parlour[server]'   # the web server: parlour serve, accounts, the cluster mode
    pip install 'parlour[plots]'    # parlour simulate --plot
    pip install 'parlour[rl]'       # the RL adapters (PettingZoo, Gymnasium, OpenSpiel), encodings
    pip install 'parlour[cluster]'  # parlour simulate --backend ray
    pip install 'parlour[train]'    # parlour train: the learned bots' networks, in JAX
    pip install 'parlour[all]'      # all of them

A module that needs an extra imports its libraries inside `needs(extra, what)`, or a command
checks first with `require`; either way a missing library is a `MissingExtra` (a
ModuleNotFoundError, so `except ImportError` still catches it) whose message names the extra and
the command that installs it. The command line turns any such error into that sentence.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["EXTRAS", "MissingExtra", "extra_of", "missing_extra", "needs", "require"]

#: extra -> the libraries it brings that parlour imports (by their import names)
EXTRAS: dict[str, tuple[str, ...]] = {
    "server": (
        "fastapi",
        "starlette",
        "pydantic",
        "uvicorn",
        "uvloop",
        "websockets",
        "sqlalchemy",
        "alembic",
        "psycopg",
        "segno",
        "swagger_ui_bundle",
        "redis",
        "argon2",
        "pydantic_settings",
        "structlog",
        "prometheus_client",
    ),
    "plots": ("matplotlib",),
    "rl": ("pettingzoo", "gymnasium", "pyspiel", "open_spiel"),
    "cluster": ("ray",),
    "train": ("jax", "optax", "equinox"),
}


class MissingExtra(ModuleNotFoundError):
    """An import that failed for want of one of parlour's extras; the message says which."""


def extra_of(module: str | None) -> str | None:
    """The extra that brings `module` (a dotted name: its top package counts), or None."""
    top = (module or "").partition(".")[0]
    return next((extra for extra, mods in EXTRAS.items() if top in mods), None)


def _sentence(extra: str, module: str, what: str) -> str:
    return (
        f"{what} needs {module}, which comes with parlour's {extra} extra: "
        f"pip install 'parlour[{extra}]'"
    )


def missing_extra(exc: ModuleNotFoundError, what: str) -> MissingExtra | None:
    """`exc` as a MissingExtra naming its extra, if one of the extras brings the module that was
    not found (None for any other module: a real bug, to be seen as it is)."""
    if isinstance(exc, MissingExtra):
        return exc
    extra = extra_of(exc.name)
    if extra is None or exc.name is None:
        return None
    return MissingExtra(_sentence(extra, exc.name.partition(".")[0], what), name=exc.name)


@contextmanager
def needs(extra: str, what: str) -> Iterator[None]:
    """Imports inside that fail for a library of `extra` raise MissingExtra saying
    "`what` needs X, which comes with parlour's `extra` extra: pip install 'parlour[extra]'"."""
    try:
        yield
    except ModuleNotFoundError as exc:
        found = missing_extra(exc, what)
        if found is None:
            raise
        raise found from exc


def require(extra: str, what: str, *modules: str) -> None:
    """Raise MissingExtra now if one of `modules` (libraries of `extra`) is not installed: for a
    command that would otherwise find out only at its end (a plot drawn after a simulation)."""
    for module in modules:
        if importlib.util.find_spec(module) is None:
            raise MissingExtra(_sentence(extra, module, what), name=module)
