"""In-process notification fan-out: wakes SSE streams and the embedded worker after each save.

Used when no Redis is configured (DESIGN.md, Runtime: embedded default), and always to wake the
embedded worker without polling delay. Thread-safe: ``publish`` is called from the worker
threads that run the synchronous application; listeners are asyncio queues on the event loop.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any
from contextlib import asynccontextmanager
from uuid import UUID


class FanOut:
    """Per-game wake-ups for asyncio listeners, plus a threading event for followers."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[UUID, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[int]]]] = defaultdict(set)
        self.changed = threading.Event()

    def publish(self, game_id: UUID, version: int) -> None:
        """Tell every listener of ``game_id`` that the game reached ``version``."""
        self.changed.set()
        with self._lock:
            listeners = list(self._listeners.get(game_id, ()))
        for loop, queue in listeners:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, version)
            except RuntimeError:  # loop closed
                pass

    @asynccontextmanager
    async def listen(self, game_id: UUID) -> AsyncIterator[asyncio.Queue[int]]:
        """Receive the new versions of ``game_id`` while the context is open."""
        entry = (asyncio.get_running_loop(), asyncio.Queue[int]())
        with self._lock:
            self._listeners[game_id].add(entry)
        try:
            yield entry[1]
        finally:
            with self._lock:
                self._listeners[game_id].discard(entry)
                if not self._listeners[game_id]:
                    del self._listeners[game_id]


class ChangeFeed:
    """Waits until a game may have changed: in-process fan-out, Redis stream, or a poll timeout.

    The SSE endpoint reads events from the store (the truth) and uses this only to know when
    to look again, so a missed wake-up costs at most ``poll_interval`` seconds, never an event.
    With Redis configured, a save on another replica wakes it through the game's stream.
    """

    def __init__(self, fanout: FanOut, redis_url: str | None = None, poll_interval: float = 2.0) -> None:
        self.fanout = fanout
        self.poll_interval = poll_interval
        self._redis = None
        if redis_url:
            import redis.asyncio as aioredis

            self._redis = aioredis.Redis.from_url(redis_url, socket_connect_timeout=1)

    @asynccontextmanager
    async def subscribe(self, game_id: UUID) -> AsyncIterator[Any]:
        """Yield an async ``wait()`` that returns when ``game_id`` may have new events."""
        from service.publisher import game_stream

        key = game_stream(game_id)
        last = {"id": None}

        async def redis_wait() -> None:
            assert self._redis is not None
            if last["id"] is None:
                newest = await self._redis.xrevrange(key, count=1)
                last["id"] = newest[0][0] if newest else b"0-0"
            found = await self._redis.xread({key: last["id"]}, block=int(self.poll_interval * 1000), count=100)
            for _, entries in found:
                if entries:
                    last["id"] = entries[-1][0]

        async with self.fanout.listen(game_id) as queue:

            async def wait() -> None:
                waiters = [asyncio.ensure_future(queue.get())]
                if self._redis is not None:
                    waiters.append(asyncio.ensure_future(redis_wait()))
                try:
                    done, _ = await asyncio.wait(waiters, timeout=self.poll_interval, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for task in waiters:
                        task.cancel()
                    await asyncio.gather(*waiters, return_exceptions=True)
                for task in done:
                    if not task.cancelled():
                        task.exception()  # a Redis error only means: fall back to polling

            yield wait

    async def close(self) -> None:
        if self._redis is not None:
            await self._redis.aclose()
