"""Export a game's log as JSON Lines, and verify such a file offline (no server, no database).

Full export, format ``dicelog-export/1`` (a game of chain format 1: every Mice and Mystics game, the games
with secrets stored before format 2) or ``dicelog-export/2`` (chain format 2, same lines): the first line
is a header (format, game id, number of events); every other line is one stored event exactly as stored:
``originator_id``, ``originator_version``, ``topic`` and ``state`` (the canonical envelope JSON, embedded
verbatim, so the hash chain can be recomputed from the file alone). ``verify_file`` runs the same checks as
``POST /games/{id}/verify``: hash chain, re-derivation of every event from its command, the view key and
the dice from what ``GameEnded`` revealed.

A reader's own view of a running game with secrets, format ``dicelog-view/2`` (chain format 2): a header
(format, game id, number of events, audience), then one ``Viewed`` per event: its public metadata, its
payload's salted digest and chain hash, and the payload as the reader sees it (with its salt when shown
whole). ``verify_file`` checks the chain across every event and each payload shown whole against its
digest, and names the versions checked by digest only; with ``against`` (the full export taken after the
end) it checks every digest the reader held against the final payloads (``verify_against``). The view of
a game of chain format 1 with secrets (``dicelog-view/1``: stubs with the chain hash) cannot be checked
offline.

A campaign's own log, format ``dicelog-campaign-export/1`` (``GET /campaigns/{id}/export``): a header
(format, campaign id, number of events), then one stored event per line as in a full export.
``verify_file`` checks it as ``POST /campaigns/{id}/verify`` does, but for the chapter games' results
(docs/campaigns.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import StoredEvent

from dicelog.domain.core.campaign_verify import verify_campaign
from dicelog.domain.core.game import Recorded, envelope_bytes
from dicelog.domain.core.verify import Divergence, Verification, Viewed, verify, verify_against, verify_view
from dicelog.domain.core.visibility import Lens
from dicelog.service.app.audit import audit_events
from dicelog.service.bodies.exports import (
    CAMPAIGN_FORMAT,
    FORMAT,
    FORMAT_2,
    VIEW_FORMAT,
    VIEW_FORMAT_2,
    CampaignExport,
    ExportedEvent,
    FullExport,
    FullExport2,
    GameExport,
    StubViewExport,
    ViewedEvent,
    ViewExport2,
)
from dicelog.service.bodies.render import viewed
from dicelog.service.store.persistence import decode_recorded
from dicelog.service.store.topics import topic_of

FULL_FORMATS = (FORMAT, FORMAT_2)


class Header(msgspec.Struct, frozen=True, kw_only=True):
    format: str
    game_id: UUID
    events: int


class ViewHeader(msgspec.Struct, frozen=True, kw_only=True):
    """First line of a ``dicelog-view/2`` export."""

    format: str
    game_id: UUID
    events: int
    audience: str
    """Whose view it is: ``seat:<name>`` or ``spectator``."""


class CampaignHeader(msgspec.Struct, frozen=True, kw_only=True):
    """First line of a ``dicelog-campaign-export/1`` export."""

    format: str
    campaign_id: UUID
    events: int


class Line(msgspec.Struct, frozen=True, kw_only=True):
    originator_id: UUID
    originator_version: int
    topic: str
    state: msgspec.Raw


_encode = msgspec.json.Encoder().encode


def export_lines(game_id: UUID, stored: Iterable[StoredEvent], *, chain_format: int = 1) -> Iterator[bytes]:
    """The JSONL lines (without newlines) of a game's stored events (``StoredEvent`` objects), as a full
    export of a game of ``chain_format``."""
    events = list(stored)
    fmt = FORMAT_2 if chain_format >= 2 else FORMAT
    yield _encode(Header(format=fmt, game_id=game_id, events=len(events)))
    for s in events:
        yield _encode(
            Line(
                originator_id=game_id,
                originator_version=s.originator_version,
                topic=s.topic,
                state=msgspec.Raw(bytes(s.state)),
            )
        )


def reader_export(game: Any, records: Sequence[Recorded], lens: Lens) -> GameExport:
    """A reader's export of a game (``GET /games/{id}/export``, ``dicelog export --token``), as one
    document (the typed JSON form; ``export_document_lines`` gives the file): the full export when the reader
    sees everything (the auditor, a game without secrets, any reader once the game has ended); a
    ``dicelog-view/2`` view (chain format 2) otherwise, or, for a game of chain format 1 with secrets, a
    ``dicelog-view/1`` view. Every event goes through ``lens``."""
    chain_format = game.created.chain_format
    if lens.full:
        full = FullExport2 if chain_format >= 2 else FullExport
        return full(game_id=game.id, events=[_stored(game.id, r) for r in records])
    if chain_format >= 2:
        return ViewExport2(
            game_id=game.id,
            audience=lens.viewer.audience,
            events=[ViewedEvent(**msgspec.structs.asdict(viewed(r, lens))) for r in records],
        )
    return StubViewExport(game_id=game.id, full=lens.full, events=audit_events(game.ruleset, records, lens))


def reader_export_lines(game: Any, records: Sequence[Recorded], lens: Lens) -> Iterator[bytes]:
    """The JSONL lines (without newlines) of a reader's export of a game (``reader_export``)."""
    return export_document_lines(reader_export(game, records, lens))


