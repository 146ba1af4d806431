"""Inputs of the meta-evaluation runs, read from files: candidate lists (references with
system outputs or n-best lists) and judged tasks (human judgments aligned with the texts they
rate), each described by a small dataclass that checks and loads itself.

The mt-metrics-eval folder (``--mtme DIR --lp``) enters through
:mod:`mtpalette.sources.folders` alone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.feedback import note_on_stderr
from mtpalette.flags import HUMANS, INPUTS, flag
from mtpalette.io.judgment_formats import FORMATS

if TYPE_CHECKING:
    from mtpalette.io.judgments import Judgments
    from mtpalette.metaeval.candidates import CandidateLists
    from mtpalette.metaeval.external import ExternalMetric
    from mtpalette.metaeval.segments import SegmentData

#: the fields of an mt-metrics-eval folder input
MTME_FIELDS = (
    "mtme",
    "human",
    "mtme_ref",
    "mtme_metrics",
    "include_refs",
    "include_outliers",
    "strict_mtme",
)


#: the fields of a long table input (one row per system and segment)
TABLE_FIELDS = ("table", "table_format", "hyp_col", "ref_cols", "system_col", "human_col")


#: the options of the candidates' files, shared by every description of inputs
REFS = flag("--refs", "-r", panel=INPUTS, help="Reference files: -r A B.")
SYSTEMS = flag(
    "--systems", "-s", "--input", "-i", panel=INPUTS,
    help="System output files or globs: -s A B C, -s 'outputs/*.txt'.",
)  # fmt: skip
NBEST_FORMAT = flag("--nbest-format", panel=INPUTS, help="auto, moses or jsonl.")
NBEST_ID_BASE = flag("--id-base", panel=INPUTS, help="First segment id of the n-best.")
SYSTEMS_DIR = flag("--systems-dir", panel=INPUTS, help="Folder of system outputs.")
SYSTEMS_GLOB = flag("--systems-glob", panel=INPUTS, help="File pattern in the folder.")
EXCLUDE = flag("--exclude", panel=INPUTS, help="File patterns to leave out.")
MTME = flag("--mtme", panel=HUMANS, help="An mt-metrics-eval test set folder (with --lp).")
LP = flag("--lp", panel=HUMANS, help="Language pair (WMT files).")
HUMAN = flag(
    "--human", panel=HUMANS, help="--mtme: the human scores (default: the set's standard)."
)
MTME_REF = flag(
    "--mtme-ref", panel=HUMANS, help="--mtme: the reference (default: the set's standard)."
)
MTME_METRICS = flag(
    "--mtme-metrics", panel=HUMANS,
    help="--mtme: stored metric scores to add: names, globs (COMET*) or all.",
)  # fmt: skip
TABLE = flag(
    "--table", panel=INPUTS,
    help="One TSV/CSV/JSONL/Parquet row per system and segment (system, hyp, ref columns).",
)  # fmt: skip
TABLE_FORMAT = flag("--table-format", panel=INPUTS, help="auto, tsv, csv, jsonl or parquet.")
HYP_COL = flag("--hyp-col", panel=INPUTS, help="--table: the output column.")
REF_COLS = flag("--ref-col", panel=INPUTS, help="--table: reference column(s) (ref).")
SYSTEM_COL = flag("--system-col", panel=INPUTS, help="--table: the system column (system).")


@dataclass
class LongTable:
    """One table with a row per system and segment (TSV, CSV, JSONL or Parquet, read by
    :mod:`mtpalette.io.tabular`): the system's name, its output, the references and,
    for judged runs, the human score, each in a named column. The system column is always
    used: a table without one is refused rather than pooled.

    Examples
    --------
    >>> LongTable("scores.jsonl").ref_names()
    ['ref']
    """

    path: Path | str
    table_format: str = "auto"
    hyp_col: str = "hyp"
    ref_cols: list[str] | None = None
    system_col: str = "system"
    human_col: str = "score"
    table_quoting: str = "auto"

    def _checked(
        self, *wanted: tuple[str, str], names: list[str] | None = None
    ) -> tuple[str | None, str | None]:
        from mtpalette.io.tabular import header, segment_column

        fmt = None if self.table_format == "auto" else self.table_format
        taken: dict[str, str] = {}
        for col, option in ((self.system_col, "--system-col"), *wanted):
            if col in taken:  # one column read twice: a reference against its own copy
                said = (f"{option} {col!r} given twice" if taken[col] == option
                        else f"{taken[col]} and {option} both name column {col!r}")  # fmt: skip
                raise UserInputError(said)
            taken[col] = option
        if names is None:  # the header costs a read of the whole table
            names = header(self.path, fmt=fmt, quoting=self.table_quoting)
        for col, option in ((self.system_col, "--system-col"), *wanted):
            if col not in names:
                raise UserInputError(
                    f"no {col!r} column ({option}); the table has: {', '.join(names)}",
                    path=str(self.path),
                )
        return segment_column(names, self.path), fmt

    def ref_names(self) -> list[str]:
        return list(self.ref_cols or ["ref"])

    def read(
        self, *, complete: bool = True, names: list[str] | None = None
    ) -> tuple[dict[str, list[str]], list[list]]:
        """``({system: outputs}, reference streams)``; ``complete=False`` lets a segment
        miss a reference (``None``), as scoring allows; ``names``: the header, when the caller
        has read it already."""
        from mtpalette.io.tabular import read_long_segments

        wanted = [(self.hyp_col, "--hyp-col"), *((c, "--ref-col") for c in self.ref_names())]
        segment, fmt = self._checked(*wanted, names=names)
        outputs, refs = read_long_segments(
            self.path, self.system_col, self.hyp_col, self.ref_names(), segment_col=segment,
            fmt=fmt, quoting=self.table_quoting,
        )  # fmt: skip
        return outputs, self._complete(refs) if complete else refs

    def _complete(self, refs) -> list[list[str]]:
        """``refs``, each segment with every reference, no two columns the same text."""
        from mtpalette.sources.checks import check_distinct_references

        if any(r is None for stream in refs for r in stream):
            raise UserInputError(
                "every segment needs the same number of references here", path=str(self.path)
            )
        check_distinct_references(refs, [f"{self.path}:{c}" for c in self.ref_names()])
        return refs

    def task(self) -> tuple[SegmentData, Judgments, dict[str, Any]]:
        """The human scores (``human_col``) aligned with the outputs and references."""
        import numpy as np

        from mtpalette.io.judgments import Judgments
        from mtpalette.io.runfile import file_record
        from mtpalette.io.tabular import read_long_judged
        from mtpalette.metaeval.segments import SegmentData
        from mtpalette.sources.checks import drop_reference_copies

        wanted = [(self.hyp_col, "--hyp-col"), (self.human_col, "--human-col")]
        wanted += [(c, "--ref-col") for c in self.ref_names()]
        segment, fmt = self._checked(*wanted)
        outputs, refs, human = read_long_judged(
            self.path, self.system_col, self.hyp_col, self.ref_names(), self.human_col,
            segment_col=segment, fmt=fmt, quoting=self.table_quoting,
        )  # fmt: skip
        refs = self._complete(refs)
        outputs = drop_reference_copies(outputs, refs, self.ref_names(), note_on_stderr)
        systems = list(outputs)
        n = len(refs[0])
        scores = np.array([human[s] for s in systems], dtype=np.float64)
        judged = Judgments(systems, list(range(1, n + 1)), scores, "long-table", str(self.path),
                           item_base=1)  # fmt: skip
        data = SegmentData.from_judgments(judged, outputs, refs, ref_names=self.ref_names())
        inputs = {
            "table": file_record(self.path),
            "format": "long-table",
            "columns": {"system": self.system_col, "hyp": self.hyp_col,
                        "refs": self.ref_names(), "human": self.human_col},
            "refs": [{"path": c} for c in self.ref_names()],
            "systems": systems,
            "seg_ids": None,
            "bundled": None,
            "unscored_judged_systems": [],
        }  # fmt: skip
        return data, judged, inputs


@dataclass
class CandidateInputs(Description):
    """References and candidates: exactly one of ``nbest``, ``systems``, ``systems_dir``.

    Examples
    --------
    >>> CandidateInputs(refs=[Path("a.txt")], systems=[Path("s.txt")]).validate()
    """

    kind = "candidates"
    refs: list[Path] = REFS.but(help="Reference files, 2 or more: -r A B.").field(factory=list)
    nbest: Path | None = flag("--nbest", panel=INPUTS, help="n-best file (Moses or JSONL).").field(
        None
    )
    nbest_format: str = NBEST_FORMAT.field("auto")
    id_base: int = NBEST_ID_BASE.field(0)
    systems: list[Path] | None = SYSTEMS.field(None)
    systems_dir: Path | None = SYSTEMS_DIR.field(None)
    systems_glob: str = SYSTEMS_GLOB.field("*")
    exclude: list[str] = EXCLUDE.field(factory=list)
    #: an mt-metrics-eval folder and language pair: its references and system outputs
    mtme: Path | None = MTME.field(None)
    lp: str | None = LP.field(None)
    #: a long table (one row per system and segment; see :class:`LongTable`)
    table: Path | None = TABLE.field(None)
    table_format: str = TABLE_FORMAT.field("auto")
    hyp_col: str = HYP_COL.field("hyp")
    ref_cols: list[str] | None = REF_COLS.field(None)
    system_col: str = SYSTEM_COL.field("system")

    def _table(self) -> LongTable:
        return LongTable(self.table, self.table_format, self.hyp_col, self.ref_cols,
                         self.system_col)  # fmt: skip

    def validate(self) -> None:
        if self.table is not None:
            if self.refs or self.nbest or self.systems or self.systems_dir or self.mtme:
                raise UserInputError(
                    "--table holds the outputs and references: give no --refs, --nbest, "
                    "--systems, --systems-dir or --mtme"
                )
            return
        if self.mtme is not None:
            if self.refs or self.nbest or self.systems or self.systems_dir:
                raise UserInputError("--mtme replaces --refs, --nbest, --systems, --systems-dir")
            if self.lp is None:
                raise UserInputError("--mtme needs the language pair: --lp (e.g. --lp zh-en)")
            return
        given = sum(x is not None and x != [] for x in (self.nbest, self.systems, self.systems_dir))
        if given != 1:
            raise UserInputError(
                "give the candidates once: --nbest FILE, --systems FILE... or --systems-dir DIR"
            )

    def _mtme_set(self):
        from mtpalette.sources.folders import read_mtme_set

        if getattr(self, "_evs", None) is None:
            evs = read_mtme_set(self.mtme, self.lp, judged_only=False)
            note_on_stderr(evs.left_out_line())
            self._evs = evs
        return self._evs

    def ref_names(self) -> list[str]:
        """A name per reference: the file names, or the folder's reference names."""
        if self.table is not None:
            return self._table().ref_names()
        if self.mtme is not None:
            return list(self._mtme_set().refs)
        return [Path(p).name for p in self.refs]

    def read_refs(self) -> list[list[str]]:
        """The reference files' lines, every file as long as the first."""
        from mtpalette.io.plain import read_lines
        from mtpalette.sources.checks import check_distinct_references

        if self.table is not None:
            return self._table().read()[1]
        if self.mtme is not None:  # every reference of the folder (a missing line is "")
            return [[t or "" for t in lines] for lines in self._mtme_set().refs.values()]
        ref_lines = [read_lines(p) for p in self.refs]
        for path, lines in zip(self.refs[1:], ref_lines[1:], strict=True):
            if len(lines) != len(ref_lines[0]):
                raise UserInputError(
                    f"has {len(lines)} lines but {self.refs[0]} has {len(ref_lines[0])}",
                    path=str(path),
                    line=min(len(lines), len(ref_lines[0])) + 1,
                )
        check_distinct_references(ref_lines, [str(p) for p in self.refs])
        return ref_lines

    def load(self, ref_lines: list[list[str]] | None = None) -> tuple[CandidateLists, list[Path]]:
        """The candidate lists and the files they were read from."""
        from mtpalette.io.nbest import read_nbest
        from mtpalette.metaeval.candidates import CandidateLists
        from mtpalette.sources.checks import drop_reference_copies

        self.validate()
        ref_lines = self.read_refs() if ref_lines is None else ref_lines
        names = self.ref_names()
        if self.table is not None:
            outputs = drop_reference_copies(self._table().read()[0], ref_lines, names,
                                            note_on_stderr)  # fmt: skip
            return CandidateLists.from_systems(outputs, ref_lines, ref_names=names), [self.table]
        if self.mtme is not None:
            evs = self._mtme_set()
            outputs = dict(zip(evs.systems, evs.texts(), strict=True))
            return CandidateLists.from_systems(outputs, ref_lines, ref_names=names), []
        if self.nbest is not None:
            nbest = read_nbest(self.nbest, fmt=self.nbest_format)
            lists = CandidateLists.from_nbest(
                nbest, ref_lines, id_base=self.id_base, ref_names=names
            )
            return lists, [self.nbest]
        outputs, files = self.system_outputs(ref_lines)
        return CandidateLists.from_systems(outputs, ref_lines, ref_names=names), files

    def system_outputs(self, ref_lines: list[list[str]]) -> tuple[dict[str, list[str]], list[Path]]:
        """The system outputs of ``systems`` or ``systems_dir`` by name, and their files: a
        folder's references, sources and id lists set aside (said on stderr), and a system
        that copies a reference left out."""
        from mtpalette.io.nbest import (
            read_systems,
            report_system_files,
            select_system_files,
            system_names,
        )
        from mtpalette.io.plain import expand_globs
        from mtpalette.sources.checks import drop_reference_copies

        if self.systems_dir is not None:
            files, notes = select_system_files(
                self.systems_dir,
                pattern=self.systems_glob,
                exclude=self.exclude or [],
                inputs_=self.refs,
                n_lines=len(ref_lines[0]),
            )
            report_system_files(self.systems_dir, files, notes)
        else:
            files = [Path(p) for p in expand_globs(self.systems or [])]
        if not files:
            raise UserInputError("no system file left once the references are set aside")
        outputs = read_systems(files, system_names(files))
        kept = drop_reference_copies(outputs, ref_lines, self.ref_names(), note_on_stderr)
        if not kept:
            raise UserInputError("every system is a copy of a reference")
        files = [f for f, s in zip(files, outputs, strict=True) if s in kept]
        return kept, files


