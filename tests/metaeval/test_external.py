"""External metrics: score files round-trip exactly, plugins equal direct calls, bad files
say where they are bad; the ORANGE-premise audit."""

from __future__ import annotations

import json
import math
import sys
import types

import numpy as np
import pytest
from real_data import mqm_ted, mqm_ted_args, mqm_ted_inputs
from typer.testing import CliRunner

from mtpalette.cli.app import app
from mtpalette.errors import UserInputError
from mtpalette.io.judgments_read import read_judgments
from mtpalette.io.plain import read_lines
from mtpalette.io.scorefile import read_mt_metrics_eval, read_scores, write_scores
from mtpalette.metaeval.audit import audit, heldout_scores
from mtpalette.metaeval.candidates import CandidateLists, compare_candidates
from mtpalette.metaeval.correlation import correlation_table
from mtpalette.metaeval.external import (
    ExternalMetric,
    export_orange_scores,
    export_segment_scores,
    external_comparisons,
    external_segment_scores,
)
from mtpalette.metaeval.orange import evaluate
from mtpalette.metaeval.segments import SegmentData, score_segments
from mtpalette.metrics import parse_specs
from mtpalette.metrics.scoring import TextPairs, compute_stats


@pytest.fixture(scope="module")
def ted():
    paths = mqm_ted("zhen")
    refs = [[line for line in read_lines(p)][:120] for p in paths["refs"]]
    outs = {p.name[:-4]: read_lines(p)[:120] for p in paths["systems"]}
    lists = CandidateLists.from_systems(outs, refs, ref_names=[p.name for p in paths["refs"]])
    judged = read_judgments(paths["judgments"])
    full_refs = [read_lines(p) for p in paths["refs"]]
    full_outs = {p.name[:-4]: read_lines(p) for p in paths["systems"]}
    data = SegmentData.from_judgments(
        judged, full_outs, full_refs, seg_ids=read_lines(paths["seg_ids"])
    ).select_items(range(150))
    return lists, data, judged


@pytest.mark.parametrize("spec", ["bleus:4", "wer", "chrf", "rouge-w:1.2"])
@pytest.mark.parametrize("oracle", ["leave-one-out", "average-score"])
def test_exported_scores_reproduce_orange(tmp_path, ted, spec, oracle):
    lists, _, _ = ted
    [metric] = parse_specs([spec])
    path = tmp_path / "scores.tsv"
    write_scores(path, export_orange_scores(lists, metric))
    ext = ExternalMetric("ext", read_scores(path), higher_is_better=metric.higher_is_better)
    [builtin] = compare_candidates(lists, [metric], oracle=oracle)
    external = external_comparisons(lists, ext, oracle=oracle)
    np.testing.assert_array_equal(builtin.better, external.better)
    np.testing.assert_array_equal(builtin.ties, external.ties)
    table = evaluate([builtin, external], n_resamples=200, seed=3)
    a, b = (table.rows[0].orange, table.rows[1].orange)
    assert (a.value, a.low, a.high) == (b.value, b.low, b.high)


@pytest.mark.parametrize("fmt", ["tsv", "jsonl"])
def test_exported_scores_reproduce_correlations(tmp_path, ted, fmt):
    _, data, _ = ted
    [metric] = parse_specs(["chrf"])
    path = tmp_path / f"scores.{fmt}"
    write_scores(path, export_segment_scores(data, metric))
    ext = external_segment_scores(data, ExternalMetric("ext", read_scores(path)))
    [builtin] = score_segments(data, [metric])
    for kw in (
        dict(statistic="pearson"),
        dict(statistic="kendall", grouping="item"),
        dict(statistic="pearson", level="system", system_score="mean"),
    ):
        t = correlation_table(data.pair_data([builtin, ext]), n_resamples=100, test="bootstrap", **kw)
        assert t.rows[0].value == t.rows[1].value
        assert (t.rows[0].ci.low, t.rows[0].ci.high) == (t.rows[1].ci.low, t.rows[1].ci.high)


