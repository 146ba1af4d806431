"""The trivial baselines in the report's tables (``len``, ``lendiff``): which rows are
baselines, the sentence of every metric not above the best one, and the length baseline shown
once, in its better orientation."""

from __future__ import annotations

from typing import Any

from mtpalette.errors import UserInputError
from mtpalette.reporting.marks import nan_if_none


def is_baseline(row: dict[str, Any]) -> bool:
    """Whether a result row is a trivial baseline: the row's own ``baseline`` key, else the
    registered family's ``baseline`` attribute (``len``, ``lendiff``).

    Examples
    --------
    >>> is_baseline({"metric": "len:sign=-1"}), is_baseline({"metric": "bleus:4"})
    (True, False)
    """
    if "baseline" in row:
        return bool(row["baseline"])
    from mtpalette.metrics.registry import metric_class

    family = str(row.get("metric", "")).partition(":")[0].partition(",")[0]
    try:
        return bool(getattr(metric_class(family), "baseline", False))
    except (UserInputError, KeyError, ValueError, ImportError):
        return False


def baseline_notes(table: dict[str, Any]) -> dict[str, str]:
    """The plain sentence of every metric not significantly above the best baseline, from a
    table's ``baselines`` entry (:meth:`mtpalette.stats.baselines.BaselineReport.to_dict`).

    Examples
    --------
    >>> baseline_notes({"baselines": {"comparisons": [{"metric": "a", "note": ""},
    ...                                               {"metric": "b", "note": "b is below"}]}})
    {'b': 'b is below'}
    """
    comparisons = (table.get("baselines") or {}).get("comparisons") or []
    return {c["metric"]: c["note"] for c in comparisons if c.get("note")}


#: the length baseline's two orientations: their correlations mirror each other (r and -r)
LENGTH_ORIENTATIONS = {"len": "longer is better", "len:sign=-1": "shorter is better"}


def one_length_row(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], str | None]:
    """The rows with one of ``len`` and ``len:sign=-1``, the one that correlates higher
    (each is minus the other), labelled with its orientation; and a note saying so.

    Examples
    --------
    >>> rows = [{"metric": "len", "correlation": -0.3}, {"metric": "len:sign=-1",
    ...          "correlation": 0.3}, {"metric": "bleu", "correlation": 0.2}]
    >>> kept, note = one_length_row(rows)
    >>> [(r["metric"], r.get("label")) for r in kept]
    [('len:sign=-1', 'len:sign=-1 (shorter is better)'), ('bleu', None)]
    """
    found = [r for r in rows if r["metric"] in LENGTH_ORIENTATIONS]
    if len(found) != 2:
        return rows, None
    value = [nan_if_none(r.get("correlation")) for r in found]
    keep = found[0] if not value[1] > value[0] else found[1]  # NaN: the first
    drop = found[1] if keep is found[0] else found[0]
    kept = {**keep, "label": f"{keep['metric']} ({LENGTH_ORIENTATIONS[keep['metric']]})"}
    note = (
        f"{drop['metric']} is not shown: it is minus {keep['metric']}, so its correlation is "
        "minus this one's; the length baseline is shown in its better orientation"
    )
    return [kept if r is keep else r for r in rows if r is not drop], note
