"""Decision rules on stored scores: MBR from a stored utility matrix, QE reranking, and QE
pre-filtering to the top k followed by MBR.

* ``stored``: MBR on utility matrices another run or tool computed (``mtpalette mbr --matrix``,
  a COMET or MetricX pairwise run; read by :mod:`mtpalette.io.utility_matrix`). The expected
  utility is the (weighted) mean of a candidate's row; in a square matrix the candidates are
  taken as their own pseudo-references, and the diagonal is left out unless
  ``include_self``.
* ``qe``: reranking by a reference-free score per candidate (CometKiwi, MetricX-QE): the
  candidate of highest score.
* ``qe-top``: the ``top`` candidates of highest QE score kept, then MBR among them (the kept
  candidates are also the pseudo-references), as Fernandes et al. (2022) and WMT systems do;
  the utilities of the dropped candidates are NaN.

Each rule is named in the selection's signature (``rule``).

References
----------
Fernandes et al. (2022), Quality-aware decoding for neural machine translation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metrics.mbr import (
    MbrSelection,
    check_unused_options,
    checked_lprobs,
    expected_utilities,
    finite_per_segment,
    mbr,
    selection,
)


def stored_mbr(
    candidates: Sequence[Sequence[str]],
    matrices: Sequence[np.ndarray],
    *,
    include_self: bool = False,
    reference_lprobs: Sequence[Sequence[float]] | None = None,
    higher_is_better: bool = True,
    source: str = "",
    **select: Any,
) -> MbrSelection:
    """MBR from stored utility matrices, one ``(N_s, M_s)`` per segment.

    Examples
    --------
    >>> m = np.array([[100.0, 60.0, 20.0], [60.0, 100.0, 50.0], [20.0, 50.0, 100.0]])
    >>> sel = stored_mbr([["a", "b", "c"]], [m], source="comet.npz")
    >>> sel.index.tolist(), sel.utility.tolist(), sel.signature.fields["rule"]
    ([1], [55.0], 'stored')
    """
    if len(matrices) != len(candidates):
        raise UserInputError(f"{len(matrices):,} matrices for {len(candidates):,} segments")
    sign = 1.0 if higher_is_better else -1.0
    mats = [sign * np.asarray(m, dtype=np.float64) for m in matrices]
    for s, (m, c) in enumerate(zip(mats, candidates, strict=True)):
        if m.ndim != 2 or m.shape[0] != len(c):
            raise UserInputError(
                f"segment {s + 1}: a matrix of shape {m.shape} for {len(c)} candidates"
            )
    square = all(m.shape[0] == m.shape[1] for m in mats)
    lps = checked_lprobs(reference_lprobs, [range(m.shape[1]) for m in mats])
    utilities = expected_utilities(mats, lps, leave_out_self=square and not include_self)
    fields: dict = {"rule": "stored", "matrix": source or "given"}
    if square:
        fields["self"] = bool(include_self)
    fields["weights"] = "uniform" if reference_lprobs is None else "lprobs"
    fields["higher"] = higher_is_better
    return selection(candidates, utilities, mats, "stored", fields, **select)


def qe_rerank(
    candidates: Sequence[Sequence[str]],
    qe: Sequence[Sequence[float]],
    *,
    higher_is_better: bool = True,
    source: str = "",
    **select: Any,
) -> MbrSelection:
    """Each segment's candidate of highest QE score (its utility the score).

    Examples
    --------
    >>> sel = qe_rerank([["a", "b"], ["c"]], [[0.2, 0.7], [0.1]])
    >>> sel.text, sel.signature.fields["rule"]
    (['b', 'c'], 'qe')
    """
    scores = finite_per_segment(qe, candidates, "QE scores", "candidate")
    sign = 1.0 if higher_is_better else -1.0
    utilities = [sign * q for q in scores]
    fields = {"rule": "qe", "scores": source or "given", "higher": higher_is_better}
    return selection(candidates, utilities, [u[:, None] for u in utilities], "qe", fields,
                     **select)  # fmt: skip


def qe_then_mbr(
    candidates: Sequence[Sequence[str]],
    qe: Sequence[Sequence[float]],
    top: int,
    *,
    higher_is_better: bool = True,
    reference_lprobs: Sequence[Sequence[float]] | None = None,
    source: str = "",
    **options: Any,
) -> MbrSelection:
    """MBR (:func:`mtpalette.metrics.mbr.mbr`, any decoder) among each segment's ``top``
    candidates of highest QE score, which are also the pseudo-references.

    Examples
    --------
    >>> cands = [["the cat sat", "a cat sat on", "the cat sat on", "zzz"]]
    >>> sel = qe_then_mbr(cands, [[0.9, 0.1, 0.8, 0.7]], 2)
    >>> sel.index.tolist(), sel.signature.fields["rule"], sel.signature.fields["top"]
    ([2], 'qe-top', 2)
    """
    if top < 1:
        raise UserInputError(f"--qe-top must be at least 1 (got {top})")
    scores = finite_per_segment(qe, candidates, "QE scores", "candidate")
    sign = 1.0 if higher_is_better else -1.0
    kept = [np.sort(np.argsort(-sign * q, kind="stable")[:top]) for q in scores]
    lists = [[c[i] for i in k] for c, k in zip(candidates, kept, strict=True)]
    lps = None
    if reference_lprobs is not None:
        given = finite_per_segment(reference_lprobs, candidates, "log-probabilities", "candidate")
        lps = [lp[k] for lp, k in zip(given, kept, strict=True)]
    inner = mbr(lists, None, reference_lprobs=lps, **options)
    utilities = []
    for c, k, u in zip(candidates, kept, inner.utilities, strict=True):
        full = np.full(len(c), np.nan)
        full[k] = u
        utilities.append(full)
    fields = {"rule": "qe-top", "top": top, "scores": source or "given", "mbr": inner.signature}
    return MbrSelection(
        np.array([k[i] if i >= 0 else -1 for k, i in zip(kept, inner.index, strict=True)],
                 dtype=np.int64),
        inner.text,
        inner.utility,
        utilities,
        inner.matrices,
        decoder=inner.decoder,
        nbest=[k[o] for k, o in zip(kept, inner.nbest, strict=True)],
        nbest_text=inner.nbest_text,
        signature=type(inner.signature)("mbr", fields, inner.signature.version),
    )  # fmt: skip


#: the options of the stored-score rules, besides mbr()'s
_RULES = ("from_matrix", "qe_scores", "qe_top")
#: mbr()'s options that a stored matrix or QE reranking does not use
_DECODING = ("decoder", "partitions", "alpha", "schedule", "bootstrap", "lowercase", "tokenize")


def decide(lists, references, metric, include_self, lprobs, id_base, options) -> MbrSelection:
    """The rule the options name: MBR (a decoder), MBR from a stored matrix, QE reranking or
    QE top-k then MBR: ``options`` are :func:`~mtpalette.metrics.mbr.mbr`'s, with the
    stored-score rules' ``from_matrix``, ``qe_scores`` (its path and lists) and ``qe_top``
    (popped); ``id_base`` numbers a stored matrix's segments."""
    from_matrix, qe, top = (options.pop(k, None) for k in _RULES)
    qe_path, qe_lists = qe if qe is not None else (None, None)
    if from_matrix is None and qe_path is None:
        if top is not None:
            raise UserInputError("--qe-top needs --qe-scores")
        return mbr(lists, references, metric, include_self=include_self,
                   reference_lprobs=lprobs, **options)  # fmt: skip
    if references is not None:
        raise UserInputError("--from-matrix and --qe-scores decide without -r references")
    if from_matrix is not None and qe_path is not None:
        raise UserInputError("give --from-matrix or --qe-scores, not both")
    plain = {k: v for k, v in options.items() if k not in _DECODING}
    if from_matrix is not None or top is None:
        if options.get("decoder", "pairwise") != "pairwise" or options.get("partitions", 1) != 1:
            raise UserInputError("a stored matrix or QE scores are not decoded: no --decoder")
        unused = {k: options[k] for k in ("alpha", "schedule", "bootstrap", "diversity")
                  if k in options}  # fmt: skip
        check_unused_options("pairwise", options.get("selector", "nbest"), False,
                             include_self=None, what="a stored matrix or QE scores",
                             **unused)  # fmt: skip
    if from_matrix is not None:
        from mtpalette.io.utility_matrix import read_utility_matrices

        matrices = read_utility_matrices(from_matrix, [len(c) for c in lists], id_base=id_base)
        return stored_mbr(lists, matrices, include_self=bool(include_self),
                          reference_lprobs=lprobs, source=str(from_matrix), **plain)
    if top is None:
        if lprobs is not None:
            raise UserInputError("QE reranking takes no weights (--reference-lprobs)")
        return qe_rerank(lists, qe_lists, source=str(qe_path), **plain)
    return qe_then_mbr(lists, qe_lists, top, reference_lprobs=lprobs, metric=metric,
                       include_self=include_self, source=str(qe_path), **options)
