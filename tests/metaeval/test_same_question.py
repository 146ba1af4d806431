"""One engine for one question (issue 52): the same question asked through ``correlate`` (the
command's run and the Python API) and through a ``wmt`` task gives the same value, the same
p-value for every pair the clusters compare, and the same clusters.

A question is a statistic at a level with a grouping, on one language pair of the bundled
mt-metrics-eval folder, over stored and computed metrics (the Python API, which takes texts
and human scores, over the computed ones). ``wmt`` runs it as a task with
independent draws (keyed by the question and the two metrics, so any command in any order
draws the same permutations) and correlate's p-value convention, or correlate with
mt-metrics-eval's (``--p-convention mtme``).
"""

from __future__ import annotations

import numpy as np
import pytest
from real_data import mtme_folder

from mtpalette.api import JudgedInputs, correlate, load_wmt
from mtpalette.api.correlation_run import CorrelationRun, run_correlation
from mtpalette.io.mtme import read_mtme
from mtpalette.metaeval.task_sets import TaskSet
from mtpalette.metaeval.tasks import Task
from mtpalette.stats import catalogue

FOLDER = mtme_folder()
SEED, K = 7, 40
STORED = {"seg": ["chrF", "sentBLEU"], "sys": ["BLEU", "chrF", "sentBLEU"]}
COMPUTED = ["chrf", "bleus:1"]
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


def _api(lp, level, statistic, grouping, convention):
    """The question through :func:`mtpalette.correlate`: the folder's texts and standard
    human scores of the systems a task keeps (rated, not human translations)."""
    mset = read_mtme(FOLDER, lp)
    human = mset.human_matrix("seg")
    keep = [k for k, s in enumerate(mset.systems)
            if s not in mset.human_systems and not np.isnan(human[k]).all()]  # fmt: skip
    systems = {mset.systems[k]: [t or "" for t in mset.outputs[mset.systems[k]]] for k in keep}
    scores = {mset.systems[k]: [None if np.isnan(v) else float(v) for v in human[k]]
              for k in keep}  # fmt: skip
    table = correlate(
        systems, [[t or "" for t in mset.reference()]], scores, COMPUTED, statistic=statistic,
        level="segment" if level == "seg" else "system", grouping=grouping, n_resamples=0,
        seed=SEED, n_permutations=K, p_convention=convention, lang=lp, baselines=False,
        progress=False,
    )  # fmt: skip
    p = {(c["better"], c["worse"]): c["p_value"] for c in table.comparisons}
    return {r.metric: r.ci.value for r in table.rows}, p


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
    if level == "sys":
        return  # the API's system level resamples the texts' corpus scores, as correlate's does
    api_values, api_p = _api(lp, level, statistic, grouping, convention)
    assert set(api_values) == set(COMPUTED)
    for m, v in api_values.items():
        assert v == pytest.approx(w_values[m], abs=1e-12), m
    for pair, value in api_p.items():
        assert value == w_p[pair], pair


def test_a_metric_has_one_name_at_every_level():
    """``-m chrf++`` is one metric, ``chrf:w=2``, at segment and system level (the system
    level refused it when the folder's system vectors kept the name typed), and its system
    value is the wmt task's for ``chrf++``."""
    run = CorrelationRun(
        inputs=JudgedInputs(mtme=FOLDER, lp="zh-en"), metrics=["chrf", "chrf++"],
        level="segment,system", bootstrap=0, permutations=0, test="none", baselines=False,
    )  # fmt: skip
    tables = run_correlation(run, progress=False).tables
    assert [sorted(r.metric for r in t.rows) for t in tables] == [["chrf", "chrf:w=2"]] * 2
    data = load_wmt(FOLDER, ["zh-en"], metrics=["chrf++"])
    task = Task("wmt21.tedtalks", "zh-en", level="sys", corr_fcn="pearson", k=0, human=False)
    [res] = TaskSet([task]).run(data.data).results
    system = next(t for t in tables if t.level == "system")
    want = dict(zip(res.metrics, res.corrs, strict=True))["chrf++"]
    assert system.row("chrf:w=2").value == pytest.approx(want, abs=1e-12)
