"""Golden values for the blocked ORANGE scoring: the paper's 34-metric grid on the bundled
zh-en data, computed by the code of the day the blocked route was written (commit noted in
the output), so that ``tests/metaeval/test_orange_grid_golden.py`` proves the new route gives
the same comparisons, ranks and error records to the last digit.

The candidate lists are the outputs of 12 systems (one candidate per system and segment); the
references are ``ref.txt``, ``refB.txt`` and, as a third reference stream so that leave-one-out
holds out one of three, the output of ``Online-W`` (a system output, not a human reference: the
test checks arithmetic, not a finding).

Usage: ``python scripts/orange_grid_golden.py`` (writes tests/data/orange_grid/golden.json).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "metaeval"))

from orange_grid_case import GRID, SEGMENTS, comparisons_digest, lists  # noqa: E402

from mtpalette.metaeval.candidates import compare_candidates  # noqa: E402
from mtpalette.metrics import parse_specs  # noqa: E402


def main() -> None:
    data = lists()
    out = {
        "commit": subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip(),
        "segments": SEGMENTS,
        "grid": GRID,
        "oracles": {},
    }
    for oracle in ("leave-one-out", "average-score"):
        comps = compare_candidates(data, parse_specs(GRID), oracle=oracle, keep_scores=True)
        out["oracles"][oracle] = comparisons_digest(comps, data)
    path = ROOT / "tests" / "data" / "orange_grid" / "golden.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {path} ({hashlib.sha256(path.read_bytes()).hexdigest()[:12]})")


if __name__ == "__main__":
    main()
