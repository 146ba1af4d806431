"""The round-4 bad-input matrix (issue 40), part 2: every value validated where it enters.

(d) task files, long tables, judgments, score files of other tools (COMET's JSON, MetricX's
JSON Lines, mtpalette's TSV), resample counts and levels, each refused with the file, the line
or field, and what was expected (and a few values valid after all, with their result); (e) the
Python API given pandas DataFrames and float counts; (f) degenerate statistics said in every
output format (text, JSON, CSV, the report); (g) warnings as one line ``warning: ...`` without
an internal path. Part 1 (outputs, stored scores, chunk files) is test_bad_input_round4.py.
"""

from __future__ import annotations

import json
import warnings

import pandas as pd
import pytest
from bad_input_files import (
    NO_TEST,
    SYS4,
    argv_of,
    case_params,
    check_api_case,
    inputs_with,
    judgments,
    lines,
    run,
    run_case,
)

import mtpalette

S3 = ["s1", "s2", "s3"]


def _comet(edit=None, n: int = 12) -> str:
    obj = {f"{s}.txt": [{"src": "a", "mt": "b", "ref": "c", "COMET": 0.1 * ((i * 3 + k) % 7)}
                        for i in range(n)] for k, s in enumerate(S3)}  # fmt: skip
    if edit is not None:
        edit(obj)
    return json.dumps(obj)


def _metricx(edit=None) -> str:
    rows = [{"system_id": s, "segment_id": i, "prediction": float((i * 3 + k) % 7)}
            for k, s in enumerate(S3) for i in range(12)]  # fmt: skip
    if edit is not None:
        edit(rows)
    return "".join(json.dumps(r) + "\n" for r in rows)


def _set(i: int, key: str, value):
    return lambda rows: rows[i].__setitem__(key, value)


def _tsv(edit=None) -> str:
    rows = ["system\tsegment\tscore"]
    rows += [f"{s}\t{i}\t{(i * 3 + k) % 7}" for k, s in enumerate(S3) for i in range(1, 13)]
    return "\n".join(edit(rows) if edit else rows) + "\n"


def _long_table(scored: bool) -> str:
    """Two systems' rows and no system column."""
    rows = ["hyp\tref\tsegment" + ("\tscore" if scored else "")]
    for k, hyp in enumerate(lines("SMU") + lines("MiSS")):
        score = f"\t{k % 5}" if scored else ""
        rows.append(f"{hyp}\t{lines('ref')[k % 12]}\t{k % 12 + 1}{score}")
    return "\n".join(rows) + "\n"


def _judgments_jsonl(s2_3) -> str:
    """Judgments as JSON Lines, system s2's segment 3 scored ``s2_3``."""
    rows = [{"system": s, "segment": i, "score": s2_3 if (s, i) == ("s2", 3) else 0.5}
            for s in ("s1", "s2", "s3", "s4") for i in range(1, 13)]  # fmt: skip
    return "".join(json.dumps(r) + "\n" for r in rows)


