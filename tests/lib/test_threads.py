"""lib/threads.py: items worked on a few threads in their order, each waiting where it asks for
the work on every earlier item to have finished, stopping at a False and raising the first
failure once every thread has finished its item."""

import threading

import pytest

from dogtag.lib.threads import each_in_turn


def test_every_item_is_worked_once_and_a_wait_sees_every_earlier_item_finished():
    finished, seen_finished = set(), {}
    lock = threading.Lock()

    def work(item, earlier_finished):
        earlier_finished()
        with lock:
            seen_finished[item] = set(finished)
            finished.add(item)

    assert each_in_turn(work, iter(range(50)), 3) is True
    assert finished == set(range(50))
    assert all(seen_finished[i] >= set(range(i)) for i in range(50))


def test_the_threads_work_at_once():
    both = threading.Barrier(2, timeout=30)
    names = set()

    def work(item, earlier_finished):
        names.add(threading.current_thread().name)
        if item < 2:
            both.wait()  # would time out (BrokenBarrierError) if one thread worked the items alone

    assert each_in_turn(work, range(6), 2) is True
    assert len(names) == 2


def test_one_thread_is_the_callers_own():
    names = []
    assert each_in_turn(lambda item, _: names.append(threading.current_thread()), range(3), 1) is True
    assert names == [threading.current_thread()] * 3


@pytest.mark.parametrize("threads", [1, 2])
def test_a_false_stops_the_taking(threads):
    taken = []

    def items():
        for i in range(100):
            taken.append(i)
            yield i

    assert each_in_turn(lambda item, _: item != 3, items(), threads) is False
    assert len(taken) <= 3 + threads


@pytest.mark.parametrize("threads", [1, 2])
def test_the_first_failure_is_raised_and_the_later_work_still_finds_it_finished(threads):
    after = []

    def work(item, earlier_finished):
        if item == 2:
            raise ValueError("item 2")
        earlier_finished()  # returns though item 2 failed: its work has finished
        after.append(item)

    with pytest.raises(ValueError, match="item 2"):
        each_in_turn(work, range(10), threads)
    assert 2 not in after and len(after) < 10


def test_the_failure_raised_is_the_one_that_later_work_failed_of():
    def work(item, earlier_finished):
        if item == 0:
            raise ValueError("the first item")
        earlier_finished()
        raise RuntimeError("what the first item left undone")

    with pytest.raises(ValueError, match="the first item"):
        each_in_turn(work, range(4), 2)
