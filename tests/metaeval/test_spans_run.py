"""``mtpalette.spans`` and :mod:`mtpalette.metaeval.spans`: every value equal to the stats
functions called directly, the organisers' golden values reproduced, the alignment's
refusals, the ceiling, the baselines, and MQM TED's raters against each other (real data,
skipped where absent)."""

from __future__ import annotations

import csv

import numpy as np
import pandas as pd
import pytest
from real_data import shared
from span_files import golden, span_set

from mtpalette import spans
from mtpalette.errors import UserInputError
from mtpalette.io.spans import Span, SpanRow, SpanSet
from mtpalette.io.spans_read import read_spans
from mtpalette.metaeval.spans import align_spans, same_text_pair
from mtpalette.stats import ranking as rk
from mtpalette.stats.span_scores import (
    aggregate_counts,
    bootstrap_span_scores,
    pairwise_p_values,
    stack_counts,
)
from mtpalette.stats.spans import PROTOCOLS, baseline_spans, span_counts

WMT25 = golden("wmt25")
QE23 = golden("wmt23_qe")
IN = WMT25["inputs"]
NAMES = ["near", "random", "sparse"]


def _sets(inputs=IN, **kw):
    gold = span_set(inputs, inputs["gold"], "gold.jsonl", **kw)
    preds = {n: span_set(inputs, inputs["annotators"][n], f"{n}.jsonl", **kw) for n in NAMES}
    return gold, preds


def _direct(name, annotator, **kw):
    lengths = [len(s["text"]) for s in IN["segments"]]
    pred = (baseline_spans(annotator, lengths) if annotator in ("none", "all")
            else [[tuple(x) for x in seg] for seg in IN["annotators"][annotator]])  # fmt: skip
    gold = [[tuple(x) for x in seg] for seg in IN["gold"]]
    return span_counts(name, lengths, gold, pred, **kw)


def test_wmt25_golden_reproduced_through_the_api():
    gold, preds = _sets()
    ev = spans(gold, preds, protocol="wmt25", n_resamples=0)
    for name in [*NAMES, "none", "all"]:
        theirs = WMT25["outputs"][name]["per_lp"]
        for lp, v in theirs.items():
            r = ev.row("wmt25", name, lp)
            for m in ("precision", "recall", "f1"):
                assert getattr(r, m) == pytest.approx(v[m], abs=1e-9), (name, lp, m)
        mean = ev.row("wmt25", name)
        assert mean.f1 == pytest.approx(np.mean([v["f1"] for v in theirs.values()]), abs=1e-12)
        assert mean.kind == ("baseline" if name in ("none", "all") else "annotator")


def test_wmt23_qe_golden_reproduced_with_the_hallucination_index_excluded():
    inputs = QE23["inputs"]
    gold, preds = _sets(inputs, qe_ids=True)
    excluded = {(lp, str(i)) for lp, i in inputs["hallucinated"].items()}
    ev = spans(gold, preds, protocol="wmt23-qe", exclude=excluded, n_resamples=0,
               baselines=())  # fmt: skip
    assert "left out by the exclusion list" in " ".join(ev.notes)
    for name in NAMES:
        for lp, v in QE23["outputs"][name]["per_lp"].items():
            r = ev.row("wmt23-qe", name, lp)
            assert (r.precision, r.recall, r.f1) == pytest.approx(
                (v["precision"], v["recall"], v["f1"]), abs=1e-9
            )


@pytest.mark.parametrize("name", sorted(PROTOCOLS))
def test_every_value_equals_the_stats_functions(name):
    gold, preds = _sets()
    lps = [s["lp"] for s in IN["segments"]]
    systems = [s["system"] for s in IN["segments"]]
    opt = {"penalty": 0.5} if PROTOCOLS[name].option == "penalty" else {"partial_credit": 0.25}
    ev = spans(gold, preds, protocol=name, by="system", average="macro", n_resamples=0, **opt)
    for annotator in [*NAMES, "none", "all"]:
        counts = _direct(name, annotator, **opt)
        s = aggregate_counts(counts, lps, average="macro")
        for i, lp in enumerate(s.groups):
            r = ev.row(name, annotator, lp)
            assert (r.precision, r.recall, r.f1) == (s.precision[i], s.recall[i], s.f1[i])
            assert (r.tp_precision, r.n_pred, r.n_gold) == tuple(s.counts[i, [0, 2, 3]])
        assert (ev.row(name, annotator).precision, ev.row(name, annotator).f1) == (
            s.mean[0], s.mean[2])  # fmt: skip
        by_sys = aggregate_counts(counts, (lps, systems), average="macro")
        rows = {(r.lp, r.system): r for r in ev.rows
                if r.metric == annotator and r.system is not None}  # fmt: skip
        assert len(rows) == len(by_sys.groups)
        for i, g in enumerate(by_sys.groups):
            assert rows[g].f1 == by_sys.f1[i]
    assert "penalty:0.5" in ev.signatures[name] or "partial-credit:0.25" in ev.signatures[name]