def campaign_export(campaign_id: UUID, records: Sequence[Recorded]) -> CampaignExport:
    """A campaign's own log (``GET /campaigns/{id}/export``) as one document: each event as stored."""
    return CampaignExport(campaign_id=campaign_id, events=[_stored(campaign_id, r) for r in records])


def campaign_export_lines(campaign_id: UUID, records: Sequence[Recorded]) -> Iterator[bytes]:
    """The JSONL lines (without newlines) of a campaign's own log (``GET /campaigns/{id}/export``): the
    header, then each event as stored (its canonical envelope)."""
    return export_document_lines(campaign_export(campaign_id, records))


def export_document_lines(document: GameExport | CampaignExport) -> Iterator[bytes]:
    """The file form of an export document: its header line (the document without ``events``, plus their
    number), then one line per event, in the same order."""
    count = len(document.events)
    header: Any
    match document:
        case CampaignExport():
            header = CampaignHeader(format=CAMPAIGN_FORMAT, campaign_id=document.campaign_id, events=count)
        case ViewExport2():
            header = ViewHeader(
                format=VIEW_FORMAT_2, game_id=document.game_id, events=count, audience=document.audience
            )
        case StubViewExport():
            header = {"format": VIEW_FORMAT, "game_id": str(document.game_id), "events": count, "full": False}
        case _:
            header = Header(format=document_format(document), game_id=document.game_id, events=count)
    yield _encode(header)
    for event in document.events:
        yield _encode(event)


def document_format(document: GameExport | CampaignExport) -> str:
    """The ``format`` of an export document (its tag)."""
    return str(type(document).__struct_config__.tag)


def _stored(originator_id: UUID, record: Recorded) -> ExportedEvent:
    return ExportedEvent(
        originator_id=originator_id,
        originator_version=record.originator_version,
        topic=topic_of(type(record.payload)),
        state=msgspec.Raw(envelope_bytes(record)),
    )


