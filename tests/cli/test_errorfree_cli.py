"""``mtpalette errorfree`` and ``mtpalette.errorfree``: a hand case (MCC by hand and by
scikit-learn's ``matthews_corrcoef``), the gold rule's options, labels, scores with a
threshold and a threshold tuned on another split, intervals equal to the stats function, and
the refusals (the test file as tuning split, shared segments, no threshold). Every file here
is project-written."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from sklearn.metrics import f1_score, matthews_corrcoef, precision_score, recall_score

from mtpalette import errorfree
from mtpalette.stats.binary import bootstrap_binary

# gold: (segment, ESA score, spans); error-free: score >= 85 and no span
GOLD = [(0, 95.0, []), (1, 90.0, [[0, 3, "minor"]]), (2, 60.0, []), (3, 88.0, []),
        (4, 86.0, []), (5, 40.0, [[2, 5, "major"]]), (6, None, []),
        (7, 99.0, [[0, 0, "omission"]])]  # fmt: skip
GOLD_LABELS = [True, False, False, True, True, False, True, False]
LABELS = [True, True, False, False, True, False, True, True]  # the predictor's decisions
SCORES = [0.9, 0.7, 0.1, 0.45, 0.8, 0.2, 0.6, 0.55]


def _write(path, rows, *, lp="en-de", system="sysA"):
    with open(path, "w", encoding="utf-8") as fh:
        for seg, score, spans, label in rows:
            fh.write(json.dumps({"lp": lp, "system": system, "doc": "d", "segment": seg,
                                 "annotator": None, "domain": None, "score": score,
                                 "error_free": label, "text": "Hallo Welt!",
                                 "spans": [{"start": a, "end": b, "severity": s}
                                           for a, b, s in spans]}) + "\n")  # fmt: skip
    return path


def _files(tmp_path):
    gold = _write(tmp_path / "gold.jsonl", [(s, sc, sp, None) for s, sc, sp in GOLD])
    labels = _write(tmp_path / "labels.jsonl", [(s, None, [], v) for (s, *_), v in
                                                zip(GOLD, LABELS, strict=True)])  # fmt: skip
    scores = _write(tmp_path / "scores.jsonl", [(s, v, [], None) for (s, *_), v in
                                                zip(GOLD, SCORES, strict=True)])  # fmt: skip
    return gold, labels, scores


def test_hand_case_mcc_by_hand_and_by_sklearn(cli, tmp_path):
    gold, labels, _ = _files(tmp_path)
    out = tmp_path / "ef.json"
    code, stdout, err = cli("errorfree", "--gold", gold, "--pred", f"m={labels}", "--json", out,
                            "--bootstrap", "200")  # fmt: skip
    assert code == 0, err
    rows = {(r["metric"], r["lp"]): r for r in json.loads(out.read_text())["results"]["rows"]}
    r = rows[("m", "all")]
    # gold  T F F T T F T F ; pred  T T F F T F T T -> tp 3 (0, 4, 6), fp 2 (1, 7), fn 1 (3),
    # tn 2 (2, 5): MCC = (3*2 - 2*1) / sqrt(5 * 4 * 3 * 4) = 4 / sqrt(240)
    assert (r["tp"], r["fp"], r["fn"], r["tn"]) == (3, 2, 1, 2)
    assert r["mcc"] == pytest.approx(4 / math.sqrt(240), abs=1e-12)
    assert r["mcc"] == pytest.approx(matthews_corrcoef(GOLD_LABELS, LABELS), abs=1e-12)
    assert r["precision"] == pytest.approx(precision_score(GOLD_LABELS, LABELS), abs=1e-12)
    assert r["recall"] == pytest.approx(recall_score(GOLD_LABELS, LABELS), abs=1e-12)
    assert r["f1"] == pytest.approx(f1_score(GOLD_LABELS, LABELS), abs=1e-12)
    neg = [not x for x in GOLD_LABELS], [not x for x in LABELS]
    assert r["f1_erroneous"] == pytest.approx(f1_score(*neg), abs=1e-12)
    assert r["accuracy"] == 5 / 8 and list(r)[:4] == ["metric", "kind", "lp", "mcc"]
    boot = bootstrap_binary(np.stack([LABELS, [True] * 8, [False] * 8]), GOLD_LABELS,
                            n_resamples=200, seed=12345)  # fmt: skip
    assert (r["mcc_low"], r["mcc_high"]) == (boot.low[0, 0], boot.high[0, 0])
    for name, value in (("always-error-free", True), ("always-erroneous", False)):
        b = rows[(name, "all")]
        assert b["kind"] == "baseline" and b["mcc"] == 0.0
        assert b["accuracy"] == sum(g == value for g in GOLD_LABELS) / 8
    assert rows[("always-error-free", "all")]["recall"] == 1.0
    assert "m\tpredictor\tall" in stdout


def test_gold_rule_options(tmp_path):
    gold, labels, _ = _files(tmp_path)
    ev = errorfree(gold, {"m": labels}, min_score=50.0, span_rule="major", n_resamples=0)
    # min score 50, only major spans count: segment 1 (minor) and 7 (omission) become
    # error-free, 2 (score 60) too; 5 stays erroneous
    g = [True, True, True, True, True, False, True, True]
    assert ev.row("m").mcc == pytest.approx(matthews_corrcoef(g, LABELS), abs=1e-12)
    assert "min-score:50.0|spans:major" in ev.signatures["m"]


def test_scores_with_a_threshold_and_a_tuned_threshold(cli, tmp_path):
    gold, _, scores = _files(tmp_path)
    ev = errorfree(gold, {"s": scores}, threshold=0.5, n_resamples=0)
    decided = [s >= 0.5 for s in SCORES]
    assert ev.row("s").mcc == pytest.approx(matthews_corrcoef(GOLD_LABELS, decided), abs=1e-12)
    assert ev.row("s").threshold == 0.5 and "from:score|threshold:0.5" in ev.signatures["s"]
    # the dev split: other segments (10-13); MCC is largest for t = 0.3 there
    dev_gold = _write(tmp_path / "dev_gold.jsonl", [(10, 95.0, [], None), (11, 50.0, [], None),
                                                    (12, 90.0, [], None), (13, 30.0, [], None)])
    dev = _write(tmp_path / "dev.jsonl", [(10, 0.35, [], None), (11, 0.2, [], None),
                                          (12, 0.3, [], None), (13, 0.1, [], None)])  # fmt: skip
    out = tmp_path / "tuned.json"
    code, _, err = cli("errorfree", "--gold", gold, "--pred", f"s={scores}", "--tune-on", dev,
                       "--tune-gold", dev_gold, "--bootstrap", "0", "--json", out)  # fmt: skip
    assert code == 0, err
    run = json.loads(out.read_text())
    r = next(x for x in run["results"]["rows"] if (x["metric"], x["lp"]) == ("s", "all"))
    assert r["threshold"] == 0.3
    decided = [s >= 0.3 for s in SCORES]
    assert r["mcc"] == pytest.approx(matthews_corrcoef(GOLD_LABELS, decided), abs=1e-12)
    assert "tuned-on:dev.jsonl" in run["signatures"]["s"]


def test_refusals(cli, tmp_path):
    gold, labels, scores = _files(tmp_path)
    code, _, err = cli("errorfree", "--gold", gold, "--pred", f"s={scores}", "--tune-on",
                       scores, "--tune-gold", gold)  # fmt: skip
    assert code == 2 and "the tuning file is the test file" in err
    copy = tmp_path / "copy.jsonl"
    copy.write_text(scores.read_text())
    code, _, err = cli("errorfree", "--gold", gold, "--pred", f"s={scores}", "--tune-on", copy,
                       "--tune-gold", gold)  # fmt: skip
    assert code == 2 and "8 tuning segment(s) are test segments" in err
    code, _, err = cli("errorfree", "--gold", gold, "--pred", f"s={scores}", "--from", "score")
    assert code == 2 and "scores need a threshold" in err
    code, _, err = cli("errorfree", "--gold", gold, "--pred", f"s={scores}", "--tune-on", copy)
    assert code == 2 and "--tune-gold" in err
    short = _write(tmp_path / "short.jsonl", [(0, None, [], True)])
    code, _, err = cli("errorfree", "--gold", gold, "--pred", f"x={short}")
    assert code == 2 and "7 gold segment(s) without a prediction" in err
    code, _, err = cli("errorfree", "--gold", gold, "--pred", f"x={labels}", "--from", "votes")
    assert code == 2 and "--from must be one of" in err


def test_a_name_given_twice_is_refused_before_any_file_is_read(cli, tmp_path):
    """Two predictions under one name would keep the last without a word (as spans refuses
    it); the files need not exist: the names are checked first."""
    gold, labels, scores = _files(tmp_path)
    missing = tmp_path / "never-read.jsonl"
    code, _, err = cli("errorfree", "--gold", missing, "--pred", f"s={labels}",
                       "--pred", f"s={scores}")  # fmt: skip
    assert code == 2 and "--pred s is given twice" in err
    code, _, err = cli("errorfree", "--gold", gold, "--pred", f"s={scores}", "--tune-on",
                       f"s={missing}", "--tune-on", f"s={labels}", "--tune-gold", gold)  # fmt: skip
    assert code == 2 and "--tune-on s is given twice" in err
