"""Signatures are objects (nested where one run holds another) printed as today's text:
a ranking (its score's signature nested), an ORANGE run (its metric's extended) and a
correlation table (a stored metric's origin). Results hold them as objects (a signature is
its text and keeps its parts), rendered to text only where they are written."""

import json
import pickle

import numpy as np
import pytest

from mtpalette._version import __version__
from mtpalette.metaeval.correlation import stored_signature, system_table
from mtpalette.metaeval.orange import Comparisons, evaluate, orange_signature
from mtpalette.metaeval.system_ranking import rank_systems, ranking_signature
from mtpalette.metrics import Signature
from mtpalette.metrics.registry import parse_spec
from mtpalette.stats.signed_rank import RULE as WILCOXON_RULE

V = __version__


def test_render_and_parse_round_trip():
    inner = Signature("chrf", {"nrefs": 1, "case": "mixed"}, V)
    outer = Signature("chrf", {"alpha": 0.05, "higher-is-better": True, "score": inner}, V)
    text = f"chrf|alpha:0.05|higher-is-better:yes|score:[chrf|nrefs:1|case:mixed|version:{V}]"
    assert str(outer) == f"{text}|version:{V}"
    back = Signature.parse(str(outer))
    assert str(back) == str(outer) and str(back.fields["score"]) == str(inner)
    assert back.version == V and back.fields["alpha"] == "0.05"


@pytest.mark.parametrize("text", ["a|b", "a|x:1|x:2", "a|x:[b|y:1", "a|x:b]", "a|version:1|x"])
def test_parse_refuses_what_is_not_a_signature(text):
    with pytest.raises(ValueError):
        Signature.parse(text)
    assert str(Signature.of(text)) == text  # kept as printed


def test_ranking_signature_nests_the_score_signature():
    metric = parse_spec("chrf")[0]
    score_sig = metric.signature(n_refs=1)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 40)) + np.array([[1.0], [0.5], [0.0]])
    r = rank_systems(x, ["A", "B", "C"], protocol="wilcoxon", name="chrf",
                     signature=score_sig)  # fmt: skip
    today = (
        "chrf|what:system-ranking|protocol:wilcoxon|system-score:mean|higher-is-better:yes"
        f"|missing:none|correction:none|alpha:0.05|wilcoxon:{WILCOXON_RULE}"
        f"|score:[{score_sig}]|version:{V}"
    )
    assert r.signature == today
    # the same ranking from the score's text: the nested field is parsed, printed alike
    assert rank_systems(x, ["A", "B", "C"], name="chrf", signature=str(score_sig)).signature \
        == today  # fmt: skip
    sig = ranking_signature("chrf", "wilcoxon", "mean", True, "none", "none", 0.05, 0, None,
                            score_sig)  # fmt: skip
    assert str(sig) == today and sig.fields["score"] is score_sig
    parsed = Signature.parse(r.signature)
    assert str(parsed) == today and str(parsed.fields["score"]) == str(score_sig)
    with_n = ranking_signature("s", "bootstrap", "corpus", False, "none", "holm", 0.1, 200, 7, "")
    assert str(with_n) == (
        "s|what:system-ranking|protocol:bootstrap|system-score:corpus|higher-is-better:no"
        f"|missing:none|correction:holm|alpha:0.1|resamples:200|seed:7|version:{V}"
    )


def _comparisons(signature):
    return Comparisons.from_scores("m", [[0.9, 0.5, 0.1, 0.8]], [[0.5, 0.2]], [0, 3, 4],
                                   n_refs=2, signature=signature)  # fmt: skip


