"""``stats/`` is the floor of pure array statistics: its modules import numpy, scipy, the
standard library and each other, plus ``mtpalette.errors``, ``mtpalette.records`` and
``mtpalette.kernels`` (floors 0 and 1); never metrics, io, metaeval or anything above
(DESIGN.md, issue 24)."""

from __future__ import annotations

import ast
from pathlib import Path

import mtpalette.stats

#: ``mtpalette._core`` (the compiled Rust core) sits below every floor; that only
#: ``kernels/`` should open it is the core's own rule, not this floor's
ALLOWED = (
    "mtpalette.stats",
    "mtpalette.errors",
    "mtpalette.exports",
    "mtpalette.records",
    "mtpalette.kernels",
    "mtpalette._core",
)


def _mtpalette_imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # ``from mtpalette import x`` imports ``mtpalette.x`` (or the package root)
            names = [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        found += [(node.lineno, n) for n in names if n.split(".")[0] == "mtpalette"]
    return found


def test_stats_imports_nothing_above_it():
    files = sorted(Path(mtpalette.stats.__file__).parent.glob("*.py"))
    assert any(f.name == "resampling.py" for f in files)
    upward = [
        f"{f.name}:{line} imports {name}"
        for f in files
        for line, name in _mtpalette_imports(f)
        if not name.startswith(ALLOWED)
    ]
    assert upward == []


def test_the_check_sees_an_upward_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import numpy\nfrom mtpalette.metrics.base import Metric\n")
    assert _mtpalette_imports(bad) == [(2, "mtpalette.metrics.base.Metric")]
    bad.write_text("from mtpalette import __version__\n")
    assert not _mtpalette_imports(bad)[0][1].startswith(ALLOWED)
