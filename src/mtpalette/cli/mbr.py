"""``mtpalette mbr``: pick each segment's candidate of highest expected utility (MBR), or
rerank candidates against references.

Examples::

    mtpalette mbr samples.nbest -m chrf > selected.txt
    mtpalette mbr samples.jsonl -m bleus:4 --scores selection.tsv --matrix utilities.npz
    mtpalette mbr nbest.txt -r ref.txt -m chrf++          # rerank against a reference

The candidates come from an n-best file as ``mtpalette orange`` reads them (Moses
``id ||| hypothesis ||| ...`` or JSONL ``{"id": 3, "hyps": [...]}``), ids 0-based unless
``--id-base 1``. The selection goes to standard output (or ``--output``), one line per
segment (empty for a segment without candidates); with ``--scores -`` standard output holds
that table alone (its candidate column is the selection).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


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

    from mtpalette.api.pairwise_run import mbr_files
    from mtpalette.io.inputs import stdout_claimed

    if output is None and str(matrix) == "-":  # the selection would have nowhere to go
        from mtpalette.errors import UserInputError

        raise UserInputError(
            "standard output takes the selection when there is no -o: give -o FILE, or "
            "--matrix a file",
            path="-",
        )
    text = mbr_files(
        candidates, refs, metric, nbest_format=nbest_format, id_base=id_base, segments=segments,
        include_self=include_self, lowercase=lowercase, tokenize=tokenize, output=output,
        scores=scores, matrix=matrix,
    )  # fmt: skip
    # the files first: a closed pipe cannot lose them; --scores - holds the selection: it
    # alone goes to standard output (one document there)
    if output is None and not stdout_claimed():
        sys.stdout.write(text)
