"""Publishes game events to Redis streams: a public, versioned interface (docs/streams.md, "Redis streams").

The publisher follows the ``Games`` notification log from its stored checkpoint (an
eventsourcing ``TrackingRecorder``: its own SQLite file, or the ``publisher_tracking`` table in
PostgreSQL) and appends each game event (``XADD``) to:

- ``dicelog:game:<id>``: the game's public stream (the spectator's view of every event);
- ``dicelog:game:<id>:seat:<name>`` and ``dicelog:game:<id>:auditor``: for a ruleset with secrets
  only, one stream per audience with that audience's view (``dicelog.domain.core.visibility``): a seat
  sees its own secrets, the auditor everything; an event an audience may not see is a stub
  (``hidden``), never left out, so every stream of a game has every version;
- ``dicelog:games``: the public view of every event of every game (campaign events included:
  their ``game_id`` is the campaign's id).

Entries (``StreamEntry``, format 1; JSON Schema in ``docs/redis-stream-entry.schema.json``,
regenerated with ``python -m dicelog.service.worker.publisher > docs/redis-stream-entry.schema.json``). A
Redis stream entry is a flat map of field names to strings, so the layout is: one field per
``StreamEntry`` field; ``event`` holds the JSON text of an object (the audit view of the event,
``EventOut``, as the stream's audience may see it: exactly as ``GET /games/{id}/events`` shows it to
that audience when it is published, ``round`` and ``undone`` included); every other field holds a
scalar written as text: integers in decimal, booleans ``true`` / ``false``, strings (ids, names) as
they are. So a client decodes each value once (``JSON.parse(event)``, ``Number(version)``) and
nothing is JSON inside a JSON string; the scalars stay readable with ``redis-cli`` and usable
without parsing the event at all (``decode_entry`` is the reference decoder). New fields may be
added without a new format (consumers ignore fields they do not know); ``format`` changes when an
existing field changes meaning or shape.

Delivery is at least once: a crash between ``XADD`` and the checkpoint publishes a batch again.
``notification_id`` (the event's position in the store's notification log: unique and
increasing, not contiguous, since the log also holds records that are never published) lets a
consumer drop an entry it has already applied; ``version`` (1, 2, 3... per game, on every stream
of that game) lets it notice a gap and resync with ``GET /games/{id}/events?after=<last version>``.

Trimming (``Trimming``, from ``DICELOG_[GLOBAL_]STREAM_MAXLEN`` / ``_RETENTION``): each stream
kind has a length cap (``XADD ... MAXLEN ~ N``: at least N entries are kept) and an age limit
(``XTRIM ... MINID ~ <ms>``, from the millisecond part of the newest entry id: entries younger
than the retention are kept). Approximate trimming only ever keeps more. Defaults: per-game
streams keep at least 10,000 entries and no age limit (a game's stream is its whole history for
all but the longest games); ``dicelog:games`` keeps 24 h, capped at 1,000,000 entries, so a
consumer hours behind loses nothing under ordinary load, and one that does fall further behind
can tell (``XINFO STREAM``'s ``max-deleted-entry-id`` is past the last entry it read, or a
game's version jumps).

Ended games (``Trimming.ended``, from ``DICELOG_ENDED_STREAM_RETENTION``, default 24 h): when the
publisher writes a game's ``GameEnded``, it sets every stream of that game (public and audiences) to
expire that many seconds later (``EXPIRE``), so a finished game's streams, which no new entry would
ever trim again, leave Redis (an ended game takes no command: nothing is added to them after it).
``dicelog:games`` is bounded by its own cap and age.
``bench/redis_memory.py`` measures the memory per 1,000 finished games.

When Redis is down the commands still succeed (they never wait for Redis); the checkpoint stays
where it was and the next pass catches up.
"""

from __future__ import annotations

import inspect
import json
import logging
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any
from uuid import UUID

import msgspec
import redis
from eventsourcing.persistence import Tracking
from msgspec import Meta, Struct
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from dicelog.domain.core.campaign import CampaignEvent
from dicelog.domain.core.events import GameEnded
from dicelog.domain.core.game import Game, Recorded
from dicelog.domain.core.visibility import (
    AUDITOR_VIEWER,
    SPECTATOR_VIEWER,
    Lens,
    Viewer,
    has_secrets,
    seat_viewer,
)
from dicelog.projections.recorders import Checkpoint, record_tracking
from dicelog.service.bodies.render import event_out
from dicelog.service.bodies.schemas import EventOut
from dicelog.service.ops.settings import Settings

