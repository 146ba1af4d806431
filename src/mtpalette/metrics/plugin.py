"""Any Python function as a metric: ``plugin:package.module:function`` or an entry point.

A plugin scores batches of raw text::

    def my_metric(hyps: list[str], refs: list[list[str]]) -> list[float]:
        ...  # refs[i]: the references of hyps[i] (one or more)

    my_metric.higher_is_better = True   # optional (default True)
    my_metric.version = "1.2"           # optional (default: the package's version)

It is then a metric like any other - ORANGE, correlations, significance, grids of the run -
named ``plugin:package.module:function`` (options ``higher=yes|no`` override the function's
direction, ``batch=N`` sets the batch size, 256 by default). An installed package may instead
declare an entry point in the group ``mtpalette.metrics`` (``name = "pkg.mod:function"``) and
be named ``plugin:name``.

The signature records the target, the package version and the direction. Texts are passed as
read (the run's tokenizer does not apply: a neural metric tokenizes for itself), each distinct
(candidate, references) pair once. The function must return one finite number per candidate.

COMET, for instance (on a machine with ``unbabel-comet`` and its model)::

    # mycomet.py
    from comet import download_model, load_from_checkpoint
    _model = load_from_checkpoint(download_model("Unbabel/wmt22-comet-da"))

    def comet(hyps, refs, srcs):
        data = [{"src": s, "mt": h, "ref": r[0]} for h, r, s in zip(hyps, refs, srcs)]
        return _model.predict(data, batch_size=64, gpus=0).scores

    # mtpalette score -r ref.txt -i hyp.txt --source src.txt -m plugin:mycomet:comet

A function with a ``srcs`` parameter receives the source sentence of each candidate when the
run has sources (``score --source FILE``, :func:`mtpalette.api.score_texts` ``srcs=``); one
that requires them refuses a run without. (ORANGE and correlation runs pass no sources yet.)
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any, ClassVar

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metrics.base import Metric, TextMetric
from mtpalette.metrics.domains import Integer, Text, YesNo
from mtpalette.metrics.registry import register

ENTRY_POINT_GROUP = "mtpalette.metrics"


def load_target(target: str) -> Callable[..., Any]:
    """The function named ``module:function`` (dots allowed in both), or an entry point."""
    if ":" not in target:
        from importlib import metadata  # only here: it costs a CLI start 40 ms

        found = [ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP) if ep.name == target]
        if not found:
            raise UserInputError(
                f"plugin {target!r}: expected module:function, or the name of an entry point "
                f"in the group {ENTRY_POINT_GROUP!r} (none is called so)"
            )
        return found[0].load()
    module_name, _, attr = target.partition(":")
    import os
    import sys

    if os.getcwd() not in sys.path and "" not in sys.path:  # as `python -m` would find it
        sys.path.insert(0, os.getcwd())
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise UserInputError(f"plugin {target!r}: cannot import {module_name!r}: {exc}") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise UserInputError(f"plugin {target!r}: {module_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise UserInputError(f"plugin {target!r} is not callable")
    return obj


def _srcs_parameter(fn: Callable[..., Any]) -> tuple[bool, bool]:
    """Whether ``fn`` takes a ``srcs`` parameter, and whether it requires one.

    Examples
    --------
    >>> _srcs_parameter(lambda hyps, refs: 0), _srcs_parameter(lambda hyps, refs, srcs=None: 0)
    ((False, False), (True, False))
    """
    import inspect

    try:
        param = inspect.signature(fn).parameters.get("srcs")
    except (TypeError, ValueError):  # builtins without a signature
        return False, False
    if param is None:
        return False, False
    return True, param.default is inspect.Parameter.empty


def _version(fn: Callable[..., Any]) -> str:
    if getattr(fn, "version", None):
        return str(fn.version)
    top = (getattr(fn, "__module__", "") or "").split(".")[0]
    from importlib import metadata

    try:
        return metadata.version(top)
    except metadata.PackageNotFoundError:
        module = importlib.import_module(top) if top else None
        return str(getattr(module, "__version__", "unknown"))


@register
class Plugin(TextMetric):
    """A Python function scoring (candidate, references) text pairs."""

    name = "plugin"
    positional = "target"
    options: ClassVar[dict[str, Any]] = {
        "target": Text("module:function"),
        "higher": YesNo(),
        "batch": Integer(1, 1_000_000),
    }
    scale = "plugin"

    def __init__(
        self, *, target: str = "", higher: bool | None = None, batch: int = 256, **common: Any
    ) -> None:
        super().__init__(**common)
        if not target:
            raise ValueError("name the function: plugin:module:function")
        if batch < 1:
            raise ValueError("batch must be >= 1")
        self.target, self.batch = target, batch
        self.fn = load_target(target)
        default = bool(getattr(self.fn, "higher_is_better", True))
        self._higher = default if higher is None else higher
        self._higher_given = higher is not None

    @property
    def higher_is_better(self) -> bool:  # type: ignore[override]
        return self._higher

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {"target": self.target}
        if self._higher_given:
            out["higher"] = self._higher
        return out

    def signature_fields(self) -> dict[str, Any]:
        return {"plugin_version": _version(self.fn), "higher": self._higher, "text": "raw"}

    def group_key(self) -> Hashable:
        return ("plugin", self.target, self._higher, self.batch)

    def score_texts(
        self,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str]],
        srcs: Sequence[str] | None = None,
    ) -> np.ndarray:
        """Call the function batch by batch; check one finite number per candidate. A
        function with a ``srcs`` parameter gets the source of each candidate's segment when
        the run has sources (``score --source``); one that requires them refuses a run
        without."""
        takes, needs = _srcs_parameter(self.fn)
        if needs and srcs is None:
            raise UserInputError(
                f"plugin {self.target!r} needs the source sentences: give --source FILE"
            )
        out = np.empty(len(hyps))
        for start in range(0, len(hyps), self.batch):
            h = list(hyps[start : start + self.batch])
            r = [list(x) for x in refs[start : start + self.batch]]
            extra = {}
            if takes and srcs is not None:
                extra["srcs"] = list(srcs[start : start + self.batch])
            try:
                got = self.fn(h, r, **extra)
            except UserInputError:
                raise
            except Exception as exc:  # the plugin's own failure: say whose
                raise UserInputError(
                    f"plugin {self.target!r} failed: {type(exc).__name__}: {exc}"
                ) from exc
            values = list(got) if got is not None else []
            if len(values) != len(h):
                raise UserInputError(
                    f"plugin {self.target!r} returned {len(values)} scores for {len(h)} candidates"
                )
            for k, v in enumerate(values):
                try:
                    x = float(v)
                except (TypeError, ValueError):
                    x = math.nan
                if not math.isfinite(x):
                    raise UserInputError(
                        f"plugin {self.target!r} returned {v!r} for candidate {start + k + 1}; "
                        "expected a finite number"
                    )
                out[start + k] = x
        return out

    @classmethod
    def compute_text(cls, metrics: Sequence[Metric], pairs: Any) -> list[np.ndarray]:
        """Statistics from the raw text of a :class:`~mtpalette.metrics.scoring.TextPairs`:
        each distinct (candidate, references) scored once."""
        seg = np.asarray(pairs.seg, dtype=np.int64)
        refs_of = [[r[s] for r in pairs.refs if r[s] is not None] for s in range(pairs.n_segments)]
        keys: dict[tuple[str, int], int] = {}
        first: list[int] = []
        inverse = np.empty(len(pairs.hyps), dtype=np.int64)
        for p, (h, s) in enumerate(zip(pairs.hyps, seg.tolist(), strict=True)):
            j = keys.setdefault((h, s), len(first))
            if j == len(first):
                first.append(p)
            inverse[p] = j
        hyps = [pairs.hyps[p] for p in first]
        refs = [refs_of[seg[p]] for p in first]
        srcs = None if pairs.srcs is None else [pairs.srcs[seg[p]] for p in first]
        out = []
        for m in metrics:
            assert isinstance(m, Plugin)
            out.append(m.score_texts(hyps, refs, srcs)[inverse][:, None])
        return out
