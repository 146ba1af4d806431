"""A command's options, generated from the run descriptions it takes.

Every option is declared once, on a field of a run's or an input's description (a
:class:`~mtpalette.flags.Flag`: names, help, help section; the field's type and default).
:func:`with_options` gives a command the options of its descriptions (``@with_options(OrangeRun,
CandidateInputs)``) besides its own; they reach the command in its ``**options``, and
:func:`fill` builds each description from them. What only the command line has (how ``score``
renders, ``--quiet``) is a :data:`Group` here or in the command's module.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypeVar

import typer

from mtpalette import flags
from mtpalette.flags import RUNNING

T = TypeVar("T")
#: a group of options: parameter name -> (annotated type, default)
Group = Mapping[str, tuple[Any, Any]]

#: output formats of ``mtpalette score`` (``latex``: corpus scores only; cli/render.py)
OUTPUT_FORMATS = ("text", "json", "jsonl", "tsv", "latex")


def opt(*names: str, panel: str, help: str, **kw) -> typer.models.OptionInfo:
    """An option of the command line alone, in one of the help sections."""
    return typer.Option(*names, help=help, rich_help_panel=panel, **kw)


#: progress and notes
QUIET: Group = {
    "quiet": (Annotated[bool, opt("--quiet", "-q", panel=RUNNING, help="No progress messages.")],
              False),
}  # fmt: skip


def options_of(cls: type, *, skip: tuple[str, ...] = (), only: tuple[str, ...] = ()) -> Group:
    """The options of a run description ``cls``: one per field that carries a
    :class:`~mtpalette.flags.Flag`, typed and defaulted as the field (a list made per instance
    defaults to none given; see :func:`fill`), named and helped as the flag says.

    Examples
    --------
    >>> from mtpalette.api.chunked import Chunking
    >>> group = options_of(Chunking, only=("chunk_size",))
    >>> annotated, default = group["chunk_size"]
    >>> flag_of(annotated), default
    ('--chunk-size', 100)
    """
    hints = typing.get_type_hints(cls)
    group = {}
    for f in dataclasses.fields(cls):
        spec = f.metadata.get(flags.KEY)
        if spec is None or f.name in skip or (only and f.name not in only):
            continue
        kind = spec.cli if spec.cli is not None else hints[f.name]
        if f.default is not dataclasses.MISSING:
            default = f.default
        else:  # a list made per instance, or a required field: none given on the command line
            kind, default = kind | None, None
        if spec.cli_default is not None:
            default = spec.cli_default
        if spec.names:
            info = typer.Option(*spec.names, help=spec.help, rich_help_panel=spec.panel, **spec.kw)
        else:  # no name: an argument, required unless the field has a default
            info = typer.Argument(help=spec.help, **spec.kw)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                kind, default = spec.cli or hints[f.name], ...
        group[f.name] = (Annotated[kind, info], default)
    return group


def with_options(*groups: Group | type) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Give a command the options of ``groups`` besides its own (its own win a name clash):
    a group, or a run description whose flagged fields are options (:func:`options_of`);
    typer reads them from the signature, the command gets them in its ``**options``.

    Examples
    --------
    >>> @with_options(QUIET)
    ... def cmd(n: int = 1, **options):
    ...     return n, options
    >>> list(inspect.signature(cmd).parameters), cmd(n=2, quiet=True)
    (['n', 'quiet'], (2, {'quiet': True}))
    """

    def wrap(fn: Callable[..., T]) -> Callable[..., T]:
        hints = typing.get_type_hints(fn, include_extras=True)
        params = [
            p.replace(annotation=hints.get(p.name, p.annotation), kind=p.KEYWORD_ONLY)
            for p in inspect.signature(fn).parameters.values()
            if p.kind is not p.VAR_KEYWORD
        ]
        taken = {p.name: p.annotation for p in params}
        for group in groups:
            if isinstance(group, type):
                group = options_of(group)
            for name, (annotation, default) in group.items():
                # several descriptions may share an option (--refs of the judged inputs and
                # of the candidates is one option, filling both); two options may not share
                ours, theirs = names_of(taken.get(name)), names_of(annotation)
                if name in taken and set(ours) != set(theirs):
                    raise TypeError(f"{name}: two options under one name, {ours} and {theirs}")
                if name not in taken:
                    params.append(
                        inspect.Parameter(
                            name,
                            inspect.Parameter.KEYWORD_ONLY,
                            default=default,
                            annotation=annotation,
                        )  # fmt: skip
                    )
                    taken[name] = annotation

        @functools.wraps(fn)
        def command(**kwargs: Any) -> T:
            return fn(**kwargs)

        command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        command.__annotations__ = {p.name: p.annotation for p in params}
        del command.__wrapped__  # type: ignore[attr-defined]
        return command

    return wrap