GLOBAL_STREAM = "dicelog:games"
ENTRY_FORMAT = 1
"""The format of ``StreamEntry`` written by this build (its ``format`` field)."""
JSON_FIELDS = ("event",)
"""Entry fields whose value is JSON text (an object); the others are scalars as plain text."""
_PUBLIC = Lens(None, AUDITOR_VIEWER)  # campaign events: all public
log = logging.getLogger("dicelog.publisher")
_encode = msgspec.json.Encoder().encode


class StreamEntry(Struct, frozen=True, kw_only=True):
    """One entry of a dicelog Redis stream (``dicelog:game:<id>``, ``dicelog:game:<id>:seat:<name>``,
    ``dicelog:game:<id>:auditor``, ``dicelog:games``), once decoded: in Redis, ``event`` is the
    JSON text of an object and every other field is its value as plain text (integers in decimal,
    booleans true/false, strings as they are). Delivery is at least once: drop an entry whose
    notification_id was already applied; a jump in a game's version means entries were missed
    (resync with GET /games/{game_id}/events?after=<last version applied>)."""

    format: Annotated[
        int,
        Meta(
            ge=1,
            description="Entry format (1). It changes only when a field changes "
            "meaning or shape; fields may be added without it.",
        ),
    ]
    notification_id: Annotated[
        int,
        Meta(
            ge=1,
            description=(
                "The event's position in the store's notification log: unique across all games and "
                "increasing in store order (not contiguous). The same event has the same notification_id "
                "on every stream."
            ),
        ),
    ]
    game_id: Annotated[UUID, Meta(description="The game (for a campaign event: the campaign).")]
    version: Annotated[
        int,
        Meta(
            ge=1,
            description=(
                "The event's position in its game's log: 1, 2, 3... with no gaps on every stream of the game."
            ),
        ),
    ]
    type: Annotated[
        str, Meta(description="The event type (e.g. GameCreated, DiceRolled); shown for hidden events too.")
    ]
    seat: Annotated[
        str, Meta(description="The seat whose command caused the event (server: automatic steps).")
    ]
    hidden: Annotated[
        bool,
        Meta(
            description=(
                "True when the stream's audience may not see this event yet: event is a stub (payload null)."
            )
        ),
    ]
    event: Annotated[
        EventOut,
        Meta(
            description=(
                "The event as the stream's audience may see it (the audit view of GET /games/{id}/events)."
            )
        ),
    ]


def entry_fields(entry: StreamEntry) -> dict[str, str | int | bytes]:
    """The Redis fields of ``entry`` (see the module docstring): ``event`` as JSON bytes, booleans as
    ``"true"`` / ``"false"``, integers as they are (redis-py writes them in decimal), other values as text."""
    fields: dict[str, str | int | bytes] = {}
    for name, value in msgspec.structs.asdict(entry).items():
        if name in JSON_FIELDS:
            fields[name] = _encode(value)
        elif isinstance(value, bool):
            fields[name] = "true" if value else "false"
        elif isinstance(value, int):
            fields[name] = value
        else:
            fields[name] = str(value)
    return fields


def decode_entry(fields: Mapping[bytes, bytes] | Mapping[str, str]) -> StreamEntry:
    """A Redis stream entry's fields (as redis-py returns them, bytes or decoded strings) as a
    ``StreamEntry``; fields it does not know are ignored. Raises ``msgspec.ValidationError`` or
    ``msgspec.DecodeError`` when the entry is not a valid entry."""
    raw: dict[str, Any] = {}
    for key, value in fields.items():
        name = key.decode() if isinstance(key, bytes) else key
        raw[name] = (
            msgspec.json.decode(value)
            if name in JSON_FIELDS
            else (value.decode() if isinstance(value, bytes) else value)
        )
    return msgspec.convert(raw, StreamEntry, strict=False)


def entry_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a decoded ``StreamEntry``, as committed in
    ``docs/redis-stream-entry.schema.json``."""
    schema = msgspec.json.schema(StreamEntry)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "dicelog Redis stream entry",
        "description": (
            f"Format {ENTRY_FORMAT}. A Redis stream entry is a map of field names to strings: the field "
            "event holds the JSON text of an object, every other field its value as plain text (integers "
            "in decimal, booleans true/false, strings as they are). This schema describes the entry once "
            "each value is decoded that way."
        ),
        **_tidy(schema),
    }


def entry_schema_text() -> str:
    """``entry_schema()`` as the committed file's text (2-space indents, final newline)."""
    return json.dumps(entry_schema(), indent=2, ensure_ascii=False) + "\n"


