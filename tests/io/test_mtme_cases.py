"""The small folders of mtme_cases.py read by :func:`mtpalette.io.mtme.read_mtme` as
mt-metrics-eval itself reads them: texts, references, human scores at every level, ratings,
"human" systems, and the systems its ``GetCorrelations`` keeps for each configuration
(tests/data/mtme_folder/small_golden.json, made by ``scripts/mtme_folder.py small``)."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pytest
from mtme_cases import CASES, build_case, build_jsonl

from mtpalette.io.mtme import read_mtme

GOLDEN = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "mtme_folder" / "small_golden.json").read_text(
        encoding="utf-8"
    )
)["cases"]


def _digest(value) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _nan(values):
    return [math.nan if v is None else v for v in values]


@pytest.mark.parametrize("name", sorted(CASES))
def test_read_as_mt_metrics_eval_reads(name, tmp_path):
    gold = GOLDEN[name]
    root = build_case(tmp_path, name)
    lp = CASES[name]["lp"]
    s = read_mtme(root, lp, judged_only=False, read_ratings=True, ref=gold["std_ref"])
    assert sorted(s.outputs) == gold["sys_names"]
    assert sorted(s.refs) == gold["ref_names"]
    assert sorted(s.human_systems) == gold["human_sys_names"]
    assert sorted(s.meta.outlier_systems) == gold["outliers"]
    levels = {lvl: table for lvl, table in gold["human_scores"].items() if table}
    assert sorted(s.human_scores) == sorted(levels)
    for level, by_name in levels.items():
        assert sorted(s.human_scores[level]) == sorted(by_name)
        for human, by_system in by_name.items():
            got = s.human_scores[level][human]
            if level == "domain":  # MTME lists every system; a missing one has only None
                by_system = {k: v for k, v in by_system.items() if k in got}
            assert sorted(got) == sorted(by_system)
            for system, values in by_system.items():
                np.testing.assert_array_equal(got[system], _nan(values))
    for rating, by_system in gold["ratings"].items():
        for system, values in by_system.items():
            got = s.ratings[rating][system]
            for r, want, rater in zip(got, values, gold["rater_ids"][rating][system], strict=True):
                if want is None:
                    assert r is None
                    continue
                assert [vars(e) for e in r.errors] == want["errors"]
                assert r.rater == rater


@pytest.mark.parametrize(
    ("name", "k"), [(n, k) for n in sorted(CASES) for k in range(len(CASES[n]["configs"]))]
)
def test_systems_kept_as_get_correlations_keeps(name, k, tmp_path):
    config = GOLDEN[name]["configs"][k]
    s = read_mtme(
        build_case(tmp_path, name),
        CASES[name]["lp"],
        level=config["level"],
        ref=config["ref"],
        human=None if config["gold"] == "std" else config["gold"],
        include_refs=config["include_human"],
        include_outliers=config["include_outliers"],
        close_refs=config["close_refs"] or None,
    )
    assert s.systems == config["systems"]
    assert set(s.left_out) == set(s.outputs) - set(s.systems)


def test_wmt24pp_jsonl_read_as_mt_metrics_eval_reads(tmp_path):
    gold = GOLDEN["jsonl"]
    s = read_mtme(build_jsonl(tmp_path), "en-de_DE", judged_only=False)
    assert s.ref == gold["std_ref"] == "posteditB"  # MTME's meta_info for wmt24pp en-de_DE
    # the texts MTME read, kept as digests (scripts/mtme_folder.py text_digest)
    assert _digest(s.source) == gold["src_sha256"]
    assert _digest(dict(sorted(s.refs.items()))) == gold["all_refs_sha256"]
    assert _digest(dict(sorted(s.outputs.items()))) == gold["sys_outputs_sha256"]
    assert sorted(s.human_systems) == gold["human_sys_names"]
