"""WMT25/26 test-set and system-output readers (io/wmt25.py): the project-written sample
(src/mtpalette/data/wmt25_sample, invented texts), round trips through the writers, every
damaged line refused with its file and line, and the pair's paragraphs (sources/wmt25.py):
a mismatch reported by system and document, dropped or aligned on request."""

from __future__ import annotations

import json
import shutil

import pytest

from mtpalette.errors import UserInputError
from mtpalette.io.wmt25 import (
    read_system_output,
    read_system_outputs,
    read_testset,
    sample_folder,
    source_row,
    system_row,
    write_jsonl,
)
from mtpalette.sources.wmt25 import Wmt25Inputs
from mtpalette.text.paragraphs import merge_paragraphs, split_paragraphs_to

SAMPLE = sample_folder()
HARBOUR = "en-de_DE_#_news_#_harbour"
TRAM = "cs-uk_UA_#_news_#_tram"


@pytest.fixture
def sample(tmp_path):
    shutil.copytree(SAMPLE, tmp_path / "s")
    return tmp_path / "s"


def _rows(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_reads_the_sample():
    ts = read_testset(SAMPLE / "testset.jsonl", set_id="general")
    assert ts.language_pairs() == ["en-de_DE", "cs-uk_UA"]
    assert [d.doc_id for d in ts.pair("cs-uk_UA")] == [
        TRAM,
        "cs-uk_UA_#_speech_#_vid_market",
        "cs-uk_UA_#_social_#_bakery",
    ]
    harbour = ts.documents[HARBOUR]
    assert len(harbour.paragraphs) == 3 and harbour.line == 1
    assert harbour.refs["refA"].kind == "human"
    assert ts.documents[TRAM].refs["refPE"].kind == "post-edit"
    assert ts.other_ids == {"en-de_DE_#_testsuite_#_numbers"}
    outputs = read_system_outputs([SAMPLE / "systems"], ts)
    assert list(outputs) == ["Lumen", "Quill", "Tessera"]
    assert outputs["Lumen"].other_set == 1  # the test-suite document, left out
    assert outputs["Lumen"].documents[HARBOUR].metadata["note"] == "invented by mtpalette"


def test_testsuites_alone_and_no_reference():
    ts = read_testset(SAMPLE / "testset.jsonl", set_id="testsuites")
    assert list(ts.documents) == ["en-de_DE_#_testsuite_#_numbers"]
    assert ts.documents["en-de_DE_#_testsuite_#_numbers"].refs == {}


def test_several_sets_need_a_choice():
    with pytest.raises(UserInputError, match=r"several sets: general \(6 documents\), "
                       r"testsuites \(1 documents\); choose one with --set-id"):  # fmt: skip
        read_testset(SAMPLE / "testset.jsonl")
    with pytest.raises(UserInputError, match="no document of set 'x'; the file has general"):
        read_testset(SAMPLE / "testset.jsonl", set_id="x")


def test_wmt26_doc_ids_give_the_set(tmp_path):
    doc_id = "WMT26_###_news_###_eng_Latn_###_isl_Latn_###_a.1"
    row = {"doc_id": doc_id, "domain": "news", "src_lang": "eng_Latn", "tgt_lang": "isl_Latn",
           "src_text": "A.", "refs": {}}  # fmt: skip
    write_jsonl(tmp_path / "t.jsonl", [row])
    ts = read_testset(tmp_path / "t.jsonl")
    assert ts.set_id == "WMT26" and ts.language_pairs() == ["eng_Latn-isl_Latn"]
    assert source_row(ts.documents[row["doc_id"]]) == row  # no collection_id added


def test_round_trip(tmp_path):
    ts = read_testset(SAMPLE / "testset.jsonl", set_id="general")
    write_jsonl(tmp_path / "t.jsonl", [source_row(d) for d in ts.documents.values()])
    again = read_testset(tmp_path / "t.jsonl")
    assert again.documents == ts.documents
    assert _rows(tmp_path / "t.jsonl") == [
        r for r in _rows(SAMPLE / "testset.jsonl") if r["collection_id"] == "general"
    ]
    out = read_system_output(SAMPLE / "systems" / "Quill.jsonl", ts)
    write_jsonl(tmp_path / "Quill.jsonl", [system_row(d) for d in out.documents.values()])
    assert (tmp_path / "Quill.jsonl").read_bytes() == (
        SAMPLE / "systems" / "Quill.jsonl"
    ).read_bytes()
    assert read_system_output(tmp_path / "Quill.jsonl", ts).documents == out.documents


def test_reference_kinds_as_stated(tmp_path):
    rows = _rows(SAMPLE / "testset.jsonl")[:1]
    rows[0]["refs"] = {"refA": {"ref": rows[0]["src_text"], "kind": "synthetic"},
                       "refB": rows[0]["src_text"]}  # fmt: skip
    write_jsonl(tmp_path / "t.jsonl", rows)
    refs = read_testset(tmp_path / "t.jsonl").documents[HARBOUR].refs
    assert (refs["refA"].kind, refs["refB"].kind) == ("synthetic", "human")


TESTSET_DAMAGE = {
    "not JSON": (lambda r: '{"doc_id": "x",', "not valid JSON"),
    "not an object": (lambda r: "[1, 2]", "expected a JSON object, found list"),
    "missing src_text": (lambda r: _drop(r, "src_text"), "missing field 'src_text'"),
    "mistyped domain": (lambda r: _set(r, "domain", 3), "field 'domain' must be a string"),
    "doc_id twice": (lambda r: json.dumps(_first()), "again \\(first on line 1\\)"),
    "key twice": (lambda r: '{"doc_id": "a", "doc_id": "b"}', "appears twice"),
    "bad reference": (lambda r: _set(r, "refs", {"refA": {"text": "x"}}), "reference 'refA'"),
    "refs a list": (lambda r: _set(r, "refs", []), "field 'refs' must be an object"),
}


def _first():
    return _rows(SAMPLE / "testset.jsonl")[0]


def _drop(row, key):
    return json.dumps({k: v for k, v in row.items() if k != key}, ensure_ascii=False)


def _set(row, key, value):
    return json.dumps({**row, key: value}, ensure_ascii=False)


@pytest.mark.parametrize("case", list(TESTSET_DAMAGE))
def test_damaged_testset_line_named(case, sample):
    damage, message = TESTSET_DAMAGE[case]
    path = sample / "testset.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[2] = damage(json.loads(lines[2]))  # line 3
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(UserInputError, match=message) as err:
        read_testset(path, set_id="general")
    assert (err.value.path, err.value.line) == (str(path), 3)


SYSTEM_DAMAGE = {
    "not JSON": (lambda r: "{oops", "not valid JSON"),
    "missing hypothesis": (lambda r: _drop(r, "hypothesis"), "missing field 'hypothesis'"),
    "hypothesis a list": (lambda r: _set(r, "hypothesis", ["a"]), "string or null, found a list"),
    "metadata a string": (lambda r: _set(r, "metadata", "x"), "field 'metadata' must be an obj"),
    "unknown document": (lambda r: _set(r, "doc_id", "nowhere"), "document 'nowhere', which"),
    "doc_id twice": (lambda r: _set(r, "doc_id", HARBOUR), "again \\(first on line 1\\)"),
}


@pytest.mark.parametrize("case", list(SYSTEM_DAMAGE))
def test_damaged_system_line_named(case, sample):
    damage, message = SYSTEM_DAMAGE[case]
    path = sample / "systems" / "Quill.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[1] = damage(json.loads(lines[1]))  # line 2
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ts = read_testset(sample / "testset.jsonl", set_id="general")
    with pytest.raises(UserInputError, match=message) as err:
        read_system_outputs([sample / "systems"], ts)
    assert (err.value.path, err.value.line) == (str(path), 2)


def _inputs(sample, lp="en-de_DE", **kw):
    return Wmt25Inputs(sample / "testset.jsonl", [sample / "systems"], lp, "general", **kw)


def test_mismatch_refused_by_name():
    with pytest.raises(UserInputError) as err:
        _inputs(SAMPLE).load(lambda text: None)
    assert "Tessera: en-de_DE_#_news_#_harbour (4 paragraphs, the source has 3)" in str(err.value)
    with pytest.raises(UserInputError, match=r"Tessera: cs-uk_UA_#_news_#_tram \(1 paragraph"):
        _inputs(SAMPLE, "cs-uk_UA").load(lambda text: None)


def test_missing_document_refused_by_name(sample):
    path = sample / "systems" / "Lumen.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines[1:]) + "\n", encoding="utf-8")
    with pytest.raises(UserInputError, match=r"Lumen: en-de_DE_#_news_#_harbour \(missing"):
        _inputs(sample).load(lambda text: None)
    notes = []  # a missing document cannot be aligned: the system is left out, with a note
    pair = _inputs(sample, paragraph_mismatch="align").load(notes.append)
    assert "Lumen" not in pair.systems and "Lumen" in pair.dropped
    assert any(n.startswith("Lumen left out of the pair: Lumen: en-de_DE_#_news") for n in notes)


def test_drop_leaves_the_system_out_of_the_pair_only():
    notes = []
    pair = _inputs(SAMPLE, paragraph_mismatch="drop").load(notes.append)
    assert list(pair.systems) == ["Lumen", "Quill"] and pair.dropped == ["Tessera"]
    assert any(n.startswith("Tessera left out of the pair: Tessera: en-de_DE") for n in notes)
    # at document level the paragraph counts do not matter: Tessera stays
    pair = _inputs(SAMPLE, paragraph_mismatch="refuse", level="document").load(notes.append)
    assert list(pair.systems) == ["Lumen", "Quill", "Tessera"]


def test_align_merges_and_splits_as_wmt26():
    ts = read_testset(SAMPLE / "testset.jsonl", set_id="general")
    tessera = read_system_output(SAMPLE / "systems" / "Tessera.jsonl", ts).documents
    pair = _inputs(SAMPLE, paragraph_mismatch="align").load(lambda text: None)
    got = pair.systems["Tessera"][0]
    paragraphs = tessera[HARBOUR].hypothesis.split("\n\n")
    # the second and third paragraphs belong together (one source paragraph)
    assert got == [paragraphs[0], paragraphs[1] + "\n" + paragraphs[2], paragraphs[3]]
    assert got == merge_paragraphs(ts.documents[HARBOUR].paragraphs, paragraphs)
    pair = _inputs(SAMPLE, "cs-uk_UA", paragraph_mismatch="align").load(lambda text: None)
    assert pair.systems["Tessera"][0] == [
        "Нова трамвайна лінія з'єднає вокзал з лікарнею.",
        "Рух розпочнеться у вересні. Квитки коштуватимуть стільки ж, як сьогодні.",
    ]
    assert pair.systems["Tessera"][0] == split_paragraphs_to(
        ts.documents[TRAM].paragraphs, [tessera[TRAM].hypothesis]
    )


def test_html_kept_or_stripped_with_a_note():
    notes = []
    pair = _inputs(SAMPLE, paragraph_mismatch="drop").load(notes.append)
    assert pair.systems["Quill"][1][0] == "<p>Endlich heute die Tomaten gepflanzt!</p>"
    assert "HTML tags kept and scored as text in Quill (--strip-html removes them)" in notes
    notes = []
    pair = _inputs(SAMPLE, paragraph_mismatch="drop", strip_html=True).load(notes.append)
    assert pair.systems["Quill"][1][0] == "Endlich heute die Tomaten gepflanzt!"
    assert "HTML tags stripped from Quill before scoring" in notes


def test_reference_with_other_paragraph_count_refused(sample):
    path = sample / "testset.jsonl"
    rows = _rows(path)
    rows[1]["refs"]["refA"]["ref"] = "Nur ein Absatz."
    write_jsonl(path, rows)
    with pytest.raises(UserInputError, match="reference 'refA' of 'en-de_DE_#_social_#_garden' "
                       "has 1 paragraph, the source 2") as err:  # fmt: skip
        _inputs(sample, paragraph_mismatch="drop").load(lambda text: None)
    assert (err.value.path, err.value.line) == (str(path), 2)
    pair = _inputs(sample, paragraph_mismatch="drop", level="document").load(lambda text: None)
    assert pair.references["refA"][1] == ["Nur ein Absatz."]


def test_untranslated_document_is_missing(sample):
    path = sample / "systems" / "Quill.jsonl"
    rows = _rows(path)
    rows[2]["hypothesis"] = None
    write_jsonl(path, rows)
    with pytest.raises(UserInputError, match=r"Quill: en-de_DE_#_literary_#_lighthouse \(missing"):
        _inputs(sample, paragraph_mismatch="refuse", level="document").load(lambda text: None)


def test_references_named_and_missing():
    with pytest.raises(UserInputError, match="has no reference 'refB'") as err:
        _inputs(SAMPLE, wmt25_ref=["refB"], paragraph_mismatch="drop").load(lambda text: None)
    assert err.value.line == 1
    with pytest.raises(UserInputError, match="no document of language pair 'en-fr'"):
        _inputs(SAMPLE, "en-fr").load(lambda text: None)
