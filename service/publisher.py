"""Publishes game events to Redis streams (DESIGN.md, Notifications lose nothing).

The publisher follows the ``Games`` notification log from its stored checkpoint (an
eventsourcing ``TrackingRecorder``: its own SQLite file, or the ``publisher_tracking`` table in
PostgreSQL) and writes each game event with ``XADD ... MAXLEN ~ N`` to the game's stream
``dicelog:game:<id>`` and to the global stream ``dicelog:games``. Each entry carries its
notification id, so a duplicate after a crash between ``XADD`` and the checkpoint is harmless:
consumers drop entries whose notification id they have seen.

When Redis is down the commands still succeed (they never wait for Redis); the checkpoint stays
where it was and the next pass catches up.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import msgspec
import redis
from eventsourcing.persistence import Tracking
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from domain.core.game import Recorded
from service.views import event_out

GLOBAL_STREAM = "dicelog:games"
log = logging.getLogger("dicelog.publisher")
_encode = msgspec.json.Encoder().encode


def game_stream(game_id: Any) -> str:
    """The Redis stream key of one game."""
    return f"dicelog:game:{game_id}"


def connect(url: str) -> redis.Redis:
    """A Redis client with short timeouts and redis-py's own bounded retry with backoff."""
    return redis.Redis.from_url(
        url,
        socket_connect_timeout=1,
        socket_timeout=2,
        retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), retries=2),
        retry_on_error=[redis.ConnectionError, redis.TimeoutError],
    )


class RedisPublisher:
    """Writes (event, tracking) pairs to Redis, then records the checkpoint."""

    name = "publisher"

    def __init__(self, client: redis.Redis, view: Any, *, maxlen: int = 10_000) -> None:
        self.client = client
        self.view = view
        self.maxlen = maxlen

    def process_batch(self, items: Sequence[tuple[Any, Tracking]]) -> None:
        """XADD every game event of ``items`` in one pipeline, then store the last checkpoint.

        Raises ``redis.RedisError`` when Redis cannot be reached (nothing is checkpointed).
        """
        if not items:
            return
        pipe = self.client.pipeline(transaction=False)
        for event, tracking in items:
            if not isinstance(event, Recorded):
                continue
            fields = {
                "notification_id": tracking.notification_id,
                "game_id": str(event.originator_id),
                "version": event.originator_version,
                "type": type(event.payload).__name__,
                "event": _encode(event_out(event)),
            }
            pipe.xadd(game_stream(event.originator_id), fields, maxlen=self.maxlen, approximate=True)
            pipe.xadd(GLOBAL_STREAM, fields, maxlen=self.maxlen, approximate=True)
        pipe.execute()
        self.view.insert_tracking(items[-1][1])
