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
