"""Candidate lists: Moses n-best files, JSONL n-best files, and several systems' output files.

Moses n-best format, one hypothesis per line::

    id ||| hypothesis ||| features ||| score

``id`` is the segment's index (0-based by default), the features field is free text such as
``LM0= -12.3 TM0= -1.5 -2.0`` (parsed on demand by :func:`parse_features`) and the score a
number; fields after the score (word alignments) are ignored. Only ``id ||| hypothesis`` is
required. Ids need not be contiguous, a segment may have any number of hypotheses (or none),
and the hypotheses of one segment keep their file order (the n-best order).

JSONL n-best: one object per line, either one hypothesis ``{"id": 3, "hyp": "...",
"score": -1.2, "features": {...}}`` or a whole list ``{"id": 3, "hyps": ["...", "..."],
"scores": [...]}``.

System outputs: one plain-text file per system, one line per segment, all aligned with the
references (a WMT system-output folder, or the files given one by one).

Every error names the file and the line.

References
----------
Moses decoder, ``moses -n-best-list`` output format (Koehn et al., 2007).
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mtpalette.errors import UserInputError, converted, shortened
from mtpalette.io import inputs
from mtpalette.io.jsonfile import loads
from mtpalette.io.plain import read_lines

FORMATS = ("auto", "moses", "jsonl")
_MOSES_SHAPE = "expected 'id ||| hypothesis ||| features ||| score'"
_NOT_AN_ID = "segment id {text!r} is not an integer; " + _MOSES_SHAPE
_NOT_A_SCORE = "score {text!r} is not a number; " + _MOSES_SHAPE
_NOT_A_FEATURE = "feature token {text!r} is neither 'name=' nor a number"
#: one hypothesis as read: segment id, text, features field, score, line number
_Row = tuple[int, str, str, float, int]


@dataclass(frozen=True)
class NBestList:
    """The hypotheses of an n-best file, in file order.

    Attributes
    ----------
    ids:
        int64 segment id of each hypothesis, as written in the file.
    hyps:
        The hypothesis texts.
    features:
        The raw features field of each hypothesis (``""`` when absent; JSON text in JSONL).
    scores:
        float64 decoder score of each hypothesis (NaN when absent).
    lines:
        The 1-based line number of each hypothesis in ``path``.
    path:
        The file it was read from.
    """

    ids: np.ndarray
    hyps: list[str]
    features: list[str]
    scores: np.ndarray
    lines: np.ndarray
    path: str

    def __len__(self) -> int:
        return len(self.hyps)

    def group(self, n_segments: int, *, id_base: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """Hypotheses grouped by segment: ``(order, offsets)``.

        ``order[offsets[s]:offsets[s + 1]]`` are the hypotheses of segment ``s`` (id
        ``s + id_base``) in file order. Ids outside ``0..n_segments - 1`` (after subtracting
        ``id_base``) are an error naming the line.

        Examples
        --------
        >>> nb = NBestList(np.array([2, 0, 2]), ["a", "b", "c"], ["", "", ""],
        ...                np.full(3, np.nan), np.array([1, 2, 3]), "x.nbest")
        >>> order, offsets = nb.group(3)
        >>> order.tolist(), offsets.tolist()
        ([1, 0, 2], [0, 1, 1, 3])
        """
        seg = self.ids - id_base
        bad = np.flatnonzero((seg < 0) | (seg >= n_segments))
        if bad.size:
            i = int(bad[0])
            raise UserInputError(
                f"segment id {int(self.ids[i])} is outside 0..{n_segments - 1 + id_base}: the "
                f"references have {n_segments} lines and ids are {id_base}-based"
                + ("" if id_base else " (use an id base of 1 for 1-based ids)"),
                path=self.path,
                line=int(self.lines[i]),
            )
        order = np.argsort(seg, kind="stable")
        offsets = np.zeros(n_segments + 1, dtype=np.int64)
        np.cumsum(np.bincount(seg, minlength=n_segments), out=offsets[1:])
        return order.astype(np.int64), offsets


def read_nbest(path: str | Path, *, fmt: str = "auto") -> NBestList:
    """Read an n-best file (Moses or JSONL; ``auto`` looks at the suffix and first line).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "t.nbest")
    >>> _ = open(p, "w").write("0 ||| a b ||| lm: -1 ||| -2.5\\n2 ||| c ||| ||| -1\\n")
    >>> nb = read_nbest(p)
    >>> nb.ids.tolist(), nb.hyps, nb.scores.tolist(), nb.lines.tolist()
    ([0, 2], ['a b', 'c'], [-2.5, -1.0], [1, 2])
    """
    if fmt not in FORMATS:
        raise UserInputError(f"unknown n-best format {fmt!r}; expected one of {', '.join(FORMATS)}")
    lines = read_lines(path)
    if fmt == "auto":
        first = next((ln for ln in lines if ln.strip()), "")
        is_json = str(path).endswith((".jsonl", ".json")) or first.lstrip().startswith("{")
        fmt = "jsonl" if is_json else "moses"
    parse = _parse_jsonl if fmt == "jsonl" else _parse_moses
    return parse(lines, str(path))


def _trailing_blank_start(lines: Sequence[str]) -> int:
    end = len(lines)
    while end > 0 and not lines[end - 1].strip():
        end -= 1
    return end


def _moses_line(line: str, number: int, path: str) -> tuple[int, str, str, float]:
    """``(segment id, hypothesis, features, score)`` of one Moses n-best line."""
    if not line.strip():
        raise UserInputError(f"empty line; {_MOSES_SHAPE}", path=path, line=number)
    fields = line.split("|||")
    if len(fields) < 2:
        raise UserInputError(f"no '|||' separator; {_MOSES_SHAPE}", path=path, line=number)
    id_text = fields[0].strip()
    seg_id = converted(int, id_text, _NOT_AN_ID, path=path, line=number)
    if not 0 <= seg_id <= MAX_SEGMENT_ID:
        raise UserInputError(
            f"segment id {id_text[:20]} is outside 0..{MAX_SEGMENT_ID}", path=path, line=number
        )
    score = math.nan
    if len(fields) >= 4:
        score_text = fields[3].strip()
        if score_text:
            score = converted(float, score_text, _NOT_A_SCORE, path=path, line=number)
    return seg_id, fields[1].strip(), fields[2].strip() if len(fields) >= 3 else "", score


def _parse_moses(lines: Sequence[str], path: str) -> NBestList:
    """Column by column (no tuple per line: a million-line file is held once, as its lines
    and its hypotheses)."""
    end = _trailing_blank_start(lines)
    if end == 0:
        raise UserInputError("no hypotheses in the n-best file", path=path)
    ids = np.empty(end, dtype=np.int64)
    scores = np.empty(end, dtype=np.float64)
    hyps: list[str] = []
    feats: list[str] = []
    for number in range(end):
        seg_id, hyp, feat, score = _moses_line(lines[number], number + 1, path)
        ids[number], scores[number] = seg_id, score
        hyps.append(hyp)
        feats.append(feat)
    return NBestList(ids, hyps, feats, scores, np.arange(1, end + 1, dtype=np.int64), path)


def iter_moses_segments(path: str | Path) -> Iterator[tuple[int, list[str]]]:
    """Stream a Moses n-best file: ``(segment id, hypotheses in file order)`` per segment,
    reading one line at a time, so memory does not grow with the file. The file must list
    each segment's hypotheses together with ids ascending, as Moses writes them.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "n.txt")
    >>> _ = open(p, "w").write("0 ||| a b\\n0 ||| a c\\n2 ||| d\\n")
    >>> list(iter_moses_segments(p))
    [(0, ['a b', 'a c']), (2, ['d'])]
    """
    return _grouped(_moses_lines(path))


def moses_segment_starts(path: str | Path) -> Iterator[tuple[int, int, int]]:
    """``(segment id, byte offset, line number)`` of the first line of every segment of a
    Moses n-best file, every line checked as :func:`iter_moses_segments` checks it, without
    keeping any hypothesis: where the chunks of a run begin, for workers that read their own
    part of the file (:func:`read_moses_span`). The file's size is yielded last, with id -1.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "n.txt")
    >>> _ = open(p, "w").write("0 ||| a b\\n0 ||| a c\\n2 ||| d\\n")
    >>> list(moses_segment_starts(p))
    [(0, 0, 1), (2, 20, 3), (-1, 28, 0)]
    """
    current = -1
    for number, offset, seg_id, _ in _moses_lines(path):
        if seg_id != current:
            yield seg_id, offset, number
            current = seg_id
    yield -1, Path(path).stat().st_size, 0


def read_moses_span(
    path: str | Path, start: int, end: int, first_line: int
) -> Iterator[tuple[int, list[str]]]:
    """``(segment id, hypotheses)`` of the lines of a Moses n-best file between two byte
    offsets of :func:`moses_segment_starts` (``first_line``: the number of the first one),
    as :func:`iter_moses_segments` gives them.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "n.txt")
    >>> _ = open(p, "w").write("0 ||| a b\\n0 ||| a c\\n2 ||| d\\n")
    >>> list(read_moses_span(p, 20, 28, 3))
    [(2, ['d'])]
    """
    return _grouped(_moses_lines(path, start, end, first_line))


def _grouped(lines: Iterator[tuple[int, int, int, str]]) -> Iterator[tuple[int, list[str]]]:
    """``(segment id, hypotheses)`` from :func:`_moses_lines`' lines (ids ascending)."""
    current, hyps = -1, []
    for _, _, seg_id, hyp in lines:
        if seg_id != current:
            if hyps:
                yield current, hyps
            current, hyps = seg_id, []
        hyps.append(hyp)
    if hyps:
        yield current, hyps


