"""The Python API: score texts with any metric spec.

Texts are tokenized once per tokenizer setting and shared by every metric; metrics of one
family share their passes (``bleus:1..9`` is one n-gram pass). Every corpus score carries a
:class:`~mtpalette.metrics.Signature`.

References come as *streams*, as in sacrebleu: ``refs[k][i]`` is the ``k``-th reference of
segment ``i``; ``None`` marks a segment that has fewer references than others.

Examples
--------
>>> hyps = ["the cat sat on the mat"]
>>> refs = [["the cat sat on the mat"]]
>>> [round(s.value, 2) for s in corpus_score(hyps, refs, ["bleu", "bleus:4"])]
[100.0, 100.0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metrics import Score, Signature, parse_specs
from mtpalette.metrics.scoring import TextPairs, compute_stats_on

if TYPE_CHECKING:
    from mtpalette.stats.paired import SystemComparison

#: sacrebleu's default seed of resampling (mtpalette.stats.paired.SACREBLEU_SEED)
SACREBLEU_SEED = 12345


@dataclass(frozen=True)
class Scores:
    """Everything one scoring run computed, for every metric (grids expanded), in order.

    Attributes
    ----------
    corpus:
        One corpus-level :class:`~mtpalette.metrics.Score` (value and signature) per metric.
    sentence:
        Spec to an array of segment-level scores, one per segment.
    stats:
        Spec to the sufficient statistics, one row per segment (what bootstrap resamples).
    n_segments, n_refs:
        The number of segments and of reference streams.
    """

    corpus: list[Score]
    sentence: dict[str, np.ndarray]
    stats: dict[str, np.ndarray]
    n_segments: int
    n_refs: int

    @property
    def specs(self) -> list[str]:
        """The canonical spec of every metric, in order."""
        return [s.metric for s in self.corpus]

    @property
    def signatures(self) -> dict[str, Signature]:
        """Spec to signature."""
        return {s.metric: s.signature for s in self.corpus}


def score_texts(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str | None]],
    metrics: Sequence[str] | str,
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    backend=None,
    max_tokens: int | None = None,
    srcs: Sequence[str] | None = None,
) -> Scores:
    """Corpus scores, sentence scores and sufficient statistics of several metrics at once.

    Parameters
    ----------
    hyps:
        One candidate per segment.
    refs:
        Reference streams, each with one entry per segment (``None`` where missing; every
        segment needs at least one reference).
    metrics:
        Spec strings such as ``"bleu"``, ``"bleus:1..9"``, ``"chrf"`` (or one string).
    tokenize, lowercase:
        Run-wide text settings; a spec may override them (``bleu:tok=intl``).
    backend:
        A :class:`mtpalette.parallel.Backend`: metric groups are computed on its workers
        (the same numbers as in-process).
    max_tokens:
        Refuse any sentence longer than this (in a metric's tokens), naming the segment;
        metrics whose cost grows with the square of the length have their own limit.
    srcs:
        The source sentence of every segment, for plugin metrics that read it.

    Raises
    ------
    UserInputError
        Inputs of the wrong shape or type, no segment, a segment without references, an
        unknown metric, tokenizer or option value.

    References
    ----------
    The stream layout and signatures follow sacrebleu (Post, 2018, "A Call for Clarity in
    Reporting BLEU Scores").

    Examples
    --------
    >>> out = score_texts(["a b c d", "a b"], [["a b c d", "a c"]], ["bleus:2", "wer"])
    >>> out.specs, out.n_segments, out.n_refs
    (['bleus:2', 'wer'], 2, 1)
    >>> out.sentence["wer"].tolist(), round(out.corpus[1].value, 4)
    ([0.0, 0.5], 0.1667)
    """
    pairs = _pairs(hyps, refs)
    if srcs is not None:
        pairs.srcs = _srcs(srcs, len(pairs.hyps))
    parsed = parse_specs(_specs(metrics), tokenize=tokenize, lowercase=lowercase)
    stats = compute_stats_on(
        parsed, pairs, backend, tokenize=tokenize, lowercase=lowercase, max_tokens=max_tokens
    )
    return _scores(parsed, stats, pairs.n_segments, pairs.n_refs)


def _scores(parsed: list, stats: Mapping, n_segments: int, n_refs: int) -> Scores:
    corpus = [
        Score(
            m.spec,
            m.corpus_score(stats[m]),
            m.signature(n_refs=n_refs),
            m.higher_is_better,
            m.details(stats[m]),
        )
        for m in parsed
    ]
    return Scores(
        corpus=corpus,
        sentence={m.spec: m.sentence_scores(stats[m]) for m in parsed},
        stats={m.spec: stats[m] for m in parsed},
        n_segments=n_segments,
        n_refs=n_refs,
    )


def _srcs(srcs: Sequence[str], n: int) -> list[str]:
    srcs = list(srcs)
    if len(srcs) != n or not all(isinstance(s, str) for s in srcs):
        raise UserInputError(f"srcs must hold one string per segment ({n}), got {len(srcs)}")
    return srcs


def _systems(systems: Mapping[str, Sequence[str]]) -> tuple[list[str], list[list[str]]]:
    if not isinstance(systems, Mapping) or not systems:
        raise UserInputError("systems must be a non-empty dict: system name -> its outputs")
    names = [str(name) for name in systems]
    outputs = []
    for name, hyps in systems.items():
        if isinstance(hyps, str):
            raise UserInputError(f"system {name!r}: expected a list of outputs, got a string")
        hyps = list(hyps)
        if outputs and len(hyps) != len(outputs[0]):
            raise UserInputError(
                f"system {name!r} has {len(hyps)} segments, {names[0]!r} has {len(outputs[0])}"
            )
        outputs.append(hyps)
    return names, outputs


def score_systems(
    systems: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str | None]],
    metrics: Sequence[str] | str,
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    backend=None,
    max_tokens: int | None = None,
    srcs: Sequence[str] | None = None,
) -> dict[str, Scores]:
    """:func:`score_texts` of several systems on the same segments, in one pass.

    The systems' outputs are scored as one set of candidates that share their segments'
    references, so every reference is tokenized and indexed once for all systems.

    Parameters
    ----------
    systems:
        System name to its outputs, one per segment (every system the same length).
    refs, metrics, tokenize, lowercase, backend, max_tokens, srcs:
        As in :func:`score_texts`.

    Returns
    -------
    dict
        System name to its :class:`Scores`, in the order given.

    Examples
    --------
    >>> out = score_systems({"A": ["a b c", "d e"], "B": ["a b", "d e"]}, [["a b c", "d e"]],
    ...                     ["wer"])
    >>> {name: round(s.corpus[0].value, 4) for name, s in out.items()}
    {'A': 0.0, 'B': 0.2}
    """
    names, outputs = _systems(systems)
    n = len(outputs[0])
    flat = [h for hyps in outputs for h in hyps]
    pairs = _pairs(flat[:n], refs)  # checks the references against one system
    pairs = TextPairs(flat, np.tile(np.arange(n, dtype=np.int64), len(names)), pairs.refs)
    if srcs is not None:
        pairs.srcs = _srcs(srcs, n)
    parsed = parse_specs(_specs(metrics), tokenize=tokenize, lowercase=lowercase)
    stats = compute_stats_on(
        parsed, pairs, backend, tokenize=tokenize, lowercase=lowercase, max_tokens=max_tokens
    )
    return {
        name: _scores(parsed, {m: stats[m][k * n : (k + 1) * n] for m in parsed}, n, pairs.n_refs)
        for k, name in enumerate(names)
    }


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
        The name of the system the others are compared with (default: the first).
    n_trials, n_resamples:
        Resamples of the paired bootstrap (1,000) or trials of the randomization (10,000);
        resamples of the intervals (the paired bootstrap's own; 1,000 with ``None``; none with
        ``"ar"`` unless given).
    level, alpha:
        Interval coverage and the p-value threshold of ``significant``.
    seed:
        sacrebleu's 12345 by default, so that the same segments are resampled as there.

    Examples
    --------
    >>> systems = {"A": ["the cat sat", "a dog ran"], "B": ["the cat", "dog ran"]}
    >>> r = paired_test(systems, [["the cat sat", "a dog ran"]], ["wer"], n_trials=100)
    >>> r.score.round(4).tolist(), round(float(r.p_value[1, 0]), 4)
    ([[0.0], [0.3333]], 0.0099)
    >>> list(r.to_pandas().columns[:4])
    ['system', 'metric', 'score', 'mean']
    """
    scored = score_systems(systems, refs, metrics, tokenize=tokenize, lowercase=lowercase)
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
    from mtpalette.stats.paired import compare_systems

    names = list(scored)
    if baseline is not None and baseline not in scored:
        raise UserInputError(f"baseline {baseline!r} is not one of the systems: {', '.join(names)}")
    first = next(iter(scored.values()))
    parsed = parse_specs(first.specs)
    try:
        return compare_systems(
            parsed,
            [[s.stats[m.spec] for m in parsed] for s in scored.values()],
            names,
            test=test,
            baseline=0 if baseline is None else names.index(baseline),
            n_trials=n_trials,
            n_resamples=n_resamples,
            level=level,
            alpha=alpha,
            seed=seed,
            signatures={spec: str(sig) for spec, sig in first.signatures.items()},
        )
    except ValueError as e:
        raise UserInputError(str(e)) from None


def corpus_score(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str | None]],
    metrics: Sequence[str] | str,
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> list[Score]:
    """Corpus-level scores, one per metric (grids expand), each with its signature.

    Parameters are those of :func:`score_texts`.

    Examples
    --------
    >>> (s,) = corpus_score(["the cat sat"], [["the cat sat down"]], "wer")
    >>> s.value, s.higher_is_better, str(s.signature).split("|")[:2]
    (0.25, False, ['wer', 'nrefs:1'])
    """
    return score_texts(hyps, refs, metrics, tokenize=tokenize, lowercase=lowercase).corpus


def sentence_scores(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str | None]],
    metrics: Sequence[str] | str,
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> dict[str, np.ndarray]:
    """Segment-level scores: a dict from each metric's spec to an array, one per segment.

    Parameters are those of :func:`score_texts`.

    Examples
    --------
    >>> out = sentence_scores(["a b c d"], [["a b c d"]], ["bleus:2"])
    >>> out["bleus:2"].round(2).tolist()
    [100.0]
    """
    return score_texts(hyps, refs, metrics, tokenize=tokenize, lowercase=lowercase).sentence


