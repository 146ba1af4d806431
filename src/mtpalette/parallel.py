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
        source = "--scheduler"
        if self.name == "dask" and not self.scheduler:
            import os

            # Dask's own convention for "the cluster to use" (dask-jobqueue, the Helm chart)
            address = os.environ.get("DASK_SCHEDULER_ADDRESS", "").strip()
            if address:
                object.__setattr__(self, "scheduler", address)
                source = "$DASK_SCHEDULER_ADDRESS"
        if self.name not in BACKENDS:
            raise UserInputError(
                f"unknown backend {self.name!r}; expected one of {', '.join(BACKENDS)}"
            )
        if self.workers < 1:
            raise UserInputError("--workers must be at least 1")
        if self.scheduler and self.name != "dask":
            raise UserInputError("--scheduler needs --backend dask")
        if self.workers != 1 and self.name == "inproc":
            raise UserInputError(
                f"--workers {self.workers} needs --backend processes or dask: the in-process "
                "backend runs one task after the other (its kernels use every core)"
            )
        if self.workers != 1 and self.scheduler:
            raise UserInputError(
                f"--workers {self.workers} starts a local Dask cluster, but {source} names the "
                f"cluster at {self.scheduler}, whose own workers run the tasks: give one of them"
            )
        if self.scheduler:
            check_address(self.scheduler, source)
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
    shared: SharedStorage | None = None,
) -> Iterator[tuple[int, Any]]:
    """``(index, fn(task))`` for every task, in finishing order. ``tasks`` is read as workers
    free up: at most ``window`` tasks are in flight (default: two per worker thread), so an
    iterator of large tasks is never all in memory.

    On Dask, every worker runs this mtpalette version and sees ``shared`` (when given): the
    workers there at the start, and each one that joins later, before a result is given back.
    A fault mid-run (the scheduler lost, a worker refused, a task lost with its workers) is a
    :class:`ClusterFault`, one line naming what failed.

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
        yield from _dask(fn, tasks, backend, window, shared)


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


class ClusterFault(UserInputError):
    """A fault of the cluster mid-run, in one line naming what failed: the scheduler lost, a
    worker that joined refused (another mtpalette version, or blind to the shared storage),
    a task lost with the workers that ran it. The tasks that finished are the caller's to
    keep (a chunked run says ``--resume``)."""


@dataclass(frozen=True)
class SharedStorage:
    """What every Dask worker must see as this machine does: ``folder`` (an absolute path it
    writes to) and ``files`` (absolute paths it reads, with the sizes they have here)."""

    folder: str
    files: tuple[str, ...] = ()


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
        except (OSError, TimeoutError, ValueError) as exc:
            raise UserInputError(
                f"cannot reach the Dask scheduler at {backend.scheduler} ({_reason(exc)}); "
                "check the address, then run again (with --resume to keep the chunks done)"
            ) from None
        _wait_for_workers(client, backend.scheduler)
        _check_versions(client, _where(backend))
        import logging

        # a lost scheduler is said in one line (_dask); distributed's client thread would
        # first log the closed connection at INFO with its traceback, racing that line
        logging.getLogger("distributed.batched").setLevel(logging.WARNING)
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


def _drop_client(backend: Backend) -> None:
    """Forget and close the client of a cluster that failed, quietly: its reconnection
    attempts would otherwise log a traceback at exit, after the one line said it all."""
    import logging

    for name in ("distributed.client", "distributed.core", "distributed.comm",
                 "distributed.batched", "distributed.utils"):  # fmt: skip
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    client, cluster = _CLIENTS.pop(_client_key(backend), (None, None))
    for part in (client, cluster):
        if part is not None:
            with contextlib.suppress(Exception):
                part.close(timeout=2)


def _where(backend: Backend) -> str:
    if backend.scheduler:
        return f"the Dask scheduler at {backend.scheduler}"
    return "the local Dask cluster"


def _dask(
    fn, tasks: Iterable[Any], backend: Backend, window: int, shared: SharedStorage | None
) -> Iterator[tuple[int, Any]]:
    import time
    from concurrent.futures import CancelledError

    client = _dask_client(backend)
    where = _where(backend)
    address = client.scheduler.address

    def running() -> bool:
        return client.status == "running"

    def lost(exc: BaseException) -> bool:
        """A task lost with its worker (its data gone): scattered and submitted again. Not
        when the scheduler is gone (every future is cancelled then)."""
        return isinstance(exc, CancelledError) and running() and (
            getattr(exc, "reason", None) != "scheduler-connection-lost"
        )  # fmt: skip

    try:
        finished = _Finishing(client, where, shared)
        # two tasks per worker thread in flight: a worker never waits for its next task
        window = window or 2 * max(sum(client.nthreads().values()), 1)

        def submit(task):
            # the task's data goes straight to a worker, not into the graph the scheduler holds
            for tries in range(RETRIES + 1):
                if not running():
                    raise ConnectionError("the connection to the scheduler closed")
                try:
                    [data] = client.scatter([task], hash=False, direct=True)
                    break
                except OSError:  # the worker picked has just died: another one, once known
                    if tries == RETRIES:
                        raise
                    time.sleep(1.0)
            return client.submit(_on_dask_worker, fn, data, backend.threads, pure=False)

        yield from _windowed(submit, tasks, window, finished, lost)
    except UserInputError:
        raise
    except Exception as exc:
        fault = _fault(exc, where, running() and not _gone(address, exc))
        if fault is None:
            raise  # a task's own error (a bug): its traceback is the report
        _drop_client(backend)
        raise ClusterFault(fault) from None


def _gone(address: str, exc: BaseException) -> bool:
    """Whether the scheduler at ``address`` is gone: ``exc`` a closed connection to it, or
    no answer there (a TCP address)."""
    import socket

    if not isinstance(exc, OSError | TimeoutError):
        return False
    if f"remote={address}>" in str(exc):
        return True
    scheme, _, rest = address.rpartition("://")
    if scheme not in ("", "tcp"):
        return False
    host, _, port = rest.rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=2).close()
    except (OSError, ValueError):
        return True
    return False


def _fault(exc: BaseException, where: str, running: bool) -> str | None:
    """What failed, in a few words, when ``exc`` is the cluster's fault (None: a task's);
    ``running``: whether the scheduler is still there."""
    from concurrent.futures import CancelledError

    from distributed import KilledWorker

    if not running or getattr(exc, "reason", None) == "scheduler-connection-lost":
        why = "its connection closed" if isinstance(exc, CancelledError) else _reason(exc)
        return f"lost {where} mid-run ({why.rsplit('>: ', 1)[-1]})"
    if isinstance(exc, KilledWorker):
        return (
            f"the workers of {where} died {exc.allowed_failures + 1} times running one task "
            f"(the last: {getattr(exc.last_worker, 'address', exc.last_worker)}); most often "
            "that is memory: see the worker's log"
        )
    if isinstance(exc, CancelledError):  # lost with its worker more than RETRIES times
        why = getattr(exc, "reason", None) or _reason(exc)
        return (
            f"a task was lost with its worker {RETRIES + 1} times on {where} (cancelled: "
            f"{why}); a worker that dies on every try is most often out of memory (see its log)"
        )
    if isinstance(exc, OSError | TimeoutError):
        return f"lost a connection of {where} mid-run ({_reason(exc)})"
    return None


class _Finishing:
    """The futures of a Dask run as they finish (distributed's ``as_completed``). Before
    each one is given back, the workers that joined since the last one are checked (version
    and shared storage, as at the start): a result of a worker that was not checked never
    reaches the caller."""

    def __init__(self, client, where: str, shared: SharedStorage | None) -> None:
        from distributed import as_completed

        self.client, self.where, self.shared = client, where, shared
        self.done = as_completed()
        self.known: set[str] = set()
        self.check(late=False)

    def add(self, future) -> None:
        self.done.add(future)

    def __iter__(self) -> _Finishing:
        return self

    def __next__(self):
        future = next(self.done)
        if self.client.status == "running":  # else the future says the scheduler is gone
            self.check(late=True)
        return future

    def check(self, *, late: bool) -> None:
        now = set(self.client.nthreads())
        new = sorted(now - self.known)
        if new:
            _check_versions(self.client, self.where, new, late=late)
            if self.shared is not None:
                _check_storage(self.client, self.shared, new, late=late)
        self.known |= now


def _on_dask_worker(fn, task, threads: int | None):
    """``fn(task)`` on a Dask worker, its kernels on ``threads`` threads (None: as many as
    the worker has). An error of the user's, of a file or of memory comes back as one line
    naming this worker."""
    from distributed import get_worker

    worker = get_worker()
    if threads is None:
        threads = max(int(worker.state.nthreads), 1)
    try:
        return _with_threads(fn, task, threads)
    except UserInputError as exc:
        message = str(exc)
    except OSError as exc:
        message = os_reason(exc)
    except MemoryError:
        message = "out of memory"
    except Exception as exc:  # a bug: its traceback as text (a deep one would not pickle, and
        import traceback  # the client would wait forever for the task's error)

        text = "".join(traceback.format_exception(exc, limit=-20))
        raise RuntimeError(f"{type(exc).__name__} on {worker_label()}: {exc}\n{text}") from None
    label = worker_label()
    raise UserInputError(message if label in message else f"{message} (on {label})")


def worker_label() -> str:
    """``Dask worker NAME (ADDRESS)`` on a Dask worker, else ``this machine``."""
    import sys

    if "distributed" in sys.modules:
        from distributed import get_worker

        try:
            worker = get_worker()
        except ValueError:  # not on a worker
            return "this machine"
        return _label(worker.address, {worker.address: str(worker.name)})
    return "this machine"


def _gone_worker(answer: object) -> bool:
    """Whether ``client.run``'s answer of a worker says it is gone (a connection error)."""
    return isinstance(answer, OSError | TimeoutError)


def _label(address: str, names: dict[str, str]) -> str:
    name = names.get(address, address)
    return f"Dask worker {name}" + (f" ({address})" if name != address else "")


def _names(client) -> dict[str, str]:
    workers = client.scheduler_info(n_workers=-1).get("workers", {})
    return {w: str(info.get("name", w)) for w, info in workers.items()}


def os_reason(exc: OSError) -> str:
    """An OSError in a few words, naming its file."""
    import os

    what = os.strerror(exc.errno) if exc.errno else (exc.strerror or str(exc))
    return f"{what}: {exc.filename}" if exc.filename else what


def _worker_version() -> str:
    from mtpalette._version import __version__

    return __version__


def _check_versions(client, where: str, workers: list[str] | None = None, *, late=False):
    """Refuse workers running another mtpalette version than this one (their numbers could
    differ: a metric may have changed); ``late``: workers that joined mid-run."""
    from mtpalette._version import __version__

    try:
        versions = client.run(_worker_version, workers=workers, on_error="return")
    except Exception as exc:  # a worker without mtpalette cannot even unpickle the call
        raise UserInputError(
            f"the workers of {where} cannot run mtpalette ({_reason(exc)}); install mtpalette "
            f"{__version__} on every worker"
        ) from None
    # a worker gone since it was listed is no worker of the run (its connection error)
    bad = {w: v for w, v in versions.items() if v != __version__ and not _gone_worker(v)}
    if not bad:
        return
    names = _names(client)
    other = sorted(
        f"{_label(w, names)} "
        + (f"has {v}" if isinstance(v, str) else f"cannot run mtpalette ({_reason(v)})")
        for w, v in bad.items()
    )
    listed = "; ".join(other[:3]) + (f" (and {len(other) - 3} more)" if len(other) > 3 else "")
    if late:
        raise ClusterFault(
            f"a worker joined {where} mid-run with another mtpalette: {listed}; every worker "
            f"must run mtpalette {__version__}, as this machine does: stop it"
        )
    raise UserInputError(
        f"the workers of {where} must run mtpalette {__version__}, as this machine does: {listed}"
    )


def check_shared_folder(backend: Backend, folder: str, files: Sequence[str] = ()) -> None:
    """With a Dask backend, check that every worker sees ``folder`` (an absolute path) and can
    write there, and sees each of ``files`` (absolute paths) with the size it has here, before
    any task is submitted: a worker elsewhere would write its files where this machine never
    finds them, or read another file. (:func:`run_tasks` with ``shared`` checks this too, and
    again for every worker that joins mid-run.)"""
    if backend.name == "dask":
        _check_storage(_dask_client(backend), SharedStorage(folder, tuple(files)), None)


def _check_storage(client, shared: SharedStorage, workers: list[str] | None, *, late=False):
    import os
    import uuid

    folder = shared.folder
    probe = os.path.join(folder, f".probe-{uuid.uuid4().hex}")
    try:
        with open(probe, "w") as fh:
            fh.write("mtpalette")
    except OSError as exc:
        raise UserInputError(f"cannot write here ({_reason(exc)})", path=folder) from None
    try:
        sizes = {f: os.path.getsize(f) for f in shared.files}
        answers = client.run(_sees_folder, folder, probe, sizes, workers=workers,
                             on_error="return")  # fmt: skip
    finally:
        with contextlib.suppress(OSError):
            os.remove(probe)
    blind = sorted((w, why) for w, why in answers.items() if why != "" and not _gone_worker(why))
    if not blind:
        return
    w, why = blind[0]
    who = _label(w, _names(client)) + (f" and {len(blind) - 1} more" if len(blind) > 1 else "")
    why = why if isinstance(why, str) else _reason(why)
    error = ClusterFault if late else UserInputError
    raise error(
        f"{who}{' joined mid-run and' if late else ''} cannot see or write this folder"
        + (" or cannot read " + ", ".join(shared.files) if shared.files else "")
        + f" ({why}): the run folder (and the n-best file) must be on a file system that "
        "every worker and this machine share",
        path=folder,
    )


def _sees_folder(folder: str, probe: str, sizes: dict[str, int]) -> str:
    """On a worker: why it does not see ``folder`` as the client does ("": it does), that is
    the ``probe`` file the client wrote there, a file of its own written there, and each file
    of ``sizes`` with that size."""
    import os
    import tempfile

    if not os.path.exists(probe):
        return "it does not see a file this machine wrote there"
    for path, size in sizes.items():
        try:
            if os.path.getsize(path) != size:
                return f"it sees {path} with {os.path.getsize(path)} bytes, not {size}"
        except OSError as exc:
            return f"it cannot read {path}: {exc.strerror}"
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=".probe-worker-")
    except OSError as exc:
        return f"it cannot write there: {exc.strerror}"
    os.close(fd)
    os.remove(name)
    return ""


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


