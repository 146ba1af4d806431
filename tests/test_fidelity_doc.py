"""docs/fidelity.md cites only what exists: every ``tests/...py::name`` is a file defining
``def name``, every ``src/...py`` module (with ``: name`` or ``: Class.method``) exists and
defines that name, every results/scripts/bench/docs file exists, and every row has a status
and, unless NOT BUILT, a test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "fidelity.md"
STATUSES = ("EXACT", "DEVIATES", "READING", "NOT BUILT")
HEADER = ["paper § / eq. / table", "what", "where mtpalette implements it", "test", "status"]

_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_TEST = re.compile(r"(tests/[\w/]+\.py)::(\w+)")
_MODULE = re.compile(r"(src/[\w/]+\.py)(?::\s*([A-Za-z_][\w.]*))?")
_FILE = re.compile(r"`((?:results|scripts|bench|docs)/[\w./-]+)`")


def _rows() -> list[tuple[int, list[str]]]:
    """``(line number, cells)`` of every data row of every table of the page."""
    out = []
    for number, line in enumerate(DOC.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in _CELL_SPLIT.split(line.strip())[1:-1]]
        if cells == HEADER or all(set(c) <= set("-: ") for c in cells):
            continue
        out.append((number, cells))
    return out


ROWS = _rows()
TESTS = sorted({(n, f, name) for n, cells in ROWS for f, name in _TEST.findall(" ".join(cells))})
MODULES = sorted(
    {(n, f, name) for n, cells in ROWS for f, name in _MODULE.findall(" ".join(cells))}
)
FILES = sorted({(n, f) for n, cells in ROWS for f in _FILE.findall(" ".join(cells))})


def _defines(source: str, name: str) -> bool:
    return re.search(rf"^\s*(?:def|class)\s+{re.escape(name)}\b", source, re.M) is not None


def test_the_page_has_rows_for_every_paper():
    text = DOC.read_text(encoding="utf-8")
    for heading in ("## ORANGE", "## ROUGE", "## BLANC", "## ROSE", "## Limited ORANGE"):
        assert heading in text
    assert len(ROWS) > 50 and TESTS and MODULES


@pytest.mark.parametrize(("line", "cells"), ROWS, ids=[f"line{n}" for n, _ in ROWS])
def test_row_shape_and_status(line, cells):
    assert len(cells) == len(HEADER), f"docs/fidelity.md:{line}: {len(cells)} cells"
    status = cells[-1]
    assert status.startswith(STATUSES), f"docs/fidelity.md:{line}: status {status[:30]!r}"
    if not status.startswith("NOT BUILT"):
        assert _TEST.search(" ".join(cells)), f"docs/fidelity.md:{line}: no test cited"


@pytest.mark.parametrize(("line", "path", "name"), TESTS, ids=[f"{p}::{t}" for _, p, t in TESTS])
def test_cited_test_exists(line, path, name):
    file = ROOT / path
    assert file.is_file(), f"docs/fidelity.md:{line}: no file {path}"
    assert _defines(file.read_text(encoding="utf-8"), name), (
        f"docs/fidelity.md:{line}: {path} has no def {name}"
    )


@pytest.mark.parametrize(
    ("line", "path", "name"), MODULES, ids=[f"{p}:{m}" if m else p for _, p, m in MODULES]
)
def test_cited_module_exists(line, path, name):
    file = ROOT / path
    assert file.is_file(), f"docs/fidelity.md:{line}: no module {path}"
    source = file.read_text(encoding="utf-8")
    for part in filter(None, name.split(".")):
        assert _defines(source, part), f"docs/fidelity.md:{line}: {path} defines no {part}"


@pytest.mark.parametrize(("line", "path"), FILES, ids=[p for _, p in FILES])
def test_cited_file_exists(line, path):
    assert (ROOT / path).is_file(), f"docs/fidelity.md:{line}: no file {path}"