def load_lists(
    refs, ref_lines, nbest, nbest_format, id_base, systems, systems_dir, systems_glob, exclude
) -> tuple[CandidateLists, list[Path]]:
    """The candidate lists from exactly one of ``nbest``, ``systems``, ``systems_dir``
    (:meth:`CandidateInputs.load` of these arguments)."""
    inputs = CandidateInputs(
        list(refs), nbest, nbest_format, id_base, systems, systems_dir, systems_glob, exclude
    )
    return inputs.load(ref_lines)


def parse_rename(text: str | None) -> dict[str, str]:
    """``"ref-A=ref,ref-B=refB"`` as a mapping.

    Examples
    --------
    >>> parse_rename("ref-A=ref, ref-B=refB")
    {'ref-A': 'ref', 'ref-B': 'refB'}
    """
    out: dict[str, str] = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        old, eq, new = part.partition("=")
        if not eq or not old.strip() or not new.strip():
            raise UserInputError(f"bad --rename entry {part.strip()!r}; expected OLD=NEW")
        old, new = old.strip(), new.strip()
        if old in out:  # which one to take would be a guess
            raise UserInputError(f"--rename: {old} is renamed twice ({out[old]}, {new})")
        out[old] = new
    return out


@dataclass(frozen=True)
class LoadedJudgments:
    """What :meth:`JudgedInputs.load` read, as a value: the judgments aligned with their
    texts (``data``, ``judged``), a record of the inputs, and for an mt-metrics-eval folder
    the folder's pair (``mtme_set``) and its stored metric scores (``stored``, by base name,
    as the tasks of ``wmt`` name them)."""

    data: SegmentData
    judged: Judgments
    inputs: dict[str, Any]
    mtme_set: Any = None
    stored: list[ExternalMetric] = field(default_factory=list)


