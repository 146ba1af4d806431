"""One scored set (issue 52): ``correlate --mtme DIR --level segment,system`` scores every
text once; the segment tables take the rated rows of the statistics of all segments, the
system vectors their corpus scores, and the numbers are those of two separate scorings.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from real_data import mtme_folder

FOLDER = mtme_folder()
SPECS = ["bleus:4", "chrf", "wer"]


@pytest.fixture
def scored(monkeypatch):
    """Each metric's number of texts scored, through every scoring entry point."""
    import mtpalette.metaeval.segments as segments
    import mtpalette.sources.scoring as scoring

    counts: Counter[str] = Counter()
    calls: list[str] = []

    def counting(entry, original):
        def wrapper(metrics, pairs, *args, **kwargs):
            calls.append(entry)
            for m in metrics:
                counts[m.spec] += len(pairs.hyps)
            return original(metrics, pairs, *args, **kwargs)

        return wrapper

    monkeypatch.setattr(scoring, "compute_stats_on",
                        counting("score_systems", scoring.compute_stats_on))  # fmt: skip
    monkeypatch.setattr(segments, "compute_stats",
                        counting("score_segments", segments.compute_stats))  # fmt: skip
    return counts, calls


def _run(cli, tmp_path: Path, name: str, level: str) -> dict:
    args = ["correlate", "--mtme", FOLDER, "--lp", "zh-en", "--level", level, "--no-baselines"]
    for spec in SPECS:
        args += ["-m", spec]
    out = tmp_path / f"{name}.json"
    code, _, err = cli(*args, "--bootstrap", "0", "--permutations", "0", "--json", out)
    assert code == 0, err
    return json.loads(out.read_text())


def test_segment_and_system_levels_score_the_texts_once(cli, tmp_path, scored):
    from mtpalette.sources.folders import read_mtme_set

    counts, calls = scored
    evs = read_mtme_set(FOLDER, "zh-en")
    _run(cli, tmp_path, "both", "segment,system")
    assert calls and set(calls) == {"score_systems"}  # not score_segments beside it
    n_texts = len(evs.systems) * evs.n_segments
    specs = {m for m in counts}
    assert len(specs) == len(SPECS)
    assert all(counts[m] == n_texts for m in specs), (dict(counts), n_texts)


def test_one_scoring_gives_the_numbers_of_two(cli, tmp_path, monkeypatch):
    import mtpalette.sources.system_scores as system_scores

    once = _run(cli, tmp_path, "once", "segment,system")
    monkeypatch.setattr(system_scores, "folder_scores", lambda *a, **k: None)
    twice = _run(cli, tmp_path, "twice", "segment,system")
    assert once["results"] == twice["results"] and once["signatures"] == twice["signatures"]
