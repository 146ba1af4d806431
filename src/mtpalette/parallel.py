"""Where work runs: in this process, in local processes, or on a Dask cluster.

One function, :func:`run_tasks`, maps a picklable function over tasks (a list, or an iterator
read as workers free up: at most a window of tasks is in flight) and yields ``(index,
result)`` as tasks finish, on the backend the user chose:

* ``inproc`` (default): one after the other in this process (the Rust kernels still use
  every core inside each task);
* ``processes``: a local process pool of ``workers`` processes;
* ``dask``: a ``distributed`` cluster - a ``LocalCluster`` of ``workers`` single-threaded
  worker processes on loopback, or the scheduler at ``scheduler`` (``tcp://host:8786``); one
  client for the whole run, its mtpalette version checked against every worker's. Each task
  is scattered to a worker (sent to it directly, not through the scheduler inside the task
  graph), and the kernels of a worker run on as many threads as Dask gives it (or
  ``threads``). On a SLURM machine, start the cluster with dask-jobqueue and pass its
  address::

      from dask_jobqueue import SLURMCluster
      cluster = SLURMCluster(cores=8, memory="16GB", walltime="02:00:00")
      cluster.scale(jobs=10)
      print(cluster.scheduler_address)   # give it to --scheduler

Every task is a pure function of its input, and callers combine results by task index, so
the numbers do not depend on the backend, the number of workers or the finishing order.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from mtpalette.errors import UserInputError

BACKENDS = ("inproc", "processes", "dask")


@dataclass(frozen=True)
class Backend:
    """A backend choice: ``name`` in :data:`BACKENDS`, ``workers`` (local backends) and an
    optional Dask ``scheduler`` address."""

    name: str = "inproc"
    workers: int = 1
    scheduler: str | None = None
    #: the kernels' threads in each worker (None: a Dask worker's own thread count; the
    #: default pool for local processes)
    threads: int | None = None

    def __post_init__(self) -> None:
        if self.name == "dask" and not self.scheduler:
            import os

            # Dask's own convention for "the cluster to use" (dask-jobqueue, the Helm chart)
            address = os.environ.get("DASK_SCHEDULER_ADDRESS", "").strip()
            if address:
                object.__setattr__(self, "scheduler", address)
        if self.name not in BACKENDS:
            raise UserInputError(
                f"unknown backend {self.name!r}; expected one of {', '.join(BACKENDS)}"
            )
        if self.workers < 1:
            raise UserInputError("--workers must be at least 1")
        if self.scheduler and self.name != "dask":
            raise UserInputError("--scheduler needs --backend dask")
        if self.threads is not None and (self.threads < 1 or self.name == "inproc"):
            raise UserInputError(
                "--threads-per-worker must be at least 1, with --backend processes or dask"
            )


def run_tasks(
    fn: Callable[[Any], Any],
    tasks: Iterable[Any],
    backend: Backend | None = None,
    *,
    window: int = 0,
) -> Iterator[tuple[int, Any]]:
    """``(index, fn(task))`` for every task, in finishing order. ``tasks`` is read as workers
    free up: at most ``window`` tasks are in flight (default: two per worker thread), so an
    iterator of large tasks is never all in memory.

    Examples
    --------
    >>> sorted(run_tasks(abs, [-1, 2, -3]))
    [(0, 1), (1, 2), (2, 3)]
    """
    backend = backend or Backend()
    if backend.name == "inproc":
        for i, task in enumerate(tasks):
            yield i, fn(task)
    elif backend.name == "processes":
        yield from _processes(fn, tasks, backend, window or 2 * backend.workers)
    else:
        yield from _dask(fn, tasks, backend, window)


def _windowed(
    submit, tasks: Iterable[Any], window: int, finished, lost=None
) -> Iterator[tuple[int, Any]]:
    """``(index, result)`` of every task in finishing order: ``submit(task)`` gives a future,
    at most ``window`` are in flight, and ``finished`` (``add(future)``, iteration) gives them
    back as they finish. A task whose future failed with an error that ``lost(error)`` calls
    a loss (its data went with a dead worker) is submitted again, up to :data:`RETRIES`
    times."""
    todo = enumerate(tasks)
    where: dict[Any, tuple[int, Any, int]] = {}

    def put(index: int, task: Any, tries: int) -> None:
        future = submit(task)
        where[future] = (index, task, tries)
        finished.add(future)

    def top_up() -> None:
        while len(where) < max(window, 1):
            item = next(todo, None)
            if item is None:
                return
            put(*item, 0)

    top_up()
    for future in finished:
        index, task, tries = where.pop(future)
        try:
            result = future.result()
        except Exception as exc:
            if lost is None or not lost(exc) or tries >= RETRIES:
                raise
            put(index, task, tries + 1)
            continue
        yield index, result
        top_up()


#: how many times a task lost with a worker is submitted again
RETRIES = 3


class _Finished:
    """The futures of a process pool as they finish, more added on the way (what
    ``distributed.as_completed`` does for Dask's)."""

    def __init__(self) -> None:
        self.pending: set = set()
        self.ready: list = []

    def add(self, future) -> None:
        self.pending.add(future)

    def __iter__(self) -> _Finished:
        return self

    def __next__(self):
        from concurrent.futures import FIRST_COMPLETED, wait

        if not self.ready:
            if not self.pending:
                raise StopIteration
            done, self.pending = wait(self.pending, return_when=FIRST_COMPLETED)
            self.ready = list(done)
        return self.ready.pop()


def _with_threads(fn, task, threads: int | None):
    """``fn(task)`` with the kernels on ``threads`` threads (when given) in this worker."""
    if threads is not None:
        _set_kernel_threads(threads)
    return fn(task)


#: the kernel threads this worker process has set (0: none yet)
_KERNEL_THREADS = [0]


def _set_kernel_threads(n: int) -> None:
    if _KERNEL_THREADS[0] != n:
        from mtpalette.kernels.threads import set_threads

        set_threads(n)
        _KERNEL_THREADS[0] = n


#: one process pool per worker count, kept for the life of the process: a chunked run calls
#: :func:`run_tasks` once per few chunks, and starting workers costs seconds
_POOLS: dict[int, Any] = {}


def _worker_init(parent: int) -> None:
    """Make a pool worker die with its parent, even a SIGKILLed one: Linux's parent-death
    signal when available, else a thread that watches the parent's pid."""
    import os
    import signal

    try:
        import ctypes

        PR_SET_PDEATHSIG = 1
        if ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL) != 0:
            raise OSError("prctl failed")
    except (OSError, AttributeError):
        import threading
        import time

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(1.0)
            os._exit(1)

        threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)


