"""Translation edit rate with shifts, decided as sacrebleu's ``lib_ter`` (a port of Tercom).

Per candidate and reference the edits are the number of shifts plus the final edit distance:

1. The edit distance is computed within a beam of 25 cells on each side of the length-scaled
   diagonal (wider when the reference is over 50 times longer), choosing among equal costs a
   match or substitution first, then a deletion of a candidate word, then an insertion; its
   trace gives an alignment of the two sides and which words are in error.
2. A shift candidate moves a block of at most 10 candidate words that equals a block of the
   reference starting at most 50 positions away, both blocks holding an error and the
   reference block's first word not aligned inside the candidate block, to just after the
   candidate word aligned with the reference word before the reference block or with one of
   its words (or to the front).
3. The candidate with the largest drop in edit distance wins (ties: the longer block, then
   the earlier block, then the earlier target); shifting stops when no candidate lowers the
   distance, or, as in sacrebleu, once 1,000 candidates have been tried in all (the shift
   found in that round is then not applied).

Speed: a shifted candidate agrees with the unshifted words up to the first moved position, so
the rows of the distance table before that position are taken from the table of the unshifted
words (computed once per round) and only the rest is recomputed, two rows at a time and
without the trace (sacrebleu gets the same effect from its prefix cache). Pairs run in
parallel.

References
----------
Snover, Dorr, Schwartz, Micciulla and Makhoul (2006), A study of translation edit rate with
targeted human annotation; Tercom (Snover); sacrebleu ``metrics/lib_ter.py`` (Post, 2018).
"""

from __future__ import annotations

import numpy as np

from mtpalette import _core

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
BEAM_WIDTH = 25
MAX_SHIFT_CANDIDATES = 1000


def ter_edits(h, r) -> int:
    """Edits (shifts + edit distance) turning candidate ids ``h`` into reference ids ``r``.

    Examples
    --------
    >>> ter_edits(np.array([2, 3, 1]), np.array([1, 2, 3]))  # one shift of word 1
    1
    """
    return _core.ter_edits(
        np.ascontiguousarray(h, dtype=np.int32), np.ascontiguousarray(r, dtype=np.int32)
    )


def ter_per_ref(pairs) -> np.ndarray:
    """TER edits of every candidate against every reference, ``(P, R)``, NaN where missing.

    Examples
    --------
    >>> from mtpalette.metrics.base import Pairs
    >>> pairs = Pairs.of_segment([2, 3, 1], [[1, 2, 3], [2, 3]])
    >>> ter_per_ref(pairs).tolist()
    [[1.0, 1.0]]
    """
    return _core.ter_per_ref(pairs.arrays())
