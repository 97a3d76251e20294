"""The service's own stored records, kept beside the games in the same event store.

Both are one-event "tiny aggregates" whose id is derived from the game id, so they are saved in
the same atomic ``Application.save`` as the game events they belong to (docs/architecture.md, A command's
way through the system), and a second write of the same id collides (optimistic concurrency).

- ``GameSecret``: the server-side secret of a game: its dice seed (until the game ends and
  ``GameEnded`` reveals it) and the SHA-256 hashes of its seat tokens. Never served, never
  published, never in a projection.
- ``IdempotencyRecord``: the first answer to a command sent with an ``Idempotency-Key`` by one
  seat; a retry with the same key by the same seat returns it and writes nothing.
- ``TokenIndex``: token hash -> the game or campaign it opens, and as whom.
- ``SeatClaim``: a place of a fork taken by its holder in the original game.
- ``TokenHolder``: who holds a place (audience) of a game now: the hash of its current token, after each
  rotation or revocation (an aggregate of its own, one event per change, so that two changes of the same
  place at once collide).
- ``TokenRevoked``: a token (by its hash) that no longer opens anything. Every check of a token reads it
  from the store, so a revocation holds at once on every replica.
"""

from __future__ import annotations

from datetime import datetime
from uuid import NAMESPACE_URL, UUID, uuid5

import msgspec
from msgspec import Struct

_NAMESPACE = uuid5(NAMESPACE_URL, "https://dicelog.invalid/records")


def secret_id(game_id: UUID) -> UUID:
    """The id of a game's ``GameSecret``."""
    return uuid5(_NAMESPACE, f"secret:{game_id}")


def idempotency_id(game_id: UUID, seat: str, key: str) -> UUID:
    """The id of the ``IdempotencyRecord`` of ``key`` sent by ``seat`` on ``game_id`` (keys are
    scoped to the game and the seat: another seat's key never answers for this one)."""
    return uuid5(_NAMESPACE, f"idempotency:{game_id}:{seat}:{key}")


def token_id(token_hash: str) -> UUID:
    """The id of the ``TokenIndex`` of a token (by the token's SHA-256, never the token)."""
    return uuid5(_NAMESPACE, f"token:{token_hash}")


def revocation_id(token_hash: str) -> UUID:
    """The id of the ``TokenRevoked`` of a token (by the token's SHA-256, never the token)."""
    return uuid5(_NAMESPACE, f"revoked:{token_hash}")


def holder_id(owner_id: UUID, audience: str) -> UUID:
    """The id of the ``TokenHolder`` aggregate of ``audience`` (``seat:<name>``, ``spectator``, ``auditor``,
    ``table``) of a game."""
    return uuid5(_NAMESPACE, f"holder:{owner_id}:{audience}")


def claim_id(game_id: UUID, audience: str) -> UUID:
    """The id of the ``SeatClaim`` of ``audience`` (``seat:<name>``, ``spectator``, ``auditor``) of a fork."""
    return uuid5(_NAMESPACE, f"claim:{game_id}:{audience}")


class GameSecret(Struct, frozen=True, kw_only=True):
    """Seed (hex, ``None`` in manual dice mode), seat token hashes (seat -> sha256 hex), the
    spectator and auditor token hashes (``audience_hashes``: ``spectator``/``auditor`` -> sha256
    hex) and, for a ruleset with secrets, the key salting its events' chain hashes (hex)."""

    originator_id: UUID
    """The record's id, derived from what it is about (``secret_id(game_id)``), so that a second write of
    it collides."""
    originator_version: int = 1
    """Always 1: the record is a one-event aggregate, written once."""
    timestamp: datetime
    """When the record was written (UTC)."""
    game_id: UUID
    """The id of the game (or campaign) the secret belongs to."""
    seed: str | None
    """The dice seed, hex; ``null`` in manual dice mode and for a campaign. Revealed by ``GameEnded`` when
    the game ends."""
    token_hashes: dict[str, str]
    """SHA-256 (hex) of each seat's bearer token, by seat name (no ``seat:`` prefix)."""
    audience_hashes: dict[str, str] = {}
    """SHA-256 (hex) of the ``spectator`` and ``auditor`` tokens, by audience; empty for a record without
    them (a campaign or a chapter game, whose seats use the campaign's tokens)."""
    nonce_key: str | None = None
    """The key (hex) salting the chain hash of each event of a game whose ruleset has secrets: in chain
    format 2 the view key (committed in ``GameCreated.view_key_commitment``, revealed by
    ``GameEnded.view_key``), in format 1 the key of each event's ``nonce``; ``null`` otherwise."""


