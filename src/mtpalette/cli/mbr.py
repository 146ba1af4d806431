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

from mtpalette.api.mbr_run import MbrOutputs, MbrRun
from mtpalette.cli.options import fill, with_options


@with_options(MbrRun, MbrOutputs)
def mbr_cmd(**options) -> None:
    """Select each segment's candidate by minimum Bayes risk (or rerank against references)."""
    import sys

    from mtpalette.api.mbr_run import run_mbr
    from mtpalette.io.inputs import stdout_claimed

    output = options["output"]
    if output is None and str(options["matrix"]) == "-":  # the selection would have nowhere to go
        from mtpalette.errors import UserInputError

        raise UserInputError(
            "standard output takes the selection when there is no -o: give -o FILE, or "
            "--matrix a file",
            path="-",
        )
    sel = run_mbr(fill(MbrRun, options, outputs=fill(MbrOutputs, options)))
    # the files first: a closed pipe cannot lose them; --scores - holds the selection: it
    # alone goes to standard output (one document there); the signature goes to stderr
    sys.stderr.write(f"{sel.signature}\n")
    if output is None and not stdout_claimed():
        sys.stdout.write("".join(f"{t}\n" for t in sel.text))
