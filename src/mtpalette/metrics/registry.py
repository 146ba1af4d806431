"""Spec strings: ``family[:arg][,key=value...]``, with grids, mapped to metric objects.

Grammar (one spec):

* ``bleus`` - the family with default parameters;
* ``bleus:6`` - the family's positional parameter (``n`` for BLEU-S, ``a`` for ROUGE-W...);
* ``bleu:smooth=exp,n=4`` or ``bleus:4,eff=yes`` - keyword parameters;
* grids in any value: ``1..9`` (step 1), ``1.1..2.0/0.1`` (a step), ``0..9|*`` or
  ``0..9,*`` for the positional (a list, ``|`` anywhere), so ``bleus:1..9`` is nine metrics
  and ``rouge-s:0..9,*`` eleven. Several grids expand to their product.
"""

from __future__ import annotations

import importlib
import itertools
import math
from decimal import Decimal, InvalidOperation
from typing import Any

from mtpalette.errors import UserInputError, did_you_mean
from mtpalette.metrics.base import Metric
from mtpalette.metrics.domains import Text, YesNo

_REGISTRY: dict[str, type[Metric]] = {}

#: the most metrics one spec may expand to (a grid with a tiny step is a typo, not a run)
MAX_GRID = 10_000

#: the module (in :mod:`mtpalette.metrics`) of every built-in family, imported when the family
#: is first named: a run imports only the metrics it uses
BUILTIN_FAMILIES: dict[str, str] = {
    "bleu": "bleu",
    "bleus": "bleu",
    "chrf": "chrf",
    "nist": "nist",
    "wer": "edit",
    "per": "edit",
    "ter": "ter",
    "gtm": "gtm",
    "rouge-n": "rouge",
    "rouge-l": "rouge",
    "rouge-lsum": "rouge_lsum",
    "rouge-w": "rouge",
    "rouge-s": "rouge",
    "rouge-su": "rouge",
    "blanc": "blanc",
    "rose": "rose",
    "plugin": "plugin",
    "bleus-syn": "synonym",
    "rouge-l-syn": "synonym",
    "rouge-s-syn": "synonym",
    "len": "length",
    "lendiff": "length",
}

#: sacrebleu's names for metric settings, as spec names (lower case; specs are read so):
#: ``chrf++`` is chrF with word order 2 (sacrebleu's ``chrF2++``)
ALIASES: dict[str, tuple[str, dict[str, str]]] = {
    "chrf++": ("chrf", {"w": "2"}),
    "chrf2": ("chrf", {}),
    "chrf2++": ("chrf", {"w": "2"}),
}


def register(cls: type[Metric]) -> type[Metric]:
    """Class decorator: make ``cls`` available under ``cls.name`` in spec strings."""
    if cls.name in _REGISTRY and _REGISTRY[cls.name] is not cls:
        raise ValueError(f"metric name {cls.name!r} registered twice")
    _REGISTRY[cls.name] = cls
    return cls


def known_metrics() -> list[str]:
    """Names of every metric family (built in, or registered), sorted."""
    return sorted(set(_REGISTRY) | set(BUILTIN_FAMILIES))


def registered(specs: list[str]) -> tuple[list[str], list[str]]:
    """The specs whose metric family is registered (built in or a plugin's), and the others.

    Examples
    --------
    >>> registered(["bleus:1..4", "no-such-family:3", "rouge-s:0..9,*"])
    (['bleus:1..4', 'rouge-s:0..9,*'], ['no-such-family:3'])
    """
    known = set(known_metrics())
    ok = [s for s in specs if s.split(":")[0].split(",")[0].strip().lower() in known]
    return ok, [s for s in specs if s not in ok]


def metric_class(name: str) -> type[Metric]:
    if name not in _REGISTRY and name in BUILTIN_FAMILIES:
        importlib.import_module(f"mtpalette.metrics.{BUILTIN_FAMILIES[name]}")
    try:
        return _REGISTRY[name]
    except KeyError:
        hint = did_you_mean(name, [*known_metrics(), *ALIASES])
        raise UserInputError(
            f"unknown metric {name!r}; known metrics: {', '.join(known_metrics())} (and "
            f"sacrebleu's names {', '.join(ALIASES)}).{hint}"
        ) from None


def expand_values(text: str) -> list[str]:
    """Expand a grid expression into its values, as strings.

    Examples
    --------
    >>> expand_values("1..4")
    ['1', '2', '3', '4']
    >>> expand_values("1.1..1.5/0.2|*")
    ['1.1', '1.3', '1.5', '*']
    """
    out: list[str] = []
    for item in text.split("|"):
        item = item.strip()
        if ".." not in item or item.startswith("@"):  # a value, or a file path
            out.append(item)
            continue
        lo_text, hi_text = item.split("..", 1)
        step_text = None
        if "/" in hi_text:
            hi_text, step_text = hi_text.split("/", 1)
        try:
            lo, hi = Decimal(lo_text), Decimal(hi_text)
            step = Decimal(step_text) if step_text is not None else Decimal(1)
        except InvalidOperation:
            raise UserInputError(
                f"bad range {item!r}: expected LOW..HIGH or LOW..HIGH/STEP"
            ) from None
        if step_text is None and (lo != lo.to_integral_value() or hi != hi.to_integral_value()):
            raise UserInputError(
                f"bad range {item!r}: a decimal range needs a step (LOW..HIGH/STEP, "
                f"e.g. {lo_text}..{hi_text}/0.1)"
            )
        if not (lo.is_finite() and hi.is_finite() and step.is_finite()) or step <= 0 or hi < lo:
            raise UserInputError(f"bad range {item!r}: need LOW <= HIGH and a positive STEP")
        count = int((hi - lo) / step) + 1
        if count + len(out) > MAX_GRID:
            raise UserInputError(
                f"range {item!r} gives {count:,} values; at most {MAX_GRID:,} per spec"
            )
        value = lo
        while value <= hi:
            out.append(str(value))
            value += step
    return out


