"""Small mt-metrics-eval folders written by the tests, each read as MTME's ``EvalSet`` and
``GetCorrelations`` read them (mt_metrics_eval/data.py at 68a481a): the WMT24++ JSON Lines
layout, ``.rating`` files, ``human1``/``human2`` scores, an outlier, references as systems,
close references, document and domain levels; and the errors of broken folders."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from mtme_cases import MQM, make_folder
from mtme_cases import bundled as _bundled
from mtme_cases import write as _write

from mtpalette.errors import UserInputError
from mtpalette.io.judgments_mtme import read_mtme_seg_scores
from mtpalette.io.judgments_read import read_judgments
from mtpalette.io.mtme import mtme_paths, read_mtme
from mtpalette.io.mtme_files import read_docs_file, read_domain_score_file
from mtpalette.io.mtme_meta import BUILTIN, builtin_meta
from mtpalette.io.mtme_write import write_mtme_rows, write_mtme_scores
from mtpalette.io.scorefile import is_mtme_score_file, read_score_option


# ----------------------------------------------------------------------------------------
# which systems are evaluated
# ----------------------------------------------------------------------------------------
def test_unjudged_system_left_out_and_strict_refuses(tmp_path):
    root = make_folder(tmp_path, human=MQM)
    s = read_mtme(root, "zh-en")
    assert s.systems == ["Online-W", "SMU"]
    assert s.left_out == {
        "MiSS": "no mqm seg scores",
        "refA": "the reference in use",
    }
    assert any("standard reference: refA (the only reference)" in n for n in s.notes)
    assert any("standard seg human score: mqm (the only one)" in n for n in s.notes)
    h = s.human_matrix()
    np.testing.assert_array_equal(h, [[-1, np.nan, -5], [0, -2, -1]])
    j = s.judgments()
    assert j.systems == ["Online-W", "SMU"] and j.items == [1, 2, 3] and j.item_base == 1
    with pytest.raises(UserInputError, match=r"mqm\.seg\.score: no judgments for system\(s\) MiSS"):
        read_mtme(root, "zh-en", strict=True)
    # scoring needs no human scores: every system but the reference
    assert read_mtme(root, "zh-en", judged_only=False).systems == ["MiSS", "Online-W", "SMU"]


def test_all_none_system_is_unjudged(tmp_path):
    human = {"mqm.seg": {**MQM["mqm.seg"], "MiSS": ["None"] * 3}}
    s = read_mtme(make_folder(tmp_path, human=human), "zh-en")
    assert s.left_out["MiSS"] == "no mqm seg scores"


def test_reference_as_system_and_close_reference(tmp_path):
    human = {"mqm.seg": {**MQM["mqm.seg"], "refB": [-1, -1, 0]}}
    root = make_folder(tmp_path, refs=("refA", "refB"), human=human)
    with pytest.raises(UserInputError, match=r"which reference is the standard one\? .*refA, refB"):
        read_mtme(root, "zh-en")
    s = read_mtme(root, "zh-en", ref="refA")
    assert s.human_systems == {"refA", "refB"}
    assert s.left_out["refB"] == "a reference; include it with include_refs"
    s = read_mtme(root, "zh-en", ref="refA", include_refs=True)
    assert s.systems == ["Online-W", "SMU", "refB"]
    s = read_mtme(root, "zh-en", ref="refB", include_refs=True)
    assert s.systems == ["Online-W", "SMU", "refA"] and s.reference() == _bundled("refB")
    s = read_mtme(root, "zh-en", ref="refA", include_refs=True, close_refs=["refB"])
    assert s.left_out["refB"] == "a reference close to refA"
    with pytest.raises(UserInputError, match="refB is listed as close"):
        read_mtme(root, "zh-en", ref="refB", close_refs=["refB"])


def test_builtin_outlier(tmp_path):
    """wmt24 en-es: MTME's meta_info lists MSLC as an outlier, refA as the standard."""
    human = {"mqm.seg": {"MSLC": [-9, -9, -9], "SMU": [0, -2, -1], "Online-W": [-1, -1, -1]}}
    root = make_folder(tmp_path, "wmt24", "en-es", systems=("Online-W", "SMU", "MiSS"), human=human)
    (root / "system-outputs" / "en-es" / "MiSS.txt").rename(
        root / "system-outputs" / "en-es" / "MSLC.txt"
    )
    s = read_mtme(root, "en-es")
    assert s.meta.source.startswith("mt-metrics-eval's meta_info.py")
    assert s.left_out["MSLC"] == "an outlier; include it with include_outliers"
    assert read_mtme(root, "en-es", include_outliers=True).systems == ["MSLC", "Online-W", "SMU"]


