"""Chunked, resumable and distributed ORANGE runs: a property of the run, not another path.

Candidates are read and scored chunk by chunk of ``chunk_size`` segments on the chosen backend
(``inproc``, ``processes``, ``dask``); finished chunks are kept in ``RUN_DIR/chunks``;
``resume`` continues an interrupted run. See :mod:`mtpalette.metaeval.chunked`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtpalette import flags
from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.flags import RUNNING, flag
from mtpalette.sources.inputs import CandidateInputs

if TYPE_CHECKING:
    from mtpalette.metrics import Metric
    from mtpalette.parallel import Backend


@dataclass
class Chunking(Description):
    """Where and how a run is split into chunks.

    Examples
    --------
    >>> Chunking(Path("run"), chunk_size=50, backend="processes", workers=2).backend_choice()
    Backend(name='processes', workers=2, scheduler=None, threads=None)
    """

    # fmt: off
    kind = "chunking"
    run_dir: Path | None = flag(
        "--run-dir", panel=RUNNING, help="Chunked, resumable run folder."
    ).field(None)
    resume: bool = flag(
        "--resume", panel=RUNNING, help="Continue the run in --run-dir."
    ).field(False)
    chunk_size: int = flag("--chunk-size", panel=RUNNING, help="Segments per chunk.").field(100)
    backend: str = flags.BACKEND.field("inproc")
    workers: int = flags.WORKERS.field(1)
    scheduler: str | None = flags.SCHEDULER.field(None)
    threads_per_worker: int | None = flag(
        "--threads-per-worker", panel=RUNNING,
        help="Kernel threads in each worker (default: a Dask worker's own thread count).",
    ).field(None)
    # fmt: on

    def validate(self) -> None:
        if self.run_dir is None:
            raise UserInputError("--resume needs --run-dir (the folder of the run to continue)")
        self.backend_choice()

    def backend_choice(self) -> Backend:
        """The :class:`~mtpalette.parallel.Backend` of the run."""
        from mtpalette.parallel import Backend

        return Backend(self.backend, self.workers, self.scheduler, self.threads_per_worker)

    def dask_backend(self) -> Backend | None:
        """The backend of a run on Dask, where its one-off tasks (the curve's figure, the
        reference agreement) run on a worker, its client perhaps a login node; else None
        (they run here).

        Examples
        --------
        >>> Chunking(Path("run"), backend="processes", workers=2).dask_backend() is None
        True
        """
        backend = self.backend_choice()
        return backend if backend.name == "dask" else None

    def comparisons(self, candidates: CandidateInputs, ref_lines: list[list[str]],
                    parsed: list[Metric], **options: Any):  # fmt: skip
        """Score every missing chunk, then combine all chunks into comparisons
        (:func:`~mtpalette.metaeval.orange_runs.chunked_comparisons`, with its options)."""
        from mtpalette.metaeval.orange_runs import chunked_comparisons

        return chunked_comparisons(self, candidates, ref_lines, parsed, **options)
