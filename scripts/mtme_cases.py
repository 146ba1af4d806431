"""Extract mt-metrics-eval's own test cases as data, with expected values computed by running
mt-metrics-eval (google-research/mt-metrics-eval at 68a481a; run, never copied).

The inputs are those of ``mt_metrics_eval/stats_test.py``, ``tau_optimization_test.py`` and
``pce_test.py`` (test names recorded in each case). Where those tests only check a property
of a random result (permutation tests, samples), the case fixes numpy's global seed before
the call and records mt-metrics-eval's full result (p-value, delta, number of permutations,
every resampled pair), so mtpalette must reproduce the draws, not just the property. Values
are stored at full precision; ``tests/stats/test_mtme_stats_cases.py`` checks them to 1e-12.

SPA's p-values are float32 matrix products, whose last bits OpenBLAS computes differently
with one thread and with several, and with its AVX-512 (SkylakeX) kernel and its Haswell one;
mtpalette sums them in the order of the AVX-512 kernel on one thread on any machine
(``stats.pairwise.sign_products``), so mt-metrics-eval runs here with
``OPENBLAS_NUM_THREADS=1`` on an AVX-512 CPU with ``OPENBLAS_CORETYPE`` unset (or SkylakeX).

Usage::

    OPENBLAS_NUM_THREADS=1 PYTHONPATH=$MTME_SRC \\
        $MTME_PYTHON scripts/mtme_cases.py
"""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import numpy as np
import scipy.stats

sys.modules.setdefault("apache_beam", types.ModuleType("apache_beam"))
from mt_metrics_eval import pce, stats, tau_optimization  # noqa: E402

MTME_COMMIT = "68a481aea1a787392d55af8f76ac8ef40c5f4664"
OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "mtme_cases"
pearson, kendall = scipy.stats.pearsonr, scipy.stats.kendalltau
FNS = {
    "pearson": pearson,
    "kendall": kendall,
    "spearman": scipy.stats.spearmanr,
    "KendallVariants": stats.KendallVariants,
    "KendallWithTiesOpt": stats.KendallWithTiesOpt,
    "KendallLike": stats.KendallLike,
}


def jsonable(x):
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [jsonable(v) for v in x]
    if isinstance(x, np.ndarray):
        return jsonable(x.tolist())
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating | float):
        return None if np.isnan(x) else float(x)
    return x


