"""Work for `dogtag worker`, handed over once the caller's transaction commits.

An action writes its rows and calls `enqueue(...)`: the task is queued only if the rows are
committed (a rolled-back action queues nothing), and the worker sees the rows it is told about.
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

    transaction.on_commit(send)
