"""The fast reader of mt-metrics-eval score files (a few compiled passes over the whole file)
against the line-by-line one: the same scores and line numbers for every file it accepts,
and the line-by-line reader's errors (file and line) for every file it hands back."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.errors import UserInputError
from mtpalette.io.mtme_files import _score_lines, _score_lines_fast, read_score_file

SYSTEMS = st.sampled_from(["A", "B", "Online-W", "1", "2.5"])
SCORES = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.integers(-(10**6), 10**6).map(str),
    st.sampled_from(["None", "nan", "inf", "-inf", "1e400", "x", "1_0", ".5", "+2", "0x1"]),
)
SEPS = st.sampled_from(["\t", " ", "  ", "\t ", "\xa0", "\u2003"])
EDGES = st.sampled_from(["", " ", "\t"])


@st.composite
def score_lines(draw) -> list[str]:
    """Mostly well-formed lines, some with a field too few or too many, stray white space or
    a score that is no finite number."""
    out = []
    for _ in range(draw(st.integers(0, 12))):
        fields = [draw(SYSTEMS), draw(SCORES)]
        if draw(st.integers(0, 9)) == 0:
            fields = fields[: draw(st.integers(0, 1))] + [draw(SCORES)] * draw(st.integers(0, 2))
        sep = draw(SEPS)
        out.append(draw(EDGES) + sep.join(fields) + draw(EDGES))
    return out


def _outcome(fn):
    try:
        got = fn()
    except UserInputError as exc:
        return ("error", str(exc))
    return ("ok", got.scores, got.lines)


def _same(a, b) -> bool:
    if a[0] != b[0] or a[0] == "error":
        return a == b
    if a[2] != b[2] or list(a[1]) != list(b[1]):
        return False
    for x, y in zip(a[1].values(), b[1].values(), strict=True):
        if len(x) != len(y):
            return False
        if not all(u == v or (math.isnan(u) and math.isnan(v)) for u, v in zip(x, y, strict=True)):
            return False
    return True


@settings(max_examples=400, deadline=None)
@given(lines=score_lines(), allow_none=st.booleans())
def test_fast_reader_equals_the_line_by_line_one(tmp_path_factory, lines, allow_none):
    path = tmp_path_factory.mktemp("s") / "m-refA.seg.score"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    slow = _outcome(lambda: _score_lines(lines, str(path), "seg", allow_none))
    read = _outcome(lambda: read_score_file(path, allow_none=allow_none))
    assert _same(read, slow), (lines, read, slow)
    fast = _score_lines_fast(lines, str(path), "seg")
    if fast is not None:  # whatever the fast reader accepts, the slow one reads alike
        assert _same(("ok", fast.scores, fast.lines), slow)


@pytest.mark.parametrize(
    "lines",
    [
        ["A\t0.5", "A\t0.25", "B\t1", "B\t2"],
        ["A 0.5", "B 1", "A 0.25"],  # a system in two blocks
        ["A\t28.114422176724972", "B\t-3e-05"],
    ],
)
def test_fast_reader_takes_well_formed_files(tmp_path, lines):
    fast = _score_lines_fast(lines, "f", "seg")
    assert fast is not None
    assert fast.scores == _score_lines(lines, "f", "seg", False).scores
    assert fast.lines == _score_lines(lines, "f", "seg", False).lines


@pytest.mark.parametrize(
    "lines",
    [
        ["1", "1 1 5"],  # a field too few, then one too many: 4 fields in 2 lines
        ["A\t0.5\t", "B\t1"],
        ["A\tNone"],
        ["A\tnan"],
        ["A\t0.5", "B\xa00.5\t1"],
        [],
    ],
)
def test_fast_reader_hands_back_what_it_cannot_vouch_for(lines):
    assert _score_lines_fast(lines, "f", "seg") is None
