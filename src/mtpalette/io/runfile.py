"""Saving runs: one JSON file with inputs, settings, signatures, seeds and results; CSV/JSONL.

A *run* records everything needed to redraw a report or repeat the computation: the command
line, the input files (path, size, SHA-256, line count), the settings, every signature and
seed, and the results. Every file is written atomically: into a temporary file in the same
folder, flushed to disk, then moved over the target with :func:`os.replace`, so a reader never
sees a half-written file and an interrupted run leaves the previous file intact.

Values are made JSON-safe on the way out: dataclasses (through their ``to_dict`` when they
have one), numpy scalars and arrays, paths; non-finite floats become ``null``.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as _dt
import errno
import hashlib
import io
import json
import os
import stat
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtpalette.errors import UserInputError
from mtpalette.io import inputs
from mtpalette.records import to_jsonable

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


#: errors of a disk that cannot take the output: said as one line naming the path
_DISK_ERRORS = {errno.ENOSPC: "no space left on the device", errno.EDQUOT: "disk quota exceeded",
                errno.EROFS: "read-only file system", errno.EACCES: "permission denied",
                errno.EPERM: "permission denied", errno.EFBIG: "file too large"}  # fmt: skip


def disk_error(exc: OSError, path: str | Path) -> UserInputError:
    """A :class:`UserInputError` naming ``path`` for an error of the disk (a full disk, a
    read-only folder...), or the error's own text for any other."""
    what = _DISK_ERRORS.get(exc.errno or 0, exc.strerror or str(exc))
    return UserInputError(f"cannot write the output: {what}", path=str(path))


@contextlib.contextmanager
def atomic_writer(path: str | Path, *, newline: str | None = None, binary: bool = False):
    """Open a text file (``binary``: a binary file) for writing that replaces ``path`` only
    when the block succeeds.

    ``-`` is standard output; a symbolic link is followed (its target is replaced, the link
    kept); a named pipe or a device is written as a stream; a folder is refused. A full disk
    or a read-only folder is a :class:`UserInputError` naming the path, and leaves the old
    file as it was.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "out.txt")
    >>> with atomic_writer(p) as fh:
    ...     _ = fh.write("done\\n")
    >>> open(p).read(), sorted(os.listdir(os.path.dirname(p)))
    ('done\\n', ['out.txt'])
    """
    text = {} if binary else {"encoding": "utf-8", "newline": newline}
    mode = "wb" if binary else "w"
    if str(path) == "-":
        inputs.claim_stdout()
        sys.stdout.flush()
        yield sys.stdout.buffer if binary else sys.stdout
        sys.stdout.flush()
        return
    target = Path(path)
    inputs.check_output(target)
    try:
        st = os.stat(target)  # through symbolic links
    except OSError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise UserInputError("is a folder; expected a file name", path=str(path))
    device = str(target.absolute()).startswith(("/dev/", "/proc/"))  # /dev/stdout: a stream
    if st is not None and (device or not stat.S_ISREG(st.st_mode)):  # a pipe, a device
        try:
            with open(target, mode, **text) as fh:
                yield fh
        except OSError as exc:
            raise disk_error(exc, path) from None
        return
    if target.is_symlink():  # the target replaced, the link kept
        target = Path(os.path.realpath(target))
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise UserInputError("the output folder does not exist", path=str(folder))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise disk_error(exc, path) from None
    try:
        os.chmod(tmp, usual_mode(0o666))  # mkstemp makes 0600 files; use the usual mode
        with os.fdopen(fd, mode, **text) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.errno in _DISK_ERRORS:
            raise disk_error(exc, path) from None
        raise


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


def usual_mode(mode: int) -> int:
    """``mode`` less the process's umask: the mode a plain ``open`` or ``mkdir`` gives."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mode & ~mask


def run_file_path(json: Path | None, report: Path | None) -> Path | None:
    """Where a run's record goes: ``json`` as given, else beside the report (the report is
    built from it), else nowhere. A report with ``--json -`` is refused (see
    :func:`check_report_source`).

    Examples
    --------
    >>> run_file_path(None, Path("out/r.html")), run_file_path(None, None)
    (PosixPath('out/r.json'), None)
    """
    check_report_source(json, report)
    if json is None and report is not None:
        return report.with_suffix(".json")
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


def write_json(path: str | Path, obj: Any, *, indent: int | None = 1) -> None:
    """Write ``obj`` (made JSON-safe) atomically."""
    text = json.dumps(to_jsonable(obj), indent=indent, ensure_ascii=False, allow_nan=False)
    with atomic_writer(path) as fh:
        fh.write(text + "\n")


def write_jsonl(path: str | Path, records: Iterable[Any], *, plain: bool = False) -> int:
    """Write one JSON object per line atomically; returns the number of records.

    ``plain``: the records are made of JSON's types already (dicts, lists, strings, ints,
    finite floats, booleans, None), as the error analysis makes them: written without the
    :func:`~mtpalette.records.to_jsonable` walk (a NaN is still refused, not written).
    """
    n = 0
    with atomic_writer(path) as fh:
        for record in records:
            obj = record if plain else to_jsonable(record)
            fh.write(json.dumps(obj, ensure_ascii=False, allow_nan=False) + "\n")
            n += 1
    return n


def csv_text(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> str:
    """Rows as CSV text (header first); floats at full precision, ``None`` as empty.

    Examples
    --------
    >>> print(csv_text([{"metric": "bleus:4", "orange": 0.25}]), end="")
    metric,orange
    bleus:4,0.25
    """
    if columns is None:
        columns = list(rows[0]) if rows else []
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if (v := to_jsonable(row.get(c))) is None else v for c in columns])
    return buf.getvalue()


def write_csv(
    path: str | Path, rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None
) -> None:
    """Write rows as a CSV file atomically."""
    text = csv_text(rows, columns)
    with atomic_writer(path, newline="") as fh:
        fh.write(text)


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