def names_of(annotated: Any) -> list[str]:
    """The names an ``Annotated[..., opt(...)]`` option answers to, in order (``-x`` too).

    Examples
    --------
    >>> names_of(QUIET["quiet"][0])
    ['--quiet', '-q']
    """
    if typing.get_origin(annotated) is not Annotated:
        return []
    info = typing.get_args(annotated)[1]
    decls = (info.default, *(info.param_decls or ()))  # typer keeps the first name as default
    return [d for d in decls if isinstance(d, str) and d.startswith("-")]


def fill(cls: type[T], options: Mapping[str, Any], **given: Any) -> T:
    """``cls`` (a dataclass) from the options named as its fields, and ``given``: a flagged
    field's value goes through its flag's ``parse``, and a list made per instance keeps its
    default when the option is not given.

    Examples
    --------
    >>> from mtpalette.sources.inputs import JudgedInputs
    >>> fill(JudgedInputs, {"bundled": "zhen", "quiet": True}).bundled
    'zhen'
    """
    values = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.name not in options or f.name in given:
            continue
        value, spec = options[f.name], f.metadata.get(flags.KEY)
        if value is None and f.default_factory is not dataclasses.MISSING:
            continue
        values[f.name] = spec.parse(value) if spec and spec.parse and value is not None else value
    return cls(**values | given)


def flag_of(annotated: Any) -> str:
    """The long flag of an ``Annotated[..., opt(...)]`` option.

    Examples
    --------
    >>> flag_of(QUIET["quiet"][0])
    '--quiet'
    """
    return next(n for n in names_of(annotated) if n.startswith("--"))


def set_away(options: Mapping[str, Any], group: Group) -> list[str]:
    """The options of ``group`` that ``options`` set away from their defaults.

    Examples
    --------
    >>> set_away({"quiet": True, "n": 1}, QUIET), set_away({"quiet": False}, QUIET)
    (['quiet'], [])
    """
    return [n for n, (_, default) in group.items() if n in options and options[n] != default]


def refuse_unless(options: Mapping[str, Any], group: Group, key: str) -> None:
    """Refuse options of ``group`` set away from their defaults while ``key`` is not given:
    they would be ignored without a word (``--features`` without ``--pivot``).

    Examples
    --------
    >>> from mtpalette.sources.limited import LimitedFeatures
    >>> limited = options_of(LimitedFeatures)
    >>> refuse_unless({"pivot": None, "features": "sim"}, limited, "pivot")
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: --features needs --pivot (without it, it would be ignored)
    """
    if options.get(key) is not None:
        return
    given = [flag_of(group[name][0]) for name in set_away(options, group) if name != key]
    if given:
        from mtpalette.errors import UserInputError

        needs = "need" if len(given) > 1 else "needs"
        raise UserInputError(
            f"{', '.join(given)} {needs} {flag_of(group[key][0])} "
            f"(without it, {'they' if len(given) > 1 else 'it'} would be ignored)"
        )
