"""Minimum Bayes risk selection and reranking, on :func:`mtpalette.metrics.pairwise.pairwise`.

For each segment, the candidate with the highest expected utility: the mean of its scores
against the pseudo-references (the other candidates of the segment: MBR decoding, Kumar and
Byrne 2004; with ``include_self=True`` against all candidates, itself included, as mbrs
does) or against given references (reranking). Ties go to the first candidate in list order.

References
----------
Kumar and Byrne (2004), Minimum Bayes-risk decoding for statistical machine translation;
Freitag et al. (2022), High quality rather than high model probability: MBR decoding with
neural metrics.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.signature import Signature

#: the decoders of :func:`mbr`
DECODERS = ("pairwise", "aggregate", "pruning")
#: how the n-best list is chosen from the expected utilities
SELECTORS = ("nbest", "diverse")


@dataclass(frozen=True)
class MbrSelection:
    """The selected candidate of every segment.

    Attributes
    ----------
    index:
        int64, the selected candidate's position in its segment's list (-1: no candidate).
    text:
        The selected candidates ("" where a segment has none).
    utility:
        The selected candidate's expected utility (NaN where none).
    utilities:
        Per segment, the expected utility of every candidate (NaN: pruned).
    matrices:
        Per segment, the matrix used: pairwise scores (candidates x pseudo-references; with
        ``pruning``, NaN where a pruned candidate was not scored), or with ``aggregate`` the
        scores against each partition's aggregated references (candidates x partitions).
    decoder:
        ``pairwise``, ``aggregate`` or ``pruning``.
    nbest:
        Per segment, the positions of the ``nbest`` best candidates, best first.
    nbest_text:
        Per segment, those candidates.
    signature:
        The decoder, its options and the utility's signature.
    """

    index: np.ndarray
    text: list[str]
    utility: np.ndarray
    utilities: list[np.ndarray]
    matrices: list[np.ndarray]
    decoder: str = "pairwise"
    nbest: list[np.ndarray] = field(default_factory=list)
    nbest_text: list[list[str]] = field(default_factory=list)
    signature: Signature | None = None

    def _rows(self) -> list[dict]:
        return [
            {"segment": i + 1, "index": int(k), "text": t, "utility": float(u)}
            for i, (k, t, u) in enumerate(zip(self.index, self.text, self.utility, strict=True))
        ]

    def to_pandas(self):
        """One row per segment (numbered from 1): the selected candidate's ``index``,
        ``text`` and ``utility``."""
        from mtpalette.records import frame

        return frame(self._rows())

    def to_json(self) -> str:
        """The rows of :meth:`to_pandas`, each with every candidate's expected utility."""
        from mtpalette.records import dumps

        rows = self._rows()
        for row, utilities in zip(rows, self.utilities, strict=True):
            row["utilities"] = utilities
        return dumps(rows)


def top(u: np.ndarray, k: int) -> np.ndarray:
    """The positions of the ``k`` highest values, best first, ties in list order, NaN last.

    Examples
    --------
    >>> top(np.array([1.0, 3.0, np.nan, 3.0]), 3).tolist()
    [1, 3, 0]
    """
    key = np.where(np.isnan(u), -np.inf, u)
    return np.argsort(-key, kind="stable")[:k]


def expected_pairwise(
    m: np.ndarray, lprobs: np.ndarray | None, *, leave_out_self: bool
) -> np.ndarray:
    """Every row's expected utility: the mean of its scores, weighted by the softmax of
    ``lprobs`` when given, without the diagonal when ``leave_out_self``.

    Examples
    --------
    >>> m = np.array([[100.0, 40.0], [40.0, 100.0]])
    >>> expected_pairwise(m, None, leave_out_self=True).tolist()
    [40.0, 40.0]
    """
    n, r = m.shape
    if lprobs is None and leave_out_self:
        return (m.sum(axis=1) - np.diagonal(m)) / (n - 1) if n > 1 else np.zeros(n)
    if lprobs is None:
        return m.mean(axis=1)
    w = np.exp(lprobs - lprobs.max())
    weights = np.broadcast_to(w, (n, r)).copy()
    if leave_out_self:
        np.fill_diagonal(weights, 0.0)
    total = weights.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = (m * weights).sum(axis=1) / total
    return np.where(total > 0, out, 0.0)