def test_cli_export_then_read_back(tmp_path):
    runner = CliRunner()
    out = tmp_path / "scores"
    base = ["correlate", *mqm_ted_args("zhen"), "--max-items", "60", "--bootstrap", "50"]
    base += ["--test", "bootstrap", "-q"]
    args1 = ["-m", "bleus:4", "--export-scores", str(out), "--json", str(tmp_path / "1.json")]
    r1 = runner.invoke(app, [*base, *args1])
    assert r1.exit_code == 0, r1.output
    args2 = ["--scores", f"b4={out / 'bleus_4.tsv'}", "--json", str(tmp_path / "2.json")]
    r2 = runner.invoke(app, [*base, *args2])
    assert r2.exit_code == 0, r2.output
    tables = [json.loads((tmp_path / f"{k}.json").read_text())["results"]["tables"] for k in (1, 2)]
    [(a,)], [(b,)] = ([[r for r in t["rows"] if not r["baseline"]] for t in ts] for ts in tables)
    assert (a["correlation"], a["low"], a["high"]) == (b["correlation"], b["low"], b["high"])
    assert b["metric"] == "b4" and "source:file" in b["signature"]


def _plugin_module():
    mod = types.ModuleType("mtp_test_plugin")

    def overlap(hyps, refs):
        """Share of the candidate's words found in some reference."""
        out = []
        for h, rs in zip(hyps, refs, strict=True):
            words = h.split()
            pool = {w for r in rs for w in r.split()}
            out.append(sum(w in pool for w in words) / len(words) if words else 0.0)
        return out

    def broken(hyps, refs):
        return [math.nan] * len(hyps)

    def short(hyps, refs):
        return [0.0]

    overlap.version = "9.9"
    mod.overlap, mod.broken, mod.short = overlap, broken, short
    sys.modules["mtp_test_plugin"] = mod
    return mod


def test_plugin_equals_direct_call(ted):
    mod = _plugin_module()
    lists, _, _ = ted
    [metric] = parse_specs(["plugin:mtp_test_plugin:overlap,batch=7"])
    hyps = lists.texts[:200]
    seg = lists.segment_of_candidates()[:200]
    stats = compute_stats([metric], TextPairs(hyps, seg, lists.refs))[metric]
    direct = mod.overlap(hyps, [[r[s] for r in lists.refs] for s in seg])
    np.testing.assert_array_equal(stats[:, 0], direct)
    assert "plugin_version:9.9" in str(metric.signature(n_refs=2))
    # inside ORANGE: the same numbers as comparisons built from the direct call
    [comp] = compare_candidates(lists, [metric])
    R = lists.n_refs
    cand, orc = [], []
    segs = lists.segment_of_candidates()
    for k in range(R):
        others = [[lists.refs[j][s] for j in range(R) if j != k] for s in range(lists.n_segments)]
        cand.append(mod.overlap(lists.texts, [others[s] for s in segs]))
        orc.append(mod.overlap(list(lists.refs[k]), others))
    from mtpalette.metaeval.orange import Comparisons

    direct_comp = Comparisons.from_scores("d", cand, orc, lists.offsets)
    np.testing.assert_array_equal(comp.better, direct_comp.better)
    np.testing.assert_array_equal(comp.ties, direct_comp.ties)


