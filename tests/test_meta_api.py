"""The meta-evaluation API (``mtpalette.orange``, ``correlate``, ``audit``) gives the numbers of
the commands that read the same data from files, and results convert to pandas."""

from __future__ import annotations

import json

import numpy as np
import pytest
from real_data import mqm_ted, mqm_ted_args, mqm_ted_inputs
from typer.testing import CliRunner

import mtpalette
from mtpalette.cli.app import app
from mtpalette.errors import UserInputError
from mtpalette.sources.inputs import load_task

ZHEN = mqm_ted("zhen")["root"]
REFS = [str(ZHEN / "ref.txt"), str(ZHEN / "refB.txt")]


def _invoke(args):
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def test_orange_equals_the_command(tmp_path, ted_zhen):
    systems, refs = ted_zhen
    names = sorted(systems)[:6]
    folder = tmp_path / "sys"
    folder.mkdir()
    for name in names:
        (folder / f"{name}.txt").write_text("\n".join(systems[name]) + "\n", encoding="utf-8")
    run = tmp_path / "run.json"
    _invoke(
        ["orange", "--refs", *REFS, "--systems-dir", str(folder), "-m", "bleus:2", "wer"]
        + ["--bootstrap", "100", "--seed", "7", "--json", str(run), "--quiet"]
    )
    rows = json.loads(run.read_text())["results"]["table"]["rows"]
    table = mtpalette.orange(
        refs, {n: systems[n] for n in names}, ["bleus:2", "wer"], n_resamples=100, seed=7
    )
    frame = table.to_pandas()
    assert frame["metric"].tolist() == [r["metric"] for r in rows] == ["bleus:2", "wer"]
    for key in ("orange", "orange_low", "avg_rank_high", "equivalent_to_best", "signature"):
        assert frame[key].tolist() == [r[key] for r in rows], key


def test_correlate_equals_the_command(tmp_path):
    run = tmp_path / "run.json"
    _invoke(
        ["correlate", *mqm_ted_args("zhen"), "-m", "bleu", "chrf", "--bootstrap", "100"]
        + ["--seed", "5", "--json", str(run), "--quiet"]
    )
    rows = json.loads(run.read_text())["results"]["tables"][0]["rows"]
    data, _, _ = load_task(**mqm_ted_inputs("zhen"))
    human = {s: data.human[i].tolist() for i, s in enumerate(data.systems)}
    systems = {s: data.hyps[i] for i, s in enumerate(data.systems)}
    table = mtpalette.correlate(
        systems, data.refs, human, ["bleu", "chrf"], n_resamples=100, seed=5
    )
    frame = table.to_pandas()
    assert sorted(frame["metric"]) == sorted(r["metric"] for r in rows)
    by_metric = {r["metric"]: r for r in rows}
    for rec in frame.to_dict("records"):
        want = by_metric[rec["metric"]]
        assert rec["correlation"] == pytest.approx(want["correlation"], abs=1e-12)
        assert rec["low"] == pytest.approx(want["low"], abs=1e-12)
        assert rec["cluster"] == want["cluster"]


def test_correlate_scores_once_for_every_table(monkeypatch):
    """Several levels and statistics from Python: the metrics are scored once (the length
    baselines once more) and every table is the one a single call gives."""
    import mtpalette.sources.correlation as correlation

    data, _, _ = load_task(**mqm_ted_inputs("zhen"))
    data = data.select_items(range(60))
    human = {s: data.human[i].tolist() for i, s in enumerate(data.systems)}
    systems = {s: data.hyps[i] for i, s in enumerate(data.systems)}
    calls = []
    real = correlation.score_segments
    monkeypatch.setattr(
        correlation, "score_segments", lambda d, m: calls.append(len(m)) or real(d, m)
    )
    kw = dict(n_resamples=0, test="none")
    result = mtpalette.correlate(
        systems, data.refs, human, ["bleu", "chrf"], level=["segment", "system"],
        statistic=["pearson", "kendall"], **kw,
    )  # fmt: skip
    assert calls == [2, 3]  # the two metrics, then the three length baselines
    assert [(t.level, t.statistic) for t in result.tables] == [
        ("segment", "pearson"), ("segment", "kendall-b"),
        ("system", "pearson"), ("system", "kendall-b"),
    ]  # fmt: skip
    one = mtpalette.correlate(
        systems, data.refs, human, ["bleu", "chrf"], level="system", statistic="kendall", **kw
    )
    assert [r.value for r in result.tables[3].rows] == [r.value for r in one.rows]
    segment = result.tables[0].rows
    assert sorted(r.metric for r in segment if not r.baseline) == ["bleu", "chrf"]
    assert sum(r.baseline for r in segment) == 3
    assert not any(r.baseline for r in result.tables[2].rows)


