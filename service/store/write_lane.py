"""The write lane: the threads that run the requests that write to the event store, and their
group commit.

Litestar runs a synchronous handler in the event loop's default thread pool (six threads on two
cores). The requests that write (commands, creations, forks, claims, campaign changes) run on a
``WriteLane`` of their own instead (``@on_write_lane``), sized by the store
(``Settings.write_concurrency``, ``DICELOG_WRITE_THREADS``): 4 threads for SQLite, the most
connections the pool can open for PostgreSQL. Reads keep the default pool, so a long read never
waits behind a command, nor a command behind it.

The lane's threads save through one ``GroupCommit`` (``Games.save``): while one of them commits, the
others decide their commands and queue their events, which the next commit writes together. On
SQLite, which writes one transaction at a time, that is what makes more than one thread pay:
measured with 32 clients on two cores (``bench/http_roundtrip.py``, ``bench/README.md`` §1), one
thread spent its time waiting for each command's ``fsync``, and several threads without a group
commit only waited for SQLite's write lock and for the interpreter lock. Commands for one game take
turns (``Games.lock``), so they never race each other into a version conflict.

A request that waited in the lane's queue longer than ``max_wait`` seconds (the SQLite lock timeout,
or the PostgreSQL pool's connect timeout: what a write would have waited for the store anyway) is
not run: it ends as 503 ``store-unavailable`` with reason ``busy`` and ``outcome: not-stored``
(``dicelog.service.ops.faults``), so a store held by another process does not pile up a queue whose
answers come minutes late.
"""

from __future__ import annotations

import asyncio
import contextvars
import copy
import functools
import threading
import time
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from eventsourcing.persistence import IntegrityError, OperationalError

from dicelog.service.ops.metrics import COMMIT_GROUP_SIZE

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


class _Pending:
    """One caller's events waiting for a group commit, and what became of them."""

    __slots__ = ("done", "error", "events", "recordings", "unrevoked")

    def __init__(self, events: list[Any], unrevoked: Sequence[Any]) -> None:
        self.events = events
        self.unrevoked = unrevoked
        self.done = False
        self.recordings: list[Any] = []
        self.error: BaseException | None = None

    def outcome(self) -> list[Any]:
        if self.error is not None:
            raise self.error
        return self.recordings


class GroupCommit:
    """Group commit: the events that several threads save at about the same time are written in one
    transaction and share its commit (on SQLite its ``fsync``, about 0.35 ms on the machine of
    ``bench/README.md`` §1: the longest single step of a command).

    ``write(events, unrevoked) -> recordings`` writes events atomically, in one transaction, unless a record
    of ``unrevoked`` exists (``dicelog.service.store.revocations``: the revoked tokens of the commands saved).
    A thread that calls ``save`` while no write is under way writes at once, together with what other
    threads queued meanwhile (at most ``max_group`` saves); one that calls it during a write queues, and
    the first of the queue to wake writes the queue. Nothing waits for a group to fill, so a lone writer's
    latency is unchanged. Each save's events stay contiguous and in order, and each caller gets its
    own recordings back.

    When a group meets an ``IntegrityError`` (some save's version or record id is taken, so the
    transaction stored nothing), each save of the group is written again on its own, and only the
    clashing ones raise it: each caller gets the outcome it would have had alone. Any other error (a
    store fault: a lock held too long, a lost connection, a full disk) is raised to every caller of
    the group, each in its own thread, and nothing is written again: that transaction may or may not
    have committed (a connection lost during ``COMMIT``), as a lone save's would.
    """

    def __init__(
        self, write: Callable[[list[Any], Sequence[Any]], list[Any]], *, max_group: int = 32
    ) -> None:
        self._write = write
        self.max_group = max_group
        self._changed = threading.Condition(threading.Lock())
        self._queue: list[_Pending] = []
        self._leading = False
        self.groups = 0
        """Transactions of more than one saver so far (for tests and benchmarks)."""

    def save(self, events: list[Any], unrevoked: Sequence[Any] = ()) -> list[Any]:
        """Write ``events`` in one transaction (perhaps shared), unless a record of ``unrevoked`` exists;
        their recordings. Raises what the store raises for these events written alone."""
        pending = _Pending(events, unrevoked)
        with self._changed:
            self._queue.append(pending)
            while self._leading and not pending.done:
                self._changed.wait()
            if pending.done:
                return pending.outcome()
            self._leading = True
            if pending in self._queue:  # not when a leader that took it died of a BaseException
                self._queue.remove(pending)
            group = [pending, *self._queue[: self.max_group - 1]]
            del self._queue[: self.max_group - 1]
        try:
            self._commit(group)
        finally:
            with self._changed:
                self._leading = False
                self._changed.notify_all()
        return pending.outcome()

    def _commit(self, group: list[_Pending]) -> None:
        COMMIT_GROUP_SIZE.observe(len(group))
        if len(group) > 1:
            try:
                recordings = self._write(
                    [e for p in group for e in p.events], [i for p in group for i in p.unrevoked]
                )
            except IntegrityError:
                pass  # a version taken or a token revoked: nothing was stored, each is written alone below
            except Exception as e:  # noqa: BLE001 - a store fault (or a bug): stored or not, not known
                for p in group:
                    p.error, p.done = (e if p is group[0] else _copy(e)), True
                return
            else:
                self.groups += 1
                start = 0
                every = len(recordings) == sum(len(p.events) for p in group)
                for p in group:
                    if every:  # else the recorder returned none (no notification ids): so does each
                        p.recordings = recordings[start : start + len(p.events)]
                    start += len(p.events)
                    p.done = True
                return
        for p in group:
            try:
                p.recordings = self._write(p.events, p.unrevoked)
            except Exception as e:  # noqa: BLE001 - raised again in the saver's own thread
                p.error = e
            p.done = True


def _copy(error: Exception) -> Exception:
    """A copy of ``error`` for another thread to raise (one exception object raised in two threads
    would collect both their tracebacks), with the error it wraps (``__cause__``: the driver's error,
    which says whether it is a fault or a bug, ``dicelog.service.ops.faults.is_store_fault``)."""
    try:
        copied = copy.copy(error)
    except Exception:  # noqa: BLE001 - an exception that cannot be copied is raised as it is
        return error
    copied.__cause__ = error.__cause__
    copied.__suppress_context__ = error.__suppress_context__
    return copied
