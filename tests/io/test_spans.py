"""The span data object (io/spans.py) and read_spans (io/spans_read.py): validation and clip,
the text check between gold and predictions, the generic formats' round trip and format
detection. Every sample here is project-written (invented texts and spans)."""

from __future__ import annotations

import pytest

from mtpalette.errors import UserInputError
from mtpalette.io.spans import (
    SEVERITIES,
    Span,
    SpanRow,
    SpanSet,
    check_texts_agree,
    checked_span,
)
from mtpalette.io.spans_read import FORMATS, detect_format, read_spans, write_spans


def _set(*rows: SpanRow, path: str = "x.jsonl") -> SpanSet:
    return SpanSet(rows, path, "generic-jsonl", tuple(range(1, len(rows) + 1)))


TEXT = "Der Hund bellt laut."  # project-written


@pytest.mark.parametrize(
    ("span", "clipped"),
    [
        (Span(4, 8, "major"), Span(4, 8, "major")),  # inside
        (Span(0, 20, "minor"), Span(0, 20, "minor")),  # the whole text
        (Span(20, 20, "minor"), Span(20, 20, "minor")),  # insertion point at the end
        (Span(15, 30, "minor"), Span(15, 20, "minor")),  # end past the text
        (Span(-2, 3, "minor"), Span(0, 3, "minor")),  # start before it
        (Span(25, 30, "minor"), Span(20, 20, "minor")),  # wholly past: an insertion at the end
        (Span(9, 4, "major"), None),  # start after end: left out
        (Span(0, 0, "omission", "major"), Span(0, 0, "omission", "major")),  # not checked
    ],
)
def test_clip_cuts_to_the_text_and_strict_refuses(span, clipped):
    assert checked_span(span, TEXT, clip=True, path="f", line=3) == clipped
    if clipped == span:
        assert checked_span(span, TEXT, clip=False, path="f", line=3) == span
    else:
        with pytest.raises(UserInputError, match=r"^f:3: span \[") as err:
            checked_span(span, TEXT, clip=False, path="f", line=3)
        assert "--clip" in str(err.value)


def test_without_text_only_order_and_sign_are_checked():
    assert checked_span(Span(100, 200, "minor"), None, clip=False, path="f", line=1).end == 200
    with pytest.raises(UserInputError, match="starts after it ends"):
        checked_span(Span(5, 1, "minor"), None, clip=False, path="f", line=1)
    with pytest.raises(UserInputError, match="leaves its text"):
        checked_span(Span(-1, 1, "minor"), None, clip=False, path="f", line=1)


