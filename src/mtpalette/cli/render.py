"""Scores as text: an aligned table for people, JSON and TSV for programs.

Keys and column names are stable: corpus JSON is a list of objects with ``metric``,
``score``, ``higher_is_better`` and ``signature``; corpus TSV has the header
``metric score higher_is_better signature``; sentence TSV has ``segment`` and one column
per metric; sentence JSON is JSON Lines, one object per segment with ``segment`` (1-based)
and one key per metric. Machine formats print scores at full precision unless ``digits``
is given; non-finite scores are ``null`` in JSON and ``nan``/``inf`` in text.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence

import numpy as np

from mtpalette.metrics import Score, Signature

#: output formats of ``mtpalette score``
FORMATS = ("text", "json", "tsv")
#: decimals in the text format when none are asked for
TEXT_DIGITS = 4


def corpus_report(scores: Sequence[Score], fmt: str, *, digits: int | None = None) -> str:
    """Corpus scores with their signatures in format ``fmt`` (``text``, ``json``, ``tsv``).

    Examples
    --------
    >>> s = Score("wer", 0.25, Signature("wer", {"nrefs": 1}, "0.1.0"), False)
    >>> print(corpus_report([s], "text"), end="")
    metric   score  better  signature
    wer     0.2500  lower   wer|nrefs:1|version:0.1.0
    >>> corpus_report([s], "tsv").splitlines()[1].split("\\t")
    ['wer', '0.25', 'false', 'wer|nrefs:1|version:0.1.0']
    """
    if fmt == "json":
        rows = [
            {
                "metric": s.metric,
                "score": _json_number(s.value),
                "higher_is_better": s.higher_is_better,
                "signature": str(s.signature),
            }
            for s in scores
        ]
        return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
    if fmt == "tsv":
        lines = ["metric\tscore\thigher_is_better\tsignature"]
        lines += [
            f"{s.metric}\t{_number(s.value, digits)}\t{str(s.higher_is_better).lower()}\t"
            f"{s.signature}"
            for s in scores
        ]
        return "\n".join(lines) + "\n"
    _check(fmt)
    cells = [["metric", "score", "better", "signature"]]
    cells += [
        [
            s.metric,
            _number(s.value, TEXT_DIGITS if digits is None else digits),
            "higher" if s.higher_is_better else "lower",
            str(s.signature),
        ]
        for s in scores
    ]
    return _aligned(cells, right={1})


def sentence_report(
    columns: Mapping[str, np.ndarray],
    fmt: str,
    *,
    signatures: Mapping[str, Signature] | None = None,
    digits: int | None = None,
) -> str:
    """Segment-level scores, one row per segment, in format ``fmt``.

    ``columns`` maps each metric to its scores. The text format ends with the signatures
    (when given); TSV and JSON Lines hold the numbers only.

    Examples
    --------
    >>> cols = {"bleu": np.array([12.5, 100.0]), "wer": np.array([0.5, 0.0])}
    >>> print(sentence_report(cols, "text", digits=2), end="")
    segment    bleu   wer
          1   12.50  0.50
          2  100.00  0.00
    >>> print(sentence_report(cols, "json"), end="")
    {"segment": 1, "bleu": 12.5, "wer": 0.5}
    {"segment": 2, "bleu": 100.0, "wer": 0.0}
    """
    names = list(columns)
    values = [np.asarray(columns[m], dtype=np.float64).tolist() for m in names]
    n = len(values[0]) if values else 0
    if fmt == "json":
        return "".join(
            json.dumps(
                {
                    "segment": i + 1,
                    **{m: _json_number(v[i]) for m, v in zip(names, values, strict=True)},
                },
                ensure_ascii=False,
            )
            + "\n"
            for i in range(n)
        )
    if fmt == "tsv":
        lines = ["\t".join(["segment", *names])]
        lines += [
            "\t".join([str(i + 1), *(_number(v[i], digits) for v in values)]) for i in range(n)
        ]
        return "\n".join(lines) + "\n"
    _check(fmt)
    places = TEXT_DIGITS if digits is None else digits
    columns_text = [_numbers(v, places) for v in values]
    cells = [["segment", *names]]
    cells += [list(row) for row in zip(map(str, range(1, n + 1)), *columns_text, strict=True)]
    text = _aligned(cells, right=set(range(len(names) + 1)))
    if signatures:
        text += "\n" + "".join(f"{signatures[m]}\n" for m in names if m in signatures)
    return text


def _check(fmt: str) -> None:
    if fmt != "text":
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")


def _number(value: float, digits: int | None) -> str:
    value = float(value)
    if digits is None or not math.isfinite(value):
        return repr(value)
    return f"{value:.{digits}f}"


def _numbers(values: list[float], digits: int) -> list[str]:
    """:func:`_number` of every value (one format call each when all are finite)."""
    if all(map(math.isfinite, values)):
        template = f"{{:.{digits}f}}"
        return list(map(template.format, values))
    return [_number(v, digits) for v in values]


def _json_number(value: float) -> float | None:
    value = float(value)
    return value if math.isfinite(value) else None


def _aligned(cells: list[list[str]], *, right: set[int]) -> str:
    widths = [max(map(len, column)) for column in zip(*cells, strict=True)]
    last = len(widths) - 1
    template = "  ".join(
        f"{{:>{w}}}" if j in right else ("{}" if j == last else f"{{:<{w}}}")
        for j, w in enumerate(widths)
    )
    return "".join(template.format(*row).rstrip() + "\n" for row in cells)
