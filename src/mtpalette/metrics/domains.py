"""The valid values of every metric parameter, declared once.

A metric family lists its keyword options in ``Metric.options`` as ``name -> domain``. A
domain parses the text of a spec (``"0.5"``, ``"yes"``, ``"*"``), refuses a value outside its
range with the range in the message, describes itself for help and errors, and gives a few
valid values for the property test that runs every metric over its whole parameter space
(``tests/metrics/test_domains.py``): no valid parameter may give NaN or an exception.

Examples
--------
>>> Real(low=0).parse("0.5")
0.5
>>> Real(low=0, low_open=True).parse("0")
Traceback (most recent call last):
...
ValueError: expected a number > 0, got '0'
>>> Integer(1, 20).describe()
'an integer from 1 to 20'
>>> YesNo().parse("yes"), Choice(("f", "p", "r")).parse("p")
(True, 'p')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Real:
    """A finite real number in ``[low, high]`` (either end open or absent)."""

    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    #: texts that stand for a special value (e.g. ``{"*": None}``)
    special: dict[str, Any] = field(default_factory=dict)

    def _number(self, text: str) -> float:
        return float(text)

    def parse(self, text: Any) -> Any:
        raw = str(text).strip()
        if raw in self.special:
            return self.special[raw]
        try:
            value = self._number(raw)
        except ValueError:
            raise ValueError(f"expected {self.describe()}, got {raw!r}") from None
        if not math.isfinite(value):
            raise ValueError(f"not finite: expected {self.describe()}, got {raw!r}")
        if not self.contains(value):
            raise ValueError(f"expected {self.describe()}, got {raw!r}")
        return value

    __call__ = parse

    def contains(self, value: float) -> bool:
        if not math.isfinite(value):
            return False
        if self.low is not None and (value < self.low or (self.low_open and value == self.low)):
            return False
        if self.high is not None and (value > self.high or (self.high_open and value == self.high)):
            return False
        return True

    def _noun(self) -> str:
        return "a number"

    def describe(self) -> str:
        noun = self._noun()
        if self.low is not None and self.high is not None:
            if self.low_open or self.high_open:
                lo = "(" if self.low_open else "["
                hi = ")" if self.high_open else "]"
                text = f"{noun} in {lo}{_fmt(self.low)}, {_fmt(self.high)}{hi}"
            else:
                text = f"{noun} from {_fmt(self.low)} to {_fmt(self.high)}"
        elif self.low is not None:
            text = f"{noun} {'>' if self.low_open else '>='} {_fmt(self.low)}"
        elif self.high is not None:
            text = f"{noun} {'<' if self.high_open else '<='} {_fmt(self.high)}"
        else:
            text = f"a finite {noun[2:]}"
        if self.special:
            text += " or " + " or ".join(repr(k) for k in self.special)
        return text

    def examples(self) -> list[Any]:
        """A few valid values: the closed ends, points inside, and the special values."""
        lo = self.low if self.low is not None else -3.0
        hi = self.high if self.high is not None else lo + 5.0
        values = [lo + (hi - lo) * t for t in (0.0, 0.25, 0.5, 1.0)]
        out = [self._cast(v) for v in values]
        out = [v for v in dict.fromkeys(out) if self.contains(v)]
        if self.low_open and self.low is not None:
            out.append(self._cast(self.low + min(1e-3, (hi - lo) / 10)))
        return [*out, *self.special.values()]

    def _cast(self, value: float) -> Any:
        return float(value)


@dataclass(frozen=True)
class Integer(Real):
    """A whole number in ``[low, high]``."""

    def _number(self, text: str) -> float:
        return int(text)

    def _noun(self) -> str:
        return "an integer"

    def _cast(self, value: float) -> Any:
        return int(round(value))

    def examples(self) -> list[Any]:
        lo = int(self.low) if self.low is not None else 0
        hi = int(self.high) if self.high is not None else lo + 4
        values = sorted({lo, lo + 1, (lo + hi) // 2, hi})
        return [v for v in values if self.contains(v)] + list(self.special.values())


@dataclass(frozen=True)
class Choice:
    """One of a few names."""

    values: tuple[str, ...]

    def parse(self, text: Any) -> str:
        raw = str(text).strip()
        if raw not in self.values:
            raise ValueError(f"expected {self.describe()}, got {raw!r}")
        return raw

    __call__ = parse

    def describe(self) -> str:
        return "one of " + ", ".join(self.values)

    def examples(self) -> list[Any]:
        return list(self.values)


@dataclass(frozen=True)
class YesNo:
    """A switch: yes/no (also true/false, 1/0, y/n)."""

    def parse(self, text: Any) -> bool:
        raw = str(text).strip().lower()
        if raw in {"yes", "true", "1", "y"}:
            return True
        if raw in {"no", "false", "0", "n"}:
            return False
        raise ValueError(f"expected yes or no, got {raw!r}")

    __call__ = parse

    def describe(self) -> str:
        return "yes or no"

    def examples(self) -> list[Any]:
        return [True, False]


@dataclass(frozen=True)
class Text:
    """Free text (a file, a module path): checked by the metric itself, no examples."""

    what: str = "text"

    def parse(self, text: Any) -> str:
        return str(text).strip()

    __call__ = parse

    def describe(self) -> str:
        return self.what

    def examples(self) -> list[Any]:
        return []


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
