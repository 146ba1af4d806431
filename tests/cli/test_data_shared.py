"""``mtpalette data --copy DIR --shared SHARED``: the real WMT21 TED MQM data set up beside the
example data in the layout of the README's real-data examples, checked against the shared
files themselves (pandas), and refused before anything is written when it cannot be done."""

from __future__ import annotations

import gzip

import pandas as pd
from real_data import SHARED, shared
from typer.testing import CliRunner

from mtpalette.cli.app import app


def test_data_sets_up_the_real_ted_mqm_data(tmp_path):
    ted = shared("mqm", "ted", what="the WMT21 TED MQM data (google/wmt-mqm-human-evaluation)")
    out = tmp_path / "mydata"
    result = CliRunner().invoke(app, ["data", "--copy", str(out), "--shared", str(SHARED)])
    assert result.exit_code == 0, result.output
    assert "mqm_ted_zhen\t" in result.output and "real WMT21 TED MQM zh-en" in result.output
    for lp in ("zhen", "ende"):
        folder = out / "mqm_ted" / lp
        raw = ted / lp / f"mqm_ted_{lp}.tsv"
        rows = pd.read_csv(raw, sep="\t", quoting=3, dtype=str, keep_default_na=False)
        segs = sorted({int(s) for s in rows["seg_id"]})
        assert (folder / "seg_ids.txt").read_text().split() == [str(s) for s in segs]
        first = rows[rows["system"] == "ref"].drop_duplicates("seg_id")
        first = first.assign(seg=first["seg_id"].astype(int)).sort_values("seg")
        want = [t.replace("<v>", "").replace("</v>", "") for t in first["target"]]
        assert (folder / "ref.txt").read_text(encoding="utf-8").splitlines() == want
        with gzip.open(folder / f"mqm_ted_{lp}.tsv.gz", "rb") as fh:
            assert fh.read() == raw.read_bytes()
    # the same again: refused before anything is written, the folder as it was
    again = CliRunner().invoke(app, ["data", "--copy", str(out), "--shared", str(SHARED)])
    assert again.exit_code != 0 and "mqm_ted: already there" in str(again.exception)


def test_data_shared_refusals(tmp_path):
    runner = CliRunner()
    alone = runner.invoke(app, ["data", "--shared", str(tmp_path)])
    assert "give --copy DIR too" in str(alone.exception)
    out = tmp_path / "out"
    missing = runner.invoke(app, ["data", "--copy", str(out), "--shared", str(tmp_path)])
    assert "mqm_ted_ende.tsv: file not found" in str(missing.exception)
    assert not out.exists()  # nothing copied before the refusal
