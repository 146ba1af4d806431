"""Every public result of the Python API has ``to_pandas()`` (flat columns: no dict or list in
any cell; intervals as ``low``/``high`` columns) and ``to_json()`` (valid JSON), on the bundled
WMT21 TED zh-en data; and ``correlate`` takes several levels and statistics in one call."""

from __future__ import annotations

import json

import numpy as np
import pytest
from real_data import mqm_ted, mqm_ted_args, mqm_ted_inputs

import mtpalette
from mtpalette.api import (
    AgreementRun,
    AuditRun,
    BlancTrainRun,
    CandidateInputs,
    CorrelationRun,
    JudgedInputs,
    OrangeRun,
    RoseTrainRun,
    run_agreement,
    run_audit,
    run_correlation,
    run_orange,
    run_train_blanc,
    run_train_rose,
)
from mtpalette.io.plain import read_lines

ZHEN = mqm_ted("zhen")["root"]
NAMES = ("SMU", "MiSS", "Online-W", "NiuTrans")
N = 60  # segments kept: the shapes and types are under test here, not the values


def _flat(df) -> None:
    assert len(df) > 0 and len(df.columns) > 0
    for column in df.columns:
        for cell in df[column]:
            assert not isinstance(cell, dict | list | tuple | np.ndarray), (column, cell)


def _check(result) -> object:
    df = result.to_pandas()
    _flat(df)
    parsed = json.loads(result.to_json())
    assert parsed
    return df


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """The first N lines of two references and four systems, as files."""
    folder = tmp_path_factory.mktemp("small")
    refs, systems = [], []
    for name, out in [("ref", refs), ("refB", refs), *((n, systems) for n in NAMES)]:
        path = folder / f"{name}.txt"
        path.write_text("\n".join(read_lines(ZHEN / f"{name}.txt")[:N]) + "\n", encoding="utf-8")
        out.append(path)
    return refs, systems


def test_score_results(ted_zhen):
    systems, refs = ted_zhen
    hyps = {n: systems[n][:N] for n in NAMES}
    ref = [r[:N] for r in refs]
    corpus = mtpalette.corpus_score(hyps["SMU"], ref, ["chrf++", "bleu", "ter"])
    df = _check(corpus)
    assert list(df["metric"]) == ["chrf++", "bleu", "ter"]
    assert list(df["spec"]) == ["chrf:w=2", "bleu", "ter"]
    assert df["score"].tolist() == [s.value for s in corpus]
    _check(mtpalette.score_texts(hyps["SMU"], ref, ["chrf++"]))
    lists = [[hyps[n][i] for n in NAMES] for i in range(N)]
    chosen = mtpalette.mbr(lists, metric="chrf")
    df = _check(chosen)
    assert df["text"].tolist() == chosen.text and df["segment"].tolist() == list(range(1, N + 1))
    scored = mtpalette.score_systems(hyps, ref, ["chrf++", "ter"])
    df = _check(scored)
    assert df.shape[0] == 8 and list(df["system"][:2]) == ["SMU", "SMU"]
    assert df["score"].tolist() == [s.value for r in scored.values() for s in r.corpus]
    comparison = mtpalette.paired_test(hyps, ref, ["chrf++", "ter"], n_trials=50)
    df = _check(comparison)
    assert {"low", "high", "p_value"} <= set(df.columns) and "ci_low" not in df.columns
    assert (df["low"] <= df["high"]).all() and df["low"].notna().all()
    assert json.loads(comparison.to_json())["settings"]["trials"] == 50


def test_meta_evaluation_results(small, tmp_path):
    refs, systems = small
    orange = run_orange(OrangeRun(CandidateInputs(refs, systems=systems), ["chrf"], bootstrap=40))
    df = _check(orange)
    assert {"orange", "orange_low", "orange_high"} <= set(df.columns)
    assert json.loads(orange.to_json())["references"] is not None  # two references: agreement
    refs_df = _check(orange.references)  # the other references in one cell, not a list
    assert set(refs_df["against"]) == {"ref", "refB"}
    judged = JudgedInputs(**mqm_ted_inputs("zhen"))
    corr = run_correlation(
        CorrelationRun(judged, ["chrf"], bootstrap=40, permutations=20, max_items=N)
    )
    _check(corr)
    audit = run_audit(AuditRun(judged, metrics=["chrf"], bootstrap=40))
    df = _check(audit)
    # the audit's shares were nested {value, low, high} dicts in cells: now three columns each
    assert {"outranked", "outranked_low", "outranked_high", "humans_agree_low"} <= set(df.columns)
    row = audit.audit.rows[0]
    assert df["outranked_low"][0] == row.outranked.low and df["outranked"][0] == row.outranked.value
    _check(audit.audit)
    agree = run_agreement(AgreementRun(judged, ["chrf", "bleu"], bootstrap=40, max_items=N))
    _check(agree)
    _check(agree.agreement)


