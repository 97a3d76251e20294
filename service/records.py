"""The service's own stored records, kept beside the games in the same event store.

Both are one-event "tiny aggregates" whose id is derived from the game id, so they are saved in
the same atomic ``Application.save`` as the game events they belong to (DESIGN.md, A command's
way through the system), and a second write of the same id collides (optimistic concurrency).

- ``GameSecret``: the server-side secret of a game: its dice seed (until the game ends and
  ``GameEnded`` reveals it) and the SHA-256 hashes of its seat tokens. Never served, never
  published, never in a projection.
- ``IdempotencyRecord``: the first answer to a command sent with an ``Idempotency-Key``; a retry
  with the same key returns it and writes nothing.
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


def idempotency_id(game_id: UUID, key: str) -> UUID:
    """The id of the ``IdempotencyRecord`` of ``key`` on ``game_id``."""
    return uuid5(_NAMESPACE, f"idempotency:{game_id}:{key}")


class GameSecret(Struct, frozen=True, kw_only=True):
    """Seed (hex, ``None`` in manual dice mode) and seat token hashes (seat -> sha256 hex)."""

    originator_id: UUID
    originator_version: int = 1
    timestamp: datetime
    game_id: UUID
    seed: str | None
    token_hashes: dict[str, str]


class IdempotencyRecord(Struct, frozen=True, kw_only=True):
    """The stored first answer to a keyed command: HTTP status and JSON body."""

    originator_id: UUID
    originator_version: int = 1
    timestamp: datetime
    game_id: UUID
    key: str
    request_hash: str
    status: int
    body: msgspec.Raw


PUBLIC_TOPIC_PREFIXES = ("domain.",)
"""Stored topics that may be published or projected; the records above never are."""