def test_plugin_errors():
    _plugin_module()
    pairs = TextPairs.parallel(["a b"], [["a c"]])
    for spec, message in [
        ("plugin:mtp_test_plugin:broken", "expected a finite number"),
        ("plugin:mtp_test_plugin:short", "returned 1 scores for"),
    ]:
        [m] = parse_specs([spec])
        with pytest.raises(UserInputError, match=message):
            compute_stats([m], TextPairs.parallel(["a b", "c"], [["a c", "c"]]))
    with pytest.raises(UserInputError, match="has no 'missing'"):
        parse_specs(["plugin:mtp_test_plugin:missing"])
    with pytest.raises(UserInputError, match="cannot import"):
        parse_specs(["plugin:no_such_module_xyz:f"])
    with pytest.raises(UserInputError, match="entry point"):
        parse_specs(["plugin:no-such-entry-point"])
    assert pairs.n_refs == 1


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_malformed_score_files(tmp_path):
    head = "system\tsegment\tscore\n"
    cases = [
        ("a.tsv", head + "A\t1\t0.5\nA\t1\t0.6\n", r"a\.tsv:3: duplicate score .*first at line 2"),
        ("b.tsv", head + "A\t1\tnan\n", r"b\.tsv:2: score 'nan' is not a finite number"),
        ("c.tsv", head + "A\tx\t0.5\n", r"c\.tsv:2: segment 'x' is not a line number"),
        ("d.tsv", head + "A\t1\n", r"d\.tsv:2: expected 3 tab-separated fields"),
        ("e.tsv", "system\tscore\nA\t1\n", r"e\.tsv:1: no column 'segment'"),
        ("f.jsonl", '{"system": "A", "segment": 1, "score": "high"}\n', r"f\.jsonl:1: score"),
        ("g.tsv", head + "A\t0\t0.5\n", r"g\.tsv:2: segment 0 is not a 1-based"),
    ]
    for name, text, message in cases:
        with pytest.raises(UserInputError, match=message):
            read_scores(_write(tmp_path, name, text))
    ok = read_scores(_write(tmp_path, "ok.tsv", head + "A\t1\t0.5\n"))
    with pytest.raises(UserInputError, match=r"ok\.tsv: no score for system 'B', segment 1"):
        ok.get("B", 1)
    mtme = _write(tmp_path, "m-A.seg.score", "A\t0.1\nB\t0.2\nA\t0.3\n")
    with pytest.raises(UserInputError, match="different numbers of segments"):
        read_mt_metrics_eval([mtme], ["A"])


def test_mt_metrics_eval_layout_gives_leave_one_out(tmp_path, ted):
    lists, _, _ = ted
    [metric] = parse_specs(["bleus:4"])
    rows = list(export_orange_scores(lists, metric))
    # with references ref and refB, "refB held out" = scored against ref alone
    for ref, held in (("ref", "refB"), ("refB", "ref")):
        lines = [f"{s}\t{v!r}" for s, _, h, v in rows if h == held]
        _write(tmp_path, f"BLEU-{ref}.seg.score", "\n".join(lines) + "\n")
    src = read_mt_metrics_eval(
        [tmp_path / "BLEU-ref.seg.score", tmp_path / "BLEU-refB.seg.score"], ["ref", "refB"]
    )
    ext = ExternalMetric("mtme", src)
    [builtin] = compare_candidates(lists, [metric])
    np.testing.assert_array_equal(builtin.better, external_comparisons(lists, ext).better)


def test_audit_counts_by_hand_and_with_humans(ted):
    lists, data, judged = ted
    [metric] = parse_specs(["chrf"])
    cand, refs = heldout_scores(lists, metric)
    seg = lists.segment_of_candidates()
    beats = cand > refs[:, seg]
    expected = np.mean(
        [[beats[k, seg == s].any() for s in range(lists.n_segments)] for k in range(2)]
    )
    result = audit(lists, [metric], n_resamples=100, seed=1)
    row = result.rows[0]
    assert row.outranked.value == pytest.approx(expected)
    assert row.outranked.low <= row.outranked.value <= row.outranked.high
    assert row.humans_agree is None and result.human_outranked is None
    # with human scores: the rated references of MQM TED zh-en
    dl = CandidateLists.from_systems(
        {s: data.hyps[k] for k, s in enumerate(data.systems)}, data.refs, ref_names=["ref", "refB"]
    )
    ref_h = np.stack([judged.scores[judged.systems.index(r)][:150] for r in ("ref", "refB")])
    with_h = audit(
        dl, [metric], candidate_human=data.human.T.ravel(), reference_human=ref_h, n_resamples=50
    )
    r = with_h.rows[0]
    assert 0 < r.humans_prefer.value <= r.humans_agree.value <= 1
    assert with_h.human_outranked_strict.value <= with_h.human_outranked.value
    c2, o2 = heldout_scores(dl, metric)
    s2 = dl.segment_of_candidates()
    ch = data.human.T.ravel()
    used = (c2 > o2[:, s2]) & ~np.isnan(ch)[None, :] & ~np.isnan(ref_h[:, s2])
    ge = used & (np.nan_to_num(ch)[None, :] >= np.nan_to_num(ref_h[:, s2]))
    assert r.humans_agree.value == pytest.approx(ge.sum() / used.sum())


