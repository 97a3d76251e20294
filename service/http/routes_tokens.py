"""``POST /games/{id}/tokens/rotate`` and ``POST /games/{id}/tokens/revoke``: a game's bearer tokens
(``dicelog.service.app.tokens``; docs/api-contract.md, Tokens)."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, Response, post
from litestar.di import NamedDependency
from litestar.exceptions import ValidationException
from litestar.params import JSONBody

from dicelog.service.app import tokens
from dicelog.service.app.games import Games
from dicelog.service.bodies.tokens import IssuedToken, RevokedToken, TokenPlace
from dicelog.service.http.routes import BEARER, GameId, _problems, bearer, created
from dicelog.service.store.write_lane import on_write_lane


def _place_error(exc: tokens.NoSuchPlace) -> ValidationException:
    return ValidationException(str(exc), extra=[{"message": str(exc), "key": "audience", "source": "body"}])


class TokenController(Controller):
    """Rotate or revoke a place's bearer token."""

    path = "/games"
    tags = ["tokens"]

    @post(
        "/{game_id:uuid}/tokens/rotate",
        summary="Rotate a token",
        security=BEARER,
        status_code=201,
        responses=_problems(400, 401, 403, 404, 413, 415, 422, 429, 503),
    )
    @on_write_lane
    def rotate(
        self,
        game_id: GameId,
        data: JSONBody[TokenPlace],
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
    ) -> Response[IssuedToken]:
        """A new token for a place of the game (``audience``; ``{}``: the presented token's own place); the
        place's previous token is revoked at once (401 with it from then on, on every replica). Only the host
        (the host seat's token, or the auditor's) rotates another place's token (403 otherwise). A chapter
        game's places hold their campaign's tokens: 403. 422 ``token-changed``: the same place's token was
        changed by another request at the same time; nothing was stored."""
        try:
            place, token = tokens.rotate(games, game_id, bearer(request), data.audience)
        except tokens.NoSuchPlace as e:
            raise _place_error(e) from None
        return created(IssuedToken(game_id=game_id, audience=place, token=token), f"/games/{game_id}")

    @post(
        "/{game_id:uuid}/tokens/revoke",
        summary="Revoke a token",
        security=BEARER,
        status_code=200,
        responses=_problems(400, 401, 403, 404, 413, 415, 422, 429, 503),
    )
    @on_write_lane
    def revoke(
        self,
        game_id: GameId,
        data: JSONBody[TokenPlace],
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
    ) -> RevokedToken:
        """Revoke a place's token (``audience``; ``{}``: the presented token's own): from the answer on, it is
        refused (401) on every replica, and the place has no token until the host rotates it. Only the host
        (the host seat's token, or the auditor's) revokes another place's token (403 otherwise). 422
        ``token-changed`` as for a rotation."""
        try:
            place = tokens.revoke(games, game_id, bearer(request), data.audience)
        except tokens.NoSuchPlace as e:
            raise _place_error(e) from None
        return RevokedToken(game_id=game_id, audience=place)
