"""Pruning MBR (Cheng and Vlachos 2023), as mbrs's ``pruning_mbr`` defines it.

The pseudo-references are taken in growing prefixes (the schedule, by default 8, 16, 32, 64,
128 and 256 references). At each step the surviving candidates are scored against the new
references only; the candidate of highest expected utility over the prefix is the current
best, and ``bootstrap`` resamples (with replacement) of the prefix's columns give each
candidate's win rate, the share of resamples where its expected utility is at least the
current best's. Candidates whose win rate is not above ``1 - alpha`` are pruned, unless fewer
than ``nbest`` would remain: then the search stops. The decision is the best expected utility
over the last prefix the survivors were scored on.

The resamples are drawn with numpy's ``default_rng(seed)``, started afresh for every segment
(mbrs draws them with torch's generator: the same rule, other draws). Where mbrs would go on
with an undefined value, this refuses: a schedule that is not strictly increasing, ``alpha``
outside (0, 1), and a first step that prunes below ``nbest`` candidates (mbrs then averages
over no reference at all).

References
----------
Cheng and Vlachos (2023), Faster minimum Bayes risk decoding with confidence-based pruning;
mbrs 0.1.8, ``mbrs/decoders/pruning_mbr.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mtpalette.errors import UserInputError

#: mbrs's defaults
SCHEDULE = (8, 16, 32, 64, 128, 256)
ALPHA = 0.99
BOOTSTRAP = 500


@dataclass(frozen=True)
class Pruned:
    """Per segment: every candidate's expected utility over the references its survivors were
    last scored on (NaN: pruned), the scores computed (NaN where never computed), and the
    number of references used."""

    utilities: list[np.ndarray]
    matrices: list[np.ndarray]
    references_used: np.ndarray


def check_pruning(alpha: float, schedule: Sequence[int], bootstrap: int) -> tuple[int, ...]:
    """The schedule as a tuple, once the options are checked.

    Examples
    --------
    >>> check_pruning(0.99, [2, 4, 8], 500)
    (2, 4, 8)
    """
    if not 0.0 < alpha < 1.0:
        raise UserInputError(f"--alpha must be in (0, 1) (got {alpha})")
    sched = tuple(int(r) for r in schedule)
    if not sched or sched[0] < 1 or any(b <= a for a, b in zip(sched, sched[1:], strict=False)):
        raise UserInputError(
            f"the schedule of reference counts must be strictly increasing positive integers "
            f"(got {', '.join(map(str, sched)) or 'none'})"
        )
    if bootstrap < 1:
        raise UserInputError(f"--bootstrap must be at least 1 (got {bootstrap})")
    return sched


def expectation(scores: np.ndarray, lprobs: np.ndarray | None) -> np.ndarray:
    """Each row's mean, or its mean weighted by the softmax of ``lprobs`` (mbrs's
    ``functional.expectation``).

    Examples
    --------
    >>> expectation(np.array([[1.0, 3.0]]), np.array([0.0, np.log(3.0)])).tolist()
    [2.5]
    """
    if lprobs is None:
        return scores.mean(axis=-1)
    e = np.exp(lprobs - lprobs.max())
    return scores @ (e / e.sum())


def _win_rates(
    scores: np.ndarray, lprobs: np.ndarray | None, best: int, rng, bootstrap: int
) -> np.ndarray:
    """Each candidate's share of bootstrap resamples of the columns where its expected
    utility is at least ``best``'s."""
    r = scores.shape[1]
    idx = rng.integers(0, r, size=(bootstrap, r))
    # how often each column is drawn in each resample: a resample's mean is a weighted sum
    flat = (idx + r * np.arange(bootstrap)[:, None]).ravel()
    counts = np.bincount(flat, minlength=bootstrap * r).reshape(bootstrap, r).astype(np.float64)
    if lprobs is not None:
        counts *= np.exp(lprobs - lprobs.max())
    # einsum, not BLAS: small products, and no thread pool to contend for on a busy machine
    boot = np.einsum("hr,br->hb", scores, counts) / counts.sum(axis=1)
    return (boot >= boot[best]).mean(axis=1)


def prune(
    candidates: list[list[str]],
    references: list[list[str]],
    score,
    *,
    nbest: int = 1,
    alpha: float = ALPHA,
    schedule: Sequence[int] = SCHEDULE,
    bootstrap: int = BOOTSTRAP,
    seed: int = 0,
    reference_lprobs: Sequence[Sequence[float]] | None = None,
) -> Pruned:
    """Pruning MBR of every segment; ``score(cands, refs)`` gives the utility matrices of
    lists of segments (higher is better), called once per step for all segments together.

    Examples
    --------
    >>> from mtpalette.metrics.pairwise import pairwise
    >>> def score(c, r):
    ...     return list(pairwise(c, r, "chrf"))
    >>> cands = [["the cat sat", "a cat sat on", "the cat sat on", "dog"]]
    >>> out = prune(cands, cands, score, schedule=[2, 4])
    >>> int(np.nanargmax(out.utilities[0])), int(out.references_used[0])
    (2, 4)
    """
    sched = check_pruning(alpha, schedule, bootstrap)
    n_seg = len(candidates)
    lps = [
        None if reference_lprobs is None else np.asarray(reference_lprobs[s], dtype=np.float64)
        for s in range(n_seg)
    ]
    alive = [np.arange(len(c)) for c in candidates]
    cap = [min(sched[-1], len(r)) for r in references]
    mats = [np.full((len(c), k), np.nan) for c, k in zip(candidates, cap, strict=True)]
    prev = np.zeros(n_seg, dtype=np.int64)
    rngs = [np.random.default_rng(seed) for _ in range(n_seg)]
    active = [s for s in range(n_seg) if len(candidates[s]) and cap[s]]
    for r_t in sched:
        step = [(s, min(r_t, len(references[s]))) for s in active]
        step = [(s, r) for s, r in step if r > prev[s]]
        if not step:
            break
        new = score(
            [[candidates[s][i] for i in alive[s]] for s, _ in step],
            [references[s][prev[s] : r] for s, r in step],
        )
        active = []
        for (s, r), block in zip(step, new, strict=True):
            mats[s][np.ix_(alive[s], np.arange(prev[s], r))] = block
            cols = mats[s][alive[s], :r]
            lp = None if lps[s] is None else lps[s][:r]
            best = int(np.argmax(expectation(cols, lp)))
            rates = _win_rates(cols, lp, best, rngs[s], bootstrap)
            winners = np.flatnonzero(rates > 1.0 - alpha)
            if len(winners) >= min(nbest, len(candidates[s])):
                alive[s] = alive[s][winners]
                prev[s] = r
                active.append(s)
            elif prev[s] == 0:
                raise UserInputError(
                    f"segment {s + 1}: the first step of pruning MBR ({r} references) leaves "
                    f"{len(winners)} candidate(s), fewer than the {nbest} asked for, and no "
                    "reference to take the expectation over; start the schedule with more "
                    "references or raise --alpha"
                )
    utilities = []
    for s in range(n_seg):
        u = np.full(len(candidates[s]), np.nan)
        if prev[s]:
            lp = None if lps[s] is None else lps[s][: prev[s]]
            u[alive[s]] = expectation(mats[s][alive[s], : prev[s]], lp)
        utilities.append(u)
    return Pruned(utilities, mats, prev)