TASK = {"lang": "zh-en", "level": "sys", "corr_fcn": "pearson"}
KENDALL = {**TASK, "corr_fcn": "kendall"}
#: name: content of the value files (the ``{name}`` of the case tables)
FILES = {
    "t_zero.json": json.dumps([{**TASK, "weight": 0}, {**KENDALL, "weight": 0}]),
    "t_empty.json": "[]",
    "t_empty_dict.json": '{"tasks": []}',
    "t_k_ten.json": json.dumps([{**TASK, "k": "ten"}]),
    "t_k_true.json": json.dumps([{**TASK, "k": True}]),
    "t_negative.json": json.dumps([{**TASK, "weight": -1}, {**TASK, "corr_fcn": "kendall"}]),
    "t_nan.json": '[{"lang": "zh-en", "weight": NaN}]',
    "t_nan_text.json": json.dumps([{**TASK, "weight": "NaN"}]),
    "t_huge.json": json.dumps([{**TASK, "weight": 1e308}, {**KENDALL, "weight": 1e308}]),
    "t_unknown_field.json": json.dumps([{**TASK, "colour": "red"}]),
    "t_unknown_key.json": json.dumps({"tasks": [TASK], "weights": [1]}),
    "t_pval.json": json.dumps([{**TASK, "pval": 5}]),
    "t_human.json": json.dumps([{**TASK, "human": "no"}]),
    "t_lang.json": json.dumps([{**TASK, "lang": "../.."}]),
    "t_number.json": "3",
    "t_no_k.json": json.dumps([TASK]),
    "long_nosys.tsv": _long_table(scored=False),
    "long_nosys_scored.tsv": _long_table(scored=True),
    "items_nosys.tsv": "item\tscore\n" + "".join(f"{i}\t{i % 5}\n" for i in range(1, 13)) * 2,
    "j_true.jsonl": _judgments_jsonl(s2_3=True),
    "comet.json": _comet(),
    "comet_word.json": _comet(lambda o: o["s2.txt"][3].__setitem__("COMET", "high")),
    "comet_null.json": _comet(lambda o: o["s2.txt"][3].__setitem__("COMET", None)),
    "comet_true.json": _comet(lambda o: o["s2.txt"][3].__setitem__("COMET", True)),
    "comet_short.json": _comet(lambda o: o["s2.txt"].pop()),
    "comet_nokey.json": _comet(lambda o: o["s2.txt"][3].pop("COMET")),
    "comet_nan.json": _comet().replace('"COMET": 0.0', '"COMET": NaN', 1),
    "comet_list.json": "[1, 2]",
    "mx.jsonl": _metricx(),
    "mx_null.jsonl": _metricx(_set(5, "system_id", None)),
    "mx_true.jsonl": _metricx(_set(5, "prediction", True)),
    "mx_negative.jsonl": _metricx(_set(5, "segment_id", -1)),
    "mx_float.jsonl": _metricx(_set(5, "segment_id", 1.5)),
    "mx_word.jsonl": _metricx(_set(5, "prediction", "x")),
    "mx_duplicate.jsonl": _metricx(_set(5, "segment_id", 4)),
    "mx_short.jsonl": _metricx(lambda rows: rows.pop()),
    "sc.tsv": _tsv(),
    "sc_nan.tsv": _tsv(lambda r: [*r[:5], "s1\t5\tnan", *r[6:]]),
    "sc_duplicate.tsv": _tsv(lambda r: [*r, "s1\t1\t0.5"]),
    "sc_nocolumn.tsv": _tsv(lambda r: ["system\tsegment\tvalue", *r[1:]]),
}  # fmt: skip
WMT = "wmt --mtme {mtme} --lp zh-en --mtme-metrics chrF sentBLEU"
CORR = f"correlate -j {{j}} -r {{r1}} {SYS4} -m chrf {NO_TEST}"
RANK = "rank --scores x={sc}"
#: (id, command line, exit code, what the message or the output says)
CASES = [
    # task files: each refused with the file and the task, once a traceback or nan numbers
    ("tasks-weights-sum-to-0", f"{WMT} --tasks {{t_zero}}", 2,
     "{t_zero}: every task has weight 0: nothing to average"),
    ("tasks-empty-list", f"{WMT} --tasks {{t_empty}}", 2,
     "{t_empty}: no task: expected a list of one task or more"),
    ("tasks-empty-tasks", f"{WMT} --tasks {{t_empty_dict}}", 2, "{t_empty_dict}: no task"),
    ("tasks-k-ten", f"{WMT} --tasks {{t_k_ten}}", 2,
     "{t_k_ten}: task 1: task zh-en/sys/pearson: k is 'ten'; expected int"),
    ("tasks-k-true", f"{WMT} --tasks {{t_k_true}}", 2,
     "{t_k_true}: task 1: task zh-en/sys/pearson: k is True; expected int"),
    ("tasks-negative-weight", f"{WMT} --tasks {{t_negative}}", 2,
     "{t_negative}: task 1: weight -1; expected a finite number >= 0"),
    ("tasks-nan-weight", f"{WMT} --tasks {{t_nan}}", 2,
     "{t_nan}: task 1: weight nan; expected a finite number >= 0"),
    ("tasks-nan-text-weight", f"{WMT} --tasks {{t_nan_text}}", 2,
     "{t_nan_text}: task 1: weight 'NaN' is not a number"),
    ("tasks-unknown-field", f"{WMT} --tasks {{t_unknown_field}}", 2,
     "{t_unknown_field}: task 1: unknown field(s) colour; expected"),
    ("tasks-unknown-key", f"{WMT} --tasks {{t_unknown_key}}", 2,
     "{t_unknown_key}: unknown key(s) weights; expected a list of tasks"),
    ("tasks-pval-5", f"{WMT} --tasks {{t_pval}}", 2,
     "{t_pval}: task 1: task zh-en/sys/pearson: pval must be between 0 and 1"),
    ("tasks-human-text", f"{WMT} --tasks {{t_human}}", 2,
     "{t_human}: task 1: task zh-en/sys/pearson: human is 'no'; expected bool"),
    ("tasks-lang-dotdot", f"{WMT} --tasks {{t_lang}}", 2,
     "language pair '../..' would reach outside the folder"),
    ("tasks-a-number", f"{WMT} --tasks {{t_number}}", 2,
     "{t_number}: expected a list of tasks or {{'tasks': [...]}}"),
    ("tasks-huge-weights", f"{WMT} --tasks {{t_huge}}", 0, "(weight 0.500)"),
    ("tasks-k-given", f"{WMT} --tasks {{t_no_k}} -k 0", 0, "zh-en sys pearson (avg_by none, k 0)"),
    ("tasks-k-not-given", f"{WMT} --tasks {{t_no_k}}", 0,
     "zh-en sys pearson (avg_by none, k 1000)"),
    # long tables without their system column: never pooled into one system
    ("score-table-without-system-column", "score --table {long_nosys} -m bleu", 2,
     "{long_nosys}:14: segment '1' again (first on line 2): rows of several systems"),
    ("orange-table-without-system-column", "orange --table {long_nosys} -m chrf", 2,
     "{long_nosys}: no 'system' column (--system-col)"),
    ("correlate-table-without-system-column",
     f"correlate --table {{long_nosys_scored}} -m chrf {NO_TEST}", 2,
     "{long_nosys_scored}: no 'system' column (--system-col)"),
    ("rank-table-without-system-column", "rank --table {items_nosys}", 2,
     "{items_nosys}:1: no column 'system'"),
    # judgments: a JSON true is no score (once 1.0)
    ("judgments-score-true", CORR.replace("{j}", "{j_true}"), 2,
     "{j_true}:15: score True is not a number"),
    # score files of other tools (rank --scores)
    ("comet-json", "rank --scores c={comet}", 0, "# c: wilcoxon"),
    ("comet-word", "rank --scores c={comet_word}", 2,
     "{comet_word}: 's2.txt' segment 4: COMET score 'high' is not a finite number"),
    ("comet-null", "rank --scores c={comet_null}", 2,
     "{comet_null}: 's2.txt' segment 4: COMET score None is not a finite number"),
    ("comet-true", "rank --scores c={comet_true}", 2,
     "{comet_true}: 's2.txt' segment 4: COMET score True is not a finite number"),
    ("comet-nan", "rank --scores c={comet_nan}", 2,
     "{comet_nan}: 's1.txt' segment 1: COMET score nan is not a finite number"),
    ("comet-one-file-short", "rank --scores c={comet_short}", 2,
     "{comet_short}: 's2.txt' has 11 segments, 's1.txt' 12"),
    ("comet-no-score", "rank --scores c={comet_nokey}", 2,
     "{comet_nokey}: 's2.txt' segment 4: expected an object with a COMET score"),
    ("comet-a-list", "rank --scores c={comet_list}", 2,
     "{comet_list}: expected COMET's --to_json layout"),
    ("metricx-jsonl", "rank --scores m={mx}", 0, "lower is better"),
    ("metricx-null-system", "rank --scores m={mx_null}", 2,
     "{mx_null}:6: system_id is null; expected a system name"),
    ("metricx-true-prediction", "rank --scores m={mx_true}", 2,
     "{mx_true}:6: score True is not a number"),
    ("metricx-negative-segment", "rank --scores m={mx_negative}", 2,
     "{mx_negative}:6: segment_id -1 is not a 0-based segment number"),
    ("metricx-float-segment", "rank --scores m={mx_float}", 2,
     "{mx_float}:6: segment_id 1.5 is not a 0-based segment number"),
    ("metricx-word-prediction", "rank --scores m={mx_word}", 2,
     "{mx_word}:6: score 'x' is not a number"),
    ("metricx-duplicate", "rank --scores m={mx_duplicate}", 2,
     "{mx_duplicate}:6: system 's1' item 5 scored twice (first on line 5)"),
    ("metricx-system-short", "rank --scores m={mx_short}", 2,
     "{mx_short}: system 's3' has no score for segment 11"),
    ("tsv-nan", "rank --scores t={sc_nan}", 2, "{sc_nan}:6: score 'nan' is not a finite number"),
    ("tsv-duplicate", "rank --scores t={sc_duplicate}", 2,
     "{sc_duplicate}:38: duplicate score for system 's1', segment 1"),
    ("tsv-no-score-column", "rank --scores t={sc_nocolumn}", 2, "{sc_nocolumn}"),
    # counts and levels
    ("rank-resamples-0", f"{RANK} --protocol bootstrap --resamples 0", 2,
     "--resamples must be 1 or more (got 0)"),
    ("rank-resamples-negative", f"{RANK} --protocol bootstrap --resamples -5", 2,
     "--resamples must be 1 or more (got -5)"),
    ("rank-resamples-float", f"{RANK} --protocol bootstrap --resamples 1.5", 2,
     "'1.5' is not a valid int"),
    ("rank-alpha-0", f"{RANK} --alpha 0", 2, "--alpha must be between 0 and 1 (got 0.0)"),
    ("rank-alpha-1", f"{RANK} --alpha 1", 2, "--alpha must be between 0 and 1 (got 1.0)"),
    ("rank-alpha-nan", f"{RANK} --alpha nan", 2, "--alpha must be between 0 and 1 (got nan)"),
    ("rank-alpha-negative", f"{RANK} --alpha -0.5", 2,
     "--alpha must be between 0 and 1 (got -0.5)"),
    ("correlate-alpha-nan", f"{CORR} --alpha nan", 2, "--alpha must be between 0 and 1"),
    ("correlate-alpha-inf", f"{CORR} --alpha inf", 2, "--alpha must be between 0 and 1"),
    ("correlate-bootstrap-float", f"{CORR} --bootstrap 1.5", 2, "'1.5' is not a valid int"),
    ("wmt-k-float", f"{WMT} -k 1.5", 2, "'1.5' is not a valid int"),
    ("wmt-k-negative", f"{WMT} -k -3", 2, "-k must be 0 (no tests) or more resamples, got -3"),
    ("mbr-segments-float", "mbr {nb} -m chrf --segments 1.5", 2, "'1.5' is not a valid int"),
    # valid after all: the numbers written as numbers, every digit kept
    ("mbr-scores-plain-floats", "mbr {nb} -m chrf --scores -", 0,
     "segment\tindex\tutility\tcandidate\n0\t0\t67.03483475651092\t"),
    ("score-tsv-details-every-digit", "score -r {r1} -i {s1} -m bleu -f tsv", 0,
     "bp=0.9236055442270112 ratio=0.9263803680981595"),
]  # fmt: skip