def _moses_lines(
    path: str | Path, start: int = 0, end: int | None = None, first_line: int = 1
) -> Iterator[tuple[int, int, int, str]]:
    """``(line number, byte offset, segment id, hypothesis)`` of every line of a Moses n-best
    file (or of its bytes ``start..end``, whose first line is line ``first_line``), checked:
    UTF-8, no blank line before the last one, ids ascending, and no carriage return inside a
    line (a text reader would end the line there; a line may end with ``\\r\\n``)."""
    name = str(path)
    current, offset, blank_at, number = -1, start, None, first_line
    try:
        with open(path, "rb") as fh:
            inputs.note(path)
            fh.seek(start)
            for number, raw in enumerate(fh, start=first_line):
                if end is not None and offset >= end:
                    break
                body = raw[:-1] if raw.endswith(b"\n") else raw
                body = body[:-1] if body.endswith(b"\r") else body
                if b"\r" in body:
                    raise UserInputError(
                        "a carriage return inside the line (a line ends with \\n or \\r\\n)",
                        path=name,
                        line=number,
                    )
                line = body.decode("utf-8")
                if not line.strip():
                    blank_at = blank_at or number
                    offset += len(raw)
                    continue
                if blank_at is not None:
                    _moses_line("", blank_at, name)  # a blank line inside the file
                seg_id, hyp, _, _ = _moses_line(line, number, name)
                if seg_id < current:
                    raise UserInputError(
                        f"segment id {seg_id} after {current}: streaming needs each "
                        "segment's lines together, ids ascending (as Moses writes them)",
                        path=name,
                        line=number,
                    )
                current = seg_id
                yield number, offset, seg_id, hyp
                offset += len(raw)
    except UnicodeDecodeError as exc:
        raise UserInputError(f"not UTF-8 text: {exc.reason}", path=name, line=number) from None
    except OSError as exc:
        raise UserInputError(f"cannot read: {exc.strerror}", path=name) from None
    if end is not None and offset != end:
        raise UserInputError("the file changed since the run read it", path=name)


