"""The reader of WMT25's automatic_scores (io/wmt25_scores.py): a round trip, the system score
as WMT25 computes it, and every damaged line refused with the file and the line. The files
here are project-written samples (invented scores)."""

from __future__ import annotations

import json

import pytest

from mtpalette.errors import UserInputError
from mtpalette.io.wmt25_scores import read_wmt25_score_file, read_wmt25_scores, supported_systems


def _doc(doc_id, scores, lp="en-de_DE", domain="news"):
    return {"language_pair": lp, "domain": domain, "document_id": doc_id, "metric_scores": scores}


def _write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_round_trip_and_pooled_paragraph_mean(tmp_path):
    rows = [_doc("d1", {"chrF++": [10.0, 20.0, 30.0], "XCOMET-XL": [0.5, None, 0.7]}),
            _doc("d2", {"chrF++": [60.0], "XCOMET-XL": [0.9]}, domain="speech"),
            _doc("d3", {"chrF++": [1.0]}, lp="en-cs_CZ")]  # fmt: skip
    _write(tmp_path / "SysA.jsonl", rows)
    docs = read_wmt25_score_file(tmp_path / "SysA.jsonl")
    back = [{"language_pair": d.language_pair, "domain": d.domain, "document_id": d.document_id,
             "metric_scores": d.metric_scores} for d in docs]  # fmt: skip
    assert back == rows and [d.line for d in docs] == [1, 2, 3]
    s = read_wmt25_scores(tmp_path)
    assert s.language_pairs() == ["en-de_DE", "en-cs_CZ"]
    scores, notes = s.system_scores("en-de_DE")
    # paragraphs pooled over documents: (10 + 20 + 30 + 60) / 4, not the mean of doc means
    assert scores["chrF++"] == {"SysA": 30.0}
    assert scores["XCOMET-XL"]["SysA"] == pytest.approx((0.5 + 0.7 + 0.9) / 3, rel=1e-15)
    assert notes == ["SysA: 1 of 4 paragraph(s) without a XCOMET-XL score left out of its mean"]
    assert s.system_scores("en-de_DE", domain="speech")[0]["chrF++"] == {"SysA": 60.0}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "SysA.jsonl:2: not JSON"),
        ("[1, 2]", "SysA.jsonl:2: expected a JSON object"),
        (json.dumps({"language_pair": "en-de_DE", "domain": "news", "metric_scores": {}}),
         "SysA.jsonl:2: missing field 'document_id'"),
        (json.dumps(_doc("d2", {"chrF++": "12"})),
         "SysA.jsonl:2: metric 'chrF++': expected a list"),
        (json.dumps(_doc("d2", {"chrF++": [1.0, "x"]})),
         "SysA.jsonl:2: metric 'chrF++', paragraph 2"),
        (json.dumps(_doc("d2", {"chrF++": [1.0, True]})), "paragraph 2: True is not a finite"),
        (json.dumps(_doc("d2", {"a": [1.0, 2.0], "b": [1.0]})),
         "SysA.jsonl:2: document 'd2': the metrics score different numbers of paragraphs "
         "(a: 2, b: 1)"),
        (json.dumps(_doc("d1", {"chrF++": [1.0]})),
         "SysA.jsonl:2: document 'd1' of en-de_DE given twice (first on line 1)"),
        ('{"language_pair": "en-de_DE", "language_pair": "x"}',
         "SysA.jsonl:2: key 'language_pair' appears twice"),
    ],
)  # fmt: skip
def test_a_damaged_line_is_refused_with_file_and_line(tmp_path, line, message):
    path = tmp_path / "SysA.jsonl"
    path.write_text(json.dumps(_doc("d1", {"chrF++": [1.0]})) + "\n" + line + "\n")
    with pytest.raises(UserInputError) as err:
        read_wmt25_scores(tmp_path)
    assert message in str(err.value)


def test_non_finite_score_refused(tmp_path):
    path = tmp_path / "S.jsonl"
    path.write_text('{"language_pair": "a-b", "domain": "x", "document_id": "d", '
                    '"metric_scores": {"m": [NaN]}}\n')  # fmt: skip
    with pytest.raises(UserInputError, match=r"S.jsonl:1: metric 'm', paragraph 1: nan"):
        read_wmt25_scores(tmp_path)


def test_metric_on_part_of_a_systems_documents_is_refused(tmp_path):
    _write(tmp_path / "B.jsonl", [_doc("d1", {"m": [1.0], "k": [2.0]}), _doc("d2", {"m": [3.0]})])
    with pytest.raises(UserInputError, match=r"B.jsonl:2: system 'B' has k scores on some "):
        read_wmt25_scores(tmp_path).system_scores("en-de_DE")
    _write(tmp_path / "B.jsonl", [_doc("d1", {"m": [None]})])
    with pytest.raises(UserInputError, match=r"system 'B' has no m score on any en-de_DE"):
        read_wmt25_scores(tmp_path).system_scores("en-de_DE")


def test_empty_or_missing_folder(tmp_path):
    with pytest.raises(UserInputError, match="no \\*.jsonl file"):
        read_wmt25_scores(tmp_path)
    with pytest.raises(UserInputError, match="expected a folder"):
        read_wmt25_scores(tmp_path / "nope")


def test_supported_lps_filter_is_the_key():
    meta = {"A": {"supported_lps": {"en-de_DE": "unsupported"}}, "B": {"supported_lps": {}}}
    assert supported_systems(meta, "en-de_DE") == {"A"}
    with pytest.raises(UserInputError, match="'C': expected an object with 'supported_lps'"):
        supported_systems({"C": {}}, "en-de_DE")
