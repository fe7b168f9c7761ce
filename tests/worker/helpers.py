"""Start `dogtag worker` for real, as a process of its own on the test's database."""

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
DOGTAG = Path(sys.executable).with_name("dogtag")


def database_url() -> str:
    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{s['NAME']}"
    auth = quote(s["USER"] or "") + (":" + quote(s["PASSWORD"]) if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def wait_for(predicate, timeout: float, what: str, interval: float = 0.1, worker=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        if worker is not None and worker.poll() is not None:
            raise AssertionError(f"the worker exited ({worker.returncode}) while waiting for {what}:\n{worker.log()}")
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}" + (f":\n{worker.log()}" if worker else ""))


class Worker:
    def __init__(self, log_path: Path, env: dict):
        self.log_path = log_path
        self.log_file = open(log_path, "ab")
        self.process = subprocess.Popen(
            [str(DOGTAG), "worker"],
            cwd=ROOT,
            env=env,
            stdout=self.log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the cluster and its worker processes
        )

    @property
    def pid(self):
        return self.process.pid

    def poll(self):
        return self.process.poll()

    @property
    def returncode(self):
        return self.process.returncode

    def log(self) -> str:
        self.log_file.flush()
        return self.log_path.read_text(errors="replace")[-4000:]

    def groups(self) -> list[int]:
        """`dogtag worker`'s process group and its cluster's (a session of its own)."""
        children = Path(f"/proc/{self.pid}/task/{self.pid}/children")
        try:
            return [self.pid, *map(int, children.read_text().split())]
        except OSError:  # `dogtag worker` has exited
            return [self.pid]

    def kill_9(self):
        """SIGKILL to every process of the worker at once, as a power cut or the OOM killer would."""
        for group in self.groups():
            os.killpg(group, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self):
        groups = self.groups()
        if self.process.poll() is None:
            self.process.terminate()  # the cluster stops its own processes
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                for group in groups:
                    os.killpg(group, signal.SIGKILL)
                self.process.wait(timeout=10)
        for group in groups:  # worker processes orphaned by a SIGKILL of their parent
            try:
                os.killpg(group, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.log_file.close()


def worker_env(**overrides) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DOGTAG_SCHEDULE"))}
    env.update(
        DATABASE_URL=database_url(),
        DJANGO_SETTINGS_MODULE="dogtag.settings",
        PYTHONPATH=str(ROOT),
        DOGTAG_WORKERS="2",
        DOGTAG_TASK_TIMEOUT="60",
        DOGTAG_TASK_RETRY="70",
    )
    env.update({k: str(v) for k, v in overrides.items()})
    return env


@contextmanager
def running_worker(log_path: Path, **overrides):
    worker = Worker(log_path, worker_env(**overrides))
    try:
        yield worker
    finally:
        worker.stop()
