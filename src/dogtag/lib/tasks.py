"""Work for `dogtag worker`, handed over in the caller's transaction.

An action writes its rows and calls `enqueue(...)`. The queue is a table of the same database
(django-q2's ORM broker), so the task's row is written in the action's own transaction: it
commits with the rows it is about (a web process dying after the commit loses no task), a
rolled-back action queues nothing, and the worker cannot see the task before the rows. Inline
(the test suite's default) the task runs in the calling process once the transaction commits.
Tasks are named by dotted path so the web processes need not import the worker's code."""

from django.conf import settings
from django.db import transaction


def enqueue(func: str, *args, task_name: str | None = None, group: str | None = None, **kwargs) -> None:
    def send():
        from django_q.tasks import async_task

        options = {"sync": settings.DOGTAG_TASKS_INLINE}
        if task_name:
            options["task_name"] = task_name
        if group:
            options["group"] = group
        async_task(func, *args, q_options=options, **kwargs)

    if settings.DOGTAG_TASKS_INLINE:
        transaction.on_commit(send)
    else:
        send()
