r"""Outputs: every file a command writes, in one room.

A *writer* puts one object, in one format, on an open file: :data:`WRITERS` holds them by
the format's name (``text``, ``json``, ``jsonl``, ``tsv``, ``csv``, ``latex``, ``parquet``,
and ``npz`` and ``bytes`` for the binary outputs that are no table). :func:`write` opens the
path with :func:`atomic_writer` and writes; :func:`render` gives a text format's document as
a string (what ``mtpalette score`` prints). A new format is one function here, registered
with :func:`writer`.

Every file is written atomically: into a temporary file in the same folder, flushed to disk,
then moved over the target with :func:`os.replace`, so a reader never sees a half-written
file and an interrupted run leaves the previous file intact. ``-`` is standard output, which
then holds that one document (:func:`mtpalette.io.inputs.claim_stdout`).

Examples
--------
>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> rows = [{"metric": "bleu", "score": 30.5, "ok": True}, {"metric": "ter", "score": None,
...          "ok": False}]
>>> write("csv", rows, os.path.join(folder, "t.csv"))
>>> print(open(os.path.join(folder, "t.csv")).read(), end="")
metric,score,ok
bleu,30.5,True
ter,,False
>>> [line.split("\t") for line in render("tsv", rows).splitlines()]
[['metric', 'score', 'ok'], ['bleu', '30.5', 'true'], ['ter', '', 'false']]
>>> render("json", {"a": float("nan"), "b": (1, 2)}, indent=None)
'{"a": null, "b": [1, 2]}\n'
"""

from __future__ import annotations

import contextlib
import csv
import errno
import io
import json
import math
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io import inputs
from mtpalette.records import to_jsonable


@dataclass(frozen=True)
class Writer:
    """One format: ``put(obj, fh, **options)`` writes ``obj`` on the open file ``fh`` (a
    binary one when ``binary``; ``newline`` as :func:`open` takes it) and returns what the
    caller may want back (JSON Lines: the number of records)."""

    name: str
    put: Callable[..., Any]
    binary: bool = False
    newline: str | None = None


#: every format, by name
WRITERS: dict[str, Writer] = {}


def writer(name: str, *, binary: bool = False, newline: str | None = None):
    """Register the decorated ``put(obj, fh, **options)`` as the writer of format ``name``."""

    def register(put: Callable[..., Any]) -> Callable[..., Any]:
        WRITERS[name] = Writer(name, put, binary, newline)
        return put

    return register


def _writer(fmt: str) -> Writer:
    try:
        return WRITERS[fmt]
    except KeyError:
        known = ", ".join(WRITERS)
        raise ValueError(f"unknown output format {fmt!r}; expected one of {known}") from None


def write(fmt: str, obj: Any, path: str | Path, **options: Any) -> Any:
    """Write ``obj`` in format ``fmt`` to ``path`` atomically (``-``: standard output);
    returns what the writer returns."""
    with opened(fmt, path) as put:
        return put(obj, **options)


@contextlib.contextmanager
def opened(fmt: str, path: str | Path) -> Iterator[Callable[..., Any]]:
    """``path`` opened now for format ``fmt`` (one that cannot be written is refused before
    the work that fills it), yielding ``put(obj, **options)``; the file is replaced when the
    block ends without an error."""
    w = _writer(fmt)
    with atomic_writer(path, newline=w.newline, binary=w.binary) as fh:
        yield lambda obj, **options: w.put(obj, fh, **options)


def render(fmt: str, obj: Any, **options: Any) -> str:
    """The document :func:`write` would write, as a string (text formats only)."""
    w = _writer(fmt)
    if w.binary:
        raise ValueError(f"{fmt} is a binary format: write it to a file")
    buf = io.StringIO()
    w.put(obj, buf, **options)
    return buf.getvalue()


# ----- the formats ----------------------------------------------------------------------
@writer("text")
def _text(text: str, fh) -> None:
    """Text as it is (a table made for people, a report)."""
    fh.write(text)


@writer("json")
def _json(obj: Any, fh, *, indent: int | None = 1, end: str = "\n") -> None:
    """``obj`` made JSON-safe (:func:`~mtpalette.records.to_jsonable`: ``to_dict``, numpy
    values, paths; a non-finite number is ``null``) as one JSON document, then ``end``."""
    text = json.dumps(to_jsonable(obj), indent=indent, ensure_ascii=False, allow_nan=False)
    fh.write(text + end)


@writer("jsonl")
def _jsonl(records: Iterable[Any], fh, *, plain: bool = False) -> int:
    """One JSON object per line; returns the number of records.

    ``plain``: the records are made of JSON's types already (dicts, lists, strings, ints,
    finite floats, booleans, None), as the error analysis makes them: written without the
    :func:`~mtpalette.records.to_jsonable` walk (a NaN is still refused, not written).
    """
    n = 0
    for record in records:
        obj = record if plain else to_jsonable(record)
        fh.write(json.dumps(obj, ensure_ascii=False, allow_nan=False) + "\n")
        n += 1
    return n


