"""Backup and restore of a whole store: every game's and campaign's log with the records they need.

What the event store holds is all a store is: the games' events, the campaigns' events and the
service's records (``dicelog.service.store.records``: each game's secret, token index, fork claims, idempotent
answers) are rows of one table, in one notification order. A backup is every such row, exactly as
stored, in that order; projections and snapshots are derived and not backed up (the worker rebuilds
the projections from the log, ``restore`` takes the snapshots again).

Format ``dicelog-backup/1``, JSON Lines (UTF-8, one JSON object per ``\\n``-terminated line):

1. header: ``{"format": "dicelog-backup/1", "dicelog_version": "0.1.0", "schema_version": 1,
   "created_at": "<ISO 8601 UTC>", "source": "<where it was read: SQLite in … / PostgreSQL at …>"}``;
2. one line per stored row, oldest notification first: ``{"originator_id": "<uuid>",
   "originator_version": <int>, "topic": "<stored topic>", "state": <the stored JSON, verbatim>}``
   (``"state_base64": "<base64>"`` instead of ``state`` when the stored bytes are not a JSON value,
   e.g. with the library's compressor or cipher configured);
3. trailer: ``{"end": "dicelog-backup/1", "events": <rows>, "games": <n>, "campaigns": <n>,
   "sha256": "<hex SHA-256 of every row line, each with its \\n>"}``: a truncated or edited file is
   refused before anything is written.

``restore`` writes the rows into an empty store (refusing a store that holds any), in the same order
and byte for byte, so every chain hash, token and idempotent answer is kept, then verifies every game
(``Games.verify``). Notification ids may differ from the source's (the order does not).
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, NamedTuple
from uuid import UUID

import msgspec
from eventsourcing.persistence import StoredEvent

from dicelog.domain.core.campaign import CampaignStarted
from dicelog.domain.core.events import GameCreated
from dicelog.domain.core.game import GameSnapshot
from dicelog.domain.core.verify import Divergence
from dicelog.service.store.migrations import SCHEMA_VERSION, SchemaTooNew, dicelog_version
from dicelog.service.store.topics import topics_of

FORMAT = "dicelog-backup/1"
PAGE = 500
"""Rows read (backup) or written in one transaction (restore) at a time."""

GAME_TOPICS = frozenset(topics_of(GameCreated))
CAMPAIGN_TOPICS = frozenset(topics_of(CampaignStarted))


class Header(msgspec.Struct, frozen=True, kw_only=True):
    format: str
    dicelog_version: str
    schema_version: int
    created_at: datetime
    source: str


class Row(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    originator_id: UUID
    originator_version: int
    topic: str
    state: msgspec.Raw = msgspec.Raw()
    """The stored bytes when they are one JSON value (always, unless a compressor or cipher is set)."""
    state_base64: str | None = None
    """The stored bytes otherwise."""

    def stored_event(self) -> StoredEvent:
        state = base64.b64decode(self.state_base64) if self.state_base64 is not None else bytes(self.state)
        return StoredEvent(
            originator_id=self.originator_id,
            originator_version=self.originator_version,
            topic=self.topic,
            state=state,
        )


class Trailer(msgspec.Struct, frozen=True, kw_only=True):
    end: str
    events: int
    games: int
    campaigns: int
    sha256: str


class Counts(NamedTuple):
    """Rows of a backup: ``events`` (every stored row), ``games`` and ``campaigns`` among them."""

    events: int
    games: int
    campaigns: int


class BackupFileError(ValueError):
    """The file is not a complete, unedited ``dicelog-backup/1`` file (the message says where)."""


class StoreNotEmpty(Exception):
    """``restore`` refuses a store that already holds events."""


class RestoreReport(NamedTuple):
    """What ``restore`` wrote and found: ``counts``; ``failures``, each game that does not verify
    with its first divergence; ``snapshots`` taken."""

    counts: Counts
    game_ids: list[UUID]
    failures: list[tuple[UUID, Divergence | None]]
    snapshots: int


_encode = msgspec.json.Encoder().encode
_row_decoder = msgspec.json.Decoder(Row)
_any_decoder = msgspec.json.Decoder()


def _row(note: Any) -> bytes:
    state = bytes(note.state)
    try:
        _any_decoder.decode(state)
        verbatim = state == state.strip()
    except msgspec.DecodeError:
        verbatim = False
    originator_id = (
        note.originator_id if isinstance(note.originator_id, UUID) else UUID(str(note.originator_id))
    )
    if verbatim:
        row = Row(
            originator_id=originator_id,
            originator_version=note.originator_version,
            topic=note.topic,
            state=msgspec.Raw(state),
        )
    else:
        row = Row(
            originator_id=originator_id,
            originator_version=note.originator_version,
            topic=note.topic,
            state_base64=base64.b64encode(state).decode(),
        )
    return _encode(row)


def write_backup(games: Any, out: IO[bytes], *, source: str) -> Counts:
    """Write every stored row of ``games`` (a ``dicelog.service.app.games.Games``) to ``out`` in the
    format above; returns the counts. Rows are read in pages of ``PAGE`` up to the newest
    notification when it starts (rows saved meanwhile are left for the next backup). Raises the
    store's errors (eventsourcing ``PersistenceError``) and ``OSError`` from ``out``."""
    header = Header(
        format=FORMAT,
        dicelog_version=dicelog_version(),
        schema_version=SCHEMA_VERSION,
        created_at=datetime.now(UTC),
        source=source,
    )
    out.write(_encode(header) + b"\n")
    digest = hashlib.sha256()
    events = n_games = n_campaigns = 0
    last = games.recorder.max_notification_id() or 0
    start = 1
    while start <= last:
        notes = games.recorder.select_notifications(start=start, limit=PAGE, stop=last)
        if not notes:
            break
        for note in notes:
            line = _row(note) + b"\n"
            digest.update(line)
            out.write(line)
            events += 1
            n_games += note.topic in GAME_TOPICS
            n_campaigns += note.topic in CAMPAIGN_TOPICS
        start = notes[-1].id + 1
    trailer = Trailer(
        end=FORMAT, events=events, games=n_games, campaigns=n_campaigns, sha256=digest.hexdigest()
    )
    out.write(_encode(trailer) + b"\n")
    return Counts(events, n_games, n_campaigns)


