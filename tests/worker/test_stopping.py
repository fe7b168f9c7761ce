"""`dogtag worker` stops when told, however it is told, with the task it is running finished or
back in the queue: SIGTERM to its process group (systemd's default, a terminal's `kill -- -PGID`),
SIGTERM to its main process, SIGINT to its group (Ctrl-C), two signals at once, and SIGTERM to each
of its processes by its own pid (`pkill -f`, `killall`). django-q2 alone deadlocks on the first and
the last (its issue 346); see dogtag/worker/supervisor.py."""

import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connection
from django_q.models import OrmQ, Success
from django_q.tasks import async_task

from tests.worker.helpers import Worker, wait_for, worker_env

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = int(os.environ.get("DOGTAG_STOP_ROUNDS", "20"))
AT_ONCE = 4  # workers started side by side, each on a queue of its own
STOP_WITHIN = 20  # seconds from the signal to the exit of every process of the worker


def _group_sigterm(pid, processes):
    os.killpg(pid, signal.SIGTERM)


def _main_sigterm(pid, processes):
    os.kill(pid, signal.SIGTERM)


def _group_sigint(pid, processes):
    os.killpg(pid, signal.SIGINT)


def _two_at_once(pid, processes):
    os.killpg(pid, signal.SIGTERM)
    os.kill(pid, signal.SIGINT)


def _each_by_its_pid(pid, processes):
    for process in processes:
        try:
            os.kill(process, signal.SIGTERM)
        except ProcessLookupError:
            pass


WAYS = {
    "SIGTERM to the process group": _group_sigterm,
    "SIGTERM to the main process": _main_sigterm,
    "SIGINT to the process group": _group_sigint,
    "SIGTERM and SIGINT at once": _two_at_once,
    "SIGTERM to each process by its pid": _each_by_its_pid,
}


def _alive(pid) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie waiting for its parent has stopped
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except OSError:  # gone meanwhile
        return False


def _stop_one(tmp_path, way, n) -> str | None:
    """Start a worker on its own queue, hand it a task, stop it while the task runs; None if it
    stopped in time with the task finished once or back in the queue, else what went wrong."""
    queue = f"stop-{n}"
    log = tmp_path / f"{queue}.task"
    name = f"hold {n}"
    async_task("tests.worker.tasks.hold", str(log), q_options={"task_name": name, "cluster": queue})
    worker = Worker(tmp_path / f"{queue}.log", worker_env(Q_CLUSTER_NAME=queue, DOGTAG_WORKERS=1))
    try:
        wait_for(lambda: log.exists() and "started" in log.read_text(), 60, f"{name} to start", 0.05, worker)
        groups = worker.groups()
        processes = [int(p) for g in groups for p in _members(g)]
        WAYS[way](worker.pid, processes)
        Path(f"{log}.go").touch()
        signalled = time.monotonic()
        deadline = signalled + STOP_WITHIN
        while time.monotonic() < deadline and (worker.poll() is None or any(map(_alive, processes))):
            time.sleep(0.05)
        if worker.poll() is None or any(map(_alive, processes)):
            return f"{way} #{n}: still running {STOP_WITHIN} s after the signal:\n{worker.log()}"
        runs = log.read_text().splitlines()
        finished = Success.objects.filter(name=name).count()
        queued = sum(1 for q in OrmQ.objects.filter(key=queue) if q.name() == name)
        if len([r for r in runs if r.startswith("started")]) != 1 or (finished, queued) not in ((1, 0), (0, 1)):
            return f"{way} #{n}: runs {runs}, {finished} results, {queued} in the queue\n{worker.log()}"
        if finished and runs[-1] != "done":
            return f"{way} #{n}: a result without the task's end: {runs}"
        return None
    finally:
        worker.stop()
        connection.close()  # this thread's


def _members(group: int) -> list[str]:
    return [p.name for p in Path("/proc").iterdir() if p.name.isdigit() and _pgid(p.name) == group]


def _pgid(pid: str) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].split()[2])
    except (OSError, IndexError, ValueError):  # gone meanwhile
        return None


@pytest.mark.parametrize("way", list(WAYS))
def test_the_worker_stops_with_its_running_task_finished_or_queued(way, tmp_path):
    started = time.monotonic()
    with ThreadPoolExecutor(AT_ONCE) as pool:
        failures = [f for f in pool.map(lambda n: _stop_one(tmp_path, way, n), range(ROUNDS)) if f]
    assert not failures, f"{len(failures)} of {ROUNDS} stops failed:\n" + "\n\n".join(failures[:3])
    print(f"{way}: {ROUNDS} stops in {time.monotonic() - started:.1f} s")
