"""The round-5 bad-input matrix (issue 51), values: each refused where it enters, with the
argument or the file and line, and what was expected.

(a) ``analyze --confidence`` outside (0, 1) and ``--top`` below 1 (-1 was read as "all but the
last", 0 showed empty tables: 1 or more, every example is a number as large as the test set);
(b) a blank line of a ``--labels`` file (once a label of its own); (c) a key given twice in one
object of any JSON (or YAML task file) the tool reads from the user: COMET's JSON, task files,
JSON Lines tables, n-best lists, model and parameter files, run files, run descriptions (the
last one silently won); (d) ``wmt -k 0`` saying it draws no resamples (it printed "10
resamples") and recording no seed, draws or p-values. Each through the command line (exit 2,
one line, nothing written) and, where there is one, the Python API.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from bad_input_files import (
    MTME,
    case_params,
    check_api_case,
    inputs_with,
    lines,
    run,
    run_case,
    snapshot,
)

import mtpalette
from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback

S3 = ["s1", "s2", "s3"]
TWICE = "appears twice in one object (only the last value would be read)"


def _segments(k: int, n: int = 12) -> str:
    return ", ".join(f'{{"mt": "b", "COMET": {0.1 * ((i * 3 + k) % 7):.1f}}}' for i in range(n))


def _comet(extra: str = "", score: str = "") -> str:
    """COMET's --to_json layout, a file per line; ``extra``: a last line; ``score``: more
    fields of s2's first segment."""
    rows = [f' "{s}.txt": [{_segments(k)}]' for k, s in enumerate(S3)]
    rows[1] = rows[1].replace('"COMET": 0.1}', f'"COMET": 0.1{score}}}', 1)
    return "{\n" + ",\n".join(rows + ([extra] if extra else [])) + "\n}\n"


def _metricx(row6: str) -> str:
    rows = [json.dumps({"system_id": s, "segment_id": i, "prediction": float((i * 3 + k) % 7)})
            for k, s in enumerate(S3) for i in range(12)]  # fmt: skip
    rows[5] = row6
    return "".join(r + "\n" for r in rows)


