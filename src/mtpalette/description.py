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
from mtpalette.flags import CSV, JSON, KEY, OUT_DIR, OUTPUTS, REPORT, flag


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


@dataclasses.dataclass
class TableOutputs(Description):
    """Where a run that writes a table writes (the command line's ``TABLE_OUTPUTS``): its run
    file, the table, exported scores and an HTML report; a folder (``out_dir``) names the run
    file and the table when they are not named (see :meth:`in_folder`).

    Examples
    --------
    >>> out = TableOutputs(out_dir=Path("o"), report=Path("r/rep.html"))
    >>> out.in_folder(); out.json, out.csv, out.report_folder
    (PosixPath('o/run.json'), PosixPath('o/table.csv'), PosixPath('r/rep-run'))
    """

    out_dir: Path | None = OUT_DIR.field(None)
    json: Path | None = JSON.field(None)
    csv: Path | None = CSV.field(None)
    export_scores: Path | None = flag(
        "--export-scores", panel=OUTPUTS,
        help="Write each metric's segment scores to DIR/<metric>.tsv (for --scores).",
    ).field(None)  # fmt: skip
    #: replace scores stored in ``export_scores`` (else a stored file is never overwritten)
    overwrite: bool = flag(
        "--overwrite", panel=OUTPUTS, help="--export-scores: replace scores stored there."
    ).field(False)
    report: Path | None = REPORT.field(None)

    @property
    def report_folder(self) -> Path | None:
        """The run folder beside the HTML report (``rep.html``: ``rep-run``), if one is asked."""
        return None if self.report is None else self.report.parent / (self.report.stem + "-run")

    def in_folder(self) -> None:
        """Name the run file (``run.json``) and the table (``table.csv``) in ``out_dir``
        where they are not named (a report with ``--json -`` refused: it is built from the
        run file)."""
        from mtpalette.io.runfile import check_report_source

        check_report_source(self.json, self.report)
        if self.out_dir is not None:
            self.json = self.json or self.out_dir / "run.json"
            self.csv = self.csv or self.out_dir / "table.csv"

    def by_option(self, given: TableOutputs, *fields: str) -> dict[str, Path | None]:
        """These outputs' files (resolved: the folder's defaults filled in) by the option that
        names them, for :func:`~mtpalette.io.runfile.check_output_folders`: ``--json`` where
        ``given`` (the outputs as asked) names the file, else the run folder's default.

        Examples
        --------
        >>> given = TableOutputs(out_dir=Path("o"), csv=Path("t.csv"))
        >>> out = dataclasses.replace(given); out.in_folder()
        >>> out.by_option(given, "json", "csv")
        {"the run folder's run.json": PosixPath('o/run.json'), '--csv': PosixPath('t.csv')}
        """
        named: dict[str, Path | None] = {}
        for name in fields:
            path, option = getattr(self, name), "--" + name.replace("_", "-")
            if path is not None and getattr(given, name) is None:
                option = f"the run folder's {Path(path).name}"
            named[option] = path
        return named


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
