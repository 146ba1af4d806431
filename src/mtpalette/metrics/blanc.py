"""BLANC (Lita, Rogati and Lavie, 2005): an F-measure over all common skip-n-grams.

Not to be confused with BLANC for summarisation (Vasilyev et al., 2020), a different metric.

For a candidate ``c`` and a reference ``r``, ACS (:mod:`mtpalette.kernels.acs`) gives the
weighted number ``W_k(c, r)`` of common skip-k-grams for every size ``k``: gaps decay with
``alpha``, unequal gaps with ``beta`` (paper eqs. 1-6). Then

* precision ``P_k = W_k(c, r) / W_k(c, c)`` and recall ``R_k = W_k(c, r) / W_k(r, r)``: each
  sentence matched with itself is the normaliser, so a candidate equal to its reference scores
  1 whatever the parameters. With no repeated words ``W_k(c, c)`` is the weighted number of the
  candidate's own skip-k-grams (``C(|c|, k)`` when alpha = 0). With repeated words ``W_k``
  counts every pair of occurrences, so a ratio can exceed 1; it is capped at 1 (the paper
  leaves the normaliser unspecified; this is our choice, in the signature as ``norm:self``);
* sizes ``k = 1..n`` (``n=*``: every size, up to the shorter sentence) are mixed with weights
  ``w_k`` proportional to ``exp(gamma * (k - 1))`` (the paper's size parameter; gamma = 0 is
  uniform), over the sizes the sentence has (``k <= |c|`` for P, ``k <= |r|`` for R):
  ``P = sum w_k P_k / sum w_k``. Any finite gamma: the weights are computed as
  ``exp(gamma * (k - k*))``, ``k*`` the sentence's own largest size (gamma >= 0) or smallest
  (gamma < 0), so no exponent is positive and ``w_k* = 1``; as gamma grows P tends to
  ``P_k*`` and a huge gamma (1e308) gives that limit, not an overflow;
* several references: the maximum precision and the maximum recall over the references
  (paper section 2.2), then ``F = (1 + bf^2) P R / (bf^2 P + R)``.

The statistics row is ``[P, R, F]``, the sentence score F and the corpus score the mean of the
sentence scores. Special cases (tested): a very large alpha leaves only contiguous common
n-grams; the largest k with ``W_k > 0`` is the LCS length; and section 3's "alpha and beta
zero, disregard redundant matches, size 2" is ROUGE-S*: ``redundant=drop`` (alpha = beta = 0,
``n`` at most 4) counts each skip-n-gram occurrence at most once (``min`` of the two counts,
ROUGE-S's clipping) instead of every pair of occurrences, so
``blanc:alpha=0,beta=0,n=2,gamma=60,redundant=drop`` gives ROUGE-S*'s P and R
(``tests/metrics/test_blanc_redundant.py``, on real sentences with repeated words).

Features of the matched words (our instance of the paper's eq. 6, ``S = exp(lambda_1 f_1) ...
exp(lambda_h f_h)``, whose features the paper leaves open; it names part-of-speech only as
future work, section 6; tag-only matches extend eq. 9, where a match is the same word in both;
English, the bundled tagger
:mod:`mtpalette.text.pos` on the metric's tokens): ``lw=LAMBDA_W,lt=LAMBDA_T`` puts the
feature inside each skip-n-gram match. A matched position is one whose words or whose POS
tags agree; it weighs 1 when both agree, ``exp(-lw)`` when only the tags agree and
``exp(-lt)`` when only the words agree, and a skip-n-gram weighs the product over its
positions times its gap weights (:mod:`mtpalette.kernels.acs`): two features, the number of
positions whose words differ and whose tags differ, with weights ``-lw`` and ``-lt``. The
normalisers ``W_k(c, c)`` and ``W_k(r, r)`` use the same weights, so identity still scores 1.
Without ``lw`` tag-only positions do not match (``lw`` infinite); with ``lt = 0`` too this is
word-only BLANC, number for number. Both are trained with the other parameters
(``train-blanc --pos``).

The simpler mix of two whole scores keeps its own name, ``posmix=LAMBDA``: the same ACS
counts, precision and recall computed on the sentences' POS tags alone, mixed in at the level
of P and R: ``P = (P_words + lambda P_pos) / (1 + lambda)``, the same for R, then F
(``train-blanc --posmix``). It was called ``pos=`` before; ``pos=`` is refused with a message
(a parameter file with ``"pos"`` means ``posmix``, as when it was written).

Spec: ``blanc`` or ``blanc:alpha=0.5,beta=0.1,gamma=0,bf=1,n=4,gap=max[,lw=2,lt=1]``
(``[,posmix=0.5]``, ``[,redundant=drop]``); trained
parameters from a file: ``blanc:@params.json`` (written by ``mtpalette train-blanc``; keywords
after the file override it). Grids work as everywhere: ``blanc:alpha=0..2/0.5``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.jsonfile import read_json
from mtpalette.kernels.acs import (
    GAP_MODES,
    AcsSettings,
    acs_counts,
    clipped_skip_counts,
    node_weights,
)
from mtpalette.metrics.base import Metric, Pairs
from mtpalette.metrics.domains import Choice, Integer, Real, Text
from mtpalette.metrics.fields import fields, shown
from mtpalette.metrics.registry import register
from mtpalette.metrics.rouge import f_measure
from mtpalette.text.encode import TextView

#: largest size computed for ``n=*`` (a cap on work for very long sentences)
MAX_SIZE = 64
#: largest size with ``redundant=drop`` (it enumerates the C(len, k) skip-k-grams)
MAX_CLIPPED = 4
#: ``keep``: every pair of occurrences matches (ACS); ``drop``: clipped counts (section 3)
REDUNDANT = ("keep", "drop")
#: the largest ``n`` a spec or a parameter file may name (``n=*`` computes up to MAX_SIZE)
MAX_N = 50
#: what each parameter may be, in a spec (``blanc:gamma=...``), a parameter file and
#: :class:`BlancParams` alike: finite numbers in these ranges (the gap weights
#: ``exp(-alpha gap)``, the size weights, F and the POS weights are finite over all of them)
PARAM_DOMAINS: dict[str, Any] = {
    "alpha": Real(low=0),
    "beta": Real(low=0),
    "gamma": Real(),  # any finite value: the size weights are scaled stably
    "bf": Real(low=0, low_open=True),
    "n": Integer(1, MAX_N, special={"*": 0, "all": 0, "0": 0}),
    "gap": Choice(GAP_MODES),
    "redundant": Choice(REDUNDANT),
    "posmix": Real(low=0),
    "lw": Real(low=0),
    "lt": Real(low=0),
}
#: what ``n`` holds in a parameter file
_N_IN_FILE = f"an integer from 1 to {MAX_N}, or 0 for every size"


@dataclass(frozen=True)
class BlancParams:
    """BLANC's parameters: gap decay ``alpha``, gap difference ``beta``, size weight exponent
    ``gamma``, F-measure ``bf``, largest size ``n`` (0: every size), the ``gap`` mode; the
    POS features inside each match, ``lw`` (a position matched by its tags only weighs
    ``exp(-lw)``; None: such positions do not match) and ``lt`` (one whose tags differ weighs
    ``exp(-lt)``); and the weight ``posmix`` of the POS-tag scores mixed into P and R (0:
    none)."""

    alpha: float = 0.0
    beta: float = 0.0
    gamma: float = 0.0
    bf: float = 1.0
    n: int = 4
    gap: str = "max"
    posmix: float = 0.0
    lw: float | None = None
    lt: float = 0.0
    redundant: str = "keep"

    def __post_init__(self) -> None:
        for name in ("alpha", "beta", "gamma", "bf", "posmix", "lw", "lt"):
            value = getattr(self, name)
            if not (value is None and name == "lw") and not _real(value):
                raise ValueError(f"{name} must be a number, got {value!r}")
        if isinstance(self.n, bool) or not isinstance(self.n, int | np.integer):
            raise ValueError(f"n must be an integer ({_N_IN_FILE}), got {self.n!r}")
        Choice(REDUNDANT).parse(self.redundant)
        if self.redundant == "drop":
            if self.alpha or self.beta or self.tagged:
                raise ValueError(
                    "redundant=drop (section 3's clipped counts) needs alpha=0 and beta=0 and "
                    "no lw/lt: with gap weights the paper does not say which match to keep"
                )
            if not 1 <= self.n <= MAX_CLIPPED:
                raise ValueError(
                    f"redundant=drop enumerates every skip-n-gram: n must be 1 to {MAX_CLIPPED}"
                )
        if not (self.posmix >= 0 and math.isfinite(self.posmix)):
            raise ValueError("posmix (the POS scores' weight) must be >= 0")
        if self.lw is not None and not (self.lw >= 0 and math.isfinite(self.lw)):
            raise ValueError("lw must be a number >= 0 (leave it out: tag-only matches off)")
        if not (self.lt >= 0 and math.isfinite(self.lt)):
            raise ValueError("lt must be a number >= 0")
        if not (self.alpha >= 0 and self.beta >= 0):
            raise ValueError("alpha and beta must be >= 0")
        if not self.bf > 0:
            raise ValueError("bf must be > 0")
        if not math.isfinite(self.gamma):
            raise ValueError("gamma must be finite")
        if self.n < 0:
            raise ValueError("n must be >= 1, or 0 for every size")
        if self.n > MAX_N:
            raise ValueError(f"n must be at most {MAX_N}, or 0 for every size")
        Choice(GAP_MODES).parse(self.gap)

    @property
    def tagged(self) -> bool:
        """Whether the matches are weighted by their POS tags (``lw`` given or ``lt > 0``)."""
        return self.lw is not None or self.lt > 0

    @property
    def weights(self) -> tuple[float, float]:
        """The node weights ``(tag_only, word_only)`` of
        :func:`mtpalette.kernels.acs.acs_counts`."""
        return node_weights(self.lw, self.lt)

    def size_weights(self, kmax: int) -> np.ndarray:
        """``w_k`` proportional to ``exp(gamma * (k - 1))``, ``k = 1..kmax``, scaled so that the
        largest is 1: ``exp(gamma (k - k*))``, ``k*`` the largest size (gamma >= 0) or the
        smallest, an exponent <= 0 for any finite gamma (``gamma (k - 1)`` itself overflows
        at gamma = 1e308). :func:`size_mix` scales each sentence by its own sizes.

        Examples
        --------
        >>> BlancParams(gamma=math.log(2)).size_weights(3).round(6).tolist()
        [0.25, 0.5, 1.0]
        >>> BlancParams(gamma=1e308).size_weights(3).tolist()  # all on the largest size
        [0.0, 0.0, 1.0]
        >>> BlancParams(gamma=-1e308).size_weights(3).tolist()  # all on the smallest
        [1.0, 0.0, 0.0]
        """
        top = np.asarray(kmax - 1 if self.gamma >= 0 else 0)
        return _scaled_weights(self.gamma, np.arange(kmax), top)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, obj: Any, *, path: str = "") -> BlancParams:
        """Parameters from a parameter file's JSON: a bare object of parameters, or a record
        ``{"params": {...}, ...}`` (what ``train-blanc`` writes). Every field is checked as a
        spec's value is (:data:`PARAM_DOMAINS`; :mod:`mtpalette.metrics.fields`): a JSON
        number, finite, in range; ``n`` a whole number; ``lw`` may be null (off)."""
        where = path or None
        prefix = ""
        raw = obj
        if isinstance(obj, dict) and "metric" in obj and obj["metric"] != "blanc":
            raise UserInputError(
                f'not BLANC parameters ("metric" is {shown(obj["metric"])}; expected "blanc")',
                path=where,
            )
        if isinstance(obj, dict) and "params" in obj:
            raw, prefix = obj["params"], "params."
        if isinstance(raw, dict) and "pos" in raw:  # written before the mix was renamed
            if "posmix" in raw:
                raise UserInputError('both "pos" and "posmix": keep posmix', path=where)
            raw = {("posmix" if k == "pos" else k): v for k, v in raw.items()}
        values = fields(
            raw, PARAM_DOMAINS, path=where, noun="BLANC parameter", nullable=("lw",),
            expected={"n": _N_IN_FILE}, prefix=prefix,
        )  # fmt: skip
        try:
            return cls(**values)
        except ValueError as exc:
            raise UserInputError(f"bad BLANC parameters: {exc}", path=where) from None

    @classmethod
    def load(cls, path: str | Path) -> BlancParams:
        """Parameters from a JSON file (a bare object, or ``{"params": {...}, ...}``)."""
        p = Path(path)
        obj = read_json(p, "BLANC parameters (JSON)")
        return cls.from_dict(obj, path=str(p))


def size_mix(ratios: np.ndarray, has: np.ndarray, gamma: float) -> np.ndarray:
    """``sum_k w_k x_k / sum_k w_k`` over the sizes a sentence has (``has``), last axis, with
    ``w_k`` proportional to ``exp(gamma * (k - 1))``.

    Each row is scaled by its own heaviest size ``k*`` (the largest it has when gamma >= 0,
    the smallest when gamma < 0): ``w_k = exp(gamma (k - k*))``, every exponent <= 0 and
    ``w_k* = 1``, so no finite gamma overflows or leaves a row without weight, and as gamma
    grows the mix tends to ``x_k*``, which a huge gamma gives exactly.

    Examples
    --------
    >>> size_mix(np.array([[1.0, 0.5, 0.0]]), np.array([[True, True, False]]), 0.0)
    array([0.75])
    >>> size_mix(np.array([[1.0, 0.5, 0.0]]), np.array([[True, True, False]]), 1e308)
    array([0.5])
    """
    K = ratios.shape[-1]
    if gamma >= 0:
        top = K - 1 - np.argmax(has[..., ::-1], axis=-1)
    else:
        top = np.argmax(has, axis=-1)
    w = np.where(has, _scaled_weights(gamma, np.arange(K), top[..., None]), 0.0)
    total = w.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, (w * ratios).sum(axis=-1) / np.where(total > 0, total, 1), 0.0)


def _scaled_weights(gamma: float, k: np.ndarray, top: np.ndarray) -> np.ndarray:
    """``exp(gamma (k - top))`` with the exponent kept <= 0 (sizes past ``top`` on the
    heavy side are not the sentence's and weigh nothing in :func:`size_mix`); a product that
    overflows is -inf, a weight of 0."""
    steps = k - top
    steps = np.minimum(steps, 0) if gamma >= 0 else np.maximum(steps, 0)
    with np.errstate(over="ignore"):
        return np.exp(gamma * steps)


def blanc_prf(
    common: np.ndarray,
    cand_self: np.ndarray,
    ref_self: np.ndarray,
    present: np.ndarray,
    params: BlancParams,
) -> np.ndarray:
    """``[P, R, F]`` rows from the counts.

    Parameters
    ----------
    common:
        ``(P, R, K)`` ``W_k(c, r)`` for each candidate and reference (any value where the
        reference is missing).
    cand_self, ref_self:
        ``(P, K)`` ``W_k(c, c)`` and ``(P, R, K)`` ``W_k(r, r)``.
    present:
        ``(P, R)`` which references exist.
    """
    K = common.shape[-1]
    if params.n:
        K = min(K, params.n)
    common, cand_self, ref_self = common[..., :K], cand_self[..., :K], ref_self[..., :K]
    with np.errstate(invalid="ignore", divide="ignore"):
        p_k = np.minimum(common / np.where(cand_self > 0, cand_self, 1)[:, None, :], 1.0)
        r_k = np.minimum(common / np.where(ref_self > 0, ref_self, 1), 1.0)
    prec = size_mix(p_k, np.broadcast_to((cand_self > 0)[:, None, :], p_k.shape), params.gamma)
    rec = size_mix(r_k, ref_self > 0, params.gamma)
    prec = np.where(present, prec, -np.inf).max(axis=1, initial=-np.inf)
    rec = np.where(present, rec, -np.inf).max(axis=1, initial=-np.inf)
    prec = np.where(np.isfinite(prec), prec, 0.0)
    rec = np.where(np.isfinite(rec), rec, 0.0)
    return np.column_stack([prec, rec, f_measure(prec, rec, params.bf)])


@dataclass(frozen=True)
class BlancCounts:
    """ACS counts of every candidate with each of its references, and of each sentence with
    itself, for one (alpha, beta, gap): what every BLANC with these three shares."""

    common: np.ndarray
    cand_self: np.ndarray
    ref_self: np.ndarray
    present: np.ndarray

    @classmethod
    def compute(
        cls,
        pairs: Pairs,
        settings: AcsSettings,
        tags: Pairs | None = None,
        *,
        clipped: bool = False,
    ) -> BlancCounts:
        """Counts of ``pairs`` (``settings.kmax`` 0: up to the longest sentence, at most
        ``MAX_SIZE``); with ``tags`` (the same sentences as POS tags, token for token), the
        matches weighted by ``settings.weights = (tag_only, word_only)``; ``clipped``: each
        occurrence matched at most once (:func:`~mtpalette.kernels.acs.clipped_skip_counts`,
        alpha = beta = 0 only)."""
        P, R, S = len(pairs), pairs.n_refs, pairs.n_segments
        hyp, refs = pairs.hyp, pairs.refs
        present = pairs.present()
        if settings.kmax == 0:
            longest = max(int(hyp.lengths().max(initial=0)), int(refs.lengths().max(initial=0)))
            settings = replace(settings, kmax=max(1, min(longest, MAX_SIZE)))
        kmax = settings.kmax
        hyp_tags = ref_tags = None
        if tags is not None:
            same = np.array_equal(tags.hyp.offsets, hyp.offsets) and np.array_equal(
                tags.refs.offsets, refs.offsets
            )
            if not same:
                raise ValueError("the POS tags are not aligned with the words, token for token")
            hyp_tags, ref_tags = tags.hyp.ids, tags.refs.ids
        p_idx, k_idx = np.nonzero(present)
        ref_rows = k_idx * S + pairs.seg[p_idx]
        common = np.zeros((P, R, kmax))
        count = acs_counts
        if clipped:
            count = lambda ai, ao, bi, bo, pa, pb, s, _t: clipped_skip_counts(  # noqa: E731
                ai, ao, bi, bo, pa, pb, s.kmax
            )

        def with_tags(a, b) -> tuple[np.ndarray, np.ndarray] | None:
            return None if tags is None else (a, b)

        common[p_idx, k_idx] = count(
            hyp.ids,
            hyp.offsets,
            refs.ids,
            refs.offsets,
            p_idx,
            ref_rows,
            settings,
            with_tags(hyp_tags, ref_tags),
        )
        all_hyp = np.arange(P)
        cand_self = count(
            hyp.ids,
            hyp.offsets,
            hyp.ids,
            hyp.offsets,
            all_hyp,
            all_hyp,
            settings,
            with_tags(hyp_tags, hyp_tags),
        )
        rows = np.flatnonzero(pairs.ref_mask.reshape(-1))
        ref_self_rows = np.zeros((R * S, kmax))
        ref_self_rows[rows] = count(
            refs.ids,
            refs.offsets,
            refs.ids,
            refs.offsets,
            rows,
            rows,
            settings,
            with_tags(ref_tags, ref_tags),
        )
        ref_self = ref_self_rows.reshape(R, S, kmax)[:, pairs.seg].transpose(1, 0, 2)
        return cls(common, cand_self, ref_self, present)

    def prf(self, params: BlancParams) -> np.ndarray:
        return blanc_prf(self.common, self.cand_self, self.ref_self, self.present, params)


def mix_pos(words: np.ndarray, tags: np.ndarray, weight: float, bf: float) -> np.ndarray:
    """``[P, R, F]`` of the words mixed with those of the POS tags:
    ``P = (P_w + weight P_pos) / (1 + weight)``, the same for R, then F.

    Examples
    --------
    >>> mix_pos(np.array([[0.5, 1.0, 0.0]]), np.array([[1.0, 1.0, 0.0]]), 1.0, 1.0).round(4)
    array([[0.75  , 1.    , 0.8571]])
    """
    p = (words[:, 0] + weight * tags[:, 0]) / (1 + weight)
    r = (words[:, 1] + weight * tags[:, 1]) / (1 + weight)
    return np.column_stack([p, r, f_measure(p, r, bf)])


def pos_view(view: TextView) -> TextView:
    """The view whose tokens are the Universal POS tags of ``view``'s tokens (English tagger),
    registered as the tokenizer ``upos+<tokenizer>`` on first use; case is kept for the
    tagger (its features read capitals).

    Examples
    --------
    >>> v = pos_view(TextView("13a", lowercase=True))
    >>> v.tokenizer, v.tokens("The committee approved the budget .")
    ('upos+13a', ['DET', 'NOUN', 'VERB', 'DET', 'NOUN', 'PUNCT'])
    """
    from mtpalette.text.pos import load_tagger
    from mtpalette.text.tokenizers import TOKENIZERS, get_tokenizer, register_tokenizer

    name = f"upos+{view.tokenizer}"
    if name not in TOKENIZERS:
        words = get_tokenizer(view.tokenizer)
        tagger = load_tagger("en")
        register_tokenizer(name, lambda line: tagger.tag(words(line)))
    return TextView(name, lowercase=False)


#: what ``pos=`` (the mix's old name) is refused with
_RENAMED_POS = (
    "pos= was renamed: posmix= is the mix (P_words + lambda P_tags) / (1 + lambda); "
    "lw=, lt= weight the POS feature inside each skip-n-gram match (the paper's eq. 6)"
)


@register
class Blanc(Metric):
    """BLANC with all common skip-n-grams: ``blanc:alpha=..,beta=..,gamma=..,bf=..,n=..``.

    Examples
    --------
    >>> from mtpalette import sentence_scores
    >>> out = sentence_scores(["to exist or not be"], [["to be or not to be"]], ["blanc:n=2"])
    >>> round(float(out["blanc:alpha=0,beta=0,gamma=0,bf=1,n=2,gap=max"][0]), 4)
    0.6349
    """

    name = "blanc"
    #: two grids of counts: 16 bytes per cell, 0.26 GB at 4,000 tokens, a pass per size
    max_tokens = 4000
    positional = "params"
    options: ClassVar[dict[str, Any]] = {
        "params": Text("a parameter file (@file.json)"),
        **PARAM_DOMAINS,
        "pos": Text("renamed: posmix= (the mix) or lw=, lt= (the weighting inside each match)"),
    }

    def __init__(self, *, params: str | BlancParams | None = None, **kwargs: Any) -> None:
        if "pos" in kwargs:
            raise ValueError(_RENAMED_POS)
        own = {k: kwargs.pop(k) for k in list(kwargs) if k in BlancParams.__dataclass_fields__}
        super().__init__(**kwargs)
        if isinstance(params, BlancParams):
            base, self.source = params, None
        elif params:
            if not params.startswith("@"):
                raise ValueError(f"a parameter file is written @PATH, got {params!r}")
            base, self.source = BlancParams.load(params[1:]), Path(params[1:]).name
        else:
            base, self.source = BlancParams(), None
        self.blanc = replace(base, **own)

    def params(self) -> dict[str, Any]:
        p = self.blanc
        return {
            "alpha": _num(p.alpha),
            "beta": _num(p.beta),
            "gamma": _num(p.gamma),
            "bf": _num(p.bf),
            "n": p.n or "*",
            "gap": p.gap,
            **({"lw": _num(p.lw)} if p.lw is not None else {}),
            **({"lt": _num(p.lt)} if p.lt else {}),
            **({"posmix": _num(p.posmix)} if p.posmix else {}),
            **({"redundant": p.redundant} if p.redundant != "keep" else {}),
        }

    def signature_fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = {"norm": "self", "multiref": "max-p-max-r"}
        if self.source:
            fields["from"] = self.source
        return fields

    def extra_views(self) -> tuple[TextView, ...]:
        return (pos_view(self.view()),) if self.blanc.posmix or self.blanc.tagged else ()

    def group_key(self) -> Hashable:
        return ("blanc", self.view(), self.extra_views())

    @classmethod
    def compute_group(
        cls, metrics: Sequence[Metric], pairs: Pairs, *extra: Pairs
    ) -> list[np.ndarray]:
        by_counts: dict[tuple, list[Blanc]] = {}
        for m in metrics:
            assert isinstance(m, Blanc)
            p = m.blanc
            key = (p.alpha, p.beta, p.gap, p.weights if p.tagged else None, p.redundant)
            by_counts.setdefault(key, []).append(m)
        out: dict[int, np.ndarray] = {}
        for (alpha, beta, gap, weights, redundant), members in by_counts.items():
            sizes = [m.blanc.n for m in members]
            kmax = 0 if 0 in sizes else max(sizes)
            plain = AcsSettings(alpha, beta, kmax, gap)
            clipped = redundant == "drop"
            if weights is None:
                counts = BlancCounts.compute(pairs, plain, clipped=clipped)
            else:
                counts = BlancCounts.compute(pairs, replace(plain, weights=weights), extra[0])
            tags = None
            if extra and any(m.blanc.posmix for m in members):
                tags = BlancCounts.compute(extra[0], plain, clipped=clipped)
            for m in members:
                out[id(m)] = counts.prf(m.blanc)
                if m.blanc.posmix and tags is not None:
                    out[id(m)] = mix_pos(out[id(m)], tags.prf(m.blanc), m.blanc.posmix, m.blanc.bf)
        return [out[id(m)] for m in metrics]

    def compute(self, pairs: Pairs, *extra: Pairs) -> np.ndarray:
        return self.compute_group([self], pairs, *extra)[0]

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return stats[:, 2]

    corpus_combine = "mean"

    def corpus_score(self, stats: np.ndarray) -> float:
        return float(stats[:, 2].mean()) if len(stats) else 0.0


def _num(x: float) -> float | int:
    """``x`` as a spec writes it: ``2`` for 2.0, ``1e+308`` for 1e308 (not its 309 digits)."""
    return int(x) if float(x).is_integer() and abs(x) < 1e16 else float(x)


def _real(value: Any) -> bool:
    """A real number, not a boolean (``True`` is no weight)."""
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool | np.bool_
    )
