"""Signatures: everything needed to reproduce a number, printed like sacrebleu's.

A :class:`Signature` *is* its text (a ``str``: it prints, compares, searches, serialises to
JSON and pickles as the text), and it keeps its parts: the metric or run it names, its fields
(a field's value may itself be a signature, printed in brackets), the version, and the
signature it extends. Results hold signatures as objects, so a run's settings can be read
back without parsing (``row.signature.fields["nrefs"]``), and are rendered to text only where
they are written; text read from a file becomes one with :meth:`Signature.parse`.

This module is on the ground floor (records hold signatures); :mod:`mtpalette.metrics`
re-exports the class.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any


class Signature(str):
    """Everything needed to reproduce a number, printed like sacrebleu's signatures.

    A field's value may itself be a signature (a ranking holds its score's), printed in
    brackets; ``extends`` is a signature this one adds fields to (an ORANGE run's, its
    metric's), printed first. ``version`` None: no version field (a stored score's origin).
    A signature equals its text, and two signatures with the same text are equal.

    Examples
    --------
    >>> s = Signature("bleus:4", {"nrefs": 2, "tok": "13a"}, version="0.1.0")
    >>> s, s.fields["nrefs"], "tok:13a" in s
    ('bleus:4|nrefs:2|tok:13a|version:0.1.0', 2, True)
    >>> inner = Signature("chrf", {"nrefs": 1}, "0.1.0")
    >>> str(Signature("rank", {"alpha": 0.05, "higher": True, "score": inner}, "0.1.0"))
    'rank|alpha:0.05|higher:yes|score:[chrf|nrefs:1|version:0.1.0]|version:0.1.0'
    >>> str(Signature("chrf", {"orange": "average-score"}, None, extends=inner))
    'chrf|nrefs:1|version:0.1.0|orange:average-score'
    """

    metric: str
    fields: Mapping[str, Any]
    version: str | None
    extends: Signature | None

    def __new__(
        cls,
        metric: str,
        fields: Mapping[str, Any] | None = None,
        version: str | None = "",
        extends: Signature | None = None,
    ) -> Signature:
        fields = dict(fields or {})
        parts = [str(extends) if extends is not None else metric]
        parts += [f"{k}:{field_text(v)}" for k, v in fields.items()]
        if version is not None:
            parts.append(f"version:{version}")
        self = super().__new__(cls, "|".join(parts))
        self.__dict__.update(
            metric=str(metric), fields=MappingProxyType(fields), version=version, extends=extends
        )
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a signature is immutable (cannot set {name!r})")

    def __reduce__(self):
        return (Signature, (self.metric, dict(self.fields), self.version, self.extends))

    def __repr__(self) -> str:
        return str.__repr__(self)

    def __str__(self) -> str:
        return str.__str__(self)

    def with_fields(self, **more: Any) -> Signature:
        """The same signature with ``more`` fields (a field given again is replaced)."""
        return Signature(self.metric, {**self.fields, **more}, self.version, self.extends)

    def all_fields(self) -> dict[str, Any]:
        """Every field as printed, those of the signatures it extends first, with the version
        where one is printed (under ``version``).

        Examples
        --------
        >>> Signature.parse("chrf|nrefs:1|version:0.1|orange:mid").all_fields()
        {'nrefs': '1', 'version': '0.1', 'orange': 'mid'}
        """
        out = self.extends.all_fields() if self.extends is not None else {}
        out.update(self.fields)
        if self.version is not None:
            out["version"] = self.version
        return out

    def to_dict(self) -> dict[str, Any]:
        """Its parts and its text."""
        return {"metric": self.metric, **self.fields, "version": self.version, "text": str(self)}

    @classmethod
    def parse(cls, text: str) -> Signature:
        """The signature printed as ``text`` (bracketed values parsed in turn; values stay
        text, so ``Signature.parse(t) == t``). ``ValueError`` if ``text`` is not a signature
        (a field without ``:``, a field twice, unbalanced brackets).

        Examples
        --------
        >>> s = Signature.parse("rank|alpha:0.05|score:[chrf|nrefs:1|version:0.1]|version:0.1")
        >>> s.metric, dict(s.fields["score"].fields), s.version
        ('rank', {'nrefs': '1'}, '0.1')
        >>> Signature.parse("m|source:stored m.sys.score").version is None
        True
        >>> e = Signature.parse("chrf|nrefs:1|version:0.1|orange:leave-one-out")  # extends chrf's
        >>> e.extends.fields["nrefs"], dict(e.fields), str(e)
        ('1', {'orange': 'leave-one-out'}, 'chrf|nrefs:1|version:0.1|orange:leave-one-out')
        """
        name, *rest = _split_top(str(text))
        inner = [k for k, part in enumerate(rest[:-1]) if part.startswith("version:")]
        if inner:  # the fields after a version extend the signature that ends there
            k = inner[-1]
            extends = cls.parse("|".join([name, *rest[: k + 1]]))
            return cls(name, cls.parse("|".join([name, *rest[k + 1 :]])).fields, None, extends)
        version = None
        if rest and rest[-1].startswith("version:") and "[" not in rest[-1]:
            version = rest.pop()[len("version:") :]
        fields: dict[str, Any] = {}
        for part in rest:
            key, sep, value = part.partition(":")
            if not sep or key in fields or key == "version":
                raise ValueError(f"not a signature: {text!r}")
            bracketed = value.startswith("[") and value.endswith("]")
            fields[key] = cls.parse(value[1:-1]) if bracketed else value
        return cls(name, fields, version)

    @classmethod
    def of(cls, text: str | Signature) -> Signature:
        """``text`` as a signature: itself, parsed, or (when it is not one) a signature
        printed as ``text`` itself.

        Examples
        --------
        >>> Signature.of("chrf|nrefs:1").fields["nrefs"], Signature.of("a|b").metric
        ('1', 'a|b')
        """
        if isinstance(text, Signature):
            return text
        try:
            return cls.parse(text)
        except ValueError:
            return cls(text, {}, None)


def _split_top(text: str) -> list[str]:
    """``text`` split at the ``|`` outside brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"[": 1, "]": -1}.get(ch, 0)
        if depth < 0:
            raise ValueError(f"not a signature: {text!r}")
        if ch == "|" and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if depth:
        raise ValueError(f"not a signature: {text!r}")
    return [*parts, text[start:]]


def field_text(v: Any) -> str:
    """A field's value as a signature prints it: booleans as yes/no, signatures bracketed."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, Signature):
        return f"[{v}]"
    return str(v)