@dataclass
class JudgedInputs(Description):
    """Human judgments and the texts they rate: ``bundled`` (the MQM TED data), ``mtme`` (an
    mt-metrics-eval folder with ``lp``), or ``judgments`` with ``refs`` and the systems.

    Examples
    --------
    >>> JudgedInputs(bundled="zhen").validate()
    """

    kind = "judged"
    bundled: str | None = flag(
        "--bundled", panel=HUMANS, help="The bundled example data (invented): zhen or ende."
    ).field(None)
    judgments: Path | None = flag(
        "--judgments", "-j", panel=HUMANS, help="Judgment file."
    ).field(None)
    fmt: str = flag(
        "--format", panel=HUMANS, help="auto, " + ", ".join(FORMATS) + ", wmt17-testset"
    ).field("auto")
    refs: list[Path] | None = REFS.field(None)
    systems: list[Path] | None = SYSTEMS.field(None)
    systems_dir: Path | None = SYSTEMS_DIR.field(None)
    systems_glob: str = SYSTEMS_GLOB.field("*")
    exclude: list[str] | None = EXCLUDE.field(None)
    seg_ids: Path | None = flag(
        "--seg-ids", panel=HUMANS, help="The judgments' id of each text line."
    ).field(None)
    id_base: int | None = flag(
        "--id-base", panel=HUMANS, help="Id of the first line (ids = lines)."
    ).field(None)
    lp: str | None = LP.field(None)
    rename: str | None = flag(
        "--rename", panel=HUMANS, help="Rename judged systems: A=a,B=b."
    ).field(None)
    mtme: Path | None = MTME.field(None)
    human: str | None = HUMAN.field(None)
    mtme_ref: str | None = MTME_REF.field(None)
    mtme_metrics: list[str] | None = MTME_METRICS.field(None)
    include_refs: bool = flag(
        "--include-refs", panel=HUMANS, help="--mtme: score the other references too."
    ).field(False)
    include_outliers: bool = flag(
        "--include-outliers", panel=HUMANS, help="--mtme: keep the outlier systems."
    ).field(False)
    strict_mtme: bool = flag(
        "--strict-mtme", panel=HUMANS, help="--mtme: refuse systems without human scores."
    ).field(False)
    #: a long table with the human scores inline (one row per system and segment)
    table: Path | None = TABLE.field(None)
    table_format: str = TABLE_FORMAT.field("auto")
    hyp_col: str = HYP_COL.field("hyp")
    ref_cols: list[str] | None = REF_COLS.field(None)
    system_col: str = SYSTEM_COL.field("system")
    human_col: str = flag(
        "--human-col", panel=HUMANS, help="--table: the human score column (score)."
    ).field("score")

    def validate(self) -> None:
        parse_rename(self.rename)
        if self.table is not None and any(
            x for x in (self.bundled, self.judgments, self.refs, self.systems, self.systems_dir,
                        self.mtme)
        ):  # fmt: skip
            raise UserInputError(
                "--table holds the outputs, references and human scores: give no --bundled, "
                "--judgments, --refs, --systems, --systems-dir or --mtme"
            )
        if self.mtme is not None and any(
            x for x in (self.bundled, self.judgments, self.refs, self.systems, self.systems_dir)
        ):
            raise UserInputError(
                "--mtme replaces --bundled, --judgments, --refs, --systems and --systems-dir"
            )

    @property
    def given(self) -> bool:
        """Whether any judgments are named."""
        return any(x is not None for x in (self.bundled, self.judgments, self.mtme, self.table))

    def load(self, note: Callable[[str], None] = note_on_stderr) -> LoadedJudgments:
        """The judgments aligned with their texts, and a record of the inputs (the
        description itself keeps nothing: loading twice reads twice)."""
        self.validate()
        if self.mtme is not None:
            return self._load_mtme(note)
        if self.table is not None:
            return LoadedJudgments(*LongTable(*(getattr(self, f) for f in TABLE_FIELDS)).task())
        task = dataclasses.asdict(self)
        for key in (*MTME_FIELDS, *TABLE_FIELDS):
            task.pop(key)
        return LoadedJudgments(*load_task(**task, note=note))

    def _load_mtme(self, note: Callable[[str], None]) -> LoadedJudgments:
        from mtpalette.metaeval.external import ExternalMetric
        from mtpalette.metaeval.segments import SegmentData
        from mtpalette.sources.folders import read_mtme_set

        if self.lp is None:
            raise UserInputError("--mtme needs the language pair: --lp (e.g. --lp zh-en)")
        evs = read_mtme_set(
            self.mtme,
            self.lp,
            human=self.human,
            ref=self.mtme_ref,
            metrics=self.mtme_metrics,
            include_refs=self.include_refs,
            include_outliers=self.include_outliers,
            strict=self.strict_mtme,
        )
        note(evs.left_out_line())
        for line in evs.notes:
            note(f"note: {line}")
        judged = evs.judgments().rename(parse_rename(self.rename))
        outputs = dict(zip(judged.systems, evs.texts(), strict=True))
        data = SegmentData.from_judgments(judged, outputs, [evs.reference()], ref_names=[evs.ref])
        # by base name, as the tasks of ``wmt`` name them (mtme_pair_data)
        stored = [
            ExternalMetric(evs.metrics[n].basename + ("" if evs.metrics[n].refs else "[noref]"),
                           evs.score_file(n))
            for n in evs.metric_names("seg")
        ]  # fmt: skip
        inputs = {
            "mtme": str(self.mtme),
            "lp": self.lp,
            "human": evs.human,
            "ref": evs.ref,
            "systems": list(evs.systems),
            "left_out": dict(evs.left_out),
            "stored_metrics": evs.metric_names("seg"),
            "refs": [{"path": evs.ref}],
            "unscored_judged_systems": [],
        }
        return LoadedJudgments(data, judged, inputs, evs, stored)