#: Dask's address schemes (``distributed.comm.registry``), and those of a host and a port
_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")
_HOST_PORT = ("tcp", "tls", "ws", "wss")


def check_address(address: str, source: str = "--scheduler") -> None:
    """Refuse a Dask scheduler address that cannot be one (Dask's form: ``[scheme://]host:port``)
    before anything starts, without importing Dask.

    Examples
    --------
    >>> check_address("tcp://10.0.0.5:8786"); check_address("[::1]:8786")
    >>> check_address("notanaddress")
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: --scheduler 'notanaddress' is not a Dask scheduler address \
(no port); expected tcp://host:port
    """
    scheme, _, rest = address.rpartition("://")
    scheme = scheme or "tcp"
    problem = ""
    if scheme not in _SCHEMES:
        problem = f"unknown scheme {scheme!r}; Dask's are {', '.join(_SCHEMES)}"
    elif scheme in _HOST_PORT:
        host, colon, port = rest.rpartition(":")
        if not colon or not host:
            problem = "no port" if not colon else "no host"
        elif not port.isdigit() or not 0 < int(port) < 65536:
            problem = f"port {port!r} is not a number from 1 to 65535"
        elif any(c.isspace() for c in host) or "/" in host:
            problem = f"host {host!r} is not a host name"
    if problem:
        raise UserInputError(
            f"{source} {address!r} is not a Dask scheduler address ({problem}); expected "
            "tcp://host:port"
        )


