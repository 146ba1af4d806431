"""Saving runs: one JSON file with inputs, settings, signatures, seeds and results; the
checks of a command's outputs before any work.

A *run* records everything needed to redraw a report or repeat the computation: the command
line, the input files (path, size, SHA-256, line count), the settings, every signature and
seed, and the results. It is written as every output is, by :mod:`mtpalette.io.writers`
(atomically; values made JSON-safe on the way out: dataclasses through their ``to_dict`` when
they have one, numpy scalars and arrays, paths; non-finite floats become ``null``); the
writers' names are importable from here too.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtpalette.errors import UserInputError
from mtpalette.io import inputs
from mtpalette.io.writers import atomic_writer as atomic_writer
from mtpalette.io.writers import csv_text as csv_text
from mtpalette.io.writers import disk_error as disk_error
from mtpalette.io.writers import usual_mode as usual_mode
from mtpalette.io.writers import write_csv as write_csv
from mtpalette.io.writers import write_json
from mtpalette.io.writers import write_jsonl as write_jsonl
from mtpalette.records import to_jsonable as to_jsonable

RUN_FORMAT = "mtpalette-run"
RUN_FORMAT_VERSION = 1


def check_output_folders(
    paths: Mapping[str, str | Path | None] | Iterable[str | Path | None], *, made=()
) -> None:
    """Refuse outputs whose folder does not exist, that are folders themselves, or that share
    a path, before any work is done: a run that cannot write all its outputs writes none.

    ``paths`` maps each output's option (``--json``) to its path, or is a list of paths.
    ``None`` is no output; ``-`` is standard output, which takes one document: two outputs on
    it are refused as two on one file are (the same file by another spelling or through a
    symbolic link too), and one is recorded (:func:`mtpalette.io.inputs.claim_stdout`) so
    that the command line prints nothing else there. Folders in ``made`` will be created by
    the command.

    Examples
    --------
    >>> check_output_folders([None, "out.csv"])
    >>> check_output_folders(["/no/such/folder/run.json"])
    Traceback (most recent call last):
    mtpalette.errors.UserInputError: /no/such/folder: the output folder does not exist
    >>> try:
    ...     check_output_folders({"--json": "out.txt", "--tsv": "out.txt"})
    ... except UserInputError as exc:
    ...     print(exc)
    out.txt: two outputs on one path (--json and --tsv); give each its own file
    """
    named = list(paths.items() if isinstance(paths, Mapping) else ((None, p) for p in paths))
    made = [Path(m).resolve() for m in made if m is not None]
    will_exist = {*made, *(p for m in made for p in m.parents)}  # made with its parents
    seen: dict[Path | str, tuple[str | None, str]] = {}
    for name, path in named:
        if path is None:
            continue
        key = "-" if str(path) == "-" else Path(path).resolve()
        if key in seen:
            raise _same_path(seen[key], (name, str(path)))
        seen[key] = (name, str(path))
        if key == "-":
            inputs.claim_stdout()
            continue
        if Path(path).is_dir():
            raise UserInputError("is a folder; expected a file name", path=str(path))
        folder = Path(path).parent
        if folder.resolve() not in will_exist and not folder.is_dir():
            raise UserInputError("the output folder does not exist", path=str(folder))


def _same_path(first: tuple[str | None, str], second: tuple[str | None, str]) -> UserInputError:
    """The error of two outputs on one path (``-``: standard output)."""
    names = " and ".join(n for n in (first[0], second[0]) if n)
    if second[1] != first[1]:  # another spelling of the same file
        names += f"{'; ' if names else ''}also named {second[1]}"
    both = f" ({names})" if names else ""
    if first[1] == "-":
        return UserInputError(
            f"two outputs on standard output{both}; it takes one document: give the other a file",
            path="-",
        )
    return UserInputError(f"two outputs on one path{both}; give each its own file", path=first[1])


#: the figure formats a plot is written in, by the file's suffix (none: png)
FIGURE_FORMATS = ("png", "pdf", "svg", "svgz", "eps", "ps", "jpg", "jpeg", "webp", "tif", "tiff")


def figure_format(path: str | Path) -> str:
    """The format of a figure file by its suffix (``png`` without one); another suffix is
    refused naming the file and the formats.

    Examples
    --------
    >>> figure_format("curve.PDF"), figure_format("curve")
    ('pdf', 'png')
    """
    suffix = Path(path).suffix.lower().lstrip(".")
    if not suffix:
        return "png"
    if suffix not in FIGURE_FORMATS:
        raise UserInputError(
            f"unknown figure format .{suffix}; expected {', '.join(FIGURE_FORMATS)}", path=str(path)
        )
    return suffix


def run_file_path(json: Path | None, report: Path | None) -> Path | None:
    """Where a run's record goes: ``json`` as given, else beside the report with the
    report's stem and ``.run.json`` (the report is built from it; ``rank.html`` makes
    ``rank.run.json``, so it never replaces the ``rank.json`` of an earlier ``--json``),
    else nowhere. A report with ``--json -`` is refused (see :func:`check_report_source`).

    Examples
    --------
    >>> run_file_path(None, Path("out/r.html")), run_file_path(None, None)
    (PosixPath('out/r.run.json'), None)
    """
    check_report_source(json, report)
    if json is None and report is not None:
        return report.with_suffix(".run.json")
    return json


def check_report_source(json: Path | None, report: Path | None) -> None:
    """Refuse an HTML report built from a run file sent to standard output (``--json -``):
    the report reads the file it is built from.

    Examples
    --------
    >>> check_report_source(Path("-"), None)
    >>> check_report_source(Path("-"), Path("r.html"))
    Traceback (most recent call last):
    mtpalette.errors.UserInputError: --report is built from the run file: give --json a file
    """
    if report is not None and json is not None and str(json) == "-":
        raise UserInputError("--report is built from the run file: give --json a file")


def file_record(path: str | Path, *, count_lines: bool = True) -> dict[str, Any]:
    """Path, size, SHA-256 and line count of an input file, to record it in a run."""
    p = Path(path)
    digest = hashlib.sha256()
    lines = 0
    with open(p, "rb") as fh:
        head = fh.read(2)
        fh.seek(0)
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
            lines += block.count(b"\n")
    out: dict[str, Any] = {"path": str(p), "bytes": p.stat().st_size, "sha256": digest.hexdigest()}
    if count_lines:
        if head == b"\x1f\x8b":  # gzip: the lines of the text it holds, not its newline bytes
            import gzip

            with gzip.open(p, "rb") as fh:
                lines = sum(block.count(b"\n") for block in iter(lambda: fh.read(1 << 20), b""))
        out["lines"] = lines
    return out


@dataclass
class Run:
    """One run of a meta-evaluation (or any command) as saved to disk.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "run.json")
    >>> Run("orange", settings={"ties": "mid"}, seeds={"bootstrap": 12345},
    ...     results={"table": []}).save(p)
    >>> d = load_run(p)
    >>> d["kind"], d["seeds"], d["format_version"]
    ('orange', {'bootstrap': 12345}, 1)
    """

    kind: str
    inputs: dict[str, Any] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    signatures: dict[str, Any] = field(default_factory=dict)
    seeds: dict[str, Any] = field(default_factory=dict)
    results: dict[str, Any] = field(default_factory=dict)
    outputs: dict[str, Any] = field(default_factory=dict)
    command: list[str] = field(default_factory=lambda: list(sys.argv))
    created: str = field(
        default_factory=lambda: _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    )

    def to_dict(self) -> dict[str, Any]:
        from mtpalette._version import __version__

        return {
            "format": RUN_FORMAT,
            "format_version": RUN_FORMAT_VERSION,
            "kind": self.kind,
            "mtpalette_version": __version__,
            "created": self.created,
            "command": self.command,
            "inputs": self.inputs,
            "settings": self.settings,
            "signatures": self.signatures,
            "seeds": self.seeds,
            "results": self.results,
            "outputs": self.outputs,
        }

    def save(self, path: str | Path) -> None:
        """Write the run as one JSON file, atomically."""
        write_json(path, self.to_dict())


def load_run(path: str | Path) -> dict[str, Any]:
    """Read a run file back as a dict, checking that it is one (a key given twice refused)."""
    from mtpalette.io.jsonfile import read_json

    data = read_json(path, "an mtpalette run file")
    if not isinstance(data, dict) or data.get("format") != RUN_FORMAT:
        raise UserInputError(
            f'not an mtpalette run file (no "format": "{RUN_FORMAT}")', path=str(path)
        )
    return data
