"""The Python API's long calls show progress: ``progress=`` takes a Feedback (here one that
records), ``False`` is silent, and the default draws bars only on a terminal or in a
notebook (never in a pipe, as under pytest)."""

from __future__ import annotations

import contextlib

import mtpalette
from mtpalette.api.feedback import Feedback
from mtpalette.io.judgments import bundled_mqm_ted

ZHEN = bundled_mqm_ted("zhen")


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
    def steps(self, description):
        yield lambda done, total, what: self.seen.append(("step", done, total, what))


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
    assert tracked == [("segment", "pearson"), ("segment", "kendall")]
    mtpalette.correlate(systems, refs, human, ["bleu"], n_resamples=0, n_permutations=0,
                        progress=False)  # fmt: skip
    mtpalette.correlate(systems, refs, human, ["bleu"], n_resamples=0, n_permutations=0)
    assert capsys.readouterr().err == ""  # silent, and no bar in a pipe