def _specs(metrics: Sequence[str] | str) -> list[str]:
    specs = [metrics] if isinstance(metrics, str) else list(metrics)
    if not specs:
        raise UserInputError("no metric given; e.g. metrics=['bleu', 'chrf']")
    for spec in specs:
        if not isinstance(spec, str):
            raise UserInputError(f"a metric spec must be a string, got {type(spec).__name__}")
    return specs


def _pairs(hyps: Sequence[str], refs: Sequence[Sequence[str | None]]) -> TextPairs:
    if isinstance(hyps, str):
        raise UserInputError("hyps must be a list of strings (one per segment), not a string")
    hyps = list(hyps)
    if not hyps:
        raise UserInputError("no segments: hyps is empty")
    if not all(isinstance(h, str) for h in hyps):
        i = next(i for i, h in enumerate(hyps) if not isinstance(h, str))
        raise UserInputError(f"hyps[{i}] is {type(hyps[i]).__name__}, expected a string")
    if isinstance(refs, str) or not refs:
        raise UserInputError("refs must be a non-empty list of reference streams")
    streams = []
    for k, ref in enumerate(refs):
        if isinstance(ref, str):
            raise UserInputError(
                "refs must be a list of reference streams (one list of strings per reference), "
                f"but refs[{k}] is a string; with one reference per segment write refs=[refs]"
            )
        ref = list(ref)
        if len(ref) != len(hyps):
            raise UserInputError(
                f"reference stream {k + 1} has {len(ref)} segments, the hypotheses {len(hyps)}"
            )
        if not all(r is None or isinstance(r, str) for r in ref):
            i, r = next((i, r) for i, r in enumerate(ref) if not (r is None or isinstance(r, str)))
            raise UserInputError(f"refs[{k}][{i}] is {type(r).__name__}, expected a string or None")
        streams.append(ref)
    if all(None in ref for ref in streams):  # else every segment has a reference
        for i in range(len(hyps)):
            if all(ref[i] is None for ref in streams):
                raise UserInputError(f"segment {i + 1} has no reference (every stream has None)")
    return TextPairs.parallel(hyps, streams)
