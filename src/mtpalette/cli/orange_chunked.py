"""The chunked, resumable path of ``mtpalette orange`` (``--run-dir``).

Candidates are read and scored chunk by chunk of ``--chunk-size`` segments on the chosen
backend (``--backend inproc|processes|dask``, ``--workers``, ``--scheduler``); finished
chunks are kept in ``RUN_DIR/chunks``; ``--resume`` continues an interrupted run. See
:mod:`mtpalette.metaeval.chunked`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console

from mtpalette.metaeval.chunked import (
    chunk_path,
    chunk_stamp,
    combine,
    lock_run_dir,
    manifest_hash,
    nbest_chunks,
    prepare_run_dir,
    run_chunks,
    sha256_of,
    system_chunks,
)
from mtpalette.metaeval.orange import Comparisons
from mtpalette.metrics import Metric
from mtpalette.parallel import Backend, chunk_ranges


@dataclass
class ChunkedLists:
    """What the table and the run record need to know of lists scored in chunks (the texts
    themselves were never all in memory)."""

    n_candidates: np.ndarray
    n_refs: int
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def n_segments(self) -> int:
        return len(self.n_candidates)


def run_chunked(
    console: Console,
    *,
    run_dir: Path,
    resume: bool,
    chunk_size: int,
    backend: Backend,
    refs: list[Path],
    ref_lines: list[list[str]],
    nbest: Path | None,
    id_base: int,
    load_lists,
    parsed: list[Metric],
    oracle: str,
    tokenize: str,
    lowercase: bool,
) -> tuple[list[Comparisons], list[Path]]:
    """Score every missing chunk, then combine all chunks into comparisons."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from mtpalette.cli.progress import shown

    S = len(ref_lines[0])
    names = [p.name for p in refs]
    if nbest is not None:
        chunks = nbest_chunks(nbest, ref_lines, chunk_size, id_base=id_base, ref_names=names)
        files = [nbest]
    else:
        lists, files = load_lists()
        chunks = system_chunks(lists, chunk_size)
    manifest = {
        "kind": "orange-chunked",
        "references": [{"name": p.name, "sha256": sha256_of(p)} for p in refs],
        "candidates": [{"name": Path(p).name, "sha256": sha256_of(p)} for p in files],
        "id_base": id_base,
        "metric_specs": [m.spec for m in parsed],
        "oracle": oracle,
        "tokenize": tokenize,
        "lowercase": lowercase,
        "chunk_size": chunk_size,
        "n_segments": S,
    }
    ranges = chunk_ranges(S, chunk_size)  # checked before the folder is made
    prepare_run_dir(run_dir, manifest, resume=resume)
    with lock_run_dir(run_dir):  # a second run on this folder is refused, not mixed in
        stamp = manifest_hash(manifest)
        n_chunks = len(ranges)
        have = sum(
            chunk_stamp(chunk_path(run_dir, i)) == (stamp, lo, hi - lo)
            for i, (lo, hi) in enumerate(ranges)
        )
        if have:
            console.print(f"resuming: {have} of {n_chunks} chunks already done", style="dim")
        with Progress(
            TextColumn("scoring chunks"),
            BarColumn(),
            MofNCompleteColumn(),
            console=console,
            transient=True,
            disable=not shown(console),
        ) as bar:
            task = bar.add_task("chunks", total=n_chunks, completed=have)
            run_chunks(
                chunks,
                run_dir,
                specs=[m.spec for m in parsed],
                tokenize=tokenize,
                lowercase=lowercase,
                oracle=oracle,
                backend=backend,
                stamp=stamp,
                on_done=lambda _: bar.advance(task),
            )
        comparisons = combine(
            run_dir,
            n_chunks,
            [m.spec for m in parsed],
            [m.higher_is_better for m in parsed],
            n_segments=S,
            oracle=oracle,
            n_refs=len(refs),
            signatures=[str(m.signature(n_refs=max(len(refs) - 1, 1))) for m in parsed],
            stamp=stamp,
            chunk_size=chunk_size,
        )
    return comparisons, files