TASK = '{"lang": "zh-en", "level": "sys", "corr_fcn": "pearson"'
WMT = "wmt --mtme {mtme} --lp zh-en --mtme-metrics chrF sentBLEU"
ANALYZE = "analyze -r {r1} -s {s1} {s2} -m chrf --json run.json"
LABELS = [f"l{i % 3}" for i in range(12)]
#: name: content of the value files (the ``{name}`` of the case tables)
FILES = {
    "labels.txt": "".join(x + "\n" for x in LABELS),
    "labels_empty.txt": "".join(x + "\n" for x in LABELS[:3] + [""] + LABELS[4:]),
    "labels_blank.txt": "".join(x + "\n" for x in LABELS[:6] + ["  \t"] + LABELS[7:]),
    "labels_trailing.txt": "".join(x + "\n" for x in LABELS) + "\n",
    "comet_file_twice.json": _comet(extra=f' "s1.txt": [{_segments(5)}]'),
    "comet_score_twice.json": _comet(score=', "COMET": 0.9'),
    "mx_field_twice.jsonl": _metricx(
        '{"system_id": "s1", "segment_id": 5, "prediction": 1.0, "prediction": 9.0}'),
    "t_weight_twice.json": f"[{TASK},\n  \"weight\": 1,\n  \"weight\": 0}}]\n",
    "t_task_twice.json": f'{{"tasks": [{TASK}}}],\n "tasks": []}}\n',
    "t_fcn_twice.yaml": "- lang: zh-en\n  level: sys\n  corr_fcn: pearson\n  corr_fcn: kendall\n",
    "model_twice.json": '{"features": ["a"],\n "features": ["b"]}\n',
    "nb_twice.jsonl": '{"id": 0, "hyp": "a b"}\n{"id": 1, "hyp": "c", "hyp": "d"}\n',
    "j_twice.jsonl": '{"system": "s1", "segment": 1, "score": 0.5, "score": 0.7}\n',
    "run_twice.json": '{"format": "mtpalette-run",\n "kind": "orange",\n "kind": "audit"}\n',
}  # fmt: skip
#: (id, command line, exit code, what the message or the output says)
CASES = [
    # (a) analyze's level and count, once a traceback or "all but the last"
    ("analyze-confidence-0", f"{ANALYZE} -a length --confidence 0", 2,
     "--confidence must be between 0 and 1 (got 0.0)"),
    ("analyze-confidence-1", f"{ANALYZE} -a length --confidence 1", 2,
     "--confidence must be between 0 and 1 (got 1.0)"),
    ("analyze-confidence-1.5", f"{ANALYZE} -a length --confidence 1.5", 2,
     "--confidence must be between 0 and 1 (got 1.5)"),
    ("analyze-confidence-nan", f"{ANALYZE} -a length --confidence nan", 2,
     "--confidence must be between 0 and 1 (got nan)"),
    ("analyze-confidence-word", f"{ANALYZE} -a length --confidence high", 2,
     "'high' is not a valid float"),
    ("analyze-top-negative", f"{ANALYZE} -a examples --top -1", 2,
     "--top is -1; expected a whole number, 1 or more: the examples shown each way"),
    ("analyze-top-0", f"{ANALYZE} -a ngrams --top 0", 2,
     "--top is 0; expected a whole number, 1 or more"),
    ("analyze-top-float", f"{ANALYZE} -a examples --top 1.5", 2, "'1.5' is not a valid int"),
    # (b) a blank label
    ("labels-empty-line", f"{ANALYZE} -a label --labels {{labels_empty}}", 2,
     "{labels_empty}:4: empty label; expected one label per sentence"),
    ("labels-blank-line", f"{ANALYZE} -a label --labels {{labels_blank}}", 2,
     "{labels_blank}:7: empty label"),
    ("labels-trailing-empty-line", f"{ANALYZE} -a label --labels {{labels_trailing}}", 2,
     "{labels_trailing}:13: empty label"),
    # (c) a key twice: the file, the line of the second, the key
    ("comet-file-twice", "rank --scores c={comet_file_twice}", 2,
     f"{{comet_file_twice}}:5: key 's1.txt' {TWICE}; give each key once"),
    ("comet-score-twice", "rank --scores c={comet_score_twice}", 2,
     f"{{comet_score_twice}}:3: key 'COMET' {TWICE}"),
    ("metricx-field-twice", "rank --scores m={mx_field_twice}", 2,
     f"{{mx_field_twice}}:6: field 'prediction' {TWICE}; give each field once"),
    ("tasks-weight-twice", f"{WMT} --tasks {{t_weight_twice}}", 2,
     f"{{t_weight_twice}}:3: key 'weight' {TWICE}"),
    ("tasks-list-twice", f"{WMT} --tasks {{t_task_twice}}", 2,
     f"{{t_task_twice}}:2: key 'tasks' {TWICE}"),
    ("tasks-yaml-field-twice", f"{WMT} --tasks {{t_fcn_twice}}", 2,
     f"{{t_fcn_twice}}:4: key 'corr_fcn' {TWICE}"),
    ("rose-model-twice", "score -r {r1} -i {s1} -m rose:@{model_twice}", 2,
     f"{{model_twice}}:2: key 'features' {TWICE}"),
    ("blanc-params-twice", "score -r {r1} -i {s1} -m blanc:@{model_twice}", 2,
     f"{{model_twice}}:2: key 'features' {TWICE}"),
    ("nbest-jsonl-twice", "mbr {nb_twice} -m chrf", 2, f"{{nb_twice}}:2: key 'hyp' {TWICE}"),
    ("judgments-jsonl-twice", "correlate -j {j_twice} -r {r1} -s {s1} {s2} {s3} -m chrf", 2,
     f"{{j_twice}}:1: field 'score' {TWICE}"),
    ("report-run-file-twice", "report {run_twice} -o out.html", 2,
     f"{{run_twice}}:3: key 'kind' {TWICE}"),
    # valid after all
    ("labels-one-per-sentence", "analyze -r {r1} -s {s1} {s2} -m chrf -a label --labels "
     "{labels}", 0, "l2"),
    ("analyze-top-1", "analyze -r {r1} -s {s1} {s2} -a examples --top 1", 0, "Segment"),
]  # fmt: skip


