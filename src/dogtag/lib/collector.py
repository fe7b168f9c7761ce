"""CPython's cyclic garbage collector, paused for a bulk job."""

import contextlib
import gc


@contextlib.contextmanager
def paused():
    """The cyclic collector off for the block (it would walk every object the process holds, over
    and over); reference counting still frees everything not in a cycle, which is all an import's
    rows are. Collection resumes after the block."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
