"""Synonym matching (SST) with real Cilin and WordNet entries; -syn metrics never score below
the plain ones; resources name themselves in the signature; bad tables say where."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette import sentence_scores
from mtpalette.errors import UserInputError
from mtpalette.metrics import parse_specs
from mtpalette.text.synonyms import from_groups, load_synonyms, read_table, read_wordnet, transform

WORDNET = Path(__file__).parents[1] / "data" / "wordnet"  # real WordNet 3.0 lines, see README


def test_cilin_real_entries():
    cilin = load_synonyms("cilin")
    # Aa01A01= 人 士 人物 人士 人氏 人选 ; Aa01A04= 劳力 劳动力 工作者
    assert cilin.are_synonyms("人士", "人物") and cilin.are_synonyms("劳力", "工作者")
    assert not cilin.are_synonyms("人士", "劳力")
    assert (
        transform("他 是 一个 工作者".split(), "他 是 一个 劳动力".split(), cilin)[-1] == "劳动力"
    )
    assert len(cilin.digest) == 64 and cilin.label.startswith("cilin@")


def test_wordnet_real_entries():
    wn = read_wordnet(WORDNET)
    assert wn.are_synonyms("car", "automobile") and wn.are_synonyms("big", "large")
    assert wn.are_synonyms("begin", "start") and wn.are_synonyms("quickly", "rapidly")
    assert not wn.are_synonyms("car", "big")
    got = transform(
        "the big car started quickly".split(), "a large automobile began rapidly".split(), wn
    )
    # "started" is an inflected form: no lemmatisation, so no match
    assert got == ["the", "large", "automobile", "started", "rapidly"]
    [m] = parse_specs([f"bleus-syn:2,syn=wordnet:{WORDNET}"])
    assert "syn:wordnet@" in str(m.signature(n_refs=1))


def test_chinese_syn_metrics_on_words():
    out = sentence_scores(
        ["一个 人士 来了"],
        [["一个 人物 来了"]],
        ["bleus:4", "bleus-syn:4", "rouge-l", "rouge-l-syn"],
        tokenize="none",
    )
    assert out["bleus-syn:4"][0] == pytest.approx(100.0) and out["bleus:4"][0] < 60
    assert out["rouge-l-syn"][0] == pytest.approx(1.0) and out["rouge-l"][0] < 0.7


words = st.lists(st.sampled_from(list("abcdefgh")), min_size=1, max_size=9).map(" ".join)
SYN = from_groups("t", [["a", "b"], ["c", "d", "e"], ["f", "g"]])
TABLE = Path(tempfile.mkdtemp()) / "syn.tsv"  # the same groups as a generic table file
TABLE.write_text("a\tb\nc\td\te\nf\tg\n")


# unique: two copies of one reference are refused (they are not two references)
@settings(max_examples=150, deadline=None)
@given(words, st.lists(words, min_size=1, max_size=2, unique=True))
def test_syn_scores_are_never_below_plain(hyp, refs):
    table = TABLE
    streams = [[r] for r in refs]
    for plain, syn in [
        ("bleus:4", "bleus-syn:4"),
        ("rouge-l", "rouge-l-syn"),
        ("rouge-s:*", "rouge-s-syn:*"),
    ]:
        spec = f"{syn},syn=@{table}"
        # per reference: the -syn score against it is at least the plain score against it
        for stream in streams:
            out = sentence_scores([hyp], [stream], [plain, spec], tokenize="none")
            got = out[next(k for k in out if k.startswith(syn))][0]
            assert got >= out[plain][0] - 1e-12
        # several references: the best per-reference score
        many = sentence_scores([hyp], streams, [spec], tokenize="none")
        each = [sentence_scores([hyp], [s], [spec], tokenize="none") for s in streams]
        key = next(iter(many))
        assert many[key][0] == pytest.approx(max(e[key][0] for e in each))


def test_transform_never_touches_exact_matches():
    got = transform("a b c a".split(), "b a d".split(), SYN)
    assert got[:2] == ["a", "b"] and got[2] == "d" and got[3] == "a"  # c -> d (synonyms)


def test_bad_resources(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("car\tauto\nlonely\n")
    with pytest.raises(UserInputError, match=r"bad\.tsv:2: expected two or more tab-separated"):
        read_table(bad)
    with pytest.raises(UserInputError, match="no WordNet data files"):
        read_wordnet(tmp_path)
    with pytest.raises(UserInputError, match="unknown synonym resource"):
        parse_specs(["bleus-syn,syn=thesaurus"])


def test_syn_metrics_aggregate_like_their_plain_twins():
    """Without a synonym in play a -syn metric is its plain twin, at corpus level too: corpus
    BLEU-S-syn pools the n-gram counts as BLEU-S does (it averaged sentence scores: 97.10
    against 50.00 on this 2-sentence corpus)."""
    from mtpalette import corpus_score

    hyps = ["the cat sat on the mat", "a b"]
    refs = [["the cat sat on the mat", "x y"]]
    scores = {s.spec: s.value for s in corpus_score(hyps, refs, ["bleus:4", "bleus-syn:4"])}
    assert scores["bleus-syn:4"] == pytest.approx(scores["bleus:4"], rel=1e-12)
    assert scores["bleus:4"] != pytest.approx(50.0, abs=1.0)


def test_token_reading_of_the_transformation():
    """``sst=tokens`` reads SST token by token, one-to-one: a surplus repetition of a
    reference word takes a synonym's form ("car car" vs "car vehicle" -> "car vehicle");
    ``sst=types`` (the default) never replaces a form found in the reference."""
    from mtpalette import sentence_scores
    from mtpalette.metrics import parse_specs
    from mtpalette.text.synonyms import transform_tokens

    syn = from_groups("t", [["car", "vehicle"]])
    assert transform_tokens(["car", "car"], ["car", "vehicle"], syn) == ["car", "vehicle"]
    assert transform(["car", "car"], ["car", "vehicle"], syn) == ["car", "car"]
    spec = f"bleus-syn:1,syn=@{TABLE}"
    table = TABLE.parent / "cars.tsv"
    table.write_text("car\tvehicle\n")
    specs = [f"bleus-syn:1,syn=@{table}", f"bleus-syn:1,syn=@{table},sst=tokens"]
    got = sentence_scores(["car car"], [["car vehicle"]], specs)
    assert got[specs[0]][0] == pytest.approx(50.0) and got[specs[1]][0] == pytest.approx(100.0)
    [m] = parse_specs([spec + ",sst=tokens"])
    assert "sst:exact-then-synonym(tokens)" in str(m.signature(n_refs=1))