def _parse_jsonl(lines: Sequence[str], path: str) -> NBestList:
    rows: list[_Row] = []
    shape = 'expected {"id": N, "hyp": "..."} or {"id": N, "hyps": [...]}'
    first_line: dict[int, tuple[int, bool]] = {}  # id -> its first line, and whether a list
    end = _trailing_blank_start(lines)
    for number, line in enumerate(lines[:end], start=1):
        if not line.strip():
            raise UserInputError(f"empty line; {shape}", path=path, line=number)
        try:
            obj = loads(line, path=path, line=number)
        except json.JSONDecodeError as exc:
            raise UserInputError(
                f"invalid JSON ({exc.msg}); {shape}", path=path, line=number
            ) from None
        if not isinstance(obj, dict):
            raise UserInputError(f"not a JSON object; {shape}", path=path, line=number)
        seg_id = obj.get("id")
        if (
            isinstance(seg_id, bool)
            or not isinstance(seg_id, int)
            or not 0 <= seg_id <= MAX_SEGMENT_ID
        ):
            raise UserInputError(
                f"'id' must be an integer in 0..{MAX_SEGMENT_ID}, "
                f"got {shortened(repr(seg_id))}; {shape}",
                path=path,
                line=number,
            )
        if "hyps" in obj:
            texts, line_scores = obj["hyps"], obj.get("scores")
            if not isinstance(texts, list):
                raise UserInputError("'hyps' must be a list of strings", path=path, line=number)
            if line_scores is not None and (
                not isinstance(line_scores, list) or len(line_scores) != len(texts)
            ):
                raise UserInputError(
                    "'scores' must be a list as long as 'hyps'", path=path, line=number
                )
            features = obj.get("features")
            if features is not None and (
                not isinstance(features, list) or len(features) != len(texts)
            ):
                raise UserInputError(
                    "'features' must be a list as long as 'hyps'", path=path, line=number
                )
        elif "hyp" in obj:
            texts = [obj["hyp"]]
            line_scores = None if obj.get("score") is None else [obj["score"]]
            features = None if obj.get("features") is None else [obj["features"]]
        else:
            raise UserInputError(f"no 'hyp' or 'hyps' key; {shape}", path=path, line=number)
        _check_one_list(first_line, seg_id, "hyps" in obj, path, number)
        for j, text in enumerate(texts):
            if not isinstance(text, str):
                raise UserInputError(f"hypothesis {text!r} is not a string", path=path, line=number)
            score = math.nan
            if line_scores is not None and line_scores[j] is not None:
                value = line_scores[j]
                if isinstance(value, bool) or not isinstance(value, int | float):
                    raise UserInputError(f"score {value!r} is not a number", path=path, line=number)
                try:
                    score = float(value)
                except OverflowError:  # a JSON integer too large for a float
                    raise UserInputError(
                        "score is not a finite number", path=path, line=number
                    ) from None
            feature = "" if features is None else features[j]
            feature = feature if isinstance(feature, str) else json.dumps(feature)
            rows.append((seg_id, text, feature, score, number))
    return _make(rows, path)


