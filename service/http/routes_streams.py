"""``GET /stream``: the events of every game the request's tokens may read, as one stream of server-sent
events (docs/streams.md, One stream for many games).

A bot seated in many games keeps one connection: the ``Authorization`` token and any more tokens in
``Dicelog-Tokens`` (comma-separated, at most ``MAX_TOKENS``) each open their game (a campaign's token: its
chapter games), filtered by ``game`` and ``ruleset``. Each event goes through the one who-sees-what lens
(``Games.lens``) of the place the token holds in that game, exactly as ``GET /games/{id}/events`` shows it
to that token. Message ``id`` is the event's position in the store's total order (its notification id):
``Last-Event-ID`` resumes after it, across all the games. Events of a game come in version order, and the
games' events interleave as they were stored.

Like the per-game stream (``dicelog.service.http.routes_stream``) it reads the store (the truth) and uses
the ``ChangeFeed`` only to know when to look again; it sends ``: keep-alive`` comments after ``heartbeat``
seconds of silence. It does not end when a game ends (others may go on, a campaign may start a chapter):
every ``poll_interval`` it looks again at which games its tokens open, and ends when one of its tokens
was revoked (the client reconnects with the tokens it holds now).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, Request, get
from litestar.concurrency import sync_to_thread
from litestar.di import NamedDependency
from litestar.exceptions import ValidationException
from litestar.params import HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from dicelog.domain.core.events import GameEnded
from dicelog.domain.core.visibility import Lens, Viewer
from dicelog.service.app.errors import Forbidden, Unauthorized
from dicelog.service.app.games import GameNotFound, Games
from dicelog.service.bodies.render import event_out
from dicelog.service.bodies.streams import StreamEvent
from dicelog.service.http.routes import BEARER, _problems, _token_games, bearer
from dicelog.service.http.routes_stream import BATCH, KEEP_ALIVE, RETRY_MS, counted, refuse_past_head
from dicelog.service.store.fanout import ChangeFeed
from dicelog.service.store.reads import positions

_encode = msgspec.json.Encoder().encode

MAX_TOKENS = 50
"""At most this many tokens in ``Dicelog-Tokens`` (besides the ``Authorization`` one)."""
TOKENS_HEADER = "Dicelog-Tokens"


class Reader:
    """What one stream reads: the games its tokens open (after the filters), with each game's viewer."""

    def __init__(
        self, games: Games, tokens: list[str], only: set[UUID] | None, rulesets: set[str] | None
    ) -> None:
        self.games, self.tokens, self.only, self.rulesets = games, tokens, only, rulesets
        self.viewers: dict[UUID, tuple[str, Viewer]] = {}
        """game id -> (its ruleset, the viewer of the first token that opens it)."""

    def refresh(self) -> None:
        """Which games the tokens open now. Raises ``Unauthorized`` when a token opens nothing (unknown or
        revoked): every token is checked against the store, each time."""
        found: dict[UUID, tuple[str, Viewer]] = {}
        for token in self.tokens:
            opened = _token_games(self.games, token)
            if not opened:
                raise Unauthorized("a token of the stream is unknown or was revoked")
            for game_id in sorted(opened):
                if game_id in found or (self.only is not None and game_id not in self.only):
                    continue
                try:
                    game = self.games.game(game_id)
                    viewer = self.games.viewer(game, token)
                except (GameNotFound, Forbidden, Unauthorized):
                    continue  # a sealed fork (its auditor's alone) or a game gone
                if self.rulesets is not None and game.created.ruleset not in self.rulesets:
                    continue
                found[game_id] = (game.created.ruleset, viewer)
        if self.only is not None and (missing := self.only - set(found) - self._filtered_out()):
            raise Forbidden(f"the stream's tokens do not read the games {sorted(str(g) for g in missing)}")
        self.viewers = found

    def _filtered_out(self) -> set[UUID]:
        """The requested games the ruleset filter left out (not an error)."""
        if self.only is None or self.rulesets is None:
            return set()
        left = set()
        for game_id in self.only:
            try:
                if self.games.game(game_id).created.ruleset not in self.rulesets:
                    left.add(game_id)
            except GameNotFound:
                pass
        return left

    def batch(self, after: int, lenses: dict[UUID, Lens]) -> list[tuple[int, StreamEvent, bool]]:
        """The next events after notification id ``after``: (id, data, whether it ends its game)."""
        found = positions(self.games.recorder, list(self.viewers), after=after, limit=BATCH)
        by_game: dict[UUID, list[tuple[int, int]]] = defaultdict(list)
        for position, game_id, version in found:
            by_game[game_id].append((position, version))
        out: list[tuple[int, StreamEvent, bool]] = []
        for game_id, spots in by_game.items():
            ruleset_name, viewer = self.viewers[game_id]
            first, last = spots[0][1], spots[-1][1]
            records = self.games.records(game_id, after=first - 1, upto=last)
            latest = None
            if any(isinstance(r.payload, GameEnded) for r in records) or game_id not in lenses:
                latest = self.games.game(game_id)
                lenses[game_id] = self.games.lens(latest, viewer)
            lens = lenses[game_id]
            marks = {m.record.originator_version: m for m in self.games.marks(game_id, lens.ruleset, records)}
            for position, version in spots:
                mark = marks.get(version)
                if mark is None:
                    continue
                data = StreamEvent(
                    game_id=game_id,
                    ruleset=ruleset_name,
                    event=event_out(mark.record, lens, undone=mark.undone, round_=mark.round, turn=mark.turn),
                )
                out.append((position, data, isinstance(mark.record.payload, GameEnded)))
        out.sort(key=lambda item: item[0])
        return out


