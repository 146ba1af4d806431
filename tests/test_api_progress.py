"""The Python API's long calls show progress: ``progress=`` takes a Feedback (here one that
records), ``False`` is silent, ``True`` draws bars (and notes), and the default draws bars only
on a terminal or in a notebook (never in a pipe, as under pytest).

Every long call of the public API is in :data:`CALLS`; a test there covers it three ways: a
Feedback hears from it, a terminal (``TTY_COMPATIBLE=1``, rich's switch) gets a bar by default
and with ``True`` but not with ``False``, and a pipe gets none by default."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from real_data import mqm_ted, mqm_ted_inputs, mtme_folder

import mtpalette
from mtpalette.api import (
    AgreementRun,
    AnalyzeRun,
    AuditRun,
    BlancTrainRun,
    CandidateInputs,
    CorrelationRun,
    JudgedInputs,
    OrangeRun,
    PairedRun,
    RankRun,
    RoseTrainRun,
    WmtRun,
    run_agreement,
    run_analyze,
    run_audit,
    run_correlation,
    run_orange,
    run_paired,
    run_rank,
    run_train_blanc,
    run_train_rose,
    run_wmt,
)
from mtpalette.api.errorfree_run import ErrorFreeRun, run_errorfree
from mtpalette.api.spans_run import SpansRun, run_spans
from mtpalette.feedback import Feedback
from mtpalette.io.plain import read_lines
from mtpalette.sources.score_inputs import ScoreInputs
from mtpalette.sources.spans import example_folder

ZHEN = mqm_ted("zhen")
#: the shipped mt-metrics-eval folder: 18 segments of zh-en, two references, eight MT systems
ROOT = mtme_folder()
REF_FILES = [ROOT / "references" / f"zh-en.ref{k}.txt" for k in "AB"]
SYSTEM_FILES = sorted((ROOT / "system-outputs" / "zh-en").glob("[A-Z]*.txt"))[:3]
REFS = [read_lines(p) for p in REF_FILES]
SYSTEMS = {p.stem: read_lines(p) for p in SYSTEM_FILES}
HUMAN = {s: [float((i * (k + 2)) % 5) for i in range(len(REFS[0]))] for k, s in enumerate(SYSTEMS)}
BUNDLED = JudgedInputs(**mqm_ted_inputs("zhen"))
FOLDER = JudgedInputs(mtme=ROOT, lp="zh-en")


def nbest_file() -> Path:
    """The three systems' outputs as an n-best file (Moses), candidates of each segment."""
    path = Path(tempfile.mkdtemp()) / "nbest.txt"
    lines = [f"{i} ||| {out[i]}" for i in range(len(REFS[0])) for out in SYSTEMS.values()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


class Recorder(Feedback):
    def __init__(self) -> None:
        self.seen: list[tuple] = []

    def note(self, text: str, *, style: str = "dim") -> None:
        self.seen.append(("note", text))

    def track(self, items, description):
        for item in items:
            self.seen.append(("track", description, item))
            yield item

    @contextlib.contextmanager
    def counter(self, description, *, total=None, completed=0):
        self.seen.append(("counter", description, total))
        yield lambda: self.seen.append(("advance", description))

    @contextlib.contextmanager
    def steps(self, description):
        yield lambda done, total, what: self.seen.append(("step", done, total, what))


M, S, R, RF, SF = mtpalette, SYSTEMS, REFS, REF_FILES, SYSTEM_FILES
ONE = SYSTEMS["DIDI-NLP"]
NO_TESTS = {"n_resamples": 0, "n_permutations": 0}
SPANS = example_folder()
#: every long call of the public API, as a function of its ``progress``; small inputs
CALLS: dict[str, Callable[[object], object]] = {
    "score_texts": lambda p: M.score_texts(ONE, R, ["bleu", "chrf"], progress=p),
    "score_systems": lambda p: M.score_systems(S, R, ["bleu", "wer"], progress=p),
    "corpus_score": lambda p: M.corpus_score(ONE, R, "chrf", progress=p),
    "sentence_scores": lambda p: M.sentence_scores(ONE, R, "wer", progress=p),
    "paired_test": lambda p: M.paired_test(S, R, "chrf", n_trials=50, progress=p),
    "rank": lambda p: M.rank(systems=S, refs=R[:1], metric="chrf", progress=p),
    "audit": lambda p: M.audit(R, S, ["chrf", "wer"], n_resamples=0, progress=p),
    "analyze": lambda p: M.analyze(S, R[:1], analyses=["words", "length"], progress=p),
    "orange": lambda p: M.orange(R, S, ["chrf", "wer"], n_resamples=0, progress=p),
    "correlate": lambda p: M.correlate(S, R, HUMAN, "chrf", **NO_TESTS, progress=p),
    "load_wmt": lambda p: M.load_wmt(ROOT, ["zh-en", "en-de"], mtme_metrics="chrF", progress=p),
    "run_wmt": lambda p: run_wmt(WmtRun(ROOT, lps=["zh-en"], metrics=["chrf"]), p),
    "run_rank": lambda p: run_rank(RankRun(refs=RF[:1], systems=SF, metrics=["chrf"]), p),
    "run_audit": lambda p: run_audit(AuditRun(BUNDLED, metrics=["bleus:1"], bootstrap=0), p),
    "run_analyze": lambda p: run_analyze(
        AnalyzeRun(ScoreInputs(refs=[str(RF[0])], hyps=[str(f) for f in SF])), p
    ),
    "run_paired": lambda p: run_paired(PairedRun(RF[:1], SF, ["chrf"], n_trials=50), p),
    "run_mbr": lambda p: M.run_mbr(M.MbrRun(nbest_file(), metric="chrf"), p),
    "run_score": lambda p: M.run_score(
        M.ScoreRun(M.ScoreInputs(refs=[str(RF[0])], hyps=[str(f) for f in SF]), ["chrf"]), p
    ),
    "run_orange": lambda p: run_orange(
        OrangeRun(CandidateInputs(RF, systems=SF), ["chrf"], bootstrap=0), p
    ),
    "run_correlation": lambda p: run_correlation(
        CorrelationRun(FOLDER, ["chrf"], bootstrap=0, permutations=0), p
    ),
    "run_agreement": lambda p: run_agreement(
        AgreementRun(BUNDLED, ["bleus:1", "wer"], bootstrap=0, max_items=30), p
    ),
    "run_train_blanc": lambda p: run_train_blanc(
        BlancTrainRun(inputs=FOLDER, max_evals=3, restarts=1), p
    ),
    "run_train_rose": lambda p: run_train_rose(
        RoseTrainRun(inputs=FOLDER, lang="en", folds=2, epsilon=0.5), p
    ),
    "run_spans": lambda p: run_spans(
        SpansRun(
            gold=[str(SPANS / "gold.jsonl")], pred=[f"lexi={SPANS / 'lexi.jsonl'}"], bootstrap=0
        ),
        p,  # fmt: skip
    ),
    "run_errorfree": lambda p: run_errorfree(
        ErrorFreeRun(
            gold=str(SPANS / "gold.jsonl"),
            pred=[f"lexi={SPANS / 'lexi.jsonl'}"],
            threshold=0.8,
            bootstrap=0,
        ),
        p,  # fmt: skip
    ),
}


@pytest.fixture
def terminal(capsys, monkeypatch):
    """Standard error taken for a terminal, pytest's capture kept: the capture's stream says
    it is one (``isatty``)."""
    from _pytest.capture import CaptureIO

    monkeypatch.setattr(CaptureIO, "isatty", lambda self: True)
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)


