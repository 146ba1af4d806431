"""ORANGE in chunks of segments: bounded memory, any backend, resumable.

A run directory holds:

* ``manifest.json`` - what the run is (inputs with their sha256, metric specs, oracle,
  tokenizer, chunk size); a resumed run must match it;
* ``chunks/chunk-00000.parquet`` ... - for each chunk of consecutive segments, each
  candidate's comparison counts with the oracle per metric (``better:<spec>``,
  ``ties:<spec>``) and its segment; each file is written to a temporary name and renamed, so
  a chunk is either complete or absent. Its metadata holds the hash of the manifest and its
  segment range: a chunk of another run (or of another chunking) is recomputed, never
  trusted, and the combination checks every chunk again;
* after the last chunk, the combined results (:func:`combine`).

Chunks are independent pure functions of their segments (:func:`score_chunk`), so they can run
on any :mod:`mtpalette.parallel` backend; a run killed at any moment and restarted with
``resume`` recomputes only the missing chunks and gives the same bytes as an uninterrupted
run. Candidates are read chunk by chunk (:func:`nbest_chunks` streams a Moses n-best file), so
memory depends on the chunk size and its longest list, not on the number of segments; one
segment's list is never split, and a chunk whose scoring needs more memory than there is
(:func:`check_memory`) is refused in one line with its size and the memory available.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.jsonfile import loads
from mtpalette.io.nbest import iter_moses_segments, moses_segment_starts, read_moses_span
from mtpalette.io.runfile import write_json
from mtpalette.metaeval.candidates import CandidateLists, compare_candidates
from mtpalette.metaeval.orange import Comparisons
from mtpalette.parallel import (
    Backend,
    ClusterFault,
    SharedStorage,
    chunk_ranges,
    memory_available,
    os_reason,
    run_tasks,
)

MANIFEST = "manifest.json"
#: the errors of a disk that cannot take a file: full, over quota, too large, read-only, denied
_DISK_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EPERM)


@dataclass(frozen=True)
class ChunkTask:
    """One chunk: its candidate lists and what to compute; picklable for any backend."""

    index: int
    first_segment: int
    #: the candidates, or where the worker reads them (an n-best file on shared storage)
    lists: CandidateLists | NBestSlice
    specs: tuple[str, ...]
    tokenize: str
    lowercase: bool
    oracle: str
    path: str
    manifest_hash: str


def manifest_hash(manifest: dict[str, Any]) -> str:
    """The SHA-256 of the manifest's canonical JSON: what every chunk is stamped with."""
    text = json.dumps(manifest, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


#: the integer columns of a chunk file: Arrow type name -> numpy type
_INT_TYPES = {"int32": np.int32, "int64": np.int64}


def arrow_ints(values: np.ndarray):
    """A pyarrow array of the int32 or int64 ``values``, made from their buffer. (``pa.array``
    and ``to_numpy`` import pandas, 45 MB and most of a second, only to ask whether they were
    given a pandas object: neither is used on chunk files.)"""
    import pyarrow as pa

    values = np.ascontiguousarray(values)
    return pa.Array.from_buffers(
        getattr(pa, values.dtype.name)(), len(values), [None, pa.py_buffer(values)]
    )


def column_ints(table, name: str) -> np.ndarray:
    """A chunk file's integer column as one numpy array, from its buffers (see
    :func:`arrow_ints`); a column of another type or with nulls raises ValueError.

    Examples
    --------
    >>> import pyarrow as pa
    >>> t = pa.table({"a": arrow_ints(np.array([3, 1], np.int32))})
    >>> column_ints(t, "a").tolist(), column_ints(t.slice(1), "a").tolist()
    ([3, 1], [1])
    >>> column_ints(t.slice(2), "a").tolist(), column_ints(pa.concat_tables([t, t]), "a").tolist()
    ([], [3, 1, 3, 1])
    """
    col = table.column(name)
    dtype = _INT_TYPES.get(str(col.type))
    if dtype is None or col.null_count:
        raise ValueError(f"column {name}: {col.type} with {col.null_count} nulls; expected ints")
    size = np.dtype(dtype).itemsize
    parts = [
        np.frombuffer(a.buffers()[1], dtype=dtype, count=len(a), offset=a.offset * size)
        for a in col.chunks
        if len(a)
    ]
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)