def test_orange_signature_extends_the_metric_signature():
    metric_sig = f"m|nrefs:1|norm:self|version:{V}"  # "norm" also an ORANGE field
    table = evaluate([_comparisons(metric_sig)], n_resamples=20, seed=3)
    today = (
        f"{metric_sig}|orange:leave-one-out|refs:2|ties:mid|norm:per-segment|bs:20"
        "|seed:3|ci:0.95-percentile"
    )
    assert table.rows[0].signature == today
    sig = orange_signature(_comparisons(metric_sig), ties="mid", n_resamples=20, seed=3,
                           confidence=0.95, method="percentile")  # fmt: skip
    assert str(sig) == today and str(sig.extends) == metric_sig
    bare = orange_signature(_comparisons(""), ties="pessimistic", n_resamples=0, seed=None,
                            confidence=0.95, method="percentile", min_candidates=2)  # fmt: skip
    assert str(bare) == (
        "m|orange:leave-one-out|refs:2|ties:pessimistic|norm:per-segment|minN:2|bs:0"
    )
    assert str(Signature.parse(str(bare))) == str(bare)


def test_correlation_table_signature_of_a_stored_metric():
    human = {"A": 0.3, "B": 0.1, "C": -0.2, "D": 0.0}
    sig = stored_signature("BLEU", "stored BLEU.sys.score")
    t = system_table(human, {"BLEU": {"A": 30, "B": 25, "C": 20, "D": 22}},
                     signatures={"BLEU": sig}, n_resamples=20, test="none")  # fmt: skip
    assert t.rows[0].signature == "BLEU|source:stored BLEU.sys.score" == str(sig)
    assert t.to_dict()["rows"][0]["signature"] == str(sig)
    back = Signature.parse(t.rows[0].signature)
    assert back.version is None and back.fields == {"source": "stored BLEU.sys.score"}
    assert str(back) == str(sig)


def test_a_signature_is_its_text_and_keeps_its_parts():
    inner = Signature("chrf", {"nrefs": 1}, V)
    sig = Signature("rank", {"alpha": 0.05, "score": inner}, V)
    text = f"rank|alpha:0.05|score:[chrf|nrefs:1|version:{V}]|version:{V}"
    assert sig == text and hash(sig) == hash(text) and "alpha:0.05" in sig
    assert json.dumps({"s": sig}) == json.dumps({"s": text})
    back = pickle.loads(pickle.dumps(sig))  # Dask ships results pickled
    assert type(back) is Signature and back.fields["score"].fields["nrefs"] == 1
    assert Signature.parse(text) == sig  # values parsed back as text, equal by their text
    with pytest.raises(AttributeError):
        sig.metric = "other"
    with pytest.raises(TypeError):
        sig.fields["alpha"] = 0.1


def test_results_hold_signature_objects():
    from mtpalette import correlate, orange, rank

    systems = {"A": ["a b c d", "a b"], "B": ["a b x y", "x y"], "C": ["x y z w", "a x"]}
    refs = [["a b c d", "a b"]]
    human = {"A": [1.0, 0.9], "B": [0.5, 0.1], "C": [0.0, 0.3]}
    t = correlate(systems, refs, human, ["chrf", "bleus:1"], n_resamples=0, baselines=False,
                  progress=False)
    row = t.row("chrf")
    assert isinstance(row.signature, Signature) and row.signature.fields["nrefs"] == 1
    assert t.to_dict()["rows"][0]["signature"] == str(t.rows[0].signature)
    r = rank({"A": [80, 75, 90, 60], "B": [60, 65, 70, 50]}, progress=False)
    assert isinstance(r.signature, Signature) and r.signature.fields["protocol"] == "wilcoxon"
    o = orange(refs + [["a b c x", "a y"]], {"A": systems["A"], "B": systems["B"]}, "chrf",
               n_resamples=0, progress=False)  # fmt: skip
    assert isinstance(o.rows[0].signature, Signature)
    assert o.rows[0].signature.extends.fields["nrefs"] == 1


def test_an_extended_signature_parses_back():
    """What ``extends`` prints (an ORANGE run's fields after its metric's version) parses into
    the same parts, so the report's signature table reads its metric's fields too."""
    metric = Signature("chrf", {"nrefs": 1, "tok": "13a"}, V)
    run = Signature("chrf", {"orange": "leave-one-out", "bs": 20}, None, extends=metric)
    back = Signature.parse(str(run))
    assert back == run and back.extends == metric and back.version is None
    assert back.all_fields() == {"nrefs": "1", "tok": "13a", "version": V,
                                 "orange": "leave-one-out", "bs": "20"}  # fmt: skip