def _pool(workers: int):
    import atexit
    import multiprocessing as mp
    import os
    from concurrent.futures import ProcessPoolExecutor

    pool = _POOLS.get(workers)
    if pool is None:
        # "spawn": a fork of a process that has started the kernels' threads can deadlock
        pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=mp.get_context("spawn"),
            initializer=_worker_init,
            initargs=(os.getpid(),),
        )
        _POOLS[workers] = pool
        atexit.register(pool.shutdown, wait=True, cancel_futures=True)
    return pool


def _processes(fn, tasks: Iterable[Any], backend: Backend, window: int):
    from concurrent.futures.process import BrokenProcessPool

    pool = _pool(backend.workers)
    try:
        yield from _windowed(
            lambda task: pool.submit(_with_threads, fn, task, backend.threads),
            tasks,
            window,
            _Finished(),
        )
    except BrokenProcessPool:
        _POOLS.pop(backend.workers, None)  # a worker died: the next run starts a new pool
        raise


#: one Dask client (and local cluster) per backend, kept for the life of the process: a
#: chunked run calls :func:`run_tasks` once per few chunks, and a cluster costs seconds to start
_CLIENTS: dict[tuple[str | None, int], tuple[Any, Any]] = {}


def _client_key(backend: Backend) -> tuple[str | None, int]:
    return (backend.scheduler, backend.workers)


def _dask_client(backend: Backend):
    """The process's client of ``backend`` (made on first use, closed at exit)."""
    key = _client_key(backend)
    if key in _CLIENTS:
        return _CLIENTS[key][0]
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - a dependency
        raise UserInputError(
            "the dask backend needs 'distributed' (pip install distributed)"
        ) from None
    cluster = None
    if backend.scheduler:
        try:
            client = Client(backend.scheduler, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError) as exc:
            raise UserInputError(
                f"cannot reach the Dask scheduler at {backend.scheduler} ({_reason(exc)}); "
                "check the address, then run again (with --resume to keep the chunks done)"
            ) from None
        _wait_for_workers(client, backend.scheduler)
        _check_versions(client, backend.scheduler)
    else:
        import logging

        cluster = LocalCluster(
            n_workers=backend.workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            # a task's error reaches the user once, as our own message; the workers' logs
            # would print its traceback again (once 14 lines for a raising plugin)
            silence_logs=logging.CRITICAL,
        )
        client = Client(cluster)
    if not _CLIENTS:
        import atexit

        atexit.register(_close_clients)
    _CLIENTS[key] = (client, cluster)
    return client


def _close_clients() -> None:
    for client, cluster in _CLIENTS.values():
        with contextlib.suppress(Exception):
            client.close()
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close()
    _CLIENTS.clear()


def _dask(fn, tasks: Iterable[Any], backend: Backend, window: int) -> Iterator[tuple[int, Any]]:
    import time

    from distributed import as_completed

    client = _dask_client(backend)
    try:
        # two tasks per worker thread in flight: a worker never waits for its next task
        window = window or 2 * max(sum(client.nthreads().values()), 1)

        def submit(task):
            # the task's data goes straight to a worker, not into the graph the scheduler holds
            for tries in range(RETRIES + 1):
                try:
                    [data] = client.scatter([task], hash=False, direct=True)
                    break
                except OSError:  # the worker picked has just died: another one, once known
                    if tries == RETRIES:
                        raise
                    time.sleep(1.0)
            return client.submit(_on_dask_worker, fn, data, backend.threads, pure=False)

        yield from _windowed(submit, tasks, window, as_completed(), _lost_with_a_worker)
    except (OSError, TimeoutError) as exc:  # the scheduler or the connection gone mid-run
        _CLIENTS.pop(_client_key(backend), None)
        where = backend.scheduler or "the local Dask cluster"
        raise UserInputError(
            f"lost {where} ({_reason(exc)}); the chunks done are kept: run again with --resume"
        ) from None


