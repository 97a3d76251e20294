"""The ``/games`` resource (DESIGN.md, API shape). Handlers are thin: parse, call ``Games``, render.

Handlers that touch the store are synchronous and run in Litestar's thread pool
(``sync_to_thread=True``): the eventsourcing library is synchronous and must stay off the loop.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.openapi.datastructures import ResponseSpec
from litestar.exceptions import NotFoundException, PermissionDeniedException, ValidationException
from litestar.params import HeaderParameter, JSONBody, Parameter, QueryParameter
from litestar.di import NamedDependency
from litestar.response import ServerSentEvent, ServerSentEventMessage

from domain.core.dice import commitment
from domain.core.events import DecisionRequested, DrawRequested, GameCreated, GameEnded, RollRequested
from service.application import GameNotFound, Games
from service.fanout import ChangeFeed
from service.projection_store import ReadModels
from service.schemas import (
    CommandRequest,
    EventPage,
    GameCreatedBody,
    GameList,
    GameSummary,
    LegalCommands,
    NewGame,
    Problem,
    SeatToken,
    StateAt,
    VerifyResult,
)
from service.audit import audit_events
from service.views import builtins, command_result, event_out, summary

GameId = Annotated[UUID, Parameter(description="Game id (UUID)")]
BEARER = [{"bearer": []}]


def _problems(*codes: int) -> dict[int, ResponseSpec]:
    text = {
        400: "Malformed request",
        401: "Missing or unknown bearer token",
        403: "The command is about another seat's piece",
        404: "No such game",
        409: "Stale expected_version, or something else must happen first",
        422: "A rule refuses the command (type urn:dicelog:rule:<rule>)",
    }
    return {
        c: ResponseSpec(
            data_container=Problem, description=text[c], media_type="application/problem+json", generate_examples=False
        )
        for c in codes
    }
_encode = msgspec.json.Encoder().encode


def _bearer(request: Request[Any, Any, Any]) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _seat(games: Games, game_id: UUID, request: Request[Any, Any, Any], kind: str = "game") -> str:
    """The seat of the bearer token of a game (or campaign: ``kind``); 404 when there is none."""
    try:
        return games.authenticate(game_id, _bearer(request))
    except GameNotFound:
        raise NotFoundException(f"no {kind} {game_id}") from None


class GameController(Controller):
    """Games: create, list, read, command, audit, replay, verify, stream."""

    path = "/games"
    tags = ["games"]

    @post("/", sync_to_thread=True, summary="Create a game", responses=_problems(400, 422))
    def create_game(self, data: JSONBody[NewGame], games: NamedDependency[Games]) -> GameCreatedBody:
        """Create a game; returns it and one bearer token per seat (only their hashes are kept).

        In ``server`` dice mode the game commits to ``sha256(seed)`` now and reveals the seed
        in the event that ends it. 422 when the ruleset rejects the setup or the seats.
        """
        names = [s.name for s in data.seats]
        if len(set(names)) != len(names):
            raise ValidationException("seat names must be unique")
        seed = secrets.token_bytes(32) if data.dice_mode == "server" else None
        created = GameCreated(
            ruleset=data.ruleset,
            setup=msgspec.Raw(_encode(_setup_document(data))),
            seats=tuple(data.seats),
            dice_mode=data.dice_mode,
            undo_policy=data.undo_policy,
            decision_policy=data.decision_policy,
            dice_commitment=commitment(seed) if seed else None,
        )
        tokens = {name: secrets.token_urlsafe(32) for name in names}
        game = games.create_game(created, seed=seed, tokens=tokens)
        return GameCreatedBody(game=summary(game), tokens=[SeatToken(seat=s, token=t) for s, t in tokens.items()])

    @get("/", sync_to_thread=True, summary="List games", responses=_problems(400))
    def list_games(
        self,
        games: NamedDependency[Games],
        cursor: Annotated[int, Parameter(ge=0, le=10**15)] = 0,
        limit: Annotated[int, Parameter(ge=1, le=200)] = 50,
    ) -> GameList:
        """Games in creation order, a page at a time (``cursor`` from ``next_cursor``)."""
        page = games.games(after=cursor, limit=limit)
        items = [summary(games.game(r.originator_id)) for _, r in page]
        return GameList(games=items, next_cursor=page[-1][0] if len(page) == limit else None)

    @get("/{game_id:uuid}", sync_to_thread=True, summary="Read a game", responses=_problems(400, 404))
    def get_game(self, game_id: GameId, games: NamedDependency[Games]) -> GameSummary:
        """The game at a glance: version, pending roll/decision, whose turn, result."""
        return summary(_game(games, game_id))

    @post(
        "/{game_id:uuid}/commands",
        sync_to_thread=True,
        summary="Send a command",
        security=BEARER,
        status_code=201,
        responses=_problems(400, 401, 403, 404, 409, 422),
    )
    def send_command(
        self,
        game_id: GameId,
        data: JSONBody[CommandRequest],
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
        idempotency_key: Annotated[
            str | None, HeaderParameter(name="Idempotency-Key", min_length=1, max_length=200, required=False)
        ] = None,
    ) -> Response[bytes]:
        """Run one command as the bearer token's seat.

        201 with the events it caused; 401 without a valid token; 403 when the command is about
        a piece another seat controls; 409 when ``expected_version`` is stale or a pending roll
        or decision must be answered first; 422 (problem+json, ``type`` naming the rule) when a
        rule refuses it. A retry with the same ``Idempotency-Key`` returns the first answer and
        writes nothing.
        """
        seat = _seat(games, game_id, request)
        request_hash = hashlib.sha256(_encode(data)).hexdigest()
        status, body = games.execute(
            game_id,
            seat=seat,
            command=data.command,
            expected_version=data.expected_version,
            idempotency_key=idempotency_key,
            request_hash=request_hash,
            render=command_result,
        )
        return Response(body, status_code=status, media_type="application/json")

    @get("/{game_id:uuid}/events", sync_to_thread=True, summary="The audit log", responses=_problems(400, 404))
    def list_events(
        self,
        game_id: GameId,
        games: NamedDependency[Games],
        after: Annotated[int, Parameter(ge=0, le=10**15, description="versions greater than this")] = 0,
        limit: Annotated[int, Parameter(ge=1, le=1000)] = 100,
        seat: Annotated[str | None, Parameter(max_length=64, description="only events caused by this seat")] = None,
        event_type: Annotated[
            str | None, QueryParameter(name="type", max_length=64, description="only events of this type")
        ] = None,
        round_: Annotated[int | None, QueryParameter(name="round", ge=1, le=10**9, description="only this round")] = None,
    ) -> EventPage:
        """Every stored event with version, type, payload, seat, command id, time, chain hash,
        its round and whether a later undo undid it (undone events stay in the log)."""
        records = games.records(game_id)
        if not records:
            raise NotFoundException(f"no game {game_id}")
        chosen = [
            e for e in audit_events(games.game(game_id).ruleset, records)
            if e.version > after
            and (seat is None or e.seat == seat)
            and (event_type is None or e.type == event_type)
            and (round_ is None or e.round == round_)
        ]
        page = chosen[:limit]
        return EventPage(game_id=game_id, events=page, next_after=page[-1].version if len(chosen) > limit else None)

    @get("/{game_id:uuid}/state", sync_to_thread=True, summary="The state at any version", responses=_problems(400, 404))
    def state(
        self,
        game_id: GameId,
        games: NamedDependency[Games],
        version: Annotated[int | None, Parameter(ge=1, le=10**15, required=False)] = None,
    ) -> StateAt:
        """The full state after ``version`` events (latest when omitted), rebuilt by replay."""
        game = _game(games, game_id, version)
        if version is not None and game.version != version:
            raise NotFoundException(f"game {game_id} has no version {version} (latest is {game.version})")
        return StateAt(
            game_id=game_id, version=game.version, state=builtins(game.state), pending=game.pending, result=game.result
        )

    @get(
        "/{game_id:uuid}/legal-commands",
        sync_to_thread=True,
        summary="What the caller may do now",
        security=BEARER,
        responses=_problems(400, 401, 404),
    )
    def legal_commands(self, game_id: GameId, request: Request[Any, Any, Any], games: NamedDependency[Games]) -> LegalCommands:
        """Commands the calling seat may send now, and the pending roll/decision with its seat."""
        seat = _seat(games, game_id, request)
        game = _game(games, game_id)
        ruleset = game.ruleset
        controls = next((s.controls for s in game.created.seats if s.name == seat), ())
        pending_seat = _pending_seat(game)
        commands: list[Any] = []
        if game.result is None and game.pending is None:
            for command in ruleset.legal_commands(game.state):
                piece = ruleset.piece_of(command)
                if piece is None or piece in controls:
                    commands.append(builtins(command))
        return LegalCommands(
            game_id=game_id,
            version=game.version,
            seat=seat,
            commands=commands,
            pending=game.pending,
            pending_seat=pending_seat,
            turn=ruleset.turn_piece(game.state) if game.result is None else None,
        )

    @post(
        "/{game_id:uuid}/verify", sync_to_thread=True, status_code=200, summary="Re-derive the whole log",
        responses=_problems(400, 404),
    )
    def verify(self, game_id: GameId, games: NamedDependency[Games]) -> VerifyResult:
        """Check the hash chain, re-run every stored command, and (after the end) every roll."""
        try:
            return VerifyResult(game_id=game_id, verification=games.verify(game_id))
        except GameNotFound:
            raise NotFoundException(f"no game {game_id}") from None

    @get("/{game_id:uuid}/initiative", sync_to_thread=True, summary="Initiative track read model", responses=_problems(400, 404))
    def initiative(self, game_id: GameId, read_models: NamedDependency[ReadModels]) -> dict[str, Any]:
        """The initiative track as the projection last saw it (``version`` says when)."""
        return _read(read_models, "initiative", game_id)

    @get("/{game_id:uuid}/board", sync_to_thread=True, summary="Board read model", responses=_problems(400, 404))
    def board(self, game_id: GameId, read_models: NamedDependency[ReadModels]) -> dict[str, Any]:
        """The board (rooms, spaces, figures, hourglass, cheese wheel) as last projected."""
        return _read(read_models, "board", game_id)

    @get("/{game_id:uuid}/log", sync_to_thread=True, summary="Game log read model", responses=_problems(400, 404))
    def log(
        self,
        game_id: GameId,
        read_models: NamedDependency[ReadModels],
        after: Annotated[int, Parameter(ge=0, le=10**15)] = 0,
        limit: Annotated[int, Parameter(ge=1, le=1000)] = 200,
    ) -> dict[str, Any]:
        """Readable log lines, one per meaningful event, oldest first."""
        lines = read_models.log_lines(game_id, after=after, limit=limit)
        if lines is None:
            raise NotFoundException(f"no log for game {game_id} (yet)")
        return {"game_id": str(game_id), "lines": lines}

    @get(
        "/{game_id:uuid}/stream",
        summary="Server-sent events of a game",
        media_type="text/event-stream",
        responses=_problems(400, 404),
    )
    async def stream(
        self,
        game_id: GameId,
        games: NamedDependency[Games],
        feed: NamedDependency[ChangeFeed],
        last_event_id: Annotated[int | None, HeaderParameter(name="Last-Event-ID", ge=0, required=False)] = None,
    ) -> ServerSentEvent:
        """The game's events as server-sent events (``event: event``, ``id`` = version, ``data``
        = the audit view of the event), from the first one or after ``Last-Event-ID``, then live.
        The stream ends after the event that ends the game."""
        try:
            await sync_to_thread(games.secret, game_id)
        except GameNotFound:
            raise NotFoundException(f"no game {game_id}") from None

        async def events() -> Any:
            sent = last_event_id or 0
            async with feed.subscribe(game_id) as wait:
                while True:
                    records = await sync_to_thread(games.records, game_id, after=sent, limit=500)
                    for record in records:
                        sent = record.originator_version
                        yield ServerSentEventMessage(data=_encode(event_out(record)).decode(), event="event", id=str(sent))
                        if isinstance(record.payload, GameEnded):
                            return
                    if len(records) < 500:
                        await wait()

        return ServerSentEvent(events())


def _setup_document(data: NewGame) -> Any:
    """The ruleset's setup document, with the content pack (if any) inside it."""
    if data.content_pack is None:
        return data.setup
    return {**msgspec.to_builtins(data.setup), "content_pack": data.content_pack}


def _game(games: Games, game_id: UUID, version: int | None = None) -> Any:
    try:
        return games.game(game_id, version)
    except GameNotFound:
        raise NotFoundException(f"no game {game_id}") from None


def _pending_seat(game: Any) -> str | None:
    pending = game.pending
    if isinstance(pending, (RollRequested, DrawRequested, DecisionRequested)) and pending.piece:
        return next((s.name for s in game.created.seats if pending.piece in s.controls), None)
    return None


def _read(read_models: NamedDependency[ReadModels], kind: str, game_id: UUID) -> dict[str, Any]:
    doc = read_models.document(kind, game_id)
    if doc is None:
        raise NotFoundException(f"no {kind} for game {game_id} (yet)")
    return doc


__all__ = ["GameController", "PermissionDeniedException"]