def read_chunk(path: Path, columns: list[str] | None = None):
    """A chunk file as a pyarrow table (``pq.read_table`` would load pyarrow's dataset
    module, which imports pandas)."""
    import pyarrow.parquet as pq

    with pq.ParquetFile(path) as pf:
        return pf.read(columns=columns)


def payload_hash(table) -> str:
    """The SHA-256 of a chunk's columns (names, types and values, in order): stored in the
    chunk's footer and checked on every read, so that a damaged chunk is recomputed, never
    read as numbers."""
    h = hashlib.sha256()
    for name in table.column_names:
        values = column_ints(table, name)
        h.update(f"{name}:{values.dtype.str}:{values.size};".encode())
        h.update(values.tobytes())
    return h.hexdigest()


def chunk_stamp(path: Path) -> tuple[str, int, int] | None:
    """``(manifest hash, first segment, number of segments)`` of a chunk file, or None when
    the file is missing, unreadable, unstamped, damaged (its columns do not match the
    checksum in its footer), or written by another mtpalette version (:func:`chunk_problem`
    says which)."""
    return None if chunk_problem(path) else _stamp(path)


def _stamp(path: Path) -> tuple[str, int, int] | None:
    """The stamp of a chunk written by this mtpalette version (None: any other, e.g. by a
    worker of another version that joined a run)."""
    import pyarrow.parquet as pq

    from mtpalette._version import __version__

    try:
        meta = pq.read_schema(path).metadata or {}
        if meta[b"mtpalette.version"].decode() != __version__:
            return None
        return (
            meta[b"mtpalette.manifest"].decode(),
            int(meta[b"mtpalette.first"]),
            int(meta[b"mtpalette.segments"]),
        )
    except Exception:  # checked by chunk_problem first
        return None


def chunk_problem(path: Path) -> str | None:
    """Why a chunk file cannot be used, in a few words (None: it can, or it is missing):
    unreadable or not what its checksum says, or written by another mtpalette version (its
    counts may differ: a metric may have changed)."""
    from mtpalette._version import __version__

    if not path.exists():
        return None
    try:
        table = read_chunk(path)
        meta = table.schema.metadata or {}
        if meta[b"mtpalette.payload"].decode() != payload_hash(table):
            return "damaged (not what its checksum says)"
        int(meta[b"mtpalette.first"]), int(meta[b"mtpalette.segments"])
        version = meta[b"mtpalette.version"].decode()
    except Exception:  # any damage (a decompression error, a cut file): not a chunk
        return "damaged (unreadable, or not a chunk of mtpalette)"
    if version != __version__:
        return f"written by mtpalette {version}, not this version ({__version__})"
    return None


def chunk_path(run_dir: Path, index: int) -> Path:
    return run_dir / "chunks" / f"chunk-{index:05d}.parquet"


def score_chunk(task: ChunkTask) -> str:
    """Compare the chunk's candidates with the oracle for every metric; write the Parquet
    file atomically; return its path. Runs in a worker. A chunk too large for the memory
    here, or a run folder that cannot take its file (a full disk), is one line naming it."""
    try:
        lists = task.lists.load() if isinstance(task.lists, NBestSlice) else task.lists
        check_memory(task, lists)
        table = _chunk_table(task, lists)
    except MemoryError:
        lists = None
        room, where = memory_available()
        raise UserInputError(
            f"out of memory scoring {_chunk_name(task)} ({_mb(_size(task))})"
            + (f", with {_mb(room)} {where}" if room is not None else "")
            + f": {_smaller(task)}; the chunks done are kept: run again with --resume"
        ) from None
    _write_chunk(table, Path(task.path))
    return task.path


#: the memory that scoring a chunk takes at least, beyond its texts: per byte of candidate
#: text and per candidate (measured: 8.6 to 42 bytes per byte of a Moses n-best file in all,
#: with one metric to the twenty of the paper's grid; docs/large-runs.md)
SCORING_BYTES_PER_BYTE = 5
SCORING_BYTES_PER_CANDIDATE = 200


def check_memory(task: ChunkTask, lists: CandidateLists) -> None:
    """Refuse a chunk whose scoring needs more memory than there is here (what
    :func:`~mtpalette.parallel.memory_available` says), at the least estimate: one line with
    its size and the memory available, before the scoring starts."""
    size = _text_bytes(lists)
    need = SCORING_BYTES_PER_BYTE * size + SCORING_BYTES_PER_CANDIDATE * len(lists.texts)
    room, where = memory_available()
    if room is None or need <= room:
        return
    raise UserInputError(
        f"{_chunk_name(task)} ({len(lists.texts):,} candidates, {_mb(size)} of text) needs at "
        f"least {_mb(need)} of memory to score, more than the {_mb(room)} {where}: "
        f"{_smaller(task)}; the chunks done are kept: run again with --resume"
    )


