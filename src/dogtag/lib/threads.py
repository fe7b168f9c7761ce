"""Work on a few threads, each with its own database connection: for long jobs in the worker
that wait on the database more than they compute (an import's batches on PostgreSQL), so that
one connection's statements run while another's commit does."""

import threading
from functools import partial

from django.db import connections


def each_in_turn(work, items, threads: int) -> bool:
    """`work(item, earlier_finished)` for each of `items` in order, on whichever of `threads`
    threads is free (`items` is read under a lock: a generator will do). `earlier_finished()`
    waits until the work on every earlier item has committed or failed: call it before the
    database checks a reference to what earlier work wrote (another connection sees only
    committed rows). Stops taking items once a call returns False, and returns False then (True
    when every item was worked). The first exception of any thread is raised here once the
    others have finished their item; each thread closes its connection. One thread is the
    caller's own, with its connection (and transaction)."""
    if threads == 1:
        return all(work(item, lambda: None) is not False for item in items)
    numbered, lock, stop = enumerate(items, start=1), threading.Lock(), threading.Event()
    failures, finished = [], _Finished()

    def take():
        with lock:
            return None if stop.is_set() else next(numbered, None)

    def worker():
        held = None  # the place of the item in hand
        try:
            while (turn := take()) is not None:
                held, item = turn
                if work(item, partial(finished.wait_through, held - 1)) is False:
                    stop.set()
                finished.add(held)
                held = None
        except BaseException as e:  # noqa: BLE001 - raised in the caller's thread
            failures.append(e)
            stop.set()
        finally:
            if held is not None:  # finished once its failure is on record: later work may fail of it
                finished.add(held)
            connections.close_all()

    running = [threading.Thread(target=worker, name=f"{work.__name__}-{i}") for i in range(threads)]
    for t in running:
        t.start()
    try:
        for t in running:
            t.join()
    except BaseException:  # interrupted here (Ctrl-C at the command line): no further item
        stop.set()
        for t in running:
            t.join()
        raise
    if failures:
        raise failures[0]
    return not stop.is_set()


class _Finished:
    """The places (1, 2, …) of the items whose work has finished, as the highest place through
    which every item has, and a wait for it to reach a place."""

    def __init__(self):
        self._changed, self._through, self._ahead = threading.Condition(), 0, set()

    def add(self, place):
        with self._changed:
            self._ahead.add(place)
            while self._through + 1 in self._ahead:
                self._through += 1
                self._ahead.remove(self._through)
            self._changed.notify_all()

    def wait_through(self, place):
        with self._changed:
            self._changed.wait_for(lambda: self._through >= place)
