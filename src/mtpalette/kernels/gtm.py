"""The maximum match size of the General Text Matcher, as gtm 1.4 computes it.

Turian, Shen and Melamed (2003) place the candidate against the reference on a grid whose
cells are *hits* where the two words are equal. A matching takes hits no two of which share a
row or a column; its *runs* are maximal diagonal stretches of matched hits (aligned blocks),
and its size is ``(sum over runs of length^e)^(1/e)``. The MMS is the size of the largest
matching. With e = 1 it is the largest number of words matched one to one; for e > 1 finding
it is NP-hard, and the reference implementation (gtm 1.4, ``Bitext.java``) approximates it
greedily. This module computes exactly what gtm 1.4 computes:

1. Several references are concatenated, each followed by a break token that matches nothing,
   so a run never crosses two references but a candidate word may match any of them.
2. Every diagonal stretch of hits is a candidate block (all lengths from every hit). Blocks
   are taken longest first; among equal lengths the one with the larger
   ``candidate position * (concatenated reference length + number of references) + reference
   position`` first, i.e. the later candidate position, then the later reference position.
3. A block is taken when none of its rows and columns is used yet; each taken block of length
   L adds L^e to the sum.
4. At most ``min(candidate length, mean reference length)`` hits are taken in all: a block
   longer than what is left is cut to it, and since the mean reference length can end in .5,
   so can the cut length c; the cut block marks ceil(c) cells as used and adds c^e. Taking
   stops once nothing is left.

Blocks of one length never depend on the exponent, so one pass serves every e: the kernel
records the lengths taken and returns ``(sum L^e)^(1/e)`` for each exponent asked.

For e = 1 the greedy result is the exact maximum: taking every single-hit block in the end
makes the matching maximal, and in the hit grid of one word type (a complete bipartite graph)
every maximal matching has the size of the smaller side, so MMS = min(sum over word types of
min(candidate count, count in all references), candidate length, mean reference length).

References
----------
Turian, Shen and Melamed (2003), Evaluation of machine translation and its evaluation (MT
Summit IX); Melamed, Green and Turian (2003), Precision and recall of machine translation;
gtm 1.4 (New York University) ``Bitext.java``, ``Score.java``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mtpalette import _core


def gtm_mms(pairs, exponents: Sequence[float]) -> np.ndarray:
    """gtm 1.4's maximum match size of each candidate, ``(P, len(exponents))``.

    Examples
    --------
    >>> from mtpalette.metrics.base import Pairs
    >>> pairs = Pairs.of_segment([1, 2, 3, 4, 5], [[1, 2, 9, 3, 4, 5]])
    >>> gtm_mms(pairs, [1.0, 2.0]).round(4).tolist()  # runs of 2 and 3: 5 and sqrt(13)
    [[5.0, 3.6056]]
    """
    return _core.gtm_mms(pairs.arrays(), np.ascontiguousarray(exponents, dtype=np.float64))
