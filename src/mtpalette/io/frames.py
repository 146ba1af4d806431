"""Results as flat records: what every result's ``to_pandas()`` and ``to_json()`` are made of.

A table for pandas has one value per cell: :func:`flat_record` spreads a nested object over
columns (``{"outranked": {"value": v, "low": l, "high": h}}`` becomes ``outranked``,
``outranked_low``, ``outranked_high``; a short list of numbers becomes ``name_1``,
``name_2``...). ``to_json()`` keeps the nesting (:func:`dumps`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from mtpalette.io.runfile import to_jsonable

#: a list of numbers longer than this is left out of a flat record (``to_json`` keeps it)
MAX_SPREAD = 32


def flat_record(record: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """``record`` with every nested object spread over columns; no cell holds a dict or list.

    A nested ``value`` key takes its parent's name; a list of at most :data:`MAX_SPREAD`
    scalars becomes numbered columns (from 1); longer lists and lists of objects are left
    out (they are not table cells; ``to_json()`` has them).

    Examples
    --------
    >>> flat_record({"ci": {"value": 30.1, "low": 29.0, "high": 31.2}, "details": {}})
    {'ci': 30.1, 'ci_low': 29.0, 'ci_high': 31.2}
    >>> flat_record({"metric": "bleu", "precisions": [60.0, 35.5]})
    {'metric': 'bleu', 'precisions_1': 60.0, 'precisions_2': 35.5}
    >>> flat_record({"humans_agree": None, "tags": ["a", "b"]})
    {'humans_agree': None, 'tags_1': 'a', 'tags_2': 'b'}
    """
    out: dict[str, Any] = {}
    for key, value in record.items():
        name = prefix if key == "value" and prefix else f"{prefix}_{key}" if prefix else str(key)
        if isinstance(value, Mapping):
            out |= flat_record(value, name)
        elif isinstance(value, list | tuple):
            if len(value) <= MAX_SPREAD and all(_scalar(v) for v in value):
                out |= {f"{name}_{i}": v for i, v in enumerate(value, 1)}
        elif hasattr(value, "tolist") and getattr(value, "ndim", 0) > 0:  # numpy arrays
            out |= flat_record({key: value.tolist()}, prefix)
        else:
            out[name] = value.item() if hasattr(value, "item") else value
    return out


def _scalar(v: Any) -> bool:
    return v is None or isinstance(v, bool | int | float | str)


def frame(records: Iterable[Mapping[str, Any]]):
    """A pandas DataFrame of the flat records (pandas imported here, on first use)."""
    import pandas as pd

    return pd.DataFrame([flat_record(r) for r in records])


def dumps(obj: Any) -> str:
    """``obj`` (dicts, lists, numbers, numpy values, objects with ``to_dict``) as JSON;
    non-finite numbers are ``null``.

    Examples
    --------
    >>> dumps({"a": float("nan"), "b": [1, 2]})
    '{"a": null, "b": [1, 2]}'
    """
    return json.dumps(to_jsonable(obj), ensure_ascii=False)
