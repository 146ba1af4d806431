"""Long tables (one row per system and segment: ``system``, ``segment``, ``hyp``, reference
columns and the human ``score``, the layout pandas users keep) feed ``orange``, ``correlate``
and ``audit`` as they feed ``score``: the numbers equal those of the same texts given as
Python lists, in every format the one table reader reads (JSONL, TSV, CSV, Parquet), and a
table whose system column is missing is refused, never pooled."""

from __future__ import annotations

import csv
import json
import math

import pytest
from real_data import mqm_ted_inputs

import mtpalette
from mtpalette.api import JudgedInputs

N = 120  # segments kept (every system), enough for real correlations


@pytest.fixture(scope="module")
def judged():
    """The bundled TED zh-en MQM data: 13 systems' outputs, two references, human scores."""
    data = JudgedInputs(**mqm_ted_inputs("zhen")).load().data
    systems = {s: data.hyps[k][:N] for k, s in enumerate(data.systems)}
    human = {
        s: [None if math.isnan(x) else float(x) for x in data.human[k][:N]]
        for k, s in enumerate(data.systems)
    }
    return systems, [r[:N] for r in data.refs], human


def _rows(judged):
    systems, refs, human = judged
    return [
        {"system": s, "segment": i + 1, "hyp": systems[s][i], "ref": refs[0][i],
         "refB": refs[1][i], "score": human[s][i]}
        for s in systems
        for i in range(N)
    ]  # fmt: skip


def _write(rows, path, fmt):
    if fmt == "jsonl":
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    elif fmt in ("tsv", "csv"):
        with open(path, "w", encoding="utf-8", newline="") as f:
            w = csv.DictWriter(f, list(rows[0]), delimiter="\t" if fmt == "tsv" else ",")
            w.writeheader()
            w.writerows({k: "" if v is None else v for k, v in r.items()} for r in rows)
    else:
        import pandas as pd

        pd.DataFrame(rows).to_parquet(path)
    return path


@pytest.mark.parametrize("fmt", ["jsonl", "tsv", "csv", "parquet"])
def test_correlate_from_a_long_table_equals_the_lists(judged, tmp_path, cli, fmt):
    systems, refs, human = judged
    path = _write(_rows(judged), tmp_path / f"long.{fmt}", fmt)
    args = ["correlate", "--table", path, "--ref-col", "ref", "refB", "-m", "chrf", "bleus:4"]
    args += ["--stat", "pearson,kendall", "--bootstrap", "0", "--no-baselines", "--csv"]
    code, _, err = cli(*args, tmp_path / "c.csv", "-q")
    assert code == 0, err
    got = list(csv.DictReader(open(tmp_path / "c.csv", encoding="utf-8")))
    for stat in ("pearson", "kendall"):
        table = mtpalette.correlate(systems, refs, human, ["chrf", "bleus:4"], statistic=stat,
                                    n_resamples=0, baselines=False)  # fmt: skip
        mine = {r["metric"]: float(r["correlation"]) for r in got if r["statistic"] in (stat,
                table.statistic)}  # fmt: skip
        assert mine == pytest.approx({r.metric: r.value for r in table.rows}, rel=1e-12)


def test_orange_and_audit_from_a_long_table_equal_the_lists(judged, tmp_path, cli):
    systems, refs, _ = judged
    path = _write(_rows(judged), tmp_path / "long.jsonl", "jsonl")
    table = ["--table", path, "--ref-col", "ref", "refB", "-m", "chrf", "--bootstrap", "0", "-q"]
    code, out, err = cli("orange", *table)
    assert code == 0, err
    expected = mtpalette.orange(refs, systems, ["chrf"], n_resamples=0).rows[0]
    assert f"{100 * expected.orange.value:.2f}%" in out
    assert "13 candidates per list" in out and "13-13" not in out  # issue 54
    header = next(line for line in out.splitlines() if line.startswith("Method\t"))
    assert "" not in header.split("\t") and header.endswith("\tvs best")  # no empty header
    code, out, err = cli("audit", *table)
    assert code == 0, err
    audit = mtpalette.audit(refs, systems, ["chrf"], n_resamples=0).rows[0]
    assert f"{100 * audit.outranked.value:.1f}%" in out.splitlines()[2]


def test_a_table_without_its_columns_is_refused(judged, tmp_path, cli):
    rows = [{k: v for k, v in r.items() if k != "system"} for r in _rows(judged)]
    path = _write(rows, tmp_path / "nosys.jsonl", "jsonl")
    for command in ("orange", "correlate", "audit"):
        code, _, err = cli(command, "--table", path, "--ref-col", "ref", "refB", "-q")
        assert code == 2 and "no 'system' column (--system-col)" in err, err
        assert "Traceback" not in err
    path = _write(_rows(judged), tmp_path / "long.jsonl", "jsonl")
    code, _, err = cli("correlate", "--table", path, "--human-col", "mqm", "-q")
    assert code == 2 and "no 'mqm' column (--human-col)" in err
    code, _, err = cli("orange", "--table", path, "-r", tmp_path / "x.txt", "-q")
    assert code == 2 and "--table holds the outputs and references" in err
    # one output column: a second one is an error, never a silent override
    code, _, err = cli("orange", "--table", path, "--hyp-col", "hyp", "ref", "-q")
    assert code == 2 and "unexpected extra argument" in err


def test_runs_with_a_table_save_and_load_themselves(tmp_path):
    from mtpalette.api import CandidateInputs, CorrelationRun, OrangeRun

    table = tmp_path / "long.jsonl"
    run = CorrelationRun(JudgedInputs(table=table, ref_cols=["ref", "refB"], human_col="mqm"),
                         ["chrf"], level="segment,system")  # fmt: skip
    again = CorrelationRun.load(run.save(tmp_path / "c.json"))
    assert again == run and again.levels == ["segment", "system"]
    assert again.inputs.table == table and again.inputs.human_col == "mqm"
    real = JudgedInputs(**mqm_ted_inputs("zhen"))
    listed = CorrelationRun(real, ["chrf"], level=["system", "segment"])
    assert CorrelationRun.load(listed.save(tmp_path / "l.json")).levels == ["system", "segment"]
    orange = OrangeRun(CandidateInputs(table=table, ref_cols=["ref", "refB"]), ["chrf"])
    assert OrangeRun.load(orange.save(tmp_path / "o.json")) == orange


def test_a_table_with_both_segment_and_seg_id_is_refused(judged, tmp_path, cli):
    # which of the two holds the ids cannot be told (the judgments' reader refuses it too);
    # once the long tables silently took 'segment'
    rows = [{**r, "seg_id": N + 1 - r["segment"]} for r in _rows(judged)]
    path = _write(rows, tmp_path / "both.jsonl", "jsonl")
    for args in (["score", "-m", "chrf"], ["correlate", "-q"], ["orange", "-q"]):
        code, _, err = cli(*args, "--table", path, "--ref-col", "ref", "refB")
        assert code == 2, (args, err)
        assert "columns 'segment', 'seg_id' could each be the segment; keep one" in err
        assert "Traceback" not in err
