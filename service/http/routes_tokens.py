"""``POST /games/{id}/tokens/rotate`` and ``POST /games/{id}/tokens/revoke``: a game's bearer tokens; the
same for a campaign's (``POST /campaigns/{id}/tokens/rotate|revoke``), with the same rules
(``dicelog.service.app.tokens``; docs/api-contract.md, Tokens)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar import Controller, Request, Response, post
from litestar.di import NamedDependency
from litestar.exceptions import ValidationException
from litestar.params import JSONBody

from dicelog.service.app import tokens
from dicelog.service.app.games import Games
from dicelog.service.bodies.tokens import (
    CampaignIssuedToken,
    CampaignRevokedToken,
    IssuedToken,
    RevokedToken,
    TokenPlace,
)
from dicelog.service.http.routes import BEARER, GameId, _problems, bearer, created
from dicelog.service.http.routes_campaigns import CampaignId
from dicelog.service.store.write_lane import on_write_lane


def _place_error(exc: tokens.NoSuchPlace) -> ValidationException:
    return ValidationException(str(exc), extra=[{"message": str(exc), "key": "audience", "source": "body"}])


def _rotated(
    games: Games, owner_id: UUID, data: TokenPlace, request: Request[Any, Any, Any], kind: tokens.Kind
) -> tuple[str, str]:
    """(place, new token) of a rotation in a game or campaign (``kind``); a place it has not: 400."""
    try:
        return tokens.rotate(games, owner_id, bearer(request), data.audience, kind)
    except tokens.NoSuchPlace as e:
        raise _place_error(e) from None


def _revoked(
    games: Games, owner_id: UUID, data: TokenPlace, request: Request[Any, Any, Any], kind: tokens.Kind
) -> str:
    """The place whose token a revocation in a game or campaign (``kind``) withdrew; a place it has not:
    400."""
    try:
        return tokens.revoke(games, owner_id, bearer(request), data.audience, kind)
    except tokens.NoSuchPlace as e:
        raise _place_error(e) from None


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
        game's places hold their campaign's tokens (``POST /campaigns/{id}/tokens/rotate``): 403. 422
        ``token-changed``: the same place's token was changed by another request at the same time; nothing
        was stored."""
        place, token = _rotated(games, game_id, data, request, "game")
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
        place = _revoked(games, game_id, data, request, "game")
        return RevokedToken(game_id=game_id, audience=place)


class CampaignTokenController(Controller):
    """Rotate or revoke a place's bearer token of a campaign (which also opens its chapter games)."""

    path = "/campaigns"
    tags = ["tokens"]

    @post(
        "/{campaign_id:uuid}/tokens/rotate",
        summary="Rotate a campaign's token",
        security=BEARER,
        status_code=201,
        responses=_problems(400, 401, 403, 404, 413, 415, 422, 429, 503, resource="campaign"),
    )
    @on_write_lane
    def rotate(
        self,
        campaign_id: CampaignId,
        data: JSONBody[TokenPlace],
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
    ) -> Response[CampaignIssuedToken]:
        """A new token for a place of the campaign (``audience``; ``{}``: the presented token's own place),
        with the rules of ``POST /games/{id}/tokens/rotate``: the place's previous token is revoked at once,
        in the campaign and in every chapter game (401 with it from then on, on every replica), and the new
        one opens them all, chapters to come included. Only the host (the host seat's token, or the
        auditor's) rotates another place's token (403 otherwise). 422 ``token-changed``: the same place's
        token was changed by another request at the same time; nothing was stored."""
        place, token = _rotated(games, campaign_id, data, request, "campaign")
        body = CampaignIssuedToken(campaign_id=campaign_id, audience=place, token=token)
        return created(body, f"/campaigns/{campaign_id}")

    @post(
        "/{campaign_id:uuid}/tokens/revoke",
        summary="Revoke a campaign's token",
        security=BEARER,
        status_code=200,
        responses=_problems(400, 401, 403, 404, 413, 415, 422, 429, 503, resource="campaign"),
    )
    @on_write_lane
    def revoke(
        self,
        campaign_id: CampaignId,
        data: JSONBody[TokenPlace],
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
    ) -> CampaignRevokedToken:
        """Revoke a place's token of the campaign (``audience``; ``{}``: the presented token's own), with the
        rules of ``POST /games/{id}/tokens/revoke``: from the answer on it is refused (401) by the campaign
        and every chapter game, on every replica, and the place has no token until the host rotates it.
        Only the host (the host seat's token, or the auditor's) revokes another place's token (403
        otherwise). 422 ``token-changed`` as for a rotation."""
        place = _revoked(games, campaign_id, data, request, "campaign")
        return CampaignRevokedToken(campaign_id=campaign_id, audience=place)
