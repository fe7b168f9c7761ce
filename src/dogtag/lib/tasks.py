"""Work for `dogtag worker`, handed over in the caller's transaction.

An action writes its rows and calls `enqueue(...)`. The queue is a table of the same database
(django-q2's ORM broker), so the task's row is written in the action's own transaction: it
commits with the rows it is about (a web process dying after the commit loses no task), a
rolled-back action queues nothing, and the worker cannot see the task before the rows. Inline
(the test suite's default) the task runs in the calling process once the transaction commits.
Tasks are named by dotted path so the web processes need not import the worker's code."""

from collections.abc import Iterable
from contextlib import nullcontext

from django.conf import settings
from django.db import transaction


def _send(func: str, args: tuple, task_name: str | None, group: str | None, kwargs: dict) -> None:
    from django_q.tasks import async_task

    options = {"sync": settings.DOGTAG_TASKS_INLINE, "task_name": task_name}  # None: django-q names it
    if group:
        options["group"] = group
    async_task(func, *args, q_options=options, **kwargs)


def _hand_over(send) -> None:
    if settings.DOGTAG_TASKS_INLINE:
        transaction.on_commit(send)
    else:
        send()


def enqueue(func: str, *args, task_name: str | None = None, group: str | None = None, **kwargs) -> None:
    _hand_over(lambda: _send(func, args, task_name, group, kwargs))


def enqueue_many(func: str, tasks: Iterable[tuple[tuple, str | None]], *, group: str | None = None) -> None:
    """enqueue for many tasks of one function, each (args, task name), in one transaction: a
    renewal run's thousand parts cost one commit, not a thousand."""
    tasks = list(tasks)

    def send():  # inline, each runs here and now, as enqueue's would
        with nullcontext() if settings.DOGTAG_TASKS_INLINE else transaction.atomic():
            for args, task_name in tasks:
                _send(func, args, task_name, group, {})

    if tasks:
        _hand_over(send)
