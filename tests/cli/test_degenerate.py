"""Statistics that cannot mean anything are refused with the reason, not printed as numbers:
constant human scores (once: every statistic NaN, every metric in cluster 1, exit 0) and fewer
than 3 systems at system level (once: Pearson +1 and -1, both in cluster 1)."""

from __future__ import annotations

import pytest
from real_data import mqm_ted

import mtpalette
from mtpalette.errors import UserInputError

ZHEN = mqm_ted("zhen")
N = 30
REF = ZHEN["refs"][0].read_text(encoding="utf-8").splitlines()[:N]
SYSTEMS = {p.stem: p.read_text(encoding="utf-8").splitlines()[:N] for p in ZHEN["systems"][:4]}


@pytest.mark.parametrize("level", ["segment", "system"])
def test_constant_human_scores_are_refused(level):
    human = {s: ([-1.0] * N if level == "segment" else -1.0) for s in SYSTEMS}
    with pytest.raises(UserInputError, match="every human score is -1"):
        mtpalette.correlate(SYSTEMS, [REF], human, ["chrf"], n_resamples=0)


def test_two_systems_at_system_level_are_refused():
    two = dict(list(SYSTEMS.items())[:2])
    with pytest.raises(UserInputError, match="at least 3 systems, got 2"):
        mtpalette.correlate(two, [REF], {s: float(k) for k, s in enumerate(two)}, "chrf")
    three = dict(list(SYSTEMS.items())[:3])
    table = mtpalette.correlate(three, [REF], {s: float(k) for k, s in enumerate(three)}, "chrf")
    assert table.level == "system"