@pytest.fixture(scope="module")
def names(tmp_path_factory) -> dict[str, str]:
    return inputs_with(tmp_path_factory.mktemp("inputs"), FILES)


@pytest.mark.parametrize(("argv", "code", "expected"), case_params(CASES))
def test_values(names, tmp_path, monkeypatch, capsys, argv, code, expected):
    out, err = run_case(names, tmp_path, monkeypatch, capsys, argv, code)
    assert expected.format(**names) in (err if code == 2 else out), (err + out)[-2000:]
    if code == 2:
        assert err.splitlines()[-1].startswith("mtpalette: error: ") or "Usage:" in err
        assert "np.float64" not in out + err
    assert list(tmp_path.iterdir()) == []  # nothing written where it runs
    assert "np.float64" not in out


# --------------------------------------------------------------------------------------------
# (e) the Python API: DataFrames where lists are expected, float counts
H, H2, H3 = lines("SMU", 6), lines("MiSS", 6), lines("NiuTrans", 6)
R, RB = lines("ref", 6), lines("refB", 6)
SYS = {"a": H, "b": H2, "c": H3}
HUMAN = {s: [float((i * 7 + k * 3) % 5) for i in range(6)] for k, s in enumerate(SYS)}
QUICK = dict(n_resamples=0, n_permutations=0)