def test_every_exported_long_call_is_covered():
    import inspect

    functions = [getattr(mtpalette, n) for n in mtpalette.api.EXPORTS]
    functions = [f for f in functions if inspect.isfunction(f)]
    takes = {f.__name__ for f in functions if "progress" in inspect.signature(f).parameters}
    assert takes == set(CALLS)


@pytest.mark.parametrize("name", CALLS)
def test_a_long_call_reports_to_a_feedback(name):
    rec = Recorder()
    CALLS[name](rec)
    assert any(kind in ("track", "step", "advance") for kind, *_ in rec.seen), rec.seen


@pytest.mark.parametrize("name", CALLS)
def test_a_long_call_draws_a_bar_on_a_terminal_unless_told_not_to(name, terminal, capsys):
    CALLS[name](None)
    assert "\x1b[" in capsys.readouterr().err  # the default: a bar (rich's cursor controls)
    CALLS[name](True)
    assert "\x1b[" in capsys.readouterr().err
    CALLS[name](False)
    assert "\x1b[" not in capsys.readouterr().err  # warnings about the data only, plain


@pytest.mark.parametrize("name", CALLS)
def test_a_long_call_draws_no_bar_in_a_pipe(name, capsys):
    CALLS[name](None)
    default = capsys.readouterr().err
    CALLS[name](False)
    assert default == capsys.readouterr().err  # what a silent run writes (data warnings), no bar
    assert "\x1b[" not in default


