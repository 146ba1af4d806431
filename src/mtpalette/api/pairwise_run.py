"""Pairwise scoring for MBR and reranking: :func:`pairwise` (per-segment score matrices) and
:func:`mbr` (each segment's candidate of highest expected utility, :class:`MbrSelection`).

The work is done in :mod:`mtpalette.metrics.pairwise` and :mod:`mtpalette.metrics.mbr`; this
module puts it in the public API.
"""

from __future__ import annotations

from mtpalette.metrics.mbr import MbrSelection, mbr
from mtpalette.metrics.pairwise import pairwise

__all__ = ["MbrSelection", "mbr", "pairwise"]
