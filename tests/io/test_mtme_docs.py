"""The Python blocks of docs/from-mtme.md (the README section "From mt-metrics-eval") run as
written, in a folder holding a copy of tests/data/mtme_folder/wmt21.tedtalks."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "from-mtme.md"
FOLDER = REPO / "tests" / "data" / "mtme_folder" / "wmt21.tedtalks"
_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def blocks() -> list[tuple[str, int]]:
    text = DOC.read_text(encoding="utf-8")
    return [
        (m.group(2), text.count("\n", 0, m.start()) + 1)
        for m in _BLOCK.finditer(text)
        if m.group(1) == "python"
    ]


@pytest.mark.parametrize(("code", "line"), blocks(), ids=lambda x: str(x)[:20])
def test_doc_block_runs(code, line, tmp_path, monkeypatch, capsys):
    shutil.copytree(FOLDER, tmp_path / "wmt21.tedtalks")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, f"docs/from-mtme.md:{line}", "exec"), {"__name__": "__doc__"})
    out = capsys.readouterr().out
    assert "refB mqm wmt21.tedtalks zh-en: 12 of 15 systems evaluated" in out
    assert "['length-src']" in out