def test_unknown_severity_refused_unless_clip(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_text(
        '{"system": "A", "segment": 0, "text": "ab", '
        '"spans": [{"start": 0, "end": 1, "severity": "neutral"}]}\n',
        encoding="utf-8",
    )
    with pytest.raises(UserInputError, match=r"s\.jsonl:1: unknown severity 'neutral'"):
        read_spans(p)
    assert read_spans(p, clip=True).rows[0].spans[0].severity == "undecided"


def test_span_set_indexes_filters_and_counts():
    rows = [
        SpanRow("en-de", "A", "d", 0, TEXT, (Span(4, 8, "major"), Span(9, 14, "minor")), 7.0, "r1"),
        SpanRow("en-de", "A", "d", 0, TEXT, (), 95.0, "r2"),
        SpanRow("en-de", "B", "d", 0, TEXT, (Span(0, 0, "omission", "minor"),), 80.0, "r1"),
        SpanRow("cs-uk", "A", "d", 0, "Pes", (), None, "r3"),
    ]
    ss = _set(*rows)
    assert len(ss) == 4 and list(ss) == rows
    assert ss.lps() == ["en-de", "cs-uk"] and ss.systems() == ["A", "B"]
    assert [r.annotator for r in ss.by_key()[("en-de", "A", "d", 0)]] == ["r1", "r2"]
    sub = ss.filter(lp="en-de", annotator="r1")
    assert [r.system for r in sub] == ["A", "B"] and sub.lines == (1, 3)
    assert ss.n_spans() == {"minor": 1, "major": 1, "critical": 0, "undecided": 0, "omission": 1}
    assert rows[0].marked() == ["Hund", "bellt"]
    df = ss.to_pandas()
    assert len(df) == 5  # two spans, then one line for each row without spans or with one
    assert df["severity"].tolist()[:2] == ["major", "minor"] and df["severity"].isna()[2]
    assert df["line"].tolist() == [1, 1, 2, 3, 4]
    assert tuple(SEVERITIES) == ("minor", "major", "critical", "undecided", "omission")


def test_text_mismatch_names_both_files_and_lines():
    gold = SpanSet(
        (SpanRow("en-de", "A", "d", 0, TEXT, ()), SpanRow("en-de", "A", "d", 1, "Ja.", ())),
        "gold.tsv", "mqm", (2, 5),
    )  # fmt: skip
    same = SpanSet((SpanRow("en-de", "A", "d", 1, "Ja.", ()),), "pred.jsonl", "x", (1,))
    assert check_texts_agree(gold, same) == 1
    other = SpanSet(
        (SpanRow("en-de", "A", "d", 1, "Ja.", ()), SpanRow("en-de", "A", "d", 0, TEXT + " ", ())),
        "pred.jsonl", "x", (1, 9),
    )  # fmt: skip
    with pytest.raises(UserInputError) as err:
        check_texts_agree(gold, other)
    msg = str(err.value)
    assert msg.startswith("pred.jsonl:9: the text of en-de/A/d/0 differs from gold.tsv:2")
    assert "at character 20" in msg and "not scored" in msg
    # a row without text, or a key the gold lacks, is not compared
    untexted = SpanSet((SpanRow("en-de", "A", "d", 0, None, ()),), "p", "x", (1,))
    assert check_texts_agree(gold, untexted) == 0


ROWS = (
    SpanRow("en-de", "A", "doc 1", 0, "Tab\there,\nnew line \\ back",
            (Span(0, 3, "major", "acc/mis"), Span(4, 4, "minor", None, "target", 0.25),
             Span(1, 2, "critical", None, "source")), 71.5, "r1", "news", False),
    SpanRow("en-de", "A", "doc 1", 1, "Alles gut.", (), 100.0, "r1", "news", True),
    SpanRow("en-de", "B", None, "seg-x", None, (Span(0, 0, "omission", "major"),)),
    SpanRow(None, "C", None, 7, "Ünïcödé 😀 text", (Span(8, 9, "undecided"),)),
    SpanRow(None, "D", None, None, None, ()),  # a row with no segment number
)  # fmt: skip


@pytest.mark.parametrize("fmt", ["generic-jsonl", "generic-tsv"])
def test_generic_round_trip(tmp_path, fmt):
    ss = SpanSet(ROWS, "orig", "x")
    p = write_spans(ss, tmp_path / ("s." + fmt.split("-")[1]), format=fmt)
    back = read_spans(p)
    assert back.format == fmt
    assert back.rows == ss.rows
    again = read_spans(write_spans(back, tmp_path / ("t." + fmt.split("-")[1]), format=fmt))
    assert again.rows == ss.rows and again.lines == back.lines


def test_generic_tsv_refuses_a_split_segment_and_a_bad_line(tmp_path):
    p = tmp_path / "s.tsv"
    head = "system\tsegment\tstart\tend\tseverity\n"
    p.write_text(head + "A\t0\t0\t1\tminor\nA\t1\t0\t1\tminor\nA\t0\t2\t3\tminor\n")
    with pytest.raises(UserInputError, match=r"s\.tsv:4: the spans of this segment continue"):
        read_spans(p)
    p.write_text(head + "A\t0\t0\tx\tminor\n")
    with pytest.raises(UserInputError, match=r"s\.tsv:2: start '0' and end 'x'"):
        read_spans(p)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"system": "A", "segment": 1}', "expected a row with 'system'"),
        ('{"system": "A", "segment": [1], "spans": []}', "segment \\[1\\]: expected an integer"),
        ('{"system": 5, "segment": 1, "spans": []}', "system 5: expected a string"),
        ('{"system": "A", "segment": 1, "spans": [{"start": 0, "end": 1}]}', "with 'start'"),
        ('{"system": "A", "segment": 1, "spans": [], "error_free": "yes"}', "error_free 'yes'"),
    ],
)
def test_generic_jsonl_damaged_line(tmp_path, line, message):
    p = tmp_path / "s.jsonl"
    p.write_text('{"system": "A", "segment": 0, "spans": []}\n' + line + "\n")
    with pytest.raises(UserInputError, match=rf"s\.jsonl:2: .*{message}"):
        read_spans(p)


