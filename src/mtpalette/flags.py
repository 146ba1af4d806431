"""How a field of a run description is given on the command line, declared once, on the field.

A :class:`Flag` names a field's options (``--bootstrap``), its help and the help section it is
listed in; ``Flag.field(default)`` is the dataclass field that carries it. The command line
(:func:`mtpalette.cli.options.with_options`) builds every command's parameters from these fields:
their type and default are the field's, so an option is declared in one place, beside the value it
sets, and a new field of a run is a new option of its command.

The flags that several runs share (metrics, text, resampling) are defined here once; a run's own
flags are defined on the run.

Examples
--------
>>> from dataclasses import dataclass, fields
>>> @dataclass
... class Demo:
...     bootstrap: int = BOOTSTRAP.field(1000)
>>> spec = fields(Demo)[0].metadata[KEY]
>>> spec.names, spec.panel
(('--bootstrap',), 'Resampling and significance')
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Callable
from typing import Any

from mtpalette.errors import UserInputError, did_you_mean

#: the key of a field's :class:`Flag` in its metadata
KEY = "flag"

#: help sections, in the order commands list them
INPUTS = "Inputs: references and candidates"
HUMANS = "Human judgments"
METRICS = "Metrics and text"
RESAMPLING = "Resampling and significance"
OUTPUTS = "Outputs"
RUNNING = "Running"
ORANGE = "ORANGE"
LIMITED = "Limited ORANGE (--pivot)"
CORRELATION = "Correlation"
TRAINING = "Training"


@dataclasses.dataclass(frozen=True)
class Flag:
    """A field's options on the command line.

    ``cli`` is the option's type where it differs from the field's (``--stat a,b`` is a string,
    the field a list); ``parse`` turns the option's value into the field's; ``cli_default`` is
    the option's default where the field's is not one (``None``: the field's default, and a
    list made per instance: none given; ``...``: the option is required). A flag without a
    name is an argument.
    """

    names: tuple[str, ...]
    help: str
    panel: str
    cli: Any = None
    parse: Callable[[Any], Any] | None = None
    cli_default: Any = None
    #: more of typer's option settings (``min``, ``max``)
    kw: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: the values the option takes, checked by ``Description.validate`` (``None`` passes):
    #: a tuple, or ``"module:NAME"`` of one, imported only when a value is checked
    choices: tuple[str, ...] | str | None = None

    def field(self, default: Any = dataclasses.MISSING, *, factory: Any = dataclasses.MISSING):
        """The dataclass field with this flag (``factory``: a default made per instance)."""
        return dataclasses.field(default=default, default_factory=factory, metadata={KEY: self})

    def but(self, **changes: Any) -> Flag:
        """This flag with other names, help or section (the same option, said for one run)."""
        return dataclasses.replace(self, **changes)

    def check(self, value: Any) -> None:
        """Refuse a value outside :attr:`choices` (each item of a list), naming the option
        and the closest choice.

        Examples
        --------
        >>> flag("--ties", help="", panel=ORANGE, choices=("mid", "max")).check("mdi")
        Traceback (most recent call last):
        ...
        mtpalette.errors.UserInputError: --ties must be one of mid, max (got 'mdi'). Did you ...
        """
        if self.choices is None or value is None:
            return
        allowed = self.choices
        if isinstance(allowed, str):
            import importlib

            module, _, name = allowed.partition(":")
            allowed = tuple(getattr(importlib.import_module(module), name))
        for item in value if isinstance(value, list) else [value]:
            if item not in allowed:
                raise UserInputError(
                    f"{self.names[0]} must be one of {', '.join(allowed)} (got {item!r})."
                    f"{did_you_mean(str(item), allowed)}"
                )


def flag(*names: str, help: str, panel: str, **settings: Any) -> Flag:
    """A :class:`Flag` named ``names`` (as typer takes them) in the help section ``panel``."""
    return Flag(names, help, panel, **settings)


#: an option given as ``on`` or ``off`` (``--chance off``)
Switch = enum.StrEnum("Switch", {"on": "on", "off": "off"})


def choice(*values: str) -> type[enum.StrEnum]:
    """An option's type offering only ``values`` (``parse=str`` turns it back into a string).

    Examples
    --------
    >>> [str(v) for v in choice("tsv", "json")]
    ['tsv', 'json']
    """
    return enum.StrEnum("Choice", {v: v for v in values})


def is_on(value: Any) -> bool:
    """A :data:`Switch` option's value as a bool."""
    return value == Switch.on


def split_list(value: Any) -> list[str]:
    """A comma-separated option as a list (each item of a list split too; empty items dropped).

    Examples
    --------
    >>> split_list("pearson, kendall,"), split_list(["en-de,zh-en", "ja-en"])
    (['pearson', 'kendall'], ['en-de', 'zh-en', 'ja-en'])
    """
    items = [value] if isinstance(value, str) else value
    return [s.strip() for item in items for s in item.split(",") if s.strip()]


