"""Run files and CSV/JSONL outputs: atomic writes, JSON-safe values, reading back."""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest

from mtpalette.errors import UserInputError
from mtpalette.io.runfile import (
    Run,
    atomic_writer,
    file_record,
    load_run,
    to_jsonable,
    write_csv,
    write_json,
    write_jsonl,
)
from mtpalette.stats.bootstrap import bootstrap_ci


def test_atomic_write_keeps_the_old_file_on_failure(tmp_path):
    p = tmp_path / "table.csv"
    p.write_text("old\n")
    with pytest.raises(RuntimeError), atomic_writer(p) as fh:
        fh.write("half of the new")
        raise RuntimeError("interrupted")
    assert p.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["table.csv"]  # no temporary file left


def test_atomic_write_replaces_and_uses_normal_permissions(tmp_path):
    p = tmp_path / "x.json"
    write_json(p, {"a": 1})
    write_json(p, {"a": 2})
    assert json.loads(p.read_text()) == {"a": 2}
    assert p.stat().st_mode & 0o044  # readable by others (mkstemp would give 0600)


def test_missing_folder_is_a_user_error(tmp_path):
    with pytest.raises(UserInputError, match="does not exist"):
        write_json(tmp_path / "nope" / "x.json", {})


def test_json_safe_values():
    ci = bootstrap_ci([1.0, 2.0, 3.0], n_resamples=20, seed=1)
    out = to_jsonable(
        {
            "ci": ci,
            "nan": math.nan,
            "inf": np.float64(np.inf),
            "arr": np.array([[1, 2]]),
            "flag": np.bool_(True),
            "t": (1, 2),
        }
    )
    assert out["ci"]["value"] == 2.0 and out["ci"]["seed"] == 1
    assert out["nan"] is None and out["inf"] is None
    assert out["arr"] == [[1, 2]] and out["flag"] is True and out["t"] == [1, 2]
    json.dumps(out, allow_nan=False)


def test_csv_and_jsonl(tmp_path):
    write_csv(
        tmp_path / "t.csv",
        [{"m": "bleus:4", "v": 0.25, "x": None}, {"m": "wer", "v": np.float32(0.5), "x": math.nan}],
    )
    assert (tmp_path / "t.csv").read_text() == "m,v,x\nbleus:4,0.25,\nwer,0.5,\n"
    n = write_jsonl(tmp_path / "e.jsonl", ({"i": i} for i in range(3)))
    assert n == 3
    assert [json.loads(x) for x in (tmp_path / "e.jsonl").read_text().splitlines()] == [
        {"i": 0},
        {"i": 1},
        {"i": 2},
    ]


def test_run_round_trip_and_file_records(tmp_path):
    src = tmp_path / "ref.txt"
    src.write_text("a\nb\n")
    rec = file_record(src)
    assert rec["lines"] == 2 and rec["bytes"] == 4 and len(rec["sha256"]) == 64
    run = Run(
        "orange",
        inputs={"refs": [rec]},
        seeds={"bootstrap": 3},
        results={"x": np.arange(2)},
        command=["mtpalette", "orange"],
    )
    run.save(tmp_path / "run.json")
    data = load_run(tmp_path / "run.json")
    assert data["format"] == "mtpalette-run" and data["kind"] == "orange"
    assert data["results"] == {"x": [0, 1]} and data["command"] == ["mtpalette", "orange"]
    assert data["inputs"]["refs"][0]["sha256"] == rec["sha256"]


def test_load_run_rejects_other_files(tmp_path):
    (tmp_path / "o.json").write_text('{"a": 1}')
    with pytest.raises(UserInputError, match="not an mtpalette run"):
        load_run(tmp_path / "o.json")
    (tmp_path / "b.json").write_text("{")
    with pytest.raises(UserInputError, match=r"b\.json:1: not valid JSON"):
        load_run(tmp_path / "b.json")
    with pytest.raises(UserInputError, match="file not found"):
        load_run(tmp_path / "none.json")
