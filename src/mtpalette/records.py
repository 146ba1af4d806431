"""Result records: a dataclass whose ``to_dict`` is written as one line of its output keys.

Many results (a correlation table, a baseline comparison, a chance level...) save themselves
as a dict of their fields, a few renamed, some read from a field's field (an interval's
bounds), some constant notes. :class:`Record` builds that dict from the class's ``KEYS``:
space-separated items, each ``key=path`` or a bare ``path`` (the key is then the path), where
a path is an attribute name, dotted for an attribute of an attribute (``None`` along the way
gives ``None``), or ``name()`` for a method called without arguments. A value that is a
:class:`Record` becomes its dict, a list or tuple of them a list of dicts, any other list or
tuple a new list and a dict a new dict; anything else is taken as it is.
"""

from __future__ import annotations

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