def test_audit_cli(tmp_path):
    out = tmp_path / "audit.json"
    args = ["audit", *mqm_ted_args("zhen"), "-m", "bleus:4", "--bootstrap", "50", "-q"]
    result = CliRunner().invoke(app, [*args, "--json", str(out)])
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text())["results"]["audit"]
    assert record["n_refs"] == 2 and record["rows"][0]["humans_agree"]["value"] > 0.5
    one = CliRunner().invoke(app, ["audit", *mqm_ted_args("ende"), "-m", "bleus:4", "-q"])
    assert one.exit_code != 0 and "at least 2 references" in str(one.exception)


def test_orange_with_an_external_metric_alone(tmp_path):
    """``--scores`` without ``-m`` once failed with "no metric given"; it is a valid run, and
    the exported scores of a metric give that metric's ORANGE back."""

    zhen = mqm_ted("zhen")["root"]
    base = ["orange", "--refs", str(zhen / "ref.txt"), str(zhen / "refB.txt"), "--systems",
            str(zhen / "SMU.txt"), str(zhen / "MiSS.txt"), "--bootstrap", "0"]  # fmt: skip
    exported = tmp_path / "exp"
    first = CliRunner().invoke(app, [*base, "-m", "chrf", "--export-scores", str(exported),
                                     "--json", str(tmp_path / "a.json")])  # fmt: skip
    assert first.exit_code == 0, first.output
    alone = CliRunner().invoke(app, [*base, "--scores", f"ext={exported / 'chrf.tsv'}",
                                     "--json", str(tmp_path / "b.json")])  # fmt: skip
    assert alone.exit_code == 0, alone.output
    (row_a,) = json.loads((tmp_path / "a.json").read_text())["results"]["table"]["rows"]
    (row_b,) = json.loads((tmp_path / "b.json").read_text())["results"]["table"]["rows"]
    assert (row_a["metric"], row_b["metric"]) == ("chrf", "ext")
    assert row_a["orange"] == row_b["orange"] and row_a["avg_rank"] == row_b["avg_rank"]


