"""Where a command's results go: rich tables at the terminal's width on a terminal, plain
tab-separated text when piped or redirected (rich would otherwise wrap at 80 columns).

Progress and notes go to standard error (:mod:`mtpalette.progress`); results go through
:func:`result_console` and :func:`emit_table`, so ``mtpalette orange ... > table.tsv`` gives a
file that ``pandas.read_csv(path, sep="\\t", comment="#")`` reads. When an output of the
command is standard output (``--json -``), standard output holds that one document alone: the
tables and their notes go to standard error (:func:`mtpalette.io.inputs.stdout_claimed`).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

from mtpalette.io.inputs import stdout_claimed

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table


#: a width no table line reaches, for text that must not wrap
_UNWRAPPED = 1_000_000


def result_console() -> Console:
    """Standard output (standard error when a document of the command is written there): the
    terminal's width on a terminal; unwrapped, uncoloured text otherwise."""
    from rich.console import Console

    stderr = stdout_claimed()
    if (sys.stderr if stderr else sys.stdout).isatty():
        return Console(stderr=stderr)
    return Console(stderr=stderr, width=_UNWRAPPED, no_color=True, highlight=False, soft_wrap=True)


class PlainConsole:
    """What :func:`emit_table`, :func:`emit_rows` and :func:`emit_note` read of a console that
    is no terminal: the stream they write to (:func:`plain_console`)."""

    is_terminal = False

    def __init__(self, file) -> None:
        self.file = file


def plain_console() -> PlainConsole | None:
    """:func:`result_console`'s stream when rich would surely write plain text on it (no
    terminal, and neither ``TTY_COMPATIBLE`` nor ``FORCE_COLOR`` set to tell rich otherwise),
    so that a piped command writes its tables (:func:`emit_rows`) and notes without importing
    rich (about 30 ms of a start); None otherwise (use :func:`result_console`)."""
    file = sys.stderr if stdout_claimed() else sys.stdout
    file = getattr(file, "rich_proxied_file", file)
    if file is None or "TTY_COMPATIBLE" in os.environ or "FORCE_COLOR" in os.environ:
        return None
    try:
        return None if file.isatty() else PlainConsole(file)
    except (AttributeError, ValueError):
        return None


def emit_rows(
    console: Console | PlainConsole,
    title: str,
    columns: list[tuple[str, str]],
    rows: list[list[str]],
    *,
    literal: bool = False,
) -> None:
    """A table given as text: ``columns`` are ``(header, justify)``, the title, headers and
    cells rich markup, or the cells literal text (``literal``, as a rich ``Text``). Written
    as :func:`emit_table` writes it (on a terminal, a rich table), without importing rich
    when ``console`` is no terminal.

    Examples
    --------
    >>> import io
    >>> out = PlainConsole(io.StringIO())
    >>> emit_rows(out, "BLEU", [("System", "left"), ("BLEU", "right")], [["a", "12.5"]])
    >>> out.file.getvalue().splitlines()
    ['# BLEU', 'System\\tBLEU', 'a\\t12.5']
    """
    if not console.is_terminal:
        cell = _literal if literal else _plain
        _write_rows(console, title, [_plain(h) for h, _ in columns],
                    (map(cell, row) for row in rows), None)  # fmt: skip
        return
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title)
    for header, justify in columns:
        table.add_column(header, justify=justify)
    for row in rows:
        table.add_row(*(map(Text, row) if literal else row))
    emit_table(console, table)


def emit_table(console: Console, table: Table) -> None:
    """``table`` as a rich table on a terminal; as TSV (``# title`` first) otherwise.

    Examples
    --------
    >>> import io
    >>> from rich.console import Console
    >>> from rich.table import Table
    >>> t = Table(title="ORANGE")
    >>> t.add_column("Method"); t.add_column("ORANGE")
    >>> t.add_row("bleu", "[bold]12.50%[/bold]")
    >>> buffer = io.StringIO()
    >>> emit_table(Console(file=buffer, width=_UNWRAPPED), t)
    >>> buffer.getvalue().splitlines()
    ['# ORANGE', 'Method\\tORANGE', 'bleu\\t12.50%']
    """
    if console.is_terminal:
        console.print(_unbroken(table))
        return
    cells = [list(c.cells) for c in table.columns]
    rows = ((_plain(column[i]) for column in cells) for i in range(table.row_count))
    _write_rows(console, table.title, [_plain(c.header) for c in table.columns], rows,
                table.caption)  # fmt: skip


