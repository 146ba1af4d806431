"""``mtpalette mbr``: pick each segment's candidate of highest expected utility (MBR), or
rerank candidates against references.

Examples::

    mtpalette mbr samples.nbest -m chrf > selected.txt
    mtpalette mbr samples.jsonl -m bleus:4 --scores selection.tsv --matrix utilities.npz
    mtpalette mbr nbest.txt -r ref.txt -m chrf++          # rerank against a reference

The candidates come from an n-best file as ``mtpalette orange`` reads them (Moses
``id ||| hypothesis ||| ...`` or JSONL ``{"id": 3, "hyps": [...]}``), ids 0-based unless
``--id-base 1``. The selection goes to standard output (or ``--output``), one line per
segment (empty for a segment without candidates).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mtpalette.errors import UserInputError


def mbr_cmd(
    candidates: Annotated[Path, typer.Argument(help="n-best or samples file (Moses or JSONL).")],
    metric: Annotated[str, typer.Option("--metric", "-m", help="The utility metric spec.")] = (
        "chrf"
    ),
    refs: Annotated[
        list[Path] | None,
        typer.Option("--refs", "-r", help="Rerank against these references instead of MBR."),
    ] = None,
    nbest_format: Annotated[
        str, typer.Option("--nbest-format", help="auto, moses or jsonl.")
    ] = "auto",
    id_base: Annotated[int, typer.Option("--id-base", help="The first segment id.")] = 0,
    segments: Annotated[
        int | None,
        typer.Option("--segments", help="Number of segments (default: the highest id + 1)."),
    ] = None,
    include_self: Annotated[
        bool, typer.Option("--include-self", help="Count a candidate against itself (mbrs).")
    ] = False,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the selection here.")
    ] = None,
    scores: Annotated[
        Path | None,
        typer.Option("--scores", help="TSV: segment, index, utility, candidate."),
    ] = None,
    matrix: Annotated[
        Path | None, typer.Option("--matrix", help="Save the utility matrices (.npz).")
    ] = None,
    tokenize: Annotated[str, typer.Option("--tokenize", "-tok", help="Tokenizer.")] = "13a",
    lowercase: Annotated[bool, typer.Option("--lowercase", "-lc", help="Lower-case.")] = False,
) -> None:
    """Select each segment's candidate by minimum Bayes risk (or rerank against references)."""
    import sys

    import numpy as np

    from mtpalette.io.nbest import read_nbest
    from mtpalette.io.plain import read_lines
    from mtpalette.io.runfile import atomic_writer, check_output_folders
    from mtpalette.metrics.mbr import mbr

    check_output_folders([output, scores, matrix])  # before any work
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
    references = None
    if ref_lines:
        if len(ref_lines[0]) != n_seg:
            raise UserInputError(
                f"{len(ref_lines[0]):,} reference lines for {n_seg:,} segments",
                path=str(refs[0]),
            )
        references = [[r[s] for r in ref_lines] for s in range(n_seg)]
    sel = mbr(
        lists,
        references,
        metric,
        include_self=include_self,
        lowercase=lowercase,
        tokenize=tokenize,
    )
    text = "".join(f"{t}\n" for t in sel.text)
    if output is not None:
        with atomic_writer(output) as fh:
            fh.write(text)
    if scores is not None:
        rows = ["segment\tindex\tutility\tcandidate"] + [
            f"{s + id_base}\t{int(i)}\t{float(u)!r}\t{t}"
            for s, (i, u, t) in enumerate(zip(sel.index, sel.utility, sel.text, strict=True))
        ]
        with atomic_writer(scores) as fh:
            fh.write("\n".join(rows) + "\n")
    if matrix is not None:  # as every output: a link followed, a full disk one error
        with atomic_writer(matrix, binary=True) as fh:
            np.savez_compressed(
                fh, **{f"segment_{s + id_base}": m for s, m in enumerate(sel.matrices)}
            )
    if output is None:  # the files first: a closed pipe cannot lose them
        sys.stdout.write(text)