def test_human1_human2(tmp_path):
    """WMT25 ESA pairs ship two human scores; MTME's standard one is esa-human1."""
    human = {
        "esa-human1.seg": {"SMU": [80, 70, 60], "Online-W": [50, 40, 90]},
        "esa-human2.seg": {"SMU": [75, "None", 65], "MiSS": [10, 20, 30]},
    }
    root = make_folder(tmp_path, "wmt25", "en-cs_CZ", human=human)
    s = read_mtme(root, "en-cs_CZ")
    assert s.human == "esa-human1" and s.systems == ["Online-W", "SMU"]
    s = read_mtme(root, "en-cs_CZ", human="esa-human2")
    assert s.systems == ["MiSS", "SMU"]
    np.testing.assert_array_equal(s.human_matrix(), [[10, 20, 30], [75, np.nan, 65]])
    other = make_folder(tmp_path, "other", "en-cs_CZ", human=human)
    with pytest.raises(
        UserInputError, match="which human score at seg level.*esa-human1, esa-human2"
    ):
        read_mtme(other, "en-cs_CZ")
    (other / "mtpalette.json").write_text(json.dumps({"std_gold": {"seg": "esa-human2"}}))
    assert read_mtme(other, "en-cs_CZ").human == "esa-human2"


def test_meta_file_per_language_pair(tmp_path):
    root = make_folder(tmp_path, refs=("refA", "refB"), human=MQM)
    (root / "meta.json").write_text(
        json.dumps({"zh-en": {"std_ref": "refB", "outlier_systems": ["SMU"]}})
    )
    s = read_mtme(root, "zh-en", include_refs=True)
    assert s.ref == "refB" and s.meta.source.endswith("meta.json")
    assert s.left_out["SMU"].startswith("an outlier") and s.systems == ["Online-W", "refA"]
    (root / "meta.json").write_text(json.dumps({"std_ref": "refB", "colour": "red"}))
    with pytest.raises(UserInputError, match=r"meta\.json: unknown key\(s\) colour"):
        read_mtme(root, "zh-en")


# ----------------------------------------------------------------------------------------
# file kinds
# ----------------------------------------------------------------------------------------
def test_wmt24pp_jsonl_layout(tmp_path):
    """WMT24++: JSON Lines sources ("source"), references ("target") and outputs
    ("hypothesis"); en-de_DE's standard reference is posteditB; no human scores."""
    lp = "en-de_DE"
    root = tmp_path / "wmt24pp"
    src = ["Hello world.", "It rains."]
    _write(
        root / "sources" / f"{lp}.jsonl", [json.dumps({"source": x, "domain": "d"}) for x in src]
    )
    refs = {"refA": ["Hallo Welt.", "Es regnet."], "posteditB": ["Hallo, Welt.", "Es regnet."]}
    for name, lines in refs.items():
        _write(
            root / "references" / f"{lp}.{name}.jsonl", [json.dumps({"target": x}) for x in lines]
        )
    outs = {"Gemini": ["Hallo Welt!", None], "GPT-4": ["Hallo Erde.", "Es regnet stark."]}
    for name, lines in outs.items():
        _write(
            root / "system-outputs" / lp / f"{name}.jsonl",
            [json.dumps({"hypothesis": x, "source": s}) for x, s in zip(lines, src, strict=True)],
        )
    s = read_mtme(root, lp, judged_only=False)
    assert s.ref == "posteditB" and s.source == src
    assert s.outputs["Gemini"] == ["Hallo Welt!", None] and s.texts(["Gemini"]) == [
        ["Hallo Welt!", ""]
    ]
    assert s.systems == ["GPT-4", "Gemini"] and s.human is None
    assert s.reference() == refs["posteditB"]
    with pytest.raises(UserInputError, match="which human score at seg level.*none"):
        read_mtme(root, lp)
    _write(root / "system-outputs" / lp / "Bad.jsonl", ['{"translation": "x"}', "{}"])
    with pytest.raises(
        UserInputError, match=r'Bad\.jsonl:1: expected a JSON object with the key "hypothesis"'
    ):
        read_mtme(root, lp, judged_only=False)


