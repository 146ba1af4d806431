"""Tables with named columns (TSV, JSON Lines): values read back exactly, several and variable
references, and every malformed row reported with its file and line."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.errors import UserInputError
from mtpalette.io.tabular import header, read_columns, read_segments, table_format

#: a TSV field: no tab, no line break (the format cannot hold them)
FIELD = st.text(
    st.characters(blacklist_characters="\t\n\r\ufeff\x00", blacklist_categories=("Cs",)),
    max_size=12,
)


@settings(max_examples=100, deadline=None)
@given(rows=st.lists(st.tuples(FIELD, FIELD, FIELD), min_size=1, max_size=6))
def test_tsv_and_jsonl_round_trip(tmp_path_factory, rows):
    folder = tmp_path_factory.mktemp("tab")
    tsv, jsonl = folder / "d.tsv", folder / "d.jsonl"
    tsv.write_text("src\tmt\tref\n" + "".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")
    jsonl.write_text(
        "".join(json.dumps(dict(zip(["src", "mt", "ref"], r, strict=True))) + "\n" for r in rows),
        encoding="utf-8",
    )
    expected = ([r[1] for r in rows], [[r[2] for r in rows]])
    # written literally: read literally (auto may refuse a field such as '"x"' as ambiguous)
    assert read_segments(tsv, "mt", ["ref"], quoting="none") == expected
    assert read_segments(jsonl, "mt", ["ref"]) == expected
    got = read_columns(tsv, ["ref", "src"], quoting="none")
    assert got == [[r[2] for r in rows], [r[0] for r in rows]]


ANY_FIELD = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\ufeff\x00")
)


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.tuples(ANY_FIELD, ANY_FIELD), min_size=1, max_size=6))
def test_csv_written_tables_read_back_exactly(tmp_path_factory, rows):
    """Whatever the text (tabs, quotes, line breaks), a table written by Python's csv module
    reads back as written."""
    import csv

    p = tmp_path_factory.mktemp("csv") / "d.tsv"
    with open(p, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, delimiter="\t", lineterminator="\n").writerows([("mt", "ref"), *rows])
    got = read_columns(p, ["mt", "ref"])
    assert got == [[r[0] for r in rows], [r[1] for r in rows]]


def test_real_segments_round_trip(tmp_path, ted_zhen):
    """Real text with quotes, backslashes and non-Latin script survives both formats."""
    systems, (ref_a, ref_b) = ted_zhen
    hyps = systems["SMU"]
    tsv = tmp_path / "ted.tsv"
    tsv.write_text(
        "mt\tref1\tref2\n"
        + "".join(f"{h}\t{a}\t{b}\n" for h, a, b in zip(hyps, ref_a, ref_b, strict=True)),
        encoding="utf-8",
    )
    jsonl = tmp_path / "ted.jsonl"
    jsonl.write_text(
        "".join(
            json.dumps({"mt": h, "refs": [a, b]}, ensure_ascii=False) + "\n"
            for h, a, b in zip(hyps, ref_a, ref_b, strict=True)
        ),
        encoding="utf-8",
    )
    assert read_segments(tsv, "mt", ["ref1", "ref2"]) == (hyps, [ref_a, ref_b])
    assert read_segments(jsonl, "mt", ["refs"]) == (hyps, [ref_a, ref_b])
    assert any('"' in h for h in hyps)  # the data does contain quotes


def test_variable_references_in_jsonl(tmp_path):
    path = tmp_path / "v.jsonl"
    path.write_text(
        '{"hyp": "a", "ref": ["r1", "r2", "r3"], "extra": "x"}\n'
        '{"hyp": "b", "ref": "s1", "extra": null}\n'
        '{"hyp": "c", "ref": null, "extra": "t1"}\n',
        encoding="utf-8",
    )
    assert read_segments(path, "hyp", ["ref", "extra"]) == (
        ["a", "b", "c"],
        [["r1", "s1", "t1"], ["r2", None, None], ["r3", None, None], ["x", None, None]],
    )


def test_format_choice(tmp_path):
    assert table_format("x.JSONL") == "jsonl" and table_format("x.ndjson") == "jsonl"
    assert table_format("x.tsv") == "tsv" and table_format("x.txt") == "tsv"
    assert table_format("x.tsv", "jsonl") == "jsonl"
    assert table_format("x.csv") == "csv" and table_format("x.parquet") == "parquet"
    with pytest.raises(UserInputError, match="unknown table format 'xlsx'"):
        table_format("x.xlsx", "xlsx")
    path = tmp_path / "data.txt"  # a JSONL file with another extension
    path.write_text('{"hyp": "a", "ref": "b"}\n', encoding="utf-8")
    assert read_segments(path, "hyp", ["ref"], fmt="jsonl") == (["a"], [["b"]])


@pytest.mark.parametrize(
    ("name", "content", "hyp", "refs", "message"),
    [
        ("t.tsv", "hyp\tref\na\tb\nonly-one\n", "hyp", ["ref"], ":3: expected 2 tab-separated"),
        ("t.tsv", "hyp\tref\na\tb\tc\n", "hyp", ["ref"], ":2: expected 2 tab-separated fields"),
        ("t.tsv", "hyp\tref\na\tb\n\n", "hyp", ["ref"], ":3: expected 2 tab-separated fields"),
        (
            "t.tsv",
            "mt\tr1\tr2\na\tb\tc\n",
            "mt",
            ["ref"],
            ":1: no column 'ref'; the header has: mt, r1, r2",
        ),
        ("t.tsv", "hyp\tref\tref\na\tb\tc\n", "hyp", ["ref"], ":1: column 'ref' appears twice"),
        ("t.tsv", "hyp\tref\n", "hyp", ["ref"], ":1: the table has a header but no rows"),
        ("t.tsv", "hyp\tref\na\tb\n", "hyp", ["hyp"], "column 'hyp' is given as the hypotheses"),
        (
            "t.jsonl",
            '{"hyp": "a", "ref": "b"}\n{"hyp": "a"\n',
            "hyp",
            ["ref"],
            ":2: invalid JSON (Expecting ',' delimiter at column 12)",
        ),
        ("t.jsonl", '{"hyp": "a"}\n', "hyp", ["ref"], ":1: no field 'ref'; this object has: hyp"),
        ("t.jsonl", "[1, 2]\n", "hyp", ["ref"], ":1: expected a JSON object, found a list"),
        ("t.jsonl", '{"hyp": "a", "ref": "b"}\n\n{}\n', "hyp", ["ref"], ":2: empty line"),
        (
            "t.jsonl",
            '{"hyp": 3, "ref": "b"}\n',
            "hyp",
            ["ref"],
            ":1: field 'hyp' is a number, expected a string",
        ),
        (
            "t.jsonl",
            '{"hyp": "a", "ref": {"x": 1}}\n',
            "hyp",
            ["ref"],
            ":1: field 'ref' is an object, expected a string, a list of strings or null",
        ),
        (
            "t.jsonl",
            '{"hyp": "a", "ref": ["b", 2]}\n',
            "hyp",
            ["ref"],
            ":1: field 'ref[1]' is a number, expected a string",
        ),
        (
            "t.jsonl",
            '{"hyp": "a", "ref": []}\n',
            "hyp",
            ["ref"],
            ":1: this segment has no reference",
        ),
        ("t.jsonl", "", "hyp", ["ref"], ": the file is empty"),
    ],
)
def test_bad_tables(tmp_path, name, content, hyp, refs, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UserInputError) as info:
        read_segments(path, hyp, refs)
    text = str(info.value)
    assert message in text
    if message.startswith(":"):
        assert text.startswith(f"{path}{message}")


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_bytes(text.encode("utf-8"))
    return p


def test_csv_quoted_tables_read_as_written(tmp_path):
    """Files written by Python's csv module (and pandas) once scored with their quotes as
    text: BLEU 51.33 instead of 51.13."""
    import csv

    rows = [
        ("mt", "ref"),
        ('He said "hi".', 'He said "hello".'),
        ("a\ttab", "a tab"),
        ('"Yes."', "Yes."),
        ("plain", "plain"),
    ]
    for terminator in ("\n", "\r\n"):
        p = tmp_path / "quoted.tsv"
        with open(p, "w", newline="", encoding="utf-8") as fh:
            csv.writer(fh, delimiter="\t", lineterminator=terminator).writerows(rows)
        assert read_columns(p, ["mt", "ref"]) == [
            [r[0] for r in rows[1:]],
            [r[1] for r in rows[1:]],
        ]


def test_literal_tables_stay_literal(tmp_path):
    p = _write(tmp_path, "lit.tsv", 'mt\tref\n"Hi," he said.\tHi, he said.\nsay "x"\tsay x\n')
    assert read_columns(p, ["mt", "ref"])[0] == ['"Hi," he said.', 'say "x"']


def test_ambiguous_quoting_is_refused_then_decided(tmp_path):
    p = _write(tmp_path, "amb.tsv", 'mt\tref\nfine\tfine\n"Yes."\tYes.\n')
    with pytest.raises(UserInputError, match=r"amb.tsv:3: .*--table-quoting csv or none"):
        read_columns(p, ["mt", "ref"])
    assert read_columns(p, ["mt", "ref"], quoting="csv")[0] == ["fine", "Yes."]
    assert read_columns(p, ["mt", "ref"], quoting="none")[0] == ["fine", '"Yes."']


def test_bad_csv_quoting_names_the_line(tmp_path):
    p = _write(tmp_path, "bad.tsv", 'mt\tref\nok\tok\n"open\tx\n')
    with pytest.raises(UserInputError, match=r"bad.tsv:\d+: not valid CSV quoting"):
        read_columns(p, ["mt", "ref"], quoting="csv")


def test_csv_parquet_and_sniffing(tmp_path):
    """One reader for every format: a CSV (named or sniffed) and a Parquet file written by
    pandas read the same rows as the TSV; quoting as pandas writes it."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(
        {"hyp": ['He said "hi", then left', "b\tc"], "ref": ["a, b", "x"], "ref2": ["y", "z"]}
    )
    expected = (list(frame.hyp), [list(frame.ref), list(frame.ref2)])
    frame.to_csv(tmp_path / "t.csv", index=False)
    frame.to_csv(tmp_path / "t.tsv", sep="\t", index=False)
    frame.to_csv(tmp_path / "sniffed.txt", index=False)  # commas, no extension to go by
    frame.to_parquet(tmp_path / "t.parquet")
    frame.to_parquet(tmp_path / "misnamed.tsv")  # Parquet's magic bytes win
    for name in ("t.csv", "t.tsv", "sniffed.txt", "t.parquet", "misnamed.tsv"):
        assert read_segments(tmp_path / name, "hyp", ["ref", "ref2"]) == expected, name
    assert table_format(tmp_path / "misnamed.tsv") == "parquet"
    with pytest.raises(UserInputError, match="this is a Parquet file, not TSV"):
        read_segments(tmp_path / "misnamed.tsv", "hyp", ["ref"], fmt="tsv")