def _text_bytes(lists: CandidateLists) -> int:
    return sum(map(len, lists.texts))


def _size(task: ChunkTask) -> int:
    """The chunk's size: its bytes of the n-best file, or its candidates' characters."""
    if isinstance(task.lists, NBestSlice):
        return task.lists.end - task.lists.start
    return _text_bytes(task.lists)


def _mb(n: int | None) -> str:
    n = n or 0
    return f"{n / 1e6:,.1f} MB" if n >= 100_000 else f"{n / 1e3:,.1f} kB"


def _chunk_name(task: ChunkTask) -> str:
    """The chunk as the user knows it: segments of the n-best file, or lines of the
    candidate files."""
    lists = task.lists
    n = lists.n_segments
    if isinstance(lists, NBestSlice):
        path, base = lists.path, lists.id_base
    elif "nbest" in lists.info:  # streamed here (chunk_lists)
        path, base = lists.info["nbest"], lists.info["id_base"]
    else:
        a, b = task.first_segment + 1, task.first_segment + n
        return (f"line {a}" if a == b else f"lines {a}-{b}") + " of the candidate files"
    a, b = task.first_segment + base, task.first_segment + base + n - 1
    return (f"segment {a}" if a == b else f"segments {a}-{b}") + f" of {path}"


def _smaller(task: ChunkTask) -> str:
    if task.lists.n_segments > 1:
        return "give a smaller --chunk-size, or run where there is more memory"
    return (
        "one segment's list is never split: keep fewer of its candidates, or run where there "
        "is more memory"
    )


def _chunk_table(task: ChunkTask, lists: CandidateLists):
    """The chunk's comparisons as a stamped pyarrow table."""
    import pyarrow as pa

    from mtpalette._version import __version__
    from mtpalette.metrics import parse_specs

    metrics = parse_specs(list(task.specs), tokenize=task.tokenize, lowercase=task.lowercase)
    comps = compare_candidates(lists, metrics, oracle=task.oracle)
    seg = lists.segment_of_candidates() + task.first_segment
    columns: dict[str, Any] = {"segment": arrow_ints(seg.astype(np.int64))}
    for m, c in zip(metrics, comps, strict=True):
        columns[f"better:{m.spec}"] = arrow_ints(c.better.astype(np.int32))
        columns[f"ties:{m.spec}"] = arrow_ints(c.ties.astype(np.int32))
    table = pa.table(columns)
    return table.replace_schema_metadata(
        {
            "mtpalette.manifest": task.manifest_hash,
            "mtpalette.first": str(task.first_segment),
            "mtpalette.segments": str(lists.n_segments),
            "mtpalette.payload": payload_hash(table),
            "mtpalette.version": __version__,
        }
    )


def _write_chunk(table, final: Path) -> None:
    """Write a chunk file whole or not at all; a folder that cannot take it (a full disk, a
    read-only folder) is one line naming the run folder."""
    import pyarrow.parquet as pq

    tmp = final.with_name(final.name + f".tmp{os.getpid()}")
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, final)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise UserInputError(
            f"cannot write {final.parent.name}/{final.name} in this run folder "
            f"({os_reason(exc)}): make room there, then run again with --resume; the chunks "
            "done are kept",
            path=str(final.parent.parent),
        ) from None


