"""Export a game's log as JSON Lines, and verify such a file offline (no server, no database).

Format ``dicelog-export/1``: the first line is a header (format, game id, number of events);
every other line is one stored event exactly as stored: ``originator_id``, ``originator_version``,
``topic`` and ``state`` (the canonical envelope JSON, embedded verbatim, so the hash chain can
be recomputed from the file alone). ``verify_file`` runs the same checks as
``POST /games/{id}/verify``: hash chain, re-derivation of every event from its command, and the
dice from the revealed seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any
from uuid import UUID

import msgspec

from dicelog.domain.core.verify import Divergence, Verification, verify
from dicelog.service.persistence import decode_recorded

FORMAT = "dicelog-export/1"
VIEW_FORMAT = "dicelog-view/1"


class Header(msgspec.Struct, frozen=True, kw_only=True):
    format: str
    game_id: UUID
    events: int


class Line(msgspec.Struct, frozen=True, kw_only=True):
    originator_id: UUID
    originator_version: int
    topic: str
    state: msgspec.Raw


_encode = msgspec.json.Encoder().encode


def export_lines(game_id: UUID, stored: Iterable[object]) -> Iterator[bytes]:
    """The JSONL lines (without newlines) of a game's stored events (``StoredEvent`` objects)."""
    events = list(stored)
    yield _encode(Header(format=FORMAT, game_id=game_id, events=len(events)))
    for s in events:
        yield _encode(
            Line(
                originator_id=game_id,
                originator_version=s.originator_version,  # type: ignore[attr-defined]
                topic=s.topic,
                state=msgspec.Raw(bytes(s.state)),
            )
        )  # type: ignore[attr-defined]


def export_view_lines(game: Any, records: Sequence[Any], lens: Any) -> Iterator[bytes]:
    """A reader's view of a game as JSON Lines (format ``dicelog-view/1``): a header, then each
    event as ``GET /games/{id}/events`` shows it through ``lens`` (stubs for hidden events). Not
    verifiable offline unless the lens is full (use the full export for that)."""
    from dicelog.service.audit import audit_events

    yield _encode({"format": VIEW_FORMAT, "game_id": str(game.id), "events": len(records), "full": lens.full})
    for event in audit_events(game.ruleset, records, lens):
        yield _encode(event)


def verify_file(handle: IO[bytes]) -> Verification:
    """Verify an exported log. A malformed or edited line is reported as the first divergence."""
    lines = [line for line in handle.read().splitlines() if line.strip()]
    if not lines:
        return _broken(0, "an export header", "empty file")
    try:
        header = msgspec.json.decode(lines[0], type=Header)
    except msgspec.MsgspecError as e:
        return _broken(0, "an export header", str(e))
    if header.format != FORMAT:
        return _broken(0, FORMAT, header.format)
    records, stored = [], []
    for n, raw in enumerate(lines[1:], start=1):
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
    return verify(records, stored)


def _broken(version: int, expected: str, found: str) -> Verification:
    return Verification(
        ok=False,
        events=0,
        divergence=Divergence(version=version, check="structure", expected=expected, found=found),
    )
