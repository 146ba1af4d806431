"""The inputs of an MBR decision read from files: each segment's candidates of an n-best or
samples file, the references to rerank against, and the candidates' log-probabilities and
QE scores (:func:`mbr_inputs`), for :func:`~mtpalette.api.mbr_run.run_mbr`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mtpalette.errors import UserInputError


def mbr_inputs(
    candidates: Path,
    refs: Sequence[Path] | None,
    nbest_format: str,
    id_base: int,
    segments: int | None,
    lprobs_path: Path | None = None,
    from_scores: bool = False,
    qe_path: Path | None = None,
) -> tuple[list[list[str]], list[list[str]] | None, list | None, list | None]:
    """Each segment's candidates of the n-best file ``candidates`` (none may lack one), with
    ``refs`` its references (files, one line per segment), and the candidates'
    log-probabilities (``lprobs_path``, or the file's own score fields with ``from_scores``)
    and QE scores (``qe_path``) when asked for, one per candidate line: ``(lists, references
    or None, lprobs or None, qe or None)``."""
    from mtpalette.io.nbest import read_nbest
    from mtpalette.io.plain import read_lines

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
