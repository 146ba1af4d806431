"""Result records: a dataclass whose ``to_dict`` is its fields, in the order they are declared.

Many results (a correlation table, a baseline comparison, a chance level...) save themselves
as a dict of their fields. :class:`Record` builds that dict from :func:`dataclasses.fields`:
each field under its name, in declaration order. What a field needs beyond that is said on
the field, as its metadata (:func:`out`): another key (``value`` written as ``chance``), its
parts (an interval written as ``correlation``, ``low`` and ``high``), its place (``after``
another entry, or ``first``) or ``skip``. A value that is not a field (a note, a count
taken from a field's field) is a :func:`written` property (:func:`constant` for a fixed
text), placed the same way. A value that is a :class:`Record` becomes its dict, a list or
tuple of them a list of dicts, any other list or tuple a new list and a dict a new dict;
anything else is taken as it is.

The module also turns results into plain data: :func:`to_jsonable` (what JSON can hold),
:func:`flat_record` and :func:`frame` (one value per cell, for pandas: what every result's
``to_pandas()`` is made of; ``{"outranked": {"value": v, "low": l, "high": h}}`` becomes
``outranked``, ``outranked_low``, ``outranked_high``), :func:`dumps` (``to_json()``) and
:func:`latex_text` (text in a LaTeX table: the one escaper of every LaTeX output).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import numbers
import operator
from collections.abc import Callable, Iterable, Mapping
from pathlib import PurePath
from typing import Any, ClassVar


def out(
    key: str | None = None,
    *,
    parts: Mapping[str, str] | None = None,
    after: str | None = None,
    first: bool = False,
    skip: bool = False,
) -> dict[str, Any]:
    """How :meth:`Record.to_dict` writes a field: ``field(metadata=out(...))``.

    ``key`` names it (default: the field's name); ``parts`` writes it as several keys, each
    an attribute of its value (``{"low": "low", "high": "high"}``; all ``None`` when the
    value is ``None``); ``after`` places it right after another entry (a field's or a
    :func:`written` property's name), ``first`` before every other; ``skip`` leaves it out.
    """
    return {"key": key, "parts": parts, "after": after, "first": first, "skip": skip}


class written(property):  # noqa: N801 - used as a decorator, as ``property`` is
    """A property that :meth:`Record.to_dict` writes beside the fields, under its name (or
    ``key``), after the fields (or ``after`` an entry, or ``first``): a value computed from
    the fields. ``@written(after="cluster")`` over a method, or ``written(fget, key=...)``.
    """

    def __init__(self, fget=None, *, key: str | None = None, after: str | None = None,
                 first: bool = False) -> None:  # fmt: skip
        super().__init__(fget)
        self.key, self.after, self.first = key, after, first

    def __call__(self, fget) -> written:
        return written(fget, key=self.key, after=self.after, first=self.first)


def constant(value: Any, *, after: str | None = None, first: bool = False) -> written:
    """A :func:`written` property that is always ``value`` (a note on how to read the rest)."""
    return written(lambda _: value, after=after, first=first)


def _plain(value: Any) -> Any:
    if isinstance(value, Record):
        return value.to_dict()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return dict(value)
    return value


@dataclasses.dataclass(frozen=True)
class _Entry:
    """One field or :func:`written` property of a record class: the keys it writes, each
    with the function reading its value from a record, and its place."""

    name: str
    keys: tuple[tuple[str, Callable[[Any], Any]], ...]
    after: str | None = None
    first: bool = False


def _field_entry(f: dataclasses.Field) -> _Entry | None:
    how = {**out(), **f.metadata}
    if how["skip"]:
        return None
    get = operator.attrgetter(f.name)
    if not how["parts"]:
        return _Entry(f.name, ((how["key"] or f.name, get),), how["after"], how["first"])

    def part(attr: str) -> Callable[[Any], Any]:
        return lambda record: None if (v := get(record)) is None else getattr(v, attr)

    keys = tuple((k, part(attr)) for k, attr in how["parts"].items())
    return _Entry(f.name, keys, how["after"], how["first"])


@functools.cache
def _entries(cls: type) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """The keys of ``cls``'s dict in order, each with the function reading its value."""
    entries = [e for f in dataclasses.fields(cls) if (e := _field_entry(f)) is not None]
    props = {n: v for k in reversed(cls.__mro__) for n, v in vars(k).items()
             if isinstance(v, written)}  # fmt: skip
    entries += [_Entry(n, ((p.key or n, p.__get__),), p.after, p.first) for n, p in props.items()]
    followers: dict[str, list[_Entry]] = {}
    for e in entries:
        if e.after is not None:
            followers.setdefault(e.after, []).append(e)
    placed: list[_Entry] = []

    def place(e: _Entry) -> None:
        placed.append(e)
        for f in followers.pop(e.name, []):
            place(f)

    for e in sorted((e for e in entries if e.after is None), key=lambda e: not e.first):
        place(e)
    if followers:
        raise TypeError(f"{cls.__name__}: no entry {next(iter(followers))!r} to write after")
    return tuple(key for e in placed for key in e.keys)


class Record:
    """Mixin for result dataclasses: :meth:`to_dict` from the fields (see the module
    docstring).

    Examples
    --------
    >>> from dataclasses import dataclass, field
    >>> @dataclass
    ... class Span(Record):
    ...     start: int
    ...     stop: int = field(metadata=out("end"))
    >>> @dataclass
    ... class Line(Record):
    ...     name: str
    ...     head: Span | None = field(metadata=out(parts={"from": "start"}))
    ...     spans: tuple[Span, ...]
    ...     hidden: int = field(default=0, metadata=out(skip=True))
    ...     note = constant("spans are half-open")
    ...     @written(key="n", after="spans")
    ...     def size(self):
    ...         return len(self.spans)
    >>> Line("a", Span(0, 2), (Span(0, 2), Span(4, 5))).to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'name': 'a', 'from': 0, 'spans': [{'start': 0, 'end': 2}, {'start': 4, 'end': 5}],
     'n': 2, 'note': 'spans are half-open'}
    >>> Line("b", None, ()).to_dict()["from"] is None
    True
    """

    def to_dict(self) -> dict[str, Any]:
        return {key: _plain(get(self)) for key, get in _entries(type(self))}

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
