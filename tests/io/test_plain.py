"""Plain-text inputs: one segment per line, exactly as ``wc -l`` and sacrebleu count them;
every bad input is a :class:`UserInputError` naming the file (and the line)."""

import io
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from real_data import mqm_ted

from mtpalette.errors import UserInputError
from mtpalette.io.plain import check_stdin_once, read_lines, read_parallel

#: lines without "\n" (nor NUL: refused as binary), ending neither in "\r"; other Unicode line
#: breaks are allowed
LINE = st.text(
    st.characters(blacklist_characters="\n\ufeff\x00", blacklist_categories=("Cs",))
).filter(lambda s: not s.endswith("\r"))


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(LINE, min_size=1, max_size=8), crlf=st.booleans(), final=st.booleans())
def test_lines_round_trip(tmp_path_factory, lines, crlf, final):
    end = "\r\n" if crlf else "\n"
    text = end.join(lines) + (end if final else "")
    if not final and lines[-1] == "":  # "a\n" + "" without a final newline is just ["a"]
        lines = lines[:-1] or [""]
        text = end.join(lines) + end
    path = tmp_path_factory.mktemp("plain") / "f.txt"
    path.write_bytes(text.encode("utf-8"))
    assert read_lines(path) == lines


def test_bundled_file_matches_wc_l():
    path = mqm_ted("zhen")["root"] / "ref.txt"
    data = path.read_bytes()
    lines = read_lines(str(path))
    assert len(lines) == data.count(b"\n") == 529
    assert lines[0] == data.decode("utf-8").split("\n")[0]


def test_bom_and_unicode_line_separators(tmp_path, monkeypatch):
    path = tmp_path / "f.txt"
    path.write_bytes("\ufeffa\u2028b\x0cc\nd\n".encode())
    with pytest.warns(UserWarning, match="f.txt: the UTF-8 byte-order mark at its start was"):
        assert read_lines(path) == ["a\u2028b\x0cc", "d"]
    monkeypatch.setenv("MTPALETTE_KEEP_BOM", "1")  # sacrebleu's reading: a character
    assert read_lines(path) == ["\ufeffa\u2028b\x0cc", "d"]


def test_blank_lines_are_segments(tmp_path):
    path = tmp_path / "f.txt"
    path.write_text("a\n\n\nb\n", encoding="utf-8")
    assert read_lines(path) == ["a", "", "", "b"]


def test_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x y\nz\n")))
    assert read_lines("-") == ["x y", "z"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"ok\nok\nbad \xe9 latin-1\n", ":3: invalid UTF-8 (byte 0xe9 at byte 5 of the line)"),
        (b"\xff\n", ":1: invalid UTF-8 (byte 0xff at byte 1 of the line)"),
        (b"cut \xe2\x82", ":1: invalid UTF-8 (byte 0xe2 at byte 5 of the line)"),
        (b"", ": the file is empty; expected one segment per line"),
    ],
)
def test_bad_content(tmp_path, content, message):
    path = tmp_path / "f.txt"
    path.write_bytes(content)
    with pytest.raises(UserInputError) as info:
        read_lines(path)
    assert str(info.value) == f"{path}{message}" + (
        "; expected UTF-8 text" if "UTF-8" in message else ""
    )
    assert info.value.path == str(path)


def test_empty_allowed(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes(b"")
    assert read_lines(path, allow_empty=True) == []


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(UserInputError, match=r"nope\.txt: file not found$"):
        read_lines(tmp_path / "nope.txt")
    with pytest.raises(UserInputError, match=r": is a directory, expected a text file$"):
        read_lines(tmp_path)


def test_empty_stdin_is_named(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    with pytest.raises(UserInputError, match=r"^<stdin>: the file is empty"):
        read_lines("-")


def test_parallel_files(tmp_path):
    hyp, ref1, ref2, short = (tmp_path / n for n in ("h", "r1", "r2", "short"))
    hyp.write_text("a\nb\nc\n", encoding="utf-8")
    ref1.write_text("A\nB\nC\n", encoding="utf-8")
    ref2.write_text("1\n2\n3", encoding="utf-8")  # no final newline: still 3 lines
    short.write_text("1\n2\n", encoding="utf-8")
    assert read_parallel(hyp, [ref1, ref2]) == (["a", "b", "c"], [["A", "B", "C"], list("123")])
    with pytest.raises(UserInputError) as info:
        read_parallel(hyp, [ref1, short])
    assert str(info.value) == (
        f"{short}:3: has 2 lines but the hypotheses ({hyp}) have 3 lines; "
        "every file needs one segment per line"
    )


def test_stdin_only_once():
    check_stdin_once(["-", "a", "b"])
    with pytest.raises(UserInputError, match="can be read only once"):
        read_parallel("-", ["ref.txt", "-"])
