"""Replay and audit resources of a game: turns, rounds, the dice proof, forks.

(The events listing with its filters and ``verify`` are in ``service.routes``.)
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, Request, get, post
from litestar.di import NamedDependency
from litestar.exceptions import NotFoundException
from litestar.params import JSONBody, Parameter

from service.application import Games
from service.audit import audit_events, dice_proof, span, turn_parts
from service.routes import BEARER, GameId, _game, _problems, _seat
from service.schemas import DiceProof, ForkRequest, GameCreatedBody, SeatToken, TurnView
from service.views import builtins, summary


class AuditController(Controller):
    """Replay a turn or a round, prove the dice, fork a game."""

    path = "/games"
    tags = ["replay and audit"]

    @get("/{game_id:uuid}/turns/{number:int}", sync_to_thread=True, summary="Replay one turn",
         responses=_problems(400, 404))
    def turn(self, game_id: GameId, number: Annotated[int, Parameter(ge=1, le=10**9)],
             games: NamedDependency[Games]) -> TurnView:
        """Turn ``number`` (1-based, in the order turns started): its events, commands, dice and
        decisions in order, the state before and after, and the log lines explaining each step."""
        return _span_view(games, game_id, "turn", number)

    @get("/{game_id:uuid}/rounds/{number:int}", sync_to_thread=True, summary="Replay one round",
         responses=_problems(400, 404))
    def round(self, game_id: GameId, number: Annotated[int, Parameter(ge=1, le=10**9)],
              games: NamedDependency[Games]) -> TurnView:
        """Round ``number`` (1-based): like a turn, for every turn of the round."""
        return _span_view(games, game_id, "round", number)

    @get("/{game_id:uuid}/dice", sync_to_thread=True, summary="The dice proof", responses=_problems(400, 404))
    def dice(self, game_id: GameId, games: NamedDependency[Games]) -> DiceProof:
        """The commitment made at creation, the seed once the game ended, and every roll, shuffle
        and draw with its stream position; after the end each server result is re-derived."""
        records = games.records(game_id)
        if not records:
            raise NotFoundException(f"no game {game_id}")
        return dice_proof(records)

    @post("/{game_id:uuid}/forks", sync_to_thread=True, summary="Fork a game at a version", security=BEARER,
          responses=_problems(400, 401, 404, 422))
    def fork(self, game_id: GameId, data: JSONBody[ForkRequest], request: Request[Any, Any, Any],
             games: NamedDependency[Games]) -> GameCreatedBody:
        """A new game from the first ``version`` events (any seat of the original may fork); the
        original is untouched. Returns the new game and fresh tokens for its seats."""
        _seat(games, game_id, request)
        original = _game(games, game_id)
        tokens = {s.name: secrets.token_urlsafe(32) for s in original.created.seats}
        game = games.fork(game_id, data.version, tokens=tokens)
        return GameCreatedBody(game=summary(game), tokens=[SeatToken(seat=s, token=t) for s, t in tokens.items()])


def _span_view(games: Games, game_id: UUID, kind: str, number: int) -> TurnView:
    records = games.records(game_id)
    if not records:
        raise NotFoundException(f"no game {game_id}")
    game = _game(games, game_id)
    found = span(game.ruleset, records, kind, number)
    if found is None:
        raise NotFoundException(f"game {game_id} has no {kind} {number}")
    first, last = found
    before = games.game(game_id, first - 1)
    stretch = records[first - 1 : last]
    parts = turn_parts(before, stretch)
    events = [e for e in audit_events(game.ruleset, records) if first <= e.version <= last]
    return TurnView(
        game_id=game_id, kind=kind, number=number, from_version=first, to_version=last,  # type: ignore[arg-type]
        state_before=builtins(before.state), state_after=builtins(parts["after"].state), events=events,
        commands=parts["commands"], dice=parts["dice"], decisions=parts["decisions"], log=parts["log"],
    )
