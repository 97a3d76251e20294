"""Request and response bodies of the token operations (``POST /games/{id}/tokens/rotate`` and
``/tokens/revoke``; ``dicelog.service.app.tokens``)."""

from __future__ import annotations

from uuid import UUID

from msgspec import Struct


class TokenPlace(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Which place's token to rotate or revoke."""

    audience: str | None = None
    """The place: ``seat:<name>``, ``spectator``, ``auditor`` or ``table``; left out (or ``null``): the
    presented token's own place. Only the host (the host seat's token, or the auditor's) names another."""


class IssuedToken(Struct, frozen=True, kw_only=True):
    """Answer to ``POST /games/{id}/tokens/rotate``: the place's new token (its previous one is revoked)."""

    game_id: UUID
    """The game (UUID) whose place it is."""
    audience: str
    """The place: ``seat:<name>``, ``spectator``, ``auditor`` or ``table``."""
    token: str
    """The place's new bearer token (shown once; only its SHA-256 is stored)."""


class RevokedToken(Struct, frozen=True, kw_only=True):
    """Answer to ``POST /games/{id}/tokens/revoke``: the place whose token opens nothing any more."""

    game_id: UUID
    """The game (UUID) whose place it is."""
    audience: str
    """The place: ``seat:<name>``, ``spectator``, ``auditor`` or ``table``; it has no token until the host
    rotates it."""


class CampaignIssuedToken(Struct, frozen=True, kw_only=True):
    """Answer to ``POST /campaigns/{id}/tokens/rotate``: the place's new token (its previous one is revoked,
    in the campaign and in every chapter game)."""

    campaign_id: UUID
    """The campaign (UUID) whose place it is."""
    audience: str
    """The place: ``seat:<name>``, ``spectator`` or ``auditor``."""
    token: str
    """The place's new bearer token, for the campaign and its chapter games (shown once; only its SHA-256 is
    stored)."""


class CampaignRevokedToken(Struct, frozen=True, kw_only=True):
    """Answer to ``POST /campaigns/{id}/tokens/revoke``: the place whose token opens nothing any more (neither
    the campaign nor any of its chapter games)."""

    campaign_id: UUID
    """The campaign (UUID) whose place it is."""
    audience: str
    """The place: ``seat:<name>``, ``spectator`` or ``auditor``; it has no token until the host rotates it."""
