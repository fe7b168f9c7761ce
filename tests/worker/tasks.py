"""Tasks the worker tests hand to a real worker."""

import os
from pathlib import Path


def write_pid(path: str) -> int:
    Path(path).write_text(str(os.getpid()))
    return os.getpid()
