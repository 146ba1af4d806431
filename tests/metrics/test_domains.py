"""Every metric over its whole parameter space: a valid parameter never gives NaN or a crash.

Each family declares the domain of every option (``mtpalette.metrics.domains``); hypothesis
draws specs from those domains and scores real sentences (the bundled WMT21 TED zh-en
excerpt, with an empty hypothesis and an exact copy of the reference among them). A spec is
either refused with a :class:`UserInputError` that names the option (a combination two
options forbid together) or scores every sentence and the corpus with finite numbers.
"""

from __future__ import annotations

from importlib import resources

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtpalette.api import corpus_score, sentence_scores
from mtpalette.errors import UserInputError
from mtpalette.metrics.domains import Choice, Integer, Real, Text, YesNo
from mtpalette.metrics.registry import BUILTIN_FAMILIES, metric_class, parse_spec

#: families whose options name files or code (checked by their own tests)
NEEDS_FILES = {"plugin", "rose"}
FAMILIES = sorted(set(BUILTIN_FAMILIES) - NEEDS_FILES)


def _texts():
    root = resources.files("mtpalette") / "data" / "mqm_ted" / "zhen"
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
    parts = []
    for key in chosen:
        value = draw(st.sampled_from(options[key].examples()))
        parts.append(f"{key}={_spec_text(options[key], value)}")
    return family + (":" + ",".join(parts) if parts else "")


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
    out = sentence_scores(HYPS, REFS, [spec])
    [values] = out.values()
    assert np.isfinite(np.asarray(values, dtype=float)).all(), (spec, values)
    corpus = corpus_score(HYPS, REFS, [spec])
    for score in corpus:
        assert np.isfinite(score.value), (spec, score)
    assert metric.spec


@pytest.mark.parametrize(
    "spec, message",
    [
        ("bleu:smooth=add-k,value=-1", r"'value'.*a number > 0"),  # once NaN, exit 0
        ("bleu:smooth=floor,value=0", r"'value'.*a number > 0"),
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
