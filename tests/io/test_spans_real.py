"""The span readers on real data, read where the shared data keeps it (``../shared/data`` next
to the repository, or ``$MTPALETTE_SHARED_DATA``; nothing of it is copied here): Google's
WMT21 TED MQM annotations and the WMT24 ESA ratings of en-cs and en-ja. Skipped with the path
where the data is absent."""

from __future__ import annotations

import collections
import csv
import gzip
import hashlib
import json
import os
from pathlib import Path

import pandas as pd
import pytest
from real_data import wmt24_rank

from mtpalette.errors import UserInputError
from mtpalette.io.spans_read import read_spans

SHARED = Path(
    os.environ.get("MTPALETTE_SHARED_DATA")
    or Path(__file__).resolve().parents[3] / "shared" / "data"
)
REPO = Path(__file__).resolve().parents[2]


def _shared(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.is_file():
        pytest.skip(f"the shared data is not at {path} (../shared/data or $MTPALETTE_SHARED_DATA)")
    return path


#: the one row of each file whose <v> mark is never closed (found by this reader)
UNCLOSED = {"ende": 6444, "zhen": 9622}


@pytest.mark.parametrize("lp", ["ende", "zhen"])
def test_mqm_ted_spans_equal_a_count_of_the_rows(lp):
    path = _shared("mqm", "ted", lp, f"mqm_ted_{lp}.tsv")
    with pytest.raises(UserInputError, match=rf"mqm_ted_{lp}\.tsv:{UNCLOSED[lp]}: a <v> mark"):
        read_spans(path)
    ss = read_spans(path, clip=True)  # the unclosed mark ends with its text
    df = pd.read_csv(path, sep="\t", quoting=csv.QUOTE_NONE, keep_default_na=False, dtype=str)
    rows = df["severity"].str.lower().value_counts().to_dict()
    counts = ss.n_spans()
    assert counts["major"] == rows["major"] and counts["minor"] == rows["minor"]
    assert counts["critical"] == counts["undecided"] == counts["omission"] == 0
    # one SpanRow per (system, doc, seg_id, rater)
    assert len(ss) == len(df.groupby(["system", "doc", "seg_id", "rater"]))
    assert ss.lps() == [f"{lp[:2]}-{lp[2:]}"]
    # every error is marked once, in the target or in the source
    sides = ss.to_pandas()["side"].value_counts().to_dict()
    assert sides["target"] == (df["target"].str.count("<v>") > 0).sum()
    assert sides.get("source", 0) == (df["source"].str.count("<v>") > 0).sum()
    for row in ss:  # a target span lies in the text without marks
        assert "<v>" not in row.text
        for s in row.spans:
            assert 0 <= s.start <= s.end <= (len(row.text) if s.side == "target" else s.end)


def test_mqm_ted_ende_has_the_rated_segments_of_its_average_file():
    """7,406 rated (system, segment) pairs in mqm_ted_ende.avg_seg_scores.tsv (1,078 None of
    8,484): one SpanRow per rated pair and rater; en-de has one rater per pair."""
    ss = read_spans(_shared("mqm", "ted", "ende", "mqm_ted_ende.tsv"), clip=True)
    assert len(ss) == 7406 == len({(r.system, r.segment) for r in ss})


def _wave(n: int) -> Path:
    return _shared("wmt24", "humeval", f"esa_generalMT2024_wave{n}.en-cs_en-ja.csv")


#: sha256 of the tables the organisers' own filter wrote from the same two waves
#: (``humeval/tools.load_data`` of wmt24-news-systems at bfa937e, run by
#: ``scripts/wmt24_rank_golden.py extract``; the tables are no longer kept in the repository)
ORGANISERS_TABLES = {
    "en-cs": "78e42bd7cea9359bab9e172c25fa6b34fd1f03d9f6fe44eb409700eef99dad65",
    "en-ja": "e4c16eda89e0d61c52951d9d9192b88730d662e3f6f2aead0a660cec8e4b6421",
}


def test_wmt24_esa_rows_are_the_organisers_filtered_ratings():
    """The rows this reader keeps (12,994) make, as ``system domain doc item score`` by system
    and item (``scripts/shared_data.py: wmt24_rank_root``, the ranking tests' input), the very
    tables the organisers' filter wrote: equal to the byte."""
    assert sum(1 for n in (2, 3) for _ in read_spans(_wave(n))) == 12994
    for lp, digest in ORGANISERS_TABLES.items():
        with gzip.open(wmt24_rank(lp), "rb") as fh:
            assert hashlib.sha256(fh.read()).hexdigest() == digest, lp


@pytest.mark.parametrize("wave", [2, 3])
def test_wmt24_esa_spans_per_severity(wave):
    """Spans per severity equal a count over the kept rows' JSON, made here independently."""
    path = _wave(wave)
    ss = read_spans(path)
    df = pd.read_csv(path, header=None, dtype=str, keep_default_na=False)
    keep = (df[3] != "BAD") & ~df[7].str.contains("#bad|#dup|#incomplete|tutorial")
    df = df[keep].assign(end=df[11].astype(float)).sort_values("end")
    df = df.drop_duplicates([0, 1, 2, 4, 5, 7], keep="last")  # the later rating of an item
    want = collections.Counter()
    for spans in df[9]:
        for s in json.loads(spans):
            want["omission" if s["start_i"] == "missing" else s["severity"]] += 1
    got = {k: v for k, v in ss.n_spans().items() if v}
    assert got == dict(want) and len(ss) == len(df)
    # inclusive ends: single characters are spans of length 1, never insertion points
    lengths = [s.length for r in ss for s in r.spans if not s.is_omission]
    assert min(lengths) == 1
