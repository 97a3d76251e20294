"""The ``/games`` resource (docs/api.md, API shape). Handlers are thin: parse, call ``Games``, render.

Handlers that touch the store are synchronous: the eventsourcing library is synchronous and must
stay off the loop. Reads run in Litestar's thread pool (``sync_to_thread=True``); the handlers that
write run on the write lane (``@on_write_lane``, ``dicelog.service.store.write_lane``), sized by the store.

Every read goes through ``_reader``: the bearer token (if any) says who reads (a seat, the
spectator, the auditor; no token: a spectator of a public or unlisted game), and the reader's
``Lens`` (``dicelog.domain.core.visibility``) masks what that reader may not see, on every path.

The request bodies that depend on the served rulesets (``POST /games``, ``POST
/games/{id}/commands``) are built per app (``dicelog.service.http.api_types``), so this module builds its
controller in ``game_controller(types)`` (annotations are evaluated: no postponed annotations).
"""

import hashlib
from typing import Annotated, Any
from urllib.parse import urlencode
from uuid import UUID

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency
from litestar.exceptions import (
    ClientException,
    NotFoundException,
    PermissionDeniedException,
    ValidationException,
)
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import HeaderParameter, JSONBody, Parameter, QueryParameter
from litestar.status_codes import HTTP_406_NOT_ACCEPTABLE
from structlog.contextvars import bind_contextvars

from dicelog.domain.core import registry
from dicelog.domain.core.dice import commitment
from dicelog.domain.core.errors import DomainError, RuleBroken
from dicelog.domain.core.events import DecisionRequested, DrawRequested, GameCreated, RollRequested
from dicelog.domain.core.game import Game
from dicelog.domain.core.verify import verify_view
from dicelog.domain.core.visibility import RESERVED_SEATS, SPECTATOR_VIEWER, Lens, has_secrets
from dicelog.service.app import campaigns
from dicelog.service.app.audit import describe, marked_out
from dicelog.service.app.errors import Forbidden, Unauthorized, VersionConflict
from dicelog.service.app.export import export_document_lines, reader_export
from dicelog.service.app.games import TABLE, Executed, GameNotFound, Games, new_token
from dicelog.service.bodies.exports import CampaignExport, GameExport
from dicelog.service.bodies.openapi_slots import JSON_FORM
from dicelog.service.bodies.render import builtins, command_result, summary, tagged, turn_of, viewed
from dicelog.service.bodies.schemas import (
    BoardOut,
    CommandResult,
    EventPage,
    GameCreatedBody,
    GameList,
    GameSummary,
    InitiativeOut,
    LegalCommands,
    LogLine,
    LogOut,
    Problem,
    SeatToken,
    StateAt,
    VerifyResult,
)
from dicelog.service.http.api_types import ApiTypes, ruleset_of
from dicelog.service.http.cache import mark
from dicelog.service.http.command_metrics import counting_command
from dicelog.service.ops.metrics import command_tag
from dicelog.service.store.projection_store import ReadModels
from dicelog.service.store.write_lane import on_write_lane

GameId = Annotated[UUID, Parameter(description="Game id (UUID)")]
# The query parameters of an event page, shared by a game's and a campaign's (``GET .../events``).
EventsAfter = Annotated[int, Parameter(ge=0, le=10**15, description="versions greater than this")]
EventsLimit = Annotated[int, Parameter(ge=1, le=1000, description="at most this many events")]
EventsSeat = Annotated[str | None, Parameter(max_length=64, description="only events caused by this seat")]
EventsType = Annotated[
    str | None, QueryParameter(name="type", max_length=64, description="only events of this type")
]
ActingSeat = Annotated[
    str | None,
    HeaderParameter(
        name="Dicelog-Seat",
        min_length=1,
        max_length=32,
        required=False,
        description="with the table token of a game created with ``table_device``: the seat to act as "
        "(default: the seat the command is for, or the seat that must act now); with a seat's token, its own "
        "seat only (403 otherwise)",
    ),
]
ReadModelVersion = Annotated[
    int | None,
    Parameter(
        ge=1,
        le=10**15,
        required=False,
        description="the version: the view after the game's first ``version`` events, rebuilt by replay "
        "(latest when omitted; 404 beyond the latest)",
    ),
]
BEARER: list[dict[str, list[str]]] = [{"bearer": []}]
READ_SECURITY: list[dict[str, list[str]]] = [{}, {"bearer": []}]
"""Reads take an optional bearer token: without one, a spectator of a public or unlisted game."""


