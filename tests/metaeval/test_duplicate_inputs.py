"""Ambiguous inputs of the meta-evaluation runs are refused (or a reference copy left out,
said), never silently read: a reference given twice (as a file or a table column), a system
that copies a reference, a gold file given as its own ceiling, a language pair or a Limited
ORANGE feature given twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtpalette.errors import UserInputError
from mtpalette.io.judgments_mqm import bundled_mqm_ted
from mtpalette.sources.inputs import load_task


def _judged(**kw):
    p = bundled_mqm_ted("zhen")
    return load_task(**{"judgments": p["judgments"], "refs": p["refs"][:1],
                        "systems": p["systems"][:2], "seg_ids": p["seg_ids"],
                        "note": lambda _: None, **kw})  # fmt: skip


def test_a_reference_given_twice_is_refused_by_the_judged_inputs():
    ref = bundled_mqm_ted("zhen")["refs"][0]
    with pytest.raises(UserInputError, match="hold the same text; give each reference once"):
        _judged(refs=[ref, ref])


def test_a_system_that_copies_a_reference_is_left_out_and_said():
    p = bundled_mqm_ted("zhen")
    notes: list[str] = []
    base, _, base_inputs = _judged()
    data, _, inputs = _judged(systems=[*p["systems"][:2], p["refs"][0]], note=notes.append)
    assert any("a copy of a reference: ref (= ref.txt)" in n for n in notes)
    assert data.n_systems == base.n_systems == 2
    assert inputs["systems"] == base_inputs["systems"]


@pytest.mark.parametrize("twice", ["file", "rater"])
def test_the_gold_given_again_as_its_ceiling_is_refused(tmp_path, twice):
    from mtpalette.api.spans_run import SpansRun, run_spans
    from mtpalette.sources.spans import example_folder

    gold, lexi = example_folder() / "gold.jsonl", example_folder() / "lexi.jsonl"
    if twice == "file":
        run = SpansRun(gold=[str(gold), str(gold)], pred=[f"lexi={lexi}"], bootstrap=0)
    else:  # one file of two raters, the same rater named twice
        both = tmp_path / "both.jsonl"
        both.write_text(gold.read_text() + (example_folder() / "gold_ben.jsonl").read_text())
        run = SpansRun(gold=[str(both)], raters="anna,anna", pred=[f"lexi={lexi}"],
                       on_missing="common", bootstrap=0)  # fmt: skip
    with pytest.raises(UserInputError, match="the ceiling is the gold's own annotation"):
        run_spans(run)


@pytest.mark.parametrize(("options", "said"), [
    ({"ref_cols": ["ref", "ref"]}, "--ref-col 'ref' given twice"),
    ({"hyp_col": "ref"}, "--hyp-col and --ref-col both name column 'ref'"),
    ({"human_col": "ref"}, "--human-col and --ref-col both name column 'ref'"),
])  # fmt: skip
def test_a_table_column_named_by_two_options_is_refused(tmp_path, options, said):
    from mtpalette.sources.inputs import LongTable

    table = tmp_path / "t.tsv"
    table.write_text("system\tsegment\thyp\tref\tscore\nA\t0\ta b\ta c\t1\nB\t0\tx\ta c\t2\n")
    with pytest.raises(UserInputError, match=said):
        LongTable(table, **options).task()
    if "human_col" not in options:
        with pytest.raises(UserInputError, match=said):
            LongTable(table, **options).read()


def test_a_table_reference_copied_or_scored_as_a_system_is_refused_or_left_out(tmp_path):
    from mtpalette.sources.inputs import CandidateInputs, LongTable

    table = tmp_path / "t.tsv"
    table.write_text("system\tsegment\thyp\tref\trefB\tscore\n"
                     "A\t0\ta b\ta c\ta c\t1\nB\t0\tx\ta c\ta c\t2\n")  # fmt: skip
    with pytest.raises(UserInputError, match="hold the same text; give each reference once"):
        LongTable(table, ref_cols=["ref", "refB"]).task()
    copy = tmp_path / "c.tsv"
    copy.write_text("system\tsegment\thyp\tref\trefB\tscore\nA\t0\ta b\ta c\ta d\t1\n"
                    "B\t0\ta c\ta c\ta d\t2\nC\t0\tx\ta c\ta d\t3\n")  # fmt: skip
    data, judged, _ = LongTable(copy, ref_cols=["ref", "refB"]).task()
    assert judged.systems == ["A", "C"]
    lists, _ = CandidateInputs(table=copy, ref_cols=["ref", "refB"]).load()
    assert lists.n_candidates.tolist() == [2]


@pytest.mark.parametrize("name", ["wmt23", "wmt24"])
def test_a_language_pair_given_twice_to_a_task_set_is_refused(name):
    from mtpalette.metaeval.task_sets import task_set

    with pytest.raises(UserInputError, match="language pair en-de given twice"):
        task_set(name, lps=["en-de", "zh-en", "en-de"])


def test_a_limited_orange_feature_given_twice_is_refused():
    from mtpalette.sources.limited import LimitedFeatures

    with pytest.raises(UserInputError, match="--features sim given twice"):
        LimitedFeatures(Path("pivot.txt"), features="sim,ade,sim", weights="0.2,0.3,0.5").validate()


@pytest.mark.parametrize("spec", ["c=c.tsv,higher=no,higher=yes", "c=c.tsv,layout=mtme,layout=tsv"])
def test_a_scores_option_given_twice_is_refused(spec):
    from mtpalette.sources.external import parse_scores

    with pytest.raises(UserInputError, match="given twice"):
        parse_scores([spec], ["ref"])


def test_seg_ids_and_id_base_together_are_refused():
    with pytest.raises(UserInputError, match="give --seg-ids .* or --id-base .*, not both"):
        _judged(id_base=5)  # the id list won, the base was dropped without a word


def test_an_errorfree_prediction_named_as_a_baseline_is_refused():
    import numpy as np

    from mtpalette.metaeval.errorfree import evaluate_errorfree

    gold = {("en-de", "A", None, i): v for i, v in enumerate([True, False])}
    with pytest.raises(UserInputError, match="always-erroneous are taken by a baseline"):
        evaluate_errorfree(gold, {"always-erroneous": (list(gold), np.array([True, False]))},
                           n_resamples=0)  # fmt: skip