def checked_lprobs(reference_lprobs, refs) -> list[np.ndarray | None]:
    """Per segment, its references' log-probabilities as float64 (None: uniform weights),
    checked to be finite and one per reference.

    Examples
    --------
    >>> checked_lprobs([[0, -1]], [["a", "b"]])[0].tolist(), checked_lprobs(None, [["a"]])
    ([0.0, -1.0], [None])
    """
    if reference_lprobs is None:
        return [None] * len(refs)
    return finite_per_segment(reference_lprobs, refs, "log-probabilities", "reference", got=True)


def finite_per_segment(
    values, items, what: str, per: str, *, got: bool = False
) -> list[np.ndarray]:
    """Per segment, its ``values`` as float64, checked to be finite and one per entry of its
    ``items``; the messages name the values (``what``), an entry (``per``) and, with ``got``,
    how many values the segment has.

    Examples
    --------
    >>> finite_per_segment([[0.5, 1]], [["a", "b"]], "QE scores", "candidate")[0].tolist()
    [0.5, 1.0]
    >>> finite_per_segment([[0.5]], [["a", "b"]], "QE scores", "candidate")
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: segment 1: expected 2 finite QE scores, one per candidate
    """
    if len(values) != len(items):
        raise UserInputError(f"{len(values):,} segments of {what} for {len(items):,} segments")
    out = []
    for s, (v, c) in enumerate(zip(values, items, strict=True)):
        a = np.asarray(v, dtype=np.float64)
        if a.shape != (len(c),) or not np.all(np.isfinite(a)):
            found = f", got {a.shape[0] if a.ndim == 1 else a.shape}" if got else ""
            raise UserInputError(
                f"segment {s + 1}: expected {len(c)} finite {what}, one per {per}{found}"
            )
        out.append(a)
    return out


def mbr(
    candidates: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]] | None = None,
    metric: str = "chrf",
    *,
    decoder: str = "pairwise",
    include_self: bool | None = None,
    partitions: int = 1,
    reference_lprobs: Sequence[Sequence[float]] | None = None,
    nbest: int = 1,
    alpha: float = 0.99,
    schedule: Sequence[int] = (8, 16, 32, 64, 128, 256),
    bootstrap: int = 500,
    seed: int = 0,
    selector: str = "nbest",
    diversity: float = 0.1,
    lowercase: bool = False,
    tokenize: str = "13a",
) -> MbrSelection:
    """Select, per segment, the candidate of highest expected utility.

    Parameters
    ----------
    candidates
        Per segment, its candidates (samples or an n-best list).
    references
        Per segment, references to rerank against; None: MBR, the candidates are the
        pseudo-references.
    metric
        The utility, one metric spec (``chrf`` by default; ``bleus:4``, ``chrf++``...).
        Metrics where lower is better (TER, WER) are negated.
    decoder
        ``pairwise`` (exact: every candidate against every reference), ``aggregate``
        (reference aggregation, chrF, chrF++ and BLEU: :mod:`mtpalette.metrics.mbr_aggregate`)
        or ``pruning`` (confidence-based pruning: :mod:`mtpalette.metrics.mbr_pruning`).
    include_self
        MBR only: count each candidate's score against itself (mbrs' convention). Default:
        no for ``pairwise``; ``aggregate`` and ``pruning`` always do (as fastchrf and mbrs).
    partitions
        ``aggregate``: the references in this many contiguous blocks, each aggregated.
    reference_lprobs
        Per segment, a log-probability per reference (per candidate in MBR): the expected
        utility weights the references by their softmax. None: uniform.
    nbest
        How many candidates to rank (``MbrSelection.nbest``); the first is the selection.
    alpha, schedule, bootstrap, seed
        ``pruning``: the confidence threshold, the growing reference counts, the bootstrap
        resamples per step and their seed (also the diverse selector's).
    selector, diversity
        ``nbest`` (the best by expected utility) or ``diverse`` (mbrs's diverse n-best, with
        weight ``diversity``: :mod:`mtpalette.metrics.mbr_select`).

    Examples
    --------
    >>> sel = mbr([["the cat sat", "a cat sat on", "the cat sat on"]])
    >>> sel.index.tolist(), sel.text
    ([2], ['the cat sat on'])
    >>> mbr([["the cat sat", "a cat sat on", "the cat sat on"]], decoder="aggregate").text
    ['the cat sat on']
    """
    from mtpalette.metrics import parse_specs
    from mtpalette.metrics.pairwise import _check

    _check_options(decoder, nbest, include_self is False and references is None, partitions,
                   selector)  # fmt: skip
    check_unused_options(decoder, selector, references is not None, include_self=include_self,
                         alpha=alpha, schedule=schedule, bootstrap=bootstrap,
                         diversity=diversity)  # fmt: skip
    (spec,) = parse_specs([metric], tokenize=tokenize, lowercase=lowercase)
    cands, refs = _check(candidates, references)
    lps = checked_lprobs(reference_lprobs, refs)
    options = dict(lowercase=lowercase, tokenize=tokenize)
    sign = 1.0 if spec.higher_is_better else -1.0
    self_too = include_self if decoder == "pairwise" else True
    fields: dict = {"decoder": decoder}
    if decoder == "aggregate":
        from mtpalette.metrics.mbr_aggregate import aggregate

        agg = aggregate(
            cands, refs, metric, partitions=partitions, reference_lprobs=reference_lprobs,
            **options,
        )  # fmt: skip
        utilities, matrices = agg.expected(), agg.utilities
        fields["partitions"] = partitions
    elif decoder == "pruning":
        from mtpalette.metrics.mbr_pruning import prune
        from mtpalette.metrics.pairwise import pairwise

        def score(c, r):
            return [sign * np.asarray(x) for x in pairwise(c, r, metric, **options)]

        pruned = prune(
            cands, refs, score, nbest=nbest, alpha=alpha, schedule=schedule,
            bootstrap=bootstrap, seed=seed, reference_lprobs=reference_lprobs,
        )  # fmt: skip
        utilities, matrices = pruned.utilities, pruned.matrices
        fields |= {"alpha": alpha, "schedule": ",".join(map(str, schedule))}
        fields |= {"bootstrap": bootstrap, "seed": seed}
    else:
        from mtpalette.metrics.pairwise import pairwise

        matrices = [sign * np.asarray(m, dtype=np.float64) for m in pairwise(
            cands, refs, metric, **options)]  # fmt: skip
        utilities = expected_utilities(
            matrices, lps, leave_out_self=references is None and not self_too
        )
    if references is None:
        fields["self"] = bool(self_too)
    fields["weights"] = "uniform" if reference_lprobs is None else "lprobs"
    fields["utility"] = spec.signature(n_refs=1)
    return selection(cands, utilities, matrices, decoder, fields, nbest=nbest,
                     selector=selector, diversity=diversity, seed=seed, **options)  # fmt: skip


