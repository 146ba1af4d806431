"""``mtpalette mbr``: pick each segment's candidate of highest expected utility (MBR), or
rerank candidates against references.

Examples::

    mtpalette mbr samples.nbest -m chrf > selected.txt
    mtpalette mbr samples.jsonl -m bleus:4 --scores selection.tsv --matrix utilities.npz
    mtpalette mbr nbest.txt -r ref.txt -m chrf++          # rerank against a reference
    mtpalette mbr samples.txt --decoder aggregate --partitions 4 --reference-lprobs lp.txt
    mtpalette mbr samples.txt --decoder pruning --schedule 8,16,32 --alpha 0.99
    mtpalette mbr nbest.txt --from-matrix comet_pairwise.tsv       # MBR on stored utilities
    mtpalette mbr nbest.txt --qe-scores kiwi.txt --qe-top 8        # QE top 8, then MBR

The candidates come from an n-best file as ``mtpalette orange`` reads them (Moses
``id ||| hypothesis ||| ...`` or JSONL ``{"id": 3, "hyps": [...]}``), ids 0-based unless
``--id-base 1``. The selection goes to standard output (or ``--output``), one line per
segment (empty for a segment without candidates); with ``--scores -`` standard output holds
that table alone (its candidate column is the selection). The decoders (``--decoder``):
``pairwise`` (exact), ``aggregate`` (reference aggregation, chrF/chrF++/BLEU) and ``pruning``
(confidence-based pruning); the rules on stored scores: ``--from-matrix`` (MBR on stored
utilities), ``--qe-scores`` (QE reranking) and ``--qe-scores --qe-top K`` (QE top K, then MBR);
see docs/mbr.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mtpalette.cli.options import Group, opt, with_options

DECODING_PANEL = "Decoding"


def _o(*names: str, help: str) -> typer.models.OptionInfo:
    return opt(*names, panel=DECODING_PANEL, help=help)


#: the decoder and its options, passed on to mtpalette.mbr
DECODING: Group = {
    "decoder": (Annotated[str, _o("--decoder", help="pairwise, aggregate or pruning.")],
                "pairwise"),
    "partitions": (Annotated[int, _o("--partitions", help="aggregate: reference blocks.")], 1),
    "nbest": (Annotated[int, _o("--nbest", help="Rank this many (the --scores table).")], 1),
    "alpha": (Annotated[float, _o("--alpha", help="pruning: confidence threshold.")], 0.99),
    "schedule": (
        Annotated[str | None, _o("--schedule", help="pruning: reference counts per step "
                                 "(8,16,32,64,128,256).")],
        None,
    ),
    "bootstrap": (Annotated[int, _o("--bootstrap", help="pruning: resamples per step.")], 500),
    "seed": (Annotated[int, _o("--seed", help="pruning: the resamples' seed.")], 0),
    "reference_lprobs": (
        Annotated[Path | None, _o("--reference-lprobs", help="Log-probability per candidate "
                                  "line (weights).")],
        None,
    ),
    "weights_from_scores": (
        Annotated[bool, _o("--weights-from-scores", help="Weights: the n-best's score fields.")],
        False,
    ),
    "selector": (Annotated[str, _o("--selector", help="nbest or diverse (with --nbest).")],
                 "nbest"),
    "diversity": (Annotated[float, _o("--diversity", help="diverse: the weight lambda.")], 0.1),
    "from_matrix": (
        Annotated[Path | None, _o("--from-matrix", help="MBR on stored utilities (.npz of "
                                  "--matrix, or TSV/JSONL segment, candidate, reference, score).")],
        None,
    ),
    "qe_scores": (
        Annotated[Path | None, _o("--qe-scores", help="Rerank by a QE score per candidate line.")],
        None,
    ),
    "qe_top": (
        Annotated[int | None, _o("--qe-top", help="With --qe-scores: MBR among the top K.")],
        None,
    ),
}  # fmt: skip


@with_options(DECODING)
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
        bool | None,
        typer.Option("--include-self/--exclude-self", help="Count a candidate against itself "
                     "(default: pairwise no; aggregate and pruning always do, as mbrs)."),
    ] = None,
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
    **decoding,
) -> None:
    """Select each segment's candidate by minimum Bayes risk (or rerank against references)."""
    import sys

    from mtpalette.api.mbr_run import MbrOutputs, MbrRun, parse_schedule, run_mbr
    from mtpalette.io.inputs import stdout_claimed

    if output is None and str(matrix) == "-":  # the selection would have nowhere to go
        from mtpalette.errors import UserInputError

        raise UserInputError(
            "standard output takes the selection when there is no -o: give -o FILE, or "
            "--matrix a file",
            path="-",
        )
    decoding["schedule"] = parse_schedule(decoding["schedule"])
    run = MbrRun(
        candidates, refs, metric, nbest_format=nbest_format, id_base=id_base, segments=segments,
        include_self=include_self, lowercase=lowercase, tokenize=tokenize,
        outputs=MbrOutputs(output, scores, matrix), **decoding,
    )  # fmt: skip
    sel = run_mbr(run)
    # the files first: a closed pipe cannot lose them; --scores - holds the selection: it
    # alone goes to standard output (one document there); the signature goes to stderr
    sys.stderr.write(f"{sel.signature}\n")
    if output is None and not stdout_claimed():
        sys.stdout.write("".join(f"{t}\n" for t in sel.text))