def stats_cases() -> list[dict]:
    cases = []

    def add(test, kind, args, expected):
        cases.append({"test": f"stats_test.{test}", "kind": kind, "args": args,
                      "expected": jsonable(expected)})  # fmt: skip

    # CorrelationTest: Correlation(num_sys, gold, metric).<Method>(...)[0]
    g6, m6 = [1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 3, 7]
    for avg in ("none", "sys", "item"):
        c = stats.Correlation(2, g6, m6)
        add("CorrelationTest.testPearson", "avg_corr",
            dict(num_sys=2, gold=g6, metric=m6, fn="pearson", average_by=avg),
            c.Pearson(average_by=avg))  # fmt: skip
        add("CorrelationTest.testPearsonPdp", "pdp",
            dict(num_sys=2, gold=g6, metric=m6, average_by=avg),
            c.Pearson(average_by=avg, pdp=True))  # fmt: skip
        add("CorrelationTest.testKendall", "avg_corr",
            dict(num_sys=2, gold=g6, metric=m6, fn="kendall", average_by=avg),
            c.Kendall(average_by=avg))  # fmt: skip
        add("CorrelationTest.testKendallC", "avg_corr",
            dict(num_sys=2, gold=g6, metric=m6, fn="kendall", average_by=avg,
                 args={"variant": "c"}),
            c.Kendall(average_by=avg, variant="c"))  # fmt: skip
    for n, g, m, avg in [
        (1, [10, None, 100, 150], [2, 1, 4, 3], "none"),
        (2, [10, 11, 100, 150], [2, 1, 4, 3], "item"),
        (2, [10, None, 100, 150], [2, 1, 4, 3], "item"),
    ]:
        c = stats.Correlation(n, g, m)
        add("CorrelationTest.testKendallLike", "avg_corr",
            dict(num_sys=n, gold=g, metric=m, fn="KendallLike", average_by=avg, macro=False,
                 args={"thresh": 1}),
            c.KendallLike(thresh=1, average_by=avg))  # fmt: skip
    g5, m5 = [1, 2, 2, 3, 4], [2, 1, 1.5, 5, 3]
    c = stats.Correlation(1, g5, m5)
    for variant, eps in [("b", 0), ("c", 0), ("23", 0), ("acc23", 0), ("acc23", 2)]:
        add("CorrelationTest.testKendallVariants", "avg_corr",
            dict(num_sys=1, gold=g5, metric=m5, fn="KendallVariants", average_by="none",
                 args={"variant": variant, "epsilon": eps}),
            c.KendallVariants(variant=variant, epsilon=eps))  # fmt: skip
    add("CorrelationTest.testKendallWithTiesOpt", "kwto",
        dict(num_sys=1, gold=g5, metric=m5, variant="acc23", average_by="none"),
        stats.KendallWithTiesOpt(g5, m5, "acc23", 1, "none", 1.0)[:2])  # fmt: skip
    g, m = [1, 2, 3, 2, 3, 4], [2, 2, 4, 1, 3, 5]
    add("CorrelationTest.testPairwiseConfidenceError", "spa",
        dict(num_sys=2, gold=g, metric=m, num_permutations=1000),
        stats.Correlation(2, g, m).PairwiseConfidenceError())  # fmt: skip

    # AverageCorrelationTest: AverageCorrelation(fn, num_sys, average_by, ...)(g, m)
    def avg_case(test, g, m, fn, num_sys=0, average_by="none", rnz=False, macro=True, **kw):
        cf = stats.AverageCorrelation(
            FNS[fn], num_sys, average_by, True, rnz, macro, **kw)  # fmt: skip
        add(f"AverageCorrelationTest.{test}", "avg_corr",
            dict(num_sys=num_sys or 1, gold=g, metric=m, fn=fn, average_by=average_by,
                 replace_nans_with_zeros=rnz, macro=macro, args=kw), cf(g, m))  # fmt: skip

    a, b = [1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 5, 6]
    avg_case("testAverageByNone", a, b, "pearson")
    avg_case("testAverageByNoneNoFiltering", a, b, "pearson")
    avg_case("testMissingEntries", [1, None, 3, 4, 5, 6], b, "pearson")
    b8 = [2, 1, 8, 3, 5, 6]
    avg_case("testAverageBySystem", a, b8, "pearson", 2, "sys")
    avg_case("testAverageByItem", a, b8, "pearson", 2, "item")
    avg_case("testAverageByItemWithMissingEntries", [1, None, 3, 4, 5, 6], b8, "pearson", 2,
             "item")  # fmt: skip
    avg_case("testNaNHandling", a, [2, 2, 2, 4, 5, 6], "pearson", 2, "sys")
    avg_case("testNaNHandlingWithZeros", a, [2, 2, 2, 4, 5, 6], "pearson", 2, "sys", rnz=True)
    avg_case("testMicroAveraging", [1, None, 3, 4, 5, 6], b8, "pearson", 2, "sys", macro=False)
    avg_case("testCorrFcnArgs", a, b8, "kendall", variant="b")
    avg_case("testCorrFcnArgs", a, b8, "kendall", variant="c")
    g = [1, 2, 3, 4, None, 6]
    add("AverageCorrelationTest.testKendallWithTiesOpt", "kwto",
        dict(num_sys=2, gold=g, metric=b8, variant="acc23", average_by="sys"),
        stats.AverageCorrelation(stats.KendallWithTiesOpt, num_sys=2, average_by="sys",
                                 variant="acc23", sample_rate=1.0)(g, b8)[:1]
        + stats.KendallWithTiesOpt(g, b8, "acc23", 2, "sys", 1.0)[1:2])  # fmt: skip
    g = [1, None, 3, 4, None, 6]
    add("AverageCorrelationTest.testPairwiseConfidenceError", "spa",
        dict(num_sys=2, gold=g, metric=b8, num_permutations=1000),
        stats.AverageCorrelation(stats.PairwiseConfidenceError, num_sys=2)(g, b8)[:1])  # fmt: skip
    add("AverageCorrelationTest.testPdpInvalidCorrFcn", "pdp_error",
        dict(num_sys=2, gold=[1, 2, 3, 4], metric=[1, 2, 3, 4], fn="kendall",
             average_by="none"), "ValueError")  # fmt: skip
    g, m = [1, 5, None, 10, 2, 12], [3, 15, 1, 20, 4, 24]
    for avg in ("item", "none"):
        cf = stats.AverageCorrelation(pearson, num_sys=2, average_by=avg, pdp=True)
        add("AverageCorrelationTest.testPdpWithAveragingAndNones", "pdp",
            dict(num_sys=2, gold=g, metric=m, average_by=avg), cf(g, m))  # fmt: skip
    add("AverageCorrelationTest.testPDPLessThanTwoSystems", "pdp_error",
        dict(num_sys=1, gold=g, metric=m, fn="pearson", average_by="item"),
        "ValueError")  # fmt: skip
    cf = stats.AverageCorrelation(pearson, num_sys=2)
    for gg, mm in [
        ([[1, 2, 3, 4]], [[2, 1, 8, 3]]),
        ([[1, 2, None], [4, None, 6]], [[2, 1, 8], [3, 5, 6]]),
    ]:
        add("AverageCorrelationTest.testEnumeratePairwiseDiffs", "pairwise_diffs",
            dict(gold=gg, metric=mm), cf._enumerate_pairwise_diffs(gg, mm))  # fmt: skip
    add("AverageCorrelationTest.testEnumeratePairwiseDiffs", "pairwise_diffs_error",
        dict(gold=[[1], [2], [3], [4]], metric=[[1], [2], [3], [4]]), "ValueError")  # fmt: skip

    # CorrelationFunctionsTest
    gold, metric = [10, 11, 100, 150], [2, 1, 4, 3]
    add("CorrelationFunctionsTest.testKendallLike", "kendall_like",
        dict(gold=gold, metric=metric, thresh=25), stats.KendallLike(gold, metric))  # fmt: skip
    add("CorrelationFunctionsTest.testKendallLike", "kendall_like",
        dict(gold=gold, metric=metric, thresh=1), stats.KendallLike(gold, metric, 1))  # fmt: skip
    gold, metric = [1, 2, 3, 3, 4], [1, 1, 2, 1, 2]
    add("CorrelationFunctionsTest.testAgreement", "agreement",
        dict(gold=gold, metric=metric), stats.Agreement(gold, metric))  # fmt: skip
    gold, metric = [7, 1, 2, 7, 4, 3, 2], [4, 1, 3, 6, 1, 5, 6]
    for variant in ("b", "c"):
        add("CorrelationFunctionsTest.testKendallVariants_b_and_c", "kendall_variants",
            dict(gold=gold, metric=metric, variant=variant, epsilon=0),
            stats.KendallVariants(gold, metric, variant=variant)[0])  # fmt: skip
        add("CorrelationFunctionsTest.testKendallVariants_b_and_c", "kendall_variants",
            dict(gold=gold, metric=metric, variant=variant, epsilon=0),
            kendall(gold, metric, variant=variant)[0])  # fmt: skip
    x, y = [1, 1, 1, 2, 2, 3, 4], [1, 1, 2, 2, 4, 3, 3]
    for variant, eps, test in [
        ("23", 0.0, "testKendallVariants_23"),
        ("acc23", 0.0, "testKendallVariants_23"),
        ("23", 0.1, "testKendallVariantsWithPositiveEpsilon"),
        ("23", 1.0, "testKendallVariantsWithPositiveEpsilon"),
    ]:
        # KendallVariants(x, y): x is "gold", y the metric whose ties epsilon widens
        add(f"CorrelationFunctionsTest.{test}", "kendall_variants",
            dict(gold=x, metric=y, variant=variant, epsilon=eps),
            stats.KendallVariants(x, y, variant=variant, epsilon=eps)[0])  # fmt: skip
    gold, metric = [1, 2, 2, 3, 3, 4], [2, 1, 1.5, 5, 3, 2]
    for n, avg in [(1, "none"), (2, "sys"), (2, "item")]:
        corr, eps, _ = stats.KendallWithTiesOpt(gold, metric, "acc23", n, avg, 1.0)
        add("CorrelationFunctionsTest.testKendallWithTiesOpt", "kwto",
            dict(num_sys=n, gold=gold, metric=metric, variant="acc23", average_by=avg),
            (corr, eps))  # fmt: skip
    vect = [1, 2, 3, 4, 5, 6]
    for avg in ("none", "sys", "item"):
        add("CorrelationFunctionsTest.testReshape", "reshape",
            dict(vector=vect, num_sys=2, average_by=avg),
            list(stats._Reshape(vect, 2, avg).shape))  # fmt: skip
    gold, s1 = [1, 2, None, None, 5, None], [1, 2, 3, 4, 5, 6]
    c1, c2 = stats.Correlation(3, gold, s1), stats.Correlation(3, gold, s1)
    for avg in ("sys", "item", "none"):
        lens, g, a1, a2 = stats._ReshapeAndFilter(c1, c2, avg)
        add("CorrelationFunctionsTest.testReshapeAndFilter", "reshape_and_filter",
            dict(num_sys=3, gold=gold, metric=s1, average_by=avg),
            dict(lens=lens, gold=list(g), metric=list(a1)))  # fmt: skip

    # PermutationSigDiffTest (global seed fixed here; the tests leave it free)
    gold = [1, 2, 3, 4, 5, 5, 7, 8]
    metric1 = [1, 2, 3, 3, 7, 3, 5, 5]
    metric2 = [2, 1, 2, 6, 8, 8, 7, 6]
    corr1, corr2 = stats.Correlation(4, gold, metric1), stats.Correlation(4, gold, metric2)
    psd = stats.PermutationSigDiffParams
    runs = [
        ("testPearsonNoAvgNoEarlyStop", "pearson", "none", 1000, psd(), False, {}),
        ("testPearsonNoAvgWithEarlyStop", "pearson", "none", 1000,
         psd(block_size=50, early_max=0.2), False, {}),
        ("testPearsonSysNoEarlyStop", "pearson", "sys", 1000, psd(), False, {}),
        ("testPearsonSysNoEarlyStopNan0", "pearson", "sys", 1000, psd(), True, {}),
        ("testPearsonItemNoEarlyStop", "pearson", "item", 1000, psd(), False, {}),
        ("testKendallItemWithEarlyStop", "kendall", "item", 10, psd(block_size=10), False, {}),
        ("testKendallItemWithEarlyStop", "KendallVariants", "item", 10, psd(block_size=10),
         False, {}),
        ("testKendallC", "kendall", "item", 10, psd(block_size=10), False, {"variant": "c"}),
        ("testKendallVariants23", "KendallVariants", "item", 10, psd(block_size=10), False,
         {"variant": "23"}),
        ("testKendallVariantsAcc23", "KendallVariants", "item", 10, psd(block_size=10), False,
         {"variant": "acc23"}),
        ("testTauOptimization", "KendallWithTiesOpt", "item", 10, psd(block_size=10), False,
         {"variant": "acc23", "sample_rate": 1.0}),
    ]  # fmt: skip
    for seed, (test, fn, avg, k, params, rnz, kw) in enumerate(runs, 100):
        np.random.seed(seed)
        p, d, used, draws = stats.PermutationSigDiff(
            corr1, corr2, FNS[fn], avg, k, params, rnz, **kw)  # fmt: skip
        add(f"PermutationSigDiffTest.{test}", "perm_sig_diff",
            dict(num_sys=4, gold=gold, metric1=metric1, metric2=metric2, fn=fn, average_by=avg,
                 k=k, block_size=params.block_size, early_min=params.early_min,
                 early_max=params.early_max, replace_nans_with_zeros=rnz, args=kw, seed=seed),
            dict(p=p, delta=d, k=used, draws=draws))  # fmt: skip

    gold = [1, 3, 3, 3, 1, 2, 1, 2]
    metric1 = [2, 4, 6, 6, 2, 6, 3, 7]
    metric2 = [1, 5, 4, 4, 4, 3, 2, 1]
    corr1, corr2 = stats.Correlation(4, gold, metric1), stats.Correlation(4, gold, metric2)
    for seed, (test, variant, e1, e2, k, params) in enumerate(
        [
            ("testKendallVariantsAcc23", "acc23", None, None, 10, psd()),
            ("testKendallVariantsB", "b", 1, 1, 10, psd()),
            # beyond the tests: early stopping, and mt-metrics-eval's check of it only after a
            # permutation that reached delta
            ("testKendallVariantsAcc23", "acc23", None, None, 200, psd(block_size=20)),
            ("testKendallVariantsAcc23", "23", None, None, 100, psd(block_size=10,
                                                                     early_max=0.3)),
        ],
        200,
    ):  # fmt: skip
        np.random.seed(seed)
        p, d, used, draws = stats.PairwisePermutationSigDiff(
            corr1, corr2, variant, "item", k, params, e1, e2, 1.0)  # fmt: skip
        add(f"PairwisePermutationSigDiffTest.{test}", "pairwise_perm_sig_diff",
            dict(num_sys=4, gold=gold, metric1=metric1, metric2=metric2, variant=variant,
                 average_by="item", k=k, block_size=params.block_size,
                 early_min=params.early_min, early_max=params.early_max, epsilon1=e1,
                 epsilon2=e2, seed=seed),
            dict(p=p, delta=d, k=used, draws=draws))  # fmt: skip

    # WilliamsSigDiffTest
    gold = [1, 2, 3, 4, 5]
    m1, m2 = [1.1, 2, 3.1, 4, 5.1], [1.5, 2, 3.1, 4, 5.5]
    res = stats.WilliamsSigDiff(
        stats.Correlation(5, gold, m1), stats.Correlation(5, gold, m2), pearson)  # fmt: skip
    add("WilliamsSigDiffTest.testSigDiff", "williams",
        dict(num_sys=5, gold=gold, metric1=m1, metric2=m2, average_by="none"), res)  # fmt: skip
    gold = [1, None, 3, 4, 5, 6]
    m1, m2 = [1, 2, 3, 3, 7, 3], [2, 1, 2, 6, 8, 8]
    cf = stats.AverageCorrelation(pearson, 3, average_by="item")
    res = stats.WilliamsSigDiff(
        stats.Correlation(3, gold, m1), stats.Correlation(3, gold, m2), cf)  # fmt: skip
    add("WilliamsSigDiffTest.testSigDiffWithAvgAndNones", "williams",
        dict(num_sys=3, gold=gold, metric1=m1, metric2=m2, average_by="item"), res)  # fmt: skip

    # SampleTest (seeds fixed here: the stratified test draws fresh entropy)
    s = stats.Sample(10, 5, "uniform", seed=11)
    add("SampleTest.testUniformSample", "sample",
        dict(total=10, size=5, method="uniform", bin_sizes=None, seed=11, shuffle_seed=None),
        list(s.sample))  # fmt: skip
    for seed, (total, size, bins) in enumerate(
        [(8, 4, [2, 2, 2, 2]), (8, 4, [2, 6]), (8, 3, [1, 7]), (20, 7, [3, 5, 4, 8])], 300
    ):
        np.random.seed(seed + 1000)
        s = stats.Sample(total, size, "stratify", bins, seed)
        add("SampleTest.testStratifiedSample", "sample",
            dict(total=total, size=size, method="stratify", bin_sizes=bins, seed=seed,
                 shuffle_seed=seed + 1000), [int(v) for v in s.sample])  # fmt: skip

    # PairwiseDiffsTest
    for x, eps in [([1.0, 2.0, 2.1, 3.0], 0.2), ([4.0, 2.0, 3.0, 5.0], 1.0)]:
        pd_ = stats.PairwiseDiffs(x, eps)
        add("PairwiseDiffsTest.testPairWiseDiffs", "pairwise_diffs_counts",
            dict(x=x, epsilon=eps),
            dict(ties=int((pd_.x_is_tie.sum() - len(x)) / 2),
                 gt=int((np.triu(pd_.x_diffs) > 0).sum()),
                 lt=int((np.triu(pd_.x_diffs) < 0).sum())))  # fmt: skip
    return cases


