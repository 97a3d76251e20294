"""Follows the ``Games`` notification log for the projections and the Redis publisher.

``Follower`` runs in a thread: each consumer (a projection, or the publisher) has its own stored
checkpoint; every pass reads the notifications after it, in order, and hands them over with
their ``Tracking``. A pass starts when the fan-out says something was saved (``FanOut.changed``:
a save in this process, or, with ``DICELOG_REDIS_URL`` set, a save in any process, through the
Redis wake-up channel of ``dicelog.service.fanout.RedisWake``, so a ``dicelog worker`` writes the Redis
streams within tens of milliseconds of a commit: ``settle`` (20 ms) after the wake-up, so that
the saves of those moments share one pass and the SSE streams woken by the same save go first),
or after ``poll_interval`` seconds (the safety net when a wake-up is lost). A consumer that fails
(e.g. Redis down) is skipped until the next pass; its checkpoint has not moved, so it catches up
later.

Run embedded in the API process (default), or alone with ``dicelog worker`` in production.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from eventsourcing.persistence import Tracking

from dicelog.domain.core import registry
from dicelog.service.application import Games
from dicelog.service.metrics import EVENTS_PROCESSED
from dicelog.service.warming import warm_up

log = logging.getLogger("dicelog.worker")


class Follower:
    """Feeds projections and the publisher from the notification log (see module docstring).

    ``poll_interval``: seconds between passes when nothing wakes it; ``batch``: notifications
    read at a time; ``settle``: seconds it waits after a wake-up before the pass (0: none).
    """

    def __init__(
        self,
        app: Games,
        consumers: list[Any],
        *,
        poll_interval: float = 0.5,
        batch: int = 500,
        settle: float = 0.02,
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
        for consumer in self.consumers if consumers is None else consumers:
            try:
                handled += self._feed(consumer, read)
                self.errors.pop(consumer.name, None)
            except Exception as e:  # noqa: BLE001 - a failing consumer must not stop the others
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

    def start(self) -> None:
        """Run passes in one daemon thread per lane until ``stop``, after warming (on this thread)
        what the lanes would otherwise compute at once for the first time: every registered
        ruleset's content and msgspec types (``dicelog.service.warming``; issue 34, the worker's
        SIGSEGV at start-up under load)."""
        warm_up(registry.names())
        for lane, consumers in self.lanes().items():
            wake = self.app.fanout.waker() if self.app.fanout is not None else threading.Event()
            self._lane_wakes.append(wake)
            thread = threading.Thread(
                target=self._loop, args=(consumers, wake), name=f"dicelog-follower-{lane}", daemon=True
            )
            self._threads[lane] = thread
            thread.start()

    def _loop(self, consumers: list[Any], wake: threading.Event) -> None:
        while not self._stop.is_set():
            wake.clear()
            self.run_once(consumers)
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

    def alive(self) -> dict[str, bool]:
        """Each started lane and whether its thread still runs (empty before ``start``)."""
        return {lane: thread.is_alive() for lane, thread in self._threads.items()}

    def lags(self) -> list[tuple[str, str, int | None]]:
        """``(consumer, lane, events behind)`` for each consumer: the store's newest notification
        id minus the consumer's checkpoint (``None`` when the checkpoint cannot be read now)."""
        newest = self.app.recorder.max_notification_id() or 0
        out: list[tuple[str, str, int | None]] = []
        for lane, consumers in self.lanes().items():
            for consumer in consumers:
                try:
                    behind: int | None = max(0, newest - (consumer.view.max_tracking_id(self.app.name) or 0))
                except Exception:  # noqa: BLE001 - a view that cannot be read is reported, not raised
                    behind = None
                out.append((consumer.name, lane, behind))
        return out

    def caught_up(self) -> bool:
        """True when every consumer's checkpoint is at the newest notification."""
        newest = self.app.recorder.max_notification_id() or 0
        return all((c.view.max_tracking_id(self.app.name) or 0) >= newest for c in self.consumers)
