"""Run descriptions of the API (mtpalette.api): they validate, save and load themselves, and a
run from files gives the numbers of the same run on Python lists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from real_data import mqm_ted, mqm_ted_inputs

import mtpalette
from mtpalette.api import (
    CandidateInputs,
    Chunking,
    CorrelationRun,
    Feedback,
    JudgedInputs,
    OrangeOutputs,
    OrangeRun,
    PairedRun,
    run_correlation,
    run_orange,
    run_paired,
)
from mtpalette.errors import UserInputError

ZHEN = mqm_ted("zhen")["root"]
REFS = [ZHEN / "ref.txt", ZHEN / "refB.txt"]
SYSTEMS = [ZHEN / f"{name}.txt" for name in ("SMU", "MiSS", "Online-W", "NiuTrans")]


class Recorder(Feedback):
    """Keeps every note a run gives."""

    def __init__(self) -> None:
        self.notes: list[str] = []

    def note(self, text: str, *, style: str = "dim") -> None:
        self.notes.append(text)


def _orange_run(tmp_path: Path, **kw) -> OrangeRun:
    candidates = CandidateInputs(list(REFS), systems=list(SYSTEMS))
    outputs = OrangeOutputs(out_dir=tmp_path / "out", curve_step=1)
    return OrangeRun(candidates, ["bleus:2", "wer"], bootstrap=100, seed=7, outputs=outputs, **kw)


def test_a_run_saves_and_loads_itself(tmp_path):
    run = _orange_run(tmp_path, chunking=Chunking(tmp_path / "chunks", chunk_size=50))
    path = run.save(tmp_path / "orange-run.json")
    saved = json.loads(path.read_text())
    assert saved["run"] == "orange"
    assert saved["description"]["candidates"]["refs"] == [str(p) for p in REFS]
    loaded = OrangeRun.load(path)
    assert loaded == run
    assert isinstance(loaded.candidates.refs[0], Path) and isinstance(loaded.chunking, Chunking)


def test_load_refuses_what_it_cannot_use(tmp_path):
    path = _orange_run(tmp_path).save(tmp_path / "run.json")
    with pytest.raises(UserInputError, match="not a saved correlate run description"):
        CorrelationRun.load(path)
    data = json.loads(path.read_text())
    data["description"]["n_best"] = 3
    path.write_text(json.dumps(data))
    with pytest.raises(UserInputError, match="unknown key.*n_best"):
        OrangeRun.load(path)
    data["description"].pop("n_best")
    data["description"]["bootstrap"] = 1  # too few for a 95% interval: validated on load
    path.write_text(json.dumps(data))
    with pytest.raises(UserInputError, match="--bootstrap 1 is too few"):
        OrangeRun.load(path)


def test_inconsistent_runs_are_refused_before_any_work(tmp_path):
    with pytest.raises(UserInputError, match="--mtme replaces"):
        JudgedInputs(**mqm_ted_inputs("zhen"), mtme=tmp_path).validate()
    with pytest.raises(UserInputError, match="give the candidates once"):
        OrangeRun(CandidateInputs(list(REFS), nbest=tmp_path / "n.txt", systems=SYSTEMS)).validate()
    chunked = _orange_run(tmp_path, chunking=Chunking(tmp_path / "c"), max_candidates=2)
    with pytest.raises(UserInputError, match="--run-dir does not combine"):
        run_orange(chunked)
    assert not (tmp_path / "c").exists() and not (tmp_path / "out").exists()


def test_run_from_files_equals_the_run_on_lists(tmp_path, ted_zhen):
    systems, refs = ted_zhen
    recorder = Recorder()
    result = run_orange(OrangeRun.load(_orange_run(tmp_path).save(tmp_path / "r.json")), recorder)
    on_lists = mtpalette.orange(
        refs, {p.stem: systems[p.stem] for p in SYSTEMS}, ["bleus:2", "wer"], n_resamples=100,
        seed=7,
    )  # fmt: skip
    assert result.table.to_dict()["rows"] == on_lists.to_dict()["rows"]
    assert result.title.startswith(f"ORANGE (leave-one-out): {len(refs[0])} segments, 2 ref")
    written = json.loads((tmp_path / "out" / "run.json").read_text())
    rows = written["results"]["table"]["rows"]
    assert [(r["metric"], r["orange"]) for r in rows] == [
        (row.metric, pytest.approx(row.orange.value)) for row in result.table.rows
    ]
    assert set(result.outputs) >= {"table_csv", "curve_csv", "errors_jsonl", "run_json"}


def test_chunked_run_equals_the_run_in_memory(tmp_path):
    whole = run_orange(_orange_run(tmp_path / "a"))
    chunks = Chunking(tmp_path / "chunks", chunk_size=40)
    recorder = Recorder()
    chunked = run_orange(_orange_run(tmp_path / "b", chunking=chunks), recorder)
    assert chunked.table.to_dict()["rows"] == whole.table.to_dict()["rows"]
    assert len(list((tmp_path / "chunks" / "chunks").iterdir())) >= 2
    again = run_orange(_orange_run(tmp_path / "b", chunking=Chunking(**{
        **vars(chunks), "resume": True})), recorder)  # fmt: skip
    assert again.table.to_dict()["rows"] == whole.table.to_dict()["rows"]
    assert any(note.startswith("resuming:") for note in recorder.notes)


def test_correlation_run_gives_its_notes_to_the_feedback():
    recorder = Recorder()
    zhen = JudgedInputs(**mqm_ted_inputs("zhen"))
    run = CorrelationRun(zhen, ["bleu"], bootstrap=0, max_items=40)
    result = run_correlation(run, recorder)
    assert [t.statistic for t in result.tables] == ["pearson"]
    assert result.titles[0].startswith("Segment-level Pearson r with human scores")
    assert any(note.startswith("scoring ") for note in recorder.notes)


def test_paired_run_from_files_equals_the_test_on_lists(tmp_path, ted_zhen):
    systems, refs = ted_zhen
    run = PairedRun([REFS[0]], SYSTEMS[:3], ["bleu", "chrf"], baseline="MiSS", n_trials=200)
    loaded = PairedRun.load(run.save(tmp_path / "paired.json"))
    assert loaded == run
    from_files = run_paired(loaded)
    on_lists = mtpalette.paired_test(
        {p.stem: systems[p.stem] for p in SYSTEMS[:3]}, refs[:1], ["bleu", "chrf"],
        baseline="MiSS", n_trials=200,
    )  # fmt: skip
    assert from_files.to_pandas().equals(on_lists.to_pandas())
    with pytest.raises(UserInputError, match="unknown paired test"):
        PairedRun([REFS[0]], SYSTEMS, ["bleu"], test="t").validate()
