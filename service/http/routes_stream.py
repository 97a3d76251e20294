"""``GET /games/{id}/stream``: a game's events as server-sent events (docs/api.md, API shape).

The stream reads events from the store (the truth) through the reader's ``Lens`` and uses the
``ChangeFeed`` only to know when to look again: a save in this process wakes it at once, a save in
another process through Redis (``dicelog.service.store.fanout.RedisWake``), and without either it polls.
``GameStream`` is a controller of its own on the ``/games`` path, beside
``dicelog.service.http.routes.game_controller``.

The wire format, for a client author:

- each event: ``id: <version>``, ``event: event``, ``data: <the event as the reader may see it>``;
- the first message carries ``retry: 2000`` (``RETRY_MS``: how long an EventSource waits before it
  reconnects); when there is no event to send at once, the first message is a ``: keep-alive``
  comment with it;
- ``: keep-alive`` comment lines after every ``heartbeat`` seconds without a message (15 by
  default, ``DICELOG_SSE_HEARTBEAT``), so that proxies do not cut an idle stream;
- the stream ends after the event that ends the game (``GameEnded``); a request whose
  ``Last-Event-ID`` is at or past that event is answered ``204 No Content``, which tells an
  EventSource to stop reconnecting.
"""

import asyncio
from collections.abc import AsyncIterator
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, get
from litestar.concurrency import sync_to_thread
from litestar.di import NamedDependency
from litestar.exceptions import ValidationException
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import HeaderParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from dicelog.domain.core.events import GameEnded
from dicelog.domain.core.visibility import Lens, Viewer
from dicelog.service.app.games import Games
from dicelog.service.bodies.render import event_out
from dicelog.service.http.routes import READ_SECURITY, GameId, _problems, _reader, bearer
from dicelog.service.ops.metrics import SSE_CLIENTS
from dicelog.service.store.fanout import ChangeFeed

_encode = msgspec.json.Encoder().encode

RETRY_MS = 2000
"""The ``retry:`` field of the first message (milliseconds)."""
KEEP_ALIVE = "keep-alive"
"""The text of the heartbeat comment lines (``: keep-alive``)."""
BATCH = 500
"""Events read from the store at a time."""

_ENDED = ResponseSpec(
    data_container=None,
    description="The game has ended and `Last-Event-ID` is at or past its last event: nothing more will "
    "come (an EventSource stops reconnecting)",
    media_type="text/plain",
    generate_examples=False,
)


class GameStream(Controller):
    """The ``/games/{id}/stream`` handler: a controller of its own on the ``/games`` path, beside
    ``dicelog.service.http.routes.game_controller``'s."""

    path = "/games"
    tags = ["games"]

    @get(
        "/{game_id:uuid}/stream",
        summary="Server-sent events of a game",
        media_type="text/event-stream",
        response_description=(
            "The events as server-sent events; the stream ends after the event that ends the game"
        ),
        security=READ_SECURITY,
        responses={204: _ENDED, **_problems(400, 401, 404, 503)},
    )
    async def stream(
        self,
        game_id: GameId,
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
        feed: NamedDependency[ChangeFeed],
        last_event_id: Annotated[
            int | None,
            HeaderParameter(
                name="Last-Event-ID",
                ge=0,
                required=False,
                description="Resume after this version (an EventSource sends the last `id` it received)",
            ),
        ] = None,
    ) -> ServerSentEvent:
        """The game's events as server-sent events (``event: event``, ``id`` = version, ``data``
        = the audit view of the event exactly as ``GET /games/{id}/events`` shows it to the reader
        when it is sent, ``round`` and ``undone`` included), from the first one or after
        ``Last-Event-ID``, then live. The first message carries ``retry: 2000`` (milliseconds);
        ``: keep-alive`` comment lines come every 15 s of silence. The stream ends after the event
        that ends the game; a request with ``Last-Event-ID`` at or past that event gets ``204``. A
        ``Last-Event-ID`` past the latest event of a running game is refused (400 ``bad-request``,
        ``key`` ``Last-Event-ID``): no event has that id yet."""
        game, lens = await sync_to_thread(_reader, games, game_id, request)
        if game.result is not None and last_event_id is not None and last_event_id >= game.version:
            return Response(content=b"", status_code=204)  # type: ignore[return-value]  # 204: no stream to send
        refuse_past_head(last_event_id, game.version, "the game", "version")
        viewer = games.viewer(game, bearer(request))
        return ServerSentEvent(_events(games, feed, game_id, viewer, lens, last_event_id or 0))