def test_no_translation_marker_and_trailing_space(tmp_path):
    root = make_folder(tmp_path, human=MQM)
    _write(root / "system-outputs" / "zh-en" / "SMU.txt", ["a  ", "[No translation supplied]", "c"])
    s = read_mtme(root, "zh-en")
    assert s.outputs["SMU"] == ["a", None, "c"]


def test_rating_files(tmp_path):
    root = make_folder(tmp_path, human=MQM)
    span = {"errors": [{"start": 0, "end": 5, "category": "accuracy", "severity": "major"}]}
    lines = [f"SMU\t{json.dumps(span)}\trater1", 'SMU\t{"errors": []}', "SMU\tNone"]
    _write(root / "human-scores" / "zh-en.mqm.merged.seg.rating", lines)
    s = read_mtme(root, "zh-en", read_ratings=True)
    r = s.ratings["mqm.merged"]["SMU"]
    assert r[0].errors[0].severity == "major" and r[0].errors[0].end == 5 and r[0].rater == "rater1"
    assert r[1].errors == () and r[1].rater == "mqm.merged" and r[2] is None
    assert read_mtme(root, "zh-en").ratings == {}  # only when asked, as MTME
    _write(root / "human-scores" / "zh-en.mqm.merged.seg.rating", lines[:2])
    with pytest.raises(UserInputError, match="has 2 ratings, expected 3"):
        read_mtme(root, "zh-en", read_ratings=True)


def test_documents_domains_and_levels(tmp_path):
    human = {
        **MQM,
        "mqm.doc": {"SMU": [-1, -2], "Online-W": [-3, "None"]},
        "mqm.domain": {"SMU": {"ted": -1, "news": -2}, "Online-W": {"news": -4}},
        "mqm.sys": {"SMU": [-1.5], "Online-W": [-3]},
    }
    root = make_folder(tmp_path, human=human)
    s = read_mtme(root, "zh-en", level="domain")
    assert s.items("domain") == ["news", "ted"] and s.items("doc") == ["talk.2", "talk.5"]
    np.testing.assert_array_equal(s.human_matrix(), [[-4, np.nan], [-2, -1]])
    np.testing.assert_array_equal(s.human_matrix("doc"), [[-3, np.nan], [-1, -2]])
    np.testing.assert_array_equal(s.human_matrix("sys"), [[-3], [-1.5]])
    assert read_mtme(root, "zh-en", level="sys").systems == ["Online-W", "SMU"]
    d = read_docs_file(root / "documents" / "zh-en.docs")
    assert d.docs == {"talk.2": (0, 2), "talk.5": (2, 3)}
    _write(root / "documents" / "zh-en.docs", ["ted a", "ted b", "ted a"])
    with pytest.raises(UserInputError, match=r"zh-en\.docs:3: document 'a' is not one block"):
        read_mtme(root, "zh-en")


def test_metric_scores_every_level_and_selection(tmp_path):
    root = make_folder(
        tmp_path, refs=("refA", "refB"), human={**MQM, "mqm.sys": {"SMU": [-1], "Online-W": [-2]}}
    )
    systems = ["MiSS", "Online-W", "SMU", "refB"]
    seg = {s: [0.1 * k + i for i in range(3)] for k, s in enumerate(systems)}
    write_mtme_scores(
        root, "zh-en", "MyMetric", {"seg": seg, "sys": {s: sum(v) for s, v in seg.items()}}
    )
    write_mtme_scores(root, "zh-en", "Kiwi-QE", {"seg": seg}, ref="src")
    write_mtme_scores(
        root,
        "zh-en",
        "chrF",
        {"sys": {s: 1.0 for s in ["MiSS", "Online-W", "SMU", "refA"]}},
        ref="refB",
    )
    write_mtme_scores(root, "zh-en", "Partial", {"seg": {"SMU": [1, 2, 3]}})
    s = read_mtme(root, "zh-en", ref="refA", metrics="all")
    assert sorted(s.metrics) == ["Kiwi-QE-src", "MyMetric-refA"]  # Partial left out, chrF vs refB
    assert any("metric Partial-refA left out: no scores for Online-W" in n for n in s.notes)
    assert s.metric("Kiwi-QE").refs == frozenset()
    np.testing.assert_array_equal(s.metric_matrix("MyMetric"), [seg["Online-W"], seg["SMU"]])
    np.testing.assert_array_equal(
        s.metric_matrix("MyMetric", "sys")[:, 0], [sum(seg["Online-W"]), sum(seg["SMU"])]
    )
    assert s.metric_names("sys") == ["MyMetric-refA"]
    with pytest.raises(
        UserInputError,
        match=r"Partial-refA\.seg\.score: metric Partial-refA has no scores for system\(s\) "
        r"Online-W",
    ):
        read_mtme(root, "zh-en", ref="refA", metrics=["Partial"])
    with pytest.raises(
        UserInputError, match=r"no stored scores of metric 'chrF' against refA .*other references"
    ):
        read_mtme(root, "zh-en", ref="refA", metrics=["chrF"])
    with pytest.raises(
        UserInputError, match=r"no stored scores of metric 'BLEU'.*Kiwi-QE, MyMetric, Partial, chrF"
    ):
        read_mtme(root, "zh-en", ref="refA", metrics=["BLEU"])
    assert list(read_mtme(root, "zh-en", ref="refB", metrics=["chr*"]).metrics) == ["chrF-refB"]


