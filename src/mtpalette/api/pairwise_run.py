"""Pairwise scoring for MBR and reranking: :func:`pairwise` (per-segment score matrices) and
:func:`mbr` (each segment's candidate of highest expected utility, :class:`MbrSelection`;
the rules on stored scores :func:`stored_mbr`, :func:`qe_rerank`, :func:`qe_then_mbr`);
:func:`mbr_files`, the selection of an n-best file as ``mtpalette mbr`` makes it.

The work is done in :mod:`mtpalette.metrics.pairwise` and :mod:`mtpalette.metrics.mbr`; this
module puts it in the public API.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metrics.mbr import MbrSelection, mbr
from mtpalette.metrics.mbr_rules import qe_rerank, qe_then_mbr, stored_mbr
from mtpalette.metrics.pairwise import pairwise

__all__ = ["MbrSelection", "mbr", "pairwise", "qe_rerank", "qe_then_mbr", "stored_mbr"]


def mbr_files(
    candidates: Path,
    refs: Sequence[Path] | None = None,
    metric: str = "chrf",
    *,
    nbest_format: str = "auto",
    id_base: int = 0,
    segments: int | None = None,
    include_self: bool | None = None,
    lowercase: bool = False,
    tokenize: str = "13a",
    output: Path | None = None,
    scores: Path | None = None,
    matrix: Path | None = None,
    reference_lprobs: Path | None = None,
    weights_from_scores: bool = False,
    **decoding: Any,
) -> MbrSelection:
    """Each segment's candidate of an n-best file by :func:`mbr` (with ``refs``: reranked
    against those reference files), every output named written atomically: the selection
    (``output``), a TSV of segment, index, utility and candidate (``scores``), the utility
    matrices (``matrix``, .npz). Returns the :class:`MbrSelection` (its ``text``: one line per
    segment; its ``signature``: the rule, decoder and options).

    Segment ids start at ``id_base``; ``segments`` (default: the references' lines, else the
    highest id + 1) segments, each with a candidate. ``reference_lprobs`` (one number per
    candidate line, :func:`mtpalette.io.lprobs.read_lprobs`) or ``weights_from_scores`` (the
    n-best file's own score fields) weight the pseudo-references by the softmax of their
    log-probabilities; ``decoding``: :func:`mbr`'s ``decoder``, ``partitions``, ``nbest``,
    ``alpha``, ``schedule``, ``bootstrap`` and ``seed``.
    """
    from mtpalette.io.runfile import check_output_folders

    check_output_folders({"-o": output, "--scores": scores, "--matrix": matrix})  # before any work
    qe_path = decoding.pop("qe_scores", None)
    lists, references, lprobs, qe = _segments(
        candidates, refs, nbest_format, id_base, segments, reference_lprobs, weights_from_scores,
        qe_path,
    )  # fmt: skip
    decoding["qe_scores"] = None if qe is None else (qe_path, qe)
    if decoding.get("schedule") is None:
        decoding.pop("schedule", None)  # the decoder's default
    elif isinstance(decoding["schedule"], str):
        decoding["schedule"] = _schedule(decoding["schedule"])
    decoding |= {"lowercase": lowercase, "tokenize": tokenize}
    sel = _decide(lists, references, metric, include_self, lprobs, id_base, decoding)
    text = "".join(f"{t}\n" for t in sel.text)
    _write(sel, text, id_base, output, scores, matrix)
    return sel


#: the options of the stored-score rules, besides mbr()'s
_RULES = ("from_matrix", "qe_scores", "qe_top")
#: mbr()'s options that a stored matrix or QE reranking does not use
_DECODING = ("decoder", "partitions", "alpha", "schedule", "bootstrap", "lowercase", "tokenize")


def _decide(lists, references, metric, include_self, lprobs, id_base, options) -> MbrSelection:
    """The rule the options name: MBR (a decoder), MBR from a stored matrix, QE reranking or
    QE top-k then MBR (:mod:`mtpalette.metrics.mbr_rules`)."""
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


def _schedule(text: str) -> list[int]:
    """``--schedule 8,16,32`` as integers."""
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise UserInputError(
            f"--schedule {text!r}: expected reference counts separated by commas (8,16,32)"
        ) from None


def _segments(
    candidates: Path,
    refs: Sequence[Path] | None,
    nbest_format: str,
    id_base: int,
    segments: int | None,
    lprobs_path: Path | None = None,
    from_scores: bool = False,
    qe_path: Path | None = None,
) -> tuple[list[list[str]], list[list[str]] | None, list | None, list | None]:
    """Each segment's candidates (none may lack one), with ``refs`` its references, and the
    candidates' log-probabilities and QE scores when asked for (one per candidate line)."""
    from mtpalette.io.nbest import read_nbest
    from mtpalette.io.plain import read_lines

    if segments is not None and segments < 1:
        raise UserInputError(f"--segments must be at least 1 (got {segments})")
    nb = read_nbest(candidates, fmt=nbest_format)
    ref_lines = [read_lines(p) for p in refs or []]
    if ref_lines and len({len(r) for r in ref_lines}) != 1:
        raise UserInputError("the reference files differ in length")
    n_seg = segments
    if n_seg is None:
        n_seg = (
            len(ref_lines[0]) if ref_lines else int(nb.ids.max(initial=id_base - 1)) + 1 - id_base
        )
    order, offsets = nb.group(n_seg, id_base=id_base)
    lists = [[nb.hyps[i] for i in order[offsets[s] : offsets[s + 1]]] for s in range(n_seg)]
    empty = [s + id_base for s, c in enumerate(lists) if not c]
    if empty:
        raise UserInputError(
            f"no candidate for segment id(s) {', '.join(map(str, empty[:5]))}"
            f"{' ...' if len(empty) > 5 else ''} (ids from {id_base}, {n_seg:,} segments); "
            "check --id-base and --segments",
            path=str(candidates),
        )
    lprobs = _lprobs(nb, order, offsets, n_seg, candidates, lprobs_path, from_scores)
    if lprobs is not None and ref_lines:
        raise UserInputError(
            "log-probabilities weight the candidates as pseudo-references: they go with MBR, "
            "not with reranking against -r references"
        )
    qe = None
    if qe_path is not None:
        from mtpalette.io.lprobs import read_lprobs

        values = read_lprobs(qe_path, len(nb.hyps), what="QE score")
        qe = [values[order[offsets[s] : offsets[s + 1]]] for s in range(n_seg)]
    if not ref_lines:
        return lists, None, lprobs, qe
    if len(ref_lines[0]) != n_seg:
        raise UserInputError(
            f"{len(ref_lines[0]):,} reference lines for {n_seg:,} segments",
            path=str(refs[0]),
        )
    return lists, [[r[s] for r in ref_lines] for s in range(n_seg)], None, qe


def _lprobs(nb, order, offsets, n_seg, candidates, path, from_scores) -> list | None:
    """Per segment, its candidates' log-probabilities: from ``path`` (one line per candidate
    line) or the n-best file's score fields; None: neither asked for."""
    if path is not None and from_scores:
        raise UserInputError("give --reference-lprobs or --weights-from-scores, not both")
    if path is None and not from_scores:
        return None
    if from_scores:
        values = nb.scores
        missing = np.flatnonzero(np.isnan(values))
        if len(missing):
            raise UserInputError(
                "--weights-from-scores: a candidate without a score field (Moses: "
                "'id ||| text ||| features ||| score'; JSONL: 'score' or 'scores')",
                path=str(candidates),
                line=int(nb.lines[missing[0]]),
            )
    else:
        from mtpalette.io.lprobs import read_lprobs

        values = read_lprobs(path, len(nb.hyps))
    return [values[order[offsets[s] : offsets[s + 1]]] for s in range(n_seg)]


def _write(
    sel: MbrSelection,
    text: str,
    id_base: int,
    output: Path | None,
    scores: Path | None,
    matrix: Path | None,
) -> None:
    """The outputs of :func:`mbr_files` that are named."""
    from mtpalette.io.writers import write

    if output is not None:
        write("text", text, output)
    if scores is not None and max(map(len, sel.nbest), default=1) > 1:  # --nbest: every rank
        rows = [
            {"segment": s + id_base, "rank": r + 1, "index": int(i),
             "utility": float(sel.utilities[s][i]), "candidate": sel.nbest_text[s][r]}
            for s, order in enumerate(sel.nbest) for r, i in enumerate(order)
        ]  # fmt: skip
        write("tsv", rows, scores, columns=["segment", "rank", "index", "utility", "candidate"])
    elif scores is not None:
        rows = [
            {"segment": s + id_base, "index": int(i), "utility": float(u), "candidate": t}
            for s, (i, u, t) in enumerate(zip(sel.index, sel.utility, sel.text, strict=True))
        ]
        write("tsv", rows, scores, columns=["segment", "index", "utility", "candidate"])
    if matrix is not None:  # as every output: a link followed, a full disk one error
        write("npz", {f"segment_{s + id_base}": m for s, m in enumerate(sel.matrices)}, matrix)
