"""Error spans as flat arrays: the input of every span-scoring protocol.

A protocol scores, segment by segment, the spans of an annotator (the *prediction*) against
the spans of a reference annotation (the *gold*). Per segment the input is the length of the
text the offsets refer to (characters) and two lists of spans ``(start, end, severity)``:
half-open character offsets, ``start == end`` marking an insertion point, severity one of
:data:`SEVERITIES`. :func:`pack_spans` turns such lists into a :class:`SpanArrays` (one entry
per span: its segment, start, end and severity code), which is what the protocols compute on;
a caller that already holds arrays builds a :class:`SpanArrays` directly.

Offsets are checked once here: ``0 <= start <= end <= length`` for every span but an omission
(an omission marks no place in the text; its offsets are ignored). A span that breaks this,
or an unknown severity, is refused with :class:`~mtpalette.errors.UserInputError` naming the
segment and the span; the readers name the file and the line before the spans get here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mtpalette.errors import UserInputError

#: the severities a span may carry, in code order (``SEVERITIES.index(name)`` is its code)
SEVERITIES = ("minor", "major", "critical", "undecided", "omission")
MINOR, MAJOR, CRITICAL, UNDECIDED, OMISSION = range(len(SEVERITIES))

Span = tuple[int, int, str]


@dataclass(frozen=True)
class SpanArrays:
    """The spans of one annotation over ``n_segments`` segments, one entry per span.

    Attributes
    ----------
    segment, start, end, severity:
        int64 arrays of equal length: the span's segment (0-based), offsets and severity code
        (an index into :data:`SEVERITIES`).
    n_segments:
        The number of segments (segments without spans have no entry).
    """

    segment: np.ndarray
    start: np.ndarray
    end: np.ndarray
    severity: np.ndarray
    n_segments: int

    def __len__(self) -> int:
        return int(self.segment.shape[0])

    def where(self, keep: np.ndarray) -> SpanArrays:
        """The spans selected by a boolean mask (or an index array).

        Examples
        --------
        >>> a = pack_spans([[(0, 3, "major"), (1, 2, "undecided")]], [5])
        >>> a.where(a.severity != UNDECIDED).spans_of(0)
        [(0, 3, 'major')]
        """
        return SpanArrays(
            self.segment[keep],
            self.start[keep],
            self.end[keep],
            self.severity[keep],
            self.n_segments,
        )

    def spans_of(self, segment: int) -> list[Span]:
        """The spans of one segment as ``(start, end, severity)`` tuples (for messages, tests).

        Examples
        --------
        >>> pack_spans([[(0, 3, "major")], []], [5, 4]).spans_of(0)
        [(0, 3, 'major')]
        """
        rows = np.flatnonzero(self.segment == segment)
        return [
            (int(self.start[i]), int(self.end[i]), SEVERITIES[int(self.severity[i])]) for i in rows
        ]


def severity_code(name: str, *, where: str = "") -> int:
    """The code of a severity name, or a :class:`UserInputError` naming the known ones.

    Examples
    --------
    >>> severity_code("critical")
    2
    """
    try:
        return SEVERITIES.index(name)
    except ValueError:
        at = f"{where}: " if where else ""
        raise UserInputError(
            f"{at}unknown severity {name!r}; expected one of {', '.join(SEVERITIES)}"
        ) from None


def _is_int(x: object) -> bool:
    return isinstance(x, int | np.integer) and not isinstance(x, bool)


def pack_spans(
    spans: Sequence[Sequence[Span]], lengths: Sequence[int] | np.ndarray, *, name: str = "spans"
) -> SpanArrays:
    """Flat arrays from per-segment lists of ``(start, end, severity)`` spans, checked.

    Parameters
    ----------
    spans:
        One list of spans per segment.
    lengths:
        The length of each segment's text, in characters.
    name:
        What the spans are (``"gold"``, an annotator's name), for error messages.

    Returns
    -------
    SpanArrays

    Raises
    ------
    UserInputError
        A span outside its text, with its start after its end, or with an unknown severity.

    Examples
    --------
    >>> a = pack_spans([[(0, 3, "major"), (4, 4, "minor")], []], [5, 4])
    >>> a.segment.tolist(), a.start.tolist(), a.end.tolist(), a.severity.tolist()
    ([0, 0], [0, 4], [3, 4], [1, 0])
    """
    n = len(spans)
    if len(lengths) != n:
        raise UserInputError(f"{name}: {n} segments of spans but {len(lengths)} text lengths")
    counts = np.fromiter((len(s) for s in spans), dtype=np.int64, count=n)
    total = int(counts.sum())
    flat = [span for segment in spans for span in segment]
    start = np.empty(total, dtype=np.int64)
    end = np.empty(total, dtype=np.int64)
    sev = np.empty(total, dtype=np.int64)
    codes = {s: i for i, s in enumerate(SEVERITIES)}
    for i, span in enumerate(flat):
        if len(span) != 3 or not (_is_int(span[0]) and _is_int(span[1])):
            seg = int(np.searchsorted(np.cumsum(counts), i, side="right"))
            raise UserInputError(
                f"{name}, segment {seg}: a span must be (start, end, severity) with integer "
                f"offsets, got {span!r}"
            )
        start[i], end[i] = span[0], span[1]
        code = codes.get(span[2])
        if code is None:
            seg = int(np.searchsorted(np.cumsum(counts), i, side="right"))
            severity_code(span[2], where=f"{name}, segment {seg}, span {span!r}")
        sev[i] = code
    arrays = SpanArrays(np.repeat(np.arange(n, dtype=np.int64), counts), start, end, sev, n)
    check_spans(arrays, np.asarray(lengths, dtype=np.int64), name=name)
    return arrays


def check_spans(spans: SpanArrays, lengths: np.ndarray, *, name: str = "spans") -> None:
    """Refuse spans outside their text or with their start after their end (omissions aside).

    Examples
    --------
    >>> a = SpanArrays(*(np.array([v]) for v in (0, 2, 9, 1)), n_segments=1)
    >>> check_spans(a, np.array([5]), name="gold")
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: gold, segment 0, span (2, 9, 'major'): ... 5 characters
    """
    if lengths.shape[0] != spans.n_segments:
        raise UserInputError(
            f"{name}: {spans.n_segments} segments of spans but {lengths.shape[0]} text lengths"
        )
    if (lengths < 0).any():
        raise UserInputError(f"{name}: a text length is negative")
    if ((spans.severity < 0) | (spans.severity >= len(SEVERITIES))).any():
        raise UserInputError(f"{name}: a severity code is outside 0..{len(SEVERITIES) - 1}")
    placed = spans.severity != OMISSION
    length = lengths[spans.segment]
    bad = placed & ((spans.start < 0) | (spans.start > spans.end) | (spans.end > length))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        s, e, seg = int(spans.start[i]), int(spans.end[i]), int(spans.segment[i])
        span = (s, e, SEVERITIES[int(spans.severity[i])])
        why = (
            "the start is after the end"
            if s > e
            else f"expected offsets within the text's {int(lengths[seg])} characters"
        )
        raise UserInputError(f"{name}, segment {seg}, span {span!r}: {why}")


def as_span_arrays(
    spans: SpanArrays | Sequence[Sequence[Span]], lengths: np.ndarray, *, name: str
) -> SpanArrays:
    """``spans`` as checked :class:`SpanArrays`, packing per-segment lists when given those.

    Examples
    --------
    >>> len(as_span_arrays([[(0, 1, "minor")], []], np.array([2, 0]), name="gold"))
    1
    """
    if isinstance(spans, SpanArrays):
        check_spans(spans, lengths, name=name)
        return spans
    return pack_spans(spans, lengths, name=name)
