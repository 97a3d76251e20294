"""Follows the ``Games`` notification log for the projections and the Redis publisher.

``Follower`` runs in a thread: each consumer (a projection, or the publisher) has its own stored
checkpoint; every pass reads the notifications after it, in order, and hands them over with
their ``Tracking``. A pass starts when the fan-out says something was saved (``FanOut.changed``:
a save in this process, or, with ``DICELOG_REDIS_URL`` set, a save in any process, through the
Redis wake-up channel of ``dicelog.service.store.fanout.RedisWake``, so a ``dicelog worker`` writes the Redis
streams within tens of milliseconds of a commit: ``settle`` (20 ms) after the wake-up, so that
the saves of those moments share one pass and the SSE streams woken by the same save go first),
or after ``poll_interval`` seconds (the safety net when a wake-up is lost). A consumer that fails
(e.g. Redis down) is skipped until the next pass; its checkpoint has not moved, so it catches up
later.

Run embedded in the API process (default), or alone with ``dicelog worker`` in production.

Partitions (``DICELOG_PARTITIONS`` > 1, PostgreSQL; ``dicelog.service.store.partitions``): the follower
works only on the partitions of games its process holds a lease on (``Leases``, renewed by a
heartbeat thread every ``ttl / 3`` seconds), so N workers share the projections and the publishing.
Each pass reads the log from the lowest checkpoint of the partitions held, hands each consumer the
notifications of those partitions (the others are skipped unread: only their originator id is
looked at) and records, with the consumer's rows, one tracking record per partition held
(``Games#<k>/<N>``) at the last notification read. Checkpoints are kept in memory between passes (only
the lease holder writes them) and read again from the store when the partitions held change or a
write failed.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import Notification, Tracking

from dicelog.domain.core import registry
from dicelog.domain.core.errors import InvariantViolated
from dicelog.projections.recorders import record_tracking
from dicelog.service.app.games import Games
from dicelog.service.ops.metrics import EVENTS_PROCESSED
from dicelog.service.ops.warming import warm_up
from dicelog.service.store.partitions import Leases, partition_of, tracking_name

log = logging.getLogger("dicelog.worker")


class Follower:
    """Feeds projections and the publisher from the notification log (see module docstring).

    ``poll_interval``: seconds between passes when nothing wakes it; ``batch``: notifications
    read at a time; ``settle``: seconds it waits after a wake-up before the pass (0: none);
    ``leases``: the process's partition leases (``None``: one partition, the whole log).
    """

    def __init__(
        self,
        app: Games,
        consumers: list[Any],
        *,
        poll_interval: float = 0.5,
        batch: int = 500,
        settle: float = 0.02,
        leases: Leases | None = None,
    ) -> None:
        self.app = app
        self.consumers = consumers
        self.poll_interval = poll_interval
        self.batch = batch
        self.settle = settle
        self._stop = threading.Event()
        self._threads: dict[str, threading.Thread] = {}
        self._lane_wakes: list[threading.Event] = []
        self.wake = app.fanout.changed if app.fanout is not None else threading.Event()
        self.errors: dict[str, str] = {}
        self.leases = leases
        self._positions: dict[str, tuple[int, dict[int, int]]] = {}
        """By consumer: (the leases' generation, the checkpoint of each partition held)."""
        self._passes: dict[str, list[int]] = {}
        """By lane: [passes started, passes ended] (a partition is let go once its passes ended)."""
        for consumer in consumers:  # every consumer's series from the start, at 0
            EVENTS_PROCESSED.labels(consumer.name)

    def lanes(self) -> dict[str, list[Any]]:
        """The consumers by lane (a consumer's ``lane`` attribute, default ``projections``): each
        lane runs in its own thread, so a hung Redis stalls the publisher only, never a read
        model (issue: Operations, independent consumers)."""
        lanes: dict[str, list[Any]] = {}
        for consumer in self.consumers:
            lanes.setdefault(getattr(consumer, "lane", "projections"), []).append(consumer)
        return lanes

    def run_once(self, consumers: list[Any] | None = None) -> int:
        """One pass over ``consumers`` (default: every consumer); returns how many notifications
        were handed over.

        Consumers at the same checkpoint (the usual case) share one read and one decoding of
        the notifications after it (the events are immutable).
        """
        handled = 0
        read: dict[int, list[tuple[Any, Tracking]]] = {}  # start -> the items read from there
        notes: dict[int, Sequence[Notification]] = {}  # the same, undecoded (partitions)
        decoded: dict[int, Any] = {}  # notification id -> domain event (partitions)
        held = self.leases.held() if self.leases is not None else frozenset()
        for consumer in self.consumers if consumers is None else consumers:
            if self.leases is not None and self.leases.held() != held:
                break  # the partitions changed: end the pass (a partition let go waits for it)
            try:
                if self.leases is None:
                    handled += self._feed(consumer, read)
                else:
                    handled += self._feed_partitions(consumer, held, notes, decoded)
                self.errors.pop(consumer.name, None)
            except Exception as e:  # noqa: BLE001 - a failing consumer must not stop the others
                self._positions.pop(consumer.name, None)  # read the checkpoints again
                if self.errors.get(consumer.name) != str(e):
                    log.warning("%s is behind: %s", consumer.name, e)
                self.errors[consumer.name] = str(e)
        return handled

    def _feed(self, consumer: Any, read: dict[int, list[tuple[Any, Tracking]]]) -> int:
        total = 0
        while True:
            start = (consumer.view.max_tracking_id(self.app.name) or 0) + 1
            items = read.get(start)
            if items is None:
                notes = self.app.recorder.select_notifications(start=start, limit=self.batch)
                items = read[start] = [
                    (self.app.mapper.to_domain_event(n), Tracking(self.app.name, n.id)) for n in notes
                ]
            if not items:
                return total
            if hasattr(consumer, "process_batch"):
                consumer.process_batch(items)
            else:
                for event, tracking in items:
                    consumer.process_event(event, tracking)
            EVENTS_PROCESSED.labels(consumer.name).inc(len(items))
            total += len(items)
            if len(items) < self.batch:
                return total

    def _checkpoints(self, consumer: Any, held: frozenset[int]) -> dict[int, int]:
        """The checkpoint of each partition in ``held`` for ``consumer``: kept in memory, read from its
        view when the partitions held changed (a partition with no tracking record of its own starts
        at the unpartitioned checkpoint)."""
        if self.leases is None:
            raise InvariantViolated("partition-leases", "a partitioned pass without leases")
        generation = self.leases.generation
        known = self._positions.get(consumer.name)
        if known is not None and known[0] == generation and held <= known[1].keys():
            return known[1]
        view, app, count = consumer.view, self.app.name, self.leases.partitions
        base = view.max_tracking_id(app) or 0
        positions = {k: max(base, view.max_tracking_id(tracking_name(app, k, count)) or 0) for k in held}
        self._positions[consumer.name] = (generation, positions)
        return positions

    def _feed_partitions(
        self,
        consumer: Any,
        held: frozenset[int],
        read: dict[int, Sequence[Notification]],
        decoded: dict[int, Any],
    ) -> int:
        """One consumer's pass over the partitions ``held`` (module docstring); returns the
        notifications of those partitions handed over. Stops after a batch when the partitions held
        have changed since."""
        if self.leases is None:
            raise InvariantViolated("partition-leases", "a partitioned pass without leases")
        if not held:
            return 0
        app, count = self.app.name, self.leases.partitions
        positions = self._checkpoints(consumer, held)
        total = 0
        while True:
            start = min(positions[k] for k in held) + 1
            notes = read.get(start)
            if notes is None:
                notes = read[start] = self.app.recorder.select_notifications(start=start, limit=self.batch)
            if not notes:
                return total
            items: list[tuple[Any, Tracking]] = []
            for note in notes:
                k = partition_of(note.originator_id, count)
                if k in held and note.id > positions[k]:
                    event = decoded.get(note.id)
                    if event is None:
                        event = decoded[note.id] = self.app.mapper.to_domain_event(note)
                    items.append((event, Tracking(tracking_name(app, k, count), note.id)))
            last = notes[-1].id
            checkpoint = [
                Tracking(tracking_name(app, k, count), last) for k in sorted(held) if positions[k] < last
            ]
            if items:
                consumer.process_batch(items, checkpoint)
            elif checkpoint:
                record_tracking(consumer.view, checkpoint)
            for k in held:
                positions[k] = max(positions[k], last)
            EVENTS_PROCESSED.labels(consumer.name).inc(len(items))
            total += len(items)
            if len(notes) < self.batch or self.leases.held() != held:
                return total  # caught up, or the partitions changed: the pass ends (a release waits for it)

    def _drained(self, partition: int) -> Any:
        """A check that is true once every lane's passes started until now have ended."""
        started = {lane: counts[0] for lane, counts in self._passes.items()}
        return lambda: all(self._passes[lane][1] >= n for lane, n in started.items())

    def _heartbeat(self) -> None:
        if self.leases is None:
            raise InvariantViolated("partition-leases", "a partitioned pass without leases")
        try:
            self.leases.heartbeat(self._drained)
            self.errors.pop("leases", None)
        except Exception as e:  # noqa: BLE001 - the store is away: work on nothing until it is back
            self.leases.expire()
            if self.errors.get("leases") != str(e):
                log.warning("partition leases could not be renewed: %s", e)
            self.errors["leases"] = str(e)

    def _lease_loop(self) -> None:
        if self.leases is None:
            raise InvariantViolated("partition-leases", "a partitioned pass without leases")
        while not self._stop.wait(self.leases.ttl / 3):
            self._heartbeat()

    def start(self) -> None:
        """Run passes in one daemon thread per lane until ``stop``, after warming (on this thread)
        what the lanes would otherwise compute at once for the first time: every registered
        ruleset's content and msgspec types (``dicelog.service.ops.warming``; issue 34, the worker's
        SIGSEGV at start-up under load)."""
        warm_up(registry.names())
        if self.leases is not None:
            self._passes = {lane: [0, 0] for lane in self.lanes()}
            self._heartbeat()
            thread = threading.Thread(target=self._lease_loop, name="dicelog-follower-leases", daemon=True)
            self._threads["leases"] = thread
            thread.start()
        for lane, consumers in self.lanes().items():
            wake = self.app.fanout.waker() if self.app.fanout is not None else threading.Event()
            self._lane_wakes.append(wake)
            thread = threading.Thread(
                target=self._loop, args=(consumers, wake), name=f"dicelog-follower-{lane}", daemon=True
            )
            self._threads[lane] = thread
            thread.start()

    def _loop(self, consumers: list[Any], wake: threading.Event) -> None:
        lane = getattr(consumers[0], "lane", "projections") if consumers else "projections"
        counts = self._passes.get(lane)
        while not self._stop.is_set():
            wake.clear()
            if counts is not None:
                counts[0] += 1
            try:
                self.run_once(consumers)
            finally:
                if counts is not None:
                    counts[1] += 1
            if wake.wait(self.poll_interval) and self.settle > 0:
                # Woken by a save: wait ``settle`` seconds first, so that the saves of the next
                # moments join this pass (under load a pass per commit costs more CPU than the
                # commands: every consumer reads its checkpoint and the log each pass) and the
                # SSE streams woken by the same save are served before this burst of work.
                self._stop.wait(self.settle)

    def stop(self) -> None:
        self._stop.set()
        self.wake.set()
        for wake in self._lane_wakes:
            wake.set()
        for thread in self._threads.values():
            thread.join(timeout=5)
        if self.leases is not None and self._threads:
            try:
                self.leases.release_all()
            except Exception as e:  # noqa: BLE001 - the leases expire by themselves
                log.warning("partition leases not released (they expire in %.0f s): %s", self.leases.ttl, e)

    def alive(self) -> dict[str, bool]:
        """Each started lane and whether its thread still runs (empty before ``start``)."""
        return {lane: thread.is_alive() for lane, thread in self._threads.items()}

    def checkpoint(self, consumer: Any) -> int:
        """The notification id up to which ``consumer`` has processed the log: its checkpoint; with
        partitions, the lowest checkpoint of the partitions held (of every partition when this
        follower was not started: an API process reporting the workers' progress)."""
        if self.leases is None:
            return int(consumer.view.max_tracking_id(self.app.name) or 0)
        if "leases" in self._threads:
            held = self.leases.held()
            known = self._positions.get(consumer.name)
            if known is not None and held <= known[1].keys():
                return min((known[1][k] for k in held), default=self.app.recorder.max_notification_id() or 0)
            if not held:
                return int(self.app.recorder.max_notification_id() or 0)
        else:
            held = frozenset(range(self.leases.partitions))
        view, app, count = consumer.view, self.app.name, self.leases.partitions
        base = view.max_tracking_id(app) or 0
        return min(max(base, view.max_tracking_id(tracking_name(app, k, count)) or 0) for k in held)

    def lags(self) -> list[tuple[str, str, int | None]]:
        """``(consumer, lane, events behind)`` for each consumer: the store's newest notification
        id minus the consumer's checkpoint (``checkpoint``; ``None`` when it cannot be read now)."""
        newest = self.app.recorder.max_notification_id() or 0
        out: list[tuple[str, str, int | None]] = []
        for lane, consumers in self.lanes().items():
            for consumer in consumers:
                try:
                    behind: int | None = max(0, newest - self.checkpoint(consumer))
                except Exception:  # noqa: BLE001 - a view that cannot be read is reported, not raised
                    behind = None
                out.append((consumer.name, lane, behind))
        return out

    def caught_up(self) -> bool:
        """True when every consumer's checkpoint is at the newest notification."""
        newest = self.app.recorder.max_notification_id() or 0
        return all(self.checkpoint(c) >= newest for c in self.consumers)