def tau_cases() -> list[dict]:
    cases = []
    acc = tau_optimization.TauSufficientStats.acc_23

    def add(test, metric, human, sample_rate=1.0, seed=None):
        if seed is not None:
            np.random.seed(seed)
        r = tau_optimization.tau_optimization(metric, human, acc, sample_rate)
        cases.append({
            "test": f"tau_optimization_test.TauOptimizationTest.{test}", "kind": "tau_opt",
            "args": dict(metric=metric, human=human, sample_rate=sample_rate, seed=seed),
            "expected": jsonable(dict(thresholds=r.thresholds, taus=r.taus,
                                      best_threshold=r.best_threshold, best_tau=r.best_tau)),
        })  # fmt: skip

    add("test_zero_threshold_is_best", [0, 2, 6, 8], [1, 2, 3, 4])
    add("test_nonzero_threshold_is_best", [0, 2, 6, 8], [1, 1, 1, 4])
    add("test_sample_rate_samples_pairs", [0, 2, 6, 14], [1, 2, 3, 4], 0.5, 123)
    metric = [[0, 5, 2, 3, 2], [None, 2, 1, 5, 3], [9, 1, 5, 3, 8], [9, 3, 4, 4, 1],
              [None, None, None, None, None]]  # fmt: skip
    human = [[1, 5, 2, 1, 1], [4, 2, 2, 1, 4], [5, 9, 2, 8, 7], [7, 6, None, 3, 2],
             [None, None, None, None, None]]  # fmt: skip
    add("test_regression_example", metric, human)
    for rate in (0.0, 1.1):
        try:
            tau_optimization.tau_optimization([0, 2, 6, 8], [1, 1, 1, 4], acc, rate)
            outcome = "no error"
        except ValueError:
            outcome = "ValueError"
        cases.append({
            "test": "tau_optimization_test.TauOptimizationTest.test_invalid_sample_rate",
            "kind": "tau_opt_error",
            "args": dict(metric=[0, 2, 6, 8], human=[1, 1, 1, 4], sample_rate=rate),
            "expected": outcome,
        })  # fmt: skip
    return cases


