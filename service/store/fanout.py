"""Wake-ups after a save: in-process fan-out, and across processes through Redis pub/sub.

The store is the truth: SSE streams and the follower (projections, Redis publisher) read events
from it and use a wake-up only to know *when* to look again. A lost wake-up therefore costs at
most a poll interval, never an event.

- ``FanOut``: per-game wake-ups for this process. ``publish(game_id, version)`` is called by
  ``Games`` right after a save (from the worker thread that ran the command); it wakes this
  process's SSE listeners (asyncio, through ``call_soon_threadsafe``) and its follower (the
  ``changed`` threading event), and hands the wake-up to ``RedisWake`` when Redis is configured.
- ``RedisWake`` (``DICELOG_REDIS_URL`` set): the process that saved ``PUBLISH``es
  ``"<origin> <game id> <version>"`` on the channel ``dicelog:wake``, from a sender thread fed by a
  bounded queue (a command never waits for Redis; when Redis is slow or down, wake-ups are dropped
  and the pollers catch up). Each process holds ONE subscription to the channel, in its own
  thread, and delivers what other processes published to its own ``FanOut``: N SSE clients of a
  replica share that one Redis connection, and a ``dicelog worker`` follows within milliseconds.
- ``ChangeFeed``: what the SSE endpoint waits on (a ``Listener``), with the poll interval and
  the heartbeat interval of the streams.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections import defaultdict
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any
from uuid import UUID, uuid4

log = logging.getLogger("dicelog.fanout")

WAKE_CHANNEL = "dicelog:wake"
"""The Redis pub/sub channel of wake-ups; a message is ``"<origin> <game id> <version>"`` (ASCII)."""


class Listener:
    """One asyncio waiter for the new versions of one game (see ``FanOut.listen``).

    ``notify`` may be called from any thread; ``wait`` runs on the listener's event loop.
    """

    __slots__ = ("_any", "_event", "_loop", "_newest", "_unknown")

    def __init__(self, loop: asyncio.AbstractEventLoop, *, any_game: bool = False) -> None:
        self._loop = loop
        self._event = asyncio.Event()
        self._newest = 0
        self._unknown = False
        self._any = any_game
        """Listening to several games (``FanOut.listen_many``): their versions do not compare, so every
        wake-up counts as a change."""

    def _set(self, version: int | None) -> None:
        """On the loop: remember the newest version told (``None``: unknown, may have changed)."""
        if version is None or self._any:
            self._unknown = True
        elif version > self._newest:
            self._newest = version
        self._event.set()

    async def wait(self, after: int, timeout: float) -> bool:
        """Wait until the game may have an event newer than version ``after``.

        Returns ``True`` when a wake-up said so (a version > ``after``, or a change of unknown
        version), ``False`` after ``timeout`` seconds without one. Wake-ups for versions at or
        below ``after`` (duplicates: the local one and the one back from Redis) are skipped.
        """
        deadline = self._loop.time() + timeout
        while True:
            if self._unknown or self._newest > after:
                self._unknown = False
                self._event.clear()
                return True
            self._event.clear()
            remaining = deadline - self._loop.time()
            if remaining <= 0:
                return False
            try:
                async with asyncio.timeout(remaining):
                    await self._event.wait()
            except TimeoutError:
                pass  # checked once more above, then False


def _set_all(targets: list[tuple[Listener, int | None]]) -> None:
    for listener, version in targets:
        listener._set(version)


class FanOut:
    """Per-game wake-ups for this process's asyncio listeners, plus a threading event for the
    follower. Thread-safe. ``remote`` (a ``RedisWake``, or ``None``) carries ``publish`` to the
    other processes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[UUID, set[Listener]] = defaultdict(set)
        self.changed = threading.Event()
        self._wakers: list[threading.Event] = [self.changed]
        self.remote: RedisWake | None = None

    def waker(self) -> threading.Event:
        """A new event set by every wake-up of this process (one per follower lane, so that each
        lane clears only its own)."""
        event = threading.Event()
        with self._lock:
            self._wakers.append(event)
        return event

    def _wake_followers(self) -> None:
        for event in list(self._wakers):
            event.set()

    def publish(self, game_id: UUID, version: int) -> None:
        """After a save in this process: ``game_id`` reached ``version``. Wakes this process
        (``deliver``) and queues the wake-up for the other processes; never blocks on Redis."""
        self.deliver(game_id, version)
        if self.remote is not None:
            self.remote.send(game_id, version)

    def deliver(self, game_id: UUID, version: int | None) -> None:
        """Wake this process only: the listeners of ``game_id`` (``version`` ``None``: unknown)
        and the follower."""
        self._wake_followers()
        with self._lock:
            listeners = list(self._listeners.get(game_id, ()))
        self._dispatch((listener, version) for listener in listeners)

    def deliver_all(self) -> None:
        """Wake every listener of every game and the follower (after wake-ups may have been
        missed, e.g. when the Redis subscription was re-established)."""
        self._wake_followers()
        with self._lock:
            listeners = [listener for group in self._listeners.values() for listener in group]
        self._dispatch((listener, None) for listener in listeners)

    @staticmethod
    def _dispatch(targets: Iterable[tuple[Listener, int | None]]) -> None:
        """One ``call_soon_threadsafe`` per event loop, however many listeners it has."""
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[Listener, int | None]]] = {}
        for listener, version in targets:
            by_loop.setdefault(listener._loop, []).append((listener, version))
        for loop, batch in by_loop.items():
            try:
                loop.call_soon_threadsafe(_set_all, batch)
            except RuntimeError:  # loop closed
                pass

    @asynccontextmanager
    async def listen(self, game_id: UUID) -> AsyncIterator[Listener]:
        """A ``Listener`` of ``game_id``'s new versions while the context is open."""
        listener = Listener(asyncio.get_running_loop())
        with self._lock:
            self._listeners[game_id].add(listener)
        try:
            yield listener
        finally:
            with self._lock:
                group = self._listeners.get(game_id)
                if group is not None:
                    group.discard(listener)
                    if not group:
                        del self._listeners[game_id]

    @asynccontextmanager
    async def listen_many(self, game_ids: Iterable[UUID]) -> AsyncIterator[MultiListener]:
        """One ``Listener`` woken by a save of any of ``game_ids`` (``wait(0, timeout)``: any wake-up
        counts) while the context is open; ``add`` listens to more games."""
        listener = MultiListener(self, asyncio.get_running_loop())
        listener.add(game_ids)
        try:
            yield listener
        finally:
            with self._lock:
                for game_id in listener.games:
                    group = self._listeners.get(game_id)
                    if group is not None:
                        group.discard(listener)
                        if not group:
                            del self._listeners[game_id]

    def listening(self) -> int:
        """How many listeners are open (all games)."""
        with self._lock:
            return sum(len(group) for group in self._listeners.values())


