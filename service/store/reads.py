"""Range reads of one game's stored events, for the audit reads (``Games.event_page``, ...).

``read_range`` is the library recorder's ``select_events(originator_id, gt=, lte=, limit=)``
with two differences that matter when a read must cost only what it returns:

- the game id is not parsed again for every row (SQLite stores it as text: building a ``UUID``
  per row is about a third of a range read there); every ``StoredEvent`` gets the id asked for;
- an optional filter on topics runs in the database (``topic IN (...)``), so the rows of other
  events are never fetched.

It reads the recorder's own table (``events_table_name``, and the schema on PostgreSQL) through
the recorder's datastore, read-only; any other recorder falls back to ``select_events`` and
filters the topics in Python. Rows come back oldest first.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Notification, StoredEvent

from dicelog.service.store.topics import resolve


@lru_cache(maxsize=4096)
def topic_class(topic: str) -> type:
    """``dicelog.service.store.topics.resolve``, cached (a stored topic always names the same class).
    Raises ``dicelog.service.store.topics.StoredNameError``."""
    return resolve(topic)


def read_range(
    recorder: Any,
    game_id: UUID,
    *,
    gt: int | None = None,
    lte: int | None = None,
    limit: int | None = None,
    topics: Collection[str] | None = None,
) -> list[StoredEvent]:
    """The game's stored events with ``gt`` < version <= ``lte`` (either bound optional) and, when
    ``topics`` is given, a topic among them; at most ``limit``, oldest first."""
    from eventsourcing.postgres import PostgresAggregateRecorder
    from eventsourcing.sqlite import SQLiteAggregateRecorder

    if isinstance(recorder, SQLiteAggregateRecorder):
        rows = _sqlite(recorder, game_id, gt, lte, limit, topics)
    elif isinstance(recorder, PostgresAggregateRecorder):
        rows = _postgres(recorder, game_id, gt, lte, limit, topics)
    else:
        stored = recorder.select_events(game_id, gt=gt, lte=lte, limit=None if topics is not None else limit)
        if topics is not None:
            stored = [s for s in stored if s.topic in topics][:limit]
        return list(stored)
    return [StoredEvent(originator_id=game_id, originator_version=v, topic=t, state=s) for v, t, s in rows]


def _sqlite(
    recorder: Any,
    game_id: UUID,
    gt: int | None,
    lte: int | None,
    limit: int | None,
    topics: Collection[str] | None,
) -> list[tuple[int, str, bytes]]:
    table = recorder.events_table_name
    statement = f"SELECT originator_version, topic, state FROM {table} WHERE originator_id=? "
    params: list[Any] = [game_id.hex]
    if gt is not None:
        statement += "AND originator_version>? "
        params.append(gt)
    if lte is not None:
        statement += "AND originator_version<=? "
        params.append(lte)
    if topics is not None:
        statement += f"AND topic IN ({','.join('?' * len(topics))}) "
        params.extend(topics)
    statement += "ORDER BY originator_version ASC "
    if limit is not None:
        statement += "LIMIT ? "
        params.append(limit)
    with recorder.datastore.transaction(commit=False) as c:
        c.execute(statement, params)
        return [(row[0], row[1], row[2]) for row in c.fetchall()]


def _postgres(
    recorder: Any,
    game_id: UUID,
    gt: int | None,
    lte: int | None,
    limit: int | None,
    topics: Collection[str] | None,
) -> list[tuple[int, str, bytes]]:
    from psycopg.sql import SQL, Identifier

    statement = SQL("SELECT originator_version, topic, state FROM {0}.{1} WHERE originator_id = %s").format(
        Identifier(recorder.datastore.schema), Identifier(recorder.events_table_name)
    )
    params: list[Any] = [game_id]
    if gt is not None:
        statement += SQL(" AND originator_version > %s")
        params.append(gt)
    if lte is not None:
        statement += SQL(" AND originator_version <= %s")
        params.append(lte)
    if topics is not None:
        statement += SQL(" AND topic = ANY(%s)")
        params.append(list(topics))
    statement += SQL(" ORDER BY originator_version ASC")
    if limit is not None:
        statement += SQL(" LIMIT %s")
        params.append(limit)
    with recorder.datastore.get_connection() as conn, conn.cursor() as curs:
        curs.execute(statement, params, prepare=True)
        return [(row["originator_version"], row["topic"], bytes(row["state"])) for row in curs.fetchall()]


def creation_notification_id(recorder: Any, game_id: UUID, topics: Sequence[str]) -> int | None:
    """The notification id of the game's first event (its ``GameCreated``, stored under one of
    ``topics``): where the game stands in creation order. ``None`` when the game has no events.
    One indexed read on SQLite and PostgreSQL; another recorder's notification log is scanned."""
    from eventsourcing.postgres import PostgresApplicationRecorder
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    if isinstance(recorder, SQLiteApplicationRecorder):
        statement = (
            f"SELECT rowid FROM {recorder.events_table_name} WHERE originator_id=? AND originator_version=1"
        )
        with recorder.datastore.transaction(commit=False) as c:
            c.execute(statement, [game_id.hex])
            row = c.fetchone()
        return None if row is None else int(row[0])
    if isinstance(recorder, PostgresApplicationRecorder):
        from psycopg.sql import SQL, Identifier

        query = SQL(
            "SELECT notification_id FROM {0}.{1} WHERE originator_id = %s AND originator_version = 1"
        ).format(Identifier(recorder.datastore.schema), Identifier(recorder.events_table_name))
        with recorder.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(query, [game_id])
            found = curs.fetchone()
        return None if found is None else int(found["notification_id"])
    start = 1
    while notes := recorder.select_notifications(start=start, limit=1000, topics=topics):
        for note in notes:
            if note.originator_id == game_id and note.originator_version == 1:
                return int(note.id)
        start = notes[-1].id + 1
    return None