def refuse_past_head(last_event_id: int | None, head: int, what: str, unit: str) -> None:
    """Refuse a ``Last-Event-ID`` past ``head``, the latest id there is (``what`` is at ``unit`` ``head``:
    a game's version, or the store's latest position for ``GET /stream``): 400 ``bad-request``, ``key``
    ``Last-Event-ID``, ``source`` ``header``. No event has that id yet, so a stream resumed after it would
    wait silently (or skip the events that take the ids up to it)."""
    if last_event_id is not None and last_event_id > head:
        raise ValidationException(
            f"Last-Event-ID {last_event_id} is past {what}'s latest event ({head})",
            extra=[
                {
                    "message": f"no event {last_event_id} yet: {what} is at {unit} {head}",
                    "key": "Last-Event-ID",
                    "source": "header",
                }
            ],
        )


async def counted(messages: AsyncIterator[Any]) -> AsyncIterator[Any]:
    """``messages``, one open stream's, counted in ``dicelog_sse_clients`` while the stream is open
    (this game's stream and ``GET /stream``)."""
    SSE_CLIENTS.inc()
    try:
        async for message in messages:
            yield message
    finally:
        SSE_CLIENTS.dec()


def _events(
    games: Games, feed: ChangeFeed, game_id: Any, viewer: Viewer, lens: Lens, after: int
) -> AsyncIterator[Any]:
    """The messages of one stream: events with version > ``after`` through ``viewer``'s lens,
    then live ones; heartbeats in between; ends after ``GameEnded``.

    ``lens`` is the viewer's lens of the game when the stream opened. A lens changes only when
    the game ends (``reveal``), so it is taken again, from the latest game, only for the batch
    that holds ``GameEnded``: a wake-up costs one read of the store.
    """
    return counted(_messages(games, feed, game_id, viewer, lens, after))


async def _messages(
    games: Games, feed: ChangeFeed, game_id: Any, viewer: Viewer, lens: Lens, after: int
) -> AsyncIterator[Any]:
    loop = asyncio.get_running_loop()
    retry: int | None = RETRY_MS  # on the first message only
    sent = after
    async with feed.subscribe(game_id) as listener:
        while True:
            records = await sync_to_thread(games.records, game_id, after=sent, limit=BATCH)
            if any(isinstance(record.payload, GameEnded) for record in records):
                latest = await sync_to_thread(games.game, game_id)
                lens = await sync_to_thread(games.lens, latest, viewer)
            marks = await sync_to_thread(games.marks, game_id, lens.ruleset, records) if records else []
            for mark in marks:
                record = mark.record
                sent = record.originator_version
                shown = event_out(record, lens, undone=mark.undone, round_=mark.round, turn=mark.turn)
                data = _encode(shown).decode()
                yield ServerSentEventMessage(data=data, event="event", id=str(sent), retry=retry)
                retry = None
                if isinstance(record.payload, GameEnded):
                    return
            if records:
                last_message = loop.time()
                if len(records) == BATCH:
                    continue
            elif retry is not None:  # nothing to send at once: the first message is a comment
                yield ServerSentEventMessage(data=None, comment=KEEP_ALIVE, retry=retry)
                retry = None
                last_message = loop.time()
            heartbeat_at = last_message + feed.heartbeat
            await listener.wait(sent, min(feed.poll_interval, max(0.0, heartbeat_at - loop.time())))
            if loop.time() >= heartbeat_at:
                yield ServerSentEventMessage(data=None, comment=KEEP_ALIVE)
                last_message = loop.time()
