"""mtpalette: a workbench for machine-translation evaluation metrics.

The public Python API lives in :mod:`mtpalette.api`; the most used names are re-exported
here, imported on first use so that ``import mtpalette`` (and the command line) stays fast.
"""

from __future__ import annotations

from typing import Any

from mtpalette._version import __version__

__all__ = [
    "__version__",
    "corpus_score",
    "sentence_scores",
    "score_systems",
    "paired_test",
    "orange",
    "correlate",
    "audit",
]
_API = {"corpus_score", "sentence_scores", "score_texts", "score_systems", "paired_test"}
_META = {"orange", "correlate", "audit"}


def __getattr__(name: str) -> Any:
    if name in _API:
        from mtpalette import api

        return getattr(api, name)
    if name in _META:
        from mtpalette import meta

        return getattr(meta, name)
    raise AttributeError(f"module 'mtpalette' has no attribute {name!r}")
