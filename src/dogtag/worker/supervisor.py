"""`dogtag worker`'s own process: it starts django-q2's cluster in a session of its own and hands
it exactly one SIGTERM, however many stop signals it gets and from whom.

Why: django-q2's cluster stops cleanly on one SIGTERM to its main process, but deadlocks when every
process of its group gets the signal (the sentinel dies while holding the lock of the event the main
process's handler sets: django-q2 issue 346). A terminal's exit, Ctrl-C and `kill -- -PGID` signal the
whole group; here they reach only this process, whose handler takes no lock: it makes one `kill`
system call. systemd's cgroup-wide kill ignores sessions, so the unit says KillMode=mixed as well.
A signal sent to each process by its own pid (`pkill -f`, `killall`) still reaches the sentinel;
once it is gone, the cluster's process ends too (`_end_once_the_sentinel_is_gone`).
"""

import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
PARENT_POLL_SECONDS = 0.5
SENTINEL_GONE_GRACE_SECONDS = 5  # the cluster's own way out takes one PARENT_POLL_SECONDS


def supervise(run_cluster: Callable[[], None], *, on_started: Callable[[int], None] = lambda pid: None) -> int:
    """Run `run_cluster` in a forked child that leads a new session; forward the first stop signal
    this process gets to it as one SIGTERM; return the child's exit code (0 once asked to stop)."""
    sys.stdout.flush()  # or the child would write this process's buffered output a second time
    sys.stderr.flush()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)  # none lost between fork and handlers
    child = os.fork()
    if child == 0:
        _run_child(run_cluster, mask)
    forwarded = False

    def forward(signum, frame):
        nonlocal forwarded
        if not forwarded:
            forwarded = True
            try:
                os.kill(child, signal.SIGTERM)
            except ProcessLookupError:
                pass

    for s in STOP_SIGNALS:
        signal.signal(s, forward)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    on_started(child)
    _, status = os.waitpid(child, 0)
    code = os.waitstatus_to_exitcode(status)
    return 0 if forwarded and code in (0, -signal.SIGTERM) else code


def _run_child(run_cluster, mask) -> None:
    code = 1
    try:
        os.setsid()
        for s in STOP_SIGNALS:
            signal.signal(s, signal.SIG_DFL)
        _stop_when_orphaned(os.getppid())
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        run_cluster()
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:  # noqa: BLE001 - reported, then this process ends as a child must: os._exit
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _stop_when_orphaned(parent: int) -> None:
    """A SIGKILL of `dogtag worker` (or of `make run`'s shell) cannot be forwarded; the cluster then
    sees its parent change and stops itself, so no worker is left behind."""

    def watch():
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="stop when orphaned", daemon=True).start()


def run_cluster() -> None:
    """django-q2's cluster, as `qcluster` starts it, waited for until its sentinel has stopped."""
    from django.conf import settings
    from django_q.cluster import Cluster

    settings.SECRET_KEY  # noqa: B018 - the cluster signs tasks with it: refuse to start without one
    cluster = Cluster()
    _end_once_the_sentinel_is_gone(cluster)
    cluster.start()
    while cluster.sentinel.is_alive():
        cluster.sentinel.join(PARENT_POLL_SECONDS)
    for process in multiprocessing.active_children():
        process.join()


def _end_once_the_sentinel_is_gone(cluster) -> None:
    """A sentinel signalled by its own pid dies waiting on the stop event, and the cluster's signal
    handler then waits in that event's `set` for ever (django-q2 issue 346 by another road), from
    `start` on. With the sentinel gone there is nothing left to stop: if the cluster has not
    returned within the grace (its return ends this process, `_run_child`), this process ends."""

    def watch():
        while True:
            try:
                sentinel = cluster.sentinel.sentinel
                break
            except (AttributeError, ValueError):  # not made, or not started, yet
                time.sleep(PARENT_POLL_SECONDS)
        multiprocessing.connection.wait([sentinel])  # its exit, left for the cluster to reap
        time.sleep(SENTINEL_GONE_GRACE_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="end once the sentinel is gone", daemon=True).start()