def _problems(*codes: int, resource: str = "game") -> dict[int, ResponseSpec]:
    """The problem+json answers of an operation on a ``resource`` (``game`` or ``campaign``), by status."""
    text = {
        400: "Malformed request (or a JSON body nested deeper than 64 levels)",
        401: f"Missing or unknown bearer token (or a private {resource} read without one)",
        403: "The command is about another seat's piece, or the token may only read"
        if resource == "game"
        else "The token may only read (a spectator's or an auditor's)",
        404: f"No such {resource}",
        406: "The Accept header names no media type the operation answers with (not-acceptable)",
        409: "Stale expected_version (version-conflict): read again, then decide again; the only 409",
        413: "The request (or its content pack) is too large",
        415: "The body is not JSON (send Content-Type: application/json)",
        422: "A rule refuses it (type urn:dicelog:rule:<rule>), or already-claimed, idempotency-key-reused",
        429: "A quota is spent (rate-limited, `quota` names it): retry after Retry-After seconds",
        503: "The store is unavailable: retry after the Retry-After header's seconds",
    }
    return {
        c: ResponseSpec(
            data_container=Problem,
            description=text[c],
            media_type="application/problem+json",
            generate_examples=False,
        )
        for c in codes
    }


_encode = msgspec.json.Encoder().encode
SECTION = "docs/clients.md, The API at a glance"

JSONL = "application/jsonl"
JSON = "application/json"


def export_media(request: Request[Any, Any, Any]) -> str:
    """The form of an export the request's ``Accept`` asks for (Litestar's ``Accept.best_match``): the
    file (``application/jsonl``, also for no ``Accept`` or ``*/*``) or the typed JSON document
    (``application/json``). Raises 406 (``not-acceptable``) when ``Accept`` matches neither."""
    media = request.accept.best_match([JSONL, JSON])
    if media is None:
        raise ClientException(
            f"an export is {JSONL} (the file) or {JSON} (one document), not {request.headers.get('Accept')}",
            status_code=HTTP_406_NOT_ACCEPTABLE,
        )
    return media


def export_response(document: GameExport | CampaignExport, media: str, name: str) -> Response[bytes]:
    """An export ``document`` as ``media`` (``export_media``): the JSON Lines file (an attachment named
    ``<name>.jsonl``) or the document itself. ``Vary: Accept``: the two forms share the URL."""
    vary = {"Vary": "Accept"}
    if media == JSON:
        return Response(_encode(document), media_type=JSON, headers=vary)
    return Response(
        b"".join(line + b"\n" for line in export_document_lines(document)),
        media_type=JSONL,
        headers={"Content-Disposition": f'attachment; filename="{name}.jsonl"', **vary},
    )


class _Versions(msgspec.Struct):
    version: int


class _Answer(msgspec.Struct):
    game_id: UUID
    events: list[_Versions]


def created(body: Any, location: str, status: int = 201) -> Response[Any]:
    """A 201 answer with its ``Location`` header (the resource created, or where its events are)."""
    return Response(body, status_code=status, headers={"Location": location})


def bearer(request: Request[Any, Any, Any]) -> str | None:
    """The bearer token of a request, if any (tokens travel only in the Authorization header)."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _seat(games: Games, game_id: UUID, request: Request[Any, Any, Any], kind: str = "game") -> str:
    """The seat of the bearer token of a game (or campaign: ``kind``); 404 when there is none."""
    try:
        return games.authenticate(game_id, bearer(request), kind)
    except GameNotFound:
        raise NotFoundException(f"no {kind} {game_id}") from None


def _reads(games: Games, game: Game, token: str | None) -> bool:
    """Whether ``token`` may read ``game`` at all."""
    try:
        games.viewer(game, token)
    except (Unauthorized, Forbidden):
        return False
    return True


def _reader(games: Games, game_id: UUID, request: Request[Any, Any, Any]) -> tuple[Game, Lens]:
    """The game and what the request's reader sees of it (401 for a bad token or a private game);
    marks the answer's caching (``dicelog.service.http.cache``: immutable once the game is revealed)."""
    game = _game(games, game_id)
    lens = games.lens(game, games.viewer(game, bearer(request)))
    mark(request.scope, final=games.revealed(game), private=game.created.visibility == "private")
    return game, lens


