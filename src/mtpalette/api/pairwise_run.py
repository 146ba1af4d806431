"""Pairwise scoring for MBR and reranking: :func:`pairwise` (per-segment score matrices) and
:func:`mbr` (each segment's candidate of highest expected utility, :class:`MbrSelection`);
:func:`mbr_files`, the selection of an n-best file as ``mtpalette mbr`` makes it.

The work is done in :mod:`mtpalette.metrics.pairwise` and :mod:`mtpalette.metrics.mbr`; this
module puts it in the public API.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from mtpalette.errors import UserInputError
from mtpalette.metrics.mbr import MbrSelection, mbr
from mtpalette.metrics.pairwise import pairwise

__all__ = ["MbrSelection", "mbr", "pairwise"]


def mbr_files(
    candidates: Path,
    refs: Sequence[Path] | None = None,
    metric: str = "chrf",
    *,
    nbest_format: str = "auto",
    id_base: int = 0,
    segments: int | None = None,
    include_self: bool = False,
    lowercase: bool = False,
    tokenize: str = "13a",
    output: Path | None = None,
    scores: Path | None = None,
    matrix: Path | None = None,
) -> str:
    """Each segment's candidate of an n-best file by :func:`mbr` (with ``refs``: reranked
    against those reference files), every output named written atomically: the selection
    (``output``), a TSV of segment, index, utility and candidate (``scores``), the utility
    matrices (``matrix``, .npz). Returns the selection, one line per segment.

    Segment ids start at ``id_base``; ``segments`` (default: the references' lines, else the
    highest id + 1) segments, each with a candidate.
    """
    from mtpalette.io.runfile import check_output_folders

    check_output_folders({"-o": output, "--scores": scores, "--matrix": matrix})  # before any work
    lists, references = _segments(candidates, refs, nbest_format, id_base, segments)
    sel = mbr(
        lists,
        references,
        metric,
        include_self=include_self,
        lowercase=lowercase,
        tokenize=tokenize,
    )
    text = "".join(f"{t}\n" for t in sel.text)
    _write(sel, text, id_base, output, scores, matrix)
    return text


def _segments(
    candidates: Path,
    refs: Sequence[Path] | None,
    nbest_format: str,
    id_base: int,
    segments: int | None,
) -> tuple[list[list[str]], list[list[str]] | None]:
    """Each segment's candidates (none may lack one) and, with ``refs``, its references."""
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
    if not ref_lines:
        return lists, None
    if len(ref_lines[0]) != n_seg:
        raise UserInputError(
            f"{len(ref_lines[0]):,} reference lines for {n_seg:,} segments",
            path=str(refs[0]),
        )
    return lists, [[r[s] for r in ref_lines] for s in range(n_seg)]


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
    if scores is not None:
        rows = [
            {"segment": s + id_base, "index": int(i), "utility": float(u), "candidate": t}
            for s, (i, u, t) in enumerate(zip(sel.index, sel.utility, sel.text, strict=True))
        ]
        write("tsv", rows, scores, columns=["segment", "index", "utility", "candidate"])
    if matrix is not None:  # as every output: a link followed, a full disk one error
        write("npz", {f"segment_{s + id_base}": m for s, m in enumerate(sel.matrices)}, matrix)
