"""Materialised views of the projections: rows and checkpoint written in one transaction.

Each view is an eventsourcing ``TrackingRecorder`` (SQLite or PostgreSQL) extended with its own
table, so a projection's rows and its tracking record (the notification id it has processed)
commit together and a restart resumes exactly where it stopped (docs/architecture.md, Runtime).

- ``DocumentView``: one JSON document per game (initiative track, board), replaced as the game
  changes, with the game version it shows.
- ``LogView``: the game log, one row per event, appended: its line, or none for an event the log does
  not tell (the newest row of a game is how far the log has got in it).

Each write takes a batch of rows and the tracking record of the last notification in it, or, when
the log is followed by partitions (``dicelog.service.store.partitions``), one tracking record per partition
the batch covers: all commit with the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder
from psycopg.sql import SQL, Identifier

Checkpoint = Tracking | Sequence[Tracking]
"""What a write records with its rows: one tracking record, or one per partition."""
LogRow = tuple[UUID, int, str, str, str | None]
"""A row of the log: game, version, seat, event type, and the line (``None``: the event has no line)."""
LogLineRow = tuple[int, str, str, str]
"""A line of the log as read: version, seat, event type, line."""


def trackings(checkpoint: Checkpoint) -> Sequence[Tracking]:
    """``checkpoint`` as a sequence of tracking records."""
    return (checkpoint,) if isinstance(checkpoint, Tracking) else checkpoint


def record_tracking(view: Any, checkpoint: Checkpoint) -> None:
    """Record ``checkpoint`` alone, in one transaction, in ``view`` (any eventsourcing SQLite or
    PostgreSQL tracking recorder). Raises the library's ``IntegrityError`` when a record is not newer
    than the one stored (nothing is then recorded)."""
    with view.datastore.transaction(commit=True) as c:
        for tracking in trackings(checkpoint):
            view._insert_tracking(c, tracking)


class DocumentView(Protocol):
    def save_documents(self, documents: list[tuple[UUID, int, bytes]], checkpoint: Checkpoint) -> None: ...
    def document(self, game_id: UUID) -> tuple[int, bytes] | None: ...
    def insert_tracking(self, tracking: Tracking) -> None: ...
    def max_tracking_id(self, application_name: str) -> int | None: ...


class LogView(Protocol):
    def append_lines(self, rows: list[LogRow], checkpoint: Checkpoint) -> None: ...
    def lines(self, game_id: UUID, after: int, limit: int) -> tuple[int, list[LogLineRow]] | None: ...
    def insert_tracking(self, tracking: Tracking) -> None: ...
    def max_tracking_id(self, application_name: str) -> int | None: ...


class SQLiteDocumentView(SQLiteTrackingRecorder):
    """Documents by game in SQLite (the view's own database file holds its ``tracking`` table)."""

    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.create_table_statements.append(
            "CREATE TABLE IF NOT EXISTS documents (game_id TEXT PRIMARY KEY, version INTEGER, body BLOB)"
        )

    def save_documents(self, documents: list[tuple[UUID, int, bytes]], checkpoint: Checkpoint) -> None:
        with self.datastore.transaction(commit=True) as c:
            for game_id, version, body in documents:
                c.execute(
                    "INSERT INTO documents VALUES (?, ?, ?) ON CONFLICT (game_id) DO UPDATE "
                    "SET version = excluded.version, body = excluded.body",
                    (str(game_id), version, body),
                )
            for tracking in trackings(checkpoint):
                self._insert_tracking(c, tracking)

    def document(self, game_id: UUID) -> tuple[int, bytes] | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT version, body FROM documents WHERE game_id = ?", (str(game_id),))
            row = c.fetchone()
        return None if row is None else (row["version"], bytes(row["body"]))


class SQLiteLogView(SQLiteTrackingRecorder):
    """Game log lines in SQLite."""

    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.create_table_statements.append(
            "CREATE TABLE IF NOT EXISTS log_lines (game_id TEXT, version INTEGER, seat TEXT, "
            "type TEXT, line TEXT, PRIMARY KEY (game_id, version))"
        )

    def append_lines(self, rows: list[LogRow], checkpoint: Checkpoint) -> None:
        with self.datastore.transaction(commit=True) as c:
            for game_id, version, seat, type_, line in rows:
                c.execute(
                    "INSERT OR REPLACE INTO log_lines VALUES (?, ?, ?, ?, ?)",
                    (str(game_id), version, seat, type_, line),
                )
            for tracking in trackings(checkpoint):
                self._insert_tracking(c, tracking)

    def lines(self, game_id: UUID, after: int, limit: int) -> tuple[int, list[LogLineRow]] | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT max(version) AS reached FROM log_lines WHERE game_id = ?", (str(game_id),))
            reached = c.fetchone()["reached"]
            if reached is None:
                return None
            c.execute(
                "SELECT version, seat, type, line FROM log_lines WHERE game_id = ? AND version > ? "
                "AND line IS NOT NULL ORDER BY version LIMIT ?",
                (str(game_id), after, limit),
            )
            return reached, [(r["version"], r["seat"], r["type"], r["line"]) for r in c.fetchall()]


class PostgresDocumentView(PostgresTrackingRecorder):
    """Documents by game in PostgreSQL (table ``<name>_documents``, tracking ``<name>_tracking``)."""

    def __init__(self, datastore: PostgresDatastore, *, name: str, **kwargs: Any) -> None:
        super().__init__(datastore, tracking_table_name=f"{name}_tracking", **kwargs)
        self.table = Identifier(self.datastore.schema, f"{name}_documents")
        self.sql_create_statements.append(
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (game_id uuid PRIMARY KEY, version bigint, body bytea)"
            ).format(self.table)
        )

    def save_documents(self, documents: list[tuple[UUID, int, bytes]], checkpoint: Checkpoint) -> None:
        with self.datastore.transaction(commit=True) as c:
            for game_id, version, body in documents:
                c.execute(
                    SQL(
                        "INSERT INTO {0} VALUES (%s, %s, %s) ON CONFLICT (game_id) DO UPDATE "
                        "SET version = excluded.version, body = excluded.body"
                    ).format(self.table),
                    (game_id, version, body),
                )
            for tracking in trackings(checkpoint):
                self._insert_tracking(c, tracking)

    def document(self, game_id: UUID) -> tuple[int, bytes] | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(SQL("SELECT version, body FROM {0} WHERE game_id = %s").format(self.table), (game_id,))
            row = c.fetchone()
        return None if row is None else (row["version"], bytes(row["body"]))


