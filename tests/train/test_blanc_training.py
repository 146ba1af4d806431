"""BLANC training: the objectives equal the library's own correlation and ORANGE pipelines,
training helps on held-out real data, runs are reproducible, files are usable as specs."""

from __future__ import annotations

import json

import numpy as np
import pytest
from real_data import mqm_ted, mqm_ted_args
from typer.testing import CliRunner

from mtpalette.cli.app import app
from mtpalette.io.judgments_read import read_judgments
from mtpalette.io.plain import read_lines
from mtpalette.metaeval.candidates import CandidateLists, compare_candidates
from mtpalette.metaeval.correlation import correlation_table
from mtpalette.metaeval.orange import evaluate
from mtpalette.metaeval.segments import SegmentData, score_segments
from mtpalette.metrics import parse_specs
from mtpalette.metrics.blanc import BlancParams
from mtpalette.metrics.registry import parse_spec
from mtpalette.train.blanc import HumanObjective, OrangeObjective, train_blanc
from mtpalette.train.hillclimb import Dimension, hill_climb
from mtpalette.train.split import holdout_split

PARAMS = BlancParams(alpha=0.3, beta=0.6, gamma=-0.4, bf=2.0, n=3)
SPEC = "blanc:alpha=0.3,beta=0.6,gamma=-0.4,bf=2,n=3"


@pytest.fixture(scope="module")
def ted_zhen_data():
    paths = mqm_ted("zhen")
    judged = read_judgments(paths["judgments"])
    refs = [read_lines(p) for p in paths["refs"]]
    outputs = {p.name[:-4]: read_lines(p) for p in paths["systems"]}
    return SegmentData.from_judgments(
        judged, outputs, refs, seg_ids=read_lines(paths["seg_ids"])
    ), (outputs, refs)


def test_human_objective_equals_correlation_table(ted_zhen_data):
    data, _ = ted_zhen_data
    data = data.select_items(range(200))
    [scores] = score_segments(data, parse_specs([SPEC]))
    for stat in ("pearson", "kendall"):
        table = correlation_table(data.pair_data([scores]), statistic=stat, n_resamples=0, test="none")
        obj = HumanObjective([data], base=PARAMS, statistic=stat)
        assert obj.value_of(PARAMS) == pytest.approx(table.rows[0].value, rel=1e-12)
    sys_table = correlation_table(
        data.pair_data([scores]), level="system", system_score="mean", n_resamples=0, test="none"
    )
    sys_obj = HumanObjective([data], base=PARAMS, level="system")
    assert sys_obj.value_of(PARAMS) == pytest.approx(sys_table.rows[0].value, rel=1e-12)


def test_orange_objective_equals_orange_pipeline(ted_zhen_data):
    _, (outputs, refs) = ted_zhen_data
    lists = CandidateLists.from_systems(
        {k: v[:150] for k, v in outputs.items()}, [r[:150] for r in refs]
    )
    [comp] = compare_candidates(lists, parse_specs([SPEC]))
    table = evaluate([comp], n_resamples=0)
    obj = OrangeObjective(lists, base=PARAMS)
    assert obj.orange(PARAMS) == pytest.approx(table.rows[0].orange.value, rel=1e-12)


def test_training_beats_default_on_held_out_items(ted_zhen_data, tmp_path):
    data, _ = ted_zhen_data
    train, test = holdout_split(data, 0.3)
    base = BlancParams()
    result = train_blanc(
        HumanObjective([train], base=base), restarts=2, seed=3, max_evaluations=120
    )
    held_out = HumanObjective([test], base=base)
    assert held_out.value_of(result.params) > held_out.value_of(base)
    # reproducible: the same seed gives the same search
    again = train_blanc(HumanObjective([train], base=base), restarts=2, seed=3, max_evaluations=120)
    assert again.params == result.params and again.value == result.value
    # the saved file is a metric spec giving the same scores as the parameters
    path = tmp_path / "p.json"
    result.save(path)
    [from_file] = score_segments(test, parse_specs([f"blanc:@{path}"]))
    np.testing.assert_array_equal(
        np.nan_to_num(from_file.seg, nan=-1),
        np.nan_to_num(held_out.scores(result.params)[0], nan=-1),
    )


def test_hill_climb_respects_bounds_and_budget():
    seen = []
    space = [Dimension("x", 0.0, 1.0, 0.4), Dimension("y", 0.5, 4.0, 1.0, log=True)]
    result = hill_climb(
        lambda p: seen.append(p) or p["x"] + p["y"], space, restarts=3, seed=0, max_evaluations=25
    )
    assert len(seen) == result.n_evaluations <= 25
    assert all(0 <= p["x"] <= 1 and 0.5 - 1e-12 <= p["y"] <= 4 + 1e-9 for p in seen)
    assert result.best["x"] == pytest.approx(1.0) and result.best["y"] == pytest.approx(4.0)