def _tidy(node: Any) -> Any:
    """``node`` with docstring descriptions dedented and without the OpenAPI generator's private
    ``x-dicelog-slot`` markers (here a slot is any JSON object: the stream carries every ruleset's
    events)."""
    if isinstance(node, dict):
        return {
            k: inspect.cleandoc(v) if k == "description" and isinstance(v, str) else _tidy(v)
            for k, v in node.items()
            if k != "x-dicelog-slot"
        }
    if isinstance(node, list):
        return [_tidy(v) for v in node]
    return node


def game_stream(game_id: Any, audience: str | None = None) -> str:
    """The Redis stream key of one game: its public stream, or one audience's (``seat:<name>``,
    ``auditor``) in a game with secrets."""
    return f"dicelog:game:{game_id}" if audience is None else f"dicelog:game:{game_id}:{audience}"


def connect(url: str) -> redis.Redis:
    """A Redis client with short timeouts and redis-py's own bounded retry with backoff."""
    return redis.Redis.from_url(
        url,
        socket_connect_timeout=1,
        socket_timeout=2,
        retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), retries=2),
        retry_on_error=[redis.ConnectionError, redis.TimeoutError],
    )


class Trim(Struct, frozen=True, kw_only=True):
    """How one kind of stream is trimmed: ``maxlen`` entries at least (``MAXLEN ~``; 0: no cap) and
    the last ``retention`` seconds at least (``MINID ~``; 0: no age limit)."""

    maxlen: int = 0
    retention: int = 0


class Trimming(Struct, frozen=True, kw_only=True):
    """The trimming policy: ``game`` for ``dicelog:game:<id>[:<audience>]``, ``all`` for
    ``dicelog:games`` (defaults as ``Settings``)."""

    game: Trim = Trim(maxlen=10_000)
    all: Trim = Trim(maxlen=1_000_000, retention=86_400)
    ended: int = 86_400
    """Seconds an ended game's streams are kept after its ``GameEnded`` (0: forever)."""

    @classmethod
    def from_settings(cls, settings: Settings) -> Trimming:
        """The policy of ``DICELOG_[GLOBAL_]STREAM_MAXLEN`` / ``_RETENTION`` and
        ``DICELOG_ENDED_STREAM_RETENTION``."""
        return cls(
            game=Trim(maxlen=settings.stream_maxlen, retention=settings.stream_retention),
            all=Trim(maxlen=settings.global_stream_maxlen, retention=settings.global_stream_retention),
            ended=settings.ended_stream_retention,
        )


