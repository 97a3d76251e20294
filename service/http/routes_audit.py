"""Replay and audit resources of a game: turns, rounds, the dice proof, forks.

(The events listing with its filters and ``verify`` are in ``dicelog.service.http.routes``.)
"""

from __future__ import annotations

from typing import Annotated, Any, Literal
from uuid import UUID

from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency
from litestar.exceptions import NotFoundException
from litestar.params import JSONBody, Parameter

from dicelog.service.app.audit import dice_proof, marked_out, turn_parts
from dicelog.service.app.games import Games
from dicelog.service.bodies.render import builtins, tagged
from dicelog.service.bodies.schemas import ClaimedToken, DiceProof, ForkRequest, GameCreatedBody, TurnView
from dicelog.service.http.routes import (
    BEARER,
    READ_SECURITY,
    GameId,
    _problems,
    _reader,
    bearer,
    created,
    created_body,
)
from dicelog.service.store.write_lane import on_write_lane


class AuditController(Controller):
    """Replay a turn or a round, prove the dice, fork a game."""

    path = "/games"
    tags = ["replay and audit"]

    @get(
        "/{game_id:uuid}/turns/{number:int}",
        sync_to_thread=True,
        summary="Replay one turn",
        security=READ_SECURITY,
        responses=_problems(400, 401, 404, 503),
    )
    def turn(
        self,
        game_id: GameId,
        number: Annotated[int, Parameter(ge=1, le=10**9, description="1-based number")],
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
    ) -> TurnView:
        """Turn ``number`` (1-based, in the order turns started): its events, commands, dice and
        decisions in order, the state before and after, and the log lines explaining each step
        (all as the reader may see them)."""
        return _span_view(games, game_id, request, "turn", number)

    @get(
        "/{game_id:uuid}/rounds/{number:int}",
        sync_to_thread=True,
        summary="Replay one round",
        security=READ_SECURITY,
        responses=_problems(400, 401, 404, 503),
    )
    def round(
        self,
        game_id: GameId,
        number: Annotated[int, Parameter(ge=1, le=10**9, description="1-based number")],
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
    ) -> TurnView:
        """Round ``number`` (1-based): like a turn, for every turn of the round."""
        return _span_view(games, game_id, request, "round", number)

    @get(
        "/{game_id:uuid}/dice",
        sync_to_thread=True,
        summary="The dice proof",
        security=READ_SECURITY,
        responses=_problems(400, 401, 404, 503),
    )
    def dice(
        self, game_id: GameId, request: Request[Any, Any, Any], games: NamedDependency[Games]
    ) -> DiceProof:
        """The commitment made at creation, the seed once the game ended, and every roll, shuffle
        and draw with its stream position (a draw the reader may not see is ``hidden``); after
        the end each server result is re-derived."""
        _, lens = _reader(games, game_id, request)
        return dice_proof(games.chance_records(game_id), lens)

    @post(
        "/{game_id:uuid}/forks",
        summary="Fork a game at a version",
        security=BEARER,
        responses=_problems(400, 401, 404, 413, 415, 422, 429, 503),
    )
    @on_write_lane
    def fork(
        self,
        game_id: GameId,
        data: JSONBody[ForkRequest],
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
    ) -> Response[GameCreatedBody]:
        """A new game from the first ``version`` events (any token of the original may fork); the
        original is untouched. A fork of a running game rolls from a fresh seed with a new
        commitment; a fork of an ended game keeps the revealed seed (an exact what-if). The
        answer holds a token for the forking place only, and a spectator token: every other
        place (seats, auditor) is taken by its holder in the original with ``POST
        /games/{fork_id}/claims``. Only the auditor may fork a running game with hidden information
        (422 ``fork.secrets-in-play``), and that fork is sealed until the original ends: only its
        auditor token reads it, and its places cannot be claimed (docs/api-contract.md)."""
        games.game(game_id)  # an id that is no game's (a campaign's) is a 404 before any token is looked at
        audience = games.audience(game_id, bearer(request))
        game, tokens = games.fork(game_id, data.version, audience=audience)
        return created(created_body(games, game, tokens), f"/games/{game.id}")

    @post(
        "/{game_id:uuid}/claims",
        summary="Take your place in a fork",
        security=BEARER,
        status_code=201,
        responses=_problems(400, 401, 404, 422, 429, 503),
    )
    @on_write_lane
    def claim(
        self, game_id: GameId, request: Request[Any, Any, Any], games: NamedDependency[Games]
    ) -> Response[ClaimedToken]:
        """With a token of the fork's original game, take the same place (seat, spectator or
        auditor) in the fork ``game_id``; returns the new token. Each place is taken once (422
        ``already-claimed``).
        While the fork is sealed (its original still runs with hidden information) only the
        auditor's place can be taken: 422 ``fork.sealed`` for every other token."""
        audience, token = games.claim(game_id, bearer(request))
        return created(ClaimedToken(game_id=game_id, audience=audience, token=token), f"/games/{game_id}")


def _span_view(
    games: Games, game_id: UUID, request: Request[Any, Any, Any], kind: Literal["turn", "round"], number: int
) -> TurnView:
    game, lens = _reader(games, game_id, request)
    found = games.span(game_id, game.ruleset, kind, number)
    if found is None:
        raise NotFoundException(f"game {game_id} has no {kind} {number}")
    first, last, marked = found
    before = games.game(game_id, first - 1)
    parts = turn_parts(before, [m.record for m in marked], lens)
    return TurnView(
        game_id=game_id,
        kind=kind,
        number=number,
        from_version=first,
        to_version=last,
        state_before=tagged(game.created.ruleset, builtins(lens.state(before.state))),
        state_after=tagged(game.created.ruleset, builtins(lens.state(parts["after"].state))),
        events=marked_out(marked, lens),
        commands=parts["commands"],
        dice=parts["dice"],
        decisions=parts["decisions"],
        log=parts["log"],
    )
