"""Meta-evaluation of metrics: ORANGE (references ranked among candidates) and, later, the
correlation with human judgments.
"""

from mtpalette.metaeval.candidates import CandidateLists, compare_candidates
from mtpalette.metaeval.orange import (
    ORACLES,
    TIE_POLICIES,
    Comparisons,
    OrangeCurve,
    OrangeRow,
    OrangeTable,
    evaluate,
    orange_curve,
    orange_score,
    rank_of_oracle,
    segment_ranks,
)
from mtpalette.metaeval.orange_errors import error_analysis

__all__ = [
    "ORACLES",
    "TIE_POLICIES",
    "CandidateLists",
    "Comparisons",
    "OrangeCurve",
    "OrangeRow",
    "OrangeTable",
    "compare_candidates",
    "error_analysis",
    "evaluate",
    "orange_curve",
    "orange_score",
    "rank_of_oracle",
    "segment_ranks",
]
