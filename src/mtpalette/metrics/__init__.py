"""Metric families and the registry of spec strings.

Each built-in family is one module, imported when a spec first names it
(:data:`mtpalette.metrics.registry.BUILTIN_FAMILIES`); :mod:`mtpalette.metrics.families`
imports them all.
"""

from mtpalette.metrics.base import Metric, Pairs, Score, Signature
from mtpalette.metrics.registry import known_metrics, parse_named_specs, parse_specs

__all__ = [
    "Metric",
    "Pairs",
    "Score",
    "Signature",
    "known_metrics",
    "parse_named_specs",
    "parse_specs",
]