def test_training_results(small, tmp_path):
    refs, systems = small
    blanc = run_train_blanc(
        BlancTrainRun(
            objective="orange",
            candidates=CandidateInputs(refs=refs, systems=systems),
            max_evals=4,
            restarts=1,
        )
    )
    df = _check(blanc)
    assert len(df) == 1 and df["value"][0] == blanc.training.value
    ende = JudgedInputs(**mqm_ted_inputs("ende"))
    rose = run_train_rose(RoseTrainRun(inputs=ende, lang="de", C=0.1, epsilon=0.5))
    df = _check(rose)
    assert list(df["feature"]) == rose.model.features
    assert df["weight"].tolist() == pytest.approx(rose.model.weights)


def test_every_exported_result_type_has_both():
    from mtpalette.sources import scoring
    from mtpalette.stats.paired import SystemComparison

    names = [n for n in mtpalette.api.EXPORTS if n.endswith("Result")]
    types = [getattr(mtpalette.api, n) for n in names]
    types += [scoring.Scores, scoring.SystemScores, scoring.ScoreList, SystemComparison]
    from mtpalette.metaeval.agreement import Agreement
    from mtpalette.metaeval.audit import Audit
    from mtpalette.metaeval.correlation import CorrelationTable
    from mtpalette.metaeval.orange import OrangeTable

    types += [Agreement, Audit, CorrelationTable, OrangeTable, mtpalette.api.MbrSelection]
    assert len(names) >= 6
    for cls in types:
        assert callable(getattr(cls, "to_pandas", None)), cls
        assert callable(getattr(cls, "to_json", None)), cls


def test_correlate_several_levels_and_statistics(ted_zhen, cli):
    systems, refs = ted_zhen
    judged = JudgedInputs(**mqm_ted_inputs("zhen"))
    run = CorrelationRun(
        judged,
        ["chrf"],
        statistics=["pearson", "kendall"],
        level="segment,system",
        bootstrap=0,
        permutations=20,
        baselines=False,
    )
    result = run_correlation(run)
    assert [(t.level, t.statistic) for t in result.tables] == [
        ("segment", "pearson"),
        ("segment", "kendall-b"),
        ("system", "pearson"),
        ("system", "kendall-b"),
    ]
    df = result.to_pandas()
    _flat(df)
    # each table equals the run of its level and statistic alone
    for table in result.tables:
        alone = run_correlation(
            CorrelationRun(
                judged,
                ["chrf"],
                statistics=[table.statistic],
                level=table.level,
                bootstrap=0,
                permutations=20,
                baselines=False,
            )  # fmt: skip
        ).tables[0]
        got = df[(df["level"] == table.level) & (df["statistic"] == table.statistic)]
        assert got["correlation"].tolist() == [r.value for r in alone.rows]
    code, out, err = cli(
        "correlate", *mqm_ted_args("zhen"), "-m", "chrf", "--level", "segment,system",
        "--stat", "pearson", "--bootstrap", "0", "--permutations", "20", "--no-baselines", "-q",
    )  # fmt: skip
    assert code == 0, err
    assert "# Segment-level Pearson r" in out and "# System-level Pearson r" in out
    code, _, err = cli("correlate", *mqm_ted_args("zhen"), "--level", "segment,corpus", "-q")
    assert code == 2 and "unknown level 'corpus'" in err


def test_correlate_progress_counts_resamples_times_metrics():
    import contextlib

    from mtpalette.api import Feedback

    class Recorder(Feedback):
        bars = True

        def __init__(self) -> None:
            self.calls: list[tuple[int, int, str]] = []

        @contextlib.contextmanager
        def steps(self, description):
            yield lambda done, total, what: self.calls.append((done, total, what))

    rec = Recorder()
    run = CorrelationRun(
        JudgedInputs(**mqm_ted_inputs("zhen")),
        ["chrf", "bleu"],
        bootstrap=100,
        permutations=50,
        max_items=80,
        statistics=["pearson", "kendall"],
    )
    result = run_correlation(run, rec)
    baselines = [c for c in rec.calls if c[2].endswith("against the best baseline")]
    assert [c[:2] for c in baselines] == [(0, 2), (1, 2)]  # then the tests against baselines
    rec.calls = [c for c in rec.calls if c not in baselines]
    metrics = 2 + 3  # and the three length baselines
    done = [c[0] for c in rec.calls]
    assert done == sorted(done) and len(done) > 2 * metrics  # many steps, not one per table
    # each table: 100 resamples x 5 metrics, then 50 draws per pair of metrics compared
    assert done[metrics - 1] == 100 * metrics
    assert rec.calls[-1][0] == rec.calls[-1][1] >= 2 * 100 * metrics + 2 * 50 * (metrics - 1)
    assert {c[2] for c in rec.calls} == {
        "segment pearson: resamples x metrics",
        "segment kendall: resamples x metrics",
    }
    assert len(result.tables) == 2