def create_game(types: ApiTypes, data: Any, games: Games) -> GameCreatedBody:
    """``POST /games`` (see ``GameController.create_game``)."""
    names = [s.name for s in data.seats]
    if len(set(names)) != len(names):
        raise ValidationException("seat names must be unique")
    reserved = sorted(set(names) & set(RESERVED_SEATS))
    if reserved:
        raise ValidationException(f"seat names {reserved} are reserved ({', '.join(RESERVED_SEATS)})")
    seed = _new_seed() if data.dice_mode == "server" else None
    created = GameCreated(
        ruleset=ruleset_of(data),
        setup=msgspec.Raw(_encode(_setup_document(data))),
        seats=tuple(data.seats),
        dice_mode=data.dice_mode,
        undo_policy=data.undo_policy or ("all-seats" if data.dice_mode == "manual" else "none"),
        decision_policy=data.decision_policy,
        dice_commitment=commitment(seed) if seed else None,
        visibility=data.visibility,
        rules_revision=registry.rules_revision(ruleset_of(data)),
    )
    tokens = {f"seat:{name}": new_token() for name in names} | {
        "spectator": new_token(),
        "auditor": new_token(),
    }
    if data.table_device:
        if has_secrets(registry.get(created.ruleset)):
            raise RuleBroken(
                "table-device.secrets",
                section="docs/api.md, Access",
                detail=f"{created.ruleset} has secrets: its seats must not share one device",
            )
        tokens[TABLE] = new_token()
    game = games.create_game(created, seed=seed, tokens=tokens)
    return created_body(games, game, tokens)


def created_body(games: Games, game: Game, tokens: dict[str, str]) -> GameCreatedBody:
    """The answer to a creation or a fork: the game as the first token's holder sees it, and the
    tokens handed out (audience -> token)."""
    first = next(iter(tokens))
    lens = games.lens(game, games.viewer(game, tokens[first]))
    return GameCreatedBody(
        game=summary(game, lens),
        tokens=[
            SeatToken(seat=a.removeprefix("seat:"), token=t)
            for a, t in tokens.items()
            if a.startswith("seat:")
        ],
        spectator_token=tokens.get("spectator"),
        auditor_token=tokens.get("auditor"),
        table_token=tokens.get(TABLE),
    )


def _new_seed() -> bytes:
    import secrets

    return secrets.token_bytes(32)


def send_command(
    types: ApiTypes,
    game_id: UUID,
    data: Any,
    request: Request[Any, Any, Any],
    games: Games,
    idempotency_key: str | None,
    acting: str | None = None,
) -> Response[CommandResult]:
    """``POST /games/{id}/commands`` (see ``GameController.send_command``).

    The command is decided, under the game's lock, on the game as this process last saw it
    (``Games.cached_game``: where one process writes the games, as on SQLite, no read of the store on
    the way). Stored, it proves that game current: the store
    takes a game's events only at the next version. Refused (a rule, the seat, the expected version,
    or the store because the version was taken), it is checked against the store, and decided once
    more on the stored game if that is newer (another process wrote meanwhile): nothing was stored
    by the first attempt, so the answer is the one a fresh read would have given."""
    with counting_command(data.command), games.lock(game_id):
        try:
            game = games.cached_game(game_id)
        except GameNotFound:
            raise NotFoundException(f"no game {game_id}") from None
        try:
            return _send_command(types, game, data, request, games, idempotency_key, acting)
        except (DomainError, VersionConflict, PermissionError):
            stored = _game(games, game_id)
            if stored.version == game.version:
                raise
        return _send_command(types, stored, data, request, games, idempotency_key, acting)


def _send_command(
    types: ApiTypes,
    game: Game,
    data: Any,
    request: Request[Any, Any, Any],
    games: Games,
    idempotency_key: str | None,
    acting: str | None = None,
) -> Response[CommandResult]:
    game_id = game.id
    token = bearer(request)
    # once: the seat acting and what it reads; whether the token was revoked is asked by the save of the
    # command's events, in its own transaction (dicelog.service.store.revocations), or below when nothing
    # is saved: every answer to a revoked token is a 401
    audience, digest = games.audience_unchecked(game_id, token)
    try:
        status, body, after = _execute_as(
            types, game, data, token, games, idempotency_key, acting, audience, digest
        )
    except Unauthorized:
        raise
    except Exception:
        games.ensure_not_revoked(digest)
        raise
    if after is None:  # an answer stored by a first attempt: its body tells where its events are
        games.ensure_not_revoked(digest)
        answer = msgspec.json.decode(body, type=_Answer)
        after = answer.events[0].version - 1 if answer.events else 0
    return Response(
        body,  # type: ignore[arg-type]  # the CommandResult already encoded: Response[CommandResult] documents it
        status_code=status,
        media_type="application/json",
        headers={"Location": f"/games/{game_id}/events?after={after}"},
    )