def _sentence(hyps, refs) -> list[float]:
    return list(mtpalette.sentence_scores(hyps, refs, "chrf")["chrf"])


def _orange(refs, systems) -> float:
    return mtpalette.orange(refs, systems, "chrf", n_resamples=0).rows[0].orange.value


def _paired(systems) -> list:
    return mtpalette.paired_test(systems, [R], "bleu", n_trials=50).rows()


API_CASES = [  # (id, call, ("equal", the same as this call) or ("error", message))
    ("corpus-hyps-dataframe",
     lambda: mtpalette.corpus_score(pd.DataFrame({"hyp": H}), [R], "chrf")[0].value,
     ("equal", lambda: mtpalette.corpus_score(H, [R], "chrf")[0].value)),
    ("corpus-refs-dataframe",
     lambda: mtpalette.corpus_score(H, pd.DataFrame({"A": R, "B": RB}), "chrf")[0].value,
     ("equal", lambda: mtpalette.corpus_score(H, [R, RB], "chrf")[0].value)),
    ("corpus-hyps-dataframe-two-columns",
     lambda: mtpalette.corpus_score(pd.DataFrame({"a": H, "b": H2}), [R], "chrf"),
     ("error", "hyps is a DataFrame with columns a, b; expected a list of strings")),
    ("corpus-refs-series", lambda: mtpalette.corpus_score(H, pd.Series(R), "chrf"),
     ("error", "refs[0] is a string; with one reference per segment write refs=[refs]")),
    ("sentence-dataframes", lambda: _sentence(pd.DataFrame({"h": H}), pd.DataFrame({"r": R})),
     ("equal", lambda: _sentence(H, [R]))),
    ("score-systems-dataframe",
     lambda: mtpalette.score_systems(pd.DataFrame(SYS), [R], "chrf")["b"].corpus[0].value,
     ("equal", lambda: mtpalette.score_systems(SYS, [R], "chrf")["b"].corpus[0].value)),
    ("correlate-systems-dataframe",
     lambda: mtpalette.correlate(pd.DataFrame(SYS), [R], HUMAN, "chrf", **QUICK).rows[0].value,
     ("equal", lambda: mtpalette.correlate(SYS, [R], HUMAN, "chrf", **QUICK).rows[0].value)),
    ("correlate-refs-dataframe",
     lambda: mtpalette.correlate(SYS, pd.DataFrame({"r": R}), HUMAN, "chrf", **QUICK).rows[0].value,
     ("equal", lambda: mtpalette.correlate(SYS, [R], HUMAN, "chrf", **QUICK).rows[0].value)),
    ("correlate-human-dataframe",
     lambda: mtpalette.correlate(SYS, [R], pd.DataFrame(HUMAN), "chrf"),
     ("error", "human is DataFrame; expected {system: scores} or {system: score}")),
    ("correlate-float-resamples",
     lambda: mtpalette.correlate(SYS, [R], HUMAN, "chrf", n_resamples=100.5),
     ("error", "n_resamples is 100.5; expected a whole number (0 or more)")),
    ("correlate-float-permutations",
     lambda: mtpalette.correlate(SYS, [R], HUMAN, "chrf", n_permutations=10.5),
     ("error", "n_permutations is 10.5; expected a whole number")),
    ("correlate-text-resamples",
     lambda: mtpalette.correlate(SYS, [R], HUMAN, "chrf", n_resamples="100"),
     ("error", "n_resamples is '100'; expected a whole number")),
    ("correlate-text-alpha", lambda: mtpalette.correlate(SYS, [R], HUMAN, "chrf", alpha="0.05"),
     ("error", "alpha is '0.05'; expected a number between 0 and 1")),
    ("orange-systems-dataframe", lambda: _orange([R, RB], pd.DataFrame(SYS)),
     ("equal", lambda: _orange([R, RB], SYS))),
    ("orange-refs-dataframe", lambda: _orange(pd.DataFrame({"A": R, "B": RB}), SYS),
     ("equal", lambda: _orange([R, RB], SYS))),
    ("orange-float-resamples", lambda: mtpalette.orange([R, RB], SYS, "chrf", n_resamples=10.5),
     ("error", "the number of resamples must be an integer, got 10.5")),
    ("audit-float-resamples", lambda: mtpalette.audit([R, RB], SYS, "chrf", n_resamples=10.5),
     ("error", "the number of resamples must be an integer, got 10.5")),
    ("paired-float-trials",
     lambda: mtpalette.paired_test({"A": H, "B": H2}, [R], "bleu", n_trials=100.5),
     ("error", "n_trials is 100.5; expected a whole number (0 or more)")),
    ("paired-systems-dataframe", lambda: _paired(pd.DataFrame({"A": H, "B": H2})),
     ("equal", lambda: _paired({"A": H, "B": H2}))),
]  # fmt: skip