def sha256_of(path: str | Path) -> str:
    """The file's SHA-256; a file that cannot be read is a :class:`UserInputError` naming it
    (``--run-dir`` fingerprints its inputs before it reads them)."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    except FileNotFoundError:
        raise UserInputError("file not found", path=str(path)) from None
    except IsADirectoryError:
        raise UserInputError("is a directory, expected a file", path=str(path)) from None
    except OSError as exc:
        raise UserInputError(f"cannot read the file ({os_reason(exc)})", path=str(path)) from None
    return h.hexdigest()


def prepare_run_dir(run_dir: Path, manifest: dict[str, Any], *, resume: bool) -> None:
    """Create the run directory, or check that a resumed one holds the same run."""
    path = run_dir / MANIFEST
    if run_dir.exists() and not run_dir.is_dir():
        raise UserInputError("is a file; --run-dir needs a folder", path=str(run_dir))
    if path.exists():
        try:
            old = loads(path.read_text(encoding="utf-8"), path=str(path))
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise UserInputError("the run's manifest is not valid JSON", path=str(path)) from None
        if not isinstance(old, dict):
            raise UserInputError(
                "the run's manifest is not a JSON object; is this a run folder?", path=str(path)
            )
        # a run that failed before its first chunk computed nothing: it is simply redone
        if resume or any((run_dir / "chunks").glob("*.parquet")):
            if not resume:
                raise UserInputError(
                    "this run directory already holds a run: add --resume to continue it, or "
                    "choose a new directory",
                    path=str(run_dir),
                )
            if old != manifest:
                diff = sorted(k for k in set(old) | set(manifest) if old.get(k) != manifest.get(k))
                raise UserInputError(
                    f"--resume: the run directory holds a different run ({', '.join(diff)} differ)",
                    path=str(path),
                )
            return
    run_dir.mkdir(parents=True, exist_ok=True)
    write_json(path, manifest)


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


@contextlib.contextmanager
def lock_run_dir(run_dir: Path) -> Iterator[None]:
    """Hold an exclusive lock on the run folder while the block runs. The lock is the
    operating system's (``flock``): it is released when the process ends, even by SIGKILL,
    so a killed run never blocks its resume. Where ``flock`` does not exist, nothing is
    locked."""
    with open(run_dir / ".lock", "a+") as fh:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX
            yield
            return
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UserInputError(
                "another run is using this folder now; wait for it to end or choose another "
                "--run-dir",
                path=str(run_dir),
            ) from None
        yield


def run_chunks(
    chunks: Iterator[tuple[int, int, CandidateLists]],
    run_dir: Path,
    *,
    specs: Sequence[str],
    tokenize: str,
    lowercase: bool,
    oracle: str,
    backend: Backend,
    stamp: str,
    window: int = 0,
    on_done=None,
    on_note=None,
    shared_files: Sequence[str] = (),
) -> int:
    """Score every chunk whose file is missing or not stamped with this run (``stamp``: the
    manifest hash) and its own segment range; ``chunks`` yields ``(index, first segment,
    lists)`` and is read as workers free up: at most ``window`` chunks (default: two per
    worker thread) are held at once. A damaged chunk is said through ``on_note``;
    ``shared_files`` are inputs the workers read themselves (checked visible to them, as the
    run folder is, by every worker, those that join mid-run too). A fault of the cluster is
    one line naming what failed and the run folder, with the ``--resume`` hint. Returns the
    number of chunks computed now."""
    for stale in (run_dir / "chunks").glob("*.parquet.tmp*"):  # left by a killed run
        stale.unlink()
    (run_dir / "chunks").mkdir(parents=True, exist_ok=True)
    shared = SharedStorage(str(run_dir / "chunks"), tuple(shared_files))

    def todo() -> Iterator[ChunkTask]:
        for index, first, lists in chunks:
            path = chunk_path(run_dir, index)
            problem = chunk_problem(path)
            if not problem and _stamp(path) == (stamp, first, lists.n_segments):
                continue
            if problem and on_note is not None:
                on_note(f"{path} is {problem}: computed again")
            yield ChunkTask(
                index, first, lists, tuple(specs), tokenize, lowercase, oracle, str(path), stamp
            )

    done = 0
    try:
        for _, path in run_tasks(score_chunk, todo(), backend, window=window, shared=shared):
            done += 1
            if on_done is not None:
                on_done(path)
    except ClusterFault as exc:
        kept = sum(1 for _ in (run_dir / "chunks").glob("*.parquet"))
        raise UserInputError(
            f"{exc}; the {kept} chunk files done are kept in {run_dir}: run again with --resume"
        ) from None
    return done


def system_chunks(lists: CandidateLists, size: int) -> Iterator[tuple[int, int, CandidateLists]]:
    """Chunks of consecutive segments of in-memory candidate lists."""
    for index, (a, b) in enumerate(chunk_ranges(lists.n_segments, size)):
        lo, hi = int(lists.offsets[a]), int(lists.offsets[b])
        yield (
            index,
            a,
            CandidateLists(
                lists.texts[lo:hi],
                lists.offsets[a : b + 1] - lo,
                [r[a:b] for r in lists.refs],
                None if lists.origins is None else lists.origins[lo:hi],
                lists.ref_names,
            ),
        )


def nbest_chunks(
    path: str | Path,
    refs: Sequence[Sequence[str]],
    size: int,
    *,
    id_base: int = 0,
    ref_names: Sequence[str] | None = None,
) -> Iterator[tuple[int, int, CandidateLists]]:
    """Chunks of a Moses n-best file, streamed: segments with no hypothesis get an empty
    list; ids beyond the references are an error."""
    S = len(refs[0])
    stream = iter_moses_segments(path)
    pending = next(stream, None)
    for index, (a, b) in enumerate(chunk_ranges(S, size)):
        found = []
        while pending is not None and pending[0] - id_base < b:
            if pending[0] - id_base < a:  # below the first id
                _beyond_references(path, pending[0], S, id_base)
            found.append(pending)
            pending = next(stream, None)
        part = [r[a:b] for r in refs]
        yield index, a, chunk_lists(found, a, b, part, ref_names, id_base, source=str(path))
    if pending is not None:
        _beyond_references(path, pending[0], S, id_base)


def chunk_lists(
    segments: Sequence[tuple[int, list[str]]],
    a: int,
    b: int,
    refs: Sequence[Sequence[str]],
    ref_names: Sequence[str] | None,
    id_base: int,
    *,
    source: str = "",
) -> CandidateLists:
    """The candidate lists of segments ``a..b-1`` from the n-best file's ``(segment id,
    hypotheses)`` of those segments (ids counted from ``id_base``; a segment without any gets
    an empty list) and ``refs``, each reference's lines of those segments; ``source``: the
    file, kept in their ``info`` (messages name it)."""
    by_segment = {seg_id - id_base: hyps for seg_id, hyps in segments}
    texts: list[str] = []
    origins: list[str] = []
    offsets = [0]
    for s in range(a, b):
        hyps = by_segment.get(s, [])
        texts += hyps
        origins += [f"n-best #{r + 1}" for r in range(len(hyps))]
        offsets.append(len(texts))
    return CandidateLists(
        texts, offsets, [list(r) for r in refs], origins, list(ref_names or []) or None,
        {"nbest": source, "id_base": id_base} if source else {},
    )  # fmt: skip


def _beyond_references(path: str | Path, seg_id: int, S: int, id_base: int) -> NoReturn:
    raise UserInputError(
        f"segment id {seg_id} has no reference (the references have {S} lines, ids start at "
        f"{id_base})",
        path=str(path),
    )


@dataclass(frozen=True)
class NBestSlice:
    """A chunk of a Moses n-best file that its worker reads itself (from shared storage):
    the byte range of segments ``first..first + n_segments - 1`` (checked by the client's
    scan, :func:`~mtpalette.io.nbest.moses_segment_starts`) and those segments' references.
    The candidate texts never pass through the client or the scheduler."""

    path: str
    start: int
    end: int
    first_line: int
    first: int
    n_segments: int
    refs: tuple[tuple[str, ...], ...]
    ref_names: tuple[str, ...] | None
    id_base: int

    def load(self) -> CandidateLists:
        """The chunk's candidate lists, as :func:`nbest_chunks` would give them."""
        a, b = self.first, self.first + self.n_segments
        segments = list(read_moses_span(self.path, self.start, self.end, self.first_line))
        if any(not a <= seg_id - self.id_base < b for seg_id, _ in segments):
            raise UserInputError("the file changed since the run read it", path=self.path)
        return chunk_lists(
            segments, a, b, self.refs, self.ref_names, self.id_base, source=self.path
        )