@pytest.fixture(scope="module")
def names(tmp_path_factory) -> dict[str, str]:
    return inputs_with(tmp_path_factory.mktemp("inputs"), FILES)


@pytest.mark.parametrize(("argv", "code", "expected"), case_params(CASES))
def test_values(names, tmp_path, monkeypatch, capsys, argv, code, expected):
    before = snapshot(Path(names["r1"]).parent)
    out, err = run_case(names, tmp_path, monkeypatch, capsys, argv, code)
    assert expected.format(**names) in (err if code == 2 else out), (err + out)[-2000:]
    if code == 2:
        assert err.splitlines()[-1].startswith("mtpalette: error: ") or "Usage:" in err
        assert list(tmp_path.iterdir()) == []  # nothing written where it runs (run.json)
    assert snapshot(Path(names["r1"]).parent) == before  # no input changed


# --------------------------------------------------------------------------------------------
# the Python API: the same values, the argument's name in the message
H, H2 = lines("SMU", 6), lines("MiSS", 6)
SYS, REFS = {"a": H, "b": H2}, [lines("ref", 6)]


def _analyze(**kw):
    return mtpalette.analyze(SYS, REFS, **{"analyses": ["length"], "metric": "chrf", **kw})


def _top_examples(top: int) -> list:
    return _analyze(analyses=["examples"], top=top).analyses[0].better


API_CASES = [  # (id, call, ("error", message) or ("value", a check of the result))
    ("analyze-confidence-0", lambda: _analyze(confidence=0),
     ("error", "confidence must be between 0 and 1 (got 0)")),
    ("analyze-confidence-1", lambda: _analyze(confidence=1.0),
     ("error", "confidence must be between 0 and 1 (got 1.0)")),
    ("analyze-confidence-nan", lambda: _analyze(confidence=math.nan),
     ("error", "confidence must be between 0 and 1 (got nan)")),
    ("analyze-confidence-text", lambda: _analyze(confidence="0.95"),
     ("error", "confidence is '0.95'; expected a number between 0 and 1")),
    ("analyze-confidence-true", lambda: _analyze(confidence=True),
     ("error", "confidence is True; expected a number between 0 and 1")),
    ("analyze-top-negative", lambda: _top_examples(-1),
     ("error", "top is -1; expected a whole number, 1 or more")),
    ("analyze-top-0", lambda: _top_examples(0), ("error", "top is 0; expected a whole number")),
    ("analyze-top-float", lambda: _top_examples(2.5), ("error", "top is 2.5; expected")),
    ("analyze-top-true", lambda: _top_examples(True), ("error", "top is True; expected")),
    ("analyze-top-1", lambda: _top_examples(1), ("value", lambda rows: len(rows) == 1)),
    ("analyze-label-empty",
     lambda: _analyze(analyses=["label"], labels=["x", "y", "", "x", "y", "x"]),
     ("error", "labels[2] is ''; expected each sentence's label (a non-empty string)")),
    ("analyze-label-none",
     lambda: _analyze(analyses=["label"], labels=["x", "y", None, "x", "y", "x"]),
     ("error", "labels[2] is None")),
    ("analyze-labels", lambda: _analyze(analyses=["label"], labels=list("xyxyxy")),
     ("value", lambda r: r.analyses[0].labels == ["x", "y"])),
]  # fmt: skip


@pytest.mark.parametrize(("call", "expected"), [pytest.param(c, e, id=i) for i, c, e in API_CASES])
def test_python_api(call, expected):
    check_api_case(call, expected)