@pytest.mark.parametrize(("call", "expected"), [pytest.param(c, e, id=i) for i, c, e in API_CASES])
def test_python_api(call, expected):
    check_api_case(call, expected)


# --------------------------------------------------------------------------------------------
# (f) degenerate statistics: the note in the text, the run file, the CSV and the report
DEGENERATE = {  # judgments, systems, options, the note
    "constant-within-every-item": (
        judgments(score=lambda s, k, i: f"{(i % 5) / 10:.1f}"), SYS4, "",
        "12 of 12 items have human scores all equal: no correlation is defined for them"),
    "two-systems-item-kendall": (
        judgments(), "-s {s1} {s2}", "--stat kendall",
        "12 of 12 items have two rated systems: a correlation of two entries is +1 or -1"),
    "items-with-one-rating": (
        judgments(skip=lambda s, i: i <= 3 and s != "s1"), SYS4, "",
        "3 of 12 items have one rated system: left out"),
}  # fmt: skip


def _degenerate_cases() -> list:
    cases = []
    for name, spec in DEGENERATE.items():
        for fmt in ("text", "json", "csv", "report"):
            cases.append(pytest.param(*spec, fmt, id=f"{name}-{fmt}"))
    return cases


@pytest.mark.parametrize(("human", "systems", "extra", "note", "fmt"), _degenerate_cases())
def test_degenerate_note_in_every_format(
    names, tmp_path, monkeypatch, capsys, human, systems, extra, note, fmt
):
    (tmp_path / "j.tsv").write_text(human, encoding="utf-8")
    out = {"text": "", "json": "--json {o}/run.json", "csv": "--csv {o}/t.csv",
           "report": "--permutations 10 --report {o}/r.html"}[fmt]  # fmt: skip
    argv = (f"correlate -j {tmp_path / 'j.tsv'} -r {{r1}} {systems} -m chrf --bootstrap 0 "
            f"--grouping item {extra} {out}")  # fmt: skip
    if fmt != "report":
        argv += " --permutations 0"
    got, stdout, err = run(monkeypatch, capsys, argv_of(argv, {**names, "o": str(tmp_path)}))
    assert got == 0 and "Traceback" not in err, err[-2000:]
    where = {
        "text": lambda: stdout,
        "json": lambda: "\n".join(t["degenerate"]["notes"][0] for t in json.loads(
            (tmp_path / "run.json").read_text())["results"]["tables"]),
        "csv": lambda: pd.read_csv(tmp_path / "t.csv")["note"].iloc[0],
        "report": lambda: (tmp_path / "r.html").read_text(encoding="utf-8"),
    }[fmt]()  # fmt: skip
    assert note in where