class PostgresLogView(PostgresTrackingRecorder):
    """Game log lines in PostgreSQL (table ``log_lines``, tracking ``log_tracking``)."""

    def __init__(self, datastore: PostgresDatastore, *, name: str = "log", **kwargs: Any) -> None:
        super().__init__(datastore, tracking_table_name=f"{name}_tracking", **kwargs)
        self.table = Identifier(self.datastore.schema, f"{name}_lines")
        self.sql_create_statements.append(
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (game_id uuid, version bigint, seat text, type text, "
                "line text, PRIMARY KEY (game_id, version))"
            ).format(self.table)
        )

    def append_lines(self, rows: list[LogRow], checkpoint: Checkpoint) -> None:
        with self.datastore.transaction(commit=True) as c:
            for game_id, version, seat, type_, line in rows:
                c.execute(
                    SQL(
                        "INSERT INTO {0} VALUES (%s, %s, %s, %s, %s) "
                        "ON CONFLICT (game_id, version) DO UPDATE SET line = excluded.line"
                    ).format(self.table),
                    (game_id, version, seat, type_, line),
                )
            for tracking in trackings(checkpoint):
                self._insert_tracking(c, tracking)

    def lines(self, game_id: UUID, after: int, limit: int) -> tuple[int, list[LogLineRow]] | None:
        with self.datastore.transaction(commit=False) as c:
            # the position first: lines read after it (READ COMMITTED) are at least those up to it
            c.execute(
                SQL("SELECT max(version) AS reached FROM {0} WHERE game_id = %s").format(self.table),
                (game_id,),
            )
            row = c.fetchone()
            reached = None if row is None else row["reached"]
            if reached is None:
                return None
            c.execute(
                SQL(
                    "SELECT version, seat, type, line FROM {0} WHERE game_id = %s AND version > %s "
                    "AND line IS NOT NULL ORDER BY version LIMIT %s"
                ).format(self.table),
                (game_id, after, limit),
            )
            return reached, [(r["version"], r["seat"], r["type"], r["line"]) for r in c.fetchall()]
