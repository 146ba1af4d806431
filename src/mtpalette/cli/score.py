"""``mtpalette score``: corpus or sentence scores of one hypothesis set.

Inputs are plain files (``-i HYP -r REF [REF ...]``, ``-`` for stdin) or one TSV/JSONL table
(``--table data.tsv --hyp-col mt --ref-col ref1 ref2``). Output goes to stdout or, written
atomically, to ``-o FILE``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from mtpalette.errors import UserInputError
from mtpalette.io.plain import read_parallel
from mtpalette.io.runfile import atomic_writer
from mtpalette.io.tabular import read_columns
from mtpalette.metrics import Score, parse_specs
from mtpalette.metrics.scoring import TextPairs, compute_stats

Opt = typer.Option


def score(
    refs: Annotated[list[str] | None, Opt("--refs", "-r", help="Reference files.")] = None,
    hyp: Annotated[str, Opt("--input", "-i", help="Hypothesis file; '-' is stdin.")] = "-",
    table: Annotated[Path | None, Opt("--table", help="A TSV or JSONL file instead.")] = None,
    hyp_col: Annotated[str, Opt("--hyp-col", help="Hypothesis column of --table.")] = "hyp",
    ref_cols: Annotated[list[str] | None, Opt("--ref-col", help="Reference columns.")] = None,
    metrics: Annotated[list[str] | None, Opt("--metrics", "-m", help="Metric specs.")] = None,
    sentence: Annotated[bool, Opt("--sentence", help="One row of scores per segment.")] = False,
    tokenize: Annotated[str, Opt("--tokenize", "-tok", help="13a, intl, none, char, zh.")] = "13a",
    lowercase: Annotated[bool, Opt("--lowercase", "-lc", help="Lower-case first.")] = False,
    fmt: Annotated[str, Opt("--format", "-f", help="text, json or tsv.")] = "text",
    output: Annotated[Path | None, Opt("--output", "-o", help="Write here (atomically).")] = None,
) -> None:
    """Score hypotheses against one or more references; every score carries a signature."""
    if fmt not in {"text", "json", "tsv"}:
        raise UserInputError(f"unknown --format {fmt!r}; expected text, json or tsv")
    hyps, ref_lines = _inputs(refs, hyp, table, hyp_col, ref_cols)
    parsed = parse_specs(metrics or ["bleu"], tokenize=tokenize, lowercase=lowercase)
    stats = compute_stats(parsed, TextPairs.parallel(hyps, ref_lines))
    if sentence:
        text = _sentence_text({m.spec: m.sentence_scores(stats[m]) for m in parsed}, fmt)
    else:
        scores = [
            Score(
                m.spec,
                m.corpus_score(stats[m]),
                m.signature(n_refs=len(ref_lines)),
                m.higher_is_better,
            )
            for m in parsed
        ]
        text = _corpus_text(scores, fmt)
    if output is None:
        typer.echo(text, nl=False)
    else:
        with atomic_writer(output) as fh:
            fh.write(text)


def _inputs(refs, hyp, table, hyp_col, ref_cols) -> tuple[list[str], list[list[str]]]:
    if table is not None:
        if refs:
            raise UserInputError("give either --table or --refs files, not both")
        columns = read_columns(table, [hyp_col, *(ref_cols or ["ref"])])
        return columns[0], columns[1:]
    if not refs:
        raise UserInputError("no references: give -r REF [REF ...] or --table")
    return read_parallel(hyp, list(refs))


def _corpus_text(scores: list[Score], fmt: str) -> str:
    if fmt == "json":
        rows = [
            {
                "metric": s.metric,
                "score": s.value,
                "higher_is_better": s.higher_is_better,
                "signature": str(s.signature),
            }
            for s in scores
        ]
        return json.dumps(rows, indent=1) + "\n"
    if fmt == "tsv":
        return "".join(f"{s.metric}\t{s.value:.6f}\t{s.signature}\n" for s in scores)
    width = max(len(s.metric) for s in scores)
    return "".join(f"{s.metric:<{width}}  {s.value:10.4f}  {s.signature}\n" for s in scores)


def _sentence_text(columns: dict, fmt: str) -> str:
    n = len(next(iter(columns.values())))
    if fmt == "json":
        return "".join(
            json.dumps({"segment": i + 1, **{k: float(v[i]) for k, v in columns.items()}}) + "\n"
            for i in range(n)
        )
    rows = ["\t".join(["segment", *columns])]
    rows += ["\t".join([str(i + 1), *(f"{v[i]:.6f}" for v in columns.values())]) for i in range(n)]
    return "\n".join(rows) + "\n"
