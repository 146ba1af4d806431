"""Chunked, resumable and distributed ORANGE runs: a property of the run, not another path.

Candidates are read and scored chunk by chunk of ``chunk_size`` segments on the chosen backend
(``inproc``, ``processes``, ``dask``); finished chunks are kept in ``RUN_DIR/chunks``;
``resume`` continues an interrupted run. See :mod:`mtpalette.metaeval.chunked`.
"""

from __future__ import annotations

import contextlib
import errno
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.feedback import SILENT, Feedback
from mtpalette.metaeval.candidates import CandidateLists
from mtpalette.metaeval.chunked import (
    MANIFEST,
    chunk_path,
    chunk_stamp,
    combine,
    lock_run_dir,
    manifest_hash,
    nbest_chunks,
    nbest_slices,
    prepare_run_dir,
    run_chunks,
    sha256_of,
    system_chunks,
)
from mtpalette.metaeval.orange import Comparisons
from mtpalette.metrics import Metric
from mtpalette.parallel import Backend, chunk_ranges, memory_available, os_reason
from mtpalette.sources.inputs import CandidateInputs

#: the errors of a disk that cannot take a file: full, over quota, too large, read-only, denied
_DISK_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EPERM)


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


@dataclass
class Chunking(Description):
    """Where and how a run is split into chunks.

    Examples
    --------
    >>> Chunking(Path("run"), chunk_size=50, backend="processes", workers=2).backend_choice()
    Backend(name='processes', workers=2, scheduler=None, threads=None)
    """

    kind = "chunking"
    run_dir: Path | None
    resume: bool = False
    chunk_size: int = 100
    backend: str = "inproc"
    workers: int = 1
    scheduler: str | None = None
    threads_per_worker: int | None = None

    def validate(self) -> None:
        if self.run_dir is None:
            raise UserInputError("--resume needs --run-dir (the folder of the run to continue)")
        self.backend_choice()

    def backend_choice(self) -> Backend:
        """The :class:`~mtpalette.parallel.Backend` of the run."""
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

    def comparisons(
        self,
        candidates: CandidateInputs,
        ref_lines: list[list[str]],
        parsed: list[Metric],
        *,
        oracle: str,
        tokenize: str,
        lowercase: bool,
        feedback: Feedback = SILENT,
        cutoffs_for: Callable[[int], Sequence[int]] | None = None,
    ) -> tuple[list[Comparisons], list[Path], CandidateLists | None]:
        """Score every missing chunk, then combine all chunks into comparisons: in the compact
        form, with the ranks at the cutoffs ``cutoffs_for(longest list)`` (the curve's) and at
        the whole lists (see :func:`~mtpalette.metaeval.chunked.combine`). Returns them, the
        candidate files, and the candidate lists when they were read whole (systems' outputs,
        which the reference agreement compares; an n-best file is streamed: None)."""
        if self.resume and not (self.run_dir / MANIFEST).is_file():
            raise UserInputError(
                "--resume: there is no run here to continue (no manifest.json); leave out "
                "--resume to start one",
                path=str(self.run_dir),
            )
        refs = list(candidates.refs)
        S = len(ref_lines[0])
        names = [p.name for p in refs]
        backend = self.backend_choice()
        shared: list[str] = []
        if candidates.nbest is not None:
            # on a cluster the workers read their part of the n-best file themselves (it is on
            # shared storage, checked): its text never passes through this machine or the
            # scheduler
            by_slice = backend.name == "dask"
            chunks = (nbest_slices if by_slice else nbest_chunks)(
                candidates.nbest, ref_lines, self.chunk_size, id_base=candidates.id_base,
                ref_names=names,
            )  # fmt: skip
            files = [candidates.nbest]
            shared = [str(Path(candidates.nbest).resolve())] if by_slice else []
            lists = None
        else:
            lists, files = candidates.load(ref_lines)
            chunks = system_chunks(lists, self.chunk_size)
        specs = [m.spec for m in parsed]
        manifest = {
            "kind": "orange-chunked",
            "references": [{"name": p.name, "sha256": sha256_of(p)} for p in refs],
            "candidates": [{"name": Path(p).name, "sha256": sha256_of(p)} for p in files],
            "id_base": candidates.id_base,
            "metric_specs": specs,
            "oracle": oracle,
            "tokenize": tokenize,
            "lowercase": lowercase,
            "chunk_size": self.chunk_size,
            "n_segments": S,
        }
        ranges = chunk_ranges(S, self.chunk_size)  # checked before the folder is made
        if self.run_dir.exists() and not self.run_dir.is_dir():
            raise UserInputError("is a file; --run-dir needs a folder", path=str(self.run_dir))
        # the lock first: only the run that holds it may write the manifest (a second run on
        # this folder is refused before it touches anything)
        with run_folder_faults(self.run_dir, candidates.nbest), lock_run_dir(self.run_dir):
            prepare_run_dir(self.run_dir, manifest, resume=self.resume)
            stamp = manifest_hash(manifest)
            have = sum(
                chunk_stamp(chunk_path(self.run_dir, i)) == (stamp, lo, hi - lo)
                for i, (lo, hi) in enumerate(ranges)
            )
            if have:
                feedback.note(f"resuming: {have} of {len(ranges)} chunks already done")
            with feedback.counter("scoring chunks", total=len(ranges), completed=have) as done:
                run_chunks(
                    chunks,
                    self.run_dir.resolve(),  # workers may run elsewhere: an absolute path
                    specs=specs,
                    tokenize=tokenize,
                    lowercase=lowercase,
                    oracle=oracle,
                    backend=backend,
                    stamp=stamp,
                    shared_files=shared,
                    on_done=lambda _: done(),
                    on_note=lambda text: feedback.warn(f"note: {text}"),
                )
            comparisons = combine(
                self.run_dir,
                len(ranges),
                specs,
                [m.higher_is_better for m in parsed],
                n_segments=S,
                oracle=oracle,
                n_refs=len(refs),
                signatures=[m.signature(n_refs=max(len(refs) - 1, 1)) for m in parsed],
                stamp=stamp,
                chunk_size=self.chunk_size,
                cutoffs_for=cutoffs_for,
            )
        return comparisons, files, lists


@contextlib.contextmanager
def run_folder_faults(run_dir: Path, nbest: Path | None) -> Iterator[None]:
    """Make ``run_dir`` (its parents too) for the block, and turn a disk that cannot take a
    file (full, read-only) and memory too small for a streamed list into one line naming the
    run folder or the n-best file, with the ``--resume`` hint. (The inputs' own errors are
    named where they are read.)"""
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        yield
    except OSError as exc:
        if exc.errno not in _DISK_ERRNOS:
            raise
        raise UserInputError(
            f"cannot write in this run folder ({os_reason(exc)}): make room there, then run "
            "again with --resume; the chunks done are kept",
            path=str(run_dir),
        ) from None
    except MemoryError:  # reading a streamed n-best file: one list larger than memory
        room, where = memory_available()
        raise UserInputError(
            f"out of memory reading the candidate lists ({(room or 0) / 1e6:,.1f} MB {where}): "
            "one segment's list is never split: keep fewer of its candidates, or run where "
            "there is more memory; the chunks done are kept: run again with --resume",
            path=str(nbest or run_dir),
        ) from None
