"""The catalogue is the registry of statistics (issue 52): every entry has every field, every
name of every dialect resolves to its entry, and a statistic added as one entry (here in a
test, monkeypatched) reaches ``correlate``'s value path without any other table."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import mtpalette
from mtpalette.errors import UserInputError
from mtpalette.metaeval.tasks import Task
from mtpalette.stats import averaging, catalogue, sigdiff
from mtpalette.stats.catalogue import CATALOGUE, Statistic
from mtpalette.stats.correlation import correlation
from mtpalette.stats.grouping import GROUPINGS

LEVELS = ("segment", "system")
VARIANTS = ("b", "c", "23", "acc23")


def _optional(kind):
    return lambda v: v is None or isinstance(v, kind)


def _function(v) -> bool:
    return v is None or callable(v)


#: one check per field of a Statistic: the value the field must hold
FIELD_CHECKS = {
    "name": lambda v: isinstance(v, str) and v == v.strip().lower() and " " not in v,
    "label": lambda v: isinstance(v, str) and v.strip() == v and v,
    "corr_fcn": _optional(str),
    "args": lambda v: isinstance(v, dict),
    "aliases": lambda v: isinstance(v, tuple) and all(isinstance(a, str) for a in v),
    "short": lambda v: isinstance(v, str),
    "group": _function,
    "pooled": lambda v: isinstance(v, bool),
    "variant": lambda v: v is None or v in VARIANTS,
    "pairs": lambda v: isinstance(v, bool),
    "calibrated": lambda v: isinstance(v, bool),
    "value": _function,
    "averaged": lambda v: v is None or v in averaging.FUNCTIONS,
    "permutation": lambda v: v is None or v in sigdiff.FUNCTIONS,
    "chance": _function,
    "levels": lambda v: isinstance(v, tuple) and v and set(v) <= set(LEVELS),
    "grouped": lambda v: isinstance(v, bool),
    "range": lambda v: isinstance(v, tuple) and len(v) == 2 and v[0] < v[1],
    "from_segments": lambda v: isinstance(v, bool),
    "note": lambda v: isinstance(v, str),
}


def test_the_checks_cover_every_field():
    assert set(FIELD_CHECKS) == {f.name for f in dataclasses.fields(Statistic)}


@pytest.mark.parametrize("name", list(CATALOGUE))
def test_every_entry_has_every_field(name):
    entry = CATALOGUE[name]
    assert entry.name == name
    for field in dataclasses.fields(Statistic):
        value = getattr(entry, field.name)
        assert FIELD_CHECKS[field.name](value), f"{name}.{field.name} = {value!r}"
    # a value, whichever route computes it
    assert entry.value or entry.group or entry.averaged
    if entry.corr_fcn is None:
        assert entry.group is not None, f"{name}: no mt-metrics-eval name and no group kernel"
    if entry.group is None:  # a task of the engine: its table says how it is computed
        assert entry.note and entry.corr_fcn is not None
    if entry.pairs:
        assert entry.variant in ("b", "23", "acc23") and entry.group is not None
    if entry.calibrated:
        assert entry.variant in ("23", "acc23") and entry.permutation == "tie-calibrated"
    if entry.pooled:
        assert entry.group is not None
    if entry.from_segments:
        assert entry.levels == ("system",) and not entry.grouped


def test_names_are_unique():
    every = [n for e in CATALOGUE.values() for n in e.names]
    assert len(every) == len(set(every)) == len(catalogue.names())


@pytest.mark.parametrize("name", catalogue.names())
def test_every_mtpalette_name_resolves(name):
    entry = catalogue.statistic(name)
    assert name in entry.names and CATALOGUE[entry.name] is entry
    assert catalogue.label(name) == entry.label
    assert catalogue.statistic(entry) is entry
    if entry.group is not None:
        assert name in catalogue.names(interval=True)
    else:
        with pytest.raises(ValueError, match="task of the engine"):
            catalogue.statistic(name, interval=True)


@pytest.mark.parametrize("name", [n for n, e in CATALOGUE.items() if e.corr_fcn])
def test_every_mtme_name_resolves(name):
    """A task's corr_fcn and corr_fcn_args name the entry, and task parsing takes them."""
    entry = CATALOGUE[name]
    assert catalogue.task_entry(entry.corr_fcn, dict(entry.args)) is entry
    assert entry.corr_fcn in catalogue.corr_fcns()
    level = "seg" if "segment" in entry.levels else "sys"
    corr_fcn, args = catalogue.task_of(name)  # the task asked (acc-eq: sample_rate 1.0 too)
    Task(level=level, corr_fcn=corr_fcn, corr_fcn_args=args)
    assert (corr_fcn, args) == (entry.corr_fcn, dict(entry.args, **args))
    assert catalogue.task_entry(corr_fcn, args) is entry


def test_unknown_names_are_refused_with_the_list():
    with pytest.raises(ValueError, match="unknown statistic 'kendal'; expected one of pearson"):
        catalogue.statistic("kendal")
    assert catalogue.task_entry("accuracy") is None  # the task engine's own pooled accuracy
    assert catalogue.label("rr-kendall") == "WMT RR tau"


def _data(seed: int = 0):
    rng = np.random.default_rng(seed)
    h = np.round(rng.normal(size=(5, 12)) * 3) / 3  # some human ties
    a = h + rng.normal(scale=0.8, size=h.shape)
    b = h + rng.normal(scale=2.0, size=h.shape)
    h[0, 3] = np.nan
    return h, a, b


