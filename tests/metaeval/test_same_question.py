"""One engine for one question (issue 52): the same question asked through ``correlate`` (the
command's run and the Python API) and through a ``wmt`` task gives the same value, the same
p-value for every pair the clusters compare, and the same clusters.

A question is a statistic at a level with a grouping, on one language pair of the bundled
mt-metrics-eval folder, over stored and computed metrics. ``wmt`` runs it as a task with
independent draws (keyed by the question and the two metrics, so any command in any order
draws the same permutations) and correlate's p-value convention, or correlate with
mt-metrics-eval's (``--p-convention mtme``).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from mtpalette.api import JudgedInputs, load_wmt
from mtpalette.api.correlation_run import CorrelationRun, run_correlation
from mtpalette.metaeval.task_sets import TaskSet
from mtpalette.metaeval.tasks import Task
from mtpalette.stats import catalogue

FOLDER = Path(str(resources.files("mtpalette") / "data" / "mtme" / "wmt21.tedtalks"))
SEED, K = 7, 40
STORED = {"seg": ["chrF", "sentBLEU"], "sys": ["BLEU", "chrF", "sentBLEU"]}
COMPUTED = ["chrf"]
#: (level, statistic, grouping): 12 segment-level and 4 system-level questions, each asked on
#: two language pairs (32 questions), each with two p-value conventions for correlate's side
QUESTIONS = [("seg", s, g) for s in ("pearson", "spearman", "kendall", "acc-eq")
             for g in ("none", "item", "system")] + [
    ("sys", s, "none") for s in ("pearson", "spearman", "kendall", "pairwise-accuracy")
]  # fmt: skip
AVG_BY = {"none": "none", "item": "item", "system": "sys"}


@pytest.fixture(scope="module")
def wmt_data():
    return load_wmt(FOLDER, ["en-de", "zh-en"], mtme_metrics=STORED["sys"], metrics=COMPUTED)


def _wmt(data, lp, level, statistic, grouping, convention):
    corr_fcn, args = catalogue.task_of(statistic)
    task = Task("wmt21.tedtalks", lp, level=level, corr_fcn=corr_fcn, corr_fcn_args=args,
                avg_by=AVG_BY[grouping], k=K, human=False)  # fmt: skip
    [res] = TaskSet([task]).run(data.data, seed=SEED, draws="independent",
                                plus_one=convention == "plus-one").results  # fmt: skip
    p = {(res.metrics[i], res.metrics[j]): float(res.matrix[i, j])
         for i in range(len(res.metrics)) for j in range(i + 1, len(res.metrics))}  # fmt: skip
    return dict(zip(res.metrics, res.corrs, strict=True)), p, dict(
        zip(res.metrics, res.ranks, strict=True)
    )


def _correlate(lp, level, statistic, grouping, convention):
    stored = STORED["seg"] if level == "seg" else STORED["sys"]
    run = CorrelationRun(
        inputs=JudgedInputs(mtme=FOLDER, lp=lp, mtme_metrics=stored), metrics=COMPUTED,
        statistics=[statistic], grouping=grouping,
        level="segment" if level == "seg" else "system", bootstrap=0, seed=SEED,
        permutations=K, p_convention=convention, baselines=False,
    )  # fmt: skip
    [table] = run_correlation(run, progress=False).tables
    values = {r.metric: r.ci.value for r in table.rows}
    p = {(c["better"], c["worse"]): c["p_value"] for c in table.comparisons}
    return values, p, {r.metric: r.cluster for r in table.rows}


@pytest.mark.parametrize("convention", ["plus-one", "mtme"])
@pytest.mark.parametrize("lp", ["en-de", "zh-en"])
@pytest.mark.parametrize(("level", "statistic", "grouping"), QUESTIONS)
def test_correlate_and_wmt_answer_alike(wmt_data, lp, level, statistic, grouping, convention):
    if level == "sys" and convention == "mtme" and statistic != "pearson":
        pytest.skip("one convention suffices for the other system-level statistics")
    values, p, clusters = _correlate(lp, level, statistic, grouping, convention)
    w_values, w_p, w_clusters = _wmt(wmt_data, lp, level, statistic, grouping, convention)
    assert set(values) == set(w_values)
    for m, v in values.items():
        assert v == pytest.approx(w_values[m], abs=1e-12), m
    assert p, "the clusters compared no pair"
    for pair, value in p.items():
        assert value == w_p[pair], pair  # the same draws, the same count: equal to the digit
    assert clusters == w_clusters