def _execute_as(
    types: ApiTypes,
    game: Game,
    data: Any,
    token: str | None,
    games: Games,
    idempotency_key: str | None,
    acting: str | None,
    audience: str,
    digest: str,
) -> Executed:
    """The command of ``data`` run by the seat the bearer ``token`` of ``audience`` (SHA-256 ``digest``) acts
    as."""
    seat = games.acting_seat(game, token, data.command, acting, audience)
    bind_contextvars(seat=seat, command=command_tag(data.command))
    ruleset = game.created.ruleset
    if not types.belongs(ruleset, data.command):
        raise RuleBroken(
            "command.wrong-ruleset",
            section=SECTION,
            detail=f"{type(data.command).__name__} is not a command of {ruleset} (this game's ruleset)",
        )
    request_hash = hashlib.sha256(_encode(data)).hexdigest()
    lens = games.lens(game, games.viewer(game, token, audience))
    return games.execute(
        game.id,
        seat=seat,
        command=data.command,
        expected_version=data.expected_version,
        idempotency_key=idempotency_key,
        request_hash=request_hash,
        render=command_result(lens),
        game=game,
        unrevoked=digest,
    )


class GameReads:
    """The ``/games`` handlers whose types do not depend on the rulesets (a mixin of the controller)."""

    @get(
        "/",
        sync_to_thread=True,
        summary="List games",
        security=READ_SECURITY,
        responses=_problems(400, 401, 503),
    )
    def list_games(
        self,
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
        cursor: Annotated[
            int, Parameter(ge=0, le=10**15, description="``next_cursor`` of the previous page")
        ] = 0,
        limit: Annotated[int, Parameter(ge=1, le=200, description="at most this many games")] = 50,
    ) -> GameList:
        """Public games in creation order, a page at a time (``cursor`` from ``next_cursor``); with
        a bearer token, also the games that token belongs to (a game's, or a campaign's chapters)."""
        token = bearer(request)
        mine = _token_games(games, token) if token else set()
        if token and not mine:
            raise Unauthorized("unknown bearer token")
        page, next_cursor = games.games(after=cursor, limit=limit, include=mine)
        items = []
        for game_id in page:
            game = games.game(game_id)
            if games.sealed(game) and (game_id not in mine or not _reads(games, game, token)):
                continue  # a sealed fork is listed to its auditor only
            viewer = games.viewer(game, token) if game_id in mine else SPECTATOR_VIEWER
            items.append(summary(game, games.lens(game, viewer)))
        return GameList(games=items, next_cursor=next_cursor)

    @get(
        "/{game_id:uuid}",
        sync_to_thread=True,
        summary="Read a game",
        security=READ_SECURITY,
        responses=_problems(400, 401, 404, 503),
    )
    def get_game(
        self, game_id: GameId, request: Request[Any, Any, Any], games: NamedDependency[Games]
    ) -> GameSummary:
        """The game at a glance: version, pending roll/decision, whose turn, result."""
        game, lens = _reader(games, game_id, request)
        return summary(game, lens)

    @get(
        "/{game_id:uuid}/events",
        sync_to_thread=True,
        summary="The audit log",
        security=READ_SECURITY,
        responses=_problems(400, 401, 404, 503),
    )
    def list_events(
        self,
        game_id: GameId,
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
        after: EventsAfter = 0,
        limit: EventsLimit = 100,
        seat: EventsSeat = None,
        event_type: EventsType = None,
        round_: Annotated[
            int | None, QueryParameter(name="round", ge=1, le=10**9, description="only this round")
        ] = None,
    ) -> Response[EventPage]:
        """Every stored event with version, type, payload, seat, command id, time, chain hash,
        its round and whether a later undo undid it (undone events stay in the log). Events the
        reader may not see yet are stubs (``hidden``): versions never have gaps. When more events
        match, ``next_after`` is set and ``Link: <...?after=next_after>; rel="next"`` names the next
        page (the same filters)."""
        game, lens = _reader(games, game_id, request)
        page, next_after = games.event_page(
            game_id, game.ruleset, after=after, limit=limit, seat=seat, type_=event_type, round_=round_
        )
        body = EventPage(game_id=game_id, events=marked_out(page, lens), next_after=next_after)
        if next_after is None:
            return Response(body)
        query = {k: v for k, v in request.query_params.items() if k != "after"}
        query["after"] = str(next_after)
        link = f'<{request.url.path}?{urlencode(query)}>; rel="next"'
        return Response(body, headers={"Link": link})

    @get(
        "/{game_id:uuid}/state",
        sync_to_thread=True,
        summary="The state at any version",
        security=READ_SECURITY,
        responses=_problems(400, 401, 404, 429, 503),
    )
    def state(
        self,
        game_id: GameId,
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
        version: Annotated[
            int | None,
            Parameter(ge=1, le=10**15, required=False, description="the version (latest when omitted)"),
        ] = None,
    ) -> StateAt:
        """The full state after ``version`` events (latest when omitted), rebuilt by replay, as the
        reader may see it."""
        latest, lens = _reader(games, game_id, request)
        game = latest if version is None else _game(games, game_id, version)  # one load for the latest
        if version is not None and game.version != version:
            raise NotFoundException(f"game {game_id} has no version {version} (latest is {game.version})")
        return StateAt(
            game_id=game_id,
            version=game.version,
            state=tagged(game.created.ruleset, builtins(lens.state(game.state))),
            pending=lens.pending(game.pending),
            result=game.result,
        )

    @get(
        "/{game_id:uuid}/legal-commands",
        sync_to_thread=True,
        summary="What the caller may do now",
        security=BEARER,
        responses=_problems(400, 401, 403, 404, 503),
    )
    def legal_commands(
        self,
        game_id: GameId,
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
        acting: ActingSeat = None,
    ) -> LegalCommands:
        """Commands the calling seat may send now, ready to send, and the pending roll/decision
        with its seat. With a table token (``table_device``): those of the seat that must act now (or
        the one ``Dicelog-Seat`` names). While an undo request is open: ``ApproveUndo`` /
        ``RejectUndo`` for the seats that may answer it (nothing else is accepted). While a decision
        is pending: one ``Choose`` per option for the seat that must answer it. A pending roll, shuffle
        or draw (manual dice) is answered with what the table rolled, shuffled or drew, so it is
        described by ``pending``, not listed."""
        game = _game(games, game_id)
        token = bearer(request)
        audience = games.audience(game_id, token) if token else None  # once: what it reads, who acts
        lens = games.lens(game, games.viewer(game, token, audience))
        seat = games.acting_seat(game, token, None, acting, audience)
        ruleset = game.ruleset
        controls = next((s.controls for s in game.created.seats if s.name == seat), ())
        pending = lens.pending(game.pending)
        pending_seat = _pending_seat(game, pending)
        commands: list[Any] = []
        if game.result is not None:
            pass
        elif game.undo_request is not None:
            commands = _undo_answers(game, seat)
        elif game.pending is None:
            for command in ruleset.legal_commands(game.state):
                piece = ruleset.piece_of(command)
                if piece is None or piece in controls:
                    commands.append(builtins(command))
        elif isinstance(pending, DecisionRequested) and pending_seat in (None, seat):
            commands = [{"type": "Choose", "option": option} for option in pending.options]
        return LegalCommands(
            game_id=game_id,
            version=game.version,
            seat=seat,
            commands=commands,
            pending=pending,
            pending_seat=pending_seat,
            turn=turn_of(game, lens),
            undo_request=game.undo_request,
            undo_waiting_for=tuple(s for s in game.undo_needs if s not in game.undo_approved),
        )

    @post(
        "/{game_id:uuid}/verify",
        sync_to_thread=True,
        status_code=200,
        summary="Re-derive the whole log",
        security=READ_SECURITY,
        responses=_problems(400, 401, 404, 429, 503),
    )
    def verify(
        self, game_id: GameId, request: Request[Any, Any, Any], games: NamedDependency[Games]
    ) -> VerifyResult:
        """Check the hash chain, re-run every stored command, and (after the end) every roll and, in a game of
        chain format 2, every salt against the revealed view key. A divergence names what was expected and
        found only where the reader may see that event. A reader who does not see everything of a running
        game of chain format 2 also gets ``digest_only``: the versions it cannot check itself (hidden or
        masked from it), which its own export checks by digest only (``GET /games/{id}/export``)."""
        game, lens = _reader(games, game_id, request)
        verification = games.verify(game_id)
        if verification.ok and not lens.full and game.created.chain_format >= 2:
            own = verify_view(game_id, [viewed(r, lens) for r in games.records(game_id, upto=game.version)])
            verification = (
                msgspec.structs.replace(verification, digest_only=own.digest_only) if own.ok else own
            )
        divergence = verification.divergence
        if divergence is not None and not lens.full:
            divergence = msgspec.structs.replace(divergence, expected="(hidden)", found="(hidden)")
            verification = msgspec.structs.replace(verification, divergence=divergence)
        return VerifyResult(game_id=game_id, verification=verification)

    @get(
        "/{game_id:uuid}/export",
        sync_to_thread=True,
        summary="Export the log as the reader holds it (JSON Lines, or one JSON document)",
        security=READ_SECURITY,
        media_type=JSONL,
        response_description=(
            "By default JSON Lines: a header line, then one line per event. The full log as stored (format "
            "`dicelog-export/1`, or `dicelog-export/2` for a game of chain format 2) when the reader sees "
            "everything; in a running game of chain format 2, the reader's own view (`dicelog-view/2`: each "
            "event's link and payload digest, its payload whole with its salt, masked, or hidden); in a "
            "running game of chain format 1 with secrets, `dicelog-view/1` (stubs; not checkable offline). "
            "`dicelog verify FILE` checks it offline; `dicelog verify FILE --against FULL` checks a view "
            "taken during play against the full export taken after the end. With `Accept: application/json`, "
            "the same export as one JSON document, tagged by `format` (`FullExport`, `FullExport2`, "
            "`ViewExport2` or `StubViewExport`)."
        ),
        responses=_problems(400, 401, 404, 406, 429, 503),
        opt={JSON_FORM: GameExport},
    )
    def export(
        self, game_id: GameId, request: Request[Any, Any, Any], games: NamedDependency[Games]
    ) -> Response[bytes]:
        """The game's log as the reader may hold it, to keep and check offline (docs/who-sees-what.md, Hidden
        information): the chain across every event, hidden or not, and each payload the reader sees against
        its digest. Kept by a seat during play, it proves after the end that no hidden card was changed.
        The file form (``application/jsonl``) is the default; ``Accept: application/json`` gives the same
        export as one typed document, tagged by ``format``: the header's fields and ``events``, each event as
        the file's line. Any other ``Accept`` is 406 (``not-acceptable``)."""
        media = export_media(request)
        game, lens = _reader(games, game_id, request)
        document = reader_export(game, games.records(game_id, upto=game.version), lens)
        return export_response(document, media, f"{game_id}")

    @get(
        "/{game_id:uuid}/initiative",
        sync_to_thread=True,
        summary="Initiative track read model, at any version",
        security=READ_SECURITY,
        responses=_problems(400, 401, 404, 429, 503),
    )
    def initiative(
        self,
        game_id: GameId,
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
        read_models: NamedDependency[ReadModels],
        version: ReadModelVersion = None,
    ) -> InitiativeOut:
        """The initiative track (turn order and each role's public tracks) as the reader may see it: as
        the projection last saw it (``version`` says when), or, with the ``version`` query parameter, after
        the game's first ``version`` events, rebuilt by replay (a replay: the ``expensive`` quota counts
        it, as ``GET /state?version=N``). 404 for a version the game has not reached."""
        doc = _document(games, read_models, request, "initiative", game_id, version)
        return InitiativeOut(game_id=game_id, version=doc["version"], initiative=doc["initiative"])

    @get(
        "/{game_id:uuid}/board",
        sync_to_thread=True,
        summary="Board read model, at any version",
        security=READ_SECURITY,
        responses=_problems(400, 401, 404, 429, 503),
    )
    def board(
        self,
        game_id: GameId,
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
        read_models: NamedDependency[ReadModels],
        version: ReadModelVersion = None,
    ) -> BoardOut:
        """The board (Mice and Mystics: rooms, spaces, figures, hourglass, cheese wheel; Vast: the cave's
        tiles, pieces and tokens) as the reader may see it: as last projected, or, with the ``version``
        query parameter, after the game's first ``version`` events, rebuilt by replay (a replay: the
        ``expensive`` quota counts it, as ``GET /state?version=N``). 404 for a version the game has not
        reached."""
        doc = _document(games, read_models, request, "board", game_id, version)
        return BoardOut(game_id=game_id, version=doc["version"], board=doc["board"])

    @get(
        "/{game_id:uuid}/log",
        sync_to_thread=True,
        summary="Game log read model",
        security=READ_SECURITY,
        responses=_problems(400, 401, 404, 503),
    )
    def log(
        self,
        game_id: GameId,
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
        read_models: NamedDependency[ReadModels],
        after: Annotated[
            int, Parameter(ge=0, le=10**15, description="only lines of events after this version")
        ] = 0,
        limit: Annotated[int, Parameter(ge=1, le=1000, description="at most this many lines")] = 200,
    ) -> LogOut:
        """Readable log lines, one per meaningful event, oldest first (as the reader may see them);
        a line whose event a later undo undid is marked ``undone``."""
        game, lens = _reader(games, game_id, request)
        found: tuple[int, list[dict[str, Any]]] | None
        if has_secrets(game.ruleset):
            found = game.version, _log_lines(games, game, lens, after, limit)
        else:
            found = read_models.log_lines(game_id, after=after, limit=limit)
        if found is None:
            raise NotFoundException(f"no log for game {game_id} (yet)")
        version, lines = found
        undone: set[int] = set()
        if lines:
            index, head = games.index(game_id, game.ruleset)
            undone = index.undone(lines[0]["version"], lines[-1]["version"], head)
        return LogOut(
            game_id=game_id,
            version=version,
            lines=[LogLine(**line, undone=line["version"] in undone) for line in lines],
        )


