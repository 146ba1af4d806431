"""Where a run writes: the descriptions of its outputs (the command line's output options,
declared on their fields), beside :mod:`~mtpalette.reporting.run_files`, which writes them.

What a run reads is described in :mod:`mtpalette.sources` (``CandidateInputs``,
``JudgedInputs``...), what it writes here: :class:`TableOutputs` (a run file, a table, exported
scores and an HTML report, a folder naming the files not named), ORANGE's
(:class:`OrangeOutputs`: its curve and error analysis too), a correlation's
(:class:`CorrelationOutputs`) and an MBR decision's (:class:`MbrOutputs`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from mtpalette import flags
from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.flags import CSV, JSON, OUT_DIR, OUTPUTS, REPORT, flag

#: the outranking candidates the error analysis lists per segment (``--errors-max``'s default)
ERRORS_MAX = 20


@dataclasses.dataclass
class TableOutputs(Description):
    """Where a run that writes a table writes (the command line's ``TABLE_OUTPUTS``): its run
    file, the table, exported scores and an HTML report; a folder (``out_dir``) names the run
    file and the table when they are not named (see :meth:`in_folder`).

    Examples
    --------
    >>> out = TableOutputs(out_dir=Path("o"), report=Path("r/rep.html"))
    >>> out.in_folder(); out.json, out.csv, out.report_folder
    (PosixPath('o/run.json'), PosixPath('o/table.csv'), PosixPath('r/rep-run'))
    """

    out_dir: Path | None = OUT_DIR.field(None)
    json: Path | None = JSON.field(None)
    csv: Path | None = CSV.field(None)
    export_scores: Path | None = flag(
        "--export-scores", panel=OUTPUTS,
        help="Write each metric's segment scores to DIR/<metric>.tsv (for --scores).",
    ).field(None)  # fmt: skip
    #: replace scores stored in ``export_scores`` (else a stored file is never overwritten)
    overwrite: bool = flag(
        "--overwrite", panel=OUTPUTS, help="--export-scores: replace scores stored there."
    ).field(False)
    report: Path | None = REPORT.field(None)

    @property
    def report_folder(self) -> Path | None:
        """The run folder beside the HTML report (``rep.html``: ``rep-run``), if one is asked."""
        return None if self.report is None else self.report.parent / (self.report.stem + "-run")

    def in_folder(self) -> None:
        """Name the run file (``run.json``) and the table (``table.csv``) in ``out_dir``
        where they are not named (a report with ``--json -`` refused: it is built from the
        run file)."""
        from mtpalette.io.runfile import check_report_source

        check_report_source(self.json, self.report)
        if self.out_dir is not None:
            self.json = self.json or self.out_dir / "run.json"
            self.csv = self.csv or self.out_dir / "table.csv"

    def by_option(self, given: TableOutputs, *fields: str) -> dict[str, Path | None]:
        """These outputs' files (resolved: the folder's defaults filled in) by the option that
        names them, for :func:`~mtpalette.io.runfile.check_output_folders`: ``--json`` where
        ``given`` (the outputs as asked) names the file, else the run folder's default.

        Examples
        --------
        >>> given = TableOutputs(out_dir=Path("o"), csv=Path("t.csv"))
        >>> out = dataclasses.replace(given); out.in_folder()
        >>> out.by_option(given, "json", "csv")
        {"the run folder's run.json": PosixPath('o/run.json'), '--csv': PosixPath('t.csv')}
        """
        named: dict[str, Path | None] = {}
        for name in fields:
            path, option = getattr(self, name), "--" + name.replace("_", "-")
            if path is not None and getattr(given, name) is None:
                option = f"the run folder's {Path(path).name}"
            named[option] = path
        return named


@dataclass
class OrangeOutputs(TableOutputs):
    """Where an ORANGE run writes: a folder (``out_dir``) fills in every file not named."""

    kind = "orange-outputs"
    curve_step: int | None = flag(
        "--curve-step", panel=OUTPUTS, help="ORANGE-vs-N step."
    ).field(None)
    curve_csv: Path | None = flag("--curve-csv", panel=OUTPUTS, help="Curve as CSV.").field(None)
    curve_plot: Path | None = flag(
        "--curve-plot", panel=OUTPUTS, help="Curve plot (.png)."
    ).field(None)
    errors: Path | None = flag("--errors", panel=OUTPUTS, help="Error analysis (JSONL).").field(
        None
    )
    errors_max: int = flag(
        "--errors-max", panel=OUTPUTS, help="Candidates kept per segment in errors."
    ).field(ERRORS_MAX)
    #: write --export-scores in mt-metrics-eval's layout for this language pair
    export_mtme: str | None = flags.EXPORT_MTME.field(None)

    def validate(self) -> None:
        from mtpalette.io.runfile import figure_format
        from mtpalette.sources.external import check_export_layout

        check_export_layout(self.export_scores, self.export_mtme)
        if self.curve_plot is not None:
            figure_format(self.curve_plot)  # before any work: an unknown suffix named
        if self.errors_max < 0 or (self.curve_step is not None and self.curve_step < 1):
            raise UserInputError(
                "--max-candidates and --curve-step must be positive, --errors-max 0 or more"
            )

    def resolved(self, run_dir: Path | None) -> OrangeOutputs:
        """Every file named: the folder's defaults filled in (a chunked run keeps no errors)."""
        out = dataclasses.replace(self)
        out.out_dir = out.out_dir or out.report_folder
        if run_dir is not None:
            out.out_dir = out.out_dir or run_dir
        out.in_folder()
        if out.out_dir is not None:
            out.curve_csv = out.curve_csv or out.out_dir / "curve.csv"
            out.curve_plot = out.curve_plot or out.out_dir / "curve.png"
            out.errors = out.errors or (out.out_dir / "errors.jsonl" if run_dir is None else None)
        return out

    @property
    def wants_curve(self) -> bool:
        return any(x is not None for x in (self.curve_step, self.curve_csv, self.curve_plot))


@dataclass
class CorrelationOutputs(TableOutputs):
    """Where a correlation run writes: a folder (``out_dir``) fills in every file not named."""

    kind = "correlation-outputs"
    keep_scores: bool = flag(
        "--keep-scores", panel=OUTPUTS, help="Keep segment scores (for plots)."
    ).field(False)
    #: write --export-scores in mt-metrics-eval's layout for this language pair
    export_mtme: str | None = flags.EXPORT_MTME.field(None)

    def resolved(self) -> CorrelationOutputs:
        out = CorrelationOutputs(**vars(self))
        if out.report is not None:
            out.keep_scores = True
            if out.out_dir is None and out.json is None:
                out.out_dir = out.report_folder
        out.in_folder()
        return out


@dataclass
class MbrOutputs(Description):
    """Where a decision goes: the selection (``output``, one line per segment), a TSV of
    segment, index, utility and candidate (``scores``), the utility matrices (``matrix``,
    .npz); each written atomically, none by default."""

    kind = "mbr-outputs"
    output: Path | None = flag(
        "--output", "-o", panel=OUTPUTS, help="Write the selection here."
    ).field(None)
    scores: Path | None = flag(
        "--scores", panel=OUTPUTS, help="TSV: segment, index, utility, candidate."
    ).field(None)
    matrix: Path | None = flag(
        "--matrix", panel=OUTPUTS, help="Save the utility matrices (.npz)."
    ).field(None)
