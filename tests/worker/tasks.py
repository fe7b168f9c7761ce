"""Tasks the worker tests hand to a real worker."""

import os
import time
from pathlib import Path


def write_pid(path: str) -> int:
    Path(path).write_text(str(os.getpid()))
    return os.getpid()


def hold(path: str) -> None:
    """A task that is surely running when the test stops the worker: it writes "started", waits
    (at most 60 s) for the test's "go" file, then writes "done"."""
    log = Path(path)
    with log.open("a") as f:
        f.write(f"started {os.getpid()}\n")
    go = Path(path + ".go")
    deadline = time.monotonic() + 60
    while not go.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    with log.open("a") as f:
        f.write("done\n")
