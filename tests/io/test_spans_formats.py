"""Every span reader on a small sample of its format: the values read, a round trip through
the generic JSONL and TSV giving the same rows, and a damaged file refused naming the file
and the line. Every sample is project-written: invented texts, systems and spans laid out as
each format lays them out (no line of any organiser's file is copied)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtpalette.errors import UserInputError
from mtpalette.io.spans import trimmed
from mtpalette.io.spans_formats import WMT25_COLUMNS
from mtpalette.io.spans_read import read_spans, write_spans


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _spans(row) -> list[tuple]:
    return [(s.start, s.end, s.severity, s.category, s.side) for s in row.spans]


def _round_trip(ss, tmp_path: Path) -> None:
    for fmt, ext in (("generic-jsonl", "jsonl"), ("generic-tsv", "tsv")):
        back = read_spans(write_spans(ss, tmp_path / f"rt.{ext}", format=fmt))
        assert back.rows == ss.rows, fmt


# --- MTME -------------------------------------------------------------------------------
def _mtme_folder(tmp_path: Path, rating: str) -> Path:
    d = tmp_path / "wmt99"
    _write(d / "sources" / "en-de.txt", "The dog barks.\nA cat.\n")
    _write(d / "system-outputs" / "en-de" / "sysA.txt", "Der Hund bellt.\nEine Katze.\n")
    _write(d / "documents" / "en-de.docs", "news d1\nnews d1\n")
    return _write(d / "human-scores" / "en-de.mqm.seg.rating", rating)


def test_mtme_rating_with_folder_texts(tmp_path):
    err = {"start": 4, "end": 8, "severity": "Major", "category": "Accuracy", "score": 5}
    src = {"start": 0, "end": 3, "severity": "minor", "is_source_error": True}
    p = _mtme_folder(tmp_path, f"sysA\t{json.dumps({'errors': [err, src]})}\tr1\nsysA\tNone\n")
    ss = read_spans(p)
    assert ss.format == "mtme" and len(ss) == 1 and ss.lines == (1,)
    r = ss.rows[0]
    assert r.key() == ("en-de", "sysA", "d1", 0) and r.domain == "news" and r.annotator == "r1"
    assert _spans(r) == [(4, 8, "major", "Accuracy", "target"), (0, 3, "minor", None, "source")]
    assert r.marked() == ["Hund"]
    _round_trip(ss, tmp_path)


def test_mtme_rating_span_past_its_text(tmp_path):
    err = {"start": 10, "end": 40, "severity": "minor"}
    p = _mtme_folder(
        tmp_path, f'sysA\t{{"errors": []}}\tr1\nsysA\t{json.dumps({"errors": [err]})}\n'
    )
    with pytest.raises(UserInputError, match=r"en-de\.mqm\.seg\.rating:2: span \[10, 40\) leaves"):
        read_spans(p)
    assert read_spans(p, clip=True).rows[1].spans[0].end == len("Eine Katze.")


# --- MQM --------------------------------------------------------------------------------
MQM_HEAD = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment\n"


def test_mqm_tsv(tmp_path):
    rows = [
        "sysA\tt1\t1\t1\tr1\tThe dog.\tDer <v>Hund</v>.\tAccuracy/Mistranslation\tMajor\t",
        "sysA\tt1\t1\t1\tr1\tThe dog.\tDer Hund<v></v>.\tFluency/Punctuation\tMinor\t",
        "sysA\tt1\t1\t1\tr1\t<v>The</v> dog.\tDer Hund.\tSource issue\tMinor\t",
        "sysA\tt1\t1\t1\tr2\tThe dog.\tDer Hund.\tNo-error\tNo-error\t",
        "sysB\tt1\t1\t1\tr1\tThe dog.\tDas Hund.\tAccuracy/Omission\tMajor\t",
    ]
    p = _write(tmp_path / "mqm_sample_ende.tsv", MQM_HEAD + "\n".join(rows) + "\n")
    ss = read_spans(p)
    assert ss.format == "mqm" and ss.lines == (2, 5, 6)
    a1, a2, b1 = ss.rows
    assert a1.key() == ("en-de", "sysA", "t1", 1) and a1.text == "Der Hund."
    assert _spans(a1) == [
        (4, 8, "major", "Accuracy/Mistranslation", "target"),
        (8, 8, "minor", "Fluency/Punctuation", "target"),
        (0, 3, "minor", "Source issue", "source"),
    ]
    assert a2.annotator == "r2" and a2.spans == ()
    assert _spans(b1) == [(0, 0, "omission", "Accuracy/Omission", "target")]  # no mark
    assert ss.n_spans() == {"minor": 2, "major": 1, "critical": 0, "undecided": 0, "omission": 1}
    _round_trip(ss, tmp_path)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("sysA\tt1\t1\t1\tr1\tThe dog.\tDer <v>Hund.\tAccuracy\tMajor\t", "not closed by </v>"),
        ("sysA\tt1\t1\t1\tr1\tThe dog.\tDer </v>Hund.\tAccuracy\tMajor\t", "without its <v>"),
        ("sysA\tt1\t1\t1\tr1\tThe dog.\tDer Hund!\tNo-error\tNo-error\t", "target text differs"),
        ("sysA\tt1\t1\t1\tr1\tThe dog.\tDer <v>Hund</v>.\tStyle\tNeutral\t", "unknown severity"),
        ("sysA\tt1\t1\tx\tr1", "expected 10 tab-separated fields, found 5"),
    ],
)
def test_mqm_damaged_line(tmp_path, row, message):
    good = "sysA\tt1\t1\t1\tr1\tThe dog.\tDer Hund.\tNo-error\tNo-error\t"
    p = _write(tmp_path / "m.tsv", MQM_HEAD + good + "\n" + row + "\n")
    with pytest.raises(UserInputError, match=rf"m\.tsv:3: .*{message}"):
        read_spans(p, format="mqm")


# --- Appraise ESA CSV -------------------------------------------------------------------
def _esa(spans: list, user="u1", system="sysA", seg=5, kind="TGT", doc="doc-news-1", t=10.0):
    js = json.dumps(spans).replace('"', '""')
    return f'{user},{system},{seg},{kind},eng,ces,88,{doc},False,"{js}",{t - 5},{t}'


def test_esa_csv(tmp_path):
    lines = [
        _esa([{"start_i": 0, "end_i": 3, "severity": "minor", "error_type": None},
              {"start_i": "missing", "end_i": "missing", "severity": "major"}]),
        _esa([], system="ende-tutorial1", doc="ende-tutorial1"),  # tutorial: left out
        _esa([], kind="BAD", doc="doc-news-1#bad"),  # attention check: left out
        _esa([], doc="doc-news-2#dup"),  # duplicate document: left out
        _esa([{"start_i": 2, "end_i": 2, "severity": "undecided"}], user="u2", t=20.0),
        _esa([], user="u2", t=15.0),  # an earlier rating of the same item by u2: replaced
    ]  # fmt: skip
    p = _write(tmp_path / "esa_wave9.csv", "\r\n".join(lines) + "\r\n")
    ss = read_spans(p)
    assert ss.format == "esa-csv" and ss.lines == (1, 5)
    r1, r2 = ss.rows
    assert r1.key() == ("en-cs", "sysA", "doc-news-1", 5) and r1.score == 88.0
    assert _spans(r1) == [(0, 4, "minor", None, "target"), (0, 0, "omission", "major", "target")]
    assert r2.annotator == "u2" and _spans(r2) == [(2, 3, "undecided", None, "target")]
    _round_trip(ss, tmp_path)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (_esa([{"start_i": 5, "end_i": 1, "severity": "minor"}]), r"span \[5, 2\) starts after"),
        (_esa([{"start_i": 0, "end_i": "missing", "severity": "minor"}]), "two integers"),
        (_esa([{"start_i": 0, "severity": "minor"}]), '"start_i", "end_i" and "severity"'),
        ("u1,sysA,5,TGT,eng,ces,88,doc", "expected 12 comma-separated fields"),
        (_esa([]).replace(",88,", ",high,"), "overall score 'high' is not a number"),
    ],
)
def test_esa_csv_damaged_line(tmp_path, line, message):
    p = _write(tmp_path / "e.csv", _esa([]) + "\n" + line + "\n")
    with pytest.raises(UserInputError, match=rf"e\.csv:2: .*{message}"):
        read_spans(p)


# --- WMT25 task-2 TSV -------------------------------------------------------------------
def _wmt25(*rows: list[str]) -> str:
    return "\n".join(["\t".join(WMT25_COLUMNS), *("\t".join(r) for r in rows)]) + "\n"


def _w25row(seg: str, hyp: str, starts: str, ends: str, types: str, set_id="official"):
    return ["doc1", seg, "en", "cs_CZ", set_id, "sysA", "Hi.", hyp, "", "news", "ESA",
            starts, ends, types]  # fmt: skip


def test_wmt25_tsv(tmp_path):
    p = _write(tmp_path / "task2_refs.tsv", _wmt25(
        _w25row("0", "Ahoj svete.", "-1", "-1", "no-error"),
        _w25row("1", 'Rekl "ne".', "0 missing 5", "4 missing 9", "major minor undecided"),
        _w25row("2", "Navic.", "0", "3", "minor", set_id="challenge"),  # not scored
    ))  # fmt: skip
    ss = read_spans(p)
    assert ss.format == "wmt25-tsv" and ss.lines == (2, 3)
    r0, r1 = ss.rows
    assert r0.key() == ("en-cs_CZ", "sysA", "doc1", 0) and r0.spans == () and r0.domain == "news"
    assert r1.text == 'Rekl "ne".'
    assert _spans(r1) == [
        (0, 4, "major", None, "target"),
        (0, 0, "omission", "minor", "target"),
        (5, 9, "undecided", None, "target"),
    ]
    _round_trip(ss, tmp_path)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (_w25row("1", "Ahoj.", "0 2", "1", "minor minor"), "hold 2, 1 and 2 items"),
        (_w25row("1", "Ahoj.", "0", "9", "minor"), r"span \[0, 9\) leaves its text of 5"),
        (_w25row("1", "Ahoj.", "0", "x", "minor"), "expected two integers or two 'missing'"),
        (_w25row("1", "Ahoj.", "0", "1", "severe"), "unknown severity 'severe'"),
        (_w25row("1", "Ahoj.", "0", "1", "minor")[:5], "expected 14 tab-separated fields"),
    ],
)
def test_wmt25_tsv_damaged_line(tmp_path, row, message):
    p = _write(tmp_path / "p.tsv", _wmt25(_w25row("0", "Ahoj.", "-1", "-1", "no-error"), row))
    with pytest.raises(UserInputError, match=rf"p\.tsv:3: .*{message}"):
        read_spans(p)


# --- WMT23/24 QE task 2 -----------------------------------------------------------------
QE_ROWS = (
    "en-de\tm1\t0\tDas ist gut.\t-1\t-1\tno-error\n"
    "en-de\tm1\t1\t Das ist schlecht. \t4 17\t7 17\tmajor minor\n"
)


def test_qe_task2_submission_and_gold(tmp_path):
    sub = read_spans(_write(tmp_path / "predictions.txt", "2409244995\n2280000000\n3\n" + QE_ROWS))
    gold = read_spans(_write(tmp_path / "gold.tsv", "lp\tmodel\tsegid\tmt\ts\te\tt\n" + QE_ROWS))
    assert sub.format == gold.format == "qe-task2"
    assert sub.rows == gold.rows and sub.lines == (4, 5) and gold.lines == (2, 3)
    r0, r1 = sub.rows
    assert r0.key() == ("en-de", "m1", None, 0) and r0.spans == ()
    assert r1.text == "Das ist schlecht."  # stripped, as task2_evaluate.py strips it
    assert _spans(r1) == [(4, 7, "major", None, "target"), (17, 17, "minor", None, "target")]
    _round_trip(sub, tmp_path)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("en-de\tm1\t2\tKurz.\t0\t9\tmajor", r"span \[0, 9\) leaves its text of 5"),
        ("en-de\tm1\t2\tKurz.\t0 1\t1\tmajor", "2 starts, 1 ends and 1 types"),
        ("en-de\tm1\t2\tKurz.\t0\t1", "expected 7 tab-separated fields"),
        ("en-de\tm1\t2\tKurz.\ta\t1\tmajor", "expected integers"),
    ],
)
def test_qe_task2_damaged_line(tmp_path, row, message):
    p = _write(tmp_path / "predictions.txt", "1\n2\n1\n" + QE_ROWS + row + "\n")
    with pytest.raises(UserInputError, match=rf"predictions\.txt:6: .*{message}"):
        read_spans(p, format="qe-task2")


def test_qe_task2_clip_is_the_organisers_cut(tmp_path):
    p = _write(tmp_path / "g.tsv", "h\th\th\th\th\th\th\nen-de\tm1\t2\tKurz.\t3\t9\tmajor\n")
    assert _spans(read_spans(p, clip=True).rows[0]) == [(3, 5, "major", None, "target")]


# --- COMET --to_json --------------------------------------------------------------------
def test_comet_json(tmp_path):
    seg0 = {"src": "I see a dog.", "mt": "Ich sehe einen Hund.", "ref": "-", "COMET": 0.71,
            "errors": [{"text": "▁einen", "confidence": 0.4, "severity": "minor",
                        "start": 8, "end": 14}]}  # fmt: skip
    seg1 = {"src": "Yes.", "mt": "Ja.", "COMET": 0.98}
    data = {"hyp.de": [seg0, seg1]}  # laid out as comet-score writes it
    p = _write(tmp_path / "xcomet.json", json.dumps(data, ensure_ascii=False, indent=4))
    ss = read_spans(p)
    assert ss.format == "comet-json"
    r0, r1 = ss.rows
    assert r0.key() == (None, "hyp.de", None, 0) and r0.score == 0.71
    assert r0.marked() == [" einen"]  # the space before the word, as xCOMET gives it
    assert r0.spans[0].confidence == 0.4 and r1.spans == ()
    assert trimmed(ss).rows[0].marked() == ["einen"]
    _round_trip(ss, tmp_path)


def test_comet_json_damaged(tmp_path):
    bad = {"hyp.de": [{"mt": "Ja.", "errors": [{"start": 1, "end": 9, "severity": "major"}]}]}
    p = _write(tmp_path / "c.json", json.dumps(bad))
    with pytest.raises(UserInputError, match=r"c\.json: 'hyp\.de' segment 0: span \[1, 9\)"):
        read_spans(p)
    bad["hyp.de"][0]["errors"][0]["start"] = "1"
    p = _write(tmp_path / "c.json", json.dumps(bad))
    with pytest.raises(UserInputError, match=r"c\.json: 'hyp\.de' segment 0: start and end must"):
        read_spans(p)
    p = _write(tmp_path / "c.json", '{"hyp.de": [{"mt": "Ja."}],\n "hyp.de": []}')
    with pytest.raises(UserInputError, match=r"c\.json:2: key 'hyp\.de' appears twice"):
        read_spans(p)


# --- WMT26 predictions ------------------------------------------------------------------
ITEM = "official_###_eng_Latn_###_ces_Latn_###_news_###_doc-7_###_{}"


def test_wmt26_jsonl(tmp_path):
    pred = {"sysA": {"errors": [{"start": 2, "end": 5, "severity": "major",
                                 "category": "accuracy/addition"}],
                     "omission": "minor", "instruction_fault": None},
            "sysB": {"errors": [], "omission": None, "instruction_fault": None}}  # fmt: skip
    lines = [{"item_id": ITEM.format(0), "task1_pred": pred, "task2_pred": {"sysA": 61.0}},
             {"item_id": ITEM.format(1), "task1_pred": {"sysA": pred["sysB"]}}]  # fmt: skip
    p = _write(tmp_path / "pred.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
    ss = read_spans(p)
    assert ss.format == "wmt26-jsonl" and ss.lines == (1, 1, 2)
    a, b, c = ss.rows
    assert a.key() == ("eng_Latn-ces_Latn", "sysA", "doc-7", 0) and a.domain == "news"
    assert a.score == 61.0 and b.score is None and c.segment == 1
    assert _spans(a) == [(2, 5, "major", "accuracy/addition", "target"),
                         (0, 0, "omission", "minor", "target")]  # fmt: skip
    _round_trip(ss, tmp_path)


@pytest.mark.parametrize(
    ("pred", "message"),
    [
        ({"errors": [], "omission": None, "instruction_fault": "major"}, "instruction_fault"),
        ({"errors": [{"start": 4, "end": 2, "severity": "minor"}]}, r"span \[4, 2\) starts after"),
        ({"errors": [{"start": "4", "end": 6, "severity": "minor"}]}, "expected an integer"),
        ({"omission": None}, "with 'errors'"),
    ],
)
def test_wmt26_jsonl_damaged_line(tmp_path, pred, message):
    ok = {"item_id": ITEM.format(0), "task1_pred": {"sysA": {"errors": []}}}
    bad = {"item_id": ITEM.format(1), "task1_pred": {"sysA": pred}}
    p = _write(tmp_path / "pred.jsonl", json.dumps(ok) + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(UserInputError, match=rf"pred\.jsonl:2: .*{message}"):
        read_spans(p)


# --- Pearmut ----------------------------------------------------------------------------
def _entry(item_id: str, spans: list, user="ann1", score=70) -> dict:
    tgt = {"sysA": "Hola mundo cruel.", "sysB": "Hola."}
    return {"user_id": user, "item_i": 0,
            "item": [{"item_id": item_id, "src": "Hello cruel world.", "tgt": tgt}],
            "annotation": [{"sysA": {"score": score, "error_spans": spans},
                            "sysB": {"score": 100, "error_spans": []}}]}  # fmt: skip


PM_ID = "WMT26_###_news_###_eng_###_spa_###_d3_###_{}"


def _pearmut_log() -> list[dict]:
    span = {"start_i": 5, "end_i": 9, "category": None, "severity": "major"}
    missing = {"start_i": "missing", "end_i": "missing", "category": None, "severity": "minor"}
    return [
        _entry(PM_ID.format(0), [span], user="gone"),  # dropped by the reset after it
        {"user_id": "gone", "annotation": "__RESET__"},
        _entry(PM_ID.format(0), [span, missing]),
        _entry("attention_check_12", []),  # attention check: left out
        {"user_id": "x", "item": [{"src": "no id"}], "annotation": [{}]},  # attention check
        _entry("x_#_tutorial_#_1", []),  # tutorial: left out
        _entry(PM_ID.format(1), [], score=92),
    ]


def test_pearmut_jsonl_log(tmp_path):
    p = _write(tmp_path / "campaign.jsonl", "".join(json.dumps(e) + "\n" for e in _pearmut_log()))
    ss = read_spans(p)
    assert ss.format == "pearmut" and ss.lines == (3, 3, 7, 7)
    a, b, c, _ = ss.rows
    assert a.key() == ("eng-spa", "sysA", "WMT26_###_news_###_eng_###_spa_###_d3", 0)
    assert a.domain == "news"
    assert a.annotator == "ann1" and a.score == 70.0 and a.marked() == ["mundo", ""]
    assert _spans(a) == [(5, 10, "major", None, "target"), (0, 0, "omission", "minor", "target")]
    assert b.system == "sysB" and b.spans == () and c.score == 92.0 and c.segment == 1
    _round_trip(ss, tmp_path)


def test_pearmut_annotations_json_by_language_pair(tmp_path):
    logs = {"en-es": _pearmut_log(), "en-de": []}
    p = _write(tmp_path / "annotations.json", json.dumps(logs, indent=1))
    ss = read_spans(p)
    assert ss.format == "pearmut" and len(ss) == 4 and ss.lps() == ["en-es"]  # the key's
    assert ss.lines == (None,) * 4


def test_pearmut_annotation_not_an_object(tmp_path):
    bad = _entry(PM_ID.format(2), [])
    bad["annotation"] = [["sysA"]]
    p = _write(
        tmp_path / "c.jsonl", json.dumps(_entry(PM_ID.format(0), [])) + "\n" + json.dumps(bad)
    )
    with pytest.raises(
        UserInputError, match=r"c\.jsonl:2: entry 2: expected items and annotations"
    ):
        read_spans(p)


def test_pearmut_damaged_entry(tmp_path):
    bad = _entry(PM_ID.format(2), [{"start_i": 3, "end_i": 40, "severity": "minor"}])
    log = [_entry(PM_ID.format(0), []), bad]
    p = _write(tmp_path / "c.jsonl", "".join(json.dumps(e) + "\n" for e in log))
    with pytest.raises(UserInputError, match=r"c\.jsonl:2: span \[3, 41\) leaves its text of 17"):
        read_spans(p)


# --- WMT25 human evaluation JSONL -------------------------------------------------------
def test_wmt25_humeval(tmp_path):
    seg = {"doc_id": "en-cs_CZ_#_speech_#_vid9_#_4", "src_text": "Hi there.",
           "tgt_text": {"sysA": "Ahoj tam.", "sysB": "Nazdar."},
           "scores": {"sysA": {"human1": 80.0, "annotator1": "a1",
                               "errors1": [{"start_i": 5, "end_i": 7, "severity": "minor"}],
                               "human2": 60.0, "annotator2": "a2", "errors2": []},
                      "sysB": {"human2": 99.0, "annotator2": "a2", "errors2": []}}}  # fmt: skip
    p = _write(tmp_path / "wmt25-genmt-humeval.jsonl", json.dumps(seg) + "\n")
    ss = read_spans(p)
    assert ss.format == "wmt25-humeval"
    a1, a2, b2 = ss.rows
    assert a1.key() == ("en-cs_CZ", "sysA", "en-cs_CZ_#_speech_#_vid9", 4)
    assert a1.domain == "speech" and a1.marked() == ["tam"] and a1.annotator == "a1"
    assert (a2.score, a2.annotator, a2.spans) == (60.0, "a2", ())
    assert (b2.system, b2.score) == ("sysB", 99.0)
    _round_trip(ss, tmp_path)


def test_wmt25_humeval_damaged_line(tmp_path):
    ok = {"doc_id": "en-cs_CZ_#_news_#_d_#_0", "tgt_text": {}, "scores": {}}
    p = _write(tmp_path / "h.jsonl", json.dumps(ok) + "\n" + json.dumps({**ok, "doc_id": "d"}))
    with pytest.raises(UserInputError, match=r"h\.jsonl:2: doc_id 'd': expected LANGS_#_"):
        read_spans(p)