def test_plugin_in_the_current_folder_is_found(tmp_path, monkeypatch):
    """A plugin module beside the user's files is importable, as ``python -m`` would find it
    (once "cannot import" unless PYTHONPATH was set)."""
    (tmp_path / "myplug_cwd.py").write_text(
        "def overlap(hyps, refs):\n"
        "    return [float(len(set(h.split()) & set(r[0].split()))) for h, r in zip(hyps, refs)]\n"
        "overlap.higher_is_better = True\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    from mtpalette import sentence_scores

    out = sentence_scores(["a b c"], [["a b d"]], ["plugin:myplug_cwd:overlap"])
    assert list(out.values())[0].tolist() == [2.0]


def test_plugins_read_the_sources_when_given(tmp_path, monkeypatch):
    """A plugin with a ``srcs`` parameter gets each candidate's source (``score --source``);
    one that requires sources refuses a run without them. (The documented COMET wrapper once
    passed an empty source.)"""

    from mtpalette import sentence_scores
    from mtpalette.api import score_texts

    (tmp_path / "srcplug.py").write_text(
        "def src_len(hyps, refs, srcs):\n"
        "    return [float(len(s)) for s in srcs]\n"
        "def maybe(hyps, refs, srcs=None):\n"
        "    return [0.0 if srcs is None else 1.0 for _ in hyps]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    zhen = mqm_ted("zhen")["root"]
    source = read_lines(str(zhen / "source.txt"))[:20]
    hyps = read_lines(str(zhen / "SMU.txt"))[:20]
    refs = [read_lines(str(zhen / "ref.txt"))[:20]]
    out = score_texts(hyps, refs, ["plugin:srcplug:src_len"], srcs=source).sentence
    assert out["plugin:srcplug:src_len"].tolist() == [float(len(s)) for s in source]
    with pytest.raises(UserInputError, match="needs the source sentences"):
        sentence_scores(hyps, refs, ["plugin:srcplug:src_len"])
    assert sentence_scores(hyps, refs, ["plugin:srcplug:maybe"])["plugin:srcplug:maybe"][0] == 0
    out = CliRunner().invoke(
        app, ["score", "-r", str(zhen / "ref.txt"), "-i", str(zhen / "SMU.txt"), "--source",
              str(zhen / "source.txt"), "-m", "plugin:srcplug:maybe", "--sentence", "-f", "tsv"],
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    first = next(line for line in out.output.splitlines() if line.startswith("1\t"))
    assert first.split("\t")[1].startswith("1")  # segment 1 got its source


def test_plugins_read_the_sources_in_orange_and_correlate(tmp_path, monkeypatch):
    """``orange --source`` and ``correlate --source`` hand each candidate's (and each
    reference's) source sentence to a plugin: a plugin scoring by source length gives every
    candidate of a segment the same score, so the references tie with all of them."""
    import json

    (tmp_path / "srcplug2.py").write_text(
        "def src_len(hyps, refs, srcs):\n    return [float(len(s)) for s in srcs]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    zhen = mqm_ted("zhen")["root"]
    refs = [str(zhen / "ref.txt"), str(zhen / "refB.txt")]
    systems = [str(zhen / f"{n}.txt") for n in ("SMU", "MiSS", "Online-W")]
    base = ["orange", "-r", *refs, "-s", *systems, "-m", "plugin:srcplug2:src_len"]
    run = tmp_path / "o.json"
    out = CliRunner().invoke(
        app, [*base, "--source", str(zhen / "source.txt"), "--bootstrap", "0", "--json", str(run)]
    )
    assert out.exit_code == 0, out.output
    row = json.loads(run.read_text())["results"]["table"]["rows"][0]
    assert row["avg_rank"] == pytest.approx(1 + 3 / 2)  # mid ties with the 3 candidates
    out = CliRunner().invoke(app, base)
    assert isinstance(out.exception, UserInputError) and "source" in str(out.exception)
    short = tmp_path / "short.txt"
    short.write_text("x\n")
    out = CliRunner().invoke(app, [*base, "--source", str(short)])
    assert isinstance(out.exception, UserInputError) and "short.txt:2:" in str(out.exception)

    corr = tmp_path / "c.json"
    out = CliRunner().invoke(
        app,
        ["correlate", *mqm_ted_args("zhen"), "-m", "plugin:srcplug2:src_len", "--source",
         str(zhen / "source.txt"), "--bootstrap", "0", "--test", "none", "--json", str(corr)],
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    from mtpalette.sources.inputs import load_task
    from mtpalette.stats.correlation import pearson

    data, _, _ = load_task(**mqm_ted_inputs("zhen"))
    src = read_lines(str(zhen / "source.txt"))
    lengths = np.array([float(len(src[i])) for i in data.info["lines"]])
    rated = ~np.isnan(data.human)
    metric = np.broadcast_to(lengths, data.human.shape)[rated]
    want = pearson(data.human[rated], metric)
    rows = json.loads(corr.read_text())["results"]["tables"][0]["rows"]
    [got] = [r["correlation"] for r in rows if not r["baseline"]]
    assert got == pytest.approx(want, abs=1e-12)