# ----------------------------------------------------------------------------------------
# broken folders
# ----------------------------------------------------------------------------------------
def test_human_file_one_line_short_per_system_is_refused(tmp_path):
    """Every block one line short: the old reader accepted it and shifted every score."""
    short = {"mqm.seg": {"Online-W": [-1, -5], "SMU": [0, -2]}}
    root = make_folder(tmp_path, human=short)
    with pytest.raises(
        UserInputError,
        match=r"zh-en\.mqm\.seg\.score:2: system 'Online-W' has 2 score line\(s\) \(lines 1-2\), "
        r"expected 3 \(one per segment of the source\)",
    ):
        read_mtme(root, "zh-en")
    path = root / "human-scores" / "zh-en.mqm.seg.score"
    with pytest.raises(UserInputError, match="system 'Online-W' has 2 score line"):
        read_mtme_seg_scores(path, n_segments=3)


def test_broken_folders_name_file_line_and_expectation(tmp_path):
    root = make_folder(tmp_path, human={"mqm.seg": {"SMU": [0, -2, -1], "Ghost": [1, 2, 3]}})
    with pytest.raises(
        UserInputError, match=r"mqm\.seg\.score:4: unknown system 'Ghost': no system-outputs file"
    ):
        read_mtme(root, "zh-en")
    root = make_folder(tmp_path, "b", human=MQM)
    with pytest.raises(
        UserInputError,
        match=r"no reference 'refZ' for zh-en: expected references/zh-en\.refZ\.txt.*refA",
    ):
        read_mtme(root, "zh-en", ref="refZ")
    _write(root / "system-outputs" / "zh-en" / "SMU.txt", ["a", "b"])
    with pytest.raises(
        UserInputError,
        match=r"SMU\.txt: system SMU has 2 lines, expected 3 \(one per line of zh-en\.txt\)",
    ):
        read_mtme(root, "zh-en")
    root = make_folder(tmp_path, "c", human={"mqm.seg": {"SMU": [0, "bad", 1]}})
    with pytest.raises(UserInputError, match=r"mqm\.seg\.score:2: score 'bad' is not a number"):
        read_mtme(root, "zh-en")
    root = make_folder(tmp_path, "d", human=MQM)
    write_mtme_scores(
        root, "zh-en", "M", {"seg": {s: [1, 2, 3] for s in ("MiSS", "Online-W", "SMU")}}
    )
    path = root / "metric-scores" / "zh-en" / "M-refA.seg.score"
    path.write_text(path.read_text().replace("MiSS\t1.0", "MiSS\tNone"))
    with pytest.raises(
        UserInputError, match=r"M-refA\.seg\.score:1: score None in a metric's file"
    ):
        read_mtme(root, "zh-en", metrics="all")
    with pytest.raises(UserInputError, match="no source file sources/de-en.txt"):
        read_mtme(root, "de-en")
    with pytest.raises(UserInputError, match="not an mt-metrics-eval test set folder"):
        read_mtme(tmp_path, "zh-en")


