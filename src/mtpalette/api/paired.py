"""Paired significance tests between systems: sacrebleu's ``--paired-bs``, ``--paired-ar``
and ``--confidence``, for any metric (the statistics are :mod:`mtpalette.stats.paired`).

Examples
--------
>>> systems = {"A": ["the cat sat"], "B": ["the cat"]}
>>> r = paired_test(systems, [["the cat sat"]], "wer", test=None, n_resamples=0)
>>> r.score.round(4).tolist()
[[0.0], [0.3333]]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.io.nbest import read_systems, system_names
from mtpalette.io.plain import read_lines
from mtpalette.progress import feedback_of
from mtpalette.sources.checks import (
    SACREBLEU_SEED,
    check_resampling,
    probability_argument,
)
from mtpalette.sources.scoring import Scores, paired_comparison, score_systems

if TYPE_CHECKING:
    from mtpalette.stats.paired import SystemComparison


def paired_test(
    systems: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str | None]],
    metrics: Sequence[str] | str,
    *,
    test: str | None = "bs",
    baseline: str | None = None,
    n_trials: int | None = None,
    n_resamples: int | None = None,
    level: float = 0.95,
    alpha: float = 0.05,
    seed: int | None = SACREBLEU_SEED,
    tokenize: str = "13a",
    lowercase: bool = False,
    progress: bool | Feedback | None = None,
) -> SystemComparison:
    """Every system's corpus scores with bootstrap intervals, and its paired test against a
    baseline: sacrebleu's ``--paired-bs`` / ``--paired-ar`` / ``--confidence``, for any
    metric (see :mod:`mtpalette.stats.paired`).

    Parameters
    ----------
    systems:
        System name to its outputs; one system with ``test=None`` gives its interval.
    refs, metrics, tokenize, lowercase:
        As in :func:`score_texts`.
    test:
        ``"bs"`` paired bootstrap resampling (Koehn 2004), ``"ar"`` approximate randomization
        (Riezler and Maxwell 2005), or ``None``: intervals only.
    baseline:
        The name of the system the others are compared with (default: the first);
        ``"best"``: the best system by the first metric (respecting its direction).
    n_trials, n_resamples:
        Resamples of the paired bootstrap (1,000) or trials of the randomization (10,000);
        resamples of the intervals (the paired bootstrap's own; 1,000 with ``None``; none with
        ``"ar"`` unless given).
    level, alpha:
        Interval coverage and the p-value threshold of ``significant``.
    seed:
        sacrebleu's 12345 by default, so that the same segments are resampled as there.
    progress:
        Bars while scoring and testing: ``None`` (the default) when standard error is a
        terminal or in a notebook; ``True``: always offered; ``False``: silent; or a
        :class:`~mtpalette.feedback.Feedback`.

    Examples
    --------
    >>> systems = {"A": ["the cat sat", "a dog ran"], "B": ["the cat", "dog ran"]}
    >>> r = paired_test(systems, [["the cat sat", "a dog ran"]], ["wer"], n_trials=100)
    >>> r.score.round(4).tolist(), round(float(r.p_value[1, 0]), 4)
    ([[0.0], [0.3333]], 0.0099)
    >>> list(r.to_pandas().columns[:4])
    ['system', 'metric', 'score', 'mean']
    """
    feedback = feedback_of(progress)
    text = dict(tokenize=tokenize, lowercase=lowercase)
    scored = score_systems(systems, refs, metrics, progress=feedback, **text)
    with feedback.stage("paired test" if test else "bootstrap intervals"):
        return compare_scored(
            scored,
            test=test,
            baseline=baseline,
            n_trials=n_trials,
            n_resamples=n_resamples,
            level=level,
            alpha=alpha,
            seed=seed,
        )


def compare_scored(
    scored: Mapping[str, Scores],
    *,
    test: str | None = "bs",
    baseline: str | None = None,
    n_trials: int | None = None,
    n_resamples: int | None = None,
    level: float = 0.95,
    alpha: float = 0.05,
    seed: int | None = SACREBLEU_SEED,
) -> SystemComparison:
    """:func:`paired_test` of systems already scored by :func:`score_systems`."""
    return paired_comparison(scored, test=test, baseline=baseline, n_trials=n_trials,
                             n_resamples=n_resamples, level=level, alpha=alpha,
                             seed=seed)  # fmt: skip


@dataclass
class PairedRun(Description):
    """A paired test between systems from files: each system's corpus scores with bootstrap
    intervals and its test against the baseline (``score --paired-bs`` from Python).

    Examples
    --------
    >>> run = PairedRun([Path("ref.txt")], [Path("A.txt"), Path("B.txt")], ["bleu"])
    >>> run.validate(); run.test, run.seed
    ('bs', 12345)
    """

    kind = "paired"
    refs: list[Path]
    systems: list[Path]
    metrics: list[str]
    test: str | None = "bs"
    baseline: str | None = None
    n_trials: int | None = None
    n_resamples: int | None = None
    confidence: float = 0.95
    alpha: float = 0.05
    seed: int = SACREBLEU_SEED
    tokenize: str = "13a"
    lowercase: bool = False

    def validate(self) -> None:
        if self.test not in ("bs", "ar", None):
            raise UserInputError(f"unknown paired test {self.test!r}; expected bs, ar or None")
        if not self.refs or not self.systems:
            raise UserInputError("a paired test needs reference files and system files")
        check_resampling(confidence=self.confidence, seed=self.seed)
        probability_argument(self.alpha, "--alpha")


def run_paired(run: PairedRun, progress: bool | Feedback | None = None) -> SystemComparison:
    """Read the files ``run`` names and run its paired test (:func:`paired_test`;
    ``progress`` as there)."""
    run.validate()
    outputs = read_systems(run.systems, system_names(run.systems))
    return paired_test(
        outputs,
        [read_lines(p) for p in run.refs],
        run.metrics,
        test=run.test,
        baseline=run.baseline,
        n_trials=run.n_trials,
        n_resamples=run.n_resamples,
        level=run.confidence,
        alpha=run.alpha,
        seed=run.seed,
        tokenize=run.tokenize,
        lowercase=run.lowercase,
        progress=progress,
    )
