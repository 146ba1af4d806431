"""``mtpalette train-blanc``: fit BLANC's parameters to human judgments or to ORANGE.

Examples::

    # segment-level Pearson with the MQM scores of the bundled TED zh-en data,
    # the last 30% of the segments held out
    mtpalette train-blanc --bundled zhen --stat pearson --holdout 0.3 -o blanc-zhen.json

    # minimise ORANGE (leave-one-out) on system outputs with two references
    mtpalette train-blanc --objective orange --refs ref.txt refB.txt --systems-dir outputs/ \\
        -o blanc-orange.json

    # then use it wherever a metric spec goes
    mtpalette score -r ref.txt -i hyp.txt -m blanc:@blanc-zhen.json

    # with the part-of-speech feature inside each skip-n-gram match (the paper's eq. 6,
    # English; --posmix: the simpler mix of word and tag scores) and Lita et al.'s rule of
    # correlating only the strictly positive scores
    mtpalette train-blanc --bundled ende ... ; mtpalette train-blanc --judgments da.tsv \
        --refs ref.en --systems-dir outputs/ --pos --positive-only -o blanc-pos.json

The parameter file holds the parameters, the objective, the search seed and every evaluation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import numpy as np
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from mtpalette.api.inputs import load_lists as _load_lists
from mtpalette.api.inputs import load_task
from mtpalette.cli.options import TokenizeOpt
from mtpalette.cli.resampling import check_resampling
from mtpalette.errors import UserInputError
from mtpalette.io.plain import read_lines
from mtpalette.io.runfile import write_json
from mtpalette.metrics.blanc import BlancParams
from mtpalette.train.blanc import (
    DEFAULT_SPACE,
    POS_DIMENSIONS,
    POSMIX_DIMENSION,
    HumanObjective,
    OrangeObjective,
    train_blanc,
)
from mtpalette.train.split import holdout_split

Opt = typer.Option


def train_blanc_cmd(
    objective: Annotated[str, Opt("--objective", help="human or orange.")] = "human",
    output: Annotated[Path, Opt("--output", "-o", help="Parameter file to write (JSON).")] = Path(
        "blanc.json"
    ),
    bundled: Annotated[str | None, Opt("--bundled", help="Bundled MQM TED: zhen or ende.")] = None,
    judgments: Annotated[Path | None, Opt("--judgments", "-j", help="Judgment file.")] = None,
    fmt: Annotated[str, Opt("--format", help="Judgment file format (auto).")] = "auto",
    lp: Annotated[str | None, Opt("--lp", help="Language pair (WMT files).")] = None,
    refs: Annotated[list[Path] | None, Opt("--refs", "-r", help="Reference files.")] = None,
    systems: Annotated[list[Path] | None, Opt("--systems", help="System output files.")] = None,
    systems_dir: Annotated[Path | None, Opt("--systems-dir", help="Folder of outputs.")] = None,
    nbest: Annotated[Path | None, Opt("--nbest", help="n-best file (orange).")] = None,
    seg_ids: Annotated[Path | None, Opt("--seg-ids", help="Line -> segment id file.")] = None,
    stat: Annotated[str, Opt("--stat", help="Correlation statistic.")] = "pearson",
    level: Annotated[str, Opt("--level", help="segment or system.")] = "segment",
    grouping: Annotated[str, Opt("--grouping", help="none, item or system.")] = "none",
    holdout: Annotated[float, Opt("--holdout", help="Fraction held out for testing.")] = 0.0,
    holdout_by: Annotated[
        str, Opt("--holdout-by", help="docs (whole documents, when known) or items.")
    ] = "docs",
    n: Annotated[int, Opt("--n", help="Largest skip-n-gram size (0: every size).")] = 4,
    gap: Annotated[str, Opt("--gap", help="Gap decay on max or cand gaps.")] = "max",
    pos: Annotated[
        bool,
        Opt(
            "--pos",
            help="Train the POS feature weights inside each match, lw and lt (English).",
        ),
    ] = False,
    posmix: Annotated[
        bool,
        Opt("--posmix", help="Train the weight of the POS-tag scores mixed into P and R."),
    ] = False,
    positive_only: Annotated[
        bool, Opt("--positive-only", help="Correlate only strictly positive BLANC scores.")
    ] = False,
    restarts: Annotated[int, Opt("--restarts", help="Hill-climbing starts.")] = 4,
    seed: Annotated[int, Opt("--seed", help="Seed of the random restarts.")] = 0,
    max_evals: Annotated[int, Opt("--max-evals", help="Evaluation budget.")] = 600,
    tokenize: TokenizeOpt = "13a",
    lowercase: Annotated[bool, Opt("--lowercase", "-lc", help="Lower-case first.")] = False,
    quiet: Annotated[bool, Opt("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Train BLANC (alpha, beta, gamma, bf) by hill-climbing with seeded restarts."""
    check_resampling(seed=seed)
    if restarts < 1 or max_evals < 1:
        raise UserInputError(
            f"--restarts and --max-evals must be at least 1 (got {restarts}, {max_evals})"
        )
    if objective == "orange" and (pos or posmix or positive_only):
        raise UserInputError("--pos, --posmix and --positive-only go with --objective human")
    try:
        base = BlancParams(n=n, gap=gap, lw=3.0 if pos else None, posmix=0.5 if posmix else 0.0)
    except ValueError as exc:
        raise UserInputError(f"bad BLANC setting: {exc}") from None
    common = dict(base=base, tokenize=tokenize, lowercase=lowercase)
    test_obj = None
    if objective == "human":
        data, _, _ = load_task(
            bundled=bundled,
            judgments=judgments,
            fmt=fmt,
            refs=refs,
            systems=systems,
            systems_dir=systems_dir,
            seg_ids=seg_ids,
            lp=lp,
        )
        train_data, test_data = holdout_split(data, holdout, by=holdout_by)
        kw = dict(
            statistic=stat,
            level=level,
            grouping=grouping,
            pos_feature=pos,
            posmix_feature=posmix,
            positive_only=positive_only,
            **common,
        )
        obj = HumanObjective([train_data], **kw)
        if test_data is not None:
            test_obj = HumanObjective([test_data], **kw)
    elif objective == "orange":
        if not refs:
            raise UserInputError("--objective orange needs --refs (at least two files)")
        lists, _ = _load_lists(
            refs, [read_lines(p) for p in refs], nbest, "auto", 0, systems, systems_dir, "*", []
        )
        obj = OrangeObjective(lists, **common)
    else:
        raise UserInputError(f"unknown objective {objective!r}; expected human or orange")
    console = Console(stderr=True, quiet=quiet)
    with Progress(
        TextColumn("training BLANC"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("best {task.fields[best]}"),
        console=console,
        transient=True,
        disable=quiet or not console.is_terminal,
    ) as progress:
        task = progress.add_task("train", total=max_evals, best="-")
        best = [-np.inf]

        def tick(record):
            best[0] = max(best[0], record["value"])
            progress.update(task, advance=1, best=f"{best[0]:.4f}")

        space = (
            *DEFAULT_SPACE,
            *(POS_DIMENSIONS if pos else ()),
            *((POSMIX_DIMENSION,) if posmix else ()),
        )
        result = train_blanc(
            obj,
            space=space,
            restarts=restarts,
            seed=seed,
            max_evaluations=max_evals,
            on_evaluation=tick,
        )
    record = result.to_dict()
    default_value = obj.value_of(base)
    if objective == "orange":
        default_value = -default_value
    record["default_value"] = default_value
    if test_obj is not None:
        record["test"] = {
            "value": test_obj.value_of(result.params),
            "default_value": test_obj.value_of(base),
            "items": test_obj.tasks[0].data.n_items,
            "split": train_data.info.get("split"),
        }
    write_json(output, record)
    what = f"{stat} ({level})" if objective == "human" else "ORANGE (lower is better)"
    out = Console(quiet=False)
    p = result.params
    out.print(
        f"BLANC trained on {what}: alpha={p.alpha:.4g} beta={p.beta:.4g} gamma={p.gamma:.4g} "
        f"bf={p.bf:.4g} n={p.n or '*'} gap={p.gap}"
        + (
            (f" lw={p.lw:.4g} lt={p.lt:.4g}" if p.tagged else " lw=off (tags did not help)")
            if pos
            else ""
        )
        + (f" posmix={p.posmix:.4g}" if posmix else "")
    )
    out.print(f"  train: {result.value:.4f} (default parameters {default_value:.4f})")
    if "test" in record:
        t = record["test"]
        out.print(f"  held-out: {t['value']:.4f} (default parameters {t['default_value']:.4f})")
    out.print(f"  {result.climb.n_evaluations} evaluations, seed {seed}; written to {output}")
