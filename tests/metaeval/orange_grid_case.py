"""The ORANGE grid case shared by scripts/orange_grid_golden.py and
test_orange_grid_golden.py (see the script's docstring)."""

from __future__ import annotations

import hashlib
import json

import numpy as np
from real_data import mqm_ted

from mtpalette.metaeval.candidates import CandidateLists
from mtpalette.metaeval.orange import evaluate
from mtpalette.metaeval.orange_errors import error_analysis

DATA = mqm_ted("zhen")["root"]
GRID = ["bleus:1..9", "nist", "wer", "per", "rouge-l", "rouge-w:1.1..2.0/0.1", "rouge-s:0..9,*"]
SYSTEMS = ["Borderline", "DIDI-NLP", "Facebook-AI", "IIE-MT", "MiSS", "NiuTrans", "SMU"]
SYSTEMS += [f"metricsystem{i}" for i in range(1, 6)]
REFS = ["ref", "refB", "Online-W"]
SEGMENTS = 200


def _lines(name: str) -> list[str]:
    return (DATA / f"{name}.txt").read_text(encoding="utf-8").splitlines()[:SEGMENTS]


def lists() -> CandidateLists:
    return CandidateLists.from_systems(
        {name: _lines(name) for name in SYSTEMS}, [_lines(r) for r in REFS], ref_names=REFS
    )


def _sha(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a, dtype=np.int64).tobytes()).hexdigest()


def comparisons_digest(comps, data: CandidateLists) -> dict:
    """Per metric: the comparisons' hashes, the table's values (repr: every digit) and a hash
    of the error records (3 per segment)."""
    table = evaluate(comps, n_resamples=200, seed=7)
    rows = {row.metric: row for row in table.rows}
    out = {}
    for c in comps:
        records = list(error_analysis(c, texts=data.texts, origins=data.origins, max_per_segment=3))
        blob = json.dumps(records, sort_keys=True).encode()
        row = rows[c.metric]
        out[c.metric] = {
            "better": _sha(c.better),
            "ties": _sha(c.ties),
            "orange": repr(row.orange.value),
            "avg_rank": repr(row.avg_rank.value),
            "avg_rank_ci": [repr(row.avg_rank.low), repr(row.avg_rank.high)],
            "signature": c.signature,
            "errors": hashlib.sha256(blob).hexdigest(),
            "n_errors": len(records),
        }
    return out
