"""Build hook: compile the optional C accelerators beside their Python modules.

Each accelerator is one small C file that speeds up one hot path (docs/adapters.md, "Speed"),
and each has a Python twin that parlour uses where the accelerator was not built. So a machine
without a C compiler or Python's headers still installs parlour: this hook says what went wrong
and goes on, and `tests/adapters/test_adapters_accelerators.py` fails under CI (and skips,
saying why, elsewhere) when an accelerator is missing.

It compiles with the command Python itself was built to link extension modules with
(`sysconfig`'s LDSHARED: `gcc -shared ...` on Linux, `clang -bundle ...` on macOS)."""

from __future__ import annotations

import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: C source (from the project's root) -> the module it builds
ACCELERATORS = {"src/parlour/games/whot/_table.c": "parlour.games.whot._table"}


def compile_accelerator(root: Path, source: str, module: str) -> Path:
    """Compile one C file into an extension module beside it; the file written."""
    link = sysconfig.get_config_var("LDSHARED")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    if not link or not suffix:
        raise OSError("this Python does not say how to link an extension module")
    src = root / source
    out = src.with_name(module.rpartition(".")[2] + suffix)
    cmd = [
        *shlex.split(link),
        *shlex.split(sysconfig.get_config_var("CCSHARED") or ""),
        "-O2",
        "-Wall",
        "-Werror",
        "-I" + sysconfig.get_paths()["include"],
        str(src),
        "-o",
        str(out),
    ]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return out


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        built = []
        for source, module in ACCELERATORS.items():
            try:
                built.append(compile_accelerator(root, source, module))
            except (OSError, subprocess.CalledProcessError) as e:
                why = (getattr(e, "stderr", "") or str(e)).strip()
                print(
                    f"parlour: could not compile {source}, so {module} is not built and parlour "
                    f"uses its Python twin, slower:\n{why[-2000:]}",
                    file=sys.stderr,
                )
        if built:
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
            if version != "editable":  # (an editable install finds them in src/ already)
                for out in built:
                    build_data["force_include"][str(out)] = str(out.relative_to(root / "src"))
