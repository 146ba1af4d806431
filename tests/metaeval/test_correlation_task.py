"""Human-correlation tasks on the bundled WMT21 TED MQM data: scores equal the scoring API,
table values equal the statistics on the oriented matrices, system level uses corpus scores,
``mtpalette correlate`` and ``mtpalette agree`` end to end."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from real_data import mqm_ted, mqm_ted_args, mqm_ted_inputs
from typer.testing import CliRunner

from mtpalette.api import corpus_score, sentence_scores
from mtpalette.cli.app import app
from mtpalette.errors import UserInputError
from mtpalette.io.judgments import PreferencePairs
from mtpalette.io.judgments_read import read_judgments
from mtpalette.io.plain import read_lines
from mtpalette.metaeval.agreement import agreement, human_orange
from mtpalette.metaeval.correlation import correlation_table, system_table
from mtpalette.metaeval.orange import evaluate
from mtpalette.metaeval.relative_ranking import rr_table
from mtpalette.metaeval.segments import SegmentData, score_segments
from mtpalette.metrics import parse_specs
from mtpalette.stats.correlation import correlation, pearson
from mtpalette.stats.grouping import system_means
from mtpalette.stats.kendall import kendall

SPECS = ["bleus:4", "wer", "chrf"]


@pytest.fixture(scope="module")
def zhen():
    paths = mqm_ted("zhen")
    judged = read_judgments(paths["judgments"])
    refs = [read_lines(p) for p in paths["refs"]]
    outputs = {p.name[:-4]: read_lines(p) for p in paths["systems"]}
    data = SegmentData.from_judgments(judged, outputs, refs, seg_ids=read_lines(paths["seg_ids"]))
    return data, judged, outputs, refs


@pytest.fixture(scope="module")
def zhen_scores(zhen):
    data = zhen[0]
    return score_segments(data, parse_specs(SPECS))


def test_task_alignment(zhen):
    data, judged, outputs, refs = zhen
    assert data.n_systems == 13 and data.n_items == 529 and data.n_rated == 13 * 529
    assert data.info["unscored_systems"] == ["ref", "refB"]
    # MQM's own copy of each translation equals the aligned output line
    for s, name in enumerate(data.systems[:3]):
        assert [judged.targets[name][i] for i in data.items] == data.hyps[s]
    assert data.refs[1] == refs[1]


def test_scores_equal_the_scoring_api(zhen, zhen_scores):
    data, _, outputs, refs = zhen
    for sc in zhen_scores:
        for s in (0, 7):
            api = sentence_scores(data.hyps[s], refs, [sc.metric.spec])[sc.metric.spec]
            np.testing.assert_allclose(sc.seg[s], api, rtol=0, atol=1e-12)
        # corpus score of a system on its (all) rated segments
        name = data.systems[4]
        [want] = corpus_score(outputs[name], refs, [sc.metric.spec])
        assert sc.corpus_scores()[0, 4] == pytest.approx(sc.sign * want.value, abs=1e-9)


def test_table_values_equal_the_statistics(zhen, zhen_scores):
    data, *_ = zhen
    t = correlation_table(
        data.pair_data(zhen_scores),
        statistic="kendall",
        grouping="item",
        n_resamples=50,
        test="bootstrap",
        seed=3,
    )
    by_name = {s.name: s for s in zhen_scores}
    for row in t.rows:
        sc = by_name[row.metric]
        want = correlation(data.human, sc.oriented(), "kendall", grouping="item")
        assert row.value == pytest.approx(want, abs=1e-12)
        assert row.ci.low <= row.value <= row.ci.high and row.ci.seed == 3
    wer = t.row("wer")
    assert not wer.higher_is_better
    raw = correlation(data.human, by_name["wer"].seg, "kendall", grouping="item")
    assert wer.value == pytest.approx(-raw)  # negated: a good error metric is positive
    assert wer.value > 0
    values = [r.value for r in t.rows]
    assert values == sorted(values, reverse=True) and t.rows[0].cluster == 1


def test_system_level_uses_corpus_scores(zhen, zhen_scores):
    data, *_ = zhen
    t = correlation_table(
        data.pair_data(zhen_scores), statistic="pearson", level="system", n_resamples=30, test="none"
    )
    h = system_means(data.human)
    for sc in zhen_scores:
        want = pearson(h, sc.corpus_scores()[0])
        assert t.row(sc.name).value == pytest.approx(want, abs=1e-12)
    mean = correlation_table(
        data.pair_data(zhen_scores),
        statistic="pearson",
        level="system",
        system_score="mean",
        n_resamples=0,
        test="none",
    )
    sc = zhen_scores[0]
    assert mean.row(sc.name).value == pytest.approx(
        pearson(h, system_means(sc.oriented())), abs=1e-12
    )
    with pytest.raises(UserInputError, match="no grouping"):
        correlation_table(data.pair_data(zhen_scores), level="system", grouping="item")


def test_williams_clusters_and_unknown_options(zhen, zhen_scores):
    data, *_ = zhen
    t = correlation_table(data.pair_data(zhen_scores), statistic="pearson", n_resamples=0, test="williams")
    assert [c["p_value"] for c in t.comparisons] and all(
        0.0 <= c["p_value"] <= 1.0 for c in t.comparisons
    )
    with pytest.raises(UserInputError, match="Williams"):
        correlation_table(data.pair_data(zhen_scores), statistic="kendall", test="williams")
    with pytest.raises(UserInputError, match="unknown statistic"):
        correlation_table(data.pair_data(zhen_scores), statistic="tau-z")


def test_rr_table():
    # four systems, two lines; humans prefer A over B and C over D on both lines
    data = SegmentData(
        ["A", "B", "C", "D"],
        np.zeros((4, 2)),
        [["x y z", "x y"], ["q", "r"], ["x y", "x"], ["x y", "x"]],
        [["x y z", "x y w"]],
        [0, 1],
    )
    pairs = PreferencePairs(
        np.array([0, 1, 0, 1]), ["A", "A", "C", "C"], ["B", "B", "D", "D"], n_ties=3, n_blank=0
    )
    scores = score_segments(data, parse_specs(["bleus:1"], tokenize="none"))
    t = rr_table(pairs, data, scores, n_resamples=20)
    # A beats B on both lines; C and D are identical: metric ties, discordant for WMT12
    assert t.rows[0].value == pytest.approx(0.0) and t.info["n_human_ties"] == 3
    t2 = rr_table(pairs, data, scores, metric_ties="exclude", n_resamples=20)
    assert t2.rows[0].value == 1.0


def test_system_table():
    human = {"A": 0.3, "B": 0.1, "C": -0.2, "D": 0.0, "E": 0.2}
    metric = {
        "bleu": {"A": 30, "B": 25, "C": 20, "D": 22, "E": 28},
        "ter": {"A": 0.5, "B": 0.6, "C": 0.7, "D": 0.65, "E": 0.4},
    }
    t = system_table(
        human,
        metric,
        directions={"bleu": True, "ter": False},
        statistic="pairwise-accuracy",
        n_resamples=100,
        test="bootstrap",
    )
    assert t.row("bleu").value == 1.0
    assert t.row("ter").value == pytest.approx(0.9)  # E > A by TER, A > E by humans
    assert t.unit == "systems" and t.row("bleu").cluster == 1
    with pytest.raises(UserInputError, match="no score for system"):
        system_table(human, {"bleu": {"A": 1.0}})


# ---------------------------------------------------------------------------------- CLI
def _run(*args):
    return CliRunner().invoke(app, list(args), catch_exceptions=True)


def test_correlate_cli_end_to_end(tmp_path, zhen, zhen_scores):
    out = tmp_path / "run"
    result = _run(
        "correlate",
        *mqm_ted_args("zhen"),
        "-m",
        *SPECS,
        "--stat",
        "pearson,kendall",
        "--bootstrap",
        "100",
        "--permutations",
        "50",
        "--seed",
        "7",
        "--out-dir",
        str(out),
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    for word in (
        "Pearson r",
        "Kendall tau-b",
        "95% CI",
        "Cluster",
        "wer",
        "chrf",
        "13 systems x 529 segments",
        "seed 7",
    ):
        assert word in result.output
    run = json.loads((out / "run.json").read_text())
    assert run["kind"] == "correlate" and run["seeds"]["bootstrap"] == 7
    assert run["inputs"]["unscored_judged_systems"] == ["ref", "refB"]
    pear, kend = run["results"]["tables"]
    assert pear["statistic"] == "pearson" and kend["statistic"] == "kendall-b"
    assert {r["metric"] for r in pear["rows"] if not r["baseline"]} == set(SPECS)
    assert {r["metric"] for r in pear["rows"] if r["baseline"]} == {"len", "len:sign=-1", "lendiff"}
    data = zhen[0]
    for row in (r for r in kend["rows"] if not r["baseline"]):
        sc = next(s for s in zhen_scores if s.name == row["metric"])
        assert row["correlation"] == pytest.approx(
            kendall(data.human[~np.isnan(data.human)], sc.oriented()[~np.isnan(data.human)]),
            abs=1e-12,
        )
        assert row["low"] <= row["correlation"] <= row["high"]
        assert row["cluster"] >= 1
    with open(out / "table.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 12 and rows[0]["statistic"] == "pearson"  # 3 metrics, 3 baselines, x2

    # the same data through explicit options gives the same numbers
    paths = mqm_ted("zhen")
    explicit = tmp_path / "explicit.json"
    result = _run(
        "correlate",
        "--judgments",
        str(paths["judgments"]),
        "--seg-ids",
        str(paths["seg_ids"]),
        "--refs",
        *[str(p) for p in paths["refs"]],
        "--systems-dir",
        str(paths["refs"][0].parent),
        "--exclude",
        "source.txt",
        "*.gz",
        "-m",
        *SPECS,
        "--bootstrap",
        "100",
        "--seed",
        "7",
        "--test",
        "none",
        "--json",
        str(explicit),
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    again = json.loads(explicit.read_text())["results"]["tables"][0]
    assert [(r["metric"], r["correlation"], r["low"]) for r in again["rows"]] == [
        (r["metric"], r["correlation"], r["low"]) for r in pear["rows"]
    ]


def test_correlate_cli_errors(tmp_path):
    seg = tmp_path / "ad-seg-scores-xx-en.csv"
    seg.write_text("SYS SID RAW.SCR Z.SCR N\nsysA.1 1 70 0.1 1\n")
    hyp = tmp_path / "sysA.txt"
    hyp.write_text("a\n")
    ref = tmp_path / "ref.txt"
    ref.write_text("a\n")
    result = _run(
        "correlate", "--judgments", str(seg), "--refs", str(ref), "--systems", str(hyp), "--quiet"
    )
    assert isinstance(result.exception, UserInputError)
    assert "not line numbers" in str(result.exception)
    result = _run("correlate", *mqm_ted_args("zhen"), "--stat", "tau-z")
    assert isinstance(result.exception, UserInputError)
    result = _run("correlate", "--bundled", "xx")
    assert "no bundled example data" in str(result.exception)


def test_agree_cli_and_library(tmp_path, zhen, zhen_scores):
    out = tmp_path / "agree"
    result = _run(
        "agree",
        *mqm_ted_args("zhen"),
        "-m",
        *SPECS,
        "--bootstrap",
        "60",
        "--seed",
        "5",
        "--out-dir",
        str(out),
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    for word in (
        "ORANGE %",
        "tau-b",
        "Kendall tau-b between the two orderings",
        "human ORANGE of reference ref:",
        "refB",
    ):
        assert word in result.output
    run = json.loads((out / "run.json").read_text())["results"]["agreement"]
    assert run["n_segments"] == 529 and run["n_refs"] == 2 and run["bootstrap"] == 60
    data, judged, *_ = zhen
    refs = {n: judged.scores[judged.systems.index(n)] for n in ("ref", "refB")}
    lib = agreement(
        data,
        parse_specs(SPECS),
        statistic="kendall",
        n_resamples=60,
        seed=5,
        reference_scores=refs,
        scores=zhen_scores,
    )
    assert run["kendall_tau_b"] == lib.tau.value and run["tau_low"] == lib.tau.low
    # ORANGE values equal the ORANGE module's
    from mtpalette.metaeval.candidates import CandidateLists, compare_candidates

    lists = CandidateLists.from_systems(
        {s: data.hyps[k] for k, s in enumerate(data.systems)}, data.refs
    )
    table = evaluate(compare_candidates(lists, parse_specs(SPECS)), n_resamples=0)
    for row in table.rows:
        mine = next(r for r in run["rows"] if r["metric"] == row.metric)
        assert mine["orange"] == pytest.approx(row.orange.value, abs=1e-12)
    # the two references as humans see them: refB above most systems, ref below most
    assert run["reference_human_orange"]["refB"] == pytest.approx(
        human_orange(refs["refB"], data.human)
    )
    assert run["reference_human_orange"]["refB"] < 0.5 < run["reference_human_orange"]["ref"]


def test_experiment_script_on_a_slice(tmp_path):
    # the bundled MQM TED parts of scripts/correlation_experiments.py on 25 segments; the
    # WMT parts skip because the data folder is absent
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[2] / "scripts" / "correlation_experiments.py"
    spec = importlib.util.spec_from_file_location("correlation_experiments", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "out"
    code = module.main(
        [
            "--out-dir",
            str(out),
            "--data-dir",
            str(tmp_path / "absent"),
            "--only",
            "mqm-ted-zhen",
            "wmt17-da",
            "agree-zhen",
            "--metrics",
            "bleus:4",
            "wer",
            "no-such",
            "--segments",
            "25",
            "--bootstrap",
            "30",
            "--permutations",
            "10",
        ]
    )
    assert code == 0
    summary = (out / "summary.md").read_text()
    assert "MQM TED zhen: Pearson r" in summary and "SKIP wmt17-da" in summary
    assert "Kendall tau-b between the orderings" in summary and "wer (neg.)" in summary
    run = json.loads((out / "mqm-ted-zhen.json").read_text())
    assert run["settings"]["skipped"] == ["no-such"]
    table = run["results"]["pearson|none|segment"]
    assert table["n_units"] == 25 and len(table["rows"]) == 2


def test_correlate_cli_on_a_wmt17_testset_file(tmp_path):
    # the layout of WMT17's testset_<lp>.tsv (texts inside); synthetic sentences and scores
    rows = ["LP\tsource\ttranslation\treference\tHUMAN_score\tsentBLEU"]
    words = "a b c d e f g h".split()
    rng = np.random.default_rng(0)
    for k in range(40):
        hyp = " ".join(rng.choice(words, 6))
        score = sum(w in "abcdef" for w in hyp.split())  # words found in the reference
        rows.append(f"xx-en\ts{k}\t{hyp}\ta b c d e f\t{score}\t0")
    p = tmp_path / "testset_xx-en.tsv"
    p.write_text("\n".join(rows) + "\n")
    out = tmp_path / "run.json"
    result = _run(
        "correlate",
        "-j",
        str(p),
        "-m",
        "bleus:1",
        "per",
        "--tokenize",
        "none",
        "--bootstrap",
        "50",
        "--test",
        "bootstrap",
        "--json",
        str(out),
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    run = json.loads(out.read_text())
    assert run["inputs"]["format"] == "wmt17-testset" and run["inputs"]["n_items"] == 40
    rows = run["results"]["tables"][0]["rows"]
    assert all(r["correlation"] > 0 for r in rows if not r["baseline"])
    result = _run("correlate", "-j", str(p), "--refs", str(p), "--quiet")
    assert "holds its own translations" in str(result.exception)


def test_ad_seg_scores_at_system_level(tmp_path, ted_zhen):
    """WMT ad-seg-scores: human score = mean of the system's judged segments, metric score =
    corpus score of the whole output (SIDs are not lines); refused at segment level."""
    from mtpalette import corpus_score
    from mtpalette.sources.inputs import load_task

    systems, refs = ted_zhen
    names = ["SMU", "Online-W", "MiSS", "NiuTrans", "DIDI-NLP", "metricsystem5"]
    data, _, _ = load_task(**mqm_ted_inputs("zhen"))
    lines = ["SYS SID RAW.SCR Z.SCR N"]
    for k, name in enumerate(names):
        row = data.human[data.systems.index(name)]
        for i in np.flatnonzero(~np.isnan(row))[:200]:
            lines.append(f"{name}.{k + 1} {1000 + 7 * i} {50 + row[i]:.4f} {row[i] / 5:.6f} 1")
    seg = tmp_path / "ad-seg-scores-zh-en.csv"
    seg.write_text("\n".join(lines) + "\n")
    folder = tmp_path / "sys"
    folder.mkdir()
    for name in names:
        (folder / f"{name}.txt").write_text("\n".join(systems[name]) + "\n", encoding="utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("\n".join(refs[0]) + "\n", encoding="utf-8")
    base = ["correlate", "-j", str(seg), "-r", str(ref), "--systems-dir", str(folder)]
    run = tmp_path / "run.json"
    result = _run(
        *base,
        "-m",
        "bleu",
        "wer",
        "--level",
        "system",
        "--stat",
        "pearson,kendall",
        "--bootstrap",
        "100",
        "--test",
        "none",
        "--json",
        str(run),
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    tables = json.loads(run.read_text())["results"]["tables"]
    human = {}
    for line in lines[1:]:
        name, _, _, z, _ = line.split()
        human.setdefault(name.rsplit(".", 1)[0], []).append(float(z))
    h = np.array([np.mean(human[n]) for n in names])
    for spec, sign in (("bleu", 1.0), ("wer", -1.0)):
        m = sign * np.array([corpus_score(systems[n], refs[:1], spec)[0].value for n in names])
        row = next(r for r in tables[0]["rows"] if r["metric"] == spec)
        assert row["correlation"] == pytest.approx(np.corrcoef(h, m)[0, 1], abs=1e-12)
    assert tables[1]["statistic"] == "kendall-b" and tables[0]["level"] == "system"
    refused = _run(*base, "-m", "bleu", "--quiet")
    assert isinstance(refused.exception, UserInputError)
    assert "give --level system" in str(refused.exception)


def test_mt_metrics_eval_folder_equals_the_bundled_task(tmp_path):
    """``correlate --mtme DIR --lp zh-en``: the bundled TED zh-en written in mt-metrics-eval's
    layout (human-scores/zh-en.mqm.seg.score, references/zh-en.refA.txt,
    system-outputs/zh-en/*.txt with the reference among them) gives the numbers of
    ``--bundled zhen`` with reference A."""
    from mtpalette.sources.inputs import load_task

    data, _, _ = load_task(**mqm_ted_inputs("zhen"))
    paths = mqm_ted("zhen")
    root = tmp_path / "wmt21"
    for sub in ("human-scores", "references", "sources", "system-outputs/zh-en"):
        (root / sub).mkdir(parents=True)
    source = paths["source"].read_text(encoding="utf-8")
    (root / "sources" / "zh-en.txt").write_text(source, encoding="utf-8")
    ref_a = paths["refs"][0].read_text(encoding="utf-8")
    (root / "references" / "zh-en.refA.txt").write_text(ref_a, encoding="utf-8")
    (root / "system-outputs" / "zh-en" / "refA.txt").write_text(ref_a, encoding="utf-8")
    lines = []
    for k, system in enumerate(data.systems):
        src = next((p for p in paths["systems"] if p.stem == system), None)
        if src is None:  # a judged human translation without an output file here
            continue
        text = src.read_text(encoding="utf-8")
        (root / "system-outputs" / "zh-en" / f"{system}.txt").write_text(text, encoding="utf-8")
        lines += [f"{system}\t{'None' if v != v else repr(float(v))}" for v in data.human[k]]
    (root / "human-scores" / "zh-en.mqm.seg.score").write_text("\n".join(lines) + "\n")

    common = ["-m", "bleu", "chrf", "--stat", "pearson,kendall", "--bootstrap", "100"]
    out_a, out_b = tmp_path / "a.json", tmp_path / "b.json"
    mtme = ["--mtme", str(root), "--lp", "zh-en", "--mtme-ref", "refA", "--human", "mqm"]
    result = _run("correlate", *mtme, *common, "--json", str(out_a))
    assert result.exit_code == 0, result.output
    bundled = [*common, "--json", str(out_b)]
    one_ref = ["--judgments", str(paths["judgments"]), "--refs", str(paths["refs"][0])]
    result = _run(
        "correlate", *one_ref, "--systems", *map(str, paths["systems"]),
        "--seg-ids", str(paths["seg_ids"]), *bundled,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    a = json.loads(out_a.read_text())["results"]["tables"]
    b = json.loads(out_b.read_text())["results"]["tables"]
    for ta, tb in zip(a, b, strict=True):
        assert [(r["metric"], r["correlation"], r["low"], r["high"]) for r in ta["rows"]] == [
            (r["metric"], r["correlation"], r["low"], r["high"]) for r in tb["rows"]
        ]
    missing = _run("correlate", *mtme[:-1], "wmt-z")
    assert isinstance(missing.exception, UserInputError)
    assert "zh-en.wmt-z.seg.score" in str(missing.exception)
