"""Pairwise scoring for MBR and reranking: :func:`pairwise` (per-segment score matrices).

The work is done in :mod:`mtpalette.metrics.pairwise`; this module puts it in the public API.
"""

from __future__ import annotations

from mtpalette.metrics.pairwise import pairwise

__all__ = ["pairwise"]
