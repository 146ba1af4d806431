"""Hill-climbing with seeded random restarts over a box of real parameters.

BLANC's parameters are trained "using a simple hill-climbing procedure and using several
starting points in order to decrease the chance of reaching a local maximum" (Lita et al.,
2005, section 5). This is that procedure, made reproducible:

* restart 0 starts from ``start`` (or the box centre), the others from points drawn uniformly
  in the box by ``numpy.random.default_rng(seed)``;
* each round tries one step up and one step down in every coordinate and moves to the best
  improving neighbour (steepest ascent); when none improves, every step is halved; a restart
  ends when the steps have been halved ``halvings`` times;
* evaluations are memoised, so revisiting a point is free; every evaluation is recorded.

The objective is maximised (pass a negated ORANGE to minimise it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Dimension:
    """One parameter: its bounds and the initial step (in log space when ``log``)."""

    name: str
    low: float
    high: float
    step: float
    log: bool = False

    def __post_init__(self) -> None:
        if not self.low < self.high or not self.step > 0:
            raise ValueError(f"{self.name}: need low < high and a positive step")
        if self.log and self.low <= 0:
            raise ValueError(f"{self.name}: a log-scale dimension needs low > 0")

    def to_unit(self, x: float) -> float:
        return float(np.log(x)) if self.log else float(x)

    def from_unit(self, u: float) -> float:
        return float(np.exp(u)) if self.log else float(u)

    @property
    def bounds(self) -> tuple[float, float]:
        return self.to_unit(self.low), self.to_unit(self.high)


@dataclass
class ClimbResult:
    """The best point, its value, and every evaluation in order (restart, round, params,
    value)."""

    best: dict[str, float]
    value: float
    history: list[dict[str, Any]] = field(repr=False)
    seed: int = 0
    restarts: int = 1

    @property
    def n_evaluations(self) -> int:
        return len(self.history)


def hill_climb(
    objective: Callable[[dict[str, float]], float],
    space: Sequence[Dimension],
    *,
    start: Mapping[str, float] | None = None,
    restarts: int = 4,
    halvings: int = 4,
    seed: int = 0,
    max_evaluations: int = 2000,
    on_evaluation: Callable[[dict[str, Any]], None] | None = None,
) -> ClimbResult:
    """Maximise ``objective`` over the box ``space``.

    Examples
    --------
    >>> space = [Dimension("x", -4, 4, 1.0), Dimension("y", 0.1, 10, 0.5, log=True)]
    >>> f = lambda p: -((p["x"] - 1.25) ** 2) - (np.log(p["y"]) - np.log(2.0)) ** 2
    >>> r = hill_climb(f, space, restarts=3, seed=1, halvings=8)
    >>> round(r.best["x"], 2), round(r.best["y"], 2)
    (1.25, 2.0)
    """
    if restarts < 1:
        raise ValueError("restarts must be >= 1")
    rng = np.random.default_rng(seed)
    lows = np.array([d.bounds[0] for d in space])
    highs = np.array([d.bounds[1] for d in space])
    steps0 = np.array([np.log1p(d.step) if d.log else d.step for d in space])
    memo: dict[tuple[float, ...], float] = {}
    history: list[dict[str, Any]] = []
    best_point: np.ndarray | None = None
    best_value = -np.inf

    def point_params(u: np.ndarray) -> dict[str, float]:
        return {d.name: d.from_unit(x) for d, x in zip(space, u, strict=True)}

    def evaluate(u: np.ndarray, restart: int, rnd: int) -> float:
        key = tuple(np.round(u, 12).tolist())
        if key in memo:
            return memo[key]
        params = point_params(u)
        value = float(objective(params))
        if np.isnan(value):
            value = -np.inf
        memo[key] = value
        record = {"restart": restart, "round": rnd, "params": params, "value": value}
        history.append(record)
        if on_evaluation is not None:
            on_evaluation(record)
        return value

    for restart in range(restarts):
        if restart == 0:
            centre = (lows + highs) / 2
            u = np.array(
                [
                    d.to_unit(start[d.name]) if start and d.name in start else centre[i]
                    for i, d in enumerate(space)
                ]
            )
        else:
            u = rng.uniform(lows, highs)
        u = np.clip(u, lows, highs)
        if len(history) >= max_evaluations:
            break
        value = evaluate(u, restart, 0)
        steps = steps0.copy()
        halved = 0
        rnd = 0
        while halved <= halvings and len(history) < max_evaluations:
            rnd += 1
            best_move, best_move_value = None, value
            for i in range(len(space)):
                for sign in (1.0, -1.0):
                    if len(history) >= max_evaluations:
                        break
                    cand = u.copy()
                    cand[i] = np.clip(cand[i] + sign * steps[i], lows[i], highs[i])
                    if cand[i] == u[i]:
                        continue
                    v = evaluate(cand, restart, rnd)
                    if v > best_move_value:
                        best_move, best_move_value = cand, v
            if best_move is None:
                steps /= 2
                halved += 1
            else:
                u, value = best_move, best_move_value
        if value > best_value:
            best_point, best_value = u, value
    if best_point is None:  # every value was NaN or -inf
        raise ValueError("the objective is undefined at every point tried")
    return ClimbResult(point_params(best_point), best_value, history, seed, restarts)
