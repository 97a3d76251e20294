"""The ``data`` of the cross-game stream's messages (``GET /stream``)."""

from __future__ import annotations

from uuid import UUID

from msgspec import Struct

from dicelog.service.bodies.schemas import EventOut


class StreamEvent(Struct, frozen=True, kw_only=True):
    """One event of one of the reader's games, as ``GET /games/{id}/events`` shows it to that game's
    reader (``event``), with the game it belongs to."""

    game_id: UUID
    """The game (UUID) the event belongs to."""
    ruleset: str
    """The game's ruleset (``mice-and-mystics``, ``vast``, ...)."""
    event: EventOut
    """The event as ``GET /games/{game_id}/events`` shows it to the token's place in that game (``round``
    and ``undone`` included): through the same who-sees-what lens."""
