"""CPython's cyclic garbage collector, paused for a bulk job."""

import contextlib
import gc


@contextlib.contextmanager
def paused():
    """The cyclic collector off for the block; reference counting still frees everything that
    is not in a cycle, which is all an import's rows are. A job that makes millions of short-lived
    lists would otherwise have the collector walk every object the process holds, over and over:
    half of an import write's CPU (bench/import.py). Collection resumes after the block."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