def _check_one_list(first_line: dict, seg_id: int, listed: bool, path: str, number: int):
    """Refuse a segment id on a second line when either line is a whole list (``"hyps"``):
    the two lists would be merged into one, in no order the file states."""
    if seg_id in first_line and (listed or first_line[seg_id][1]):
        raise UserInputError(
            f"segment id {seg_id} again (first on line {first_line[seg_id][0]}); a \"hyps\" "
            "line holds a segment's whole list: give each id one \"hyps\" line, or one "
            "\"hyp\" line per hypothesis", path=path, line=number)  # fmt: skip
    first_line.setdefault(seg_id, (number, listed))


def _make(rows: list[_Row], path: str) -> NBestList:
    if not rows:
        raise UserInputError("no hypotheses in the n-best file", path=path)
    ids, hyps, feats, scores, numbers = zip(*rows, strict=True)
    return NBestList(
        np.asarray(ids, dtype=np.int64),
        list(hyps),
        list(feats),
        np.asarray(scores, dtype=np.float64),
        np.asarray(numbers, dtype=np.int64),
        path,
    )


def parse_features(
    text: str, *, path: str | None = None, line: int | None = None
) -> dict[str, list[float]]:
    """Parse a Moses features field (``name= v1 v2 name2: v3``) into name -> values.

    Values before any name are kept under ``""``.

    Examples
    --------
    >>> parse_features("LM0= -12.5 TM0= -1 -2.25 d: 0")
    {'LM0': [-12.5], 'TM0': [-1.0, -2.25], 'd': [0.0]}
    """
    out: dict[str, list[float]] = {}
    name = ""
    for token in text.split():
        if token.endswith(("=", ":")):
            name = token[:-1]
            out.setdefault(name, [])
            continue
        value = converted(float, token, _NOT_A_FEATURE, path=path, line=line)
        out.setdefault(name, []).append(value)
    return out


