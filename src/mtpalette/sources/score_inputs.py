"""The texts ``mtpalette score`` scores: system outputs and references from plain files
(``-i``/``--systems``, globs expanded; ``--systems-dir``), from one table (wide: one column
per system; long: a ``system`` column, one row per system and segment), or from an
mt-metrics-eval folder.

Examples
--------
>>> ScoreInputs(refs=["ref.txt"], hyps=["a.txt", "b.txt"]).validate()
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mtpalette import flags
from mtpalette.description import Description
from mtpalette.errors import UserInputError, repeated
from mtpalette.feedback import note_on_stderr
from mtpalette.flags import INPUTS, choice, flag
from mtpalette.sources import inputs
from mtpalette.sources.checks import (
    check_distinct_references,
    drop_reference_copies,
)
from mtpalette.sources.wmt25 import Wmt25Inputs  # a part of the description (saved, loaded)

if TYPE_CHECKING:
    from mtpalette.sources.inputs import LongTable


@dataclass
class ScoreInputs(Description):
    """Where ``score`` reads its systems and references; exactly one of ``hyps`` (files,
    ``-`` for standard input, glob patterns), ``systems_dir``, ``table`` and ``mtme``."""

    kind = "score-inputs"

    refs: list[str] | None = inputs.REFS.but(help="Reference files: -r REF [REF ...].").field(None)
    hyps: list[str] | None = flag(
        "--input", "-i", "--systems", "-s", panel=INPUTS,
        help="System output files or globs: -i SYS [SYS ...] ('outputs/*.txt'); '-' (default) "
        "is stdin.",
    ).field(None)  # fmt: skip
    systems_dir: Path | None = inputs.SYSTEMS_DIR.but(
        help="Score every system output in this folder."
    ).field(None)
    table: str | None = inputs.TABLE.but(
        help="A TSV, CSV, JSONL or Parquet file with named columns instead."
    ).field(None)
    table_format: str = inputs.TABLE_FORMAT.but(
        help="Format of --table; auto: by its content and extension.",
        cli=choice("auto", "tsv", "csv", "jsonl", "parquet"), parse=str,
    ).field("auto")  # fmt: skip
    table_quoting: str = flag(
        "--table-quoting", panel=INPUTS,
        help="TSV quoting: auto (CSV-quoted when written so), csv, none.",
    ).field("auto")  # fmt: skip
    hyp_cols: list[str] | None = inputs.HYP_COL.but(
        help="Hypothesis column(s) of --table, one system each (default: hyp)."
    ).field(None)
    ref_cols: list[str] | None = inputs.REF_COLS.but(
        help="Reference columns of --table (default: ref)."
    ).field(None)
    system_col: str | None = inputs.SYSTEM_COL.but(
        help="A long --table: one row per system and segment (default: a 'system' column)."
    ).field(None)
    source: Path | None = flags.SOURCE.but(
        help="Source sentences, for plugins that read them."
    ).field(None)
    mtme: Path | None = inputs.MTME.but(
        panel=INPUTS,
        help="Every system of an mt-metrics-eval test set folder (with --lp, --mtme-ref).",
    ).field(None)
    lp: str | None = inputs.LP.but(
        panel=INPUTS, help="--mtme, --wmt25-testset: the language pair."
    ).field(None)
    mtme_ref: str | None = inputs.MTME_REF.but(panel=INPUTS).field(None)
    wmt25: Wmt25Inputs | None = None

    def validate(self) -> None:
        if self.wmt25 is not None:
            if (self.refs or self.hyps or self.systems_dir is not None or self.table is not None
                    or self.mtme is not None or self.source is not None):  # fmt: skip
                raise UserInputError(
                    "--wmt25-testset replaces -r, -i, --systems-dir, --table, --mtme and --source"
                )
            self.wmt25.validate()
            return
        if self.mtme is not None:
            if self.refs or self.hyps or self.systems_dir is not None or self.table is not None:
                raise UserInputError("--mtme replaces -r, -i, --systems-dir and --table")
            if self.lp is None:
                raise UserInputError("--mtme needs the language pair: --lp (e.g. --lp zh-en)")
        elif self.lp is not None:
            raise UserInputError("--lp names the language pair of --mtme or --wmt25-testset")
        if self.system_col is not None and self.table is None:
            raise UserInputError("--system-col names a column of --table")
        if self.table is not None:
            for given, option in (
                (self.refs, "-r/--refs files"),
                (self.hyps, "-i/--input"),
                (self.systems_dir, "--systems-dir"),
            ):
                if given:
                    raise UserInputError(f"give either --table or {option}, not both")
            for cols, option in (
                (self.hyp_cols or [], "--hyp-col"),
                (self.ref_cols or [], "--ref-col"),
            ):
                twice = repeated(cols)
                if twice:
                    raise UserInputError(f"{option} {', '.join(map(repr, twice))} given twice")
        elif self.mtme is None:
            if self.ref_cols or self.hyp_cols:
                raise UserInputError("--ref-col and --hyp-col need --table")
            if not self.refs:
                raise UserInputError("no references: give -r REF [REF ...] or --table FILE")

    def load(
        self, note: Callable[[str], None] = note_on_stderr
    ) -> tuple[dict[str, list[str]], list[list[str]], list[str] | None]:
        """``({system: outputs}, reference streams, sources or None)``."""
        from mtpalette.io.plain import read_matching

        self.validate()
        if self.wmt25 is not None:
            return self.wmt25.load(note).segments(self.wmt25.level)
        if self.mtme is not None:
            systems, refs = self._mtme(note)
        elif self.table is not None:
            systems, refs = self._table()
        else:
            systems, refs = self._files(note)
        n = len(refs[0])
        srcs = None if self.source is None else read_matching(self.source, n, "the hypotheses have")
        return systems, refs, srcs

    def _mtme(self, note):
        """Every system output of an mt-metrics-eval folder (read as MTME's EvalSet reads it,
        the judged and unjudged alike) and the reference in use."""
        from mtpalette.sources.folders import read_mtme_set

        evs = read_mtme_set(self.mtme, self.lp, ref=self.mtme_ref, judged_only=False)
        note(evs.left_out_line())
        return dict(zip(evs.systems, evs.texts(), strict=True)), [evs.reference()]

    def _table(self):
        from mtpalette.io.tabular import read_segments

        cols = self.hyp_cols or ["hyp"]
        rcols = self.ref_cols or ["ref"]
        from mtpalette.io.tabular import header

        names = header(self.table, fmt=self.table_format, quoting=self.table_quoting)
        long = self._long_table(cols, rcols, names)
        if long is not None:
            return long.read(complete=False, names=names)  # the header read once
        self._refuse_pooled(names)
        systems, ref_streams = {}, None
        for col in cols:
            systems[col], ref_streams = read_segments(
                self.table, col, rcols, fmt=self.table_format, quoting=self.table_quoting
            )
        return systems, ref_streams

    def _refuse_pooled(self, names: list[str]) -> None:
        """A table without a system column whose segment ids repeat holds several systems'
        rows: scoring it as one system would pool them, so it is refused."""
        from mtpalette.io.tabular import rows, segment_column

        seg = segment_column(names, self.table)
        if seg is None:
            return
        first: dict[str, int] = {}
        for (name, line), row in rows(self.table, [seg], fmt=self.table_format,
                                      quoting=self.table_quoting):  # fmt: skip
            key = str(row[seg]).strip()
            if key in first:
                raise UserInputError(
                    f"segment {key!r} again (first on line {first[key]}): rows of several "
                    "systems and no system column; name it with --system-col (one row per "
                    "system and segment), or give one system's rows",
                    path=name,
                    line=line,
                )
            first[key] = line

    def _long_table(
        self, hyp_cols: list[str], ref_cols: list[str], names: list[str]
    ) -> LongTable | None:
        """The long table (a system column among the header's ``names``: one row per system
        and segment), or None for a wide one. A system column is never ignored: with several
        --hyp-col it is refused."""
        from mtpalette.sources.inputs import LongTable  # not on the path of plain files

        col = self.system_col or ("system" if "system" in names else None)
        if col is None:
            return None
        if len(hyp_cols) > 1:
            raise UserInputError(
                f"the table has a system column ({col!r}): one row per system and segment, "
                "one --hyp-col; several --hyp-col are for wide tables (one column per system)",
                path=str(self.table),
            )
        return LongTable(
            self.table, self.table_format, hyp_cols[0], ref_cols, col,
            table_quoting=self.table_quoting,
        )  # fmt: skip

    def _files(self, note):
        from mtpalette.io.plain import (
            check_line_count,
            check_stdin_once,
            display_name,
            expand_globs,
            read_lines,
        )

        refs = self.refs or []
        hyps = expand_globs(self.hyps) if self.hyps else None
        check_stdin_once([*(hyps or []), *refs])
        ref_streams = [read_lines(path) for path in refs]
        paths = self._system_paths(hyps, len(ref_streams[0]))
        outputs = [read_lines(path) for path in paths]
        n = len(outputs[0])
        first = display_name(paths[0])
        for path, lines in zip(paths[1:], outputs[1:], strict=True):
            check_line_count(path, len(lines), n, f"the first system ({first}) has")
        for path, stream in zip(refs, ref_streams, strict=True):
            check_line_count(path, len(stream), n, f"the hypotheses ({first}) have")
        check_distinct_references(ref_streams, [display_name(p) for p in refs])
        systems = dict(zip(system_file_names(paths), outputs, strict=True))
        if self.systems_dir is not None:  # a reference's copy in the folder is not a system
            names = [display_name(p) for p in refs]
            systems = drop_reference_copies(systems, ref_streams, names, note)
        return systems, ref_streams

    def _system_paths(self, hyps, n_lines: int) -> list[str]:
        from mtpalette.io.nbest import report_system_files, select_system_files
        from mtpalette.io.plain import STDIN

        if self.systems_dir is None:
            hyps = hyps or [STDIN]
            if hyps == [STDIN] and sys.stdin.isatty():
                raise UserInputError("no hypotheses: give -i HYP or pipe them on standard input")
            return hyps
        if hyps:
            raise UserInputError("give either -i/--input files or --systems-dir, not both")
        others = [*(self.refs or []), *([self.source] if self.source is not None else [])]
        taken, notes = select_system_files(self.systems_dir, inputs_=others, n_lines=n_lines)
        if not taken:
            raise UserInputError(
                f"no system output with {n_lines} lines (the references') in the folder",
                path=str(self.systems_dir),
            )
        report_system_files(self.systems_dir, taken, notes)
        return [str(p) for p in taken]


def system_file_names(paths: list[str]) -> list[str]:
    """Short system names (the file names without their shared parts; one file's name
    without its suffix); the paths as given when two short names coincide. One file given
    twice, however spelled (``A.txt ./A.txt``, two globs that both match it), is refused: it
    would be scored as two systems.

    Examples
    --------
    >>> system_file_names(["out/wmt21.A.txt", "out/wmt21.B.txt"])
    ['A', 'B']
    >>> system_file_names(["out/SMU.txt"])
    ['SMU']
    >>> system_file_names(["out/SMU.txt", "out/../out/SMU.txt"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: the same system file is given twice: out/SMU.txt and ...
    """
    import os

    from mtpalette.io.nbest import system_names
    from mtpalette.io.plain import STDIN, display_name

    first: dict[str, str] = {}
    for path in paths:
        key = STDIN if path == STDIN else os.path.realpath(path)
        if key in first:
            raise UserInputError(
                f"the same system file is given twice: {display_name(first[key])} and "
                f"{display_name(path)}; give each system once"
            )
        first[key] = path
    names = system_names(paths)
    if len(set(names)) < len(names):
        names = [display_name(p) for p in paths]
    if len(set(names)) < len(names):
        raise UserInputError(f"the same system file is given twice: {', '.join(names)}")
    return names