def _lost_with_a_worker(exc: BaseException) -> bool:
    """Whether a task failed because its data or its worker is gone (not by its own error):
    then it is scattered and submitted again."""
    from concurrent.futures import CancelledError

    return isinstance(exc, CancelledError)


def _on_dask_worker(fn, task, threads: int | None):
    """``fn(task)`` on a Dask worker, its kernels on ``threads`` threads (None: as many as
    the worker has)."""
    if threads is None:
        from distributed import get_worker

        threads = max(int(get_worker().state.nthreads), 1)
    return _with_threads(fn, task, threads)


def _worker_version() -> str:
    from mtpalette._version import __version__

    return __version__


def _check_versions(client, where: str) -> None:
    """Refuse workers running another mtpalette version than this one (their numbers could
    differ: a metric may have changed)."""
    from mtpalette._version import __version__

    try:
        versions = client.run(_worker_version)
    except Exception as exc:  # a worker without mtpalette cannot even unpickle the call
        raise UserInputError(
            f"the workers of {where} cannot run mtpalette ({_reason(exc)}); install mtpalette "
            f"{__version__} on every worker"
        ) from None
    other = sorted(f"{w} has {v}" for w, v in versions.items() if v != __version__)
    if other:
        raise UserInputError(
            f"the workers of {where} must run mtpalette {__version__}, as this machine does: "
            + "; ".join(other[:3])
            + (f" (and {len(other) - 3} more)" if len(other) > 3 else "")
        )


def check_shared_folder(backend: Backend, folder: str, files: Sequence[str] = ()) -> None:
    """With a Dask backend, check that every worker sees ``folder`` (an absolute path) and can
    write there, and sees each of ``files`` (absolute paths) with the size it has here, before
    any task is submitted: a worker elsewhere would write its files where this machine never
    finds them, or read another file."""
    if backend.name != "dask":
        return
    import os
    import uuid

    client = _dask_client(backend)
    probe = os.path.join(folder, f".probe-{uuid.uuid4().hex}")
    try:
        with open(probe, "w") as fh:
            fh.write("mtpalette")
    except OSError as exc:
        raise UserInputError(f"cannot write here ({_reason(exc)})", path=folder) from None
    try:
        sizes = {f: os.path.getsize(f) for f in files}
        answers = client.run(_sees_folder, folder, probe, sizes)
    finally:
        with contextlib.suppress(OSError):
            os.remove(probe)
    blind = sorted(w for w, ok in answers.items() if not ok)
    if blind:
        names = client.scheduler_info().get("workers", {})
        who = lambda w: f"{names.get(w, {}).get('name', w)} ({w})"  # noqa: E731
        raise UserInputError(
            f"Dask worker {who(blind[0])}"
            + (f" and {len(blind) - 1} more" if len(blind) > 1 else "")
            + " cannot see or write this folder"
            + (" or cannot read " + ", ".join(files) if files else "")
            + ": the run folder (and the n-best file) must be on a file system that every "
            "worker and this machine share",
            path=folder,
        )


def _sees_folder(folder: str, probe: str, sizes: dict[str, int]) -> bool:
    """On a worker: whether ``probe`` (written by the client) is there, ``folder`` is
    writable, and each file of ``sizes`` is there with that size."""
    import os
    import tempfile

    if not os.path.exists(probe):
        return False
    for path, size in sizes.items():
        try:
            if os.path.getsize(path) != size:
                return False
        except OSError:
            return False
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=".probe-worker-")
    except OSError:
        return False
    os.close(fd)
    os.remove(name)
    return True


#: seconds to reach a scheduler, and to wait for a worker to be there
CONNECT_SECONDS = 10
WORKER_SECONDS = 120


def _reason(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:160] or type(exc).__name__


def _wait_for_workers(client, address: str) -> None:
    """Refuse to wait forever on a scheduler without workers."""
    try:
        client.wait_for_workers(1, timeout=WORKER_SECONDS)
    except (OSError, TimeoutError):
        raise UserInputError(
            f"the Dask scheduler at {address} has had no worker for {WORKER_SECONDS} s; start "
            "workers (dask worker " + address + "), then run again with --resume"
        ) from None


def chunk_ranges(n: int, size: int) -> list[tuple[int, int]]:
    """``[start, stop)`` ranges of at most ``size`` covering ``range(n)``.

    Examples
    --------
    >>> chunk_ranges(5, 2)
    [(0, 2), (2, 4), (4, 5)]
    """
    if size < 1:
        raise UserInputError("the chunk size must be at least 1")
    return [(a, min(a + size, n)) for a in range(0, n, size)]
