"""The checks every resampling option shares (``--bootstrap``, ``--confidence``, ``--seed``,
``--permutations``): they live in the library (:mod:`mtpalette.sources.checks`), which validates
every run description, Python or command line alike."""

from __future__ import annotations

from mtpalette.sources.checks import check_resampling, min_resamples

__all__ = ["check_resampling", "min_resamples"]