def _lines(path: Path) -> Iterator[tuple[int, bytes]]:
    with path.open("rb") as handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                yield number, line


def check_backup(path: Path) -> tuple[Header, Counts]:
    """Read the whole file once and check it: header, every row, and the trailer's count and
    SHA-256. Raises ``BackupFileError`` (naming the line), ``SchemaTooNew`` for a backup made by a
    newer schema than this code's, and ``OSError`` when the file cannot be read."""
    lines = _lines(path)
    first = next(lines, None)
    if first is None:
        raise BackupFileError(f"{path} is empty")
    try:
        header = msgspec.json.decode(first[1], type=Header)
    except msgspec.MsgspecError as e:
        raise BackupFileError(f"{path} is not a dicelog backup (line 1: {e})") from None
    if header.format != FORMAT:
        raise BackupFileError(f"{path} has format {header.format!r}; this dicelog reads {FORMAT!r}")
    if header.schema_version > SCHEMA_VERSION:
        raise SchemaTooNew(
            f"{path} was made by dicelog {header.dicelog_version} (schema version {header.schema_version}), "
            f"newer than this one (schema version {SCHEMA_VERSION}): restore it with that release"
        )
    digest = hashlib.sha256()
    events = n_games = n_campaigns = 0
    pending: tuple[int, bytes] | None = None
    for number, line in lines:
        if pending is not None:
            topic = _check_row(path, *pending).topic
            digest.update(pending[1].rstrip(b"\r\n") + b"\n")
            events += 1
            n_games += topic in GAME_TOPICS
            n_campaigns += topic in CAMPAIGN_TOPICS
        pending = (number, line)
    if pending is None:
        raise BackupFileError(f"{path} is truncated: no trailer line after the header")
    try:
        trailer = msgspec.json.decode(pending[1], type=Trailer)
    except msgspec.MsgspecError:
        raise BackupFileError(
            f"{path} is truncated: its last line ({pending[0]}) is not the trailer"
        ) from None
    if trailer.end != FORMAT or trailer.events != events:
        raise BackupFileError(
            f"{path} is truncated or edited: the trailer counts {trailer.events} rows, the file has {events}"
        )
    if trailer.sha256 != digest.hexdigest():
        raise BackupFileError(f"{path} was edited: the SHA-256 of its rows differs from the trailer's")
    return header, Counts(events, n_games, n_campaigns)


def _check_row(path: Path, number: int, line: bytes) -> Row:
    try:
        row = _row_decoder.decode(line)
        if row.state_base64 is None and not bytes(row.state):
            raise msgspec.ValidationError("no state")
        if row.state_base64 is not None:
            base64.b64decode(row.state_base64, validate=True)
    except (msgspec.MsgspecError, ValueError) as e:
        raise BackupFileError(f"{path}, line {number}: not a stored row ({e})") from None
    return row


def restore(
    games: Any, path: Path, *, checked: Counts | None = None, snapshot_interval: int = 0
) -> RestoreReport:
    """Restore the backup at ``path`` into the empty store of ``games`` (a ``Games`` whose tables
    exist), then verify every game and, with ``snapshot_interval`` > 0, snapshot each game at
    least that long at its last version.

    The file is checked whole (``check_backup``; ``checked``: its counts, when the caller just did)
    before anything is written. Raises
    ``BackupFileError``, ``SchemaTooNew``, ``StoreNotEmpty`` (the store holds events: nothing
    written) and the store's errors (a restore that fails while writing leaves a partial store:
    empty it, then restore again)."""
    counts = checked if checked is not None else check_backup(path)[1]
    if games.recorder.max_notification_id():
        raise StoreNotEmpty("the store already holds events: restore writes only into an empty store")
    game_ids: list[UUID] = []
    lines = _lines(path)
    next(lines)  # the header
    batch: list[StoredEvent] = []
    for written, (_, line) in enumerate(lines):
        if written == counts.events:
            break  # the trailer
        row = _row_decoder.decode(line)
        if row.topic in GAME_TOPICS:
            game_ids.append(row.originator_id)
        batch.append(row.stored_event())
        if len(batch) == PAGE:
            games.recorder.insert_events(batch)
            batch = []
    if batch:
        games.recorder.insert_events(batch)
    failures: list[tuple[UUID, Divergence | None]] = []
    snapshots = 0
    for game_id in game_ids:
        verification = games.verify(game_id)
        if not verification.ok:
            failures.append((game_id, verification.divergence))
            continue
        if snapshot_interval > 0 and games.snapshots is not None:
            game = games.game(game_id)
            if game.version >= snapshot_interval:
                games.snapshots.put([GameSnapshot.take(game)])
                snapshots += 1
    return RestoreReport(counts=counts, game_ids=game_ids, failures=failures, snapshots=snapshots)