def test_a_parquet_header_is_read_from_the_schema(tmp_path, monkeypatch):
    """The header of a Parquet file comes from its footer: its rows are not read (a table
    of millions of rows is not turned into Python objects to name its columns)."""
    pd = pytest.importorskip("pandas")
    pq = pytest.importorskip("pyarrow.parquet")
    pd.DataFrame({"system": ["A"], "hyp": ["a"], "ref": ["b"]}).to_parquet(tmp_path / "t.parquet")
    monkeypatch.setattr(pq, "read_table", lambda *a, **k: pytest.fail("rows were read"))
    assert header(tmp_path / "t.parquet") == ["system", "hyp", "ref"]
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(UserInputError, match="bad.parquet: not a readable Parquet file"):
        header(tmp_path / "bad.parquet")


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("d.csv", "hyp,ref,ref\na,b,c\n", "column 'ref' appears twice in the header"),
        ("d.tsv", "hyp\tref\thyp\na\tb\tc\n", "column 'hyp' appears twice"),
        ("d.jsonl", '{"hyp": "a", "ref": "b", "ref": "c"}\n', "field 'ref' appears twice"),
        ("d.tsv", "hyp,ref\na,b\n", "looks comma-separated"),
        ("d.csv", 'hyp,ref\n"a,b\n', "not valid CSV"),
        ("d.csv", "hyp,ref\na,b,c\n", "expected 2 comma-separated fields"),
    ],
)
def test_ambiguous_tables_are_refused(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UserInputError, match=message):
        read_segments(path, "hyp", ["ref"])
