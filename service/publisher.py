"""Publishes game events to Redis streams (DESIGN.md, Notifications lose nothing).

The publisher follows the ``Games`` notification log from its stored checkpoint (an
eventsourcing ``TrackingRecorder``: its own SQLite file, or the ``publisher_tracking`` table in
PostgreSQL) and writes each game event with ``XADD ... MAXLEN ~ N`` to the game's stream
``dicelog:game:<id>`` and to the global stream ``dicelog:games``. Each entry carries its
notification id, so a duplicate after a crash between ``XADD`` and the checkpoint is harmless:
consumers drop entries whose notification id they have seen.

When Redis is down the commands still succeed (they never wait for Redis); the checkpoint stays
where it was and the next pass catches up.

Who sees what: ``dicelog:game:<id>`` and ``dicelog:games`` carry the public (spectator) view of
each event. For a ruleset with secrets, each audience also has its own stream,
``dicelog:game:<id>:seat:<name>`` and ``dicelog:game:<id>:auditor``, with that audience's view
(``domain.core.visibility``); an all-public game has only the public streams.
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

from collections.abc import Callable
from uuid import UUID

from domain.core.campaign import CampaignEvent
from domain.core.game import Game, Recorded
from domain.core.visibility import AUDITOR_VIEWER, SPECTATOR_VIEWER, Lens, Viewer, has_secrets, seat_viewer
from service.views import event_out

GLOBAL_STREAM = "dicelog:games"
_PUBLIC = Lens(None, AUDITOR_VIEWER)  # campaign events: all public
log = logging.getLogger("dicelog.publisher")
_encode = msgspec.json.Encoder().encode


def game_stream(game_id: Any, audience: str | None = None) -> str:
    """The Redis stream key of one game: its public stream, or one audience's (``seat:<name>``,
    ``auditor``) in a game with secrets."""
    return f"dicelog:game:{game_id}" if audience is None else f"dicelog:game:{game_id}:{audience}"


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

    def __init__(
        self, client: redis.Redis, view: Any, *, maxlen: int = 10_000, load_game: Callable[[UUID], Game] | None = None
    ) -> None:
        self.client = client
        self.view = view
        self.maxlen = maxlen
        self.load_game = load_game
        self._audiences: dict[UUID, tuple[Any, list[Viewer]]] = {}

    def _lenses(self, record: Recorded) -> list[tuple[str | None, Lens | None]]:
        """(audience stream or ``None`` for the public one, lens) for one event."""
        if isinstance(record.payload, CampaignEvent) or self.load_game is None:
            return [(None, None)]
        game_id = record.originator_id
        if game_id not in self._audiences:
            if len(self._audiences) > 1024:
                self._audiences.clear()
            game = self.load_game(game_id)
            extra = [AUDITOR_VIEWER, *(seat_viewer(game.created.seats, s.name) for s in game.created.seats)]
            self._audiences[game_id] = (game.ruleset, extra if has_secrets(game.ruleset) else [])
        ruleset, viewers = self._audiences[game_id]
        return [(None, Lens(ruleset, SPECTATOR_VIEWER)), *((v.audience, Lens(ruleset, v)) for v in viewers)]

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
            for audience, lens in self._lenses(event):
                shown = event_out(event, lens) if lens is not None else event_out(event, _PUBLIC)
                fields = {
                    "notification_id": tracking.notification_id,
                    "game_id": str(event.originator_id),
                    "version": event.originator_version,
                    "type": type(event.payload).__name__,
                    "event": _encode(shown),
                }
                pipe.xadd(game_stream(event.originator_id, audience), fields, maxlen=self.maxlen, approximate=True)
                if audience is None:
                    pipe.xadd(GLOBAL_STREAM, fields, maxlen=self.maxlen, approximate=True)
        pipe.execute()
        self.view.insert_tracking(items[-1][1])