def _analyze_run(names, **kw):
    from mtpalette.sources.score_inputs import ScoreInputs

    inputs = ScoreInputs(refs=[names["r1"]], hyps=[names["s1"], names["s2"]])
    return mtpalette.AnalyzeRun(inputs, ["label"], "chrf", **kw)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"confidence": 1.5}, "--confidence must be between 0 and 1 (got 1.5)"),
        ({"top": -1}, "--top is -1; expected a whole number, 1 or more"),
        ({"labels_file": "{labels_empty}"}, "{labels_empty}:4: empty label"),
    ],
    ids=["confidence", "top", "labels"],
)
def test_analyze_run_refuses_before_writing(names, tmp_path, settings, message):
    settings = {k: Path(v.format(**names)) if k == "labels_file" else v
                for k, v in settings.items()}  # fmt: skip
    run_ = _analyze_run(names, json=tmp_path / "run.json", **settings)
    with pytest.raises(UserInputError) as info:
        mtpalette.run_analyze(run_, progress=False)
    assert message.format(**names) in str(info.value)
    assert list(tmp_path.iterdir()) == []


def test_every_json_reader_refuses_a_key_twice(names, tmp_path):
    """The API's readers of the user's JSON: task files, score files, run files, run
    descriptions (one loader, one message)."""
    from mtpalette.api.rank_run import RankRun, run_rank

    described = tmp_path / "wmt.json"
    mtpalette.WmtRun(Path(names["mtme"]), task_set="wmt24", k=0).save(described)
    text = described.read_text(encoding="utf-8")
    described.write_text(text.replace('"k": 0', '"k": 0, "k": 5'), encoding="utf-8")
    calls = {
        "t_weight_twice": lambda: mtpalette.TaskSet.from_file(names["t_weight_twice"]),
        "t_fcn_twice": lambda: mtpalette.TaskSet.from_file(names["t_fcn_twice"]),
        "comet_file_twice": lambda: run_rank(
            RankRun(scores=[f"c={names['comet_file_twice']}"]), progress=False),
        "run_twice": lambda: mtpalette.report(names["run_twice"], path=tmp_path / "r.html"),
        str(described): lambda: mtpalette.WmtRun.load(described),
    }  # fmt: skip
    for name, call in calls.items():
        with pytest.raises(UserInputError) as info:
            call()
        assert name in str(info.value) and TWICE in str(info.value), (name, str(info.value))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wmt.json"]


# --------------------------------------------------------------------------------------------
# (d) wmt -k 0: what it says and records is what it did
class Notes(Feedback):
    def __init__(self) -> None:
        self.notes: list[str] = []

    def note(self, text: str, *, style: str = "dim") -> None:
        self.notes.append(text)


@pytest.mark.parametrize(
    ("k", "said"),
    [(0, "2 task(s) over 1 language pair(s), no resamples (k 0: no significance test)"),
     (5, "2 task(s) over 1 language pair(s), 10 resamples")],
)  # fmt: skip
def test_wmt_says_and_records_the_resamples_drawn(tmp_path, monkeypatch, capsys, k, said):
    out = tmp_path / "wmt.json"
    argv = ["wmt", "--mtme", str(MTME), "--lp", "zh-en", "--mtme-metrics", "chrF", "sentBLEU",
            "-k", str(k), "--json", str(out)]  # fmt: skip
    code, _, err = run(monkeypatch, capsys, argv)
    assert code == 0 and said in err, err[-2000:]
    recorded = json.loads(out.read_text(encoding="utf-8"))
    assert [t["task"]["k"] for t in recorded["tasks"]] == [k, k]
    drawn = [t["p_values"] is not None and t["n_draws"] != {} for t in recorded["tasks"]]
    assert drawn == [bool(k)] * 2
    assert (recorded["seed"], recorded["draws"]) == ((12345, "mtme") if k else (None, None))
    notes = Notes()  # the Python API says the same
    mtpalette.run_wmt(mtpalette.WmtRun(MTME, lps=["zh-en"], mtme_metrics=["chrF", "sentBLEU"],
                                       k=k), notes)  # fmt: skip
    assert said in notes.notes
