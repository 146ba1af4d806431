"""Metric families and the registry of spec strings.

Importing this package registers every built-in family (one module each).
"""

from mtpalette.metrics import families as _families  # noqa: F401  (registers the families)
from mtpalette.metrics.base import Metric, Pairs, Score, Signature
from mtpalette.metrics.registry import known_metrics, parse_specs

__all__ = ["Metric", "Pairs", "Score", "Signature", "known_metrics", "parse_specs"]