FIRST_EVENTS_INDEX = "dicelog_first_events"
"""A partial index (schema migration 2, ``dicelog.service.store.migrations``) of the events at version 1 in
notification order: the creations of games, campaigns and the service's one-event records. Events at
later versions (nearly all of them) are not in it, so it costs a command nothing to keep."""


def creations(
    recorder: Any, *, after: int, upto: int, limit: int, topics: Sequence[str]
) -> list[Notification]:
    """The notifications of the first events (version 1) stored under one
    of ``topics`` with a notification id in ``(after, upto]``, oldest first, at most ``limit``.

    SQLite and PostgreSQL read the ``FIRST_EVENTS_INDEX`` in order (``originator_version = 1`` is written
    out so that the planner may use the partial index): the cost follows the creations read, not the
    events stored between them. Another recorder's notification log is read with the library's topic
    filter."""
    from eventsourcing.postgres import PostgresApplicationRecorder
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    if isinstance(recorder, SQLiteApplicationRecorder):
        with recorder.datastore.transaction(commit=False) as c:
            c.execute(
                sqlite_creations(recorder.events_table_name, len(topics)), [after, upto, *topics, limit]
            )
            return [_note(int(row[0]), UUID(row[1]), row[2], bytes(row[3])) for row in c.fetchall()]
    if isinstance(recorder, PostgresApplicationRecorder):
        from psycopg.sql import SQL, Identifier

        pg = SQL(
            "SELECT notification_id, originator_id, topic, state FROM {0}.{1} WHERE originator_version = 1 "
            "AND notification_id > %s AND notification_id <= %s AND topic = ANY(%s) "
            "ORDER BY notification_id LIMIT %s"
        ).format(Identifier(recorder.datastore.schema), Identifier(recorder.events_table_name))
        with recorder.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(pg, [after, upto, list(topics), limit], prepare=True)
            return [
                _note(int(row["notification_id"]), row["originator_id"], row["topic"], bytes(row["state"]))
                for row in curs.fetchall()
            ]
    return list(recorder.select_notifications(start=after + 1, stop=upto, limit=limit, topics=topics))


def sqlite_creations(table: str, topics: int) -> str:
    """The SQLite statement of ``creations`` for ``topics`` topics (parameters: after, upto, the topics,
    limit)."""
    return (
        f"SELECT rowid, originator_id, topic, state FROM {table} WHERE originator_version = 1 "
        f"AND rowid > ? AND rowid <= ? AND topic IN ({','.join('?' * topics)}) ORDER BY rowid LIMIT ?"
    )


def _note(position: int, originator_id: UUID, topic: str, state: bytes) -> Notification:
    return Notification(
        id=position, originator_id=originator_id, originator_version=1, topic=topic, state=state
    )


def positions(
    recorder: Any, game_ids: Sequence[UUID], *, after: int, limit: int
) -> list[tuple[int, UUID, int]]:
    """Where the events of ``game_ids`` stand in the store's one total order: (notification id, game id,
    version) of each event with a notification id > ``after``, oldest first, at most ``limit``. The
    cross-game stream (``GET /stream``) resumes from a notification id. SQLite and PostgreSQL read the
    events' primary key per game (``originator_id``); another recorder's notification log is scanned.

    The notification ids are the store's commit order (PostgreSQL: eventsourcing serializes the inserting
    transactions with a table lock), so no event gets an id below one already read."""
    from eventsourcing.postgres import PostgresApplicationRecorder
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    if not game_ids:
        return []
    if isinstance(recorder, SQLiteApplicationRecorder):
        statement = (
            f"SELECT rowid, originator_id, originator_version FROM {recorder.events_table_name} "
            f"WHERE originator_id IN ({','.join('?' * len(game_ids))}) AND rowid > ? ORDER BY rowid LIMIT ?"
        )
        with recorder.datastore.transaction(commit=False) as c:
            c.execute(statement, [*(g.hex for g in game_ids), after, limit])
            return [(int(row[0]), UUID(row[1]), int(row[2])) for row in c.fetchall()]
    if isinstance(recorder, PostgresApplicationRecorder):
        from psycopg.sql import SQL, Identifier

        query = SQL(
            "SELECT notification_id, originator_id, originator_version FROM {0}.{1} "
            "WHERE originator_id = ANY(%s) AND notification_id > %s ORDER BY notification_id LIMIT %s"
        ).format(Identifier(recorder.datastore.schema), Identifier(recorder.events_table_name))
        with recorder.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(query, [list(game_ids), after, limit])
            return [
                (int(r["notification_id"]), r["originator_id"], int(r["originator_version"]))
                for r in curs.fetchall()
            ]
    wanted, start = set(game_ids), after + 1
    found: list[tuple[int, UUID, int]] = []
    while len(found) < limit and (notes := recorder.select_notifications(start=start, limit=1000)):
        found += [
            (int(n.id), n.originator_id, n.originator_version) for n in notes if n.originator_id in wanted
        ]
        start = notes[-1].id + 1
    return found[:limit]