def parse_epsilon(text: str | float | None) -> float | None:
    """``--epsilon``: ``None`` or ``cal`` -> calibrate; a number -> a fixed metric tie threshold.

    Examples
    --------
    >>> parse_epsilon("cal"), parse_epsilon("0.5")
    (None, 0.5)
    """
    if text is None or str(text).strip().lower() in ("cal", "calibrate", "auto"):
        return None
    try:
        value = float(text)
    except ValueError:
        raise UserInputError(f"--epsilon must be a number or 'cal', got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise UserInputError("--epsilon must be 0 or more")
    return value


# ----- shared by several runs --------------------------------------------------------------------
METRIC_SPECS = flag(
    "-m", "--metrics", panel=METRICS, help="Metric specs: -m 'bleus:1..9' chrf wer."
)  # fmt: skip
SCORES = flag(
    "--scores", panel=METRICS,
    help="Metric scores from a file: NAME=PATH[,higher=no][,layout=mtme].",
)  # fmt: skip
TOKENIZE = flag(
    "--tokenize", "-tok", panel=METRICS,
    help="13a, intl, zh, ja-mecab, ko-mecab, jieba, char, none.",
)  # fmt: skip
LOWERCASE = flag("--lowercase", "-lc", panel=METRICS, help="Lower-case first.")
BOOTSTRAP = flag("--bootstrap", panel=RESAMPLING, help="Bootstrap resamples (0: none).")
SEED = flag("--seed", panel=RESAMPLING, help="Seed of the resampling.")
CONFIDENCE = flag("--confidence", panel=RESAMPLING, help="Interval coverage (0.95).")
MAX_ITEMS = flag("--max-items", panel=INPUTS, help="Use the first N segments only.")
SOURCE = flag(
    "--source", panel=INPUTS, help="Source sentences (--pivot; plugins that read them)."
)  # fmt: skip
P_CONVENTION = flag(
    "--p-convention", panel=RESAMPLING, choices="mtpalette.stats.permutation:P_CONVENTIONS",
    help="Permutation p-value: plus-one ((count + 1) / (k + 1)) or mtme (count / k).",
)  # fmt: skip
CORRECTION = flag(
    "--correction", panel=RESAMPLING, choices="mtpalette.stats.ranking:CORRECTIONS",
    help="none, holm (FWER) or bh (FDR) over pairs.",
)  # fmt: skip
ALPHA = flag("--alpha", panel=RESAMPLING, help="Significance level (0.05).")
GROUPING = flag("--grouping", panel=CORRELATION, help="none, item or system.")
EPSILON = flag(
    "--epsilon", panel=CORRELATION, help="acc-eq/tau-eq threshold, or 'cal'.", cli=str | None,
    parse=parse_epsilon,
)
ORACLE = flag("--oracle", panel=ORANGE, help="leave-one-out or average-score.")
TIES = flag("--ties", panel=ORANGE, help="mid, optimistic, pessimistic.")
MIN_CANDIDATES = flag("--min-candidates", panel=INPUTS, help="Leave out shorter lists.")
MAX_CANDIDATES = flag("--max-candidates", panel=INPUTS, help="Keep the first N of each list.")
EXPORT_MTME = flag(
    "--export-mtme", panel=OUTPUTS,
    help="--export-scores in mt-metrics-eval's layout, for this language pair (zh-en).",
)  # fmt: skip
STATISTICS = flag(
    "--stat", panel=CORRELATION, help="Comma-separated statistics.", cli=str, parse=split_list
)
OUT_DIR = flag("--out-dir", panel=OUTPUTS, help="Write run.json and the tables here.")
JSON = flag("--json", panel=OUTPUTS, help="Run file (JSON).")
CSV = flag("--csv", panel=OUTPUTS, help="Table(s) as CSV.")
HOLDOUT = flag("--holdout", panel=TRAINING, help="Fraction held out for testing.")
REPORT = flag("--report", panel=OUTPUTS, help="Also write an HTML report.")
BACKEND = flag(
    "--backend", panel=RUNNING,
    help="inproc, processes or dask. On one machine inproc is fastest (the kernels use every "
    "core; bench/bench_backends.py); workers pay off across machines.",
)  # fmt: skip
WORKERS = flag(
    "--workers", panel=RUNNING, help="Local workers (processes, or a local Dask cluster)."
)
SCHEDULER = flag(
    "--scheduler", panel=RUNNING,
    help="Dask scheduler (tcp://host:8786; default $DASK_SCHEDULER_ADDRESS with --backend dask).",
)  # fmt: skip
# ----- the span commands' (spans, errorfree) ------------------------------------------------
SPAN_FORMAT = flag("--format", panel=INPUTS, help="The files' format (detected).")
CLIP = flag("--clip", panel=INPUTS, help="Cut spans to their text (organisers').")
ON_MISSING = flag(
    "--on-missing", panel=INPUTS, choices="mtpalette.metaeval.spans:MISSING_RULES",
    help="Keys one side lacks: refuse, or common (score the shared).",
)  # fmt: skip
ROWS_TSV = flag("--tsv", panel=OUTPUTS, help="Rows as TSV (-: stdout).")
ROWS_LATEX = flag("--latex", panel=OUTPUTS, help="The 'all' rows as LaTeX.")
