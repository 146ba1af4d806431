"""Meta-evaluation of metrics: ORANGE (references ranked among candidates), the correlation
with human judgments and WMT's task sets, one module each.

The names below are imported on first use: a command that runs a task set does not pay for
ORANGE's modules (and the other way round).
"""

from __future__ import annotations

from mtpalette.exports import lazy_exports

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
__getattr__, __dir__ = lazy_exports(__name__, EXPORTS, globals())
