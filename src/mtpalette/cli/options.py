"""Options shared by the meta-evaluation commands (``orange``, ``correlate``, ``agree``,
``audit``), defined once, and the help sections (``rich_help_panel``) every command sorts its
options into, so that ``--help`` reads as a few short lists instead of one long one.

A command names an option by its type alias: ``seed: SeedOpt = 12345``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

#: help of ``--scores`` and ``--export-scores`` (see :mod:`mtpalette.cli.external_opts`)
SCORES_HELP = "Metric scores from a file: NAME=PATH[,higher=no][,layout=mtme]."
EXPORT_HELP = "Write each metric's segment scores to DIR/<metric>.tsv (for --scores)."

#: help sections, in the order commands use them
INPUTS = "Inputs: references and candidates"
HUMANS = "Human judgments"
METRICS = "Metrics and text"
RESAMPLING = "Resampling and significance"
OUTPUTS = "Outputs"
RUNNING = "Running"


def opt(*names: str, panel: str, help: str, **kw) -> typer.models.OptionInfo:
    """An option in one of the help sections."""
    return typer.Option(*names, help=help, rich_help_panel=panel, **kw)


# ----- inputs ---------------------------------------------------------------------------
RefsOpt = Annotated[
    list[Path] | None, opt("--refs", "-r", panel=INPUTS, help="Reference files: -r A B.")
]
SystemsOpt = Annotated[
    list[Path] | None, opt("--systems", "-s", panel=INPUTS, help="System output files: -s A B C.")
]
SystemsDirOpt = Annotated[
    Path | None, opt("--systems-dir", panel=INPUTS, help="Folder of system outputs.")
]
SystemsGlobOpt = Annotated[
    str, opt("--systems-glob", panel=INPUTS, help="File pattern in the folder.")
]
ExcludeOpt = Annotated[
    list[str] | None, opt("--exclude", panel=INPUTS, help="File patterns to leave out.")
]

# ----- human judgments ------------------------------------------------------------------
BundledOpt = Annotated[
    str | None, opt("--bundled", panel=HUMANS, help="The bundled MQM TED data: zhen or ende.")
]
JudgmentsOpt = Annotated[Path | None, opt("--judgments", "-j", panel=HUMANS, help="Judgment file.")]
SegIdsOpt = Annotated[
    Path | None, opt("--seg-ids", panel=HUMANS, help="The judgments' id of each text line.")
]
LpOpt = Annotated[str | None, opt("--lp", panel=HUMANS, help="Language pair (WMT files).")]
RenameOpt = Annotated[
    str | None, opt("--rename", panel=HUMANS, help="Rename judged systems: A=a,B=b.")
]

# ----- metrics and text -----------------------------------------------------------------
MetricsOpt = Annotated[
    list[str] | None,
    opt("-m", "--metrics", panel=METRICS, help="Metric specs: -m 'bleus:1..9' chrf wer."),
]
ScoresOpt = Annotated[list[str] | None, opt("--scores", panel=METRICS, help=SCORES_HELP)]
TokenizeOpt = Annotated[
    str,
    opt(
        "--tokenize",
        "-tok",
        panel=METRICS,
        help="13a, intl, zh, ja-mecab, ko-mecab, jieba, char, none.",
    ),
]
LowercaseOpt = Annotated[bool, opt("--lowercase", "-lc", panel=METRICS, help="Lower-case first.")]

# ----- resampling -----------------------------------------------------------------------
BootstrapOpt = Annotated[
    int, opt("--bootstrap", panel=RESAMPLING, help="Bootstrap resamples (0: none).")
]
SeedOpt = Annotated[int, opt("--seed", panel=RESAMPLING, help="Seed of the resampling.")]
ConfidenceOpt = Annotated[
    float, opt("--confidence", panel=RESAMPLING, help="Interval coverage (0.95).")
]

# ----- outputs --------------------------------------------------------------------------
OutDirOpt = Annotated[
    Path | None, opt("--out-dir", panel=OUTPUTS, help="Write run.json and the tables here.")
]
JsonOpt = Annotated[Path | None, opt("--json", panel=OUTPUTS, help="Run file (JSON).")]
ExportScoresOpt = Annotated[Path | None, opt("--export-scores", panel=OUTPUTS, help=EXPORT_HELP)]
ReportOpt = Annotated[
    Path | None, opt("--report", panel=OUTPUTS, help="Also write an HTML report.")
]

# ----- running --------------------------------------------------------------------------
QuietOpt = Annotated[bool, opt("--quiet", "-q", panel=RUNNING, help="No progress messages.")]