def verify_file(handle: IO[bytes], against: IO[bytes] | None = None) -> Verification:
    """Verify an exported log: a full export (``dicelog-export/1`` or ``/2``) in full, or a reader's
    ``dicelog-view/2`` view (``verify_view``: the chain, the payloads it shows whole; the others by digest
    only); with ``against``, the full export of the ended game, such a view is checked against it
    (``verify_against``). A malformed or edited line is reported as the first divergence."""
    lines = _nonblank(handle.read())
    if lines and _format_of(lines[0]) == CAMPAIGN_FORMAT:
        if against is not None:
            return _broken(0, f"a {VIEW_FORMAT_2} export to check against a full one", CAMPAIGN_FORMAT)
        return _verify_campaign_lines(lines)
    header = _header(lines)
    if isinstance(header, Verification):
        return header
    if header.format == VIEW_FORMAT_2:
        view = _view_lines(header, lines[1:])
        if isinstance(view, Verification):
            return view
        if against is None:
            return verify_view(header.game_id, view)
        final = _nonblank(against.read())
        final_header = _header(final)
        if isinstance(final_header, Verification):
            return final_header
        if final_header.format not in FULL_FORMATS:
            return _broken(0, " or ".join(FULL_FORMATS), final_header.format)
        full = _full_lines(final_header, final[1:])
        return full if isinstance(full, Verification) else verify_against(header.game_id, view, *full)
    if against is not None:
        return _broken(0, f"a {VIEW_FORMAT_2} export to check against a full one", header.format)
    if header.format == VIEW_FORMAT:
        return _broken(
            0,
            f"{FORMAT}, {FORMAT_2} or {VIEW_FORMAT_2} ({VIEW_FORMAT} cannot be checked offline)",
            header.format,
        )
    if header.format not in FULL_FORMATS:
        return _broken(0, " or ".join((*FULL_FORMATS, VIEW_FORMAT_2)), header.format)
    full = _full_lines(header, lines[1:])
    return full if isinstance(full, Verification) else verify(*full)


def _format_of(line: bytes) -> object:
    """The ``format`` a header line names (``None`` when it names none)."""
    try:
        return msgspec.json.decode(line, type=dict[str, Any]).get("format")
    except msgspec.MsgspecError:
        return None


def _verify_campaign_lines(lines: Sequence[bytes]) -> Verification:
    """Verify a campaign export's non-blank lines (``verify_campaign``)."""
    try:
        header = msgspec.json.decode(lines[0], type=CampaignHeader)
    except msgspec.MsgspecError as e:
        return _broken(0, "a campaign export header", str(e))
    as_game = Header(format=header.format, game_id=header.campaign_id, events=header.events)
    full = _full_lines(as_game, lines[1:])
    return full if isinstance(full, Verification) else verify_campaign(*full)


def _nonblank(data: bytes) -> list[bytes]:
    return [line for line in data.splitlines() if line.strip()]


def _header(lines: Sequence[bytes]) -> Header | Verification:
    """The header (first line) of an export's non-blank lines, or what is wrong with it."""
    if not lines:
        return _broken(0, "an export header", "empty file")
    try:
        return msgspec.json.decode(lines[0], type=Header)
    except msgspec.MsgspecError as e:
        return _broken(0, "an export header", str(e))


def _view_lines(header: Header, lines: Sequence[bytes]) -> list[Viewed] | Verification:
    view: list[Viewed] = []
    for n, raw in enumerate(lines, start=1):
        try:
            view.append(msgspec.json.decode(raw, type=Viewed))
        except msgspec.MsgspecError as e:
            return _broken(n, "a well-formed view line", f"line {n + 1}: {e}")
    if len(view) != header.events:
        return _broken(len(view), f"{header.events} events", f"{len(view)} events")
    return view


def _full_lines(header: Header, lines: Sequence[bytes]) -> tuple[list[Recorded], list[bytes]] | Verification:
    """The records and stored bytes of a full export's event lines (after ``header``), or what is wrong with
    them."""
    records, stored = [], []
    for n, raw in enumerate(lines, start=1):
        try:
            line = msgspec.json.decode(raw, type=Line)
            if line.originator_id != header.game_id:
                return _broken(n, str(header.game_id), str(line.originator_id))
            records.append(
                decode_recorded(line.originator_id, line.originator_version, line.topic, bytes(line.state))
            )
            stored.append(bytes(line.state))
        except (msgspec.MsgspecError, ValueError, ImportError, AttributeError) as e:
            return _broken(n, "a well-formed event line", f"line {n + 1}: {e}")
    if len(records) != header.events:
        return _broken(len(records), f"{header.events} events", f"{len(records)} events")
    return records, stored


def _broken(version: int, expected: str, found: str) -> Verification:
    return Verification(
        ok=False,
        events=0,
        divergence=Divergence(version=version, check="structure", expected=expected, found=found),
    )