def test_cli_trains_and_writes_a_usable_file(tmp_path):
    out = tmp_path / "blanc.json"
    args = ["train-blanc", *mqm_ted_args("ende"), "--holdout", "0.3", "-o", str(out)]
    result = CliRunner().invoke(app, [*args, "--max-evals", "30", "--restarts", "1", "-q"])
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text())
    assert record["test"]["items"] > 100 and len(record["history"]) == 30
    assert parse_specs([f"blanc:@{out}"])[0].blanc == BlancParams(**record["params"])
    bad = CliRunner().invoke(app, ["train-blanc", "--objective", "nope", "-o", str(out)])
    assert bad.exit_code != 0 and "unknown objective" in str(bad.exception)


def test_document_split_keeps_talks_whole(ted_zhen_data):
    data, _ = ted_zhen_data
    assert len(set(data.info["docs"])) > 3
    train, test = holdout_split(data, 0.3)
    assert not set(train.info["docs"]) & set(test.info["docs"])
    assert train.n_items + test.n_items == data.n_items
    assert test.info["split"]["test_docs"] == sorted(
        set(test.info["docs"]), key=data.info["docs"].index
    )


@pytest.mark.parametrize("flag", ["--pos", "--posmix"])
def test_pos_weights_are_trained_with_the_rest(tmp_path, flag):
    # tiny English data whose human scores follow the tag sequences: the POS weights move
    from mtpalette.train.blanc import DEFAULT_SPACE, POS_DIMENSIONS, POSMIX_DIMENSION

    ref = "The committee approved the budget ."
    hyps = [
        ["The council rejected the plan .", "budget the . approved committee The"],
        ["The committee approved a budget .", "committee The the approved . budget"],
    ]
    data = SegmentData(["A", "B"], [[3.0, 1.0], [4.0, 2.0]], hyps, [[ref, ref]], [1, 2])
    if flag == "--pos":
        base, names, dims = BlancParams(n=2, lw=3.0), ("lw", "lt"), POS_DIMENSIONS
    else:
        base, names, dims = BlancParams(n=2, posmix=0.5), ("posmix",), (POSMIX_DIMENSION,)
    obj = HumanObjective([data], base=base, tokenize="none")
    result = train_blanc(obj, space=(*DEFAULT_SPACE, *dims), restarts=1, max_evaluations=40)
    for name in names:
        assert name in result.climb.best
        assert result.to_dict()["params"][name] == getattr(result.params, name)
    feature = "pos_feature" if flag == "--pos" else "posmix_feature"
    assert obj.describe()[feature] is True
    out = tmp_path / "j.tsv"
    out.write_text("system\tsegment\tscore\nA\t1\t3\nA\t2\t1\nB\t1\t4\nB\t2\t2\n")
    (tmp_path / "ref.txt").write_text(f"{ref}\n{ref}\n")
    for name, lines in (("A", hyps[0]), ("B", hyps[1])):
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n")
    args = ["train-blanc", "-j", str(out), "--refs", str(tmp_path / "ref.txt"), flag]
    args += ["--systems", str(tmp_path / "A.txt"), "--systems", str(tmp_path / "B.txt")]
    args += ["--positive-only", "--max-evals", "20", "--restarts", "1", "-q", "-o"]
    result = CliRunner().invoke(app, [*args, str(tmp_path / "p.json")])
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "p.json").read_text())
    assert all(name in record["params"] for name in names)
    assert record["objective"]["positive_only"] is True
    # the file is a metric spec: its parameters give the trained scores
    (m,) = parse_spec(f"blanc:@{tmp_path / 'p.json'}", tokenize="none")
    assert all(getattr(m.blanc, name) == record["params"][name] for name in names)


def test_cli_orange_objective_is_the_python_run(tmp_path, cli):
    # the command is options -> BlancTrainRun -> run_train_blanc: same file from both doors
    from mtpalette.api.train_run import BlancTrainRun, run_train_blanc
    from mtpalette.sources.inputs import CandidateInputs

    paths = mqm_ted("zhen")
    systems = [tmp_path / p.name for p in paths["systems"][:4]]
    for src, dst in zip(paths["systems"][:4], systems, strict=True):
        dst.write_text("\n".join(read_lines(src)[:40]) + "\n", encoding="utf-8")
    refs = [tmp_path / f"ref{i}.txt" for i in range(2)]
    for src, dst in zip(paths["refs"], refs, strict=True):
        dst.write_text("\n".join(read_lines(src)[:40]) + "\n", encoding="utf-8")
    out = tmp_path / "cli.json"
    args = ["train-blanc", "--objective", "orange", "-r", *map(str, refs), "--systems"]
    args += [*map(str, systems), "--max-evals", "8", "--restarts", "1", "-q", "-o", str(out)]
    code, stdout, stderr = cli(*args)
    assert code == 0, stderr
    assert "ORANGE (lower is better)" in stdout
    run = BlancTrainRun(
        objective="orange",
        candidates=CandidateInputs(refs=refs, systems=systems),
        max_evals=8,
        restarts=1,
    )
    py = run_train_blanc(run)
    record = json.loads(out.read_text())
    assert record["params"] == py.params.to_dict()
    assert record["value"] == pytest.approx(py.training.value, rel=1e-12)
    assert record["default_value"] == pytest.approx(py.default_value, rel=1e-12)
    code, _, stderr = cli(*args[:3], "-r", refs[0], *args[6:])
    assert code == 2 and "at least two files" in stderr and "Traceback" not in stderr