class RedisPublisher:
    """Writes (event, tracking) pairs to Redis, then records the checkpoint, then trims by age."""

    name = "publisher"
    lane = "publisher"  # its own follower thread: a hung Redis never delays a read model

    def __init__(
        self,
        client: redis.Redis,
        view: Any,
        *,
        trimming: Trimming | None = None,
        load_game: Callable[[UUID], Game] | None = None,
        marks: Callable[[UUID, Any, Sequence[Recorded]], Sequence[Any]] | None = None,
    ) -> None:
        self.client = client
        self.view = view
        self.trimming = trimming or Trimming()
        self.load_game = load_game
        self.marks = marks
        """``Games.marks``: a game's records with their ``undone`` mark, ``round`` and ``turn`` as ``GET
        /games/{id}/events`` shows them now (``None``: neither is filled in)."""
        self._audiences: dict[UUID, tuple[Any, list[Viewer]]] = {}

    def _lenses(self, record: Recorded) -> list[tuple[str | None, Lens]]:
        """(audience stream or ``None`` for the public one, lens) for one event."""
        if isinstance(record.payload, CampaignEvent) or self.load_game is None:
            return [(None, _PUBLIC)]
        game_id = record.originator_id
        if game_id not in self._audiences:
            if len(self._audiences) > 1024:
                self._audiences.clear()
            game = self.load_game(game_id)
            extra = [AUDITOR_VIEWER, *(seat_viewer(game.created.seats, s.name) for s in game.created.seats)]
            self._audiences[game_id] = (game.ruleset, extra if has_secrets(game.ruleset) else [])
        ruleset, viewers = self._audiences[game_id]
        return [(None, Lens(ruleset, SPECTATOR_VIEWER)), *((v.audience, Lens(ruleset, v)) for v in viewers)]

    def _marks(self, events: Sequence[Any]) -> dict[tuple[UUID, int], tuple[bool, int | None, int | None]]:
        """(undone, round, turn) of each game event of a batch, one index read per game."""
        if self.marks is None or self.load_game is None:
            return {}
        by_game: dict[UUID, list[Recorded]] = {}
        for event in events:
            if isinstance(event, Recorded) and not isinstance(event.payload, CampaignEvent):
                by_game.setdefault(event.originator_id, []).append(event)
        found: dict[tuple[UUID, int], tuple[bool, int | None, int | None]] = {}
        for game_id, records in by_game.items():
            ruleset = self._lenses(records[0])[0][1].ruleset
            for mark in self.marks(game_id, ruleset, records):
                found[(game_id, mark.record.originator_version)] = (mark.undone, mark.round, mark.turn)
        return found

    def process_batch(
        self, items: Sequence[tuple[Any, Tracking]], checkpoint: Checkpoint | None = None
    ) -> None:
        """XADD every game event of ``items`` in one pipeline (with the ``EXPIRE`` of an ended game's
        streams: module docstring), store the checkpoint (default: the last item's tracking record;
        one per partition when the log is followed by partitions), then trim the streams written to
        by age (``MINID ~``), when a retention is set.

        Raises ``redis.RedisError`` when Redis cannot be reached for the XADDs (nothing is
        checkpointed); a failed trim by age is only logged (the next batch trims again).
        """
        if not items:
            return
        pipe = self.client.pipeline(transaction=False)
        written: list[tuple[str, Trim]] = []
        marks = self._marks([event for event, _ in items])
        ended: set[str] = set()  # the streams of the games that ended in this batch
        for event, tracking in items:
            if not isinstance(event, Recorded):
                continue
            at = (event.originator_id, event.originator_version)
            undone, round_, turn = marks.get(at, (False, None, None))
            for audience, lens in self._lenses(event):
                shown = event_out(event, lens, undone=undone, round_=round_, turn=turn)
                entry = StreamEntry(
                    format=ENTRY_FORMAT,
                    notification_id=tracking.notification_id,
                    game_id=event.originator_id,
                    version=event.originator_version,
                    type=shown.type,
                    seat=shown.seat,
                    hidden=shown.hidden,
                    event=shown,
                )
                fields = entry_fields(entry)
                targets = [(game_stream(event.originator_id, audience), self.trimming.game)]
                if audience is None:
                    targets.append((GLOBAL_STREAM, self.trimming.all))
                for key, trim in targets:
                    pipe.xadd(key, fields, maxlen=trim.maxlen or None, approximate=True)  # type: ignore[arg-type]  # redis-py: dict[FieldT, EncodableT]
                    written.append((key, trim))
            if self.trimming.ended and isinstance(event.payload, GameEnded):
                ended.update(
                    game_stream(event.originator_id, audience) for audience, _ in self._lenses(event)
                )
        for key in sorted(ended):  # after the XADDs: EXPIRE needs the key to exist
            pipe.expire(key, self.trimming.ended)
        ids = pipe.execute()[: len(written)]
        record_tracking(self.view, items[-1][1] if checkpoint is None else checkpoint)
        self._trim_by_age(written, ids)

    def _trim_by_age(self, written: list[tuple[str, Trim]], ids: list[Any]) -> None:
        """``XTRIM key MINID ~ <newest id's ms - retention>`` for each stream written to that has a
        retention (computed from Redis's own entry ids, so the publisher's clock plays no part)."""
        newest: dict[str, tuple[int, Trim]] = {}
        for (key, trim), entry_id in zip(written, ids, strict=True):
            if trim.retention:
                ms = int(
                    entry_id.split(b"-", 1)[0] if isinstance(entry_id, bytes) else entry_id.split("-", 1)[0]
                )
                newest[key] = (max(ms, newest.get(key, (0, trim))[0]), trim)
        if not newest:
            return
        try:
            pipe = self.client.pipeline(transaction=False)
            for key, (ms, trim) in newest.items():
                pipe.xtrim(key, minid=f"{max(ms - trim.retention * 1000, 0)}-0", approximate=True)
            pipe.execute()
        except redis.RedisError as e:
            log.warning("trimming Redis streams by age failed (retried with the next batch): %s", e)


if __name__ == "__main__":
    sys.stdout.write(entry_schema_text())
