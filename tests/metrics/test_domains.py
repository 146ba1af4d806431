"""Every metric over its whole parameter space: a valid parameter never gives NaN or a crash.

Each family declares the domain of every option (``mtpalette.metrics.domains``); hypothesis
draws specs from those domains and scores real sentences (the bundled WMT21 TED zh-en
excerpt, with an empty hypothesis and an exact copy of the reference among them). A spec is
either refused with a :class:`UserInputError` that names the option (a combination two
options forbid together) or scores every sentence and the corpus with finite numbers.
"""

from __future__ import annotations

import sys
import tempfile
import types
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from real_data import mqm_ted

from mtpalette.api import corpus_score, sentence_scores
from mtpalette.errors import UserInputError
from mtpalette.metrics.domains import Choice, Integer, Real, Text, YesNo
from mtpalette.metrics.registry import BUILTIN_FAMILIES, metric_class, parse_spec
from mtpalette.metrics.rose_features import feature_names
from mtpalette.metrics.rose_model import RoseModel

FAMILIES = sorted(BUILTIN_FAMILIES)


def _plugin_module() -> str:
    """A plugin target: the share of the candidate's words found in some reference."""
    mod = types.ModuleType("mtp_domains_plugin")

    def overlap(hyps, refs):
        out = []
        for h, rs in zip(hyps, refs, strict=True):
            words, pool = h.split(), {w for r in rs for w in r.split()}
            out.append(sum(w in pool for w in words) / len(words) if words else 0.0)
        return out

    mod.overlap = overlap
    sys.modules[mod.__name__] = mod
    return "mtp_domains_plugin:overlap"


def _rose_model() -> str:
    """A ROSE model file (linear, the features of this version, fixed weights)."""
    n = len(feature_names(False))
    weights = [0.1 * (k % 7 - 3) for k in range(n)]
    model = RoseModel("reg", "en", False, "13a", True, feature_names(False), [0.0] * n,
                      [1.0] * n, weights, function_words="fw100")  # fmt: skip
    path = Path(tempfile.mkdtemp(prefix="mtp-domains-")) / "rose.json"
    model.save(path)
    return str(path)


#: families whose spec needs code or a file: the part given before the drawn options
REQUIRED = {"plugin": _plugin_module(), "rose": f"model=@{_rose_model()}"}


def _texts():
    root = mqm_ted("zhen")["root"]
    hyps = (root / "NiuTrans.txt").read_text(encoding="utf-8").splitlines()[:12]
    refs = (root / "ref.txt").read_text(encoding="utf-8").splitlines()[:12]
    refs_b = (root / "refB.txt").read_text(encoding="utf-8").splitlines()[:12]
    hyps[3] = ""  # an empty hypothesis
    hyps[5] = refs[5]  # the reference itself
    return hyps, [refs, refs_b]


HYPS, REFS = _texts()


def _spec_text(domain, value) -> str:
    special = getattr(domain, "special", {})
    for text, meant in special.items():
        if meant == value and type(meant) is type(value):
            return text
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


@st.composite
def specs(draw, family: str) -> str:
    cls = metric_class(family)
    options = {k: d for k, d in cls.options.items() if not isinstance(d, Text)}
    chosen = (
        draw(st.lists(st.sampled_from(sorted(options)), unique=True, max_size=3)) if options else []
    )
    parts = [REQUIRED[family]] if family in REQUIRED else []
    for key in chosen:
        value = draw(st.sampled_from(options[key].examples()))
        parts.append(f"{key}={_spec_text(options[key], value)}")
    return family + (":" + ",".join(parts) if parts else "")


@pytest.mark.parametrize("family", sorted(REQUIRED))
def test_the_required_part_alone_scores(family):
    """The plugin and the ROSE model the draws build on are valid by themselves."""
    spec = f"{family}:{REQUIRED[family]}"
    [metric] = parse_spec(spec)
    [values] = sentence_scores(HYPS, REFS, [spec]).values()
    assert np.isfinite(values).all() and np.ptp(values) > 0


def test_every_option_declares_a_domain():
    for family in sorted(BUILTIN_FAMILIES):
        for key, domain in metric_class(family).options.items():
            assert isinstance(domain, Real | Integer | Choice | YesNo | Text), (family, key)
            assert domain.describe()


