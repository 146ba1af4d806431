"""The analyses beyond compare-mt's golden tables: per-domain and per-document scores equal
each group's segments scored alone; n-gram matches equal a slow count of compare-mt's
definition; sentence examples are the largest differences of the sentence scores."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from real_data import mqm_ted, mtme_folder

import mtpalette
from mtpalette.api.analyze_run import AnalyzeRun, analyze, run_analyze
from mtpalette.sources.score_inputs import ScoreInputs

ENDE = mqm_ted("ende")["root"]


def _lines(name: str) -> list[str]:
    return (ENDE / f"{name}.txt").read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_domain_and_document_scores_equal_each_group_scored_alone(metric):
    run = AnalyzeRun(ScoreInputs(mtme=mtme_folder(), lp="en-de"), ["domain", "document"],
                     metric=metric, tokenize="13a")  # fmt: skip
    result = run_analyze(run)
    systems, refs, _ = run.inputs.load()
    domains, documents = run.labels()
    for groups, labels in zip(result.analyses, (domains, documents), strict=True):
        assert groups.labels == sorted(set(labels))
        for name, lines in systems.items():
            for b, label in enumerate(groups.labels):
                keep = [i for i, x in enumerate(labels) if x == label]
                [alone] = mtpalette.corpus_score([lines[i] for i in keep],
                                                 [[refs[0][i] for i in keep]], metric)  # fmt: skip
                assert groups.scores[name][b] == pytest.approx(alone.value, rel=1e-12)
                assert groups.counts[name][b] == len(keep)
            assert groups.macro[name] == pytest.approx(np.mean(groups.scores[name]), rel=1e-12)
    assert len(result.analyses[1].labels) == 3  # the folder's three talks


def _slow_ngram_matches(outs: list[str], refs: list[str], hi: int) -> Counter:
    """compare-mt's compare_ngrams (match), written from its definition: each output n-gram
    matches while the reference has an unused copy."""
    found: Counter = Counter()
    for out, ref in zip(outs, refs, strict=True):
        o, r = out.split(), ref.split()
        left = Counter(tuple(r[i : i + n]) for n in range(1, hi + 1) for i in range(len(r) - n + 1))
        for n in range(1, hi + 1):
            for i in range(len(o) - n + 1):
                g = tuple(o[i : i + n])
                if left[g] > 0:
                    left[g] -= 1
                    found[" ".join(g)] += 1
    return found


def test_ngram_matches_equal_compare_mts_definition():
    ref = _lines("ref")[:120]
    systems = {name: _lines(name)[:120] for name in ("Facebook-AI", "Nemo")}
    [diff] = analyze(systems, [ref], analyses=["ngrams"], top=10**6, tokenize="none").analyses
    slow = {name: _slow_ngram_matches(lines, ref, 4) for name, lines in systems.items()}
    got = {r["ngram"]: (r["system"], r["baseline"]) for r in diff.gains + diff.losses}
    want = {g: (slow["Nemo"][g], slow["Facebook-AI"][g])
            for g in set(slow["Nemo"]) | set(slow["Facebook-AI"])
            if slow["Nemo"][g] != slow["Facebook-AI"][g]}  # fmt: skip
    assert got == want
    shares = [r["share"] for r in diff.gains]
    assert shares == sorted(shares, reverse=True) and all(s > 0.5 for s in shares)


def test_examples_are_the_largest_sentence_score_differences():
    ref = _lines("ref")
    systems = {name: _lines(name) for name in ("Facebook-AI", "UEdin")}
    [ex] = analyze(systems, [ref], analyses=["examples"], top=5, tokenize="none").analyses
    hyps = list(itertools.chain(*systems.values()))
    scores = mtpalette.sentence_scores(hyps, [ref + ref], ["bleus:4"], tokenize="none")
    a, b = scores["bleus:4"][: len(ref)], scores["bleus:4"][len(ref) :]
    diff = b - a
    order = np.lexsort((np.arange(len(diff)), -diff))
    assert [r["segment"] - 1 for r in ex.better] == order[:5].tolist()
    assert ex.worse[0]["difference"] == pytest.approx(diff.min())
    assert ex.better[0]["output"] == systems["UEdin"][ex.better[0]["segment"] - 1]


def test_labels_are_refused_when_missing_or_misaligned():
    with pytest.raises(mtpalette.errors.UserInputError, match="needs each sentence's domain"):
        analyze({"A": ["a"]}, [["a"]], analyses=["domain"])
    with pytest.raises(mtpalette.errors.UserInputError, match="2 document labels for 1"):
        analyze({"A": ["a"]}, [["a"]], analyses=["document"], documents=["d1", "d2"])
    with pytest.raises(mtpalette.errors.UserInputError, match="not one of the systems"):
        analyze({"A": ["a"]}, [["a"]], analyses=["examples"], baseline="Z")


def test_score_buckets_and_labels():
    ref = _lines("ref")
    systems = {name: _lines(name) for name in ("Facebook-AI", "Nemo")}
    labels = ["odd" if i % 2 else "even" for i in range(len(ref))]
    by_score, by_label = analyze(systems, [ref], analyses=["score", "label"], labels=labels,
                                 tokenize="none", metric="chrf",
                                 sentence_metric="bleus:4").analyses  # fmt: skip
    assert by_score.what == "bleus:4 sentence score" and by_score.labels[0] == "<10"
    sentence = mtpalette.sentence_scores(systems["Nemo"], [ref], ["bleus:4"], tokenize="none")
    assert by_score.counts["Nemo"][0] == int((sentence["bleus:4"] < 10).sum())
    keep = [i for i, x in enumerate(labels) if x == "even"]
    [alone] = mtpalette.corpus_score([systems["Nemo"][i] for i in keep], [[ref[i] for i in keep]],
                                     "chrf", tokenize="none")  # fmt: skip
    assert by_label.scores["Nemo"][by_label.labels.index("even")] == pytest.approx(alone.value)
    with pytest.raises(mtpalette.errors.UserInputError, match="--labels FILE"):
        analyze(systems, [ref], analyses=["label"])


def test_domains_and_documents_from_a_long_tables_columns(tmp_path):
    ref = _lines("ref")[:40]
    systems = {name: _lines(name)[:40] for name in ("Facebook-AI", "Nemo")}
    # the talks' domain and document columns are made up here: the test checks the plumbing
    domain = ["first half" if i < 20 else "second half" for i in range(40)]
    doc = [f"d{i // 10}" for i in range(40)]
    import json

    table = tmp_path / "long.jsonl"
    table.write_text("".join(
        json.dumps({"system": s, "segment": i + 1, "hyp": lines[i], "ref": ref[i],
                    "domain": domain[i], "doc": doc[i]}) + "\n"
        for s, lines in systems.items() for i in range(40)), encoding="utf-8")  # fmt: skip
    run = AnalyzeRun(ScoreInputs(table=str(table)), ["domain", "document"], metric="chrf",
                     domain_col="domain", doc_col="doc")  # fmt: skip
    by_domain, by_doc = run_analyze(run).analyses
    assert by_domain.labels == ["first half", "second half"] and by_doc.counts["Nemo"] == [10] * 4
    direct = analyze(systems, [ref], analyses=["domain"], domains=domain, metric="chrf")
    assert by_domain.scores == direct.analyses[0].scores


def test_a_grid_of_metrics_is_refused_by_name():
    with pytest.raises(mtpalette.errors.UserInputError, match="names 2 metrics"):
        analyze({"A": ["a b"]}, [["a b"]], analyses=["length"], metric="bleus:1..2")


def test_the_first_ngrams_are_the_first_of_the_full_ranking():
    """--top N: the N first of the whole ranking (ties at the cut broken by the text, as in
    the full list), each way and per system."""
    ref = _lines("ref")[:200]
    systems = {name: _lines(name)[:200] for name in ("Facebook-AI", "Nemo", "UEdin")}
    full = analyze(systems, [ref], analyses=["ngrams"], top=10**6).analyses
    for top in (1, 7, 30):
        cut = analyze(systems, [ref], analyses=["ngrams"], top=top).analyses
        for whole, part in zip(full, cut, strict=True):
            assert part.gains == whole.gains[:top] and part.losses == whole.losses[:top]


@pytest.mark.parametrize("compat", [None, "compare-mt"])
def test_an_empty_test_set_is_refused_by_name(compat):
    with pytest.raises(mtpalette.errors.UserInputError, match="no segments: the reference"):
        analyze({"A": [], "B": []}, [[]], analyses=["words", "ngrams"], compat=compat)


@pytest.mark.parametrize("compat", [None, "compare-mt"])
def test_a_line_that_is_no_string_is_refused_by_name(compat):
    with pytest.raises(mtpalette.errors.UserInputError, match="the reference: line 2 is NoneType"):
        analyze({"A": ["a", "b"]}, [["a", None]], compat=compat)
    with pytest.raises(mtpalette.errors.UserInputError, match="system 'B': line 1 is int"):
        analyze({"A": ["a", "b"], "B": [3, "b"]}, [["a", "b"]], compat=compat)
    with pytest.raises(mtpalette.errors.UserInputError, match="system 'A': expected a list"):
        analyze({"A": "ab"}, [["a", "b"]], compat=compat)


def test_a_dataframe_of_systems_is_taken_column_by_column():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"A": ["a b", "c d"], "B": ["a x", "c d"]})
    given = {"A": ["a b", "c d"], "B": ["a x", "c d"]}
    for compat in (None, "compare-mt"):
        got = analyze(frame, [["a b", "c e"]], analyses=["words", "ngrams"], compat=compat)
        want = analyze(given, [["a b", "c e"]], analyses=["words", "ngrams"], compat=compat)
        assert got.to_dict() == want.to_dict()
