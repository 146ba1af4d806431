"""Where work runs: in this process, in local processes, or on a Dask cluster.

One function, :func:`run_tasks`, maps a picklable function over tasks and yields
``(index, result)`` as tasks finish, on the backend the user chose:

* ``inproc`` (default): one after the other in this process (the Rust kernels still use
  every core inside each task);
* ``processes``: a local process pool of ``workers`` processes;
* ``dask``: a ``distributed`` cluster - a ``LocalCluster`` of ``workers`` single-threaded
  worker processes on loopback, or the scheduler at ``scheduler`` (``tcp://host:8786``). On a
  SLURM machine, start the cluster with dask-jobqueue and pass its address::

      from dask_jobqueue import SLURMCluster
      cluster = SLURMCluster(cores=8, memory="16GB", walltime="02:00:00")
      cluster.scale(jobs=10)
      print(cluster.scheduler_address)   # give it to --scheduler

Every task is a pure function of its input, and callers combine results by task index, so
the numbers do not depend on the backend, the number of workers or the finishing order.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
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

    def __post_init__(self) -> None:
        if self.name not in BACKENDS:
            raise UserInputError(
                f"unknown backend {self.name!r}; expected one of {', '.join(BACKENDS)}"
            )
        if self.workers < 1:
            raise UserInputError("--workers must be at least 1")
        if self.scheduler and self.name != "dask":
            raise UserInputError("--scheduler needs --backend dask")


def run_tasks(
    fn: Callable[[Any], Any], tasks: Sequence[Any], backend: Backend | None = None
) -> Iterator[tuple[int, Any]]:
    """``(index, fn(tasks[index]))`` for every task, in finishing order.

    Examples
    --------
    >>> sorted(run_tasks(abs, [-1, 2, -3]))
    [(0, 1), (1, 2), (2, 3)]
    """
    backend = backend or Backend()
    if not tasks:
        return
    if backend.name == "inproc":
        for i, task in enumerate(tasks):
            yield i, fn(task)
    elif backend.name == "processes":
        yield from _processes(fn, tasks, backend.workers)
    else:
        yield from _dask(fn, tasks, backend)


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


def _processes(fn, tasks: Sequence[Any], workers: int) -> Iterator[tuple[int, Any]]:
    from concurrent.futures import as_completed
    from concurrent.futures.process import BrokenProcessPool

    pool = _pool(workers)
    try:
        futures = {pool.submit(fn, task): i for i, task in enumerate(tasks)}
        for future in as_completed(futures):
            yield futures[future], future.result()
    except BrokenProcessPool:
        _POOLS.pop(workers, None)  # a worker died: the next run starts a new pool
        raise


#: one Dask client (and local cluster) per backend, kept for the life of the process: a
#: chunked run calls :func:`run_tasks` once per few chunks, and a cluster costs seconds to start
_CLIENTS: dict[tuple[str | None, int], tuple[Any, Any]] = {}


def _dask_client(backend: Backend):
    """The process's client of ``backend`` (made on first use, closed at exit)."""
    key = (backend.scheduler, backend.workers)
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


def _dask(fn, tasks: Sequence[Any], backend: Backend) -> Iterator[tuple[int, Any]]:
    from distributed import as_completed

    client = _dask_client(backend)
    try:
        futures = client.map(fn, list(tasks), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        for future in as_completed(futures):
            yield index[future.key], future.result()
    except (OSError, TimeoutError) as exc:  # the scheduler or the connection gone mid-run
        _CLIENTS.pop((backend.scheduler, backend.workers), None)
        where = backend.scheduler or "the local Dask cluster"
        raise UserInputError(
            f"lost {where} ({_reason(exc)}); the chunks done are kept: run again with --resume"
        ) from None


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
