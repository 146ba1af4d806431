"""mt-metrics-eval's own test cases, run against mtpalette through an adapter.

The cases (inputs of ``stats_test.py``, ``tau_optimization_test.py`` and ``pce_test.py`` of
google-research/mt-metrics-eval at 68a481a, expected values from running it) are data in
``tests/data/mtme_cases/``, written by ``scripts/mtme_cases.py``. Every case must hold to
1e-12; random ones (permutation tests, samples) use the seed mt-metrics-eval ran with, so
their p-values, numbers of permutations and resampled correlations must be equal too.

Adapter conventions: mt-metrics-eval's packed vectors become ``(systems, items)`` matrices
with None as NaN; its ``average_by='sys'`` is mtpalette's ``grouping='system'``; a metric
score of None (only in ``tau_optimization``'s regression example, where it drops the entry)
becomes a NaN human score, mtpalette's way of leaving an entry out.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mtpalette.errors import UserInputError
from mtpalette.metaeval.tasks import Task
from mtpalette.stats import pairwise as pw
from mtpalette.stats import permutation as perm
from mtpalette.stats import sampling, sigdiff
from mtpalette.stats.averaging import average_correlation, grouped_rows, williams_averaged
from mtpalette.stats.kendall import kendall, kendall_like_counts
from mtpalette.stats.tie_calibration import tie_calibration, tie_calibration_curve

DATA = Path(__file__).resolve().parents[1] / "data" / "mtme_cases"
TOL = 1e-12
GROUPING = {"none": "none", "sys": "system", "item": "item"}
FN = {
    "pearson": "pearson",
    "kendall": "kendall",
    "spearman": "spearman",
    "KendallLike": "kendall-like",
    "KendallVariants": "kendall-variants",
    "KendallWithTiesOpt": "tie-calibrated",
}


def _cases():
    out = []
    for f in sorted(DATA.glob("*.json")):
        for n, case in enumerate(json.loads(f.read_text())["cases"]):
            out.append(pytest.param(case, id=f"{case['test']}[{n}]"))
    return out


def mat(vector, num_sys: int) -> np.ndarray:
    a = np.array([np.nan if v is None else v for v in vector], dtype=np.float64)
    return a.reshape(num_sys, -1)


def close(actual, expected) -> None:
    a = np.asarray(actual, dtype=np.float64)
    e = np.asarray([np.nan if v is None else v for v in np.ravel(expected)], np.float64)
    np.testing.assert_allclose(a.ravel(), e, rtol=0, atol=TOL, equal_nan=True)


def run_case(kind: str, a: dict, expected):  # noqa: C901 - one branch per kind of case
    if kind == "avg_corr":
        r = average_correlation(
            mat(a["gold"], a["num_sys"]),
            mat(a["metric"], a["num_sys"]),
            FN[a["fn"]],
            grouping=GROUPING[a["average_by"]],
            macro=a.get("macro", True),
            replace_nans_with_zeros=a.get("replace_nans_with_zeros", False),
            **a.get("args", {}),
        )
        close([r.value, r.p_value, r.weight][: len(expected)], expected)
    elif kind == "pdp":
        r, p = pw.pdp(
            mat(a["gold"], a["num_sys"]),
            mat(a["metric"], a["num_sys"]),
            grouping=GROUPING[a["average_by"]],
        )
        close([r, p], expected[:2])
    elif kind == "pdp_error":
        with pytest.raises((ValueError, UserInputError)):
            if a["fn"] != "pearson":  # PDP is a Pearson option only
                Task(level="seg", corr_fcn=a["fn"], corr_fcn_args={"pdp": True})
            pw.pdp(mat(a["gold"], a["num_sys"]), mat(a["metric"], a["num_sys"]),
                   grouping=GROUPING[a["average_by"]])  # fmt: skip
    elif kind == "kwto":
        r = tie_calibration(
            mat(a["gold"], a["num_sys"]),
            mat(a["metric"], a["num_sys"]),
            grouping=GROUPING[a["average_by"]],
            variant=a["variant"],
        )
        close([r.value, r.epsilon][: len(expected)], expected)
    elif kind == "spa":
        v = pw.soft_pairwise_accuracy(
            mat(a["gold"], a["num_sys"]),
            mat(a["metric"], a["num_sys"]),
            n_permutations=a["num_permutations"],
        )
        close([v], expected[:1])
    elif kind == "pairwise_diffs":
        g = np.array([[np.nan if v is None else v for v in row] for row in a["gold"]], float)
        m = np.array(a["metric"], dtype=np.float64)
        close(pw.pairwise_differences(g), expected[0])
        close(pw.pairwise_differences(m), expected[1])
    elif kind == "pairwise_diffs_error":
        with pytest.raises(ValueError):
            pw.pairwise_differences(np.array(a["gold"], dtype=float))
    elif kind == "kendall_like":
        con, dis = kendall_like_counts(a["gold"], a["metric"], threshold=a["thresh"])
        n = con + dis
        close([(con - dis) / n if n else 0, 0, n, con, dis], expected)
    elif kind == "agreement":
        close(pw.agreement(a["gold"], a["metric"]), expected)
    elif kind == "kendall_variants":
        close([kendall(a["gold"], a["metric"], a["variant"], epsilon=a["epsilon"])], [expected])
    elif kind == "reshape":
        shape = grouped_rows(np.reshape(a["vector"], (a["num_sys"], -1)), GROUPING[a["average_by"]])
        assert list(shape.shape) == expected
    elif kind == "reshape_and_filter":
        h = mat(a["gold"], a["num_sys"])
        entries, offsets = sigdiff.filter_order(h, GROUPING[a["average_by"]])
        assert np.diff(offsets).tolist() == expected["lens"]
        close(h.ravel()[entries], expected["gold"])
        close(np.ravel(a["metric"])[entries], expected["metric"])
    elif kind == "perm_sig_diff":
        args = dict(a["args"])
        args.pop("sample_rate", None)
        n = a["num_sys"]
        r = sigdiff.sig_diff(
            mat(a["gold"], n),
            mat(a["metric2"], n),
            mat(a["metric1"], n),
            FN[a["fn"]],
            grouping=GROUPING[a["average_by"]],
            k=a["k"],
            stopping=perm.EarlyStopping(a["block_size"], a["early_min"], a["early_max"]),
            seed=a["seed"],
            replace_nans_with_zeros=a["replace_nans_with_zeros"],
            **args,
        )
        _same_test(r, expected)
    elif kind == "pairwise_perm_sig_diff":
        n = a["num_sys"]
        r = sigdiff.pairs_sig_diff(
            mat(a["gold"], n),
            mat(a["metric2"], n),
            mat(a["metric1"], n),
            variant=a["variant"],
            grouping=GROUPING[a["average_by"]],
            k=a["k"],
            stopping=perm.EarlyStopping(a["block_size"], a["early_min"], a["early_max"]),
            seed=a["seed"],
            epsilon_a=a["epsilon2"],
            epsilon_b=a["epsilon1"],
        )
        _same_test(r, expected)
    elif kind == "williams":
        n = a["num_sys"]
        res = williams_averaged(
            mat(a["gold"], n),
            mat(a["metric1"], n),
            mat(a["metric2"], n),
            grouping=GROUPING[a["average_by"]],
        )
        close(res, expected)
    elif kind == "sample":
        s = sampling.sample_items(
            a["total"], a["size"], a["method"], bin_sizes=a["bin_sizes"], seed=a["seed"],
            shuffle_seed=a["shuffle_seed"],
        )  # fmt: skip
        assert s.indices.tolist() == expected
        if a["method"] == "uniform":
            assert s.select(np.arange(a["total"])).tolist() == expected
    elif kind == "pairwise_diffs_counts":
        x = np.asarray(a["x"], dtype=float)
        layout = perm.pair_layout(np.array([0, x.size]))
        # a strictly increasing "gold" turns the classes into the metric's sign: concordant
        # = x[j] > x[i], discordant = x[j] < x[i], metric tie = |x[j] - x[i]| <= epsilon
        cls = perm.pair_classes(layout, np.arange(x.size, dtype=float), x, a["epsilon"])
        assert int((cls == 2).sum()) == expected["ties"]
        assert int((cls == 0).sum()) == expected["gt"]
        assert int((cls == 1).sum()) == expected["lt"]
    elif kind == "tau_opt":
        metric = np.atleast_2d(np.array(a["metric"], dtype=object))
        human = np.atleast_2d(np.array(a["human"], dtype=object))
        h = np.where((human == None) | (metric == None), np.nan, human).astype(float)  # noqa: E711
        m = np.where(metric == None, 0.0, metric).astype(float)  # noqa: E711
        c = tie_calibration_curve(
            h, m, grouping="system", sample_rate=a["sample_rate"], seed=a["seed"]
        )
        close(c.thresholds, expected["thresholds"])
        close(c.values, expected["taus"])
        close([c.best_threshold, c.best_value], [expected["best_threshold"], expected["best_tau"]])
    elif kind == "tau_opt_error":
        assert expected == "ValueError"
        with pytest.raises(ValueError):
            tie_calibration_curve(a["human"], a["metric"], sample_rate=a["sample_rate"])
    elif kind == "pce_p_values":
        p = pw.pairwise_p_values(
            np.array(a["scores"]), n_permutations=a["num_permutations"], seed=a["seed"]
        )
        close(p, np.ravel(expected))
    else:
        raise AssertionError(f"unsupported case kind {kind!r}")


def _same_test(r: perm.PermutationTest, expected: dict) -> None:
    close([r.delta], [expected["delta"]])
    assert r.n_used == expected["k"]
    close([r.p_value], [expected["p"]])
    close(r.draws, np.ravel(expected["draws"]))


@pytest.mark.parametrize("case", _cases())
def test_mtme_case(case):
    run_case(case["kind"], case["args"], case["expected"])


def test_every_test_of_mtme_is_covered():
    tests = {json.loads(f.read_text())["cases"][0]["test"].split(".")[0] for f in DATA.glob("*")}
    assert tests == {"stats_test", "tau_optimization_test", "pce_test"}
    names = {c.values[0]["test"] for c in _cases()}
    assert len(names) >= 50  # every test method of the three files, see scripts/mtme_cases.py
