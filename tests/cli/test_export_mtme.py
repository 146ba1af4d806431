"""``orange --export-scores DIR --export-mtme LP``: every computed metric written in
mt-metrics-eval's layout (``metric-scores/LP/NAME-REFS.seg.score``), read back unchanged by the
same loader that reads MTME's own files."""

from __future__ import annotations

import shutil

import numpy as np
from typer.testing import CliRunner

from mtpalette import sentence_scores
from mtpalette.cli.app import app
from mtpalette.io.judgments_mqm import bundled_mqm_ted
from mtpalette.io.scorefile import read_score_option

ZHEN = bundled_mqm_ted("zhen")


def test_orange_exports_in_mtme_layout(tmp_path):
    refs = []
    for name, src in zip(("refA", "refB"), ZHEN["refs"], strict=True):
        refs.append(tmp_path / f"zh-en.{name}.txt")
        shutil.copy(src, refs[-1])
    systems = ZHEN["systems"][:2]
    out = tmp_path / "export"
    args = ["orange", "-r", *map(str, refs), "-s", *map(str, systems), "-m", "chrf"]
    result = CliRunner().invoke(
        app, [*args, "--bootstrap", "0", "--export-scores", str(out), "--export-mtme", "zh-en"]
    )
    assert result.exit_code == 0, result.output
    folder = out / "metric-scores" / "zh-en"
    assert sorted(p.name for p in folder.iterdir()) == [
        "chrf-refA.refB.seg.score", "chrf-refA.seg.score", "chrf-refB.seg.score",
    ]  # fmt: skip
    back = read_score_option(str(folder / "chrf-refB.seg.score"), ["zh-en.refB"])
    ref_b = refs[1].read_text(encoding="utf-8").splitlines()
    for path in systems:
        hyps = path.read_text(encoding="utf-8").splitlines()
        [want] = sentence_scores(hyps, [ref_b], ["chrf"]).values()
        got = [back.scores[(path.stem, k + 1, "")] for k in range(len(hyps))]
        assert np.allclose(got, want, atol=1e-6)
    bad = CliRunner().invoke(app, [*args, "--export-mtme", "zh-en"])
    assert bad.exit_code != 0 and "--export-scores" in str(bad.exception)