# --------------------------------------------------------------------------------------------
# (g) warnings: one line, "warning: ...", no internal file or source line
WARNING_CASES = [  # (id, command line, what the warning says)
    ("score-bom", "score -r {r1} -i {bom} -m bleu",
     "{bom}: the UTF-8 byte-order mark at its start was dropped"),
    ("correlate-bom",
     f"correlate -j {{j}} -r {{r1}} -s {{bom}} {{s2}} {{s3}} {{s4}} -m chrf {NO_TEST}",
     "byte-order mark at its start was dropped (sacrebleu keeps it"),
    ("orange-bom", "orange -r {r1} {r2} -s {bom} {s2} {s3} -m chrf --bootstrap 0",
     "MTPALETTE_KEEP_BOM=1 does the same"),
    ("score-rouge-score-tokenizer", "score -r {zhref} -i {zh} -m rouge-n:1,tok=rouge-score",
     "the rouge-score tokenizer keeps only a-z and 0-9: 2 of 2 texts lost most of their letters"),
    ("score-rouge-l-rouge-score-tokenizer", "score -r {zhref} -i {zh} -m rouge-l:tok=rouge-score",
     "texts lost most of their letters"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "says"), [pytest.param(a, s, id=i) for i, a, s in WARNING_CASES])
def test_warnings_are_one_line(names, tmp_path, monkeypatch, capsys, argv, says):
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("always")  # as a first run shows it (the suite may ignore them)
        got, _, err = run(monkeypatch, capsys, argv_of(argv, names))
    assert got == 0, err[-2000:]
    shown = [line for line in err.splitlines() if says.format(**names) in line]
    assert len(shown) == 1 and shown[0].startswith("warning: "), err
    assert ".py" not in err and "Warning:" not in err and "warnings.warn" not in err, err
    assert list(tmp_path.iterdir()) == []


def test_keep_bom_scores_as_sacrebleu(names, monkeypatch, capsys):
    """The mark dropped (and said) by default; MTPALETTE_KEEP_BOM=1 keeps it as sacrebleu."""
    argv = argv_of("score -r {r1} -i {bom} -m bleu -f tsv", names)
    plain = run(monkeypatch, capsys, argv_of("score -r {r1} -i {s1} -m bleu -f tsv", names))[1]
    dropped = run(monkeypatch, capsys, argv)[1]
    monkeypatch.setenv("MTPALETTE_KEEP_BOM", "1")
    kept, err = run(monkeypatch, capsys, argv)[1:]
    assert dropped == plain and kept != plain and "byte-order mark" not in err
