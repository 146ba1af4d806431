"""Help and tables at 80 columns (issue 54), and help that starts fast (issue 55).

* Every command's help breaks its paragraphs at the terminal's width only, between words:
  no line of a paragraph ends where the next word would still have fitted (the mark of a
  docstring's own line break, kept and then wrapped again mid-sentence).
* A command's help imports neither numpy, rich nor the library: typer builds it from the
  options alone and click prints it (the commands whose option help lists the statistics
  catalogue excepted).
* A table at 80 columns keeps each interval ``[a, b]`` and p-value on one line.
"""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
import typer
from rich.console import Console
from rich.table import Table
from typer.testing import CliRunner

from mtpalette.cli.app import COMMANDS, app, reflowed
from mtpalette.cli.console import emit_table
from mtpalette.cli.help import SectionedHelp

WIDTH = 80
#: the help of these lists the statistics of stats/catalogue.py, which imports numpy
CATALOGUE_HELP = {"correlate", "agree"}


def avoidable_breaks(text: str, width: int = WIDTH) -> list[tuple[str, str]]:
    """Pairs of consecutive lines of a help text (a paragraph, or one option's help) where the
    second line's first word would have fitted at the end of the first, with 2 characters to
    spare (click wraps at ``width - 2``): a line break of the source, not a wrap."""
    found = []
    lines = text.splitlines()
    for prev, line in zip(lines, lines[1:], strict=False):
        if not prev.strip() or not line.strip() or prev.rstrip().endswith(":"):
            continue  # a paragraph's end, or a section's heading
        word = line.split()[0]
        indent = len(line) - len(line.lstrip())
        if word.startswith(("-", "[", "*")) or len(prev.rstrip()) <= indent:
            continue  # an option's row, a default, a list item
        if prev.lstrip().startswith("-") and "  " not in prev.strip():
            continue  # an option's names alone (too long for their column): help below
        if len(prev.rstrip()) + 1 + len(word) <= width - 2 - 2:
            found.append((prev, line))
    return found


def _help(args: list[str], monkeypatch) -> str:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    monkeypatch.delenv("TERMINAL_WIDTH", raising=False)
    result = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": str(WIDTH)})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("command", list(COMMANDS))
def test_help_breaks_lines_between_words_only(command, monkeypatch):
    text = _help([command], monkeypatch)
    assert "Usage:" in text
    assert avoidable_breaks(text) == []


def test_the_check_catches_a_docstring_line_break(monkeypatch):
    """The check fails on a hard-wrapped docstring as typer's own (rich) help prints it,
    and passes on the help the command line prints for it (one line per paragraph, plain)."""

    def cmd(n: int = 1) -> None:
        """Rank systems.

        With several systems the table has one row per system. --paired-bs and --paired-ar
        test each system against the baseline as sacrebleu does, drawing the same resamples
        for the same --seed.
        """

    monkeypatch.setenv("COLUMNS", str(WIDTH))
    outputs = []
    for doc, cls in ((cmd.__doc__, None), (reflowed(cmd.__doc__), SectionedHelp)):
        sub = typer.Typer(add_completion=False)
        sub.command(help=doc, cls=cls)(cmd)
        sub.command("other")(lambda: None)  # two commands: the help is the command's own
        result = CliRunner().invoke(sub, ["cmd", "--help"], env={"COLUMNS": str(WIDTH)})
        outputs.append(result.output)
    assert avoidable_breaks(outputs[0])  # "--paired-ar" alone, then "test each system"
    assert avoidable_breaks(outputs[1]) == []
    assert "--paired-ar test each system" in " ".join(outputs[1].split())


@pytest.mark.parametrize("command", [c for c in COMMANDS if c not in CATALOGUE_HELP])
def test_help_imports_neither_numpy_rich_nor_the_library(command):
    """A command's options come from its run's description (mtpalette.flags), so its help
    imports the descriptions, and they import what a run needs only when it runs: the
    sources the help may load are the descriptions' modules, nothing that reads or scores."""
    code = (
        "import sys\nfrom mtpalette.cli.app import main\n"
        f"sys.argv = ['mtpalette', {command!r}, '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = ('numpy', 'scipy', 'pandas', 'mtpalette.metrics', 'mtpalette.stats', "
        "'mtpalette.metaeval', 'mtpalette.io.writers', 'mtpalette.io.tabular', 'rich')\n"
        "sources = [m for m in sys.modules if m.startswith('mtpalette.sources.')]\n"
        "print('IMPORTED', *[m for m in heavy if m in sys.modules])\n"
        "print('SOURCES', *sorted(sources))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    imported, sources = out.stdout.splitlines()[-2:]
    assert imported.split() == ["IMPORTED"]
    descriptions = {"checks", "inputs", "limited", "score_inputs", "wmt25"}
    assert {m.rsplit(".", 1)[1] for m in sources.split()[1:]} <= descriptions


def test_a_table_keeps_intervals_and_p_values_on_one_line():
    """Correlate's table at 80 columns: intervals and p-values whole, names wrapped."""
    table = Table(title="Segment-level Pearson r")
    for name in ("Metric", "Pearson r", "95% CI", "Cluster", "Dir", "p (Holm)"):
        table.add_column(name)
    rows = [
        ("chrf", "0.5420", "[0.4647, 0.6166]", "1", "+", ""),
        ("len:sign=-1 (baseline)", "-0.1245", "[-0.1907, -0.0546]", "6", "+", "p < 0.001"),
        ("lendiff (baseline)", "0.3219", "[0.2320, 0.4106]", "4", "-", "p = 0.210"),
    ]
    for row in rows:
        table.add_row(*row)
    buffer = io.StringIO()
    emit_table(Console(file=buffer, width=WIDTH, force_terminal=True, color_system=None), table)
    lines = buffer.getvalue().splitlines()
    assert max(len(line) for line in lines) <= WIDTH
    text = "\n".join(lines)
    for row in rows:
        for cell in row[2:]:
            if cell.startswith(("[", "p")):
                assert cell in text, (cell, text)
    assert "(baseline)" in text  # the names wrapped instead