# ----------------------------------------------------------------------------------------
# meta information, files, --scores
# ----------------------------------------------------------------------------------------
def test_builtin_meta_matches_mt_metrics_eval():
    """Facts of mt_metrics_eval/meta_info.py at 68a481a, copied here by hand."""
    assert builtin_meta("wmt22", "en-de").outlier_systems == {"M2M100_1.2B-B4"}
    assert dict(builtin_meta("wmt22", "en-de").std_gold) == {
        "sys": "mqm",
        "domain": "mqm",
        "seg": "mqm",
    }
    assert builtin_meta("wmt22", "cs-en").std_ref == "refB"
    assert dict(builtin_meta("wmt22", "uk-en").std_gold) == {"sys": "wmt", "seg": "wmt"}
    assert dict(builtin_meta("wmt22", "de-fr").std_gold) == {}
    assert dict(builtin_meta("wmt22", "en-liv").std_gold) == {
        "sys": "wmt-appraise",
        "seg": "wmt-appraise",
    }
    assert len(BUILTIN["wmt22"]) == 21 and len(BUILTIN["wmt23"]) == 14
    assert builtin_meta("wmt23", "zh-en").outlier_systems == {"synthetic_ref"}
    assert builtin_meta("wmt23", "he-en").std_ref == "refB"
    assert (
        builtin_meta("wmt23", "en-he").std_ref == "refB"
        and not builtin_meta("wmt23", "en-he").std_gold
    )
    assert dict(builtin_meta("wmt23", "de-en").std_gold)["seg"] == "da-sqm"
    assert "XCOMET-Ensemble" in builtin_meta("wmt23", "en-de").primary_metrics
    assert len(builtin_meta("wmt23", "en-de").primary_metrics) == 32
    assert builtin_meta("wmt24", "en-de").std_ref == "refB"
    assert builtin_meta("wmt24", "en-es").outlier_systems == {"MSLC"}
    assert builtin_meta("wmt24", "en-ja").outlier_systems == set()
    assert dict(builtin_meta("wmt24", "en-hi").std_gold)["seg"] == "esa"
    assert len(BUILTIN["wmt24"]) == 11 and len(BUILTIN["wmt24pp"]) == 55
    assert builtin_meta("wmt24pp", "en-de_DE").std_ref == "posteditB"
    assert builtin_meta("wmt24pp", "en-is_IS").std_ref == "refA"
    assert builtin_meta("wmt24pp", "en-ja_JP").std_ref == "posteditA"
    assert dict(builtin_meta("wmt25", "en-ko_KR").std_gold)["seg"] == "mqm"
    assert dict(builtin_meta("wmt25", "cs-uk_UA").std_gold)["sys"] == "esa-human1"
    assert len(BUILTIN["wmt25"]) == 16
    assert builtin_meta("wmt25", "en-ko_KR").baseline_metrics == {
        "BERTScore",
        "BLEU",
        "COMET22",
        "COMETKiwi22",
        "YiSi-1",
        "chrF",
        "sentinel-cand",
        "spBLEU",
    }
    assert builtin_meta("wmt21.tedtalks", "zh-en").std_ref == "refB"
    assert "RoBLEURT" in builtin_meta("wmt21.tedtalks", "zh-en").primary_metrics
    assert builtin_meta("wmt20", "iu-en").outlier_systems == {"NiuTrans.1206", "Facebook_AI.729"}
    assert builtin_meta("wmt22", "xx-yy") is None


def test_domain_score_file_order_and_duplicates(tmp_path):
    p = _write(tmp_path / "m-refA.domain.score", ["ted A 1", "news A 2", "news B 3", "ted B 4"])
    assert read_domain_score_file(p, ["news", "ted"]).scores == {"A": [2.0, 1.0], "B": [3.0, 4.0]}
    _write(p, ["ted A 1", "ted A 2"])
    with pytest.raises(UserInputError, match=r":2: second score of system 'A' in domain 'ted'"):
        read_domain_score_file(p, ["ted"])
    _write(p, ["web A 1"])
    with pytest.raises(UserInputError, match=r":1: unknown domain 'web'"):
        read_domain_score_file(p, ["ted"])