class CrossGameStream(Controller):
    """``GET /stream``: one stream of server-sent events for every game the tokens read."""

    path = "/stream"
    tags = ["games"]

    @get(
        "/",
        summary="Server-sent events of every game the tokens read",
        media_type="text/event-stream",
        response_description="The events of the games, each as its reader may see it, as server-sent events",
        security=BEARER,
        responses=_problems(400, 401, 403, 503),
    )
    async def stream(
        self,
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
        feed: NamedDependency[ChangeFeed],
        game: Annotated[
            list[UUID] | None,
            QueryParameter(
                description="Only these games (repeat the parameter); each must be one the tokens read"
            ),
        ] = None,
        ruleset: Annotated[
            list[str] | None,
            QueryParameter(description="Only games of these rulesets (repeat the parameter)", max_length=64),
        ] = None,
        more_tokens: Annotated[
            str | None,
            HeaderParameter(
                name=TOKENS_HEADER,
                required=False,
                max_length=MAX_TOKENS * 64,
                description="More bearer tokens, comma-separated (at most 50): the stream carries the games "
                "of each",
            ),
        ] = None,
        last_event_id: Annotated[
            int | None,
            HeaderParameter(
                name="Last-Event-ID",
                ge=0,
                required=False,
                description="Resume after this message id (the events' position in the store's total order)",
            ),
        ] = None,
    ) -> ServerSentEvent:
        """Every event of every game the tokens read (the ``Authorization`` token's and those of
        ``Dicelog-Tokens``; a campaign's token reads its chapter games), from the first or after
        ``Last-Event-ID``, then live: ``id`` = the event's position in the store's total order,
        ``event: event``, ``data`` = a ``StreamEvent`` (``game_id``, ``ruleset`` and the event exactly as
        ``GET /games/{game_id}/events`` shows it to that token). The first message carries ``retry: 2000``;
        ``: keep-alive`` comments come every 15 s of silence. The stream does not end with a game; it ends
        when one of its tokens is revoked. 401: a token unknown or revoked; 403: ``game`` names a game
        the tokens do not read; 400 (``key`` ``Last-Event-ID``): ``Last-Event-ID`` past the store's latest
        position (no event has that id yet), as ``GET /games/{id}/stream`` refuses one past its game's."""
        first = bearer(request)
        if first is None:
            raise Unauthorized("a bearer token is needed: the stream carries the games it reads")
        extra = [t.strip() for t in (more_tokens or "").split(",") if t.strip()]
        if len(extra) > MAX_TOKENS:
            raise ValidationException(
                f"at most {MAX_TOKENS} tokens in {TOKENS_HEADER}",
                extra=[{"message": f"{len(extra)} tokens", "key": TOKENS_HEADER, "source": "header"}],
            )
        tokens = list(dict.fromkeys([first, *extra]))
        reader = Reader(games, tokens, set(game) if game else None, set(ruleset) if ruleset else None)
        await sync_to_thread(reader.refresh)
        if last_event_id is not None:
            head = await sync_to_thread(games.recorder.max_notification_id)
            refuse_past_head(last_event_id, head or 0, "the store", "position")
        return ServerSentEvent(counted(_messages(reader, feed, last_event_id or 0)))


async def _messages(reader: Reader, feed: ChangeFeed, after: int) -> AsyncIterator[Any]:
    loop = asyncio.get_running_loop()
    retry: int | None = RETRY_MS
    sent = after
    lenses: dict[UUID, Lens] = {}
    last_message = loop.time()
    refresh_at = loop.time() + feed.poll_interval
    async with feed.subscribe_many(reader.viewers) as listener:
        while True:
            found = await sync_to_thread(reader.batch, sent, lenses)
            for position, data, _ends in found:
                sent = position
                yield ServerSentEventMessage(
                    data=_encode(data).decode(), event="event", id=str(position), retry=retry
                )
                retry = None
            if found:
                last_message = loop.time()
                if len(found) >= BATCH:
                    continue
            elif retry is not None:
                yield ServerSentEventMessage(data=None, comment=KEEP_ALIVE, retry=retry)
                retry = None
                last_message = loop.time()
            heartbeat_at = last_message + feed.heartbeat
            timeout = min(feed.poll_interval, max(0.0, heartbeat_at - loop.time()))
            await listener.wait(0, timeout)
            if loop.time() >= refresh_at:
                try:
                    await sync_to_thread(reader.refresh)
                except (Unauthorized, Forbidden):
                    return  # a token was revoked: the client reconnects with the tokens it holds now
                listener.add(reader.viewers)
                refresh_at = loop.time() + feed.poll_interval
            if loop.time() >= heartbeat_at:
                yield ServerSentEventMessage(data=None, comment=KEEP_ALIVE)
                last_message = loop.time()