def load_task(
    *,
    bundled: str | None = None,
    judgments: Path | None = None,
    fmt: str = "auto",
    refs: list[Path] | None = None,
    systems: list[Path] | None = None,
    systems_dir: Path | None = None,
    systems_glob: str = "*",
    exclude: list[str] | None = None,
    seg_ids: Path | None = None,
    id_base: int | None = None,
    lp: str | None = None,
    rename: str | None = None,
    note: Callable[[str], None] = note_on_stderr,
) -> tuple[SegmentData, Judgments, dict[str, Any]]:
    """The judgments aligned with their texts, and a record of the inputs.

    Raises
    ------
    UnalignedJudgments
        Judgments whose segment ids are not lines of the texts (usable at system level).
    """
    from mtpalette.io.judgments_mqm import bundled_mqm_ted
    from mtpalette.io.judgments_read import guess_format, read_judgments
    from mtpalette.io.nbest import (
        read_systems,
        report_system_files,
        select_system_files,
        system_names,
    )
    from mtpalette.io.plain import expand_globs, read_lines
    from mtpalette.io.runfile import file_record
    from mtpalette.metaeval.segments import SegmentData
    from mtpalette.sources.checks import check_distinct_references, drop_reference_copies

    if (
        judgments is not None
        and bundled is None
        and (
            fmt == "wmt17-testset" or (fmt == "auto" and guess_format(judgments) == "wmt17-testset")
        )
    ):
        return _wmt17_testset(judgments, lp, refs, systems, systems_dir, seg_ids)
    if bundled is not None:
        if any(x for x in (judgments, refs, systems, systems_dir, seg_ids)):
            raise UserInputError(
                "--bundled replaces --judgments, --refs, --systems and "
                "--seg-ids; give one or the other"
            )
        paths = bundled_mqm_ted(bundled)
        judgments, refs, seg_ids = paths["judgments"], paths["refs"], paths["seg_ids"]
        files = paths["systems"]
    else:
        if judgments is None or not refs:
            raise UserInputError(
                "give --judgments FILE and --refs FILE... (or --bundled zhen|ende)"
            )
        given = sum(x is not None and x != [] for x in (systems, systems_dir))
        if given != 1:
            raise UserInputError(
                "give the system outputs once: --systems FILE... or --systems-dir DIR"
            )
        if systems_dir is not None:
            others = [p for p in (*refs, judgments, seg_ids) if p is not None]
            files, notes = select_system_files(
                systems_dir,
                pattern=systems_glob,
                exclude=exclude or [],
                inputs_=others,
                n_lines=len(read_lines(refs[0])),
            )
            report_system_files(systems_dir, files, notes)
        else:
            files = [Path(p) for p in expand_globs(systems)]
    if not files:
        raise UserInputError("no system file left once the references are set aside")
    judged = read_judgments(judgments, fmt, lp=lp, id_base=id_base).rename(parse_rename(rename))
    ref_lines = [read_lines(p) for p in refs]
    check_distinct_references(ref_lines, [str(p) for p in refs])
    outputs = read_systems(files, system_names(files))
    kept = drop_reference_copies(outputs, ref_lines, [Path(p).name for p in refs], note)
    files = [f for f, s in zip(files, outputs, strict=True) if s in kept]
    outputs = kept
    inputs = {
        "judgments": file_record(judgments),
        "format": judged.kind,
        "refs": [file_record(p) for p in refs],
        "systems": [file_record(p) for p in files],
        "seg_ids": None if seg_ids is None else file_record(seg_ids),
        "bundled": bundled,
    }
    if judged.unaligned is not None:
        raise UnalignedJudgments(judged, outputs, ref_lines, inputs)
    if not outputs:
        raise UserInputError("every system is a copy of a reference")
    ids = read_lines(seg_ids) if seg_ids is not None else None
    data = SegmentData.from_judgments(
        judged,
        outputs,
        ref_lines,
        seg_ids=ids,
        id_base=id_base,
        ref_names=[Path(p).name for p in refs],
    )
    if data.info["unscored_systems"]:  # said, not silently dropped
        note(
            f"note: judged systems without an output file, left out: "
            f"{', '.join(data.info['unscored_systems'])}"
        )
    inputs["unscored_judged_systems"] = data.info["unscored_systems"]
    return data, judged, inputs


