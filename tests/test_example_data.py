"""The example data shipped in the package is the project's own: ``scripts/make_demo_data.py``
writes it again, byte for byte, and its ratings follow from the errors put in."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

from mtpalette.io.judgments_mqm import read_mqm, read_mqm_avg

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "src" / "mtpalette" / "data" / "example"


def _script():
    spec = importlib.util.spec_from_file_location("make_demo_data", REPO / "scripts" /
                                                  "make_demo_data.py")  # fmt: skip
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_demo_data"] = module
    spec.loader.exec_module(module)
    return module


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def test_the_script_writes_the_shipped_example_byte_for_byte(tmp_path):
    _script().main(tmp_path / "example")
    written, shipped = _files(tmp_path / "example"), _files(EXAMPLE)
    assert sorted(written) == sorted(shipped)
    assert [name for name in written if written[name] != shipped[name]] == []
    assert len(written) == 86


def test_the_readme_says_it_is_invented():
    text = (EXAMPLE / "README.md").read_text(encoding="utf-8")
    assert "invented, not real" in text and "written by the mtpalette project" in text


def test_error_rows_and_average_scores_agree():
    for lp in ("zhen", "ende"):
        errors = read_mqm(EXAMPLE / "mqm" / lp / f"mqm_{lp}.tsv")
        avg = read_mqm_avg(EXAMPLE / "mqm" / lp / f"mqm_{lp}.avg_seg_scores.tsv")
        assert errors.systems == avg.systems and errors.items == avg.items == list(range(1, 61))
        np.testing.assert_allclose(errors.scores, avg.scores, atol=1e-9)
        # the invented systems get worse with their error rate (means over 60 segments)
        means = errors.scores.mean(axis=1)
        by_name = dict(zip(errors.systems, means, strict=True))
        assert by_name["Aurora"] > by_name["Dune"] > by_name["Harbor"]
