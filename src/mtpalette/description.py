"""Run descriptions: small dataclasses that say what a run needs, check it, and save and load
themselves as JSON, so that a run can be written down, shared and repeated.

Every run of the API (:class:`~mtpalette.api.orange_run.OrangeRun`,
:class:`~mtpalette.api.correlation_run.CorrelationRun`, ...) derives from :class:`Description`:
``validate()`` refuses an inconsistent description with a :class:`UserInputError` before any
work, ``save(path)`` writes it, ``load(path)`` reads it back (paths stay paths, nested parts
stay dataclasses) and validates it.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import types
import typing
from pathlib import Path
from typing import Any, ClassVar, Self

from mtpalette.errors import UserInputError
from mtpalette.flags import KEY


class Description:
    """Mixin of the run dataclasses: ``validate``, ``to_dict``/``from_dict``, ``save``/``load``.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Demo(Description):
    ...     kind: ClassVar[str] = "demo"
    ...     files: list[Path]
    ...     n: int = 1
    >>> d = Demo.from_dict({"files": ["a.txt"], "n": 2})
    >>> d.files, d.to_dict()
    ([PosixPath('a.txt')], {'files': ['a.txt'], 'n': 2})
    >>> Demo(["b.txt"]) == Demo([Path("b.txt")])
    True
    """

    #: the name saved with the description, checked when it is loaded
    kind: ClassVar[str] = ""

    def __post_init__(self) -> None:
        # paths may be given as strings, as on the command line
        for name, hint in _hints(type(self)).items():
            value = getattr(self, name)
            if isinstance(value, str | list):
                object.__setattr__(self, name, _paths(value, hint))

    def validate(self) -> None:
        """Refuse an inconsistent description (a :class:`UserInputError`): by default a value
        outside its option's choices (:meth:`~mtpalette.flags.Flag.check`), and the parts'."""
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            part = getattr(self, f.name)
            if isinstance(part, Description):
                part.validate()
            elif KEY in f.metadata:
                f.metadata[KEY].check(part)

    def to_dict(self) -> dict[str, Any]:
        """The description as JSON-ready values (paths as strings)."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, where: str = "") -> Self:
        """The description from :meth:`to_dict`'s values; unknown keys are refused."""
        if not isinstance(data, dict):
            raise UserInputError(f"{where or cls.__name__}: expected an object")
        hints = typing.get_type_hints(cls)
        fields = {f.name for f in dataclasses.fields(cls) if f.init}  # type: ignore[arg-type]
        unknown = sorted(set(data) - fields)
        if unknown:
            raise UserInputError(
                f"{where or cls.__name__}: unknown key(s) {', '.join(unknown)}; "
                f"expected some of {', '.join(sorted(fields))}"
            )
        return cls(**{k: _typed(v, hints[k], f"{where}.{k}".lstrip(".")) for k, v in data.items()})

    def save(self, path: Path) -> Path:
        """Write the description to ``path`` (JSON, atomically)."""
        from mtpalette.io.runfile import atomic_writer  # only here: it imports hashlib, csv...

        with atomic_writer(Path(path)) as out:
            json.dump({"run": self.kind, "description": self.to_dict()}, out, indent=1)
            out.write("\n")
        return Path(path)

    @classmethod
    def load(cls, path: Path) -> Self:
        """A description saved by :meth:`save`, validated (a key given twice refused)."""
        from mtpalette.io.jsonfile import loads

        try:
            data = loads(Path(path).read_text(encoding="utf-8"), path=str(path))
        except (OSError, ValueError) as exc:
            raise UserInputError(f"cannot read a run description: {exc}", path=str(path)) from None
        if not isinstance(data, dict) or data.get("run") != cls.kind:
            raise UserInputError(f"not a saved {cls.kind} run description", path=str(path))
        description = cls.from_dict(data.get("description"), where=str(path))
        description.validate()
        return description


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    names = {f.name for f in dataclasses.fields(cls)}
    return {k: v for k, v in typing.get_type_hints(cls).items() if k in names}


def _paths(value: Any, hint: Any) -> Any:
    """Strings typed as paths made :class:`Path` (in lists too); other values unchanged."""
    options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    for option in options:
        if option is Path and isinstance(value, str):
            return Path(value)
        if typing.get_origin(option) is list and isinstance(value, list):
            (item,) = typing.get_args(option)
            return [_paths(v, item) for v in value]
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, Description):
        return value.to_dict()
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _typed(value: Any, hint: Any, where: str) -> Any:
    """``value`` read back as ``hint`` says: paths as :class:`Path`, parts as dataclasses."""
    if value is None:
        return None
    options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    for option in options:
        if isinstance(option, type) and issubclass(option, Description):
            return option.from_dict(value, where=where)
        if option is Path:
            return Path(value)
        if typing.get_origin(option) is list:
            (item,) = typing.get_args(option)
            if not isinstance(value, list):
                if str in options and isinstance(value, str):  # e.g. str | list[str]
                    return value
                raise UserInputError(f"{where}: expected a list")
            return [_typed(v, item, where) for v in value]
    return value