def test_the_default_draws_bars_in_a_notebook(monkeypatch):
    import sys
    import types

    import rich.console

    from mtpalette.progress import feedback_of

    assert not feedback_of(None).bars  # pytest's capture: no terminal
    monkeypatch.setitem(sys.modules, "IPython", types.ModuleType("IPython"))
    monkeypatch.setattr(rich.console, "_is_jupyter", lambda: True)
    assert feedback_of(None).bars and feedback_of(True).bars and not feedback_of(False).bars


def test_a_call_in_a_pipe_imports_no_rich():
    import subprocess
    import sys

    code = (
        "import sys, mtpalette\n"
        "mtpalette.score_systems({'A': ['a b']}, [['a b']], 'bleu')\n"
        "mtpalette.rank({'A': [1, 2, 3], 'B': [0, 1, 1]})\n"
        "print('rich' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr


def test_scoring_counts_the_metric_groups():
    rec = Recorder()
    mtpalette.score_systems(SYSTEMS, REFS, ["bleus:1..4", "chrf", "wer", "ter"], progress=rec)
    groups = [[m.spec for m in g] for kind, _, g in (s for s in rec.seen if s[0] == "track")]
    assert ["bleus:1", "bleus:2", "bleus:3", "bleus:4"] in groups  # one pass, one step
    assert sorted(sum(groups, [])) == ["bleus:1", "bleus:2", "bleus:3", "bleus:4", "chrf",
                                       "ter", "wer"]  # fmt: skip
    quiet = mtpalette.score_systems(SYSTEMS, REFS, ["bleus:1..4", "chrf", "wer", "ter"],
                                    progress=False)  # fmt: skip
    loud = mtpalette.score_systems(SYSTEMS, REFS, ["bleus:1..4", "chrf", "wer", "ter"],
                                   progress=rec)  # fmt: skip
    assert quiet.to_pandas().equals(loud.to_pandas())  # a group at a time: the same numbers


def _lines(path, n=12):
    return path.read_text(encoding="utf-8").splitlines()[:n]


def test_orange_reports_each_scoring_step():
    refs = [_lines(p) for p in ZHEN["refs"]]
    systems = {p.stem: _lines(p) for p in ZHEN["systems"][:3]}
    rec = Recorder()
    mtpalette.orange(refs, systems, ["bleus:4", "wer"], n_resamples=0, progress=rec)
    steps = [s for s in rec.seen if s[0] == "step"]
    assert steps and steps[-1][1] == steps[-1][2]  # done == total at the end


def test_correlate_reports_each_table_and_is_silent_when_asked(capsys):
    refs = [_lines(ZHEN["refs"][0])]
    systems = {p.stem: _lines(p) for p in ZHEN["systems"][:3]}
    human = {s: [float(i % 3) + k for i in range(12)] for k, s in enumerate(systems)}
    rec = Recorder()
    mtpalette.correlate(systems, refs, human, ["bleu"], statistic="pearson,kendall",
                        n_resamples=0, n_permutations=0, progress=rec)  # fmt: skip
    tracked = [s[2] for s in rec.seen if s[0] == "track"]
    # each table under its statistic's one name (kendall is kendall-b)
    assert tracked == [("segment", "pearson"), ("segment", "kendall-b")]
    mtpalette.correlate(systems, refs, human, ["bleu"], n_resamples=0, n_permutations=0,
                        progress=False)  # fmt: skip
    mtpalette.correlate(systems, refs, human, ["bleu"], n_resamples=0, n_permutations=0)
    assert capsys.readouterr().err == ""  # silent, and no bar in a pipe
