"""The resampling engine: seeded draws in bounded batches, interval ranking and p-values.

Every bootstrap interval, paired test and permutation test of mtpalette draws from here; the
engine knows nothing of metrics or correlations. Its parts:

* **seeds** - :func:`resolve_seed` turns an int, a Generator or ``None`` (fresh entropy,
  recorded) into a Generator and the integer to record.
* **bootstrap draws** - :func:`index_batches` yields resampled unit indices ``(m, n)``;
  :func:`resample_counts` turns them into per-unit draw counts (the weights of a resample).
  The values of row ``b`` are those of ``rng.integers(0, n, (B, n))`` whatever the batch size
  and the dtype (int32 by default: half the memory), hence equal to sacrebleu's
  ``np.random.default_rng(seed).choice(n, (B, n))``.
* **swap draws** - :func:`swap_batches` yields ``(m, n)`` booleans (swap unit ``i`` between
  the two systems or metrics in trial ``t``) for approximate randomization and PERM-BOTH
  style permutation tests, from one of four streams that reproduce sacrebleu's and
  mt-metrics-eval's draws (:data:`SWAP_STREAMS`); :func:`permutation_batches` yields
  shuffles of ``0..n-1``.
* **intervals** - :func:`bootstrap_interval` (percentile or basic, interpolated quantiles,
  NaN resamples left out) and :func:`order_statistic_interval` (sacrebleu's
  ``floor(B (1 - level) / 2)``-th smallest and largest resample, :func:`interval_rank`).
* **p-values** - :func:`p_value` (``(1 + count) / (1 + total)`` or ``count / total``) and
  :func:`count_exceedances`, the counting loop of a Monte Carlo test with optional early
  stopping at block boundaries (mt-metrics-eval's ``PermutationSigDiffParams``).

Batches bound memory: a batch holds at most :data:`BATCH_ENTRIES` entries unless the caller
chooses its rows. The draws never depend on the batch size (tested), so a caller may pick the
batch that suits its own products; results depend on batches only through floating-point
summation order.

References
----------
Efron and Tibshirani (1993), An Introduction to the Bootstrap. Koehn (2004), Statistical
Significance Tests for Machine Translation Evaluation. Riezler and Maxwell (2005), On Some
Pitfalls in Automatic Evaluation and Significance Testing for MT. Phipson and Smyth (2010),
Permutation P-values Should Never Be Zero. sacrebleu 2.x ``significance.py`` (the draws of
its paired bootstrap and approximate randomization); google-research/mt-metrics-eval
``stats.PermutationSigDiff`` (swap draws and early stopping). scipy.stats.bootstrap
(``rng`` arguments).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

Seed = int | np.random.Generator | None
#: a source of draws: a Generator, or a legacy RandomState (mt-metrics-eval's global
#: ``np.random`` draws, see :func:`swap_batches`)
Source = np.random.Generator | np.random.RandomState

#: a batch of draws holds at most this many entries unless the caller sets its rows
BATCH_ENTRIES = 2_000_000
INTERVAL_METHODS = ("percentile", "basic")


def resolve_seed(seed: Seed) -> tuple[np.random.Generator, int | None]:
    """A Generator for ``seed`` and the integer seed to record (``None`` for a Generator).

    ``None`` draws a fresh seed from the operating system and returns it, so the run can be
    repeated.

    Examples
    --------
    >>> rng, recorded = resolve_seed(12345)
    >>> recorded, rng.random() == np.random.default_rng(12345).random()
    (12345, True)
    """
    if isinstance(seed, np.random.Generator):
        return seed, None
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1, dtype=np.uint32)[0])
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer or a Generator, got {seed!r}")
    return np.random.default_rng(int(seed)), int(seed)


def batch_rows(total: int, width: int, *, max_entries: int = BATCH_ENTRIES) -> int:
    """Rows per batch so that a ``(rows, width)`` batch holds at most ``max_entries``
    entries (at least one row, at most ``total``).

    Examples
    --------
    >>> batch_rows(1000, 529), batch_rows(10, 529), batch_rows(5, 10**7)
    (1000, 10, 1)
    """
    return max(1, min(total, max_entries // max(width, 1)))


def _row_counts(total: int, rows: int | None, width: int, align: int = 1) -> Iterator[int]:
    if total < 0:
        raise ValueError(f"the number of draws must be non-negative, got {total}")
    size = batch_rows(total, width) if rows is None else rows
    if size < 1:
        raise ValueError(f"a batch needs at least one row, got {size}")
    size = max(align, size - size % align)
    for start in range(0, total, size):
        yield min(size, total - start)


def index_batches(
    n: int,
    n_resamples: int,
    rng: np.random.Generator,
    *,
    rows: int | None = None,
    dtype: Any = np.int32,
) -> Iterator[np.ndarray]:
    """Bootstrap draws: ``(m, n)`` unit indices drawn with replacement, in batches.

    Row ``b`` (counting over batches) holds the values of row ``b`` of
    ``rng.integers(0, n, (n_resamples, n))``, which are those of sacrebleu's
    ``rng.choice(n, (n_resamples, n))``, whatever ``rows`` and ``dtype`` (int32 and int64
    draw the same numbers), and the generator ends in the same state.

    Parameters
    ----------
    n:
        Number of units (segments, items, systems).
    n_resamples:
        Number of resamples ``B``.
    rng:
        The generator (see :func:`resolve_seed`).
    rows:
        Resamples per batch; default: at most :data:`BATCH_ENTRIES` indices per batch.
    dtype:
        Integer dtype of the indices.

    Examples
    --------
    >>> [b.shape for b in index_batches(4, 3, np.random.default_rng(0))]
    [(3, 4)]
    >>> whole = np.random.default_rng(1).choice(5, (4, 5))
    >>> parts = index_batches(5, 4, np.random.default_rng(1), rows=3)
    >>> bool((np.concatenate(list(parts)) == whole).all())
    True
    """
    if n < 1 and n_resamples:
        raise ValueError("there must be at least one unit to resample")
    for m in _row_counts(n_resamples, rows, n):
        yield rng.integers(0, n, size=(m, n), dtype=dtype)


def resample_counts(idx: np.ndarray, n: int) -> np.ndarray:
    """How often each unit is drawn in each resample: ``(m, n)`` float64 from indices
    ``(m, n)``, so that ``counts @ rows`` sums the resampled rows.

    Examples
    --------
    >>> resample_counts(np.array([[0, 0, 2], [1, 2, 2]]), 3).tolist()
    [[2.0, 0.0, 1.0], [0.0, 1.0, 2.0]]
    """
    m = idx.shape[0]
    shifted = idx.astype(np.int64) + (np.arange(m, dtype=np.int64) * n)[:, None]
    return np.bincount(shifted.ravel(), minlength=m * n).reshape(m, n).astype(np.float64)


#: the streams of swap draws, see :func:`swap_batches`
SWAP_STREAMS = ("bits", "integers", "float32", "legacy")


def swap_batches(
    n: int,
    n_trials: int,
    rng: Source,
    *,
    stream: str | None = None,
    rows: int | None = None,
) -> Iterator[np.ndarray]:
    """Swap draws: ``(m, n)`` booleans, True where trial ``t`` swaps unit ``i`` between the
    two sides (each unit with probability 1/2), in batches.

    The values are fixed by the source and the ``stream``, never by the batch size; each is
    the stream of a reference implementation:

    * ``"bits"`` (default for a Generator): ``rng.integers(2, size=(T, n), dtype=bool)``,
      sacrebleu's approximate randomization. NumPy packs 32 such draws in one 32-bit word and
      drops the rest of a word at the end of a call, so batches are cut at multiples of 32
      entries (``rows`` is rounded down to one) and the generator ends in the state one call
      leaves.
    * ``"integers"``: ``rng.integers(0, 2, size=(T, n))`` (int64), equal to ``T`` successive
      ``rng.integers(0, 2, n)``.
    * ``"float32"``: ``rng.random((T, n), dtype=np.float32) > 0.5``, the draws of
      mt-metrics-eval's ``pce.compute_pairwise_p_values`` (SPA), which rounds them to 0/1
      (``np.rint``: 1 exactly when above 0.5) and maps them to signs.
    * ``"legacy"`` (the only stream of a RandomState): ``rng.random_sample((T, n)) > 0.5``,
      which equals ``T`` successive ``rng.binomial(1, 0.5, n)``; with
      ``np.random.RandomState(s)`` these are the draws of mt-metrics-eval's
      ``PermutationSigDiff`` after ``np.random.seed(s)`` (it draws from numpy's global legacy
      state). Its ``PairwisePermutationSigDiff`` draws an ``n x n`` matrix per group and keeps
      the upper triangle: draw ``sum(n_g ** 2)`` per trial and select those columns.

    Examples
    --------
    >>> one = np.random.default_rng(12345).integers(2, size=(100, 7), dtype=bool)
    >>> parts = list(swap_batches(7, 100, np.random.default_rng(12345), rows=40))
    >>> [p.shape[0] for p in parts], bool((np.concatenate(parts) == one).all())
    ([32, 32, 32, 4], True)
    >>> legacy = np.random.RandomState(3)
    >>> mtme = [np.random.RandomState(3).binomial(1, 0.5, 5)]
    >>> bool((next(swap_batches(5, 1, legacy)) == mtme).all())
    True
    """
    legacy = isinstance(rng, np.random.RandomState)
    stream = stream or ("legacy" if legacy else "bits")
    if stream not in SWAP_STREAMS:
        raise ValueError(f"unknown stream {stream!r}; expected one of {', '.join(SWAP_STREAMS)}")
    if legacy != (stream == "legacy"):
        raise ValueError("the legacy stream comes from a RandomState, the others from a Generator")
    align = 32 // math.gcd(n, 32) if stream == "bits" else 1
    for m in _row_counts(n_trials, rows, n, align):
        if stream == "bits":
            yield rng.integers(0, 2, size=(m, n), dtype=bool)
        elif stream == "integers":
            yield rng.integers(0, 2, size=(m, n)).astype(bool)
        elif stream == "float32":
            yield rng.random((m, n), dtype=np.float32) > 0.5
        else:
            yield rng.random_sample((m, n)) > 0.5


def permutation_batches(
    n: int, n_permutations: int, rng: np.random.Generator, *, rows: int | None = None
) -> Iterator[np.ndarray]:
    """Shuffles of the units: ``(m, n)`` int64 rows, each a permutation of ``0..n-1``.

    Row ``t`` equals the ``t``-th of successive ``rng.permutation(n)`` calls, whatever the
    batch size.

    Examples
    --------
    >>> (p,) = permutation_batches(4, 2, np.random.default_rng(0))
    >>> sorted(p[0].tolist()), p.shape
    ([0, 1, 2, 3], (2, 4))
    """
    for m in _row_counts(n_permutations, rows, n):
        yield rng.permuted(np.tile(np.arange(n, dtype=np.int64), (m, 1)), axis=1)


# ----------------------------------------------------------------------------------------
# intervals
# ----------------------------------------------------------------------------------------
def _quantiles(d: np.ndarray, q: list[float], omit_nan: bool) -> tuple[np.ndarray, np.ndarray]:
    """Interpolated quantiles over axis 0, NaN resamples left out column by column."""
    if d.shape[0] == 0:
        return np.full(d.shape[1:], np.nan), np.full(d.shape[1:], np.nan)
    nan = np.isnan(d)
    if not omit_nan or not nan.any():
        lo, hi = np.quantile(d, q, axis=0)
        return np.asarray(lo), np.asarray(hi)
    flat = d.reshape(d.shape[0], -1)
    lo, hi = np.full(flat.shape[1], np.nan), np.full(flat.shape[1], np.nan)
    for j in range(flat.shape[1]):
        col = flat[~nan.reshape(flat.shape)[:, j], j]
        if col.size:
            lo[j], hi[j] = np.quantile(col, q)
    return lo.reshape(d.shape[1:]), hi.reshape(d.shape[1:])


def bootstrap_interval(
    dist: Any,
    confidence: float,
    *,
    method: str = "percentile",
    value: Any = None,
    axis: int = 0,
    omit_nan: bool = True,
) -> tuple[Any, Any]:
    """The bootstrap interval of each component of a resampled statistic.

    Parameters
    ----------
    dist:
        Resampled values; ``axis`` is the resample axis.
    confidence:
        Coverage, e.g. 0.95: the bounds are the ``(1 - confidence) / 2`` and
        ``(1 + confidence) / 2`` quantiles (linear interpolation, NumPy's default).
    method:
        ``"percentile"`` (the quantiles) or ``"basic"`` (``2 * value - quantiles``, which
        needs ``value``, the statistic on the original sample).
    omit_nan:
        Leave NaN resamples (an undefined statistic) out, a component without any defined
        resample getting NaN bounds (default); ``False``: any NaN makes the bounds NaN.

    Returns
    -------
    tuple
        ``(low, high)``: floats for a 1-D ``dist``, else arrays of the remaining shape.

    Examples
    --------
    >>> d = np.arange(0.0, 101.0)  # resamples 0, 1, ..., 100
    >>> [round(b, 9) for b in bootstrap_interval(d, 0.9)]
    [5.0, 95.0]
    >>> [round(b, 9) for b in bootstrap_interval(d, 0.9, method="basic", value=40.0)]
    [-15.0, 75.0]
    >>> bootstrap_interval([1.0, np.nan, 3.0], 0.5)
    (1.5, 2.5)
    """
    if method not in INTERVAL_METHODS:
        raise ValueError(f"method must be one of {', '.join(INTERVAL_METHODS)}")
    if not 0.0 < confidence < 1.0:
        raise ValueError("confidence must be between 0 and 1")
    d = np.moveaxis(np.asarray(dist, dtype=np.float64), axis, 0)
    alpha = 1.0 - confidence
    lo, hi = _quantiles(d, [alpha / 2.0, 1.0 - alpha / 2.0], omit_nan)
    if method == "basic":
        if value is None:
            raise ValueError("the basic interval needs the statistic's value")
        lo, hi = 2.0 * np.asarray(value) - hi, 2.0 * np.asarray(value) - lo
    if d.ndim == 1:
        return float(lo), float(hi)
    return lo, hi


def interval_rank(n_resamples: int, level: float) -> int:
    """Index of the lower bound in the sorted resampled scores: ``floor(B (1 - level) / 2)``
    (sacrebleu: ``B // 40`` at 95%).

    Examples
    --------
    >>> interval_rank(1000, 0.95), interval_rank(1001, 0.95), interval_rank(10, 0.95)
    (25, 25, 0)
    """
    return math.floor(n_resamples * (1.0 - level) / 2.0 + 1e-9)


def min_resamples(level: float) -> int:
    """The fewest resamples whose :func:`order_statistic_interval` at ``level`` leaves at
    least one resample beyond each bound: ``ceil(2 / (1 - level))``.

    Examples
    --------
    >>> min_resamples(0.95), min_resamples(0.99)
    (40, 200)
    """
    return math.ceil(2.0 / (1.0 - level) - 1e-9)


def min_trials(alpha: float) -> int:
    """The fewest trials whose smallest ``+1`` p-value, ``1 / (trials + 1)``, is below
    ``alpha``: ``ceil(1 / alpha)``.

    Examples
    --------
    >>> min_trials(0.05), min_trials(0.01)
    (20, 100)
    """
    return math.ceil(1.0 / alpha - 1e-9)


def order_statistic_interval(dist: Any, level: float, *, axis: int = 0) -> tuple[Any, Any]:
    """sacrebleu's interval: the :func:`interval_rank`-th smallest and largest resample.

    Examples
    --------
    >>> order_statistic_interval(np.arange(100.0)[::-1], 0.95)
    (2.0, 97.0)
    """
    ordered = np.sort(np.asarray(dist, dtype=np.float64), axis=axis)
    B = ordered.shape[axis]
    lo = interval_rank(B, level)
    low = np.take(ordered, lo, axis=axis)
    high = np.take(ordered, B - lo - 1, axis=axis)
    if ordered.ndim == 1:
        return float(low), float(high)
    return low, high


# ----------------------------------------------------------------------------------------
# p-values
# ----------------------------------------------------------------------------------------
def p_value(count: Any, total: Any, *, plus_one: bool = True) -> Any:
    """The Monte Carlo p-value of ``count`` draws at least as extreme as the observation
    among ``total``.

    ``plus_one`` (default) counts the observation as one of the draws,
    ``(1 + count) / (1 + total)``, never 0 (Phipson and Smyth 2010; sacrebleu, MultEval);
    ``plus_one=False`` gives ``count / total`` (mt-metrics-eval). NaN without draws.

    Examples
    --------
    >>> p_value(0, 999), p_value(3, 1000, plus_one=False), p_value(0, 0)
    (0.001, 0.003, nan)
    >>> p_value(np.array([0, 9]), 9).tolist()
    [0.1, 1.0]
    """
    count = np.asarray(count, dtype=np.float64)
    total = np.asarray(total, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = (1.0 + count) / (total + 1.0) if plus_one else count / total
    out = np.where(total > 0, out, np.nan)
    return float(out) if out.ndim == 0 else out


@dataclass(frozen=True)
class Exceedances:
    """The outcome of a Monte Carlo test: ``count`` of ``trials`` draws were at least as
    extreme as the observation; ``stopped_early`` when a block boundary ended the run."""

    count: int
    trials: int
    stopped_early: bool

    def p_value(self, *, plus_one: bool = True) -> float:
        """See :func:`p_value`."""
        return p_value(self.count, self.trials, plus_one=plus_one)


def count_exceedances(
    batches: Iterable[np.ndarray],
    extreme: Callable[[np.ndarray], np.ndarray],
    *,
    block_size: int | None = None,
    early_min: float = 0.0,
    early_max: float = 1.0,
    check_after_hits_only: bool = False,
) -> Exceedances:
    """Count the draws whose statistic is at least as extreme as the observed one.

    Parameters
    ----------
    batches:
        Batches of draws (e.g. :func:`swap_batches`), one trial per row.
    extreme:
        Maps a batch to one boolean per row: the trial is at least as extreme.
    block_size, early_min, early_max:
        Early stopping as mt-metrics-eval's ``PermutationSigDiffParams``: after every
        ``block_size`` trials, stop when ``count / trials`` is below ``early_min`` or above
        ``early_max``. The outcome is that of the first ``trials`` draws, whatever the
        batches (a batch may be drawn beyond the stop).
    check_after_hits_only:
        Make the check only at block boundaries reached by an extreme trial, as
        mt-metrics-eval's ``PairwisePermutationSigDiff`` does (its check sits inside the
        ``if``).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> out = count_exceedances(swap_batches(10, 100, rng), lambda b: b.sum(axis=1) >= 8)
    >>> out.trials, out.count, round(out.p_value(), 4)
    (100, 10, 0.1089)
    >>> rng = np.random.default_rng(0)
    >>> count_exceedances(swap_batches(10, 5000, rng), lambda b: b[:, 0],
    ...                   block_size=1000, early_max=0.45)
    Exceedances(count=514, trials=1000, stopped_early=True)
    """
    if block_size is not None and block_size < 1:
        raise ValueError("block_size must be at least 1")
    count = trials = 0
    for batch in batches:
        hits = np.asarray(extreme(batch), dtype=bool).reshape(-1)
        if block_size is None:
            count += int(hits.sum())
            trials += hits.size
            continue
        running = count + np.cumsum(hits)
        seen = trials + np.arange(1, hits.size + 1)
        at_block = seen % block_size == 0
        if check_after_hits_only:
            at_block &= hits
        ratio = running / seen
        stop = at_block & ((ratio < early_min) | (ratio > early_max))
        if stop.any():
            first = int(np.argmax(stop))
            return Exceedances(int(running[first]), int(seen[first]), True)
        count += int(hits.sum())
        trials += hits.size
    return Exceedances(count, trials, False)