@writer("csv", newline="")
def _csv(rows: Sequence[Mapping[str, Any]], fh, *, columns: Sequence[str] | None = None) -> None:
    """Rows as CSV (:func:`csv_text`)."""
    fh.write(csv_text(rows, columns))


@writer("tsv")
def _tsv(rows: Any, fh, *, columns: Sequence[str] | None = None, digits: int | None = None):
    """Rows (mappings) as tab-separated lines, the header first (``columns``, else the first
    row's keys), each cell by :func:`tsv_cell`; a pandas DataFrame as pandas writes it."""
    if hasattr(rows, "to_csv"):
        fh.write(rows.to_csv(sep="\t", index=False))
        return
    if columns is None:
        columns = list(rows[0]) if rows else []
    lines = ["\t".join(columns)]
    lines += ["\t".join(tsv_cell(r[k], digits) for k in columns) for r in rows]
    fh.write("\n".join(lines) + "\n")


@writer("latex")
def _latex(obj: Any, fh) -> None:
    """LaTeX source: a string, an object's ``to_latex()``, or several of these a line apart
    (every text in them escaped by :func:`~mtpalette.records.latex_text`)."""
    parts = [obj] if isinstance(obj, str) or hasattr(obj, "to_latex") else list(obj)
    fh.write("\n".join(p if isinstance(p, str) else p.to_latex() for p in parts))


@writer("parquet", binary=True)
def _parquet(table: Any, fh, *, compression: str = "zstd") -> None:
    """A pyarrow Table, a pandas DataFrame or rows (mappings) as a Parquet file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if hasattr(table, "to_parquet"):  # a DataFrame
        table = pa.Table.from_pandas(table, preserve_index=False)
    elif not isinstance(table, pa.Table):
        table = pa.Table.from_pylist(list(table))
    pq.write_table(table, fh, compression=compression)


@writer("npz", binary=True)
def _npz(arrays: Mapping[str, Any], fh) -> None:
    """Named numpy arrays, compressed (``numpy.load`` reads them)."""
    np.savez_compressed(fh, **arrays)


@writer("bytes", binary=True)
def _bytes(data: bytes, fh) -> None:
    """Bytes already in their format (a figure drawn elsewhere)."""
    fh.write(data)


# ----- the formats' rules ---------------------------------------------------------------
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


def tsv_cell(value: Any, digits: int | None = None) -> str:
    """A TSV cell: booleans in lowercase, numbers by :func:`number_text`, a dict as
    ``key=value`` pairs (every digit: a file is read by programs, not eyes), ``None`` empty."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float | np.floating):
        return number_text(value, digits)
    if isinstance(value, dict):
        return " ".join(f"{k}={_exact(v)}" for k, v in value.items())
    return "" if value is None else str(value)


def _exact(v: Any) -> str:
    """A details value with all its digits (``bp=0.984...``; lists joined by ``/``).

    Examples
    --------
    >>> _exact([65.8, 40.0]), _exact(np.float64(0.9841)), _exact(9)
    ('65.8/40', '0.9841', '9')
    """
    if isinstance(v, list | tuple):
        return "/".join(_exact(x) for x in v)
    if isinstance(v, float | np.floating):
        v = float(v)
        return str(int(v)) if v.is_integer() else repr(v)
    return str(v)


def number_text(value: float, digits: int | None) -> str:
    """A number with ``digits`` decimals, or all its digits (``repr``) when ``digits`` is
    None or the number is not finite."""
    value = float(value)
    if digits is None or not math.isfinite(value):
        return repr(value)
    return f"{value:.{digits}f}"


# ----- the formats some callers always write -------------------------------------------
def write_json(path: str | Path, obj: Any, *, indent: int | None = 1) -> None:
    """Write ``obj`` as JSON (the ``json`` writer) atomically."""
    write("json", obj, path, indent=indent)


def write_jsonl(path: str | Path, records: Iterable[Any], *, plain: bool = False) -> int:
    """Write one JSON object per line (the ``jsonl`` writer) atomically; returns the number
    of records."""
    return write("jsonl", records, path, plain=plain)


def write_csv(
    path: str | Path, rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None
) -> None:
    """Write rows as a CSV file (the ``csv`` writer) atomically."""
    write("csv", rows, path, columns=columns)


# ----- atomic files ---------------------------------------------------------------------
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
        inputs.check_output(target)  # again: the block may have read its inputs only now
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.errno in _DISK_ERRORS:
            raise disk_error(exc, path) from None
        raise


def usual_mode(mode: int) -> int:
    """``mode`` less the process's umask: the mode a plain ``open`` or ``mkdir`` gives."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mode & ~mask