class MultiListener(Listener):
    """A ``Listener`` of several games (``FanOut.listen_many``): any wake-up of one of them counts."""

    __slots__ = ("_fanout", "games")

    def __init__(self, fanout: FanOut, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(loop, any_game=True)
        self._fanout = fanout
        self.games: set[UUID] = set()

    def add(self, game_ids: Iterable[UUID]) -> None:
        """Listen to these games too."""
        with self._fanout._lock:
            for game_id in game_ids:
                if game_id not in self.games:
                    self.games.add(game_id)
                    self._fanout._listeners[game_id].add(self)


_STOP = object()


class RedisWake:
    """Wake-ups across processes on the Redis channel ``dicelog:wake`` (see module docstring).

    ``send`` (called by ``FanOut.publish``) only puts ``(game_id, version)`` on a bounded queue
    (``outbox`` items; when full the wake-up is dropped and counted in ``dropped``). A sender
    thread ``PUBLISH``es what is queued, deduplicated per game, in one pipeline, with
    ``timeout`` seconds for connecting and for each reply and redis-py's bounded ``Retry``; a
    failure drops that batch (logged once per distinct error). A listener thread holds one
    subscription and ``deliver``s the wake-ups of the other processes (its own ``origin`` is
    skipped) to ``fanout``; whenever the subscription is (re)established it wakes everything
    (``deliver_all``), since messages may have been missed. While Redis is unreachable the
    listener re-subscribes after redis-py's exponential backoff (``backoff_cap`` seconds at most),
    and streams fall back to polling. ``start`` starts both threads, ``close`` stops them.
    """

    def __init__(
        self,
        url: str,
        fanout: FanOut,
        *,
        timeout: float = 0.5,
        outbox: int = 10_000,
        backoff_cap: float = 2.0,
    ) -> None:
        import redis
        from redis.backoff import ExponentialBackoff
        from redis.retry import Retry

        self.fanout = fanout
        self.origin = uuid4().hex[:16]
        self.dropped = 0
        self.subscribed = threading.Event()
        self._backoff = ExponentialBackoff(cap=backoff_cap, base=0.05)
        self._client = redis.Redis.from_url(
            url,
            socket_connect_timeout=timeout,
            socket_timeout=timeout,
            retry=Retry(ExponentialBackoff(cap=timeout, base=0.01), retries=1),
            retry_on_error=[redis.ConnectionError, redis.TimeoutError],
            health_check_interval=30,
        )
        self._errors = (redis.RedisError, OSError)
        self._outbox: queue.Queue[Any] = queue.Queue(maxsize=outbox)
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._last_error: dict[str, str] = {}
        fanout.remote = self

    def start(self) -> None:
        """Start the sender and listener threads (daemons)."""
        for name, target in (
            ("dicelog-wake-send", self._send_loop),
            ("dicelog-wake-listen", self._listen_loop),
        ):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def send(self, game_id: UUID, version: int) -> None:
        """Queue a wake-up for the other processes; returns at once (drops it when the queue is full)."""
        try:
            self._outbox.put_nowait((game_id, version))
        except queue.Full:
            self.dropped += 1

    def close(self, timeout: float = 3.0) -> None:
        """Stop both threads (waits at most about ``timeout`` seconds for each), close the client."""
        self._stop.set()
        try:
            self._outbox.put_nowait(_STOP)
        except queue.Full:
            pass
        for thread in self._threads:
            thread.join(timeout=timeout)
        self._client.close()
        if self.fanout.remote is self:
            self.fanout.remote = None

    # --- threads ------------------------------------------------------------------------------

    def _failed(self, what: str, error: BaseException) -> None:
        text = f"{type(error).__name__}: {error}"
        if self._last_error.get(what) != text:
            log.warning("Redis wake-up %s failed (streams fall back to polling): %s", what, text)
            self._last_error[what] = text

    def _recovered(self, what: str) -> None:
        if self._last_error.pop(what, None) is not None:
            log.info("Redis wake-up %s works again", what)

    def _send_loop(self) -> None:
        while True:
            item = self._outbox.get()
            stop = item is _STOP
            newest: dict[UUID, int] = {}
            while not stop:
                game_id, version = item
                newest[game_id] = max(version, newest.get(game_id, 0))
                if len(newest) >= 1000:
                    break
                try:
                    item = self._outbox.get_nowait()
                except queue.Empty:
                    break
                stop = item is _STOP
            if newest:
                try:
                    pipe = self._client.pipeline(transaction=False)
                    for game_id, version in newest.items():
                        pipe.publish(WAKE_CHANNEL, f"{self.origin} {game_id} {version}")
                    pipe.execute()
                    self._recovered("publish")
                except self._errors as e:
                    self._failed("publish", e)
            if stop:
                return

    def _on_message(self, message: dict[str, Any]) -> None:
        try:
            origin, game, version = message["data"].decode("ascii").split(" ")
            if origin != self.origin:
                self.fanout.deliver(UUID(game), int(version))
        except (ValueError, UnicodeDecodeError, AttributeError):
            log.debug("ignored a malformed wake-up: %r", message.get("data"))

    def _listen_loop(self) -> None:
        """Hold the subscription until ``close``. redis-py's ``Retry`` reconnects (and
        re-subscribes) through short outages; when it gives up, the subscription is opened again
        after redis-py's backoff, interruptibly (``close`` does not wait out an outage)."""
        failures = 0
        while not self._stop.is_set():
            try:
                with self._client.pubsub() as pubsub:
                    pubsub.subscribe(**{WAKE_CHANNEL: self._on_message})
                    while not self._stop.is_set():
                        message = pubsub.get_message(timeout=0.5)
                        if message is not None and message["type"] == "subscribe":
                            failures = 0
                            self.subscribed.set()
                            self._recovered("subscription")
                            self.fanout.deliver_all()
            except self._errors as e:
                self.subscribed.clear()
                self._failed("subscription", e)
                failures += 1
                self._stop.wait(self._backoff.compute(failures))
        self.subscribed.clear()


class ChangeFeed:
    """What a game's SSE stream waits on: this process's ``FanOut`` (woken by saves here and,
    through ``RedisWake``, by saves in other processes), with a poll every ``poll_interval``
    seconds as the safety net, and a comment line every ``heartbeat`` seconds of silence.

    Raises ``ValueError`` unless both intervals are positive.
    """

    def __init__(self, fanout: FanOut, *, poll_interval: float = 2.0, heartbeat: float = 15.0) -> None:
        if not (poll_interval > 0 and heartbeat > 0):
            raise ValueError(
                f"poll_interval and heartbeat must be positive, not {poll_interval}, {heartbeat}"
            )
        self.fanout = fanout
        self.poll_interval = poll_interval
        self.heartbeat = heartbeat

    @asynccontextmanager
    async def subscribe(self, game_id: UUID) -> AsyncIterator[Listener]:
        """A ``Listener`` of ``game_id`` while the context is open (``await listener.wait(after,
        timeout)``)."""
        async with self.fanout.listen(game_id) as listener:
            yield listener

    @asynccontextmanager
    async def subscribe_many(self, game_ids: Iterable[UUID]) -> AsyncIterator[MultiListener]:
        """A ``MultiListener`` of ``game_ids`` while the context is open (``await listener.wait(0,
        timeout)``; ``listener.add`` for more games)."""
        async with self.fanout.listen_many(game_ids) as listener:
            yield listener

    async def close(self) -> None:
        """Nothing to release: the Redis subscription belongs to the runtime (``RedisWake``)."""
