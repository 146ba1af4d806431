"""The checks every resampling option shares (``--bootstrap``, ``--confidence``, ``--seed``,
``--permutations``), with the same messages in every command."""

from __future__ import annotations

import math

from mtpalette.errors import UserInputError


def min_resamples(confidence: float) -> int:
    """The fewest bootstrap resamples that leave at least one resample in each tail beyond
    a percentile interval at ``confidence``.

    Examples
    --------
    >>> min_resamples(0.95), min_resamples(0.99)
    (40, 200)
    """
    return math.ceil(round(2.0 / (1.0 - confidence), 9))


def check_resampling(
    *,
    bootstrap: int | None = None,
    confidence: float = 0.95,
    seed: int | None = None,
    permutations: int | None = None,
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
    if not 0.0 < confidence < 1.0:
        raise UserInputError(f"--confidence must be between 0 and 1 (got {confidence}), e.g. 0.95")
    if bootstrap is not None:
        least = min_resamples(confidence)
        if bootstrap < 0 or 0 < bootstrap < least:
            raise UserInputError(
                f"--bootstrap {bootstrap} is too few for a {confidence:.0%} interval: use 0 "
                f"(no interval) or at least {least} (1000 recommended)"
            )
    if permutations is not None and permutations < 0:
        raise UserInputError(f"--permutations must be 0 (no test) or more (got {permutations})")
    if seed is not None and not 0 <= seed < 2**63:
        raise UserInputError(f"--seed must be between 0 and 2**63 - 1 (got {seed})")