def pce_cases() -> list[dict]:
    cases = []
    for data_seed, n_perm, seed in [(0, 1000, 4), (1, 250, 17)]:
        scores = np.random.default_rng(data_seed).random((10, 100))
        p1 = pce.compute_pairwise_p_values(scores, n_perm, seed)
        p2 = pce.compute_pairwise_p_values(scores, n_perm, seed)
        assert np.array_equal(p1, p2, equal_nan=True)
        cases.append({
            "test": "pce_test.PCETest.test_pairwise_p_values_are_deterministic",
            "kind": "pce_p_values",
            "args": dict(scores=scores.tolist(), num_permutations=n_perm, seed=seed),
            "expected": jsonable(p1),
        })  # fmt: skip
    return cases


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, fn in [("stats_test", stats_cases), ("tau_optimization_test", tau_cases),
                     ("pce_test", pce_cases)]:  # fmt: skip
        doc = {
            "source": f"google-research/mt-metrics-eval@{MTME_COMMIT} "
            f"mt_metrics_eval/{name}.py (inputs); expected values computed by running "
            "mt-metrics-eval with scripts/mtme_cases.py",
            "cases": fn(),
        }
        (OUT / f"{name}.json").write_text(json.dumps(doc, indent=None) + "\n")
        print(name, len(doc["cases"]), "cases")


if __name__ == "__main__":
    main()