def nbest_slices(
    path: str | Path,
    refs: Sequence[Sequence[str]],
    size: int,
    *,
    id_base: int = 0,
    ref_names: Sequence[str] | None = None,
) -> Iterator[tuple[int, int, NBestSlice]]:
    """The chunks of :func:`nbest_chunks` as byte ranges of the file (:class:`NBestSlice`),
    from one checking scan that keeps no hypothesis: for workers that read the file where
    they are."""
    S = len(refs[0])
    ranges = chunk_ranges(S, size)
    starts = moses_segment_starts(path)
    seg_id, offset, line = next(starts)
    for index, (a, b) in enumerate(ranges):
        begin, first_line = offset, line
        while seg_id != -1 and seg_id - id_base < b:
            if seg_id - id_base < a:  # below the first id
                _beyond_references(path, seg_id, S, id_base)
            seg_id, offset, line = next(starts)
        yield index, a, NBestSlice(
            str(Path(path).resolve()), begin, offset, first_line, a, b - a,
            tuple(tuple(r[a:b]) for r in refs), tuple(ref_names) if ref_names else None,
            id_base,
        )  # fmt: skip
    if seg_id != -1:
        _beyond_references(path, seg_id, S, id_base)


def combine(
    run_dir: Path,
    n_chunks: int,
    specs: Sequence[str],
    higher: Sequence[bool],
    *,
    n_segments: int,
    oracle: str,
    n_refs: int,
    signatures: Sequence[str],
    stamp: str,
    chunk_size: int,
    cutoffs_for: Callable[[int], Sequence[int]] | None = None,
) -> list[Comparisons]:
    """Every metric's :class:`Comparisons` from the chunk files, in segment order, in the
    compact form (per segment, the sums at the cutoffs ``cutoffs_for(longest list)`` and at
    the longest list itself): the chunks are read one at a time, so memory holds one chunk
    and the sums, whatever the number of candidates. Each chunk must be stamped with this run
    (``stamp``), hold its own segment range and match its checksum."""
    ranges = chunk_ranges(n_segments, chunk_size)
    if len(ranges) != n_chunks:
        raise UserInputError(f"expected {len(ranges)} chunks, not {n_chunks}")
    # first the lists' lengths, from the stamps and the segment columns alone
    n_cand = np.zeros(n_segments, dtype=np.int64)
    for i, (lo, hi) in enumerate(ranges):
        path = chunk_path(run_dir, i)
        if not path.exists():
            raise UserInputError(
                "this chunk is missing (with --scheduler, the run folder must be one that every "
                "worker writes to and this machine reads: a shared file system); run again with "
                "--resume",
                path=str(path),
            )
        if _stamp(path) != (stamp, lo, hi - lo):
            _refuse(path, chunk_problem(path) or f"not segments {lo}..{hi - 1} of this run")
        try:
            seg = column_ints(read_chunk(path, ["segment"]), "segment")
        except Exception:  # the checksum read below would say the same
            _refuse(path, chunk_problem(path) or "damaged")
        n_cand += np.bincount(seg, minlength=n_segments)[:n_segments]
    offsets = np.zeros(n_segments + 1, dtype=np.int64)
    np.cumsum(n_cand, out=offsets[1:])
    longest = int(n_cand.max(initial=0))
    cut = np.union1d(np.asarray(cutoffs_for(longest) if cutoffs_for else [], np.int64), [longest])
    cut = cut[(cut >= 1) & (cut <= longest)] if longest else np.array([0], dtype=np.int64)
    K = n_refs if oracle == "leave-one-out" else 1
    better_at = [np.zeros((n_segments, len(cut)), dtype=np.int64) for _ in specs]
    ties_at = [np.zeros((n_segments, len(cut)), dtype=np.int64) for _ in specs]
    for i, (lo, hi) in enumerate(ranges):
        path = chunk_path(run_dir, i)
        table = read_chunk(path)
        # checked again as read: nothing damaged since the run wrote it
        if (table.schema.metadata or {}).get(b"mtpalette.payload", b"").decode() != payload_hash(
            table
        ):
            _refuse(path, chunk_problem(path) or "changed while the run read it")
        seg = column_ints(table, "segment")
        local = np.zeros(hi - lo + 1, dtype=np.int64)
        np.cumsum(np.bincount(seg - lo, minlength=hi - lo), out=local[1:])
        if not np.array_equal(local, offsets[lo : hi + 1] - offsets[lo]):
            _refuse(path, "changed while the run read it")
        for m, (spec, hib) in enumerate(zip(specs, higher, strict=True)):
            part = Comparisons(
                spec, hib, local, column_ints(table, f"better:{spec}"),
                column_ints(table, f"ties:{spec}"), K, oracle, n_refs,
            )  # fmt: skip
            better_at[m][lo:hi], ties_at[m][lo:hi] = part.sums_at(cut)
        del table
    return [
        Comparisons.from_segment_sums(
            spec, hib, offsets, cut, better_at[m], ties_at[m], K, oracle, n_refs, sig
        )
        for m, (spec, hib, sig) in enumerate(zip(specs, higher, signatures, strict=True))
    ]


def _refuse(path: Path, problem: str) -> NoReturn:
    raise UserInputError(
        f"this chunk is {problem}; run again with --resume to recompute it", path=str(path)
    )
