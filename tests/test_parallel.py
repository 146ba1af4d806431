"""Local process workers: one pool per run, reused across calls, and workers that die with
their parent (once they stayed alive, 270 MB each, after a SIGKILL of the parent)."""

import os
import signal
import subprocess
import sys
import textwrap

import psutil

from mtpalette.parallel import Backend, _pool, run_tasks


def test_pool_is_reused_and_results_come_back():
    backend = Backend("processes", workers=2)
    first = dict(run_tasks(abs, [-1, -2, 3], backend))
    pool = _pool(2)
    second = dict(run_tasks(abs, [-4, 5], backend))
    assert first == {0: 1, 1: 2, 2: 3} and second == {0: 4, 1: 5}
    assert _pool(2) is pool  # the same workers, not a fresh pool per call


def test_workers_die_with_a_killed_parent(tmp_path):
    script = textwrap.dedent(
        """
        import os, sys, time
        from mtpalette.parallel import Backend, run_tasks
        list(run_tasks(abs, [-1, -2], Backend("processes", workers=2)))
        print("ready", flush=True)
        time.sleep(60)
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout.readline().strip() == "ready"
        workers = [p for p in psutil.Process(parent.pid).children(recursive=True)
                   if "spawn_main" in " ".join(p.cmdline())]  # fmt: skip
        assert len(workers) == 2
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=10)
        gone, alive = psutil.wait_procs(workers, timeout=10)
        assert not alive, f"workers still alive after the parent's SIGKILL: {alive}"
    finally:
        if parent.poll() is None:
            parent.kill()
