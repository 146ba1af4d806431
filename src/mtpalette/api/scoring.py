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

import numpy as np

from mtpalette.api.checks import metric_specs, sources, system_outputs, text_pairs
from mtpalette.metrics import Score, Signature, parse_specs
from mtpalette.metrics.scoring import TextPairs, compute_stats_on


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
    pairs = text_pairs(hyps, refs)
    text = dict(tokenize=tokenize, lowercase=lowercase, max_tokens=max_tokens)
    parsed, stats = _stats(pairs, metrics, srcs, backend, **text)
    return _scores(parsed, stats, pairs.n_segments, pairs.n_refs)


def _stats(pairs: TextPairs, metrics, srcs, backend, *, tokenize, lowercase, max_tokens):
    """The parsed metrics and their sufficient statistics on ``pairs``."""
    if srcs is not None:
        pairs.srcs = sources(srcs, pairs.n_segments)
    parsed = parse_specs(metric_specs(metrics), tokenize=tokenize, lowercase=lowercase)
    stats = compute_stats_on(
        parsed, pairs, backend, tokenize=tokenize, lowercase=lowercase, max_tokens=max_tokens
    )
    return parsed, stats


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
    names, outputs = system_outputs(systems)
    n = len(outputs[0])
    flat = [h for hyps in outputs for h in hyps]
    pairs = text_pairs(flat[:n], refs)  # checks the references against one system
    pairs = TextPairs(flat, np.tile(np.arange(n, dtype=np.int64), len(names)), pairs.refs)
    text = dict(tokenize=tokenize, lowercase=lowercase, max_tokens=max_tokens)
    parsed, stats = _stats(pairs, metrics, srcs, backend, **text)
    return {
        name: _scores(parsed, {m: stats[m][k * n : (k + 1) * n] for m in parsed}, n, pairs.n_refs)
        for k, name in enumerate(names)
    }


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
