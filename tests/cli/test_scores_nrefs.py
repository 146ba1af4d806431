"""A score file whose name says another number of references than the run's is read with a
warning naming both counts (issue 54); a file that agrees, a source-only file and a name that
does not say give none."""

from __future__ import annotations

import pytest
from real_data import mqm_ted, mqm_ted_args

from mtpalette.feedback import Feedback
from mtpalette.io.scorefile import ScoreFile
from mtpalette.sources.external import check_nrefs, parse_scores

ZHEN = mqm_ted("zhen")


class _Kept(Feedback):
    def __init__(self) -> None:
        self.warnings: list[str] = []

    def warn(self, text: str) -> None:
        self.warnings.append(text)


def _tsv(path):
    """A segment score per system and line of the zh-en outputs, no held-out column."""
    rows = ["system\tsegment\tscore"]
    for p in ZHEN["systems"]:
        n = len(p.read_text(encoding="utf-8").splitlines())
        rows += [f"{p.stem}\t{i + 1}\t{(i * 7 + len(p.stem)) % 13 / 13}" for i in range(n)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_a_file_of_one_reference_in_a_run_of_two_is_warned(cli, tmp_path):
    scores = _tsv(tmp_path / "COMET-refA.seg.score")
    code, out, err = cli("correlate", *mqm_ted_args("zhen"), "--scores",
                         f"comet={scores},layout=mtpalette", "--bootstrap", "0")  # fmt: skip
    assert code == 0, err
    assert "COMET-refA.seg.score was computed with 1 reference (its name says; signature " \
           "nrefs:1), this run has 2" in err  # fmt: skip
    assert "comet|nrefs:1|source:file" in out


@pytest.mark.parametrize(
    ("name", "heldout", "n_refs", "warned"),
    [
        ("COMET-refA.refB.seg.score", "", 2, False),
        ("COMET-refA.refB.seg.score", "", 1, True),
        ("COMET-refA.seg.score", "refB", 2, False),  # held out: one fewer than the run
        ("COMET-refA.seg.score", "refB", 3, True),
        ("COMET-src.seg.score", "", 2, False),  # no reference at all: a QE metric
        ("comet.tsv", "", 2, False),  # the name does not say (nrefs:file)
    ],
)
def test_which_files_are_warned(name, heldout, n_refs, warned):
    kept = _Kept()
    text = check_nrefs("m", ScoreFile(name, {("A", 1, heldout): 0.5}), n_refs, kept)
    assert (text is not None) == warned and kept.warnings == ([text] if warned else [])


def test_parse_scores_warns_through_the_feedback(tmp_path):
    path = tmp_path / "BLEU-refA.refB.seg.score"
    path.write_text("system\tsegment\tscore\nA\t1\t0.5\n", encoding="utf-8")
    kept = _Kept()
    [m] = parse_scores([f"bleu={path},layout=mtpalette"], ["ref"], feedback=kept)
    assert m.label == "bleu" and len(kept.warnings) == 1 and "this run has 1" in kept.warnings[0]