def _check_options(
    decoder: str, nbest: int, exclude_self: bool, partitions: int, selector: str
) -> None:
    if decoder not in DECODERS:
        raise UserInputError(f"unknown decoder {decoder!r}; expected one of {', '.join(DECODERS)}")
    if nbest < 1:
        raise UserInputError(f"--nbest must be at least 1 (got {nbest})")
    if decoder != "pairwise" and exclude_self:
        raise UserInputError(
            f"the {decoder} decoder compares each candidate with every pseudo-reference, "
            "itself included (as fastchrf and mbrs): include_self cannot be False"
        )
    if decoder != "aggregate" and partitions != 1:
        raise UserInputError("--partitions is an option of --decoder aggregate")
    if selector not in SELECTORS or (selector == "diverse" and decoder == "pruning"):
        raise UserInputError(
            f"selector {selector!r}: expected one of {', '.join(SELECTORS)}; pruning takes "
            "nbest only (as mbrs: its pruning keeps the n best, not a diverse set)"
        )


#: the options only the pruning decoder, or the diverse selector, reads (another value than
#: :func:`mbr`'s default, given with another decoder or selector, would be dropped unseen)
_PRUNING = ("alpha", "schedule", "bootstrap")
_DIVERSE = ("diversity",)


def check_unused_options(
    decoder: str, selector: str, rerank: bool, *, include_self: bool | None,
    what: str | None = None, **options: Any,
) -> None:  # fmt: skip
    """Refuse an option the run would not read: a pruning option (``alpha``, ``schedule``,
    ``bootstrap``) off its default with another decoder, ``diversity`` without the diverse
    selector, ``include_self`` when reranking against references (no candidate is a
    reference there). ``what``: the run that would not read them (default: the decoder).

    Examples
    --------
    >>> check_unused_options("pairwise", "nbest", False, include_self=None, alpha=0.5)
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: --alpha is an option of --decoder pruning (the pairwise ...
    """
    import inspect

    defaults = inspect.signature(mbr).parameters  # the defaults declared once, on mbr()
    for name, value in options.items():
        given = tuple(value) if name == "schedule" else value
        if given == defaults[name].default:
            continue
        if name in _PRUNING and decoder != "pruning":
            raise UserInputError(f"--{name} is an option of --decoder pruning ("
                                 f"{what or f'the {decoder} decoder'} would not read "
                                 "it)")  # fmt: skip
        if name in _DIVERSE and selector != "diverse":
            raise UserInputError("--diversity is an option of --selector diverse")
    if rerank and include_self is not None:
        raise UserInputError(
            "--include-self/--exclude-self are options of MBR, where the candidates are the "
            "pseudo-references; reranking against -r references never compares a candidate "
            "with itself"
        )


