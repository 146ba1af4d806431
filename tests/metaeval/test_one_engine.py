"""One meta-evaluation engine: the same statistic asked through ``correlate``, ``wmt`` and the
Python API gives the same number, to the last digit; and every statistic equals
mt-metrics-eval's own value on a real folder (``tests/data/mtme_folder``, whose golden values
``scripts/mtme_catalogue_golden.py`` computed by running MTME 68a481a).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from real_data import mtme_folder

from mtpalette.api import (
    CorrelationRun,
    JudgedInputs,
    Task,
    TaskSet,
    WmtRun,
    load_wmt,
    run_correlation,
    run_wmt,
)
from mtpalette.metaeval.tasks import LanguagePairData
from mtpalette.stats import catalogue

DATA = Path(__file__).resolve().parents[1] / "data" / "mtme_folder"
FOLDER = mtme_folder()
GOLDEN = json.loads((DATA / "catalogue_golden.json").read_text(encoding="utf-8"))
LPS = ["en-de", "zh-en"]
STORED = ["BLEU", "chrF", "sentBLEU", "mtpalette-rougeL"]


@pytest.fixture(scope="module")
def loaded():
    return load_wmt(FOLDER, LPS, mtme_metrics=STORED).data


def _in_order(lp: LanguagePairData, order: list[str]) -> LanguagePairData:
    """The same data with its systems in ``order`` first (SPA's one-sided p-values depend
    on the order of the systems; MTME's comes from iterating a set)."""
    rows = [lp.systems.index(s) for s in order] + [
        k for k, s in enumerate(lp.systems) if s not in order
    ]

    def take(levels):
        return {lv: np.asarray(x)[rows] for lv, x in levels.items()}

    return LanguagePairData(
        [lp.systems[k] for k in rows],
        {n: take(v) for n, v in lp.human.items()},
        {n: take(v) for n, v in lp.metrics.items()},
        lp.std_gold,
        lp.origins,
        lp.references,
    )


def _golden_cases():
    for lp, d in GOLDEN["lps"].items():
        for v in d["values"]:
            yield pytest.param(v, id=f"{lp}-{v['level']}-{v['corr_fcn']}-{v['avg_by']}-"
                                     f"{json.dumps(v['corr_fcn_args'])}-{v['metric']}")  # fmt: skip
    for v in GOLDEN["pooled_accuracy"]:
        yield pytest.param(v, id=f"pooled-accuracy-{v['metric']}")


@pytest.mark.parametrize("case", list(_golden_cases()))
def test_every_statistic_equals_mtme(loaded, case):
    """Every corr_fcn x level x avg_by of MTME's tasks, stored metrics included (system
    Pearson of stored BLEU from its .sys.score, SPA from the segments): MTME's value to 1e-9."""
    args = dict(case["corr_fcn_args"])
    task = Task("wmt21.tedtalks", case["lp"], level=case["level"], corr_fcn=case["corr_fcn"],
                avg_by=case["avg_by"], corr_fcn_args=args, k=0, human=False)  # fmt: skip
    data = dict(loaded)
    if case["corr_fcn"] == "pce":
        order = GOLDEN["lps"][case["lp"]]["mtme_order_seg"]
        data = {case["lp"]: _in_order(loaded[case["lp"]], order)}
    res = task.run(data)
    assert res.corr(case["metric"]) == pytest.approx(case["value"], abs=1e-9)


def test_system_vectors_are_the_stored_ones(loaded):
    """System level reads the folder's .sys.score files (human and metrics), not means of
    the segments: MTME's vectors, as its golden file records them."""
    for lp in LPS:
        g = GOLDEN["lps"][lp]
        h, metrics, systems = loaded[lp].selection("sys", None, include_refs=False)
        assert systems == g["systems"]
        assert h.tolist() == [g["human_sys"][s] for s in systems]
        for name, by_system in g["metric_sys"].items():
            assert metrics[name].tolist() == [by_system[s] for s in systems]
        origins = loaded[lp].origins
        assert origins["human:mqm"]["sys"] == "stored mqm.sys.score"
        assert origins["BLEU"]["sys"].startswith("stored BLEU-ref")


# ------------------------------------------------------------------ one number, three doors
#: (mtpalette statistic, level, grouping) -> MTME task (corr_fcn, avg_by, corr_fcn_args)
DOORS = {
    ("pearson", "system", "none"): ("pearson", "none", {}),
    ("spearman", "system", "none"): ("spearman", "none", {}),
    ("kendall", "system", "none"): ("kendall", "none", {}),
    ("pairwise-accuracy", "system", "none"): ("accuracy", "none", {}),
    ("acc-eq", "system", "none"): ("KendallWithTiesOpt", "none", {"sample_rate": 1.0}),
    ("spa", "system", "none"): ("pce", "none", {}),
    ("pdp", "system", "none"): ("pearson", "none", {"pdp": True}),
    ("pdp", "segment", "item"): ("pearson", "item", {"pdp": True}),
    ("pearson", "segment", "none"): ("pearson", "none", {}),
    ("pearson", "segment", "item"): ("pearson", "item", {}),
    ("pearson", "segment", "system"): ("pearson", "sys", {}),
    ("spearman", "segment", "item"): ("spearman", "item", {}),
    ("kendall", "segment", "none"): ("kendall", "none", {}),
    ("kendall", "segment", "item"): ("kendall", "item", {}),
    ("kendall-like", "segment", "none"): ("KendallLike", "none", {}),
    ("acc-eq", "segment", "item"): ("KendallWithTiesOpt", "item", {"sample_rate": 1.0}),
    ("acc-eq", "segment", "none"): ("KendallWithTiesOpt", "none", {"sample_rate": 1.0}),
    ("tau-eq", "segment", "system"): (
        "KendallWithTiesOpt", "sys", {"sample_rate": 1.0, "variant": "23"}
    ),
}  # fmt: skip


@pytest.fixture(scope="module")
def correlate_tables():
    """``correlate`` on the folder: every statistic of DOORS, each table once."""
    out = {}
    for stat, level, grouping in DOORS:
        run = CorrelationRun(
            JudgedInputs(mtme=FOLDER, lp="zh-en", mtme_metrics=STORED),
            statistics=[stat], level=level, grouping=grouping, bootstrap=0, test="none",
            baselines=False, threshold=1.0 if stat == "kendall-like" else 25.0,
        )  # fmt: skip
        [table] = run_correlation(run).tables
        out[(stat, level, grouping)] = {r.metric: r.value for r in table.rows}
    return out


@pytest.fixture(scope="module")
def wmt_tasks(tmp_path_factory):
    """``wmt`` on the folder with one task per entry of DOORS (from a tasks file)."""
    records = []
    for (_, level, _), (fcn, avg_by, args) in DOORS.items():
        args = dict(args, thresh=1.0) if fcn == "KendallLike" else dict(args)
        records.append({"lang": "zh-en", "level": "sys" if level == "system" else "seg",
                        "corr_fcn": fcn, "avg_by": avg_by, "corr_fcn_args": args, "k": 0,
                        "human": False})  # fmt: skip
    path = tmp_path_factory.mktemp("tasks") / "tasks.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    res = run_wmt(WmtRun(FOLDER, task_set=None, tasks=path, mtme_metrics=STORED)).result
    return {key: dict(zip(r.metrics, r.corrs, strict=True))
            for key, r in zip(DOORS, res.results, strict=True)}  # fmt: skip


@pytest.mark.parametrize("key", list(DOORS), ids=["-".join(k) for k in DOORS])
def test_same_number_through_correlate_wmt_and_python(key, correlate_tables, wmt_tasks, loaded):
    fcn, avg_by, args = DOORS[key]
    args = dict(args, thresh=1.0) if fcn == "KendallLike" else dict(args)
    level = "sys" if key[1] == "system" else "seg"
    api = Task("wmt21.tedtalks", "zh-en", level=level, corr_fcn=fcn, avg_by=avg_by,
               corr_fcn_args=args, k=0, human=False).run(loaded)  # fmt: skip
    from_api = dict(zip(api.metrics, api.corrs, strict=True))
    from_correlate = correlate_tables[key]
    assert set(from_correlate) == set(from_api) == set(wmt_tasks[key])
    assert from_correlate == from_api == wmt_tasks[key]  # to the last digit
    if key == ("pearson", "system", "none"):  # the stored .sys.score: MTME's 0.2863
        assert from_correlate["BLEU"] == pytest.approx(0.2862803201722801, abs=1e-12)


def test_correlate_records_how_system_scores_were_made(tmp_path):
    run = CorrelationRun(
        JudgedInputs(mtme=FOLDER, lp="zh-en", mtme_metrics=["BLEU", "chrF"]), metrics=["chrf"],
        statistics=["pearson"], level="system", bootstrap=0, test="none",
    )  # fmt: skip
    [table] = run_correlation(run).tables
    origins = table.info["system_scores"]["origins"]
    assert origins["human"] == "stored mqm.sys.score"
    assert origins["BLEU"] == "stored BLEU-refB.sys.score"
    assert origins["chrf"] == "corpus score of all segments (mtpalette)"
    assert [r.metric for r in table.rows if r.metric == "bleus:4"] == []  # nobody asked
    # a stored chrF and mtpalette's chrF of the same texts: the same system correlation
    values = {r.metric: r.value for r in table.rows}
    assert values["chrf"] == pytest.approx(values["chrF"], abs=1e-9)


# ------------------------------------------------------------------------- chance levels
def test_chance_of_pairwise_accuracy_is_one_half_for_distinct_systems():
    assert catalogue.chance("pairwise-accuracy", [0.3, 0.1, 0.2, 0.5, 0.4]).value == 0.5


def test_chance_with_human_ties_is_exact():
    # 6 pairs, 1 tied by the humans: a random metric (never tying) agrees on half of 5
    assert catalogue.chance("pairwise-accuracy", [1.0, 1.0, 2.0, 3.0]).value == 5 / 12


@pytest.mark.parametrize("grouping", ["none", "item", "system"])
def test_chance_at_segment_level_per_grouping(grouping):
    h = np.array([[1.0, 2.0, 2.0], [3.0, 1.0, np.nan], [2.0, 2.0, 5.0]])
    got = catalogue.chance("pairwise-accuracy", h, grouping=grouping).value
    if grouping == "none":  # 8 rated entries, 28 pairs, 7 tied by the humans (1 + 6)
        expected = (1 - 7 / 28) / 2
    elif grouping == "item":  # items: 3 pairs (0 tied), 3 pairs (1 tied), 1 pair (0 tied)
        expected = np.mean([1 / 2, (1 - 1 / 3) / 2, 1 / 2])
    else:  # systems: 3 pairs (1 tied), 1 pair, 3 pairs (1 tied)
        expected = np.mean([(1 - 1 / 3) / 2, 1 / 2, (1 - 1 / 3) / 2])
    assert got == pytest.approx(expected, abs=1e-15)


def test_correlate_chance_at_system_level_is_computed_on_system_scores():
    run = CorrelationRun(
        JudgedInputs(mtme=FOLDER, lp="zh-en", mtme_metrics=["BLEU"]),
        statistics=["pairwise-accuracy"], level="system", bootstrap=0, test="none",
    )  # fmt: skip
    [table] = run_correlation(run).tables
    assert table.info["chance"]["chance"] == 0.5  # 12 systems, distinct human scores


def test_spa_chance_uses_the_segments():
    run = CorrelationRun(
        JudgedInputs(mtme=FOLDER, lp="zh-en", mtme_metrics=["chrF"]),
        statistics=["spa"], level="system", bootstrap=0, test="none",
    )  # fmt: skip
    [table] = run_correlation(run).tables
    h, _, _ = (
        load_wmt(FOLDER, ["zh-en"], mtme_metrics=[])
        .data["zh-en"]
        .selection("seg", None, include_refs=False)
    )
    assert table.info["chance"]["chance"] == catalogue.chance("spa", h).value
    assert 0.5 <= table.info["chance"]["chance"] <= 0.75


# ----------------------------------------------------------------------- the test folder
@pytest.mark.parametrize("lp", LPS)
def test_folder_mqm_scores_are_higher_is_better(loaded, lp):
    """MTME folders store MQM negated (higher = better): the scores correlate positively with
    minus the translation length and with chrF. Penalties would correlate negatively."""
    from mtpalette.io.mtme import read_mtme

    evs = read_mtme(FOLDER, lp)
    assert not [n for n in evs.notes if "penalties" in n]
    h = evs.human_matrix()
    ok = ~np.isnan(h)
    length = np.array([[len((t or "").split()) for t in row] for row in evs.texts()], float)
    chrf = evs.metric_matrix("chrF") if "chrF" in evs.metrics else None
    assert np.corrcoef(h[ok], -length[ok])[0, 1] > 0
    h_ld, m_ld, _ = loaded[lp].selection("seg", None, include_refs=False)
    assert np.corrcoef(h_ld[~np.isnan(h_ld)], m_ld["chrF"][~np.isnan(h_ld)])[0, 1] > 0
    assert chrf is None or chrf.shape == h.shape
    assert np.nanmax(h) <= 0


def test_penalties_are_flagged(tmp_path):
    import shutil

    from mtpalette.io.mtme import read_mtme

    copy = tmp_path / "wmt21.tedtalks"
    shutil.copytree(FOLDER, copy)
    seg = copy / "human-scores" / "zh-en.mqm.seg.score"
    flipped = []
    for line in seg.read_text(encoding="utf-8").splitlines():
        system, value = line.split("\t")
        flipped.append(f"{system}\t{value if value == 'None' else -float(value)!r}")
    seg.write_text("\n".join(flipped) + "\n", encoding="utf-8")
    assert any("penalties" in n for n in read_mtme(copy, "zh-en").notes)


# ------------------------------------------------------- mt-metrics-eval's own task checks
def test_task_set_from_attribute_combinations():  # MTME tasks_test testConstruction
    combs = {"lang": ["en-de", "en-ru", "zh-en"],
             "domain": [None, "conversation", "ecommerce", "news", "social"],
             "level": ["sys", "seg"]}  # fmt: skip
    ts = TaskSet.from_combinations(combs, k=10)
    assert len(ts) == 3 * 5 * 2
    assert sum(t.lang == "en-de" for t in ts) == 10
    assert sum(t.k == 10 for t in ts) == 30
    assert len(TaskSet.from_combinations()) == 0


def test_task_sets_add():  # MTME tasks_test testAdd
    a = TaskSet.from_combinations({"lang": ["en-de"]})
    b = TaskSet.from_combinations({"lang": ["en-ru"]})
    c = TaskSet.from_combinations({"lang": ["zh-en"]})
    total = a + b + c
    assert total.tasks == TaskSet.from_combinations({"lang": ["en-de", "en-ru", "zh-en"]}).tasks
    assert total.weights == [1 / 3] * 3


def test_task_set_run_equals_single_tasks(loaded):  # MTME tasks_test testRun
    ts = TaskSet.from_combinations(
        {"corr_fcn": ["pearson", "accuracy"]}, lang="zh-en", k=1, human=False
    )
    res = ts.run(loaded, seed=1)
    assert len(res.results) == 2
    for r, fcn in zip(res.results, ["pearson", "accuracy"], strict=True):
        alone = Task(lang="zh-en", corr_fcn=fcn, k=1, human=False).run(loaded, seed=1)
        assert r.metrics == alone.metrics


def test_unknown_or_doubled_attributes_are_refused():
    from mtpalette.errors import UserInputError

    with pytest.raises(UserInputError, match="unknown task attribute"):
        TaskSet.from_combinations({"langs": ["en-de"]})
    with pytest.raises(UserInputError, match="given twice"):
        TaskSet.from_combinations({"k": [1, 2]}, k=3)


def test_rating_round_trip_and_write_back(tmp_path):  # MTME ratings_test
    from mtpalette.io.mtme_files import ErrorSpan, Rating, read_rating_file, write_rating_file

    error = ErrorSpan(1, 4, "cat", None, 5, True)
    assert error.to_dict() == {"start": 1, "end": 4, "category": "cat", "severity": None,
                               "score": 5, "is_source_error": True}  # fmt: skip
    assert ErrorSpan.from_dict(error.to_dict()) == error
    rating = Rating((error, ErrorSpan(0, 1)), "rater1")
    assert rating.to_dict()["errors"][1] == {"start": 0, "end": 1, "category": None,
                                             "severity": None, "score": None,
                                             "is_source_error": False}  # fmt: skip
    assert Rating.from_dict(rating.to_dict(), "rater1") == rating
    path = write_rating_file(tmp_path / "zh-en.mqm.seg.rating", {"B": [None], "A": [rating]})
    assert read_rating_file(path, "mqm") == {"A": [rating], "B": [None]}
    assert path.read_text(encoding="utf-8").splitlines()[0].startswith("A\t{")


# ------------------------------------------------------------------ the global ranking
def test_metrics_are_matched_across_pairs_by_base_name(loaded):
    """BLEU uses refA in en-de and refB in zh-en: one metric of the ranking."""
    from mtpalette.api import task_set

    res = task_set("wmt24", lps=LPS, k=0).run(loaded, seed=4)
    assert set(res.average_corrs()) == {"chrF", "sentBLEU", "mtpalette-rougeL"}
    assert res.partial_metrics() == {}  # BLEU (system scores only) is in none of its tasks
    res = task_set("wmt23", lps=LPS, k=0).run(loaded, seed=4)
    assert set(res.average_corrs()) == {"chrF", "sentBLEU", "mtpalette-rougeL"}
    assert res.partial_metrics() == {"BLEU": [1, 2, 5]}  # the system-level tasks only
    assert json.loads(res.to_json())["left_out_of_ranking"] == {"BLEU": [1, 2, 5]}


def test_no_common_metric_is_refused(loaded):
    from mtpalette.errors import UserInputError

    renamed = dict(loaded)
    zhen = loaded["zh-en"]
    renamed["zh-en"] = LanguagePairData(
        zhen.systems, zhen.human, {f"{k}-refB": v for k, v in zhen.metrics.items()},
        zhen.std_gold, zhen.origins, zhen.references,
    )  # fmt: skip
    ts = TaskSet.from_combinations({"lang": LPS}, level="sys", k=0, human=False)
    res = ts.run(renamed, seed=1)
    with pytest.raises(UserInputError, match="no metric is in every task"):
        res.average_corrs()
