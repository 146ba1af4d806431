"""``mtpalette score``: corpus or sentence scores of one hypothesis file."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from mtpalette.io.plain import read_parallel
from mtpalette.metrics import parse_specs
from mtpalette.metrics.base import Score
from mtpalette.metrics.scoring import TextPairs, compute_stats


def score(
    refs: list[Path] = typer.Option(..., "-r", "--refs", help="Reference files (one or more)."),
    hyp: str = typer.Option("-", "-i", "--input", help="Hypothesis file; '-' reads stdin."),
    metrics: list[str] = typer.Option(["bleu"], "-m", "--metrics", help="Metric specs."),
    sentence: bool = typer.Option(False, "--sentence", help="One line of scores per segment."),
    tokenize: str = typer.Option("13a", "--tokenize", "-tok", help="13a, intl, none, char, zh."),
    lowercase: bool = typer.Option(False, "--lowercase", "-lc", help="Lower-case first."),
    fmt: str = typer.Option("text", "--format", "-f", help="text, json or tsv."),
) -> None:
    """Score a hypothesis file against one or more references."""
    hyps, ref_lines = read_parallel(hyp, list(refs))
    parsed = parse_specs(metrics, tokenize=tokenize, lowercase=lowercase)
    pairs = TextPairs.parallel(hyps, ref_lines)
    stats = compute_stats(parsed, pairs)
    if sentence:
        columns = {m.spec: m.sentence_scores(stats[m]) for m in parsed}
        if fmt == "json":
            for i in range(len(hyps)):
                typer.echo(
                    json.dumps({"segment": i + 1, **{k: float(v[i]) for k, v in columns.items()}})
                )
        else:
            typer.echo("\t".join(["segment", *columns]))
            for i in range(len(hyps)):
                typer.echo("\t".join([str(i + 1), *(f"{v[i]:.6f}" for v in columns.values())]))
        return
    scores = [
        Score(
            m.spec, m.corpus_score(stats[m]), m.signature(n_refs=len(ref_lines)), m.higher_is_better
        )
        for m in parsed
    ]
    if fmt == "json":
        typer.echo(
            json.dumps(
                [
                    {"metric": s.metric, "score": s.value, "signature": str(s.signature)}
                    for s in scores
                ],
                indent=1,
            )
        )
    elif fmt == "tsv":
        for s in scores:
            typer.echo(f"{s.metric}\t{s.value:.6f}\t{s.signature}")
    else:
        for s in scores:
            typer.echo(str(s))
