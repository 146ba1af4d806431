"""Scores as text: an aligned table for people, JSON, JSON Lines and TSV for programs.

Corpus scores are *records*, one per (system, metric), with stable keys: ``system`` (when
several systems were scored), ``metric``, ``score``, ``higher_is_better``, ``signature``,
``details`` (BLEU's precisions, brevity penalty and lengths, chrF's precisions and recalls,
TER's edits...; an object) and, with an interval or a paired test, ``mean``, ``ci_low``,
``ci_high``, ``diff``, ``p_value``, ``significant`` and ``baseline``. ``json`` is one JSON
document (a list of records; ``pandas.DataFrame(json.load(f))`` reads it), ``jsonl`` one
record per line, ``tsv`` a header and one row per record (details as ``key=value`` pairs):
each written by its format's writer (:mod:`mtpalette.io.writers`), so a format of
:data:`FORMATS` that has a writer needs nothing here.

Sentence scores have one row per (system, segment): ``system`` (when several), ``segment``
(numbered from 1, as everywhere in mtpalette) and one column per metric.

Machine formats print full precision unless ``digits`` is given; non-finite scores are
``null`` in JSON and ``nan``/``inf`` in text. The text format prints each distinct signature
once, in a compact block under the table (every metric's in full with ``full=True``).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from itertools import repeat
from typing import Any

import numpy as np

from mtpalette.cli.options import OUTPUT_FORMATS as FORMATS
from mtpalette.io.writers import number_text, render
from mtpalette.records import latex_text
from mtpalette.signature import Signature

#: decimals in the text format when none are asked for
TEXT_DIGITS = 4
#: record keys of a test or an interval, in column order
TEST_KEYS = ("mean", "ci_low", "ci_high", "diff", "p_value", "significant", "baseline", "alpha")


def corpus_records(
    scored: Mapping[str, Any], comparison: Any = None, *, named: bool = False
) -> tuple[list[dict[str, Any]], dict[str, Signature]]:
    """Records of every (system, metric) and each metric's signature.

    ``scored`` maps each system to its :class:`~mtpalette.api.Scores`; ``comparison`` is an
    optional :class:`~mtpalette.stats.paired.SystemComparison` of the same systems and
    metrics, whose settings enter the signatures (``bs:1000|seed:12345`` as sacrebleu's).
    ``named`` adds the ``system`` key (several systems, or one named on purpose).
    """
    first = next(iter(scored.values()))
    signatures = {spec: sig for spec, sig in first.signatures.items()}
    if comparison is not None:
        extra = _test_fields(comparison)
        signatures = {spec: sig.with_fields(**extra) for spec, sig in signatures.items()}
    rows = comparison.rows() if comparison is not None else []
    records = []
    for s, (system, result) in enumerate(scored.items()):
        for m, score in enumerate(result.corpus):
            record: dict[str, Any] = {"system": system} if named else {}
            record |= {
                "metric": score.metric,
                "spec": score.spec,
                "score": float(score.value),
                "higher_is_better": score.higher_is_better,
            }
            if comparison is not None:
                row = rows[s * len(result.corpus) + m]
                record |= {k: row[k] for k in TEST_KEYS if comparison.test or k in _CI_KEYS}
            record["signature"] = str(signatures[score.metric])
            record["details"] = score.details
            records.append(record)
    return records, signatures


_CI_KEYS = ("mean", "ci_low", "ci_high")


def _test_fields(comparison: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    if comparison.test:
        fields[comparison.test] = comparison.n_trials
    if comparison.n_resamples and comparison.test != "bs":
        fields["bs"] = comparison.n_resamples
    fields["seed"] = comparison.seed
    return fields


def records_report(
    records: Sequence[Mapping[str, Any]],
    fmt: str,
    *,
    signatures: Mapping[str, Signature | str],
    digits: int | None = None,
    details: bool = False,
    full_signatures: bool = False,
    width: int | None = None,
) -> str:
    """Corpus records (see the module docstring) in format ``fmt``.

    In the text format a lower-is-better metric's column is marked ``↓`` (one system: the
    ``better`` column says it); with ``width`` (the terminal's), a systems table wider than
    that is cut into blocks of metric columns, each repeating the system column.

    Examples
    --------
    >>> sig = Signature("wer", {"nrefs": 1}, "0.1.0")
    >>> rec = [{"metric": "wer", "score": 0.25, "higher_is_better": False,
    ...         "signature": str(sig), "details": {"errors": 2, "ref_words": 8}}]
    >>> print(records_report(rec, "text", signatures={"wer": sig}), end="")
    metric   score  better
    wer     0.2500  lower
    <BLANKLINE>
    signature: wer|nrefs:1|version:0.1.0
    >>> records_report(rec, "tsv", signatures={}).splitlines()[1].split("\\t")
    ['wer', '0.25', 'false', 'wer|nrefs:1|version:0.1.0', 'errors=2 ref_words=8']
    """
    _check(fmt)
    if fmt == "latex":
        return render("latex", latex_table(records, TEXT_DIGITS if digits is None else digits))
    if fmt != "text":  # the records by the writer of their format (mtpalette.io.writers)
        return render(fmt, records, **_options(fmt, digits, indent=2))
    places = TEXT_DIGITS if digits is None else digits
    if any("system" in r for r in records):
        table = _systems_table(records, places, details, width)
    else:
        table = _metrics_table(records, places, details)
    return table + "\n" + signature_block(signatures, full=full_signatures)


def _metrics_table(records: Sequence[Mapping[str, Any]], places: int, details: bool) -> str:
    tested = any("mean" in r for r in records)
    head = ["metric", "score", *(["mean ± 95% CI"] if tested else []), "better"]
    cells = [head + (["details"] if details else [])]
    for r in records:
        row = [r["metric"], number_text(r["score"], places)]
        if tested:
            row.append(_interval(r, places))
        row.append("higher" if r["higher_is_better"] else "lower")
        if details:
            row.append(details_text(r["metric"], r.get("details") or {}))
        cells.append(row)
    return _aligned(cells, right={1})


def _systems_table(
    records: Sequence[Mapping[str, Any]], places: int, details: bool, width: int | None = None
) -> str:
    """One row per system, one column per metric (``↓``: lower is better); with a test,
    each cell reads ``score (mean ± ci) p=...`` and ``*`` marks a significant difference.

    Examples
    --------
    >>> rec = [{"system": s, "metric": m, "score": v, "higher_is_better": m != "ter"}
    ...        for s, m, v in [("A", "bleu", 30.0), ("A", "ter", 60.0),
    ...                        ("B", "bleu", 32.0), ("B", "ter", 58.5)]]
    >>> print(_systems_table(rec, 1, False), end="")
    system  bleu  ter ↓
    A       30.0   60.0
    B       32.0   58.5
    <BLANKLINE>
    ↓ lower is better
    >>> print(_systems_table(rec, 1, False, width=14), end="")
    system  bleu
    A       30.0
    B       32.0
    <BLANKLINE>
    system  ter ↓
    A        60.0
    B        58.5
    <BLANKLINE>
    ↓ lower is better
    """
    systems = list(dict.fromkeys(r["system"] for r in records))
    metrics = list(dict.fromkeys(r["metric"] for r in records))
    by = {(r["system"], r["metric"]): r for r in records}
    tested = any("p_value" in r for r in records)
    lower = {r["metric"] for r in records if not r["higher_is_better"]}
    cells = [["system", *_marked(metrics, lower)]]
    for system in systems:
        row = [system]
        for metric in metrics:
            r = by[(system, metric)]
            text = number_text(r["score"], places)
            if r.get("mean") is not None:
                text += f" ({_interval(r, places)})"
            if tested:
                if r.get("baseline"):
                    text += " baseline"
                elif r.get("p_value") is not None:
                    star = "*" if r["significant"] else " "
                    text += f" p={r['p_value']:.4f}{star}"
            row.append(text)
        cells.append(row)
    text = "\n".join(
        _aligned(block, right=set(range(1, len(block[0])))) for block in _blocks(cells, width)
    )
    if lower:
        text += LOWER_LEGEND
    if tested:
        r = next(r for r in records if r.get("p_value") is not None)
        text += f"\n* p < {r['alpha']}: significantly different from the baseline\n"
    if details:
        text += "\n" + "".join(
            f"{r['system']}  {r['metric']}  {details_text(r['metric'], r['details'])}\n"
            for r in records
            if r.get("details")
        )
    return text


#: under a text table with a lower-is-better column
LOWER_LEGEND = "\n↓ lower is better\n"


def _marked(names: Sequence[str], lower: Collection[str]) -> list[str]:
    """The column names, a lower-is-better metric's marked ``↓``."""
    return [f"{m} ↓" if m in lower else m for m in names]


def _blocks(cells: list[list[str]], width: int | None) -> list[list[list[str]]]:
    """The table's columns cut into blocks no wider than ``width`` (the first column, the
    row names, repeated in each); one block without a width or when it fits."""
    widths = [max(len(row[j]) for row in cells) for j in range(len(cells[0]))]
    if width is None or sum(widths) + 2 * (len(widths) - 1) <= width:
        return [cells]
    groups: list[list[int]] = [[]]
    used = widths[0]
    for j in range(1, len(widths)):
        if groups[-1] and used + 2 + widths[j] > width:
            groups.append([])
            used = widths[0]
        groups[-1].append(j)
        used += 2 + widths[j]
    return [[[row[0], *(row[j] for j in group)] for row in cells] for group in groups]


def latex_table(records: Sequence[Mapping[str, Any]], places: int) -> str:
    """A booktabs table, systems by metrics, for a paper: each cell the score, with
    ``\\pm`` the interval's half-width and ``$^*$`` a significant difference from the
    baseline (in italics) when they were computed.

    Examples
    --------
    >>> rec = [{"system": "A", "metric": "bleu", "score": 30.0, "higher_is_better": True,
    ...         "mean": 30.1, "ci_low": 29.0, "ci_high": 31.0, "baseline": True},
    ...        {"system": "B_2", "metric": "bleu", "score": 32.0, "higher_is_better": True,
    ...         "mean": 32.1, "ci_low": 31.0, "ci_high": 33.5, "p_value": 0.01,
    ...         "significant": True, "baseline": False}]
    >>> print(latex_table(rec, 1), end="")
    \\begin{tabular}{lr}
    \\toprule
    System & bleu $\\uparrow$ \\\\
    \\midrule
    \\textit{A} & 30.0 $\\pm$ 1.0 \\\\
    B\\_2 & 32.0 $\\pm$ 1.2$^*$ \\\\
    \\bottomrule
    \\end{tabular}
    """
    systems = list(dict.fromkeys(r.get("system", "") for r in records))
    metrics = list(dict.fromkeys(r["metric"] for r in records))
    by = {(r.get("system", ""), r["metric"]): r for r in records}
    arrows = {
        r["metric"]: "$\\uparrow$" if r["higher_is_better"] else "$\\downarrow$" for r in records
    }
    lines = [
        "\\begin{tabular}{l" + "r" * len(metrics) + "}",
        "\\toprule",
        " & ".join(["System", *(f"{latex_text(m)} {arrows[m]}" for m in metrics)]) + " \\\\",
        "\\midrule",
    ]
    for system in systems:
        cells = []
        for metric in metrics:
            r = by[(system, metric)]
            cell = number_text(r["score"], places)
            if r.get("ci_low") is not None:
                cell += f" $\\pm$ {number_text(0.5 * (r['ci_high'] - r['ci_low']), places)}"
            if r.get("significant"):
                cell += "$^*$"
            cells.append(cell)
        name = latex_text(system)
        if any(by[(system, m)].get("baseline") for m in metrics):
            name = f"\\textit{{{name}}}"
        lines.append(" & ".join([name, *cells]) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines) + "\n"


def _interval(r: Mapping[str, Any], places: int) -> str:
    if r.get("mean") is None:
        return ""
    half = 0.5 * (r["ci_high"] - r["ci_low"])
    return f"{number_text(r['mean'], places)} ± {number_text(half, places)}"


def details_text(metric: str, details: Mapping[str, Any]) -> str:
    """Details in one line; BLEU's as sacrebleu prints them.

    Examples
    --------
    >>> d = {"precisions": [65.8, 40.7], "bp": 1.0, "ratio": 1.015, "hyp_len": 9, "ref_len": 9}
    >>> details_text("bleu", d)
    '65.8/40.7 (BP = 1.000 ratio = 1.015 hyp_len = 9 ref_len = 9)'
    >>> details_text("ter", {"edits": 3.0, "ref_len": 12.5})
    'edits=3 ref_len=12.5'
    """
    if not details:
        return ""
    if "precisions" in details and "bp" in details:
        prec = "/".join(f"{p:.1f}" for p in details["precisions"])
        return (
            f"{prec} (BP = {details['bp']:.3f} ratio = {details['ratio']:.3f} "
            f"hyp_len = {details['hyp_len']} ref_len = {details['ref_len']})"
        )
    return " ".join(f"{k}={_short(v)}" for k, v in details.items())


def _short(v: Any) -> str:
    if isinstance(v, list):
        return "/".join(_short(x) for x in v)
    if isinstance(v, float):
        return f"{v:.1f}" if not v.is_integer() else str(int(v))
    return str(v)


def signature_block(signatures: Mapping[str, Signature | str], *, full: bool = False) -> str:
    """Each distinct signature once: metrics whose signatures differ only in their name share
    a line (``bleus:1 ... bleus:9``); ``full`` prints every metric's signature.

    Examples
    --------
    >>> sigs = {f"bleus:{n}": Signature(f"bleus:{n}", {"nrefs": 2}, "0.1.0") for n in (1, 2, 3, 4)}
    >>> print(signature_block(sigs), end="")
    signature: bleus:1 ... bleus:4 (4 metrics)|nrefs:2|version:0.1.0
    >>> print(signature_block(dict(list(sigs.items())[:2]), full=True), end="")
    signatures:
      bleus:1|nrefs:2|version:0.1.0
      bleus:2|nrefs:2|version:0.1.0
    """
    texts = {spec: str(sig) for spec, sig in signatures.items()}
    if not texts:
        return ""
    if full:
        return "signatures:\n" + "".join(f"  {t}\n" for t in texts.values())
    groups: dict[str, list[str]] = {}
    for spec, text in texts.items():
        rest = text[len(spec) :] if text.startswith(spec) else "|" + text
        groups.setdefault(rest, []).append(spec)
    lines = []
    for rest, specs in groups.items():
        names = ", ".join(specs) if len(specs) <= 3 else f"{specs[0]} ... {specs[-1]}"
        if len(specs) > 3:
            names += f" ({len(specs)} metrics)"
        lines.append(names + rest)
    if len(lines) == 1:
        return f"signature: {lines[0]}\n"
    return "signatures:\n" + "".join(f"  {line}\n" for line in lines)


def sentence_report(
    columns: Mapping[str, np.ndarray],
    fmt: str,
    *,
    systems: Sequence[str] | None = None,
    signatures: Mapping[str, Signature] | None = None,
    digits: int | None = None,
    full_signatures: bool = False,
    lower: Sequence[str] = (),
) -> str:
    """Segment-level scores in format ``fmt``: one row per segment, or per (system, segment)
    when ``systems`` names the system of every row; in the text format the columns of the
    ``lower``-is-better metrics are marked ``↓``.

    ``columns`` maps each metric to its scores. The text format ends with the signatures
    (when given); TSV, JSON and JSON Lines hold the numbers only.

    Examples
    --------
    >>> cols = {"bleu": np.array([12.5, 100.0]), "wer": np.array([0.5, 0.0])}
    >>> print(sentence_report(cols, "text", digits=2), end="")
    segment    bleu   wer
          1   12.50  0.50
          2  100.00  0.00
    >>> print(sentence_report(cols, "jsonl"), end="")
    {"segment": 1, "bleu": 12.5, "wer": 0.5}
    {"segment": 2, "bleu": 100.0, "wer": 0.0}
    >>> tsv = sentence_report(cols, "tsv", systems=["A", "B"])
    >>> [row.split("\\t") for row in tsv.splitlines()]
    [['system', 'segment', 'bleu', 'wer'], ['A', '1', '12.5', '0.5'], ['B', '1', '100.0', '0.0']]
    """
    _check(fmt)
    if fmt == "latex":
        raise ValueError("the latex format is for corpus scores")
    names = list(columns)
    values = [np.asarray(columns[m], dtype=np.float64).tolist() for m in names]
    n = len(values[0]) if values else 0
    seg, lead = _segments(n, systems)
    if fmt != "text":  # the rows by the writer of their format (mtpalette.io.writers)
        rows = [
            {
                **({"system": systems[i]} if systems is not None else {}),
                "segment": seg[i],
                **{m: v[i] for m, v in zip(names, values, strict=True)},
            }
            for i in range(n)
        ]
        return render(fmt, rows, **_options(fmt, digits, columns=[*lead, *names]))
    places = TEXT_DIGITS if digits is None else digits
    columns_text = [_numbers(v, places) for v in values]
    header = [*lead, *_marked(names, lower)]
    body = [*([list(systems)] if systems is not None else []), list(map(str, seg)), *columns_text]
    columns = [[head, *column] for head, column in zip(header, body, strict=True)]
    text = _aligned_columns(columns, right=set(range(len(lead) - 1, len(header))))
    if lower:
        text += LOWER_LEGEND
    if signatures:
        wanted = {m: signatures[m] for m in names if m in signatures}
        text += "\n" + signature_block(wanted, full=full_signatures)
    return text


def _segments(n: int, systems: Sequence[str] | None) -> tuple[list[int], list[str]]:
    """The 1-based segment number of each row (counting again for each system)."""
    if systems is None:
        return list(range(1, n + 1)), ["segment"]
    seg, counts = [], {}
    for name in systems:
        counts[name] = counts.get(name, 0) + 1
        seg.append(counts[name])
    return seg, ["system", "segment"]


def _check(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")


def _options(fmt: str, digits: int | None, *, indent: int | None = None, columns=None):
    """The options of a format's writer: JSON's indent, TSV's decimals (all digits: None)
    and the columns of a table (else the first row's keys); any other format has none."""
    if fmt == "json":
        return {"indent": indent}
    if fmt == "tsv":
        return {"digits": digits, "columns": columns}
    return {}


def _numbers(values: list[float], digits: int) -> list[str]:
    """:func:`~mtpalette.io.writers.number_text` of every value (one format call each when
    all are finite)."""
    if all(map(math.isfinite, values)):
        template = f"{{:.{digits}f}}"
        return list(map(template.format, values))
    return [number_text(v, digits) for v in values]


def _aligned(cells: list[list[str]], *, right: set[int]) -> str:
    """Rows of cells as lines of text (see :func:`_aligned_columns`)."""
    if not cells[0]:
        return "\n" * len(cells)
    return _aligned_columns([list(column) for column in zip(*cells, strict=True)], right=right)


def _aligned_columns(columns: list[list[str]], *, right: set[int]) -> str:
    """Columns of cells (the same number each) as lines of text, two spaces apart: each
    column padded to its widest cell, on the left for the columns in ``right``, else on the
    right (the last column not at all); every line right-stripped.

    Examples
    --------
    >>> print(_aligned_columns([["a", "bbb"], ["1", "22"], ["x ", "y"]], right={1}), end="|")
    a     1  x
    bbb  22  y
    |
    """
    last = len(columns) - 1
    padded = []
    for j, column in enumerate(columns):
        width = max(map(len, column))
        if j in right:
            column = list(map(str.rjust, column, repeat(width)))
        elif j != last:
            column = list(map(str.ljust, column, repeat(width)))
        padded.append(column)
    lines = map(str.rstrip, map("  ".join, zip(*padded, strict=True)))
    return "\n".join(lines) + "\n"
