"""The renewal run's work in the worker (licensing/actions.py does it; these name it for the queue)."""

from dogtag.licensing import actions


def print_renewal_chunk(chunk_id: int) -> str:
    return actions.print_renewal_chunk(chunk_id)


def merge_renewal_run(run_id: int) -> str:
    return actions.merge_renewal_run(run_id)