def _write_rows(console, title, headers: list[str], rows, caption) -> None:
    """``# title``, the headers, each row (plain texts), tab-separated, and ``# caption``."""
    lines = [f"# {_plain(title)}"] if title else []
    lines.append("\t".join(headers))
    lines += ["\t".join(row) for row in rows]
    if caption:
        lines.append(f"# {_plain(caption)}")
    console.file.write("\n".join(lines) + "\n")


#: a cell that reads as one unit and must not be wrapped: a number, an interval ``[a, b]``, a
#: p-value ``p = 0.014``, a rank range ``1-14``, a score ``± half-width``, a dash
_UNIT = re.compile(
    r"[-+\u2212\u2013]?(?:[\d.,\s+\-\u2212\u2013±%*\[\]()]|e[-+]?\d|p ?[=<>≤])*|nan|inf|—|-"
)
#: wider than this, a unit column may wrap after all (it would crowd out every other column)
_UNIT_WIDTH = 24


def _unbroken(table: Table) -> Table:
    """``table`` with its columns of numbers, intervals and p-values kept on one line each
    (``no_wrap``): at 80 columns rich would otherwise wrap ``[0.4647, 0.6166]`` after its
    comma; the columns of words (metric and system names, notes) wrap instead, and a word
    longer than its column is folded rather than cut to an ellipsis.

    Examples
    --------
    >>> from rich.table import Table
    >>> t = Table()
    >>> t.add_column("Metric"); t.add_column("95% CI"); t.add_column("p")
    >>> t.add_row("chrf", "[0.4647, 0.6166]", "p = 0.014 vs chrf")
    >>> [c.no_wrap for c in _unbroken(t).columns]
    [False, True, False]
    """
    for column in table.columns:
        cells = [_plain(c).strip() for c in column.cells]
        cells = [c for c in cells if c]
        if cells and max(map(len, cells)) <= _UNIT_WIDTH and all(_UNIT.fullmatch(c) for c in cells):
            column.no_wrap = True
        elif column.overflow == "ellipsis":  # a name too long for its column: folded, whole
            column.overflow = "fold"
    return table


def emit_note(console: Console, text: str) -> None:
    """A line under or over a table: dim on a terminal, a ``# `` comment line otherwise."""
    if console.is_terminal:
        console.print(text, style="dim", highlight=False, soft_wrap=True, markup=False)
    else:
        console.file.write("".join(f"# {line}\n" for line in text.splitlines()))


def emit_signatures(
    console: Console, signatures: Mapping[str, object], *, full: bool = False
) -> None:
    """Each distinct signature once (see :func:`mtpalette.cli.render.signature_block`)."""
    from mtpalette.cli.render import signature_block

    text = signature_block(signatures, full=full)
    if text:
        emit_note(console, text.rstrip("\n"))


#: what rich's markup may read otherwise than as it is: a tag (``[`` then a letter, ``#``,
#: ``/`` or ``@``), a backslash (an escape), two colons (an emoji code ``:name:``) and the
#: control codes its ``Text`` strips (bell, backspace, vertical tab, form feed, return);
#: ``[5,10)`` or ``bleu:compat=compare-mt`` read as they are
_NOT_AS_IS = re.compile(r"\[[a-z#/@]|\\|:[^:]*:|[\x07\x08\x0b\x0c\r]")
_CONTROL = re.compile(r"[\x07\x08\x0b\x0c\r]")


def _plain(cell) -> str:
    if isinstance(cell, str) and not _NOT_AS_IS.search(cell):  # rich's text would be the same
        return cell.replace("\t", " ").replace("\n", " ")
    from rich.text import Text

    if isinstance(cell, Text):
        return cell.plain
    if isinstance(cell, str):
        return Text.from_markup(cell).plain.replace("\t", " ").replace("\n", " ")
    return str(cell)


def _literal(text: str) -> str:
    """The plain text of ``rich.text.Text(text)`` (its control codes stripped)."""
    if not _CONTROL.search(text):
        return text
    from rich.text import Text

    return Text(text).plain


def show_written(console: Console, outputs: dict[str, object]) -> None:
    """One dim line per file a run wrote (counts such as ``errors_records`` left out), never
    wrapped: a path is copied whole from the terminal."""
    for key, value in outputs.items():
        if not key.endswith("_records"):
            console.print(f"wrote {value}", style="dim", soft_wrap=True)