def test_audit_and_nbest_lists(ted_zhen):
    systems, refs = ted_zhen
    names = sorted(systems)[:4]
    pool = {n: systems[n][:50] for n in names}
    few = [r[:50] for r in refs]
    a = mtpalette.audit(few, pool, ["bleus:4"], n_resamples=0)
    # the same candidates as n-best lists, one list per segment in system order
    nbest = [[pool[n][s] for n in names] for s in range(50)]
    b = mtpalette.audit(few, nbest, ["bleus:4"], n_resamples=0)
    assert a.rows[0].outranked.value == b.rows[0].outranked.value
    assert a.to_pandas()["metric"].tolist() == ["bleus:4"]
    t1 = mtpalette.orange(few, pool, "bleus:4", n_resamples=0)
    t2 = mtpalette.orange(few, nbest, "bleus:4", n_resamples=0)
    assert t1.rows[0].orange.value == t2.rows[0].orange.value


def test_bad_arguments_are_user_errors(ted_zhen):
    systems, refs = ted_zhen
    pool = {"A": systems["SMU"][:5], "B": systems["MiSS"][:5]}
    few = [r[:5] for r in refs]
    with pytest.raises(UserInputError, match="no human scores for system"):
        mtpalette.correlate(pool, few, {"A": [1.0] * 5}, ["bleu"])
    with pytest.raises(UserInputError, match="2 outputs and 5 human scores"):
        mtpalette.correlate({"A": ["x", "y"]}, [["a", "b"]], {"A": [1.0] * 5}, ["bleu"])
    with pytest.raises(UserInputError, match="at least 2"):
        mtpalette.orange(few[:1], pool, ["bleu"])
    with pytest.raises(UserInputError, match="list of strings"):
        mtpalette.orange(few, ["abc"] * 5, ["bleu"])
    with pytest.raises(UserInputError):
        mtpalette.orange(few, pool, ["bleu"], ties="sometimes")
    assert np.isfinite(mtpalette.orange(few, pool, ["bleu"], n_resamples=0).rows[0].avg_rank.value)


def test_orange_leaves_out_reference_copies_as_the_command(ted_zhen, capsys):
    """A system equal to a reference is not a candidate (it would rank against itself): the
    API leaves it out with a note, as ``mtpalette orange`` does, and refuses a pool of
    copies only."""
    systems, refs = ted_zhen
    few = [r[:40] for r in refs]
    pool = {n: systems[n][:40] for n in sorted(systems)[:3]}
    plain = mtpalette.orange(few, pool, ["bleus:2"], n_resamples=0)
    with_copy = mtpalette.orange(few, {**pool, "copy": few[1]}, ["bleus:2"], n_resamples=0)
    assert "left out, a copy of a reference: copy (= refs[1])" in capsys.readouterr().err
    assert with_copy.rows[0].orange.value == plain.rows[0].orange.value
    with pytest.raises(UserInputError, match="every system is a copy of a reference"):
        mtpalette.orange(few, {"a": few[0], "b": few[1]}, ["bleus:2"], n_resamples=0)


def test_correlate_with_system_level_human_scores(ted_zhen):
    """Human scores per system (WMT system-level DA style): the metrics' corpus scores are
    correlated across systems, as numpy's Pearson on the corpus scores."""
    from mtpalette.sources.inputs import load_task

    systems, refs = ted_zhen
    data, _, _ = load_task(**mqm_ted_inputs("zhen"))
    means = {s: float(np.nanmean(data.human[i])) for i, s in enumerate(data.systems)}
    names = [s for s in systems if s in means]
    table = mtpalette.correlate(
        {s: systems[s] for s in names}, refs, {s: means[s] for s in names}, ["bleu", "ter"],
        n_resamples=200,
    )  # fmt: skip
    assert table.level == "system" and table.n_units == len(names)
    for spec, sign in (("bleu", 1.0), ("ter", -1.0)):
        m = [sign * mtpalette.corpus_score(systems[s], refs, spec)[0].value for s in names]
        h = [means[s] for s in names]
        assert table.row(spec).value == pytest.approx(np.corrcoef(h, m)[0, 1], abs=1e-12)