def write_moses_nbest(
    path: str | Path,
    ids: Sequence[int],
    hyps: Sequence[str],
    features: Sequence[str] | None = None,
    scores: Sequence[float] | None = None,
) -> None:
    """Write hypotheses as a Moses n-best file (features and score empty when not given)."""
    with open(path, "w", encoding="utf-8") as fh:
        for j, (seg_id, hyp) in enumerate(zip(ids, hyps, strict=True)):
            if "\n" in hyp or "|||" in hyp:
                raise ValueError(f"hypothesis {j} contains a newline or '|||'")
            feature = "" if features is None else features[j]
            score = "" if scores is None else repr(float(scores[j]))
            fh.write(f"{int(seg_id)} ||| {hyp} ||| {feature} ||| {score}\n")


def list_system_files(
    directory: str | Path, *, pattern: str = "*", exclude: Sequence[str] = ()
) -> list[Path]:
    """The system-output files of a folder: regular, non-hidden, matching ``pattern`` and
    none of the ``exclude`` globs, sorted by name.

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> for n in ["b.txt", "a.txt", "source.txt", ".hidden"]:
    ...     _ = open(os.path.join(d, n), "w").write("x\\n")
    >>> [p.name for p in list_system_files(d, exclude=["source.txt"])]
    ['a.txt', 'b.txt']
    """
    root = Path(directory)
    if not root.is_dir():
        raise UserInputError(
            "not a directory (expected a folder of system outputs)", path=str(root)
        )
    files = sorted(
        p
        for p in root.iterdir()
        if p.is_file()
        and not p.name.startswith(".")
        and fnmatch.fnmatch(p.name, pattern)
        and not any(fnmatch.fnmatch(p.name, ex) for ex in exclude)
    )
    if not files:
        raise UserInputError(
            f"no system files match {pattern!r} (excluding {', '.join(exclude) or 'nothing'})",
            path=str(root),
        )
    return files


#: the largest segment id accepted (ids index arrays)
MAX_SEGMENT_ID = 2**62

#: file names in a folder of system outputs that are not systems (sources, id lists, notes)
NOT_SYSTEMS = (
    "source*", "src.*", "*seg_ids*", "*segids*", "*doc_ids*", "*docids*", "readme*",
    "license*", "notice*",
)  # fmt: skip

#: the note on a file named like a reference, left out of a folder of system outputs (the
#: escape: give it as a file)
REFERENCE_NOTE = "a reference by its name; give it with -r, or with --systems to rank it"


def named_like_reference(name: str) -> bool:
    """Whether a file name reads as a reference's: ``ref``/``reference``/``refs`` then the
    end, a dot, a dash, a digit or a capital (``refB``), not another small letter.

    Examples
    --------
    >>> [named_like_reference(n) for n in ("ref.txt", "refB.txt", "REF-a.en", "refine.txt")]
    [True, True, True, False]
    """
    head = re.match(r"(?i)(references|reference|refs|ref)(.?)", name)
    if head is None:
        return False
    after = head.group(2)
    return after == "" or not after.islower()


