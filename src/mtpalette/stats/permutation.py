"""Permutation tests between two metrics as WMT runs them: PERM-BOTH over scores, the
``pairs`` test over pairwise comparisons, early stopping.

Both tests ask whether metric ``a`` correlates better with humans than metric ``b``:

* ``scores`` (PERM-BOTH, Deutsch et al. 2021): both metrics' rated scores are z-normalised;
  each permutation swaps every entry between the two metrics with probability 1/2 and
  recomputes the statistic of both hybrids;
* ``pairs`` (mt-metrics-eval's ``PairwisePermutationSigDiff``, WMT23-25's segment-level test):
  each metric's pairwise comparisons inside every group (with its own calibrated tie
  threshold) are swapped pair by pair, so two tie thresholds are compared without
  recalibrating every permutation.

``p = #{permutations: stat(a') - stat(b') >= delta} / n`` (mt-metrics-eval's formula; note
it can be 0). **Early stopping**: after every ``block_size`` permutations the test stops if
``p < early_min`` or ``p > early_max``. mt-metrics-eval's ``pairs`` test makes that check
only after a permutation whose difference reached ``delta``; both tests here reproduce it.

**Draws.** mt-metrics-eval draws its swaps from numpy's global legacy generator, one
``binomial(1, 0.5)`` per entry, that is one uniform double ``u`` per entry with swap
``u > 0.5``; the ``pairs`` test draws a full ``n x n`` matrix per group and uses its upper
triangle. The functions here draw the same stream from a ``numpy.random.RandomState``, so with
the same seed (``np.random.seed(s)`` before mt-metrics-eval's run) they reproduce its
permutations, p-values and resampled correlations exactly, while computing the statistic of
a whole block of permutations at once.

References
----------
Deutsch, Dror and Roth (2021), A Statistical Analysis of Summarization Evaluation Metrics
using Resampling Methods (PERM-BOTH). Deutsch, Foster and Freitag (2023), Ties Matter
(the pairs test). Reference implementation: google-research/mt-metrics-eval at 68a481a,
``mt_metrics_eval/stats.py`` (``PermutationSigDiff``, ``PairwisePermutationSigDiff``,
``PermutationSigDiffParams``, ``_ReshapeAndFilter``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mtpalette.kernels import legacy_draws
from mtpalette.kernels.ragged import Delimited

#: the p-value conventions of a permutation test: mt-metrics-eval's ``count / k``, or
#: ``(count + 1) / (k + 1)`` (the observed split counted as a permutation)
P_CONVENTIONS = ("mtme", "plus-one")

#: permutations per block when a block is drawn at once (memory bound, not a statistic)
_DRAW_ENTRIES = 4_000_000


@dataclass(frozen=True)
class EarlyStopping:
    """When a permutation test may stop early (mt-metrics-eval's ``PermutationSigDiffParams``).

    ``block_size = k`` disables early stopping.
    """

    block_size: int = 1000
    early_min: float = 0.02
    early_max: float = 0.5


@dataclass(frozen=True)
class PermutationTest:
    """Result of a test that metric ``a`` correlates better than metric ``b``.

    ``draws[t] = (stat of a's hybrid, stat of b's hybrid)`` for each permutation ``t`` run.
    """

    p_value: float
    delta: float
    n_used: int
    draws: np.ndarray


Source = int | np.random.RandomState | np.random.Generator | None


def pair_generator(seed: int, question: str, a: str, b: str) -> np.random.Generator:
    """The independent draws of one test: a generator keyed by ``seed``, the question (what
    is compared: level, correlation function and arguments, grouping, test; see
    :func:`mtpalette.stats.catalogue.question`) and the two metrics' names. The same
    question asked by any command, in any order, in any process, draws the same
    permutations, so ``correlate`` and ``wmt`` give the same p-value.

    Examples
    --------
    >>> g = pair_generator(1, "seg|pearson|{}|none|scores", "A", "B")
    >>> bool(g.random() == pair_generator(1, "seg|pearson|{}|none|scores", "A", "B").random())
    True
    """
    import zlib

    key = tuple(zlib.crc32(x.encode()) for x in (question, a, b))
    return np.random.default_rng(np.random.SeedSequence(int(seed), spawn_key=key))


def legacy_stream(seed: Source) -> np.random.RandomState | np.random.Generator:
    """The draw source of ``seed``: a ``Generator`` is used as is (independent draws); an
    integer, None or a ``RandomState`` give mt-metrics-eval's legacy stream
    (``np.random.seed(seed)``)."""
    if isinstance(seed, np.random.RandomState | np.random.Generator):
        return seed
    return np.random.RandomState(seed)


def _entry_swaps(stream, n_perm: int, n: int) -> np.ndarray:
    """``(n_perm, n)`` swap indicators, one ``binomial(1, 0.5)`` per entry (legacy stream:
    one uniform double per entry, swapped when above 1/2)."""
    if isinstance(stream, np.random.Generator):
        return stream.random((n_perm, n), dtype=np.float32) < 0.5
    return stream.random_sample((n_perm, n)) > 0.5


def _pair_swaps(stream, n_perm: int, n_draws: int, upper: np.ndarray) -> np.ndarray:
    """``(n_perm, pairs)`` swap indicators of the ``pairs`` test for the pairs at positions
    ``upper``. The legacy stream draws an ``n x n`` matrix per group (``n_draws`` values per
    permutation) as mt-metrics-eval (:func:`mtpalette.kernels.legacy_draws.pair_swaps`); a
    ``Generator`` draws only the pairs asked for."""
    if isinstance(stream, np.random.Generator):
        return stream.random((n_perm, upper.size), dtype=np.float32) < 0.5
    # the compiled legacy stream: the same swaps, the unused draws skipped, not built
    return legacy_draws.pair_swaps(stream, n_perm, n_draws, upper)


def _blocks(k: int, block_size: int, per_perm: int):
    """Permutation ranges ``(lo, hi)``: stopping checks at multiples of ``block_size``, each
    range small enough to draw at once."""
    chunk = max(1, _DRAW_ENTRIES // max(per_perm, 1))
    lo = 0
    while lo < k:
        hi = min(k, (lo // block_size + 1) * block_size, lo + chunk)
        yield lo, hi
        lo = hi


def _stop(count: int, i: int, stopping: EarlyStopping) -> bool:
    p = count / i
    return p < stopping.early_min or p > stopping.early_max


def perm_both(
    stat: Callable[[np.ndarray], np.ndarray],
    a: np.ndarray,
    b: np.ndarray,
    *,
    k: int = 1000,
    stopping: EarlyStopping = EarlyStopping(),
    seed: Source = None,
    plus_one: bool = False,
) -> PermutationTest:
    """PERM-BOTH test that ``a`` correlates better than ``b`` (both already z-normalised).

    ``stat`` maps a ``(B, n)`` stack of metric vectors to their ``B`` statistics (NaN-free:
    the caller decides what an undefined value counts as). The p-value is mt-metrics-eval's
    share of the permutations at least as extreme as the observed split, ``count / k``, or
    with ``plus_one`` ``(count + 1) / (k + 1)`` (the observed split counted as one of the
    permutations: never 0, and one permutation cannot declare a difference; Phipson and
    Smyth 2010).

    Examples
    --------
    >>> h = np.arange(8.0)
    >>> a, b = h + np.r_[0.1, -0.1] .repeat(4), np.r_[3, 0, 7, 1, 6, 2, 5, 4.0]
    >>> z = lambda x: (x - x.mean()) / x.std()
    >>> r = lambda v: np.array([np.corrcoef(h, row)[0, 1] for row in v])
    >>> res = perm_both(r, z(a), z(b), k=200, seed=1)
    >>> res.n_used, res.p_value < 0.05
    (200, True)
    """
    stream = legacy_stream(seed)
    both = np.stack([a, b])
    sa, sb = stat(both)
    delta = float(sa - sb)
    draws = np.empty((k, 2))
    count, used = 0, 0
    for lo, hi in _blocks(k, stopping.block_size, a.size):
        w = _entry_swaps(stream, hi - lo, a.size)
        hb = np.where(w, b, a)  # b's hybrid: b where swapped (mt-metrics-eval's m1)
        ha = np.where(w, a, b)
        c = stat(np.concatenate([ha, hb]))
        ca, cb = c[: hi - lo], c[hi - lo :]
        draws[lo:hi, 0], draws[lo:hi, 1] = ca, cb
        count += int(np.sum(ca - cb >= delta))
        used = hi
        if hi % stopping.block_size == 0 and _stop(count, hi, stopping):
            break
    used = max(used, 1)
    p = (count + 1) / (used + 1) if plus_one else count / used
    return PermutationTest(p, delta, used, draws[: min(used, k)])


# ----------------------------------------------------------------------------------------
# the pairs test
# ----------------------------------------------------------------------------------------
#: classes of a pair: concordant, discordant, tie in metric only, tie in gold only, both
_CON, _DIS, _TM, _TG, _TB = range(5)


@dataclass(frozen=True)
class PairLayout(Delimited):
    """The pairs ``i < j`` inside every group of a grouped vector, for the ``pairs`` test.

    ``offsets`` delimit the groups of the filtered vector (mt-metrics-eval's
    ``_ReshapeAndFilter``); ``pair_i``/``pair_j`` index that vector; ``pair_group`` and
    ``pair_offsets`` group the pairs; ``upper`` is each pair's position in one permutation's
    draws (an ``n x n`` matrix per group, row major).
    """

    offsets: np.ndarray
    pair_i: np.ndarray
    pair_j: np.ndarray
    pair_offsets: np.ndarray
    upper: np.ndarray
    n_draws: int

    @property
    def n_pairs(self) -> np.ndarray:
        return np.diff(self.pair_offsets)


def pair_layout(offsets: np.ndarray) -> PairLayout:
    """The :class:`PairLayout` of groups delimited by ``offsets``.

    Examples
    --------
    >>> lay = pair_layout(np.array([0, 2, 5]))
    >>> lay.pair_i.tolist(), lay.pair_j.tolist(), lay.n_pairs.tolist(), lay.n_draws
    ([0, 2, 2, 3], [1, 3, 4, 4], [1, 3], 13)
    """
    return _pair_layout(np.ascontiguousarray(offsets, dtype=np.int64).tobytes())


@functools.lru_cache(maxsize=16)
def _pair_layout(key: bytes) -> PairLayout:
    """The layout of the offsets ``key`` (their bytes): every metric pair of a task has the
    same groups, so the layout is built once per task, its arrays read-only."""
    offsets = np.frombuffer(key, dtype=np.int64)
    sizes = np.diff(offsets)
    pi, pj, up, poff = [], [], [], [0]
    draw = 0
    for start, n in zip(offsets[:-1], sizes, strict=True):
        iu, ju = np.triu_indices(int(n), 1)
        pi.append(start + iu)
        pj.append(start + ju)
        up.append(draw + iu * n + ju)
        poff.append(poff[-1] + iu.size)
        draw += int(n) * int(n)
    cat = lambda xs: np.concatenate(xs).astype(np.int64) if xs else np.zeros(0, np.int64)  # noqa: E731
    arrays = [offsets, cat(pi), cat(pj), np.asarray(poff, np.int64), cat(up)]
    for a in arrays:
        a.setflags(write=False)
    return PairLayout(*arrays, draw)


def pair_classes(
    layout: PairLayout, gold: np.ndarray, metric: np.ndarray, epsilon: float
) -> np.ndarray:
    """Class of every pair: 0 concordant, 1 discordant, 2 tied in the metric only, 3 tied in
    gold only, 4 tied in both; a metric tie is ``|diff| <= epsilon``.

    Examples
    --------
    >>> lay = pair_layout(np.array([0, 3]))  # pairs (0, 1), (0, 2), (1, 2)
    >>> pair_classes(lay, np.array([1.0, 2.0, 2.0]), np.array([0.1, 0.5, 0.45]), 0.1).tolist()
    [0, 0, 4]
    """
    dm = metric[layout.pair_j] - metric[layout.pair_i]
    dg = gold[layout.pair_j] - gold[layout.pair_i]
    tie_m = np.abs(dm) <= epsilon
    tie_g = dg == 0.0
    con = ~tie_m & ~tie_g & (((dm > 0) & (dg > 0)) | ((dm < 0) & (dg < 0)))
    cls = np.full(dm.size, _DIS, dtype=np.int8)
    cls[con] = _CON
    cls[tie_m & ~tie_g] = _TM
    cls[~tie_m & tie_g] = _TG
    cls[tie_m & tie_g] = _TB
    return cls


def tau_from_class_counts(counts: np.ndarray, variant: str) -> np.ndarray:
    """Kendall variant from ``(..., 5)`` class counts, as mt-metrics-eval's ``KendallVariants``
    (NaN for tau-b when a side is all ties, and for an empty group).

    Examples
    --------
    >>> tau_from_class_counts(np.array([[3, 1, 0, 0, 1]]), "acc23").tolist()
    [0.8]
    """
    c = counts.astype(np.int64)
    con, dis, tm, tg, tb = (c[..., i] for i in range(5))
    tot = con + dis + tm + tg + tb
    with np.errstate(invalid="ignore", divide="ignore"):
        if variant == "acc23":
            out = (con + tb) / tot
        elif variant == "23":
            out = (con + tb - dis - tm - tg) / tot
        elif variant == "b":
            xtie, ytie = tm + tb, tg + tb
            out = (con - dis) / np.sqrt(tot - xtie) / np.sqrt(tot - ytie)
            out = np.where((xtie == tot) | (ytie == tot), np.nan, out)
        else:
            raise ValueError(f"the pairs test supports variants acc23, 23 and b, not {variant!r}")
    return np.where(tot == 0, np.nan, out)


def average_values(vals: np.ndarray, replace_nans_with_zeros: bool) -> np.ndarray:
    """Average over the last axis as mt-metrics-eval's tests do: NaN dropped (or 0), and 0
    when nothing is left.

    Examples
    --------
    >>> v = np.array([[0.5, np.nan, 1.0], [np.nan, np.nan, np.nan]])
    >>> average_values(v, False).tolist(), average_values(v, True).tolist()
    ([0.75, 0.0], [0.5, 0.0])
    """
    vals = np.atleast_2d(vals)
    if replace_nans_with_zeros:
        return np.mean(np.nan_to_num(vals), axis=-1) if vals.shape[-1] else np.zeros(len(vals))
    ok = ~np.isnan(vals)
    if ok.all():
        return np.mean(vals, axis=-1) if vals.shape[-1] else np.zeros(len(vals))
    out = np.zeros(len(vals))
    for r in range(len(vals)):  # rows with NaN: mean of the defined ones, row by row
        v = vals[r][ok[r]]
        out[r] = np.mean(v) if v.size else 0.0
    return out


def _class_counts(layout: PairLayout, cls: np.ndarray) -> np.ndarray:
    onehot = np.zeros((cls.size, 5), dtype=np.int64)
    onehot[np.arange(cls.size), cls] = 1
    cs = np.vstack([np.zeros((1, 5), np.int64), np.cumsum(onehot, axis=0)])
    return cs[layout.pair_offsets[1:]] - cs[layout.pair_offsets[:-1]]


def _tau_from_correct(correct: np.ndarray, n_pairs: np.ndarray, variant: str) -> np.ndarray:
    """acc-eq (``(C + T_both) / N``) or tau-eq (``(2 (C + T_both) - N) / N``) per group, the
    same integer ratios as :func:`tau_from_class_counts`."""
    num = correct if variant == "acc23" else 2 * correct - n_pairs
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n_pairs == 0, np.nan, num / n_pairs)


def pairs_test(
    layout: PairLayout,
    classes_a: np.ndarray,
    classes_b: np.ndarray,
    *,
    variant: str = "acc23",
    k: int = 1000,
    stopping: EarlyStopping = EarlyStopping(),
    seed: Source = None,
    replace_nans_with_zeros: bool = False,
    plus_one: bool = False,
) -> PermutationTest:
    """The ``pairs`` permutation test that metric ``a`` beats ``b``, from their pair classes
    (:func:`pair_classes`, each with its own tie threshold); ``plus_one``: the p-value
    convention, as :func:`perm_both`.

    Examples
    --------
    >>> lay = pair_layout(np.array([0, 3, 6]))
    >>> g = np.array([1.0, 2, 3, 1, 2, 3])
    >>> a = pair_classes(lay, g, g, 0.0)           # agrees with every human order
    >>> b = pair_classes(lay, g, g[::-1].copy(), 0.0)
    >>> res = pairs_test(lay, a, b, k=100, seed=3)
    >>> res.delta, res.n_used
    (1.0, 100)
    """
    stream = legacy_stream(seed)
    ca, cb = _class_counts(layout, classes_a), _class_counts(layout, classes_b)
    va = tau_from_class_counts(ca, variant)
    vb = tau_from_class_counts(cb, variant)
    delta = float(
        average_values(va[None], replace_nans_with_zeros)[0]
        - average_values(vb[None], replace_nans_with_zeros)[0]
    )
    changed = np.flatnonzero(classes_a != classes_b)
    # acc-eq and tau-eq depend on the number of correct pairs (concordant or tied in both)
    # only; tau-b needs every class
    onehot = np.zeros((changed.size, 5), dtype=np.int32)
    onehot[np.arange(changed.size), classes_a[changed]] += 1
    onehot[np.arange(changed.size), classes_b[changed]] -= 1
    if variant in ("acc23", "23"):
        diff = onehot[:, _CON] + onehot[:, _TB]
        diff = diff[:, None]
    else:
        diff = onehot
    # changed pairs are in group order: group g's pairs are pos[g]:pos[g + 1]
    pos = np.searchsorted(changed, layout.pair_offsets)
    upper = layout.upper[changed]
    draws = np.empty((k, 2))
    count, used = 0, 0
    per_perm = max(upper.size, 1)  # the swaps kept; the legacy kernel builds no doubles
    n_pairs = layout.n_pairs
    for lo, hi in _blocks(k, stopping.block_size, per_perm):
        w = _pair_swaps(stream, hi - lo, layout.n_draws, upper)
        # a's hybrid takes a's class where swapped: counts_b + w * (onehot_a - onehot_b)
        shift = np.empty((hi - lo, layout.n_groups, diff.shape[1]), dtype=np.int64)
        cs = np.zeros((hi - lo, changed.size + 1), dtype=np.int32)
        for c in range(diff.shape[1]):
            np.cumsum(np.where(w, diff[:, c], 0), axis=1, out=cs[:, 1:])
            shift[..., c] = cs[:, pos[1:]] - cs[:, pos[:-1]]
        if variant in ("acc23", "23"):
            corr_a = (cb[:, _CON] + cb[:, _TB])[None] + shift[..., 0]
            corr_b = (ca[:, _CON] + ca[:, _TB])[None] - shift[..., 0]
            hyb_a = _tau_from_correct(corr_a, n_pairs, variant)
            hyb_b = _tau_from_correct(corr_b, n_pairs, variant)
        else:
            hyb_a = tau_from_class_counts(cb[None] + shift, variant)  # MTME's hybrids2
            hyb_b = tau_from_class_counts(ca[None] - shift, variant)
        c_a = average_values(hyb_a, replace_nans_with_zeros)
        c_b = average_values(hyb_b, replace_nans_with_zeros)
        draws[lo:hi, 0], draws[lo:hi, 1] = c_a, c_b
        hits = c_a - c_b >= delta
        # mt-metrics-eval checks for an early stop only after a permutation that hit delta
        stop_at = None
        for t in np.flatnonzero(hits):
            count += 1
            i = lo + int(t) + 1
            if i % stopping.block_size == 0 and _stop(count, i, stopping):
                stop_at = i
                break
        if stop_at is not None:
            used = stop_at
            break
        used = hi
    used = max(used, 1)
    p = (count + 1) / (used + 1) if plus_one else count / used
    return PermutationTest(p, delta, used, draws[: min(used, k)])