class TokenIndex(Struct, frozen=True, kw_only=True):
    """Which game (or campaign) a token belongs to, and as whom (``audience``: ``seat:<name>``,
    ``spectator`` or ``auditor``): ``GET /games`` lists a token's games, and a fork's claimed
    tokens authenticate through it. Keyed by the token's SHA-256, never the token."""

    originator_id: UUID
    """The record's id, derived from what it is about (``token_id(sha256 of the token)``), so that a second
    write of it collides."""
    originator_version: int = 1
    """Always 1: the record is a one-event aggregate, written once."""
    timestamp: datetime
    """When the record was written (UTC)."""
    owner_id: UUID
    """The id of the game or campaign the token opens."""
    audience: str
    """Whom the token speaks for there: ``seat:<name>``, ``spectator`` or ``auditor``."""


class SeatClaim(Struct, frozen=True, kw_only=True):
    """A place of a fork taken by the holder of the same place in the original game (once)."""

    originator_id: UUID
    """The record's id, derived from what it is about (``claim_id(game_id, audience)``), so that a second
    write of it collides."""
    originator_version: int = 1
    """Always 1: the record is a one-event aggregate, written once."""
    timestamp: datetime
    """When the record was written (UTC)."""
    game_id: UUID
    """The id of the fork whose place is taken."""
    audience: str
    """The place taken: ``seat:<name>``, ``spectator`` or ``auditor``."""


class TokenHolder(Struct, frozen=True, kw_only=True):
    """The token a place of a game opens with now, written at each rotation or revocation (and when a fork's
    place is claimed). Before the first one, the place opens with the token handed out at creation
    (``GameSecret``)."""

    originator_id: UUID
    """The aggregate's id, derived from what it is about (``holder_id(owner_id, audience)``)."""
    originator_version: int
    """1 for the first change of the place's token, then one more per change: two changes at once collide."""
    timestamp: datetime
    """When the change was stored (UTC)."""
    owner_id: UUID
    """The id of the game whose place it is."""
    audience: str
    """The place: ``seat:<name>``, ``spectator``, ``auditor`` or ``table``."""
    token_hash: str | None
    """SHA-256 (hex) of the place's current token; ``null`` after a revocation (no token opens the place
    until the host rotates it)."""
    by: str
    """The audience whose token made the change (the place itself, or the host's seat)."""


class TokenRevoked(Struct, frozen=True, kw_only=True):
    """A token that opens nothing any more (revoked, or replaced by a rotation). Keyed by the token's
    SHA-256, never the token."""

    originator_id: UUID
    """The record's id, derived from what it is about (``revocation_id(sha256 of the token)``), so that a
    second write of it collides."""
    originator_version: int = 1
    """Always 1: the record is a one-event aggregate, written once."""
    timestamp: datetime
    """When the token was revoked (UTC)."""
    owner_id: UUID
    """The id of the game the token opened."""
    audience: str
    """The place it opened: ``seat:<name>``, ``spectator``, ``auditor`` or ``table``."""
    by: str
    """The audience whose token revoked it."""


class IdempotencyRecord(Struct, frozen=True, kw_only=True):
    """The stored first answer to a keyed command: HTTP status and JSON body."""

    originator_id: UUID
    """The record's id, derived from what it is about (``idempotency_id(game_id, seat, key)``), so that a
    second write of it collides."""
    originator_version: int = 1
    """Always 1: the record is a one-event aggregate, written once."""
    timestamp: datetime
    """When the command's events were recorded (UTC)."""
    game_id: UUID
    """The id of the game the command was sent to."""
    key: str
    """The ``Idempotency-Key`` header's value, as the seat sent it."""
    request_hash: str
    """SHA-256 (hex) of the request body as encoded by the service: a retry with the same key but another
    body is refused."""
    status: int
    """The HTTP status of the first answer (201)."""
    body: msgspec.Raw
    """The JSON body of the first answer, returned as is to a retry."""
