"""``mtpalette wmt``: a WMT task set on an mt-metrics-eval folder, stored and computed metrics
in one run (the task engine itself is checked against mt-metrics-eval in
tests/metaeval/test_tasks.py)."""

from __future__ import annotations

import json

import pytest
from real_data import mtme_folder

FOLDER = mtme_folder()


def test_stored_and_computed_metrics_in_one_task_set(cli, tmp_path):
    out = tmp_path / "wmt.json"
    args = ["wmt", "--mtme", FOLDER, "--task-set", "wmt24", "--lp", "en-de,zh-en", "-m", "chrf"]
    args += ["--mtme-metrics", "chrF", "sentBLEU", "-k", "20", "--json", out]
    code, stdout, err = cli(*args)
    assert code == 0, err
    result = json.loads(out.read_text())
    assert [t["task"]["corr_fcn"] for t in result["tasks"]] == ["pce", "KendallWithTiesOpt"] * 2
    for task in result["tasks"]:
        corrs = dict(zip(task["metrics"], task["corrs"], strict=True))
        # mtpalette's chrF of the texts and sacrebleu's stored chrF (against each pair's
        # standard reference, named by its base name as mt-metrics-eval's tasks do): equal
        assert corrs["chrf"] == pytest.approx(corrs["chrF"], abs=1e-9)
    ranking = result["global_ranking"]
    common = set.intersection(*(set(t["metrics"]) for t in result["tasks"]))
    assert set(ranking["metrics"]) == common == {"chrf", "chrF", "sentBLEU"}
    assert ranking["ranks"][0] == 1 and len(ranking["p_values"]) == len(common)
    assert "Global ranking" in stdout


def test_a_task_file_with_mtme_field_names(cli, tmp_path):
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps([
        {"lang": "zh-en", "level": "seg", "corr_fcn": "pearson", "avg_by": "item", "weight": 2},
        {"lang": "zh-en", "level": "sys", "corr_fcn": "pearson", "weight": 1},
    ]))  # fmt: skip
    code, stdout, err = cli("wmt", "--mtme", FOLDER, "--tasks", tasks,
                            "--mtme-metrics", "chrF", "sentBLEU")  # fmt: skip
    assert code == 0, err
    assert "zh-en seg pearson (avg_by item, k 1000) (weight 0.667)" in stdout


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--task-set", "wmt99"], "unknown task set"),
        (["--task-set", "wmt24", "--tasks", "t.json"], "one of --task-set"),
        (["--lp", "xx-yy"], "xx-yy"),
        (["-k", "-1"], "-k"),
        (["--backend", "processes"], "--draws independent"),
        (["--draws", "independent", "--backend", "processes", "--workers", "0"], "--workers"),
    ],
)
def test_bad_requests_are_refused(cli, extra, message):
    code, _, err = cli("wmt", "--mtme", FOLDER, "-m", "chrf", *extra)
    assert code == 2 and message in err and "Traceback" not in err


def test_independent_draws_over_two_processes_equal_the_run_in_process(cli, tmp_path):
    """Each metric pair's test has its own generator: the tables, p-values and global ranking
    do not depend on where the tests ran."""
    args = ["wmt", "--mtme", FOLDER, "--task-set", "wmt24", "--lp", "en-de,zh-en", "-k", "30",
            "--mtme-metrics", "chrF", "sentBLEU", "mtpalette-rougeL",
            "--draws", "independent"]  # fmt: skip
    runs = {}
    backends = {"inproc": [], "processes": ["--backend", "processes", "--workers", "2"]}
    for name, extra in backends.items():
        out = tmp_path / f"{name}.json"
        code, _, err = cli(*args, *extra, "--json", out)
        assert code == 0, err
        runs[name] = json.loads(out.read_text())
    assert runs["processes"] == runs["inproc"]
    assert len(runs["inproc"]["global_ranking"]["metrics"]) == 3


def test_human_translations_ranked_as_systems_are_named(cli, tmp_path):
    tasks = tmp_path / "t.json"
    records = [{"lang": "zh-en", "level": "sys", "corr_fcn": "pearson", "human": human,
                "k": 0} for human in (True, False)]  # fmt: skip
    tasks.write_text(json.dumps({"tasks": records}))
    out = tmp_path / "w.json"
    code, stdout, err = cli("wmt", "--mtme", FOLDER, "--lp", "zh-en", "--tasks", tasks,
                            "--mtme-metrics", "BLEU", "--json", out)  # fmt: skip
    assert code == 0, err
    assert ("zh-en: the tasks with human=True rank the human translation(s) refA as systems"
            in stdout)  # fmt: skip
    one, two = json.loads(out.read_text())["tasks"]
    assert one["task"]["human"] and not two["task"]["human"]
