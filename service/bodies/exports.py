"""The typed JSON form of an export (``GET /games/{id}/export`` and ``GET /campaigns/{id}/export`` with
``Accept: application/json``).

The same export as the JSON Lines file (``dicelog.service.app.export``), as one JSON document: the file's
header line without its event count (``format``, the game or campaign id, and the view's ``audience`` or
``full``) and, in ``events``, its event lines in the same order, each exactly as the file has it. The
document is a union tagged by ``format``; the stored envelopes of a full export are embedded byte for
byte (``msgspec.Raw``), as in the file, so a chain hash can be recomputed from the document too.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal
from uuid import UUID

import msgspec
from msgspec import Meta, Struct

from dicelog.domain.core.verify import Viewed
from dicelog.service.bodies.openapi_slots import SLOT_KEY, EventSlot
from dicelog.service.bodies.schemas import EventOut

FORMAT = "dicelog-export/1"
FORMAT_2 = "dicelog-export/2"
VIEW_FORMAT = "dicelog-view/1"
VIEW_FORMAT_2 = "dicelog-view/2"
CAMPAIGN_FORMAT = "dicelog-campaign-export/1"

# A stored envelope, embedded verbatim; in the OpenAPI document, a ``StoredEnvelope``.
EnvelopeSlot = Annotated[msgspec.Raw, Meta(extra_json_schema={SLOT_KEY: "envelope"})]
# A payload as canonical JSON, embedded verbatim (``null`` when hidden); in the OpenAPI document, an event
# of the served rulesets or ``null``.
_EVENT_OR_NULL = {"anyOf": [{SLOT_KEY: "event"}, {"type": "null"}]}
RawEventSlot = Annotated[msgspec.Raw, Meta(extra_json_schema=_EVENT_OR_NULL)]


class StoredEnvelope(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """An event as the store keeps it (its canonical envelope, JSON in this field order, no spaces): the
    bytes a chain hash of chain format 1 covers (docs/verifiable-secrets.md). Described here; in an export
    it is embedded exactly as stored."""

    timestamp: datetime
    """When the event was recorded (UTC)."""
    seat: str
    """The seat whose command caused the event (``server``, ``policy`` for the service's own steps)."""
    command_id: str
    """The id of the command that caused the event."""
    prev_hash: str
    """The chain hash of the previous event (64 hex characters; 64 zeros for version 1)."""
    payload: EventSlot
    """The event itself (its ``type`` names the event type)."""
    nonce: str | None = None
    """32 hex characters salting the chain hash, in the games of a ruleset with secrets of chain format 1;
    absent otherwise."""
    salt: str | None = None
    """64 hex characters: the key of the payload's digest, in games of chain format 2; absent otherwise."""


class ExportedEvent(Struct, frozen=True, kw_only=True):
    """One stored event of a full export (a line of ``dicelog-export/1``, ``/2`` or
    ``dicelog-campaign-export/1``), exactly as stored."""

    originator_id: UUID
    """The game's (or campaign's) id."""
    originator_version: int
    """The event's version: its position in the log, counted from 1."""
    topic: str
    """The stored event's topic (its type's stored name)."""
    state: EnvelopeSlot
    """The stored envelope (``StoredEnvelope``), byte for byte as stored."""


class ViewedEvent(Viewed, frozen=True, kw_only=True):
    """One event of a ``dicelog-view/2`` export: its link (the fields the chain hash covers), its payload's
    salted digest and chain hash, and its payload as the reader may see it."""

    payload: RawEventSlot
    """The payload as the reader sees it, as canonical JSON (``null`` when ``shown`` is ``hidden``)."""


class FullExport(Struct, frozen=True, kw_only=True, tag_field="format", tag=FORMAT):
    """The full log of a game of chain format 1 as stored (format ``dicelog-export/1``): what the auditor
    exports, and any reader of a game without secrets or once the game has ended."""

    game_id: UUID
    """The game's id."""
    events: list[ExportedEvent]
    """Every stored event, in version order."""


class FullExport2(FullExport, frozen=True, kw_only=True, tag=FORMAT_2):
    """The full log of a game of chain format 2 as stored (format ``dicelog-export/2``), as
    ``dicelog-export/1``."""


class ViewExport2(Struct, frozen=True, kw_only=True, tag_field="format", tag=VIEW_FORMAT_2):
    """A reader's own view of a running game of chain format 2 with secrets (format ``dicelog-view/2``):
    every event's link and digest, each payload whole, masked or hidden as the reader may see it."""

    game_id: UUID
    """The game's id."""
    audience: str
    """Whose view it is: ``seat:<name>`` or ``spectator``."""
    events: list[ViewedEvent]
    """Every event, in version order."""


class StubViewExport(Struct, frozen=True, kw_only=True, tag_field="format", tag=VIEW_FORMAT):
    """A reader's view of a running game of chain format 1 with secrets (format ``dicelog-view/1``): each
    event as ``GET /games/{id}/events`` shows it (stubs for hidden events); not checkable offline."""

    game_id: UUID
    """The game's id."""
    full: bool
    """Whether the reader sees everything (always ``false`` in this format)."""
    events: list[EventOut]
    """Every event, in version order, as the reader sees it."""


GameExport = FullExport | FullExport2 | ViewExport2 | StubViewExport
"""A game's export as one JSON document, tagged by ``format``."""


class CampaignExport(Struct, frozen=True, kw_only=True, tag_field="format", tag=CAMPAIGN_FORMAT):
    """A campaign's own log as stored (format ``dicelog-campaign-export/1``)."""

    campaign_id: UUID
    """The campaign's id."""
    events: list[ExportedEvent]
    """Every stored event of the campaign's log, in version order."""


ExportMedia = Literal["application/jsonl", "application/json"]
