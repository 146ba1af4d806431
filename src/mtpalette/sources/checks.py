"""Validation shared by every run of the API: metric lists, reference streams, resampling
settings, and the conversion of a library ``ValueError`` into a :class:`UserInputError`.

The messages name the command-line option where there is one (``--bootstrap``), so that the
Python API and the command line refuse the same input with the same words.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from mtpalette.errors import UserInputError, repeated

if TYPE_CHECKING:
    from mtpalette.metrics.scoring import TextPairs

T = TypeVar("T")


def checked(fn: Callable[..., T], *args, **kwargs) -> T:
    """``fn(*args, **kwargs)`` with a bad argument reported as a :class:`UserInputError`.

    Examples
    --------
    >>> checked(int, "12")
    12
    >>> checked(int, "x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: invalid literal for int() with base 10: 'x'
    """
    try:
        return fn(*args, **kwargs)
    except ValueError as exc:
        raise UserInputError(str(exc)) from None


def metric_specs(metrics: Sequence[str] | str, *, required: bool = True) -> list[str]:
    """The metric specs as a list (one string is one spec); with ``required``, none is refused.

    Examples
    --------
    >>> metric_specs("bleu"), metric_specs(["bleu", "wer"])
    (['bleu'], ['bleu', 'wer'])
    """
    if metrics is None:
        if not required:
            return []
        raise UserInputError("metrics is None; expected a metric spec or a list of them")
    if not isinstance(metrics, str) and not hasattr(metrics, "__iter__"):
        raise UserInputError(f"metrics is {type(metrics).__name__}; expected a list of specs")
    specs = [metrics] if isinstance(metrics, str) else list(metrics)
    if required and not specs:
        raise UserInputError("no metric given; e.g. metrics=['bleu', 'chrf']")
    for spec in specs:
        if not isinstance(spec, str):
            raise UserInputError(f"a metric spec must be a string, got {type(spec).__name__}")
    return specs


def min_resamples(confidence: float) -> int:
    """The fewest bootstrap resamples that leave at least one resample in each tail beyond
    a percentile interval at ``confidence``.

    Examples
    --------
    >>> min_resamples(0.95), min_resamples(0.99)
    (40, 200)
    """
    return math.ceil(round(2.0 / (1.0 - confidence), 9))


#: sacrebleu's default seed of resampling (as mtpalette.stats.paired.SACREBLEU_SEED): the
#: command line's default, here so that ``mtpalette score`` imports the paired tests only
#: when it runs one
SACREBLEU_SEED = 12345


def check_resampling(
    *,
    bootstrap: int | None = None,
    confidence: float = 0.95,
    seed: int | None = None,
    permutations: int | None = None,
    least: int | None = None,
) -> None:
    """Refuse resampling settings that would print a meaningless interval or fail later.

    Examples
    --------
    >>> check_resampling(bootstrap=1000, seed=1)
    >>> check_resampling(bootstrap=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: --bootstrap 1 is too few for a 95% interval: ...
    """
    import numpy as np

    if not 0.0 < confidence < 1.0:
        raise UserInputError(f"--confidence must be between 0 and 1 (got {confidence}), e.g. 0.95")
    if bootstrap is not None:
        if isinstance(bootstrap, bool) or not isinstance(bootstrap, int | np.integer):
            raise UserInputError(f"the number of resamples must be an integer, got {bootstrap!r}")
        least = min_resamples(confidence) if least is None else least
        if bootstrap < 0:
            raise UserInputError(f"--bootstrap must be 0 (no interval) or more (got {bootstrap})")
        if 0 < bootstrap < least:
            raise UserInputError(
                f"--bootstrap {bootstrap} is too few for a {confidence:.0%} interval: use 0 "
                f"(no interval) or at least {least} (1000 recommended)"
            )
    if permutations is not None and permutations < 0:
        raise UserInputError(f"--permutations must be 0 (no test) or more (got {permutations})")
    if seed is not None and not isinstance(seed, int | np.integer | np.random.Generator):
        raise UserInputError(f"--seed must be an integer, got {seed!r}")
    if isinstance(seed, int | np.integer) and not 0 <= seed < 2**63:
        raise UserInputError(f"--seed must be between 0 and 2**63 - 1 (got {seed})")


def bootstrap_of(run: Any) -> dict[str, Any]:
    """The bootstrap settings of a run description (``bootstrap``, ``confidence``, ``seed``)
    as the library's keyword arguments.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> bootstrap_of(SimpleNamespace(bootstrap=100, confidence=0.9, seed=1))
    {'n_resamples': 100, 'confidence': 0.9, 'seed': 1}
    """
    return {"n_resamples": run.bootstrap, "confidence": run.confidence, "seed": run.seed}


def sources(srcs: Sequence[str], n: int) -> list[str]:
    """One source sentence per segment, or a :class:`UserInputError`."""
    srcs = list(srcs)
    if len(srcs) != n or not all(isinstance(s, str) for s in srcs):
        raise UserInputError(f"srcs must hold one string per segment ({n}), got {len(srcs)}")
    return srcs


def as_systems(systems: Any) -> Any:
    """``{system: outputs}`` from a pandas DataFrame (a column per system, a row per
    segment); anything else as given.

    Examples
    --------
    >>> import pandas as pd
    >>> as_systems(pd.DataFrame({"A": ["a b", "c"], "B": ["a", "c d"]}))
    {'A': ['a b', 'c'], 'B': ['a', 'c d']}

    Two columns of one name, or two keys of one name (``1`` and ``"1"``), are refused: one
    system would take the other's place.
    """
    if _is_frame(systems):
        names = [str(c) for c in systems.columns]
        twice = repeated(names)
        if twice:
            raise UserInputError(f"the DataFrame has two columns named {', '.join(twice)}: "
                                 "name each system's column once")  # fmt: skip
        return {n: systems.iloc[:, k].tolist() for k, n in enumerate(names)}
    if isinstance(systems, Mapping):
        names = [str(k) for k in systems]
        twice = repeated(names)
        if twice:
            keys = ", ".join(repr(k) for k in systems if str(k) in twice)
            raise UserInputError(f"two systems are named {', '.join(twice)} (keys {keys})")
    return systems


def system_outputs(systems: Mapping[str, Sequence[str]]) -> tuple[list[str], list[list[str]]]:
    """The names and outputs of ``{system: outputs}`` (or a DataFrame, a column per system),
    every system as long as the first."""
    systems = as_systems(systems)
    if not isinstance(systems, Mapping) or not systems:
        raise UserInputError("systems must be a non-empty dict: system name -> its outputs")
    names = [str(name) for name in systems]
    outputs: list[list[str]] = []
    for name, hyps in systems.items():
        if isinstance(hyps, str):
            raise UserInputError(f"system {name!r}: expected a list of outputs, got a string")
        hyps = list(hyps)
        if outputs and len(hyps) != len(outputs[0]):
            raise UserInputError(
                f"system {name!r} has {len(hyps)} segments, {names[0]!r} has {len(outputs[0])}"
            )
        outputs.append(hyps)
    return names, outputs


def as_list(value: Any, name: str, expected: str) -> list:
    """``value`` as a list: lists, tuples, numpy arrays, pandas Series and generators are
    taken; None, a mapping or a scalar is refused with the argument's name.

    Examples
    --------
    >>> import numpy as np
    >>> as_list(np.array(["a", "b"]), "hyps", "a list of strings")
    ['a', 'b']
    >>> as_list(None, "hyps", "a list of strings")
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: hyps is None; expected a list of strings
    """
    if value is None:
        raise UserInputError(f"{name} is None; expected {expected}")
    if _is_frame(value):  # iterating a DataFrame gives its column names: never wanted here
        columns = [str(c) for c in value.columns]
        if len(columns) != 1:
            raise UserInputError(
                f"{name} is a DataFrame with columns {', '.join(columns) or '(none)'}; expected "
                f"{expected}: give one column, e.g. df[{columns[0] if columns else 'col'!r}]"
            )
        value = value.iloc[:, 0]
    if isinstance(value, Mapping | str | bytes) or not hasattr(value, "__iter__"):
        raise UserInputError(f"{name} is {type(value).__name__}; expected {expected}")
    if hasattr(value, "tolist"):  # numpy arrays, pandas Series: plain Python values
        value = value.tolist()
    return list(value)


def probability_argument(value: Any, name: str) -> float:
    """A level or coverage strictly between 0 and 1 (``alpha``), refused naming the argument.

    Examples
    --------
    >>> probability_argument(0.05, "alpha")
    0.05
    >>> probability_argument("0.05", "alpha")
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: alpha is '0.05'; expected a number between 0 and 1
    """
    import numpy as np

    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise UserInputError(f"{name} is {value!r}; expected a number between 0 and 1")
    if not 0.0 < value < 1.0:
        raise UserInputError(f"{name} must be between 0 and 1 (got {value})")
    return float(value)


def _is_frame(value: Any) -> bool:
    """Whether ``value`` is a pandas DataFrame (without importing pandas)."""
    return type(value).__name__ == "DataFrame" and hasattr(value, "columns")


def count_argument(
    value: Any, name: str, *, allow_none: bool = True, sign_later: bool = False
) -> int | None:
    """A number of resamples or trials: an integer >= 0 (numpy's too), or None when allowed;
    anything else (a float, a bool, a string) refused naming the argument (``sign_later``: a
    negative integer passed on, for a later check to word).

    Examples
    --------
    >>> count_argument(1000, "n_resamples")
    1000
    >>> count_argument(100.5, "n_trials")
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: n_trials is 100.5; expected a whole number (0 or more)
    """
    import numpy as np

    if value is None and allow_none:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int | np.integer)
        or (value < 0 and not sign_later)
    ):
        raise UserInputError(f"{name} is {value!r}; expected a whole number (0 or more)")
    return int(value)


_STR, _STR_OR_NONE = frozenset({str}), frozenset({str, type(None)})


def _only_types(values: list, types: frozenset) -> bool:
    """Whether every value's type is one of ``types`` exactly: a check in compiled loops that
    spares the slower ``isinstance`` pass over the usual lists of plain strings."""
    return set(map(type, values)) <= types


def text_pairs(hyps: Sequence[str], refs: Sequence[Sequence[str | None]]) -> TextPairs:
    """Hypotheses and reference streams checked for shape and type, as :class:`TextPairs`.

    Examples
    --------
    >>> text_pairs(["a b", "c"], [["a b", None], ["a", "c"]]).n_refs
    2
    """
    from mtpalette.metrics.scoring import TextPairs

    if isinstance(hyps, str):
        raise UserInputError("hyps must be a list of strings (one per segment), not a string")
    hyps = as_list(hyps, "hyps", "a list of strings (one per segment)")
    if not hyps:
        raise UserInputError("no segments: hyps is empty")
    if not _only_types(hyps, _STR) and not all(isinstance(h, str) for h in hyps):
        i = next(i for i, h in enumerate(hyps) if not isinstance(h, str))
        raise UserInputError(f"hyps[{i}] is {type(hyps[i]).__name__}, expected a string")
    if isinstance(refs, str):
        raise UserInputError("refs must be a non-empty list of reference streams")
    if _is_frame(refs):  # one reference stream per column
        refs = [refs[c] for c in refs.columns]
    refs = as_list(refs, "refs", "a list of reference streams (lists of strings)")
    if not refs:
        raise UserInputError("refs must be a non-empty list of reference streams")
    streams, gaps = [], []
    for k, ref in enumerate(refs):
        if isinstance(ref, str):
            raise UserInputError(
                "refs must be a list of reference streams (one list of strings per reference), "
                f"but refs[{k}] is a string; with one reference per segment write refs=[refs]"
            )
        ref = as_list(ref, f"refs[{k}]", "a list of strings (one per segment)")
        if len(ref) != len(hyps):
            raise UserInputError(
                f"reference stream {k + 1} has {len(ref)} segments, the hypotheses {len(hyps)}"
            )
        types = set(map(type, ref))  # one pass: the type check, and whether a None is there
        if not types <= _STR_OR_NONE and not all(r is None or isinstance(r, str) for r in ref):
            i, r = next((i, r) for i, r in enumerate(ref) if not (r is None or isinstance(r, str)))
            raise UserInputError(f"refs[{k}][{i}] is {type(r).__name__}, expected a string or None")
        streams.append(ref)
        gaps.append(type(None) in types)
    check_distinct_references(streams, [f"refs[{k}]" for k in range(len(streams))])
    if all(gaps):  # else every segment has a reference
        for i in range(len(hyps)):
            if all(ref[i] is None for ref in streams):
                raise UserInputError(f"segment {i + 1} has no reference (every stream has None)")
    return TextPairs.parallel(hyps, streams)


def reference_streams(refs: Any) -> list[list[str]]:
    """Reference streams (``refs[k][s]``) as lists, each given once (see
    :func:`check_distinct_references`); None or a flat list of strings is refused.

    Examples
    --------
    >>> reference_streams((["a", "b"], ["c", "d"]))
    [['a', 'b'], ['c', 'd']]
    """
    if _is_frame(refs):  # one reference stream per column
        return reference_streams([refs[c] for c in refs.columns])
    streams = as_list(refs, "refs", "a list of reference streams (lists of strings)")
    for k, ref in enumerate(streams):
        if isinstance(ref, str):
            raise UserInputError(
                f"refs[{k}] is a string; refs is a list of reference streams (one list of "
                "strings per reference)"
            )
        streams[k] = as_list(ref, f"refs[{k}]", "a list of strings (one per segment)")
    check_distinct_references(streams, [f"refs[{k}]" for k in range(len(streams))])
    return streams


def check_not_degenerate(human: Any, level: str) -> None:
    """Refuse human scores that make every correlation undefined or meaningless: all equal
    (every statistic NaN), or fewer than 3 systems at system level (two points always
    correlate at +1 or -1, whatever the metric).

    Examples
    --------
    >>> check_not_degenerate([[1.0, float("nan")], [2.0, 3.0]], "segment")
    >>> check_not_degenerate([[1.0, 1.0], [1.0, float("nan")]], "segment")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: every human score is 1: no correlation is defined ...
    """
    import numpy as np

    h = np.asarray(human, dtype=np.float64)
    rated = h[~np.isnan(h)]
    if rated.size and np.all(rated == rated[0]):
        raise UserInputError(
            f"every human score is {rated[0]:g}: no correlation is defined with constant "
            "human scores"
        )
    if level == "system":
        n = h.shape[0] if h.ndim > 1 else h.size
        if n < 3:
            raise UserInputError(
                f"system level needs at least 3 systems, got {n}: with 2 every metric "
                "correlates at +1 or -1"
            )


def check_distinct_references(streams: Sequence[Sequence[str | None]], names: Sequence[str]):
    """Refuse a reference given twice (the same file, or the same text under two names): it
    would count as two independent references (``nrefs:2``; ORANGE ranks a reference among
    candidates against its own copy).

    Examples
    --------
    >>> check_distinct_references([["a"], ["a"]], ["r1.txt", "r2.txt"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: references r1.txt and r2.txt hold the same text; ...
    """
    if len(streams) < 2:
        return  # nothing to compare (and no tuple of a whole stream to hash)
    seen: dict[tuple, str] = {}
    for stream, name in zip(streams, names, strict=True):
        key = tuple(stream)
        if key in seen:
            raise UserInputError(
                f"references {seen[key]} and {name} hold the same text; give each reference "
                "once (two copies are not two references)"
            )
        seen[key] = name


def drop_reference_copies(
    systems: Mapping[str, Sequence[str]],
    streams: Sequence[Sequence[str | None]],
    names: Sequence[str],
    note: Callable[[str], None],
) -> dict[str, Sequence[str]]:
    """``systems`` without those whose every line equals a reference's (said in one ``note``):
    a reference is not a system (ORANGE would rank it against itself, scoring gives 100).

    Examples
    --------
    >>> drop_reference_copies({"A": ["x", "y"], "B": ["x", "z"]}, [["x", "y"]], ["ref.txt"],
    ...                       print)
    note: left out, a copy of a reference: A (= ref.txt)
    {'B': ['x', 'z']}
    """
    by_text = {tuple(s): n for s, n in zip(streams, names, strict=True)}
    copies = {sys: by_text[tuple(out)] for sys, out in systems.items() if tuple(out) in by_text}
    if copies:
        note(
            "note: left out, a copy of a reference: "
            + ", ".join(f"{s} (= {r})" for s, r in copies.items())
        )
    return {s: out for s, out in systems.items() if s not in copies}