def test_scores_option_reads_mtme_files(tmp_path):
    d = tmp_path / "metric-scores" / "zh-en"
    _write(d / "BLEU-refA.seg.score", ["A\t1", "A\t2", "B\t3", "B\t4"])
    _write(d / "BLEU-refB.seg.score", ["A\t5", "A\t6", "B\t7", "B\t8"])
    _write(d / "BLEU-refA.sys.score", ["A\t10", "B\t20"])
    refs = ["zh-en.refA", "zh-en.refB"]  # as the run names the reference files
    both = read_score_option(str(d / "BLEU-{ref}.seg.score"), refs)
    assert both.get("A", 2, "zh-en.refB") == 2.0 and both.get("B", 1, "zh-en.refA") == 7.0
    literal = read_score_option(str(d / "BLEU-refB.seg.score"), refs)
    assert literal.get("B", 2, "zh-en.refA") == 8.0 and literal.level == "seg"
    one = read_score_option(str(d / "BLEU-refA.seg.score"), ["zh-en.refA"], layout="mtme")
    assert one.get("A", 2) == 2.0
    sys_level = read_score_option(str(d / "BLEU-refA.sys.score"), ["refA"])
    assert sys_level.level == "sys" and sys_level.get("B", 1) == 20.0
    plain = _write(tmp_path / "scores.txt", ["A 0.5", "B None"])
    assert is_mtme_score_file(plain) and not is_mtme_score_file(
        _write(tmp_path / "t.tsv", ["system\tsegment\tscore"])
    )
    with pytest.raises(UserInputError, match=r"scores against 'refC'.*refA, refB"):
        read_score_option(str(_write(d / "BLEU-refC.seg.score", ["A 1"])), refs)
    with pytest.raises(UserInputError, match="domain-level MTME file needs the test set's domains"):
        read_score_option(str(_write(d / "BLEU-refA.domain.score", ["ted A 1"])), ["refA"])


def test_judgments_and_paths_keep_working(tmp_path):
    root = make_folder(tmp_path, human=MQM)
    path = root / "human-scores" / "zh-en.mqm.seg.score"
    j = read_judgments(path, "auto")
    assert j.kind == "mtme-seg" and j.systems == ["Online-W", "SMU", "refA"]
    paths = mtme_paths(root, "zh-en", "mqm", "refA")
    assert [p.stem for p in paths["systems"]] == ["MiSS", "Online-W", "SMU"]


def test_no_import_circle_between_judgments_and_mtme():
    code = (
        "import sys; import mtpalette.io.judgments_read; print('mtpalette.io.mtme' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_exported_rows_read_back_through_scores_option(tmp_path):
    """mtpalette's score rows (heldout = the reference left out) written in MTME's layout and
    read back with --scores 'NAME=.../NAME-{ref}.seg.score': the same rows."""
    refs = ["zh-en.refA", "zh-en.refB"]
    rows = [
        (s, k, held, 0.1 * k + len(s) + (0.5 if held == "zh-en.refA" else 0.0))
        for s in ("SMU", "MiSS")
        for held in refs
        for k in (1, 2, 3)
    ] + [("zh-en.refA", k, "", 0.3 * k) for k in (1, 2, 3)]
    paths = write_mtme_rows(tmp_path, "zh-en", "bleus4", rows, refs)
    assert sorted(p.name for p in paths) == ["bleus4-refA.seg.score", "bleus4-refB.seg.score"]
    assert (
        (tmp_path / "metric-scores" / "zh-en" / "bleus4-refB.seg.score")
        .read_text()
        .startswith("SMU\t3.6\nSMU\t3.7\nSMU\t3.8\nMiSS\t4.6\n")
    )
    back = read_score_option(str(paths[0].parent / "bleus4-{ref}.seg.score"), refs)
    # MTME names a reference "refA"; its own row (against refB) reads back keyed by the
    # reference held out of refB's file, itself
    want = {(s, k, h) if h else ("refA", k, "zh-en.refA"): v for s, k, h, v in rows}
    assert back.scores == want
    with pytest.raises(UserInputError, match="not lines 1..2"):
        write_mtme_rows(tmp_path, "zh-en", "x", [("A", 1, "", 0.0), ("A", 3, "", 0.0)], refs[:1])


def test_seg_score_file_in_a_folder_is_checked_against_the_source(tmp_path):
    """The reader the command line uses today (read_judgments, format mtme-seg) refuses a
    human file whose blocks are all one line short, knowing the source beside it."""
    root = make_folder(tmp_path, human={"mqm.seg": {"Online-W": [-1, -5], "SMU": [0, -2]}})
    with pytest.raises(UserInputError, match=r"has 2 score line\(s\) \(lines 1-2\), expected 3"):
        read_judgments(root / "human-scores" / "zh-en.mqm.seg.score", "mtme-seg")
    alone = _write(tmp_path / "en-de.mqm.seg.score", ["A\t1", "A\t2"])
    assert read_mtme_seg_scores(alone).items == [1, 2]  # no folder: nothing to check against