@pytest.mark.parametrize("family", FAMILIES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_valid_parameters_never_give_nan(family, data):
    spec = data.draw(specs(family))
    try:
        [metric] = parse_spec(spec)
    except UserInputError as exc:  # two options that exclude each other: named, not a crash
        assert any(key in str(exc) for key in ("=", "option", "need", "takes")), str(exc)
        return
    out = _scores(spec)
    if out is None:
        return
    [values] = out.values()
    assert np.isfinite(np.asarray(values, dtype=float)).all(), (spec, values)
    corpus = corpus_score(HYPS, REFS, [spec])
    for score in corpus:
        assert np.isfinite(score.value), (spec, score)
    assert metric.spec


def _scores(spec: str):
    """The sentence scores of ``spec``, or None where it needs a resource this machine lacks
    (``rouge-lsum:split=nltk`` without NLTK's punkt model) and the error says so."""
    try:
        return sentence_scores(HYPS, REFS, [spec])
    except UserInputError as exc:
        if "not installed" not in str(exc):
            raise
        return None


def _check_finite(spec: str) -> None:
    parse_spec(spec)  # one option alone is never refused
    out = _scores(spec)
    if out is None:
        return
    [values] = out.values()
    assert np.isfinite(np.asarray(values, dtype=float)).all(), (spec, values)
    assert all(np.isfinite(s.value) for s in corpus_score(HYPS, REFS, [spec])), spec


OPTIONS = [
    (family, key)
    for family in FAMILIES
    for key, domain in metric_class(family).options.items()
    if not isinstance(domain, Text)
]


def _companions(family: str, key: str, value) -> list[str]:
    """The options another option needs beside it (each refused alone, with its reason)."""
    if family == "rouge-n" and key != "n":  # rouge-n has no default order
        return ["n=2", *_companions("rouge-l", key, value)]
    if key == "stem":  # rouge-score's stemmer stems rouge-score's tokens
        return ["tok=rouge-score"]
    if (family, key) == ("bleu", "value"):  # only floor and add-k smoothing take a value
        return ["smooth=floor"]  # (add-k needs k > 0; floor takes 0, as sacrebleu)
    if (family, key) == ("chrf", "n"):  # n=0: word n-grams only
        return ["w=2"]
    if family == "rouge-w" and key == "a" and value < 1:  # f=poly needs a >= 1
        return ["f=linear", "b=0.0001"]
    if family == "rouge-w" and key in ("b", "unit"):  # the gap penalty of f=linear
        return ["f=linear", "a=10"]
    return []


@pytest.mark.parametrize(("family", "key"), OPTIONS, ids=[f"{f}-{k}" for f, k in OPTIONS])
def test_every_example_of_every_option_alone(family, key):
    """Beside the random draws: each option at each of its example values (the domain's
    closed ends, points inside, its special values), so no parameter is left undrawn."""
    domain = metric_class(family).options[key]
    head = [REQUIRED[family]] if family in REQUIRED else []
    for value in domain.examples():
        own = f"{key}={_spec_text(domain, value)}"
        _check_finite(f"{family}:" + ",".join([*head, own, *_companions(family, key, value)]))


@pytest.mark.parametrize(
    "spec, message",
    [
        ("bleu:smooth=add-k,value=-1", r"'value'.*a number >= 0"),  # once NaN, exit 0
        ("bleu:smooth=add-k,value=0", r"add-k smoothing needs k > 0"),  # floor=0 is sacrebleu's
        ("bleu:smooth=exp,value=0.5", "takes no value"),  # once ignored, signed exp[0.50]
        ("rouge-l:beta=-1", r"'beta'.*a number >= 0"),  # once silently equal to beta=1
        ("chrf:beta=0", r"'beta'.*a number > 0"),
        ("rouge-w:f=cubic", "one of poly, linear"),
        ("rouge-s:d=-1", r"an integer from 0 to 1000 or '\*'"),
        ("nist:n=0", "an integer from 1 to 20"),
        ("wer:best=smallest", "one of errors, rate"),
        ("ter:case=maybe", "yes or no"),
    ],
)
def test_out_of_domain_values_are_refused_with_the_range(spec, message):
    with pytest.raises(UserInputError, match=message):
        parse_spec(spec)