def _wmt17_testset(judgments, lp, refs, systems, systems_dir, seg_ids):
    """A WMT17 test-set file: its own translations, references and scores."""
    from mtpalette.io.judgments import Judgments
    from mtpalette.io.judgments_wmt import read_wmt17_testset
    from mtpalette.io.runfile import file_record
    from mtpalette.metaeval.segments import SegmentData

    if refs or systems or systems_dir is not None or seg_ids is not None:
        raise UserInputError(
            "a WMT17 test-set file holds its own translations and "
            "references: give no --refs, --systems or --seg-ids"
        )
    st = read_wmt17_testset(judgments)
    if lp is not None or len(set(st.lps)) > 1:
        if lp is None:
            raise UserInputError(
                "the file has several language pairs; choose one (--lp)", path=str(judgments)
            )
        st = st.select_lp(lp)
    data = SegmentData.from_scored_texts(st)
    judged = Judgments(
        ["all"], data.items, data.human, "wmt17-testset", str(judgments), item_base=1
    )
    inputs = {
        "judgments": file_record(judgments),
        "format": "wmt17-testset",
        "refs": [],
        "systems": [],
        "seg_ids": None,
        "bundled": None,
        "unscored_judged_systems": [],
    }
    return data, judged, inputs


class UnalignedJudgments(UserInputError):
    """Judgments whose segment ids are not lines of the texts (WMT ``ad-seg-scores``): usable
    at system level only, from system means and whole-output corpus scores."""

    def __init__(self, judged: Judgments, outputs, refs, inputs) -> None:
        super().__init__(judged.unaligned, path=judged.path)
        self.judged, self.outputs, self.refs, self.inputs = judged, outputs, refs, inputs
