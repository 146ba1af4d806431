"""The fields of a model or parameter file, each checked: its JSON type, its range, finite.

The readers of ROSE models (:meth:`mtpalette.metrics.rose_model.RoseModel.load`) and of BLANC
parameter files (:meth:`mtpalette.metrics.blanc.BlancParams.from_dict`) check every field
here, so that a wrong type (``"lowercase": "no"``, ``"n": 2.7``, ``"gamma": "abc"``, ``true``
as a number), a value outside its range (a kernel gamma of -5 or NaN), a missing field or an
unknown one is refused with one line that names the file, the field and what was expected,
never coerced (``bool("no")`` is true, ``int(2.7)`` is 2). The ranges are the metric's spec
domains (:mod:`mtpalette.metrics.domains`), so ``blanc:gamma=...`` in a spec and ``"gamma"``
in a file follow one rule.

Examples
--------
>>> from mtpalette.metrics.domains import Integer, Real, YesNo
>>> rules = {"n": Integer(1, 50), "gamma": Real(), "lc": YesNo()}
>>> fields({"n": 2, "gamma": 1e308}, rules, path="p.json", noun="parameter")
{'n': 2, 'gamma': 1e+308}
>>> fields({"n": 2.7}, rules, path="p.json", noun="parameter")
Traceback (most recent call last):
...
mtpalette.errors.UserInputError: p.json: "n" is 2.7; expected an integer from 1 to 50
>>> fields({"lc": "no"}, rules, path="p.json", noun="parameter")
Traceback (most recent call last):
...
mtpalette.errors.UserInputError: p.json: "lc" is "no"; expected true or false
>>> fields({"gama": 1}, rules, path="p.json", noun="parameter")
Traceback (most recent call last):
...
mtpalette.errors.UserInputError: p.json: unknown parameter "gama"; expected n, gamma, lc. Did you mean 'gamma'?
"""  # noqa: E501

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from mtpalette.errors import UserInputError, did_you_mean, shortened
from mtpalette.metrics.domains import Choice, Integer, Real, Text, YesNo


@dataclass(frozen=True)
class ListOf:
    """A JSON array whose items all follow ``item`` (``plural``: what the items should be, for
    the message ``"mean" holds null; expected finite numbers``)."""

    item: Any
    plural: str

    def describe(self) -> str:
        return f"a list of {self.plural}"


@dataclass(frozen=True)
class Object:
    """A JSON object (its fields checked by the reader, when it has rules for them)."""

    def describe(self) -> str:
        return "a JSON object"


def shown(value: Any) -> str:
    """``value`` as the file spells it (JSON: ``"no"``, ``true``, ``null``, ``NaN``), short.

    Examples
    --------
    >>> shown("no"), shown(True), shown(None), shown(float("nan")), shown([1, 2])
    ('"no"', 'true', 'null', 'NaN', '[1, 2]')
    """
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return shortened(text, 40)


def json_kind(value: Any) -> str:
    """The JSON name of ``value``'s type, for a message (``an array``, ``a string``...)."""
    if value is None:
        return "null"
    for types, name in (
        (bool, "a boolean"), (str, "a string"), (list, "an array"), (dict, "an object"),
        ((int, float), "a number"),
    ):  # fmt: skip
        if isinstance(value, types):
            return name
    return type(value).__name__


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def describe(domain: Any) -> str:
    """What a field of ``domain`` holds, in a file's words (``true or false`` for a switch)."""
    return "true or false" if isinstance(domain, YesNo) else domain.describe()


#: the domains whose values are checked by their JSON type alone, and that type
_JSON_TYPES = ((Object, dict), (YesNo, bool), (Text, str))


def value_of(
    value: Any, domain: Any, *, name: str, path: str | None, expected: str | None = None
) -> Any:
    """``value`` when it is of ``domain``'s JSON type and in its range, else a
    :class:`UserInputError` at ``path`` naming the field ``name`` and ``expected`` (by
    default what ``domain`` describes). A number is a JSON number (not ``true``, not
    ``"0.5"``), finite; an integer may be written ``2.0``, never ``2.7``; a domain's special
    values stand for themselves (BLANC's ``n``: 0, every size)."""
    want = expected or describe(domain)

    def bad(extra: str = "") -> UserInputError:
        return UserInputError(f'"{name}" is {shown(value)}; expected {want}{extra}', path=path)

    if isinstance(domain, ListOf):
        if not isinstance(value, list):
            raise bad()
        for item in value:
            try:
                value_of(item, domain.item, name=name, path=path)
            except UserInputError:
                raise UserInputError(
                    f'"{name}" holds {shown(item)}; expected {domain.plural}', path=path
                ) from None
        return value
    for kind, json_type in _JSON_TYPES:
        if isinstance(domain, kind):
            if not isinstance(value, json_type):
                raise bad()
            return value
    if isinstance(domain, Choice):
        if not isinstance(value, str) or value not in domain.values:
            hint = did_you_mean(value, domain.values) if isinstance(value, str) else ""
            raise bad(f".{hint}" if hint else "")
        return value
    if isinstance(domain, Real):
        special = domain.special
        if isinstance(value, str) and value in special:
            return special[value]
        if not _is_number(value) or not math.isfinite(value):
            raise bad()
        if isinstance(domain, Integer):
            if not float(value).is_integer():
                raise bad()
            value = int(value)
        if not domain.contains(value) and value not in special.values():
            raise bad()
        return value if isinstance(domain, Integer) else float(value)
    raise TypeError(f"no rule for the domain {domain!r}")


def fields(
    obj: Any,
    rules: Mapping[str, Any],
    *,
    path: str | None,
    noun: str,
    required: Collection[str] = (),
    nullable: Collection[str] = (),
    expected: Mapping[str, str] | None = None,
    prefix: str = "",
) -> dict[str, Any]:
    """The fields of the JSON object ``obj``, each checked by :func:`value_of` against its
    rule: an object is expected, a field outside ``rules`` is refused (``unknown {noun}``,
    with the closest known name), every field of ``required`` must be there, a field of
    ``nullable`` may be ``null`` (it stays None). ``expected`` rewords what a field should
    hold; ``prefix`` names a nested object's fields (``kernel_params.gamma``)."""
    expected = expected or {}
    if not isinstance(obj, dict):
        where = f'"{prefix[:-1]}" is' if prefix else "holds"
        raise UserInputError(
            f"{where} {json_kind(obj)}; expected a JSON object of {noun}s", path=path
        )
    for key in obj:
        if key not in rules:
            names = list(rules)
            hint = did_you_mean(str(key), names)
            listed = ", ".join(names) if names else f"no {noun}"
            raise UserInputError(
                f'unknown {noun} "{prefix}{key}"; expected {listed}' + (f".{hint}" if hint else ""),
                path=path,
            )
    for key in required:
        if key not in obj:
            what = expected.get(key) or describe(rules[key])
            raise UserInputError(f'no "{prefix}{key}" field; expected {what}', path=path)
    out: dict[str, Any] = {}
    for key, value in obj.items():
        if value is None and key in nullable:
            out[key] = None
            continue
        want = expected.get(key)
        if want is None and key in nullable:
            want = f"{describe(rules[key])} or null"
        out[key] = value_of(value, rules[key], name=prefix + key, path=path, expected=want)
    return out
