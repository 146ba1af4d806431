"""MQM judgments: Google's MQM error annotations (format ``mqm``) and average segment
scores (``mqm-avg``), and the example MQM data shipped with mtpalette.

A segment's score is minus the sum of the error weights of a rater, averaged over the
segment's raters (:data:`MQM_WEIGHTS`, :func:`mqm_weight`); the file layouts are described
in :mod:`mtpalette.io.judgments_read`.

References
----------
Freitag et al. (2021), Experts, Errors, and Context (MQM weights). google/wmt-mqm-human-
evaluation (file formats). google-research/mt-metrics-eval ``converters/score_mqm.py``
(weights).
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.judgments import Judgments
from mtpalette.io.judgments_parsing import (
    MatrixBuilder,
    integer_field,
    number_field,
    read_text,
    split_rows,
    text_lines,
    tsv_rows,
)
from mtpalette.io.tabular import header_columns

#: MQM error weights: ``severity[/category[/subcategory]]`` (lower case) -> weight
MQM_WEIGHTS: dict[str, float] = {
    "major": 5.0,
    "minor": 1.0,
    "neutral": 0.0,
    "no-error": 0.0,
    "major/non-translation": 25.0,
    "minor/non-translation": 25.0,
    "minor/fluency/punctuation": 0.1,
}
MQM_SEVERITIES = ("major", "minor", "neutral", "no-error")
_SPAN = re.compile(r"</?v>")


def mqm_weight(severity: str, category: str, weights: Mapping[str, float] = MQM_WEIGHTS) -> float:
    """The weight of one MQM error: the most specific ``severity/category/...`` entry.

    Category parts are compared in lower case without a trailing ``!`` (Google's files
    write ``Non-translation!``).

    Examples
    --------
    >>> mqm_weight("Minor", "Fluency/Punctuation"), mqm_weight("Major", "Fluency/Punctuation")
    (0.1, 5.0)
    >>> mqm_weight("Major", "Non-translation!"), mqm_weight("No-error", "No-error")
    (25.0, 0.0)
    """
    parts = [severity.strip().lower()] + [
        p.strip().lower().rstrip("!") for p in category.split("/") if p.strip()
    ]
    while parts:
        key = "/".join(parts)
        if key in weights:
            return float(weights[key])
        parts.pop()
    return 0.0


def read_mqm(path: str | Path, *, weights: Mapping[str, float] | None = None) -> Judgments:
    """MQM error annotations (Google's TSV) as segment scores, averaged over raters.

    Parameters
    ----------
    path:
        The TSV (or ``.gz``) file.
    weights:
        ``severity[/category[/subcategory]]`` -> weight (lower case); default
        :data:`MQM_WEIGHTS`. Severities must be among the weights' first parts.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "m.tsv")
    >>> rows = ["system\\tdoc\\tdoc_id\\tseg_id\\trater\\tsource\\ttarget\\tcategory\\tseverity",
    ...         "A\\td\\t1\\t7\\tr1\\ts\\tt\\tAccuracy/Mistranslation\\tMajor",
    ...         "A\\td\\t1\\t7\\tr1\\ts\\tt\\tFluency/Punctuation\\tMinor",
    ...         "A\\td\\t1\\t7\\tr2\\ts\\tt\\tNo-error\\tNo-error"]
    >>> _ = open(p, "w").write("\\n".join(rows) + "\\n")
    >>> j = read_mqm(p)
    >>> j.systems, j.items, round(j.score("A", 7), 6)  # -(5.1 + 0) / 2
    (['A'], [7], -2.55)
    """
    name = str(path)
    w = dict(MQM_WEIGHTS if weights is None else {k.lower(): v for k, v in weights.items()})
    severities = {k.split("/")[0] for k in w}
    header, rows = tsv_rows(read_text(path), name)
    need = ("system", "seg_id", "rater", "category", "severity")
    col = header_columns([h.strip() for h in header], need, name, "an MQM TSV",
                         f" in the header (expected {' '.join(need)} ...)")  # fmt: skip
    width = len(header)
    sums: dict[tuple[str, int], dict[str, float]] = {}
    order: dict[str, None] = {}
    targets: dict[str, dict[Hashable, str]] = {}
    tcol = col.get("target")
    dcol = col.get("doc")
    docs: dict[Hashable, str] = {}
    for line, fields in rows:
        if len(fields) < max(col[c] for c in need) + 1 or len(fields) > width:
            raise UserInputError(
                f"expected {width} tab-separated fields, found {len(fields)}", path=name, line=line
            )
        system = fields[col["system"]].strip()
        if not system:
            raise UserInputError("empty system name", path=name, line=line)
        seg = integer_field(fields[col["seg_id"]].strip(), "seg_id", name, line)
        severity = fields[col["severity"]].strip()
        if severity.lower() not in severities:
            raise UserInputError(
                f"unknown MQM severity {severity!r}; expected one of "
                f"{', '.join(sorted(severities))} (or give weights for it)",
                path=name,
                line=line,
            )
        weight = mqm_weight(severity, fields[col["category"]], w)
        rater = fields[col["rater"]].strip()
        per_rater = sums.setdefault((system, seg), {})
        per_rater[rater] = per_rater.get(rater, 0.0) + weight
        order.setdefault(system, None)
        if tcol is not None and tcol < len(fields):
            targets.setdefault(system, {}).setdefault(seg, _SPAN.sub("", fields[tcol]))
        if dcol is not None and dcol < len(fields):
            docs.setdefault(seg, fields[dcol].strip())
    if not sums:
        raise UserInputError("no annotation rows in the file", path=name)
    systems = list(order)
    items = sorted({seg for _, seg in sums})
    row = {s: k for k, s in enumerate(systems)}
    colx = {i: k for k, i in enumerate(items)}
    scores = np.full((len(systems), len(items)), np.nan)
    n_raters = np.zeros((len(systems), len(items)), dtype=np.int64)
    for (system, seg), per_rater in sums.items():
        # rounded to 1e-9 so that sums like 5 + 0.1 + 0.1 read -5.2, not -5.1999999
        vals = [round(v, 9) for v in per_rater.values()]
        scores[row[system], colx[seg]] = -sum(vals) / len(vals)
        n_raters[row[system], colx[seg]] = len(vals)
    return Judgments(
        systems, items, scores, "mqm", name, None, None, n_raters, targets or None, docs or None
    )


def read_mqm_avg(path: str | Path) -> Judgments:
    """MQM average segment scores: ``system mqm_avg_score seg_id`` (``None`` = unrated).

    Examples
    --------
    The example en-de averages (invented: :func:`bundled_mqm_ted`):

    >>> j = read_mqm_avg(bundled_mqm_ted("ende")["avg"])
    >>> len(j.systems), len(j.items), j.n_rated, j.systems[-1], j.scores[-1, :4].tolist()
    (9, 60, 540, 'Harbor', [0.0, -2.0, -2.0, -5.0])
    """
    name = str(path)
    lines = text_lines(path)
    if not lines:
        raise UserInputError("the file is empty", path=name)
    head = lines[0].split()
    if head[:3] != ["system", "mqm_avg_score", "seg_id"]:
        raise UserInputError("expected the header 'system mqm_avg_score seg_id'", path=name, line=1)
    out = MatrixBuilder(name)
    for k, fields in split_rows(lines[1:], 2, 3, name, "system score seg_id"):
        system, score_text, seg_text = fields
        seg = integer_field(seg_text, "seg_id", name, k)
        score = math.nan if score_text == "None" else number_field(score_text, "score", name, k)
        out.add(system, seg, score, k)
    return out.build("mqm-avg")


def bundled_mqm_ted(lp: str) -> dict[str, Any]:
    """Paths of mtpalette's example MQM data of ``lp`` (``ende`` or ``zhen``): invented by the
    project (``scripts/make_demo_data.py``; see ``data/example/README.md``), not real ratings.

    Returns ``judgments`` (the MQM TSV), ``avg`` (the average-score file), ``refs`` (``ref``,
    and ``refB`` for zh-en), ``systems`` (the 8 invented systems' outputs), ``seg_ids`` (the
    MQM ``seg_id`` of each line) and ``source``. Real MQM data is not shipped: see
    ``scripts/extract_mqm_ted.py``.

    Examples
    --------
    >>> d = bundled_mqm_ted("zhen")
    >>> [p.name for p in d["refs"]], len(d["systems"]), d["judgments"].name
    (['ref.txt', 'refB.txt'], 8, 'mqm_zhen.tsv')
    """
    from importlib import resources

    if lp not in ("ende", "zhen"):
        raise UserInputError(f"no bundled example data for {lp!r}; expected ende or zhen")
    root = Path(str(resources.files("mtpalette") / "data" / "example" / "mqm" / lp))
    ref_names = ["ref.txt", "refB.txt"] if lp == "zhen" else ["ref.txt"]
    special = {*ref_names, "source.txt", "seg_ids.txt"}
    systems = sorted(p for p in root.iterdir() if p.suffix == ".txt" and p.name not in special)
    return {
        "judgments": root / f"mqm_{lp}.tsv",
        "avg": root / f"mqm_{lp}.avg_seg_scores.tsv",
        "refs": [root / n for n in ref_names],
        "systems": systems,
        "seg_ids": root / "seg_ids.txt",
        "source": root / "source.txt",
    }