def test_detection_and_its_refusals(tmp_path):
    p = tmp_path / "s.tsv"
    p.write_text("system\tsegment\tstart\tend\tseverity\nA\t0\t0\t1\tminor\n")
    assert detect_format(p) == "generic-tsv"
    odd = tmp_path / "s.xyz"
    odd.write_text("x\n")
    with pytest.raises(UserInputError, match="cannot tell the span format from the ending '.xyz'"):
        read_spans(odd)
    both = tmp_path / "both.tsv"  # a header that fits two formats
    both.write_text("system\tsegment\tstart\tend\tseverity\tstart_indices\tend_indices\t"
                    "error_types\n")  # fmt: skip
    with pytest.raises(UserInputError, match="ambiguous: it could be wmt25-tsv, generic-tsv"):
        read_spans(both)
    none = tmp_path / "n.tsv"
    none.write_text("a\tb\n")
    with pytest.raises(UserInputError, match="not recognised: it could be mqm, wmt25-tsv"):
        read_spans(none)
    with pytest.raises(UserInputError, match="unknown span format 'mqm2'.*Did you mean 'mqm'"):
        read_spans(p, format="mqm2")
    assert len(FORMATS) == 11


# --- property: any span set survives the generic formats -------------------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"))
_NAME = st.one_of(st.none(), _TEXT)
_NUMBER = st.one_of(st.none(), st.floats(allow_nan=False, allow_infinity=False))


@st.composite
def _row(draw) -> SpanRow:
    text = draw(st.one_of(st.none(), _TEXT))
    n = len(text) if text is not None else 50
    spans = []
    for _ in range(draw(st.integers(0, 3))):
        severity = draw(st.sampled_from(SEVERITIES))
        a = draw(st.integers(0, n))
        b = draw(st.integers(a, n))
        if severity == "omission":
            a = b = 0
        spans.append(Span(a, b, severity, draw(_NAME), draw(st.sampled_from(["target", "source"])),
                          draw(_NUMBER)))  # fmt: skip
    return SpanRow(
        draw(_NAME), draw(_TEXT.filter(bool)), draw(_NAME),
        draw(st.one_of(st.integers(0, 10**6), st.from_regex(r"[a-z][\w-]*", fullmatch=True))),
        text, tuple(spans), draw(_NUMBER), draw(_NAME), draw(_NAME),
        draw(st.one_of(st.none(), st.booleans())),
    )  # fmt: skip


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rows=st.lists(_row(), min_size=1, max_size=4, unique_by=lambda r: (*r.key(), r.annotator)))
def test_generic_formats_round_trip_any_span_set(tmp_path, rows):
    ss = SpanSet(tuple(rows), "orig", "x")
    for fmt, ext in (("generic-jsonl", "jsonl"), ("generic-tsv", "tsv")):
        back = read_spans(write_spans(ss, tmp_path / f"p.{ext}", format=fmt), format=fmt)
        assert back.rows == ss.rows, fmt
