"""The write lane: the threads that run the requests that write to the event store.

Litestar runs a synchronous handler in the event loop's default thread pool (six threads on two
cores). For the requests that write (commands, creations, forks, claims, campaign changes) that
is the wrong size for SQLite: SQLite lets one connection write at a time, so the other threads
only wait for its lock, and on one interpreter every thread also takes turns at the GIL. Measured
with 32 clients on two cores (``bench/http_roundtrip.py``, ``bench/README.md`` §1), six threads
spent about 0.4 ms more CPU per command than one.

So those handlers run on a ``WriteLane`` of their own (``@on_write_lane``), sized by the store
(``Settings.write_concurrency``, ``DICELOG_WRITE_THREADS``): one thread for SQLite, the most
connections the pool can open for PostgreSQL (whose writers do run at once). Reads keep the default
pool, so a long read never waits behind a command, nor a command behind it.

A request that waited in the lane's queue longer than ``max_wait`` seconds (the SQLite lock timeout,
or the PostgreSQL pool's connect timeout: what a write would have waited for the store anyway) is
not run: it ends as 503 ``store-unavailable`` with reason ``busy`` and ``outcome: not-stored``
(``dicelog.service.faults``), so a store held by another process does not pile up a queue whose
answers come minutes late.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from eventsourcing.persistence import OperationalError

P = ParamSpec("P")
R = TypeVar("R")


class WriteLaneBusy(OperationalError):
    """A write waited longer than the lane's ``max_wait`` for its turn and was not run (503, ``busy``)."""


class WriteLane:
    """``threads`` threads for the requests that write; ``max_wait``: seconds a request may wait
    for one before it is refused (``WriteLaneBusy``)."""

    def __init__(self, threads: int, *, max_wait: float) -> None:
        if threads < 1:
            raise ValueError(f"a write lane needs at least one thread, not {threads}")
        self.threads = threads
        self.max_wait = max_wait
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="dicelog-write")

    async def run(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """``fn(*args, **kwargs)`` on one of the lane's threads, in this task's context (the log
        fields bound for the request go with it). Raises what ``fn`` raises, or ``WriteLaneBusy``."""
        queued = time.monotonic()
        context = contextvars.copy_context()

        def call() -> R:
            waited = time.monotonic() - queued
            if waited > self.max_wait:
                raise WriteLaneBusy(f"busy: the write waited {waited:.1f} s for its turn and was not run")
            return context.run(fn, *args, **kwargs)

        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    def close(self) -> None:
        """Finish the writes under way and stop the threads."""
        self._executor.shutdown(wait=True)


def on_write_lane(handler: Callable[..., R]) -> Callable[..., Coroutine[Any, Any, R]]:
    """Turn a synchronous route handler that writes into an async one that runs it on the app's
    write lane (the ``write_lane`` of its ``games`` argument, a ``Games``). The handler's signature
    and annotations are kept, so Litestar injects and documents it as before; declare the route
    without ``sync_to_thread``."""

    @functools.wraps(handler)
    async def on_lane(*args: Any, **kwargs: Any) -> R:
        lane: WriteLane = kwargs["games"].write_lane
        return await lane.run(handler, *args, **kwargs)

    return on_lane
