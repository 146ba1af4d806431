"""Pairwise scoring for MBR and reranking: :func:`pairwise` (per-segment score matrices) and
:func:`mbr` (each segment's candidate of highest expected utility, :class:`MbrSelection`;
the rules on stored scores :func:`stored_mbr`, :func:`qe_rerank`, :func:`qe_then_mbr`);
:class:`~mtpalette.api.mbr_run.MbrRun` is the selection of an n-best file as ``mtpalette mbr``
makes it.

The work is done in :mod:`mtpalette.metrics.pairwise` and :mod:`mtpalette.metrics.mbr`; this
module puts it in the public API.
"""

from __future__ import annotations

from mtpalette.metrics.mbr import MbrSelection, mbr
from mtpalette.metrics.mbr_rules import qe_rerank, qe_then_mbr, stored_mbr
from mtpalette.metrics.pairwise import pairwise

__all__ = ["MbrSelection", "mbr", "pairwise", "qe_rerank", "qe_then_mbr", "stored_mbr"]
