"""Judgment loaders: MQM scores recomputed from the bundled error annotations equal Google's
own average-score files; every bad input names its file and line; WMT formats; WMT21 segment
DA refuses to be aligned with texts."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest
from real_data import mqm_ted

from mtpalette.errors import UserInputError
from mtpalette.io.judgments_generic import read_generic
from mtpalette.io.judgments_mqm import (
    MQM_WEIGHTS,
    mqm_weight,
    read_mqm,
    read_mqm_avg,
)
from mtpalette.io.judgments_read import guess_format, read_judgments
from mtpalette.io.judgments_wmt import (
    WMT21_SEG_WARNING,
    read_wmt12_rankings,
    read_wmt17_testset,
    read_wmt_da_seglevel,
    read_wmt_da_syslevel,
    read_wmt_seg_scores,
    read_wmt_system_ranking,
)
from mtpalette.io.plain import read_lines

MQM_HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"


@pytest.mark.parametrize("lp,n_systems,n_rated", [("ende", 14, 7406), ("zhen", 15, 7935)])
def test_mqm_scores_equal_googles_averages(lp, n_systems, n_rated):
    paths = mqm_ted(lp)
    mine = read_mqm(paths["judgments"])
    avg = read_mqm_avg(paths["avg"])
    assert len(mine.systems) == n_systems and len(mine.items) == 529 and mine.n_rated == n_rated
    # the average file names the references ref-A / ref-B and lists all 606 / 843 segments
    avg = avg.rename({"ref-A": "ref", "ref-B": "refB"}).select(mine.systems)
    cols = [avg.items.index(i) for i in mine.items]
    theirs = avg.scores[:, cols]
    both = ~np.isnan(theirs) & ~np.isnan(mine.scores)
    assert both.sum() == n_rated  # every (system, segment) MQM rates is in the average file
    assert np.isnan(theirs).sum() == 0
    assert np.abs(theirs[both] - mine.scores[both]).max() == 0.0  # equal to the last digit
    # the segments the average file rates beyond the TSV are unrated there too
    assert avg.n_rated == n_rated
    assert (mine.n_raters[both] == 1).all()


def test_mqm_texts_match_bundled_outputs():
    paths = mqm_ted("zhen")
    j = read_mqm(paths["judgments"])
    seg_ids = read_lines(paths["seg_ids"])
    lines = j.line_indices(seg_ids=seg_ids)
    assert lines.tolist() == list(range(529))  # seg_ids.txt lists the items in order
    borderline = read_lines(paths["systems"][0])
    assert paths["systems"][0].name == "Borderline.txt"
    assert [j.targets["Borderline"][i] for i in j.items] == borderline


def test_mqm_weights():
    assert mqm_weight("Minor", "Fluency/Punctuation") == 0.1
    assert mqm_weight("Major", "Fluency/Punctuation") == 5.0
    assert mqm_weight("minor", "Non-translation!") == 25.0
    assert mqm_weight("Neutral", "Style/Awkward") == 0.0
    assert mqm_weight("Major", "Source error") == 5.0  # as Google's averages count it
    assert set(MQM_WEIGHTS) >= {"major", "minor", "neutral", "no-error"}


def _write(tmp_path, name, text, *, gz=False):
    p = tmp_path / name
    if gz:
        p.write_bytes(gzip.compress(text.encode("utf-8")))
    else:
        p.write_text(text, encoding="utf-8")
    return p


def test_mqm_averages_raters_and_reads_gzip(tmp_path):
    rows = [
        MQM_HEADER,
        "sysA\td\t1\t3\tr1\ts\tx <v>y</v>\tAccuracy/Mistranslation\tMajor",
        "sysA\td\t1\t3\tr1\ts\tx y\tFluency/Punctuation\tMinor",
        "sysA\td\t1\t3\tr2\ts\tx y\tNo-error\tNo-error",
        "sysA\td\t1\t4\tr1\ts\tz\tNon-translation!\tMajor",
        "sysB\td\t1\t3\tr2\ts\tw\tStyle/Awkward\tNeutral",
    ]
    p = _write(tmp_path, "m.tsv.gz", "\n".join(rows) + "\n", gz=True)
    j = read_judgments(p)
    assert j.kind == "mqm" and j.systems == ["sysA", "sysB"] and j.items == [3, 4]
    assert j.score("sysA", 3) == pytest.approx(-2.55)  # (5.1 + 0) / 2 raters
    assert j.score("sysA", 4) == -25.0 and j.score("sysB", 3) == 0.0
    assert np.isnan(j.score("sysB", 4))
    assert j.targets["sysA"][3] == "x y" and j.n_raters[0, 0] == 2
    with pytest.raises(UserInputError, match="not known to be line numbers"):
        j.line_indices()
    assert j.line_indices(id_base=3).tolist() == [0, 1]


@pytest.mark.parametrize(
    "row,line,message",
    [
        ("sysA\td\t1\tx7\tr1\ts\tt\tNo-error\tNo-error", 3, "seg_id 'x7' is not an integer"),
        ("sysA\td\t1\t7\tr1\ts\tt\tAccuracy\tCritical", 3, "unknown MQM severity 'Critical'"),
        ("sysA\td\t1\t7", 3, "expected 9 tab-separated fields"),
        ("\td\t1\t7\tr1\ts\tt\tNo-error\tNo-error", 3, "empty system name"),
    ],
)
def test_mqm_bad_rows_name_file_and_line(tmp_path, row, line, message):
    good = "sysA\td\t1\t6\tr1\ts\tt\tNo-error\tNo-error"
    p = _write(tmp_path, "bad.tsv", "\n".join([MQM_HEADER, good, row]) + "\n")
    with pytest.raises(UserInputError, match=message) as err:
        read_mqm(p)
    assert err.value.path == str(p) and err.value.line == line


def test_mqm_header_and_empty_file(tmp_path):
    with pytest.raises(UserInputError, match="no column"):
        read_mqm(_write(tmp_path, "h.tsv", "system\tseg\tscore\nA\t1\t0\n"))
    with pytest.raises(UserInputError, match="empty"):
        read_mqm(_write(tmp_path, "e.tsv", ""))
    with pytest.raises(UserInputError, match="file not found"):
        read_mqm(tmp_path / "missing.tsv")


def test_mqm_avg_bad_input(tmp_path):
    head = "system mqm_avg_score seg_id\n"
    with pytest.raises(UserInputError, match=r"duplicate judgment .* \(first on line 2\)") as err:
        read_mqm_avg(_write(tmp_path, "d.tsv", head + "A\t-1.0 5\nA\t-2.0 5\n"))
    assert err.value.line == 3
    with pytest.raises(UserInputError, match="expected a finite number") as err:
        read_mqm_avg(_write(tmp_path, "n.tsv", head + "A\tnan 5\n"))
    assert err.value.line == 2
    with pytest.raises(UserInputError, match="'abc' is not a number"):
        read_mqm_avg(_write(tmp_path, "x.tsv", head + "A\tabc 5\n"))
    j = read_mqm_avg(_write(tmp_path, "ok.tsv", head + "A\tNone 5\nA\t-0.000000 6\n"))
    assert np.isnan(j.score("A", 5)) and j.score("A", 6) == 0.0


def test_generic_tsv_and_jsonl(tmp_path):
    tsv = _write(tmp_path, "j.tsv", "system\tsegment\tscore\nA\t2\t0.5\nB\t1\t-1\nA\t1\t1e-3\n")
    j = read_generic(tsv)
    assert j.systems == ["A", "B"] and j.items == [1, 2]
    assert j.scores.tolist()[0] == [0.001, 0.5] and np.isnan(j.scores[1, 1])
    assert j.line_indices().tolist() == [0, 1]
    assert read_generic(tsv, id_base=0).line_indices().tolist() == [1, 2]
    rows = [
        {"system": "A", "segment": 1, "score": 0.25},
        {"system": "A", "segment": 2, "score": 0.75},
    ]
    jl = _write(tmp_path, "j.jsonl", "\n".join(json.dumps(r) for r in rows) + "\n")
    assert guess_format(jl) == "generic" and read_judgments(jl).scores.tolist() == [[0.25, 0.75]]


@pytest.mark.parametrize(
    "text,line,message",
    [
        ("system\tsegment\tscore\nA\t1\t0.5\nA\t1\t0.7\n", 3, "duplicate judgment"),
        ("system\tsegment\tscore\nA\t1\tNaN\n", 2, "finite"),
        ("system\tsegment\tscore\nA\t1\t\n", 2, "missing score"),
        ("system\tsegment\tscore\nA\t1\n", 2, "expected 3 tab-separated fields"),
        ('{"system": "A", "segment": 1, "score": null}\n', 1, "not a number"),
        ('{"system": "A", "segment": 1, "score": NaN}\n', 1, "finite"),
        ('{"system": "A", "segment": 1}\n', 1, "needs"),
        (
            '{"system": "A", "segment": 1, "score": 1}\n{"system": "A", "segment": 1, '
            '"score": 2}\n',
            2,
            "duplicate",
        ),
        ('{"system": "A", "segment": 1, "score": 1}\n{oops\n', 2, "invalid JSON"),
    ],
)
def test_generic_bad_input(tmp_path, text, line, message):
    p = _write(tmp_path, "bad.txt", text)
    with pytest.raises(UserInputError, match=message) as err:
        read_generic(p)
    assert err.value.path == str(p) and err.value.line == line


def test_wmt_segment_da_is_refused_at_segment_level(tmp_path):
    # the header and layout of WMT21's ad-seg-scores files; made-up numbers
    text = (
        "SYS SID RAW.SCR Z.SCR N \nsysX.17 12 71.5 -0.27 2 \nsysX.17 3 74.5 -0.09 2 \n"
        "sysY.4 12 60 -0.5 1 \n"
    )
    p = _write(tmp_path, "ad-seg-scores-xx-en.csv", text)
    j = read_judgments(p)
    assert j.kind == "wmt-seg-scores" and j.systems == ["sysX", "sysY"] and j.items == [3, 12]
    assert j.score("sysX", 3) == -0.09
    assert j.system_means() == pytest.approx({"sysX": -0.18, "sysY": -0.5})
    with pytest.raises(UserInputError, match="not line numbers") as err:
        j.line_indices()
    assert err.value.path == str(p) and WMT21_SEG_WARNING in str(err.value)
    with pytest.raises(UserInputError, match="not line numbers"):
        j.line_indices(seg_ids=["3", "12"])  # not even with an explicit id list
    assert read_wmt_seg_scores(p, score="raw").score("sysX", 12) == 71.5


def test_wmt17_da_formats(tmp_path):
    seg = _write(
        tmp_path,
        "DA-seglevel.csv",
        "LP DATA SYSTEM SID HUMAN\nxx-en newstest2017 sysA.1 11 -0.5\n"
        "yy-en newstest2017 sysB.2 3 0.25\nxx-en newstest2017 sysB.2 11 0.1\n",
    )
    with pytest.raises(UserInputError, match="several language pairs"):
        read_wmt_da_seglevel(seg)
    j = read_judgments(seg, lp="xx-en")
    assert j.systems == ["sysA.1", "sysB.2"] and j.line_indices().tolist() == [10]
    with pytest.raises(UserInputError, match="no rows for language pair"):
        read_wmt_da_seglevel(seg, "zz-en")
    ts = _write(
        tmp_path,
        "testset_xx-en.tsv",
        "LP\tsource\ttranslation\treference\tHUMAN_score\tsentBLEU\n"
        "xx-en\tsrc one\thyp one\tref one\t-1.5\t0.2\n"
        "xx-en\tsrc two\thyp two\tref two\t0.75\t0.3\n",
    )
    st = read_wmt17_testset(ts)
    assert st.hyps == ["hyp one", "hyp two"] and st.scores.tolist() == [-1.5, 0.75]
    bad = _write(
        tmp_path,
        "bad.tsv",
        "LP\tsource\ttranslation\treference\tHUMAN_score\nxx-en\ts\th\tr\tn/a\n",
    )
    with pytest.raises(UserInputError, match="not a number") as err:
        read_wmt17_testset(bad)
    assert err.value.line == 2
    sysl = _write(
        tmp_path,
        "DA-syslevel.csv",
        "LP HUMAN SYSTEM\nxx-en 0.196 sysA.1\nxx-en -0.1 sysB.2\nyy-en 0.5 sysC\n",
    )
    assert read_wmt_da_syslevel(sysl, "xx-en").as_dict() == {"sysA.1": 0.196, "sysB.2": -0.1}


def test_wmt_system_ranking(tmp_path):
    p = _write(
        tmp_path,
        "ad-sys-ranking-xx-en-z-names.csv",
        "75 0.042 1688 1876 sysA.21 sysA\n77 0.039 1578 1877 Nemo.3 NVIDIA-NeMo\n",
    )
    r = read_wmt_system_ranking(p)
    assert r.systems == ["sysA", "NVIDIA-NeMo"] and r.ids == ["sysA.21", "Nemo.3"]
    assert r.scores.tolist() == [0.042, 0.039] and r.raw.tolist() == [75.0, 77.0]
    with pytest.raises(UserInputError, match="expected 6 fields") as err:
        read_wmt_system_ranking(_write(tmp_path, "b.csv", "75 0.04 1 2 sysA.1\n"))
    assert err.value.line == 1


def test_wmt12_rankings(tmp_path):
    head = (
        "srclang,trglang,srcIndex,documentId,segmentId,judgeId,system1Number,system1Id,"
        "system2Number,system2Id,system3Number,system3Id,system4Number,system4Id,"
        "system5Number,system5Id,system1rank,system2rank,system3rank,system4rank,"
        "system5rank"
    )
    rows = [
        head,
        "German,English,7,x,7,J1,1,sA,2,sB,3,sC,4,sD,5,sE,1,2,2,3,-1",
        "Czech,English,1,x,1,J1,1,sA,2,sB,3,sC,4,sD,5,sE,1,1,1,1,1",
        "German,English,1,x,1,J2,1,sE,2,sB,3,sA,4,sC,5,sD,5,4,3,2,1",
    ]
    p = _write(tmp_path, "rnk.csv", "\n".join(rows) + "\n")
    rr = read_wmt12_rankings(p, "de-en")
    assert len(rr) == 2 and rr.line.tolist() == [6, 0]
    pairs = rr.pairs()
    # ranking 1: 10 pairs, 4 with the blank sE, 1 tie (sB, sC), 5 strict
    # ranking 2: 10 strict pairs
    assert len(pairs.line) == 15 and pairs.n_ties == 1 and pairs.n_blank == 4
    assert ("sA", "sB") in set(zip(pairs.better[:5], pairs.worse[:5], strict=True))
    assert ("sD", "sE") in set(zip(pairs.better[5:], pairs.worse[5:], strict=True))
    with pytest.raises(UserInputError, match="no rankings for 'fr-en'"):
        read_wmt12_rankings(p, "fr-en")
    bad = _write(
        tmp_path, "bad.csv", head + "\nGerman,English,0,x,1,J,1,a,2,b,3,c,4,d,5,e,1,2,3,4,5\n"
    )
    with pytest.raises(UserInputError, match="1-based") as err:
        read_wmt12_rankings(bad, "de-en")
    assert err.value.line == 2


def test_alignment_checks(tmp_path):
    p = _write(tmp_path, "j.tsv", "system\tsegment\tscore\nA\tx1\t0.5\nA\tx2\t0.7\n")
    j = read_generic(p)
    with pytest.raises(UserInputError, match="not known to be line numbers"):
        j.line_indices()
    assert j.line_indices(seg_ids=["x0", "x2", "x1"]).tolist() == [2, 1]
    with pytest.raises(UserInputError, match="not in the id list"):
        j.line_indices(seg_ids=["x1"])
    with pytest.raises(UserInputError, match="appears on lines 1 and 2"):
        j.line_indices(seg_ids=["x1", "x1", "x2"])
    with pytest.raises(UserInputError, match="no judgments for system"):
        j.select(["B"])
    with pytest.raises(UserInputError, match="cannot tell the judgment format"):
        guess_format(_write(tmp_path, "u.txt", "hello world\n"))


def test_judgments_in_every_table_format(tmp_path):
    """CSV, a pandas-written TSV with a quoted system name, and Parquet read as the same
    judgments (once: 'expected a header with the columns system, segment and score' for a
    CSV that has exactly those, 'invalid UTF-8' for Parquet, a quoted name taken literally)."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(
        {"system": ['Sys "A", v2', "B", 'Sys "A", v2'], "segment": [1, 1, 2], "score": [0.5, 1, 2]}
    )
    frame.to_csv(tmp_path / "j.csv", index=False)
    frame.to_csv(tmp_path / "j.tsv", sep="\t", index=False)
    frame.to_parquet(tmp_path / "j.parquet")
    for name in ("j.csv", "j.tsv", "j.parquet"):
        j = read_judgments(tmp_path / name)
        assert j.systems == ['Sys "A", v2', "B"], name
        assert j.items == [1, 2]
        assert np.allclose(j.scores, [[0.5, 2.0], [1.0, np.nan]], equal_nan=True), name


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("system\tsegment\tscore\tscore\nA\t1\t1\t2\n", "column 'score' appears twice"),
        ("system\tSystem\tsegment\tscore\nA\tB\t1\t1\n", "'system', 'System' could each be"),
        ("system\tsegment\tseg_id\tscore\nA\t1\t2\t1\n", "'segment', 'seg_id' could each be"),
    ],
)
def test_ambiguous_judgment_columns_are_refused(tmp_path, content, message):
    """Once silently the last score column, or 'segment' over 'seg_id'."""
    path = tmp_path / "j.tsv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UserInputError, match=message):
        read_judgments(path)


def test_a_name_renamed_twice_is_refused():
    from mtpalette.sources.inputs import parse_rename

    assert parse_rename("a=b, b=a") == {"a": "b", "b": "a"}  # a swap is two renamings
    with pytest.raises(UserInputError, match=r"--rename: a is renamed twice \(x, y\)"):
        parse_rename("a=x,a=y")
