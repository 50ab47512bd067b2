"""Types of the C accelerator _table.c (built by hatch_build.py where a compiler is found)."""

from typing import Any

import numpy as np
import numpy.typing as npt

class TableCore:
    moves_seen: int
    events_seen: int
    call_card: int
    call_symbol: int
    pack_next: int
    pending_pick: int
    pick_number: int
    pack_public: bool
    plain: bool
    def observe(self, seat: int) -> npt.NDArray[np.float32]: ...
    def follow(self) -> None: ...
    def _bind(self, *args: Any) -> None: ...