def test_intervals_pairs_and_ranks_equal_the_stats_functions():
    gold, preds = _sets()
    ev = spans(gold, preds, protocol="wmt25", n_resamples=300, seed=7, correction="holm")
    lps = [s["lp"] for s in IN["segments"]]
    names = [*NAMES, "none", "all"]
    boot = bootstrap_span_scores(stack_counts([_direct("wmt25", n) for n in names]), lps,
                                 n_resamples=300, seed=7)  # fmt: skip
    for k, n in enumerate(names):
        r = ev.row("wmt25", n)
        assert (r.f1_low, r.f1_high) == (boot.low[k, -1, 2], boot.high[k, -1, 2])
        assert (r.precision_low, r.recall_high) == (boot.low[k, -1, 0], boot.high[k, -1, 1])
        for g, lp in enumerate(boot.groups):
            assert ev.row("wmt25", n, lp).f1_low == boot.low[k, g, 2]
    p = pairwise_p_values(boot)[:3, :3]
    adjusted = rk.adjust(p, "holm")
    for pair in ev.pairs:
        a, b = names.index(pair.a), names.index(pair.b)
        assert (pair.p_value, pair.p_adjusted) == (p[a, b], adjusted[a, b])
        assert pair.significant == (adjusted[a, b] < 0.05)
        assert pair.difference > 0  # a ranked above b
    assert len(ev.pairs) == 3  # the annotators only: baselines are not ranked
    f1 = boot.value[:3, -1, 2]
    sig = np.nan_to_num(adjusted, nan=1.0) < 0.05
    top, bottom = rk.rank_ranges(sig, f1[:, None] > f1[None, :])
    for k, n in enumerate(NAMES):
        r = ev.row("wmt25", n)
        assert (r.rank_top, r.rank_bottom) == (top[k], bottom[k])
    assert ev.row("wmt25", "all").rank_top is None
    assert "seed:7" in ev.signatures["wmt25"] and "resamples:300" in ev.signatures["wmt25"]
    again = spans(gold, preds, protocol="wmt25", n_resamples=300, seed=7, correction="holm")
    assert again.to_dict() == ev.to_dict()  # seeded


def _two(path="p.jsonl", text="Hallo Welt", seg=1, sev="minor"):
    rows = (SpanRow("en-de", "A", "d", 0, "Hallo Welt", (Span(0, 5, "major"),)),
            SpanRow("en-de", "A", "d", seg, text, (Span(0, 2, sev),)))  # fmt: skip
    return SpanSet(rows, path, "generic-jsonl", (1, 2))


def test_mismatched_keys_are_refused_or_scored_on_the_common_segments():
    gold = _two("gold.jsonl")
    with pytest.raises(
        UserInputError,
        match=r"p\.jsonl: 1 segment\(s\) of the gold lack in p "
        r"\(en-de/A/d/1\); 1 segment\(s\) of p \(not in the gold\) \(en-de/A/d/7\)",
    ):
        spans(gold, {"p": _two(seg=7)}, n_resamples=0)
    ev = spans(gold, {"p": _two(seg=7)}, on_missing="common", n_resamples=0)
    assert ev.n_segments == 1 and "1 of 2 gold segments scored" in " ".join(ev.notes)