def select_system_files(
    directory: str | Path,
    *,
    pattern: str = "*",
    exclude: Sequence[str] = (),
    inputs_: Sequence[str | Path] = (),
    n_lines: int | None = None,
) -> tuple[list[Path], list[str]]:
    """The system outputs of a folder, and a note for each file left out and why.

    Left out: the other inputs of the run (``inputs_``: references, source, judgments...,
    compared by inode), names of :data:`NOT_SYSTEMS`, files named like a reference
    (:func:`named_like_reference`: ``refB.txt`` beside ``-r ref.txt``), files whose line
    count is not ``n_lines`` (the references'), and files holding only numbers (id lists).

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> for n, text in [("A.txt", "a\\nb\\n"), ("B.txt", "c\\nd\\n"), ("source.txt", "x\\ny\\n"),
    ...                 ("ids.txt", "1\\n2\\n"), ("short.txt", "e\\n")]:
    ...     _ = open(os.path.join(d, n), "w").write(text)
    >>> taken, notes = select_system_files(d, n_lines=2)
    >>> [p.name for p in taken]
    ['A.txt', 'B.txt']
    >>> notes  # doctest: +NORMALIZE_WHITESPACE
    ['ids.txt (only numbers)', 'short.txt (1 lines, not 2)',
     'source.txt (not a system output by its name)']
    """
    others = set()
    for p in inputs_:
        with contextlib.suppress(OSError):
            st = Path(p).stat()
            others.add((st.st_dev, st.st_ino))
    taken: list[Path] = []
    notes: list[str] = []
    for path in list_system_files(directory, pattern=pattern, exclude=exclude):
        st = path.stat()
        reason = None
        if (st.st_dev, st.st_ino) in others:
            reason = "an input of this run"
        elif any(fnmatch.fnmatch(path.name.lower(), pat) for pat in NOT_SYSTEMS):
            reason = "not a system output by its name"
        elif named_like_reference(path.name):
            reason = REFERENCE_NOTE
        else:
            try:
                lines = read_lines(path, allow_empty=True)
            except UserInputError:
                lines = None
            if lines is None:
                reason = "not UTF-8 text"
            elif n_lines is not None and len(lines) != n_lines:
                reason = f"{len(lines)} lines, not {n_lines}"
            elif lines and all(line.strip().isdigit() for line in lines):
                reason = "only numbers"
        if reason is None:
            taken.append(path)
        else:
            notes.append(f"{path.name} ({reason})")
    return taken, notes


def report_system_files(directory: str | Path, taken: Sequence[Path], notes: Sequence[str]):
    """One line on standard error: the system files taken from ``directory`` and those left
    out, with why (see :func:`select_system_files`)."""
    import sys

    line = f"systems: {len(taken)} from {directory}"
    if notes:
        line += f"; left out: {', '.join(notes)}"
    print(line, file=sys.stderr)


def system_names(paths: Sequence[str | Path]) -> list[str]:
    """Short system names: file names without the dot-separated parts they all share at the
    start and at the end.

    Examples
    --------
    >>> system_names(["x/newstest2021.de-en.hyp.UEdin.en", "x/newstest2021.de-en.hyp.SMU.en"])
    ['UEdin', 'SMU']
    >>> system_names(["a/Nemo.txt"])
    ['Nemo']
    """
    parts = [Path(p).name.split(".") for p in paths]
    if len(parts) == 1:
        return [".".join(parts[0][:-1]) if len(parts[0]) > 1 else parts[0][0]]
    shortest = min(len(p) for p in parts)
    head = 0
    while head < shortest - 1 and len({p[head] for p in parts}) == 1:
        head += 1
    tail = 0
    while tail < shortest - head - 1 and len({p[len(p) - 1 - tail] for p in parts}) == 1:
        tail += 1
    names = [".".join(p[head : len(p) - tail]) for p in parts]
    if len(set(names)) != len(names):
        names = [Path(p).name for p in paths]
    return names


def read_systems(
    paths: Sequence[str | Path], names: Sequence[str] | None = None
) -> dict[str, list[str]]:
    """Several systems' output files, by system name in the given order.

    Raises a :class:`UserInputError` when two files get the same name or the files differ in
    length (naming the file).
    """
    if not paths:
        raise UserInputError("no system files given")
    names = list(names) if names is not None else system_names(paths)
    if len(set(names)) != len(names):
        raise UserInputError(f"two system files have the same name: {names}")
    out: dict[str, list[str]] = {}
    for name, path in zip(names, paths, strict=True):
        lines = read_lines(path)
        if out:
            first_name, first = next(iter(out.items()))
            if len(lines) != len(first):
                raise UserInputError(
                    f"has {len(lines)} lines but system {first_name!r} has {len(first)}",
                    path=str(path),
                    line=min(len(lines), len(first)) + 1,
                )
        out[name] = lines
    return out
