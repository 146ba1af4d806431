"""The typer application: lists the subcommands and turns user errors into exit code 2.

Subcommands load lazily: ``mtpalette --help`` imports none of them, and ``mtpalette score``
imports only the scoring path (not scipy, matplotlib, dask or scikit-learn), so the command
line starts in a fraction of a second.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from typing import Any

import typer
from typer.core import TyperGroup

from mtpalette.errors import UserInputError

#: the exit code of every usage error: click's bad options and our UserInputError alike
USAGE_ERROR = 2

#: log2 of the CPU cycles an idle OpenBLAS thread spins before it sleeps (OpenBLAS's own
#: default is 28: about 0.1 s of a core per thread, burnt from numpy's import on, by a
#: command that may never multiply a matrix); 20 is about 0.4 ms. Only when and how long the
#: threads wait changes: their number, and so every result's bits, stay the same.
BLAS_THREAD_TIMEOUT = "20"

#: name -> (module in mtpalette.cli, function, takes variadic options, one-line help)
COMMANDS: dict[str, tuple[str, str, bool, str]] = {
    "score": ("score", "score", True, "Score hypotheses against references, with signatures."),
    "demo": ("demo", "demo", True, "Score the bundled systems, run ORANGE and MQM, report."),
    "data": ("data", "data_cmd", False, "List the bundled data sets and their paths (--copy DIR)."),
    "orange": ("orange", "orange", True, "Rank the references among candidate translations."),
    "correlate": ("correlate", "correlate", True, "Correlate metrics with human judgments."),
    "agree": ("agree", "agree", True, "Rank metrics by ORANGE and by human correlation."),
    "wmt": ("wmt", "wmt", True, "Rank metrics by a WMT task set (SPA, acc-eq, global rank)."),
    "rank": ("rank", "rank_cmd", True, "Rank systems, every pair tested (rank ranges, clusters)."),
    "analyze": ("analyze", "analyze_cmd", True, "Where systems differ: word and sentence buckets."),
    "train-blanc": ("train_blanc", "train_blanc_cmd", True, "Train BLANC by hill-climbing."),
    "audit": ("audit", "audit_cmd", True, "Audit ORANGE's premise on real references."),
    "report": ("report", "report", False, "Write a self-contained HTML report."),
    "train-rose": ("train_rose", "train_rose_cmd", True, "Train ROSE on human judgments."),
    "mbr": ("mbr", "mbr_cmd", False, "Pick each segment's candidate by MBR (or rerank)."),
    "spans": ("spans", "spans_cmd", False, "Score error-span annotators against gold spans."),
    "errorfree": ("errorfree", "errorfree_cmd", False, "Score error-free decisions (MCC)."),
}


def load_command(name: str) -> Any:
    """The click command ``name``, its module imported only now."""
    if name not in COMMANDS:
        return None
    module, func, variadic, _ = COMMANDS[name]
    from mtpalette.cli.help import SectionedHelp
    from mtpalette.cli.variadic import VariadicCommand

    sub = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    callback = getattr(importlib.import_module(f"mtpalette.cli.{module}"), func)
    help_text = reflowed(callback.__doc__)
    sub.command(name, cls=VariadicCommand if variadic else SectionedHelp, help=help_text)(callback)
    return typer.main.get_command(sub)


def reflowed(text: str | None) -> str | None:
    r"""A command's help with each paragraph on one line (list items, ``- `` or ``* ``, on
    their own): typer's help keeps a docstring's line breaks and wraps the lines again at the
    terminal's width, which at 80 columns breaks sentences in the middle; one line per
    paragraph wraps at word boundaries only. Paragraphs are separated by a blank line.

    Examples
    --------
    >>> reflowed("Rank systems.\n\n    Examples: `a`;\n    `b`.\n    - one\n    - two")
    'Rank systems.\n\nExamples: `a`; `b`.\n- one\n- two'
    """
    if not text:
        return text
    out = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        lines: list[str] = []
        for line in paragraph.splitlines():
            line = line.strip()
            if lines and not line.startswith(("- ", "* ")):
                lines[-1] += " " + line
            else:
                lines.append(line)
        out.append("\n".join(lines))
    return "\n\n".join(out)


class LazyGroup(TyperGroup):
    """A group whose commands are imported when one is run or asked for its help."""

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        return load_command(cmd_name)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        # click says "No such command"; name the closest ones too
        name = args[0] if args else ""
        if name and not name.startswith("-") and name not in COMMANDS:
            from mtpalette.errors import did_you_mean

            hint = did_you_mean(name, COMMANDS)
            if hint:
                ctx.fail(f"No such command {name!r}.{hint}")
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: Any) -> Any:
        # every subcommand runs with its inputs tracked: no output may overwrite one
        from mtpalette.io.inputs import tracking

        with tracking():
            return super().invoke(ctx)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        # click's plain help: rich's would import every command for its short help
        super(TyperGroup, self).format_help(ctx, formatter)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = [(name, spec[3]) for name, spec in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


app = typer.Typer(
    name="mtpalette",
    cls=LazyGroup,
    help="Machine-translation evaluation metrics: score, meta-evaluate, train, report.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from mtpalette._version import __version__

        typer.echo(f"mtpalette {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Machine-translation evaluation metrics: score, meta-evaluate, train, report."""


def _one_line_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A warning as one line, ``warning: ...``, without the internal file and source line."""
    text = " ".join(str(message).split())
    print(f"warning: {text}", file=file or sys.stderr)


def main() -> None:
    """Entry point: run the app; a :class:`UserInputError` becomes one line and exit code 2.

    The exception is caught here, not inside the app, so that tests invoking ``app`` with
    typer's ``CliRunner`` can inspect it (``result.exception``).
    """
    from mtpalette.cli.pipes import pipe_safe_stdout

    # before numpy is imported (a subcommand imports it); a value the user set is kept
    os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", BLAS_THREAD_TIMEOUT)
    import warnings

    warnings.showwarning = _one_line_warning
    try:
        with pipe_safe_stdout():
            app()
    except UserInputError as exc:
        typer.echo(f"mtpalette: error: {exc}", err=True)
        sys.exit(USAGE_ERROR)
    except OSError as exc:  # standard output on a full disk: one line
        import errno

        from mtpalette.io.runfile import disk_error

        if exc.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            raise  # any other error is not the output's: it must not be named as such
        typer.echo(f"mtpalette: error: {disk_error(exc, '<stdout>')}", err=True)
        sys.exit(USAGE_ERROR)  # as a full disk on -o FILE: the same condition, the same code