def game_controller(types: ApiTypes) -> type[Controller]:
    """The ``/games`` controller for an app serving ``types.names`` (the stream is its own controller on
    the same path: ``dicelog.service.http.routes_stream.GameStream``)."""

    class GameController(GameReads, Controller):
        """Games: create, list, read, command, audit, replay, verify."""

        path = "/games"
        tags = ["games"]

        @post(
            "/",
            summary="Create a game",
            responses=_problems(400, 413, 415, 422, 429, 503),
        )
        @on_write_lane
        def create_game(
            self,
            data: JSONBody[types.NewGame],  # type: ignore[name-defined]  # the app's body type (ApiTypes)
            games: NamedDependency[Games],
        ) -> Response[GameCreatedBody]:
            """Create a game of any served ruleset (``ruleset`` tags the body); returns it, one bearer
            token per seat, a spectator token and an auditor token (only their hashes are kept).

            ``visibility``: ``public`` (listed, readable by anyone), ``unlisted`` (the default:
            readable by whoever has its id, not listed) or ``private`` (a token is needed). In
            ``server`` dice mode the game commits to ``sha256(seed)`` now and reveals the seed in the
            event that ends it. A seat with ``bot: true`` is played by the server with the ruleset's
            bot: the answer shows the game after the bots' first moves, up to a person's move (or the
            end). 422 when the ruleset rejects the setup or the seats (a bot seat controlling no piece:
            ``seat.bot-controls-nothing``; a ruleset without a bot: ``seat.no-bot-policy``); 413 when the
            content pack is over its cap.
            """
            body = create_game(types, data, games)
            return created(body, f"/games/{body.game.id}")

        @post(
            "/{game_id:uuid}/commands",
            summary="Send a command",
            security=BEARER,
            status_code=201,
            responses=_problems(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
        )
        @on_write_lane
        def send_command(
            self,
            game_id: GameId,
            data: JSONBody[types.CommandRequest],  # type: ignore[name-defined]  # the app's (ApiTypes)
            request: Request[Any, Any, Any],
            games: NamedDependency[Games],
            idempotency_key: Annotated[
                str | None,
                HeaderParameter(
                    name="Idempotency-Key",
                    min_length=1,
                    max_length=200,
                    required=False,
                    description="a key of the client's choosing: a retry with the same key by the same seat "
                    "returns the first answer and writes nothing",
                ),
            ] = None,
            acting: ActingSeat = None,
        ) -> Response[CommandResult]:
            """Run one command as the bearer token's seat.

            201 with the events it caused (as the seat may see them); 401 without a valid token;
            403 when the command is about a piece another seat controls, or the token is a
            spectator's or auditor's; 409 only when ``expected_version`` is stale; 422 (problem+json,
            ``type`` naming the rule) when a rule refuses it (not this seat's turn, a pending roll or
            decision to answer first, the game over: each was a 409 before) or when it is not a
            command of the game's ruleset (``command.wrong-ruleset``).
            A retry with the same ``Idempotency-Key`` by the same seat returns the first answer and
            writes nothing, even while the first is still in flight.

            The answer holds this command's events only. When bot seats (``seats[].bot``) have the
            move after it, their commands are stored right after, before this answer is sent: read
            them with ``/events``, ``/state`` or the stream.
            """
            return send_command(types, game_id, data, request, games, idempotency_key, acting)

    return GameController


def _token_games(games: Games, token: str) -> set[UUID]:
    """The games a token belongs to: its game, or its campaign's chapter games."""
    owner = games.token_owners(token)
    if owner is None:
        return set()
    try:
        games.game(owner.owner_id)
        return {owner.owner_id}
    except GameNotFound:
        pass
    try:
        campaign = campaigns.load(games, owner.owner_id)
    except campaigns.CampaignNotFound:
        return set()
    return {UUID(e.game_id) for e in campaign.entries}


def _setup_document(data: Any) -> Any:
    """The ruleset's setup document, with the content pack (if any) inside it."""
    pack = getattr(data, "content_pack", None)  # only the rulesets that check content packs have it
    if pack is None:
        return data.setup
    return {**msgspec.to_builtins(data.setup), "content_pack": pack}


def _game(games: Games, game_id: UUID, version: int | None = None) -> Any:
    try:
        return games.game(game_id, version)
    except GameNotFound:
        raise NotFoundException(f"no game {game_id}") from None


def _undo_answers(game: Any, seat: str) -> list[dict[str, str]]:
    """What ``seat`` may answer an open undo request with (``dicelog.domain.core.undo``): approve
    when its approval is still needed, reject when it is not the seat that asked."""
    answers: list[dict[str, str]] = []
    if seat in game.undo_needs and seat not in game.undo_approved:
        answers.append({"type": "ApproveUndo"})
    if seat != game.undo_request.by and seat in {s.name for s in game.created.seats}:
        answers.append({"type": "RejectUndo"})
    return answers


def _pending_seat(game: Any, pending: Any) -> str | None:
    """The seat that must answer ``pending``, the pending node *as the reader sees it* (through the
    Lens: a node the reader may not see names no seat): the seat controlling the piece it names."""
    if isinstance(pending, (RollRequested, DrawRequested, DecisionRequested)) and pending.piece:
        return next((s.name for s in game.created.seats if pending.piece in s.controls), None)
    return None


def _document(
    games: Games,
    read_models: ReadModels,
    request: Request[Any, Any, Any],
    kind: str,
    game_id: UUID,
    version: int | None = None,
) -> dict[str, Any]:
    """A read model document (``kind``: ``board`` or ``initiative``). At ``version``: the ruleset's view of
    the game at that version through the reader's lens (the latest game's, as ``GET /state?version=N``; 404
    beyond the latest version). Else the projection's (what anyone may see) for an all-public ruleset, built
    from the game through the reader's lens for a ruleset with secrets."""
    latest, lens = _reader(games, game_id, request)
    game = latest
    if version is not None and version != latest.version:
        if version > latest.version:
            raise NotFoundException(f"game {game_id} has no version {version} (latest is {latest.version})")
        game = _game(games, game_id, version)
    if version is not None or has_secrets(game.ruleset):
        view = game.ruleset.board_view if kind == "board" else game.ruleset.initiative_view
        return {
            "game_id": str(game_id),
            "version": game.version,
            kind: tagged(game.created.ruleset, builtins(view(lens.state(game.state)))),
        }
    doc = read_models.document(kind, game_id)
    if doc is None:
        raise NotFoundException(f"no {kind} for game {game_id} (yet)")
    return {**doc, kind: tagged(game.created.ruleset, doc[kind])}


def _log_lines(games: Games, game: Game, lens: Lens, after: int, limit: int) -> list[dict[str, Any]]:
    """The log of a game with secrets up to ``game``'s version, described through the reader's lens (from
    the events)."""
    from dicelog.domain.core.game import apply

    lines: list[dict[str, Any]] = []
    state: Any = None
    for record in games.records(game.id, upto=game.version):
        state = apply(state, record)
        if record.originator_version <= after:
            continue
        shown = lens.event(record.payload, seat=record.seat)
        name = type(record.payload).__name__
        line = f"({name}, hidden)" if shown is None else describe(state, shown, lens)
        if line:
            lines.append(
                {"version": record.originator_version, "seat": record.seat, "type": name, "line": line}
            )
        if len(lines) >= limit:
            break
    return lines


__all__ = ["PermissionDeniedException", "game_controller"]
