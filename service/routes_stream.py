"""``GET /games/{id}/stream``: a game's events as server-sent events (DESIGN.md, API shape).

The stream reads events from the store (the truth) through the reader's ``Lens`` and uses the
``ChangeFeed`` only to know when to look again. ``GameStream`` is a mixin of the ``/games``
controller (``service.routes.game_controller``).
"""

from typing import Annotated, Any

import msgspec
from litestar import Request, get
from litestar.concurrency import sync_to_thread
from litestar.di import NamedDependency
from litestar.params import HeaderParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from domain.core.events import GameEnded
from service.application import Games
from service.fanout import ChangeFeed
from service.routes import READ_SECURITY, GameId, _problems, _reader, bearer
from service.views import event_out

_encode = msgspec.json.Encoder().encode


class GameStream:
    """The ``/games/{id}/stream`` handler (a mixin of the controller)."""

    @get(
        "/{game_id:uuid}/stream",
        summary="Server-sent events of a game",
        media_type="text/event-stream",
        security=READ_SECURITY,
        responses=_problems(400, 401, 404),
    )
    async def stream(
        self,
        game_id: GameId,
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
        feed: NamedDependency[ChangeFeed],
        last_event_id: Annotated[int | None, HeaderParameter(name="Last-Event-ID", ge=0, required=False)] = None,
    ) -> ServerSentEvent:
        """The game's events as server-sent events (``event: event``, ``id`` = version, ``data``
        = the audit view of the event as the reader may see it), from the first one or after
        ``Last-Event-ID``, then live. The stream ends after the event that ends the game."""
        game, _ = await sync_to_thread(_reader, games, game_id, request)
        viewer = games.viewer(game, bearer(request))

        async def events() -> Any:
            sent = last_event_id or 0
            async with feed.subscribe(game_id) as wait:
                while True:
                    records = await sync_to_thread(games.records, game_id, after=sent, limit=500)
                    if records:
                        latest = await sync_to_thread(games.game, game_id)
                        lens = await sync_to_thread(games.lens, latest, viewer)
                    for record in records:
                        sent = record.originator_version
                        data = _encode(event_out(record, lens)).decode()
                        yield ServerSentEventMessage(data=data, event="event", id=str(sent))
                        if isinstance(record.payload, GameEnded):
                            return
                    if len(records) < 500:
                        await wait()

        return ServerSentEvent(events())


