"""A command's help as plain text, one section per group of options.

typer prints a command's help through rich (boxes per ``rich_help_panel``), and its module for
that imports rich's markdown, syntax highlighting (pygments) and tracebacks: about 0.15 s of
every ``mtpalette CMD --help`` before a line is printed. :class:`SectionedHelp` prints click's
plain help instead, with the same groups as sections: paragraphs wrapped at word boundaries
(click re-wraps each paragraph), option help in an aligned column, no rich at all. Errors are
left as typer prints them.
"""

from __future__ import annotations

from typing import Any

import typer.core
from typer.core import TyperCommand

#: the section of the options that name no group (and of ``--help``)
OTHER = "Options"


class SectionedHelp(TyperCommand):
    """A typer command whose ``--help`` is click's plain help, its options in one section per
    ``rich_help_panel``, in the order the groups first appear."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        # click's own help (usage, text, options, epilog), not typer's rich rendering
        typer.core._click.Command.format_help(self, ctx, formatter)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        sections: dict[str, list[tuple[str, str]]] = {}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                name = "Arguments"
            else:
                name = getattr(param, "rich_help_panel", None) or OTHER
            sections.setdefault(name, []).append(record)
        for name, rows in sections.items():
            with formatter.section(name):
                formatter.write_dl(rows)
