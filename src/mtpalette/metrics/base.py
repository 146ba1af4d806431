"""The metric interface: sufficient statistics, sentence and corpus scores, signatures.

A metric maps every (candidate, references) pair to a fixed-length row of numbers, its
*sufficient statistics*. The sentence score is a function of one row; the corpus score a
function of all rows (usually of their sum, as in BLEU; ROUGE averages sentence scores).
Bootstrap resampling and significance tests resample rows, never text.

Metrics that share work declare the same :meth:`Metric.group_key`; the scorer then calls
:meth:`Metric.compute_group` once for all of them (BLEU-S1..9 share one n-gram pass).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from mtpalette.signature import Signature, field_text
from mtpalette.text.encode import TextView
from mtpalette.text.ragged import Ragged
from mtpalette.text.tokenizers import tokenizer_signature


@dataclass(frozen=True)
class Pairs:
    """Encoded candidates and the references of their segments.

    Attributes
    ----------
    hyp:
        ``P`` candidate rows.
    seg:
        int64 array of length ``P``: the segment of each candidate. Several candidates may
        share a segment (n-best lists, several systems); a reference's work is done once per
        segment.
    refs:
        ``R * S`` reference rows, reference ``k`` of segment ``s`` at row ``k * S + s``.
    ref_mask:
        bool array ``(R, S)``; False where segment ``s`` has no ``k``-th reference (its row is
        empty and ignored).
    corpus_refs:
        The references of the whole corpus, laid out as ``refs``, when ``refs`` hold only a
        block of its segments: the metrics with corpus-wide weights (NIST's information)
        take them from here, so that a block scores as the whole corpus would. None: the
        corpus is ``refs``.
    """

    hyp: Ragged
    seg: np.ndarray
    refs: Ragged
    ref_mask: np.ndarray
    corpus_refs: Ragged | None = None

    def without_reference(self, k: int) -> Pairs:
        """The same candidates against every reference but the ``k``-th (and the corpus
        likewise).

        Examples
        --------
        >>> p = Pairs.of_segment([1, 2], [[1], [2, 2], [3]]).without_reference(1)
        >>> p.n_refs, p.ref_lengths().tolist()
        (2, [[1, 1]])
        """
        S = self.n_segments
        keep = np.flatnonzero(np.repeat(np.arange(self.n_refs) != k, S))
        corpus = None
        if self.corpus_refs is not None:
            size = len(self.corpus_refs) // self.n_refs
            rows = np.repeat(np.arange(self.n_refs) != k, size)
            corpus = self.corpus_refs.take(np.flatnonzero(rows))
        return Pairs(
            self.hyp, self.seg, self.refs.take(keep), np.delete(self.ref_mask, k, axis=0), corpus
        )

    @classmethod
    def of_segment(cls, hyp: Sequence[int], refs: Sequence[Sequence[int]]) -> Pairs:
        """One candidate and every reference of its (single) segment, as token ids.

        Examples
        --------
        >>> p = Pairs.of_segment([1, 2, 3], [[1, 3], [3, 2, 1]])
        >>> len(p), p.n_refs, p.n_segments, p.ref_lengths().tolist()
        (1, 2, 1, [[2, 3]])
        """
        return cls(
            Ragged.from_rows([hyp]),
            np.array([0]),
            Ragged.from_rows(refs),
            np.ones((len(refs), 1), bool),
        )

    @property
    def n_refs(self) -> int:
        return self.ref_mask.shape[0]

    @property
    def n_segments(self) -> int:
        return self.ref_mask.shape[1]

    def __len__(self) -> int:
        return len(self.hyp)

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The flat arrays kernels take: hyp ids, hyp offsets, seg, ref ids, ref offsets, mask."""
        return (
            self.hyp.ids,
            self.hyp.offsets,
            np.ascontiguousarray(self.seg, dtype=np.int64),
            self.refs.ids,
            self.refs.offsets,
            np.ascontiguousarray(self.ref_mask, dtype=np.bool_),
        )

    def ref_lengths(self) -> np.ndarray:
        """``(P, R)``: the length of each candidate's k-th reference (0 where missing)."""
        return self.refs.lengths().reshape(self.n_refs, self.n_segments)[:, self.seg].T

    def present(self) -> np.ndarray:
        """``(P, R)``: whether each candidate's k-th reference exists."""
        return self.ref_mask[:, self.seg].T

    def subset(self, index: np.ndarray) -> Pairs:
        """The candidates ``index`` (in that order) with the same references.

        Examples
        --------
        >>> p = Pairs.of_segment([1, 2], [[1]]).subset(np.array([0, 0]))
        >>> len(p), p.seg.tolist()
        (2, [0, 0])
        """
        return Pairs(
            self.hyp.take(index), self.seg[index], self.refs, self.ref_mask, self.corpus_refs
        )

    def refs_of(self, s: int) -> list[np.ndarray]:
        """The present references of segment ``s`` (slow path, for tests and references)."""
        S = self.n_segments
        return [self.refs[k * S + s] for k in range(self.n_refs) if self.ref_mask[k, s]]


@dataclass(frozen=True)
class Score:
    """A corpus-level score with its signature and its components (``details``: BLEU's
    precisions, brevity penalty and lengths; chrF's precisions and recalls...).

    ``metric`` is the name the user gave (``chrf++``, also :attr:`name`); the canonical spec
    (``chrf:w=2``) is :attr:`spec`, in the signature."""

    metric: str
    value: float
    signature: Signature
    higher_is_better: bool
    details: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def name(self) -> str:
        """The metric's name as the user spelled it (``chrf++``); the same as :attr:`metric`."""
        return self.metric

    @property
    def spec(self) -> str:
        """The canonical spec (``chrf:w=2``), the first field of the signature."""
        return self.signature.metric

    def __str__(self) -> str:
        return f"{self.metric} = {self.value:.4f}  ({self.signature})"


class Metric(ABC):
    """Base class of every metric.

    Subclasses set ``name`` (the spec family, e.g. ``"bleus"``), ``higher_is_better``,
    ``options`` (spec keywords and their converters), ``positional`` (the keyword a bare spec
    argument sets, e.g. ``n`` in ``bleus:4``) and implement :meth:`compute`,
    :meth:`sentence_scores` and, when the corpus score is not the sentence formula applied to
    the summed statistics, :meth:`corpus_score`.
    """

    name: ClassVar[str]
    higher_is_better: ClassVar[bool] = True
    positional: ClassVar[str | None] = None
    options: ClassVar[dict[str, Any]] = {}
    #: the scale the score is reported on, e.g. "0-100" (as sacrebleu) or "0-1"
    scale: ClassVar[str] = "0-1"
    #: the longest sentence (in tokens) the metric takes, when its time or memory grows with
    #: the square of the length (see :meth:`token_limit`); None: linear, no limit
    max_tokens: ClassVar[int | None] = None
    #: how the corpus score combines segments: ``"sum"``, the corpus formula
    #: (:meth:`corpus_scores_of_sums`) on the summed statistics, or ``"mean"``, the mean of
    #: the sentence scores. Resampling (bootstrap, approximate randomization) relies on it;
    #: a test checks it against :meth:`corpus_score` for every registered family.
    corpus_combine: ClassVar[str] = "sum"
    #: a trivial baseline (hypothesis length...), not a metric: tables and reports mark it,
    #: and a metric that does not beat the best baseline is flagged
    baseline: ClassVar[bool] = False
    #: each candidate's statistics depend on it and its segment's references alone (no state
    #: drawn from the other candidates): equal (candidate, segment) pairs, common where
    #: several systems give the same output, are then computed once (``compute_stats``)
    per_pair: ClassVar[bool] = False

    def __init__(self, *, tokenize: str = "13a", lowercase: bool = False) -> None:
        self.tokenize = tokenize
        self.lowercase = lowercase
        #: ``tok`` and ``lc`` as the spec string gave them (see :attr:`spec`)
        self.spec_view: dict[str, Any] = {}

    # ----- identity -------------------------------------------------------------------
    def params(self) -> dict[str, Any]:
        """The metric's own parameters (not tokenizer or case), in signature order."""
        return {}

    def non_default(self, **defaults: Any) -> dict[str, Any]:
        """The attributes named in ``defaults`` whose values differ from those defaults, in
        that order: the part of :meth:`params` a spec names only when it is not the default.

        Examples
        --------
        >>> from mtpalette.metrics.registry import parse_specs
        >>> parse_specs(["chrf:beta=3"])[0].non_default(n=6, beta=2)
        {'beta': 3}
        """
        values = {name: getattr(self, name) for name in defaults}
        return {name: v for name, v in values.items() if v != defaults[name]}

    def __setattr__(self, name: str, value: Any) -> None:
        # an attribute set: the spec is worked out again when next asked for (see `spec`)
        self.__dict__.pop("_spec_text", None)
        super().__setattr__(name, value)

    @property
    def spec(self) -> str:
        """The canonical spec string, e.g. ``bleus:4`` or ``rouge-w:1.2``; a tokenizer or case
        named in the spec itself stays in it (``bleu:tok=zh``), so that two metrics differing
        only there keep apart (their scores, columns and signatures).

        Kept once worked out (the metric's hash and equality ask for it at every lookup of a
        dict of metrics: a one-sentence call asked nine times) until an attribute is set; the
        parameters it reads are attributes or frozen values, never changed in place."""
        text = self.__dict__.get("_spec_text")
        if text is None:
            text = self._spec_now()
            self.__dict__["_spec_text"] = text  # not through __setattr__, which drops it
        return text

    def _spec_now(self) -> str:
        params = self.params()
        view = getattr(self, "spec_view", None)  # None: not made by a spec string
        if view:
            params = {**params, **view}
        if self.positional is not None and self.positional in params:
            rest = {k: v for k, v in params.items() if k != self.positional}
            head = f"{self.name}:{field_text(params[self.positional])}"
            return head + "".join(f",{k}={field_text(v)}" for k, v in rest.items())
        if params:
            return f"{self.name}:" + ",".join(f"{k}={field_text(v)}" for k, v in params.items())
        return self.name

    def token_limit(self) -> int | None:
        """The longest sentence this metric instance takes (None: no limit)."""
        return self.max_tokens

    def view(self) -> TextView:
        """How this metric wants its text tokenized."""
        return TextView(self.tokenize, self.lowercase)

    def extra_views(self) -> tuple[TextView, ...]:
        """Further encodings the metric reads besides :meth:`view` (chrF++ reads words too).

        Their :class:`Pairs` are passed to :meth:`compute_group` / :meth:`compute` after the
        main one, in this order.
        """
        return ()

    def signature_fields(self) -> dict[str, Any]:
        """Fields added to the signature besides tokenizer and case (e.g. smoothing)."""
        return {}

    def signature(self, *, n_refs: int) -> Signature:
        from mtpalette._version import __version__

        view = self.view()
        fields: dict[str, Any] = {"nrefs": n_refs, **self.signature_fields()}
        fields["tok"] = tokenizer_signature(view.tokenizer)
        fields["case"] = "lc" if view.lowercase else "mixed"
        fields["scale"] = self.scale
        return Signature(self.spec, fields, __version__)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self) and other.spec == self.spec and (other.view() == self.view())
        )

    def __hash__(self) -> int:
        return hash((type(self), self.spec, self.view()))

    # ----- computation ----------------------------------------------------------------
    def group_key(self) -> Hashable:
        """Metrics with equal keys are computed together by :meth:`compute_group`."""
        return (type(self), self.spec, self.view(), self.extra_views())

    @classmethod
    def compute_group(
        cls, metrics: Sequence[Metric], pairs: Pairs, *extra: Pairs
    ) -> list[np.ndarray]:
        """Sufficient statistics for several metrics of this class sharing one pass."""
        return [m.compute(pairs, *extra) for m in metrics]

    @classmethod
    def compute_group_leaving_out(
        cls, metrics: Sequence[Metric], pairs: Pairs, *extra: Pairs
    ) -> list[list[np.ndarray]]:
        """Per metric, per reference ``k``: the statistics against every reference but
        ``k`` (ORANGE's leave-one-out). By default one pass per ``k``; a family whose
        statistics reduce per-reference values (ROUGE) computes them once."""
        per_k = [
            cls.compute_group(
                metrics, pairs.without_reference(k), *(e.without_reference(k) for e in extra)
            )
            for k in range(pairs.n_refs)
        ]
        return [list(stats) for stats in zip(*per_k, strict=True)]

    @abstractmethod
    def compute(self, pairs: Pairs, *extra: Pairs) -> np.ndarray:
        """Sufficient statistics: a float64 array with one row per candidate."""

    @abstractmethod
    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        """One score per row of ``stats``."""

    def corpus_score(self, stats: np.ndarray) -> float:
        """The corpus score; by default the sentence formula on the summed statistics."""
        return float(self.corpus_scores_of_sums(stats.sum(axis=0, keepdims=True))[0])

    def details(self, stats: np.ndarray) -> dict[str, Any]:
        """The components of the corpus score (BLEU's precisions and brevity penalty...);
        empty where the metric has none worth printing."""
        return {}

    def corpus_scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        """The corpus score of every row of summed statistics (``corpus_combine == "sum"``);
        by default the sentence formula."""
        return self.sentence_scores(sums)

    def resampling_rows(self, stats: np.ndarray) -> np.ndarray:
        """What a reweighted sample sums, one row per segment: the statistics (``"sum"``) or
        the sentence scores as one column (``"mean"``)."""
        if self.corpus_combine == "mean":
            return np.asarray(self.sentence_scores(stats), dtype=np.float64)[:, None]
        return np.asarray(stats, dtype=np.float64)

    def scores_of_resampled(self, sums: np.ndarray, weight: np.ndarray | float) -> np.ndarray:
        """Corpus scores from weighted sums of :meth:`resampling_rows` (``(B, k)``), each
        sample's total weight ``weight`` (its number of segments)."""
        if self.corpus_combine == "mean":
            return sums[:, 0] / weight
        return self.corpus_scores_of_sums(sums)

    def corpus_scores(self, stats: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """The corpus score of each reweighted sample: sample ``b`` counts segment ``i``
        ``weights[b, i]`` times (bootstrap counts, 0/1 selections), in one matrix product.

        Examples
        --------
        >>> from mtpalette.metrics import parse_specs
        >>> (wer,) = parse_specs(["wer"])
        >>> stats = np.array([[1.0, 4.0], [0.0, 2.0], [3.0, 3.0]])  # errors, ref words
        >>> wer.corpus_scores(stats, np.array([[1, 1, 1], [2, 0, 1]])).tolist()
        [0.4444444444444444, 0.45454545454545453]
        """
        w = np.asarray(weights, dtype=np.float64)
        return self.scores_of_resampled(w @ self.resampling_rows(stats), w.sum(axis=1))


class TextMetric(Metric):
    """A metric that reads raw text (a plugin, ROSE, the -syn metrics) instead of token ids.

    :func:`~mtpalette.metrics.scoring.compute_stats` hands such a class the
    :class:`~mtpalette.metrics.scoring.TextPairs` through :meth:`compute_text`. The statistics
    are one column of sentence scores; the corpus score is their mean.
    """

    reads_text: ClassVar[bool] = True
    corpus_combine: ClassVar[str] = "mean"

    @classmethod
    @abstractmethod
    def compute_text(cls, metrics: Sequence[Metric], pairs: Any) -> list[np.ndarray]:
        """One ``(P, 1)`` array of sentence scores per metric."""

    def compute(self, pairs: Pairs, *extra: Pairs) -> np.ndarray:
        raise NotImplementedError(f"{self.name} reads raw text: score it through compute_stats")

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return stats[:, 0]

    def corpus_score(self, stats: np.ndarray) -> float:
        return float(stats[:, 0].mean()) if len(stats) else 0.0
