"""Every option is declared once, on a field of a run's description (mtpalette.flags): the
command line's default of each option is the field's own default (unless the flag declares the
command line's on purpose, as train-blanc's --output), so a run built from the command line's
defaults is the run the API builds from its defaults; and no command declares an option twice."""

from __future__ import annotations

import dataclasses

import pytest

from mtpalette import flags
from mtpalette.errors import UserInputError
from mtpalette.api.agreement_run import AgreementRun
from mtpalette.api.analyze_run import AnalyzeRun
from mtpalette.api.audit_run import AuditRun
from mtpalette.api.chunked import Chunking
from mtpalette.api.correlation_run import CorrelationOutputs, CorrelationRun
from mtpalette.api.errorfree_run import ErrorFreeRun
from mtpalette.api.mbr_run import MbrOutputs, MbrRun
from mtpalette.api.orange_run import OrangeOutputs, OrangeRun
from mtpalette.api.rank_run import RankRun
from mtpalette.api.score_run import ScoreRun
from mtpalette.api.score_tests import ScoreTests
from mtpalette.api.spans_run import SpansRun
from mtpalette.api.train_run import BlancTrainRun, RoseTrainRun
from mtpalette.api.wmt_run import WmtRun
from mtpalette.cli.app import COMMANDS, load_command
from mtpalette.cli.options import fill, options_of
from mtpalette.sources.inputs import CandidateInputs, JudgedInputs
from mtpalette.sources.limited import LimitedFeatures
from mtpalette.sources.score_inputs import ScoreInputs
from mtpalette.sources.wmt25 import Wmt25Inputs

DESCRIPTIONS = [
    AgreementRun, AnalyzeRun, AuditRun, Chunking, CorrelationOutputs, CorrelationRun, ErrorFreeRun,
    MbrOutputs, MbrRun, OrangeOutputs, OrangeRun, RankRun, ScoreRun, ScoreTests, SpansRun,
    BlancTrainRun, RoseTrainRun, WmtRun, CandidateInputs, JudgedInputs, LimitedFeatures,
    ScoreInputs, Wmt25Inputs,
]  # fmt: skip


def _default(f: dataclasses.Field):
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING


@pytest.mark.parametrize("cls", DESCRIPTIONS, ids=lambda c: c.__name__)
def test_the_command_lines_defaults_are_the_fields(cls):
    group = options_of(cls)
    assert group, f"{cls.__name__} has no flagged field"
    defaults = {name: default for name, (_, default) in group.items()}
    flagged = {f.name: f for f in dataclasses.fields(cls) if flags.KEY in f.metadata}
    for name, f in flagged.items():
        spec = f.metadata[flags.KEY]
        field_default, cli_default = _default(f), defaults[name]
        if field_default is dataclasses.MISSING or cli_default is ...:
            continue  # required: no default on either side
        if spec.cli_default is not None and spec.parse is None:
            continue  # the command line's own default, declared on the flag
        value = None if cli_default is None else cli_default
        if value is not None and spec.parse is not None:
            value = spec.parse(value)
        if value is None and f.default_factory is not dataclasses.MISSING:
            value = field_default  # fill keeps a list made per instance when none is given
        assert value == field_default, f"{cls.__name__}.{name}: {value!r} != {field_default!r}"


def test_fill_keeps_the_defaults_of_fields_without_options():
    run = fill(CorrelationRun, {"statistics": "pearson,kendall", "chance": flags.Switch.off},
               inputs=JudgedInputs(bundled="zhen"))  # fmt: skip
    assert run.statistics == ["pearson", "kendall"] and run.chance is False
    assert run == CorrelationRun(JudgedInputs(bundled="zhen"), statistics=["pearson", "kendall"],
                                 chance=False)  # fmt: skip


@pytest.mark.parametrize("name", list(COMMANDS))
def test_no_command_declares_an_option_twice(name):
    command = load_command(name)
    seen: dict[str, str] = {}
    for param in command.params:
        for opt in [*param.opts, *param.secondary_opts]:
            assert opt not in seen, f"{name}: {opt} declared by {seen[opt]} and {param.name}"
            seen[opt] = param.name
    assert seen, f"{name} has no option"


@pytest.mark.parametrize("cls", DESCRIPTIONS, ids=lambda c: c.__name__)
def test_an_options_choices_are_declared_on_it_and_hold_its_default(cls):
    """A flag's choices (a tuple or "module:NAME", imported only when checked) name a tuple
    of strings that holds the field's default, and validate() refuses a value outside them
    with the option's name and the choices."""
    for f in dataclasses.fields(cls):
        spec = f.metadata.get(flags.KEY)
        if spec is None or spec.choices is None:
            continue
        spec.check(_default(f))  # the default is one of them (or None: the default rule)
        with pytest.raises(UserInputError, match=f"^{spec.names[0]} must be one of .+ "
                                                 r"\(got 'no-such-choice'\)\.$"):  # fmt: skip
            spec.check("no-such-choice")


@pytest.mark.parametrize("cls", DESCRIPTIONS, ids=lambda c: c.__name__)
def test_a_description_with_choices_checks_them_in_validate(cls):
    """Description.validate checks the choices: a run that has some and validates itself
    must call it (else a wrong value would pass until the engine, or unseen)."""
    import inspect

    has_choices = any(f.metadata.get(flags.KEY) and f.metadata[flags.KEY].choices
                      for f in dataclasses.fields(cls))  # fmt: skip
    if has_choices and "validate" in vars(cls):
        assert "super().validate()" in inspect.getsource(cls.validate), cls.__name__
