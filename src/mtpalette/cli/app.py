"""The typer application: registers the subcommands and turns user errors into exit code 2."""

from __future__ import annotations

import sys

import typer

from mtpalette.cli import (
    agree,
    audit,
    correlate,
    demo,
    orange,
    report,
    score,
    train_blanc,
    train_rose,
)
from mtpalette.cli.variadic import VariadicCommand
from mtpalette.errors import UserInputError

#: the exit code of every usage error: click's bad options and our UserInputError alike
USAGE_ERROR = 2

app = typer.Typer(
    name="mtpalette",
    help="Machine-translation evaluation metrics: score, meta-evaluate, train, report.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("score", cls=VariadicCommand)(score.score)
app.command("demo", cls=VariadicCommand)(demo.demo)
app.command("orange", cls=VariadicCommand)(orange.orange)
app.command("correlate", cls=VariadicCommand)(correlate.correlate)
app.command("agree", cls=VariadicCommand)(agree.agree)
app.command("train-blanc", cls=VariadicCommand)(train_blanc.train_blanc_cmd)
app.command("audit", cls=VariadicCommand)(audit.audit_cmd)
app.command("report")(report.report)
app.command("train-rose", cls=VariadicCommand)(train_rose.train_rose_cmd)


def main() -> None:
    """Entry point: run the app; a :class:`UserInputError` becomes one line and exit code 2.

    The exception is caught here, not inside the app, so that tests invoking ``app`` with
    typer's ``CliRunner`` can inspect it (``result.exception``).
    """
    try:
        app()
    except UserInputError as exc:
        typer.echo(f"mtpalette: error: {exc}", err=True)
        sys.exit(USAGE_ERROR)
