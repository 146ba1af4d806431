"""Outputs written safely and truthfully (issue 40): ``-`` is standard output, a symbolic link
is followed, a named pipe is written as a stream, a folder is refused, and a full disk is one
clear error that leaves the old file as it was and no temporary file behind."""

from __future__ import annotations

import errno
import os
import threading

import pytest
from real_data import mqm_ted

from mtpalette.errors import UserInputError
from mtpalette.io.runfile import atomic_writer


def test_dash_is_standard_output(capsys):
    with atomic_writer("-") as fh:
        fh.write("to stdout\n")
    assert capsys.readouterr().out == "to stdout\n"


def test_a_symlink_is_followed_and_kept(tmp_path):
    target = tmp_path / "real.txt"
    target.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    with atomic_writer(link) as fh:
        fh.write("new\n")
    assert link.is_symlink() and target.read_text() == "new\n"


def test_a_named_pipe_gets_the_stream(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo).read()))
    reader.start()
    with atomic_writer(fifo) as fh:
        fh.write("streamed\n")
    reader.join(timeout=10)
    assert got == ["streamed\n"] and not fifo.is_file()


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(UserInputError, match="is a folder"):
        with atomic_writer(tmp_path) as fh:
            fh.write("x")


def test_a_full_disk_is_one_error_and_nothing_is_lost(tmp_path, monkeypatch):
    out = tmp_path / "table.tsv"
    out.write_text("the old table\n")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(UserInputError, match="table.tsv: cannot write the output: no space"):
        with atomic_writer(out) as fh:
            fh.write("a new table\n")
    assert out.read_text() == "the old table\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.tsv"]  # no temporary left


def test_the_command_line_writes_to_dash_as_stdout(cli, tmp_path):

    zhen = mqm_ted("zhen")["root"]
    code, out, err = cli("score", "-r", zhen / "ref.txt", "-i", zhen / "SMU.txt", "-m", "bleu",
                         "-o", "-")  # fmt: skip
    assert code == 0, err
    assert "bleu" in out and not (tmp_path / "-").exists() and not os.path.exists("-")


def test_a_long_table_without_its_system_column_is_not_pooled(cli, tmp_path):
    table = tmp_path / "long.tsv"
    rows = ["hyp\tref\tsegment", "the cat\tthe cat\t1", "a dog\ta dog\t2", "a cat\tthe cat\t1"]
    table.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, out, err = cli("score", "--table", table, "-m", "bleu")
    assert code == 2 and "long.tsv:4: segment '1' again" in err and "--system-col" in err
    assert out == ""


def test_python_api_takes_dataframes_and_names_bad_counts():
    pd = pytest.importorskip("pandas")
    from mtpalette import corpus_score, paired_test

    hyps = ["the cat sat on the mat", "a dog ran"]
    refs = [["the cat sat on the mat", "a dog ran"]]
    frame = pd.DataFrame({"hyp": hyps})
    ref_frame = pd.DataFrame({"refA": refs[0]})
    base = corpus_score(hyps, refs, "chrf")[0].value
    assert corpus_score(frame, refs, "chrf")[0].value == base
    assert corpus_score(hyps, ref_frame, "chrf")[0].value == base  # a column per reference
    with pytest.raises(UserInputError, match="hyps is a DataFrame with columns a, b"):
        corpus_score(pd.DataFrame({"a": ["x"], "b": ["y"]}), [["x"]], "chrf")
    with pytest.raises(UserInputError, match="n_trials is 100.5; expected a whole number"):
        paired_test({"A": ["a b"], "B": ["a c"]}, [["a b"]], "bleu", n_trials=100.5)


def test_degenerate_groups_are_said(tmp_path):
    from mtpalette import correlate

    systems = {"A": ["a b c", "x y", "q r"], "B": ["a b d", "x z", "q s"]}
    refs = [["a b c", "x y", "q r"]]
    human = {"A": [1.0, 2.0, None], "B": [0.0, 2.0, 1.0]}  # item 2 tied, item 3 one rating
    t = correlate(systems, refs, human, "chrf", statistic="kendall", grouping="item",
                  n_resamples=0, test="none", baselines=False)  # fmt: skip
    notes = t.info["degenerate"]["notes"]
    assert t.info["degenerate"]["human_constant"] == 1 and t.info["degenerate"]["one_rated"] == 1
    assert any("two rated systems" in n for n in notes)
    assert any("1 of 3 items have one rated system: left out" == n for n in notes)
