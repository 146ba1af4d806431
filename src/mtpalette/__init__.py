"""mtpalette: a workbench for machine-translation evaluation metrics.

The public Python API lives in :mod:`mtpalette.api`; the most used names are re-exported
here.
"""

__version__ = "0.1.0"

from mtpalette.api import corpus_score, sentence_scores  # noqa: E402

__all__ = ["__version__", "corpus_score", "sentence_scores"]