def expected_utilities(
    matrices: Sequence[np.ndarray], lprobs: Sequence[np.ndarray | None], *, leave_out_self: bool
) -> list[np.ndarray]:
    """:func:`expected_pairwise` of every segment's matrix (0 for a matrix without columns).

    Examples
    --------
    >>> expected_utilities([np.array([[1.0, 3.0]])], [None], leave_out_self=False)[0].tolist()
    [2.0]
    """
    return [
        expected_pairwise(m, lp, leave_out_self=leave_out_self) if m.shape[1] else np.zeros(
            m.shape[0]) for m, lp in zip(matrices, lprobs, strict=True)
    ]  # fmt: skip


def selection(
    cands: Sequence[Sequence[str]],
    utilities: Sequence[np.ndarray],
    matrices: Sequence[np.ndarray],
    decoder: str,
    fields: dict,
    *,
    nbest: int = 1,
    selector: str = "nbest",
    diversity: float = 0.1,
    seed: int = 0,
    lowercase: bool = False,
    tokenize: str = "13a",
) -> MbrSelection:
    """The selection of every segment from its candidates' expected utilities: the ``nbest``
    best (``selector="nbest"``), or mbrs's diverse n-best (``"diverse"``: dissimilarity the
    negated sentence BLEU between candidates, weight ``diversity``); ``fields`` and the
    selector's make the signature.

    Examples
    --------
    >>> sel = selection([["a", "b"]], [np.array([1.0, 2.0])], [], "stored", {}, nbest=2)
    >>> sel.index.tolist(), sel.nbest_text, str(sel.signature).split("|version")[0]
    ([1], [['b', 'a']], 'mbr|nbest:2')
    """
    from mtpalette._version import __version__

    fields = {**fields, "nbest": nbest}
    if selector == "diverse":
        from mtpalette.metrics.mbr_select import diverse_nbest
        from mtpalette.metrics.pairwise import pairwise

        fields |= {"selector": "diverse", "lambda": diversity, "dissimilarity": "-bleu"}
        if nbest > 1:
            sims = pairwise(cands, None, "bleu", lowercase=lowercase, tokenize=tokenize)
    index, text, utility, ranked = [], [], [], []
    for s, u in enumerate(utilities):
        if selector == "diverse" and nbest > 1:
            order = diverse_nbest(u, -np.asarray(sims[s]), nbest, lam=diversity, seed=seed)
        else:
            order = top(u, nbest)
        ranked.append(order)
        if len(order) == 0:
            index.append(-1)
            text.append("")
            utility.append(np.nan)
            continue
        best = int(order[0])
        index.append(best)
        text.append(cands[s][best])
        utility.append(float(u[best]))
    return MbrSelection(
        np.array(index, dtype=np.int64),
        text,
        np.array(utility),
        list(utilities),
        list(matrices),
        decoder=decoder,
        nbest=ranked,
        nbest_text=[[cands[s][i] for i in order] for s, order in enumerate(ranked)],
        signature=Signature("mbr", fields, __version__),
    )


def score_rows(sel: MbrSelection, id_base: int = 0) -> tuple[list[dict[str, Any]], list[str]]:
    """A decision's rows for its scores table and their columns: per segment (numbered from
    ``id_base``) the chosen candidate's index, utility and text; with ``nbest`` > 1, every
    rank's."""
    if max(map(len, sel.nbest), default=1) > 1:  # --nbest: every rank
        rows = [
            {"segment": s + id_base, "rank": r + 1, "index": int(i),
             "utility": float(sel.utilities[s][i]), "candidate": sel.nbest_text[s][r]}
            for s, order in enumerate(sel.nbest) for r, i in enumerate(order)
        ]  # fmt: skip
        return rows, ["segment", "rank", "index", "utility", "candidate"]
    rows = [
        {"segment": s + id_base, "index": int(i), "utility": float(u), "candidate": t}
        for s, (i, u, t) in enumerate(zip(sel.index, sel.utility, sel.text, strict=True))
    ]
    return rows, ["segment", "index", "utility", "candidate"]