def memory_available() -> tuple[int | None, str]:
    """The bytes this process can still take, and where that bound comes from: the machine's
    available memory, a container's (cgroup) limit, or a Dask worker's memory limit, whichever
    is least. ``(None, "")`` when it cannot be known."""
    import sys

    try:
        import psutil  # a dependency of distributed, hence of mtpalette
    except ImportError:  # pragma: no cover
        return None, ""
    room, where = psutil.virtual_memory().available, "available on this machine"
    cgroup = _cgroup_room()
    if cgroup is not None and cgroup < room:
        room, where = cgroup, "left under this container's memory limit"
    if "distributed" in sys.modules:
        from distributed import get_worker

        try:
            limit = get_worker().memory_manager.memory_limit
        except (ValueError, AttributeError):  # not on a worker
            limit = None
        if limit:
            left = int(limit) - psutil.Process().memory_info().rss
            if left < room:
                room = left
                where = f"left under the memory limit ({limit / 1e6:,.0f} MB) of {worker_label()}"
    return max(room, 0), where


def _cgroup_room() -> int | None:
    """Bytes left under this process's cgroup memory limit (v2, else v1), if there is one."""
    for limit, used in (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                        ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                         "/sys/fs/cgroup/memory/memory.usage_in_bytes")):  # fmt: skip
        try:
            with open(limit) as a, open(used) as b:
                cap, now = a.read().strip(), b.read().strip()
        except OSError:
            continue
        if cap.isdigit() and now.isdigit() and int(cap) < 1 << 60:
            return int(cap) - int(now)
        return None
    return None


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
