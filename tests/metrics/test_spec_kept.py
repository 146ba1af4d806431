"""A metric keeps its spec once worked out (issue 55: hashing a metric asked for it at every
dict lookup), and works it out again after any attribute is set."""

import pickle

from mtpalette.metrics.registry import parse_spec


def test_the_kept_spec_follows_every_attribute_set():
    m = parse_spec("bleu")[0]
    assert m.spec == "bleu"
    m.smooth = "add-k"
    assert m.spec == parse_spec("bleu:smooth=add-k")[0].spec == "bleu:smooth=add-k"
    m.spec_view = {"tok": "intl"}
    assert m.spec == "bleu:smooth=add-k,tok=intl"


def test_equal_metrics_hash_alike_before_and_after_a_pickle_round_trip():
    a, b = parse_spec("chrf:w=2")[0], parse_spec("chrF++")[0]
    assert a.spec == b.spec and a == b and hash(a) == hash(b)
    c = pickle.loads(pickle.dumps(a))
    assert c == a and hash(c) == hash(a) and len({a, b, c}) == 1
    c.beta = 3
    assert c.spec == "chrf:w=2,beta=3" and c != a
