"""ROSE training: the SVM losses on hand-solved problems, kernel models scored by hand and
through ``rose:@``, function-word lists, and ``train-rose --rankings`` on a tiny WMT12 file."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest
from real_data import mqm_ted_args
from typer.testing import CliRunner

from mtpalette import sentence_scores
from mtpalette.cli.app import app
from mtpalette.errors import UserInputError
from mtpalette.metrics import parse_specs
from mtpalette.metrics.rose_features import count_features, feature_names, function_words
from mtpalette.train.rose import (
    FeatureExtractor,
    RoseModel,
    SvmSettings,
    fit_ranking,
    fit_regression,
    kernel_matrix,
)

EX = FeatureExtractor()
N = len(feature_names(False))


def _two_rows() -> np.ndarray:
    # feature 0 is 1 and 0: standardised to +1 and -1; every other feature is constant (z = 0)
    X = np.zeros((2, N))
    X[0, 0] = 1.0
    return X


@pytest.mark.parametrize(
    ("settings", "w0"),
    [
        # the targets y = (1, 0) are standardised to t = (+1, -1) (mean 0.5, sd 0.5), the
        # fitted weight scaled back by 0.5. min 1/2 w^2 + C sum max(0, |t - w z - b| - eps),
        # z = (+1, -1): the loss is 2C (1 - eps - w) below w = 1 - eps = 0.9, so
        # w = min(2C, 0.9): 0.2 -> 0.1 at C = 0.1, 0.9 -> 0.45 at C = 1
        (SvmSettings(C=0.1), 0.1),
        (SvmSettings(C=1.0), 0.45),
        # least squares: w + 4C (w - 1) = 0, w = 4C / (1 + 4C) = 2/7 at C = 0.1 -> 1/7
        (SvmSettings(C=0.1, loss="squared"), 1 / 7),
    ],
)
def test_regression_losses_hand_solved(settings, w0):
    m = fit_regression(_two_rows(), np.array([1.0, 0.0]), EX, settings=settings)
    assert m.weights[0] == pytest.approx(w0, abs=2e-4)
    assert m.bias == pytest.approx(0.5, abs=2e-3)
    assert m.loss == (settings.loss or "epsilon") and m.kernel == "linear"
    assert m.info["epsilon"] == (0.1 if settings.loss is None else 0.0)
    assert m.info["targets"] == {"standardised": True, "mean": 0.5, "sd": 0.5}


@pytest.mark.parametrize(
    ("settings", "w0"),
    [
        # one pair, difference d = 2 on feature 0, mirrored: 1/2 w^2 + 2C max(0, 1 - 2w):
        # w = min(4C, 0.5)
        (SvmSettings(C=0.1), 0.4),
        (SvmSettings(C=1.0), 0.5),
        # squared hinge: w - 8C (1 - 2w) = 0, w = 8C / (1 + 16C) = 0.8 / 2.6 at C = 0.1
        (SvmSettings(C=0.1, loss="squared"), 0.8 / 2.6),
    ],
)
def test_ranking_losses_hand_solved(settings, w0):
    X = _two_rows()
    m = fit_ranking(X[:1], X[1:], EX, settings=settings)
    assert m.weights[0] == pytest.approx(w0, abs=2e-4)
    assert m.loss == (settings.loss or "hinge")


def _kernel_model(kernel: str, params: dict) -> RoseModel:
    v = np.zeros((2, N))
    v[1, 0] = 1.0
    return RoseModel(
        kind="reg",
        lang="en",
        pos=False,
        tokenize="13a",
        lowercase=True,
        features=feature_names(False),
        mean=[0.0] * N,
        scale=[1.0] * N,
        weights=[],
        bias=0.5,
        loss="epsilon",
        kernel=kernel,
        function_words="fw100",
        kernel_params=params,
        vectors=v.tolist(),
        coef=[1.0, -2.0],
    )


def test_kernel_model_scores_by_hand(tmp_path):
    x = np.zeros((2, N))
    x[1, 0] = 2.0
    rbf = _kernel_model("rbf", {"gamma": 0.5})
    # x = 0: 1 * e^0 - 2 * e^(-0.5 * 1) + 0.5; x = 2 e_0: e^(-0.5 * 4) - 2 e^(-0.5 * 1) + 0.5
    expected = [1.5 - 2 * math.exp(-0.5), math.exp(-2) - 2 * math.exp(-0.5) + 0.5]
    np.testing.assert_allclose(rbf.score(x), expected, rtol=1e-12)
    poly = _kernel_model("poly", {"gamma": 1.0, "degree": 2, "coef0": 1.0})
    # x = 0: (0 + 1)^2 - 2 (0 + 1)^2 + 0.5 = -0.5; x = 2 e_0: 1 - 2 (2 + 1)^2 + 0.5 = -16.5
    np.testing.assert_allclose(poly.score(x), [-0.5, -16.5], rtol=1e-12)
    # saved, loaded and used as a metric: the spec gives the model's own scores
    path = tmp_path / "rbf.json"
    rbf.save(path)
    hyps, refs = ["the cat sat on the mat", "a dog"], [["the cat is on the mat", "a cat"]]
    got = sentence_scores(hyps, refs, [f"rose:@{path}"])[f"rose:@{path}"]  # the name given
    X = FeatureExtractor(function_words="fw100")(hyps, [[r[i]] for i in range(2) for r in refs])
    np.testing.assert_allclose(got, rbf.score(X), rtol=1e-12)
    [metric] = parse_specs([f"rose:@{path}"])
    sig = str(metric.signature(n_refs=1))
    assert "kernel:rbf" in sig and "loss:epsilon" in sig and "fw:fw100" in sig


def test_kernel_training_exact_and_approximate():
    # y depends on |x0| only: no linear function of x0 fits it, a degree-2 kernel does
    rng = np.random.default_rng(0)
    X = rng.standard_normal((150, N))
    y = np.abs(X[:, 0])
    lin = fit_regression(X, y, EX)
    poly = fit_regression(X, y, EX, settings=SvmSettings(kernel="poly", gamma=0.2))
    approx = SvmSettings(kernel="poly", gamma=0.2, approx="nystroem", components=60)
    nys = fit_regression(X, y, EX, settings=approx)
    assert poly.info["solver"] == "exact" and nys.info["solver"] == "nystroem-60"
    assert len(nys.vectors) == 60 and len(nys.coef) == 60
    err = {
        n: np.mean(np.abs(m.score(X) - y)) for n, m in [("lin", lin), ("poly", poly), ("nys", nys)]
    }
    assert err["poly"] < 0.5 * err["lin"] and err["nys"] < 0.7 * err["lin"], err
    # ranking with an exact RBF kernel: pairs ordered by |x0| are learned
    b, w = np.arange(0, 60, 2), np.arange(1, 60, 2)
    swap = y[b] < y[w]
    b2, w2 = np.where(swap, w, b), np.where(swap, b, w)
    rank = fit_ranking(X[b2], X[w2], EX, settings=SvmSettings(kernel="rbf", gamma=0.5))
    s = rank.score(X)
    assert rank.info["solver"] == "exact" and np.mean(s[b2] > s[w2]) > 0.9
    assert kernel_matrix(X[:2], X[:2], "rbf", {"gamma": 0.5})[0, 0] == 1.0


def test_bad_settings():
    for bad in (
        SvmSettings(kernel="sigmoid"),
        SvmSettings(loss="hinge"),  # a ranking loss, not a regression one
        SvmSettings(kernel="rbf", approx="exact", loss="squared"),
        SvmSettings(epsilon=-1.0),
        SvmSettings(gamma=0.0),
    ):
        with pytest.raises(UserInputError):
            bad.checked("reg")
    with pytest.raises(UserInputError, match="fw100"):
        FeatureExtractor(lang="xx")
    with pytest.raises(UserInputError, match="unknown function-word list"):
        FeatureExtractor(function_words="nltk")


def test_function_word_lists_by_hand():
    # "know" is a stopwordsiso word but not one of the 100 most frequent
    cand, ref = "we would know the cat".split(), "the cat sat".split()
    assert {"the", "we", "would"} <= function_words("en", "fw100")
    assert "know" not in function_words("en", "fw100") and "know" in function_words("en")
    # 1 + (c - r) / 3 for words (5 vs 3), function words, punctuation (0 vs 0), content words.
    # fw100: function we, would, the (3) vs the (1); content know, cat (2) vs cat, sat (2).
    # stopwordsiso: function we, would, know, the (4) vs the (1); content cat (1) vs 2.
    fw100 = count_features(cand, [ref], "en", "fw100")
    iso = count_features(cand, [ref], "en", "stopwordsiso")
    assert fw100 == pytest.approx([5 / 3, 5 / 3, 1.0, 1.0])
    assert iso == pytest.approx([5 / 3, 2.0, 1.0, 2 / 3])
    assert len(function_words("de", "fw100")) == 100


RNK_HEADER = (
    "srclang,trglang,srcIndex,documentId,segmentId,judgeId,"
    + ",".join(f"system{k}Number,system{k}Id" for k in range(1, 6))
    + ","
    + ",".join(f"system{k}rank" for k in range(1, 6))
)


def test_train_rose_on_wmt12_rankings(tmp_path):
    ref = [f"the cat number {i} sat on the mat today" for i in range(8)]
    good = list(ref)
    mid = [f"the cat number {i} sat on a rug" for i in range(8)]
    bad = [f"dog {i} ran" for i in range(8)]
    outs = tmp_path / "out"
    outs.mkdir()
    for name, lines in (("A", good), ("B", mid), ("C", bad), ("D", mid), ("E", bad)):
        (outs / f"newstest2012.de-en.{name}").write_text("\n".join(lines) + "\n")
    (tmp_path / "ref.en").write_text("\n".join(ref) + "\n")
    rows = [RNK_HEADER]
    for i in range(1, 9):
        rows.append(f"German,English,{i},d,{i},j,1,A,2,B,3,C,4,D,5,E,1,2,4,2,4")
    (tmp_path / "rnk.csv").write_text("\n".join(rows) + "\n")
    common = ["--rankings", str(tmp_path / "rnk.csv"), "--lp", "de-en", "--refs"]
    common += [str(tmp_path / "ref.en"), "--systems-dir", str(outs), "--holdout", "0.25", "-q"]
    for objective, kernel in (("rank", "linear"), ("reg", "rbf")):
        out = tmp_path / f"{objective}.json"
        args = ["train-rose", "--objective", objective, "--kernel", kernel, "-o", str(out)]
        result = CliRunner().invoke(app, args + common)
        assert result.exit_code == 0, result.output
        model = json.loads(out.read_text())
        assert model["kernel"] == kernel and model["function_words"] == "fw100"
        assert model["info"]["test_pairs"] == 16  # see below
        assert model["info"]["test_wmt12_tau"] == 1.0
    bad = CliRunner().invoke(app, ["train-rose", "--kernel", "sigmoid", *common])
    assert isinstance(bad.exception, UserInputError) and "unknown kernel" in str(bad.exception)
    # held out: 2 segments x 8 strict pairs (A over the 4 others, B and D over C and E)


def test_cv_folds_keep_segments_whole_and_are_seeded():
    from mtpalette.train.rose_search import CrossValidation

    groups = np.repeat(np.arange(40), 5)  # 40 segments of 5 translations
    splits = CrossValidation(groups, 5, seed=3).splits()
    assert len(splits) == 5
    seen = np.zeros(len(groups), dtype=int)
    for tr, te in splits:
        assert not set(groups[tr]) & set(groups[te])  # a segment never on both sides
        seen[te] += 1
    assert (seen == 1).all()  # every row tested once
    again = CrossValidation(groups, 5, seed=3).splits()
    other = CrossValidation(groups, 5, seed=4).splits()
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(splits, again, strict=True))
    assert not all(np.array_equal(a[1], b[1]) for a, b in zip(splits, other, strict=True))
    with pytest.raises(UserInputError, match="a segment per fold"):
        CrossValidation(np.arange(3), 5, seed=0).splits()


def test_cv_search_scores_every_setting_and_picks_the_best():
    from mtpalette.train.rose_search import (
        REG_GRID,
        CrossValidation,
        search_ranking,
        search_regression,
    )

    # y depends on feature 0 through a noisy, zero-inflated penalty, as MQM: most rows 0
    rng = np.random.default_rng(1)
    X = rng.standard_normal((400, N))
    y = np.where(X[:, 0] > 0.3, -5.0 * (X[:, 0] - 0.3) + rng.standard_normal(400), 0.0)
    cv = CrossValidation(groups=np.arange(400) // 8, folds=4, seed=0)
    res = search_regression(X, y, EX, SvmSettings(), cv)
    assert len(res.table) == len(REG_GRID["C"]) * len(REG_GRID["epsilon"])
    best = max(res.table, key=lambda r: r["mean"])
    assert (res.settings.C, res.settings.epsilon) == (
        best["params"]["C"],
        best["params"]["epsilon"],
    )
    assert all(len(r["folds"]) == 4 for r in res.table) and best["mean"] > 0.5
    info = res.to_info()["cv"]
    assert info["grouped_by"] == "segment" and info["chosen"] == best["params"]
    # parameters given by hand are not searched; all given: no search at all
    only_eps = search_regression(X, y, EX, SvmSettings(C=0.5), replace(cv, fixed=["C"]))
    assert [r["params"] for r in only_eps.table] == [{"epsilon": e} for e in REG_GRID["epsilon"]]
    assert only_eps.settings.C == 0.5
    all_fixed = replace(cv, fixed=["C", "epsilon"])
    assert search_regression(X, y, EX, SvmSettings(), all_fixed) is None
    # ranking: pairs within segments, scored by the WMT12 tau on the held-out pairs
    b = np.arange(0, 400, 2)
    w = b + 1
    swap = y[b] < y[w]
    b, w = np.where(swap, w, b), np.where(swap, b, w)
    keep = y[b] != y[w]
    rank = search_ranking(X, (b[keep], w[keep]), EX, SvmSettings(), cv)
    assert rank.statistic == "wmt12-kendall" and [r["params"] for r in rank.table][0] == {
        "C": 0.001
    }
    assert max(r["mean"] for r in rank.table) > 0.3


def test_train_rose_cli_search_and_hand_settings(tmp_path):
    out = tmp_path / "m.json"
    base = ["train-rose", *mqm_ted_args("ende"), "--lang", "de", "--folds", "3", "-q"]
    result = CliRunner().invoke(app, [*base, "--C", "0.1", "--epsilon", "0.5", "-o", str(out)])
    assert result.exit_code == 0, result.output
    model = json.loads(out.read_text())
    assert (model["info"]["C"], model["info"]["epsilon"]) == (0.1, 0.5)
    assert "skipped" in model["info"]["cv"] and model["info"]["targets"]["standardised"]
    result = CliRunner().invoke(app, [*base, "--objective", "rank", "-o", str(out)])
    assert result.exit_code == 0, result.output
    model = json.loads(out.read_text())
    cv = model["info"]["cv"]
    assert cv["folds"] == 3 and cv["statistic"] == "wmt12-kendall" and len(cv["grid"]) == 4
    assert model["info"]["C"] == cv["chosen"]["C"]