def test_text_mismatch_duplicates_and_unknown_protocols_are_refused():
    gold = _two("gold.jsonl")
    with pytest.raises(
        UserInputError,
        match=r"p\.jsonl:2: the text of en-de/A/d/1 differs "
        r"from gold\.jsonl:2 at character 6",
    ):
        spans(gold, {"p": _two(text="Hallo  Welt")})
    twice = SpanSet((*gold.rows, SpanRow("en-de", "A", "d", 0, "Hallo Welt", (), annotator="r2")),
                    "gold.jsonl", "generic-jsonl", (1, 2, 3))  # fmt: skip
    with pytest.raises(
        UserInputError,
        match=r"gold\.jsonl:3: gold: segment en-de/A/d/0 is "
        "annotated twice",
    ):
        spans(twice, {"p": _two()})
    with pytest.raises(UserInputError, match="unknown span protocol 'wmt52'.*Did you mean"):
        spans(gold, {"p": _two()}, protocol="wmt25,wmt52")
    with pytest.raises(UserInputError, match="taken by a baseline"):
        spans(gold, {"all": _two()})


def test_the_ceiling_is_a_second_human_scored_like_an_annotator():
    gold, preds = _sets()
    ev = spans(gold, {"near": preds["near"]}, ceiling=preds["sparse"], n_resamples=50, seed=1)
    ceiling = ev.row("wmt25", "ceiling")
    assert ceiling.kind == "ceiling" and ceiling.rank_top is None
    assert ceiling.f1 == pytest.approx(np.mean(
        [v["f1"] for v in WMT25["outputs"]["sparse"]["per_lp"].values()]), abs=1e-12)  # fmt: skip
    assert ev.pairs == []  # one annotator: nothing to rank
    assert ev.viewer and set(ev.viewer[0]["annotators"]) == {"near", "ceiling"}
    spread = [v["spread"] for v in ev.viewer]
    assert spread == sorted(spread, reverse=True) and spread[0] > 0


def test_mqm_ted_two_raters_against_each_other_and_the_baselines():
    path = shared("mqm", "ted", "ende", "mqm_ted_ende.tsv", what="the WMT21 TED MQM data")
    ted = read_spans(path, clip=True)
    first, second = same_text_pair(ted, "rater1", "rater3")
    # the segments both rated with the same text, counted from the TSV with pandas
    df = pd.read_csv(path, sep="\t", quoting=csv.QUOTE_NONE, keep_default_na=False, dtype=str)
    df["text"] = df["target"].str.replace("<v>", "").str.replace("</v>", "")
    raters = df.groupby(["doc", "seg_id", "text"])["rater"].agg(set)
    assert len(first) == len(second) == sum({"rater1", "rater3"} <= r for r in raters) == 375
    assert all(a.text == b.text and a.key() == b.key() for a, b in zip(first, second, strict=True))
    ev = spans(first, {}, ceiling=second, protocol="wmt25,mpp", n_resamples=0)
    texts = [r.text for r in first]
    lengths = [len(t) for t in texts]

    def target(ss):
        return [[(s.start, s.end, s.severity) for s in r.spans if s.side == "target"] for r in ss]

    for name in ("wmt25", "mpp"):
        counts = {"ceiling": span_counts(name, lengths, target(first), target(second)),
                  "none": span_counts(name, lengths, target(first),
                                      baseline_spans("none", lengths)),
                  "all": span_counts(name, lengths, target(first),
                                     baseline_spans("all", lengths))}  # fmt: skip
        for metric, c in counts.items():
            s = aggregate_counts(c, [r.lp for r in first])
            r = ev.row(name, metric)
            assert (r.precision, r.recall, r.f1) == s.mean, (name, metric)
    human, every = ev.row("wmt25", "ceiling").f1, ev.row("wmt25", "all").f1
    assert 0 < every < human < 1  # two experts agree more than marking everything


def test_align_spans_refuses_a_segment_without_text():
    g = SpanSet((SpanRow("en-de", "A", "d", 0, None, ()),), "g.tsv", "esa-csv", (4,))
    with pytest.raises(UserInputError, match=r"^g\.tsv:4: the text of en-de/A/d/0 is in neither"):
        align_spans(g, {"p": g})


def test_the_protocols_and_the_data_object_name_the_same_severities():
    """stats imports no io module, so each floor has its tuple: they must stay one list."""
    from mtpalette.io.spans import SEVERITIES as DATA
    from mtpalette.stats.span_input import SEVERITIES as PROTOCOLS

    assert PROTOCOLS == DATA