def _split_spec(spec: str) -> tuple[str, list[str], dict[str, str]]:
    name, _, rest = spec.strip().partition(":")
    if "," in name:  # "rouge-l,beta=2": options without a positional argument
        name, _, head = name.partition(",")
        rest = f"{head},{rest}" if rest else head
    positional: list[str] = []
    keywords: dict[str, str] = {}
    if rest:
        for part in rest.split(","):
            part = part.strip()
            if "=" in part:
                key, _, value = part.partition("=")
                if key.strip() in keywords:  # which one to take would be a guess
                    raise UserInputError(f"metric spec {spec!r}: {key.strip()} is given twice")
                keywords[key.strip()] = value.strip()
            else:
                positional.append(part)
    return name.strip().lower(), positional, keywords


def parse_spec(spec: str, **common: Any) -> list[Metric]:
    """All metrics named by one spec string (a grid gives several).

    ``common`` holds run-wide settings (``tokenize``, ``lowercase``) that a spec keyword may
    override.

    Examples
    --------
    >>> [m.spec for m in parse_spec("bleus:1..3")]
    ['bleus:1', 'bleus:2', 'bleus:3']
    >>> [m.spec for m in parse_spec("chrF++")], [m.spec for m in parse_spec("chrf++:beta=3")]
    (['chrf:w=2'], ['chrf:w=2,beta=3'])
    """
    name, positional, keywords = _split_spec(spec)
    if name in ALIASES:
        name, defaults = ALIASES[name]
        keywords = {**defaults, **keywords}
    cls = metric_class(name)
    if positional:
        if cls.positional is None:
            raise UserInputError(f"metric {name!r} takes no positional argument (in {spec!r})")
        keywords[cls.positional] = "|".join(positional)
    allowed = dict(cls.options)
    allowed.setdefault("tok", Text("a tokenizer name"))
    allowed.setdefault("lc", YesNo())
    for key in keywords:
        if key not in allowed:
            raise UserInputError(
                f"metric {name!r} has no option {key!r} (in {spec!r}); "
                f"its options: {', '.join(sorted(allowed))}"
            )
    grid = [[(k, v) for v in expand_values(text)] for k, text in keywords.items()]
    size = math.prod(len(values) for values in grid)
    if size > MAX_GRID:
        raise UserInputError(f"{spec!r} expands to {size:,} metrics; at most {MAX_GRID:,}")
    metrics = []
    for combo in itertools.product(*grid):
        kwargs = dict(common)
        for key, text in combo:
            try:
                value = allowed[key](text)
            except (ValueError, TypeError) as exc:
                raise UserInputError(f"bad value {text!r} for {key!r} in {spec!r}: {exc}") from None
            if isinstance(value, float) and not math.isfinite(value):
                raise UserInputError(f"bad value {text!r} for {key!r} in {spec!r}: not finite")
            target = {"tok": "tokenize", "lc": "lowercase"}.get(key, key)
            kwargs[target] = value
        try:
            metric = cls(**kwargs)
        except ValueError as exc:
            raise UserInputError(f"bad metric spec {spec!r}: {exc}") from None
        metric.spec_view = {
            key: kwargs[{"tok": "tokenize", "lc": "lowercase"}[key]]
            for key, _ in combo
            if key in ("tok", "lc")
        }
        metrics.append(metric)
    return metrics


def parse_specs(specs: list[str], **common: Any) -> list[Metric]:
    """Parse several specs, keeping order and dropping duplicates."""
    return list(parse_named_specs(specs, **common).values())


def parse_named_specs(specs: list[str], **common: Any) -> dict[str, Metric]:
    """Parse several specs into ``{name: metric}``: the name is the spec as the user spelled
    it (``chrf++``) when it names one metric, the canonical spec of each metric of a grid;
    order kept, duplicates (the same metric spelled twice) dropped, the first name kept.

    Examples
    --------
    >>> {k: m.spec for k, m in parse_named_specs(["chrF++", "bleus:1..2", "chrf:w=2"]).items()}
    {'chrF++': 'chrf:w=2', 'bleus:1': 'bleus:1', 'bleus:2': 'bleus:2'}

    The run-wide ``tokenize`` is checked here, once: a metric that never tokenizes (chrF)
    would otherwise take an unknown name without a word.
    """
    if isinstance(common.get("tokenize"), str):
        from mtpalette.text.tokenizers import get_tokenizer

        get_tokenizer(common["tokenize"])
    out: dict[str, Metric] = {}
    seen: set[Metric] = set()
    for spec in specs:
        metrics = parse_spec(spec, **common)
        for metric in metrics:
            if metric in seen:
                continue
            seen.add(metric)
            name = spec.strip() if len(metrics) == 1 else metric.spec
            out[name if name not in out else metric.spec] = metric
    return out