@pytest.mark.parametrize("grouping", GROUPINGS)
@pytest.mark.parametrize(
    "name", [n for n, e in CATALOGUE.items() if e.group is not None and e.corr_fcn]
)
def test_the_group_kernel_and_the_mtme_route_agree(name, grouping):
    """The dialects name one statistic: its group kernel (intervals, ``correlation``) and its
    corr_fcn with args (tasks, ``value``) give one number."""
    entry = CATALOGUE[name]
    h, a, _ = _data()
    epsilon = None if entry.calibrated else 0.0
    kernel = correlation(h, a, name, grouping=grouping, epsilon=epsilon, threshold=0.5)
    task = catalogue.value(name, h, a, grouping=grouping, epsilon=epsilon, threshold=0.5)
    assert kernel == pytest.approx(task, abs=1e-12)


@pytest.mark.parametrize("name", [n for n, e in CATALOGUE.items() if e.permutation])
def test_every_permutation_function_runs(name):
    h, a, b = _data(1)
    r = catalogue.sig_diff(name, h, a, b, grouping="item", k=30, seed=3, plus_one=True)
    assert 0.0 < r.p_value <= 1.0


@pytest.mark.parametrize("name", list(CATALOGUE))
def test_the_chance_function_names_its_statistic(name):
    h, _, _ = _data(2)
    if "segment" not in CATALOGUE[name].levels:
        h = np.nan_to_num(h)
    level = catalogue.chance(name, h, grouping="none", epsilon=0.0)
    assert (level is None) == (CATALOGUE[name].chance is None)
    if level is not None:
        assert level.statistic == name


# ------------------------------------------------------------- a new statistic, one entry
def ccc_groups(groups, *, epsilon: float = 0.0, threshold: float = 25.0) -> np.ndarray:
    """Lin's concordance correlation coefficient of every group."""
    out = np.full(groups.n_groups, np.nan)
    for k in range(groups.n_groups):
        g, m = groups.group(k)
        den = g.var() + m.var() + (g.mean() - m.mean()) ** 2
        if den > 0:
            out[k] = 2.0 * np.mean((g - g.mean()) * (m - m.mean())) / den
    return out


CCC = Statistic("ccc", "Lin's concordance (CCC)", aliases=("lin",), group=ccc_groups)


@pytest.fixture
def with_ccc(monkeypatch):
    monkeypatch.setitem(CATALOGUE, "ccc", CCC)
    return CCC


def test_a_new_entry_is_a_statistic_everywhere(with_ccc):
    h, a, b = _data(3)
    rated = ~np.isnan(h)
    g, m = h[rated], a[rated]
    want = (
        2
        * np.mean((g - g.mean()) * (m - m.mean()))
        / (g.var() + m.var() + (g.mean() - m.mean()) ** 2)
    )
    assert catalogue.statistic("lin") is with_ccc
    assert "ccc" in catalogue.names(interval=True) and catalogue.label("lin") == CCC.label
    assert correlation(h, a, "ccc") == pytest.approx(want, abs=1e-12)
    assert catalogue.value("lin", h, a) == pytest.approx(want, abs=1e-12)
    test = catalogue.sig_diff("ccc", h, a, b, k=50, seed=1, plus_one=True)  # its kernel's test
    assert 0.0 < test.p_value <= 1.0 and test.delta > 0


def test_a_new_entry_reaches_correlate(with_ccc, monkeypatch):
    systems = {
        "A": ["a b c d", "a b", "c d e", "x y"],
        "B": ["a b x y", "x y", "c d", "x"],
        "C": ["x y z w", "a x", "z", "x y"],
    }
    refs = [["a b c d", "a b", "c d e", "x y"]]
    human = {"A": [1.0, 0.9, 0.8, 1.0], "B": [0.5, 0.1, 0.6, 0.2], "C": [0.0, 0.3, 0.1, 0.9]}
    kw = dict(n_resamples=50, n_permutations=50, baselines=False)
    result = mtpalette.correlate(systems, refs, human, ["bleus:1", "wer"], statistic="pearson,lin",
                                 **kw)  # fmt: skip
    pearson, ccc = result.tables
    assert ccc.statistic == "ccc" and result.titles[1].startswith(
        "Segment-level Lin's concordance (CCC)"
    )
    assert ccc.test == "permutation" and all(r.cluster for r in ccc.rows)
    from mtpalette.metaeval.segments import SegmentData, score_segments
    from mtpalette.metrics import parse_specs

    names = list(systems)
    data = SegmentData(names, np.array([human[s] for s in names]),
                       [systems[s] for s in names], refs, [1, 2, 3, 4])  # fmt: skip
    for sc in score_segments(data, parse_specs(["bleus:1", "wer"])):
        want = correlation(data.human, sc.oriented(), "ccc")
        assert ccc.row(sc.name).value == pytest.approx(want, abs=1e-12)
        assert pearson.row(sc.name).value != pytest.approx(want)
    # the table is its own: without the entry the name is unknown again
    monkeypatch.delitem(CATALOGUE, "ccc")
    with pytest.raises(UserInputError, match="unknown statistic 'lin'"):
        mtpalette.correlate(systems, refs, human, "wer", statistic="lin", **kw)
