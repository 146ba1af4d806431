"""``read_spans``: any span file through one registry of formats, the format detected from
the file's name and first line when it is not given (an ambiguous file is refused with the
candidates named), and the generic writers behind ``write_spans``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mtpalette.errors import UserInputError, did_you_mean
from mtpalette.io import spans_formats as tables
from mtpalette.io import spans_jsonl as jsons
from mtpalette.io.spans import SpanSet


@dataclass(frozen=True)
class SpanFormat:
    """One span format: its reader, what it is, the file endings it is looked for under and
    a test of the file's first line (``first``; ``whole``: a test of its first 4,096
    characters instead, for JSON documents written over many lines; None: the ending alone
    decides)."""

    read: Callable[..., SpanSet]
    what: str
    endings: tuple[str, ...]
    sniff: Callable[[str], bool] | None = None
    whole: bool = False


def _json_keys(first: str) -> set[str]:
    try:
        obj = json.loads(first)
    except json.JSONDecodeError:
        return set()
    return set(obj) if isinstance(obj, dict) else set()


def _tsv_header(first: str) -> set[str]:
    return set(first.split("\t"))


#: the span formats by name
FORMATS: dict[str, SpanFormat] = {
    "mtme": SpanFormat(tables.read_mtme_rating, "MTME LP.NAME.seg.rating", (".rating",)),
    "mqm": SpanFormat(
        tables.read_mqm_spans, "Google's MQM TSV with <v>...</v> marks", (".tsv",),
        lambda h: {"system", "seg_id", "rater", "target", "severity"} <= _tsv_header(h),
    ),
    "esa-csv": SpanFormat(tables.read_esa_csv, "Appraise ESA CSV export", (".csv",)),
    "wmt25-tsv": SpanFormat(
        tables.read_wmt25_tsv, "WMT25 metrics task-2 TSV", (".tsv",),
        lambda h: {"start_indices", "end_indices", "error_types"} <= _tsv_header(h),
    ),
    "qe-task2": SpanFormat(
        tables.read_qe_task2, "WMT23/24 QE task-2 gold or submission", (".tsv", ".txt"),
        lambda h: len(h.split("\t")) == 7 or h.strip().isdigit(),
    ),
    "comet-json": SpanFormat(
        tables.read_comet_json, "COMET/xCOMET --to_json output", (".json",),
        lambda h: h.lstrip().startswith("{") and '"mt"' in h and '"annotation"' not in h,
        whole=True,
    ),
    "pearmut": SpanFormat(
        jsons.read_pearmut, "Pearmut log or annotations.json", (".jsonl", ".json"),
        lambda h: '"annotation"' in h and '"item"' in h,
        whole=True,
    ),
    "wmt26-jsonl": SpanFormat(
        jsons.read_wmt26_jsonl, "WMT26 metrics-task predictions (task1_pred)", (".jsonl",),
        lambda h: "task1_pred" in _json_keys(h),
    ),
    "wmt25-humeval": SpanFormat(
        jsons.read_wmt25_humeval, "WMT25 human-evaluation JSONL", (".jsonl",),
        lambda h: {"scores", "tgt_text", "doc_id"} <= _json_keys(h),
    ),
    "generic-jsonl": SpanFormat(
        jsons.read_generic_jsonl, "mtpalette's generic span JSONL", (".jsonl",),
        lambda h: {"system", "segment", "spans"} <= _json_keys(h),
    ),
    "generic-tsv": SpanFormat(
        jsons.read_generic_tsv, "mtpalette's generic span TSV", (".tsv",),
        lambda h: set(jsons.REQUIRED_TSV) <= _tsv_header(h),
    ),
}  # fmt: skip


def _ending(path: str) -> str:
    name = path.lower().removesuffix(".gz")
    return Path(name).suffix


def _head(path: str | Path, size: int = 4096) -> str:
    """The first ``size`` characters of a (possibly gzipped) UTF-8 file."""
    import gzip

    name = str(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read(2 * size)
            if data[:2] == b"\x1f\x8b":
                fh.seek(0)
                data = gzip.GzipFile(fileobj=fh).read(2 * size)
    except FileNotFoundError:
        raise UserInputError("file not found", path=name) from None
    except IsADirectoryError:
        raise UserInputError("is a directory, expected a file", path=name) from None
    except (OSError, EOFError) as exc:
        raise UserInputError(f"cannot read the file ({exc})", path=name) from None
    return data.decode("utf-8", errors="replace")[:size].lstrip("\ufeff")


def detect_format(path: str | Path) -> str:
    """The format of ``path``: the formats registered for its ending whose test accepts its
    first line. None or several is refused, naming the candidates.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "s.tsv")
    >>> _ = open(p, "w").write("system\\tsegment\\tstart\\tend\\tseverity\\n"
    ...                        "A\\t0\\t0\\t1\\tminor\\n")
    >>> detect_format(p)
    'generic-tsv'
    """
    name = str(path)
    ending = _ending(name)
    candidates = [k for k, f in FORMATS.items() if ending in f.endings]
    if not candidates:
        raise UserInputError(
            f"cannot tell the span format from the ending {ending or '(none)'!r}; give --format "
            f"(one of {', '.join(FORMATS)})",
            path=name,
        )
    head = _head(path)
    first = head.split("\n", 1)[0].rstrip("\r")
    found = [
        k
        for k in candidates
        if FORMATS[k].sniff is None or FORMATS[k].sniff(head if FORMATS[k].whole else first)
    ]
    if len(found) > 1 and "generic-jsonl" in found:
        found = ["generic-jsonl"]
    if len(found) != 1:
        which = found or candidates
        raise UserInputError(
            f"the span format is {'ambiguous' if found else 'not recognised'}: it could be "
            f"{', '.join(which)}; give --format",
            path=name,
            line=1,
        )
    return found[0]


def read_spans(path: str | Path, *, format: str | None = None, clip: bool = False) -> SpanSet:
    """The spans of ``path`` in ``format`` (one of :data:`FORMATS`; detected when None).

    Parameters
    ----------
    path:
        The file (``.gz`` accepted where its reader reads lines).
    format:
        A key of :data:`FORMATS`; None detects it (:func:`detect_format`).
    clip:
        The organisers' behaviour instead of refusing: spans cut to their text, a span
        that starts after it ends left out, an unknown severity read as ``undecided``.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "g.jsonl")
    >>> _ = open(p, "w").write('{"system": "A", "segment": 0, "text": "ab", '
    ...                        '"spans": [{"start": 0, "end": 1, "severity": "Minor"}]}\\n')
    >>> ss = read_spans(p)
    >>> ss.format, ss.rows[0].spans[0].severity
    ('generic-jsonl', 'minor')
    >>> read_spans(p, format="xyz")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: unknown span format 'xyz'; expected one of mtme, mqm, ...
    """
    if format is None:
        format = detect_format(path)
    if format not in FORMATS:
        hint = did_you_mean(format, FORMATS)
        raise UserInputError(
            f"unknown span format {format!r}; expected one of {', '.join(FORMATS)}{hint}"
        )
    return FORMATS[format].read(path, clip=clip)


#: the generic writers by format name
WRITERS = {"generic-jsonl": jsons.write_generic_jsonl, "generic-tsv": jsons.write_generic_tsv}


def write_spans(spans: SpanSet, path: str | Path, *, format: str = "generic-jsonl") -> Path:
    """Write ``spans`` to ``path`` in a generic format, atomically.

    Examples
    --------
    >>> import os, tempfile
    >>> from mtpalette.io.spans import Span, SpanRow
    >>> ss = SpanSet((SpanRow("en-de", "A", "d", 0, "ab", (Span(0, 1, "minor"),)),), "x", "y")
    >>> p = os.path.join(tempfile.mkdtemp(), "s.tsv")
    >>> back = read_spans(write_spans(ss, p, format="generic-tsv"))
    >>> back.rows == ss.rows
    True
    """
    from mtpalette.io.writers import atomic_writer

    if format not in WRITERS:
        raise UserInputError(
            f"cannot write spans as {format!r}; expected one of {', '.join(WRITERS)}"
        )
    with atomic_writer(path) as fh:
        WRITERS[format](spans, fh)
    return Path(path)
