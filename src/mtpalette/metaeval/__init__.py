"""Meta-evaluation of metrics: ORANGE (references ranked among candidates), the correlation
with human judgments and WMT's task sets, one module each.

The names below are imported on first use: a command that runs a task set does not pay for
ORANGE's modules (and the other way round).
"""

from __future__ import annotations

import importlib
from typing import Any

#: name -> the module of this package that defines it
EXPORTS = {
    "CandidateLists": "candidates",
    "compare_candidates": "candidates",
    "ORACLES": "orange",
    "TIE_POLICIES": "orange",
    "Comparisons": "orange",
    "OrangeCurve": "orange",
    "OrangeRow": "orange",
    "OrangeTable": "orange",
    "evaluate": "orange",
    "orange_curve": "orange",
    "orange_score": "orange",
    "rank_of_oracle": "orange",
    "segment_ranks": "orange",
    "error_analysis": "orange_errors",
}

__all__ = sorted(EXPORTS)


def __getattr__(name: str) -> Any:
    if name in EXPORTS:
        return getattr(importlib.import_module(f"mtpalette.metaeval.{EXPORTS[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(EXPORTS))
