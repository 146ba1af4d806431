"""Slow twin of :mod:`mtpalette.kernels.ter`: Tercom's shifts, every table in plain Python."""

from __future__ import annotations

import math
from collections.abc import Sequence

from mtpalette.kernels.ter import (
    BEAM_WIDTH,
    MAX_SHIFT_CANDIDATES,
    MAX_SHIFT_DIST,
    MAX_SHIFT_SIZE,
)

_INF = 10**16


def _insert_at(n, start, length, target):
    """Where the block lands among the other ``n - length`` words, as Tercom's shift does.

    ``target`` counts the unshifted words: before the block it is kept, after the block it
    loses the block's length; a target inside the block (or just behind it) counts the words
    that follow the block, up to their end.
    """
    if target <= start + length:
        return min(target, n - length)
    return target - length


def _table_slow(h: Sequence, r: Sequence) -> tuple[int, list[str]]:
    """Beam edit distance and trace with full Python tables ('n', 's', 'i', 'd')."""
    n_h, n_r = len(h), len(r)
    ratio = n_r / n_h if n_h else 1.0
    beam = math.ceil(ratio / 2 + BEAM_WIDTH) if BEAM_WIDTH < ratio / 2 else BEAM_WIDTH
    cost = [[_INF] * (n_r + 1) for _ in range(n_h + 1)]
    op = [["?"] * (n_r + 1) for _ in range(n_h + 1)]
    cost[0] = list(range(n_r + 1))
    op[0] = ["i"] * (n_r + 1)
    for i in range(1, n_h + 1):
        diag = math.floor(i * ratio)
        hi = n_r + 1 if i == n_h else min(n_r + 1, diag + beam)
        for j in range(max(0, diag - beam), hi):
            if j == 0:
                cost[i][0], op[i][0] = cost[i - 1][0] + 1, "d"
                continue
            options = [
                (cost[i - 1][j - 1] + (h[i - 1] != r[j - 1]), "n" if h[i - 1] == r[j - 1] else "s"),
                (cost[i - 1][j] + 1, "d"),
                (cost[i][j - 1] + 1, "i"),
            ]
            for c, o in options:  # the first of equal costs wins
                if c < cost[i][j]:
                    cost[i][j], op[i][j] = c, o
    trace = []
    i, j = n_h, n_r
    while i > 0 or j > 0:
        trace.append(op[i][j])
        i, j = {"n": (i - 1, j - 1), "s": (i - 1, j - 1), "i": (i, j - 1), "d": (i - 1, j)}[
            op[i][j]
        ]
    return cost[n_h][n_r], trace[::-1]


def ter_edits_slow(h: Sequence, r: Sequence) -> int:
    """The same edits as :func:`ter_edits`, recomputing every table in plain Python.

    Examples
    --------
    >>> ter_edits_slow("bca", "abc")
    1
    """
    if not r:
        return len(h)
    words, shifts, checked = list(h), 0, 0
    while True:
        before, trace = _table_slow(words, r)
        align, hyp_err, ref_err = [], [], []  # align: candidate position of each ref word
        for o in trace:
            if o in "ns":
                hyp_err.append(o == "s")
                ref_err.append(o == "s")
                align.append(len(hyp_err) - 1)
            elif o == "d":  # a candidate word the reference lacks
                hyp_err.append(True)
            else:  # a reference word the candidate lacks
                ref_err.append(True)
                align.append(len(hyp_err) - 1)
        candidates = []
        for sh in range(len(words)):
            for sr in range(len(r)):
                if abs(sr - sh) > MAX_SHIFT_DIST:
                    continue
                length = 0
                while (
                    length < MAX_SHIFT_SIZE
                    and sh + length < len(words)
                    and sr + length < len(r)
                    and words[sh + length] == r[sr + length]
                ):
                    length += 1
                    if not (any(hyp_err[sh : sh + length]) and any(ref_err[sr : sr + length])):
                        continue
                    if sh <= align[sr] < sh + length:
                        continue
                    targets = [0 if sr + o == -1 else align[sr + o] + 1 for o in range(-1, length)]
                    for k, target in enumerate(targets):
                        if k and target == targets[k - 1]:
                            continue
                        block = words[sh : sh + length]
                        rest = words[:sh] + words[sh + length :]
                        at = _insert_at(len(words), sh, length, target)
                        trial = rest[:at] + block + rest[at:]
                        gain = before - _table_slow(trial, r)[0]
                        candidates.append(((gain, length, -sh, -target), trial))
                    if len(candidates) + checked >= MAX_SHIFT_CANDIDATES:
                        return shifts + before
        checked += len(candidates)
        if not candidates:
            return shifts + before
        key, trial = max(candidates, key=lambda c: c[0])  # the first of equal keys
        if key[0] <= 0:
            return shifts + before
        words, shifts = trial, shifts + 1
