"""Result records: a dataclass whose ``to_dict`` is written as one line of its output keys.

Many results (a correlation table, a baseline comparison, a chance level...) save themselves
as a dict of their fields, a few renamed, some read from a field's field (an interval's
bounds), some constant notes. :class:`Record` builds that dict from the class's ``KEYS``:
space-separated items, each ``key=path`` or a bare ``path`` (the key is then the path), where
a path is an attribute name, dotted for an attribute of an attribute (``None`` along the way
gives ``None``), or ``name()`` for a method called without arguments. A value that is a
:class:`Record` becomes its dict, a list or tuple of them a list of dicts, any other list or
tuple a new list and a dict a new dict; anything else is taken as it is.

The module also turns results into plain data: :func:`to_jsonable` (what JSON can hold),
:func:`flat_record` and :func:`frame` (one value per cell, for pandas: what every result's
``to_pandas()`` is made of; ``{"outranked": {"value": v, "low": l, "high": h}}`` becomes
``outranked``, ``outranked_low``, ``outranked_high``), :func:`dumps` (``to_json()``) and
:func:`latex_text` (text in a LaTeX table: the one escaper of every LaTeX output).
"""

from __future__ import annotations

import dataclasses
import json
import math
import numbers
from collections.abc import Iterable, Mapping
from pathlib import PurePath
from typing import Any, ClassVar


def _lookup(obj: Any, path: str) -> Any:
    for name in path.split("."):
        if obj is None:
            return None
        if name.endswith("()"):
            obj = getattr(obj, name[:-2])()
        else:
            obj = getattr(obj, name)
    return obj


def _plain(value: Any) -> Any:
    if isinstance(value, Record):
        return value.to_dict()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return dict(value)
    return value


class Record:
    """Mixin for result dataclasses: :meth:`to_dict` from ``KEYS`` (see the module docstring).

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Span(Record):
    ...     KEYS = "start end=stop"
    ...     start: int
    ...     stop: int
    >>> @dataclass
    ... class Line(Record):
    ...     KEYS = "name from=head.start spans n=size() note=NOTE"
    ...     NOTE = "spans are half-open"
    ...     name: str
    ...     head: Span | None
    ...     spans: tuple[Span, ...]
    ...     def size(self):
    ...         return len(self.spans)
    >>> Line("a", Span(0, 2), (Span(0, 2), Span(4, 5))).to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'name': 'a', 'from': 0, 'spans': [{'start': 0, 'end': 2}, {'start': 4, 'end': 5}],
     'n': 2, 'note': 'spans are half-open'}
    >>> Line("b", None, ()).to_dict()["from"] is None
    True
    """

    KEYS: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for item in self.KEYS.split():
            key, _, path = item.rpartition("=")
            out[key or path] = _plain(_lookup(self, path))
        return out

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON (:func:`dumps`)."""
        return dumps(self.to_dict())


def to_jsonable(obj: Any) -> Any:
    """A copy of ``obj`` made of dicts, lists, strings, numbers, booleans and ``None``.

    Examples
    --------
    >>> import numpy as np
    >>> from pathlib import Path
    >>> to_jsonable({"a": np.float32(0.5), "b": np.arange(2), "c": float("nan"), "d": Path("x"),
    ...              "e": np.bool_(True), "f": np.int64(3)})
    {'a': 0.5, 'b': [0, 1], 'c': None, 'd': 'x', 'e': True, 'f': 3}
    """
    kind = type(obj)  # the plain types first, by identity: error records hold thousands
    if kind is str or kind is int or kind is bool or obj is None:
        return obj
    if kind is float:
        return obj if math.isfinite(obj) else None
    if kind is dict:
        return {k if type(k) is str else str(k): to_jsonable(v) for k, v in obj.items()}
    if kind is list:
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, bool | str):
        return obj
    if isinstance(obj, numbers.Integral):  # numpy's integers too
        return int(obj)
    if isinstance(obj, numbers.Real):  # numpy's floats too
        value = float(obj)
        return value if math.isfinite(value) else None
    if hasattr(obj, "tolist"):  # numpy arrays and the other numpy scalars (bool_)
        return to_jsonable(obj.tolist())
    if isinstance(obj, PurePath):
        return str(obj)
    if isinstance(obj, Mapping):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple | set | frozenset):
        return [to_jsonable(v) for v in obj]
    if hasattr(obj, "to_dict"):
        return to_jsonable(obj.to_dict())
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return to_jsonable(dataclasses.asdict(obj))
    return str(obj)


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


class RowsFrame:
    """Mixin for a result with ``rows()`` (flat dicts): ``to_pandas()`` is their frame."""

    def rows(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def to_pandas(self):
        return frame(self.rows())


class TwoSided(RowsFrame):
    """Mixin for a comparison of ``system`` with ``baseline`` listed on two sides (gains and
    losses, better and worse): ``SIDES`` names each side and the attribute holding its
    rows; ``rows()`` has one per listed item, with the pair and the side."""

    SIDES: ClassVar[tuple[tuple[str, str], ...]] = ()

    def rows(self) -> list[dict[str, Any]]:
        return [
            {"baseline": self.baseline, "system": self.system, "side": side, **row}  # type: ignore[attr-defined]
            for side, attr in self.SIDES
            for row in getattr(self, attr)
        ]


def dumps(obj: Any) -> str:
    """``obj`` (dicts, lists, numbers, numpy values, objects with ``to_dict``) as JSON;
    non-finite numbers are ``null``.

    Examples
    --------
    >>> dumps({"a": float("nan"), "b": [1, 2]})
    '{"a": null, "b": [1, 2]}'
    """
    return json.dumps(to_jsonable(obj), ensure_ascii=False)


#: LaTeX's special characters and what stands for each in text
_TEX = str.maketrans({**{c: f"\\{c}" for c in "&%$#_{}"}, "\\": "\\textbackslash{}",
                      "~": "\\textasciitilde{}", "^": "\\textasciicircum{}"})  # fmt: skip


def latex_text(text: str) -> str:
    r"""``text`` with LaTeX's special characters escaped, in one pass (no escape is escaped
    again).

    Examples
    --------
    >>> print(latex_text("a_b {x} 50% \\ ~c^d"))
    a\_b \{x\} 50\% \textbackslash{} \textasciitilde{}c\textasciicircum{}d
    """
    return text.translate(_TEX)
