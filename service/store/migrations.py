"""Schema versioning: the tables dicelog needs, created and upgraded by numbered migrations.

The store records its schema version in a table ``dicelog_schema_version`` (one row per applied
migration: ``version``, ``description``, ``dicelog_version``, ``applied_at``), in ``games.sqlite``
(SQLite) or in ``DICELOG_POSTGRES_SCHEMA`` (PostgreSQL). A store without that table (created by a
release before schema versioning, or empty) is at version 0.

- ``dicelog migrate`` (``migrate``) applies, in order, every migration newer than the store's
  version and records each; every migration is idempotent (``CREATE ... IF NOT EXISTS``), so running
  it twice, or on a store whose tables exist but whose version was never recorded, is harmless. On
  PostgreSQL, migrators hold an advisory lock (per schema), so two at once apply each migration once.
- ``dicelog serve`` / ``dicelog worker`` call ``ensure_schema`` before they start: a store newer than
  this code refuses (``SchemaTooNew``: an older release must not write to a schema it does not
  know); an older one is migrated when ``DICELOG_AUTO_MIGRATE=true`` (the default, right for the
  embedded SQLite setup), and refused otherwise (``SchemaNotMigrated``). Production sets
  ``DICELOG_AUTO_MIGRATE=false`` and runs ``dicelog migrate`` once per release (a Kubernetes Job)
  before the new API and worker start, so N replicas never race on DDL.

Migrations (``MIGRATIONS``):

1. the tables of release 0.1: the games' event store and snapshots (eventsourcing's application
   recorder: PostgreSQL ``games_events``, ``games_snapshots``; SQLite ``games.sqlite``), the
   projections' views and checkpoints (``initiative``, ``board``, ``log``: PostgreSQL
   ``<name>_documents``/``log_lines`` and ``<name>_tracking``; SQLite ``projection_<name>.sqlite``)
   and the Redis publisher's checkpoint (``publisher_tracking``; SQLite ``projection_publisher.sqlite``).

2. ``dicelog_first_events``: a partial index of the games' events at version 1 in notification order
   (creations of games and campaigns, the service's one-event records), from which ``GET /games``
   reads the creations (``dicelog.service.store.reads.creations``): a page's cost no longer grows
   with the events stored between the creations it lists.

3. ``audit_index``: the audit index projection's documents and checkpoint (PostgreSQL
   ``audit_index_documents``, ``audit_index_tracking``; SQLite ``projection_audit_index.sqlite``): each
   game's turn and round starts and undo ranges, so that a process reading a long game for the first
   time does not fold its whole log (``dicelog.projections.audit_index``).

4. ``dicelog_workers`` and ``dicelog_partition_leases`` (PostgreSQL only; SQLite has one process that
   follows the log): the workers' heartbeats and who holds which partition of games
   (``dicelog.service.store.partitions``, ``DICELOG_PARTITIONS``).

A new migration appends ``Migration(version, description, apply)`` (``SCHEMA_VERSION`` follows). It
must be idempotent and only add (tables, indexes, columns with defaults), so that processes of the
previous release still running during a rollout keep working.
"""

from __future__ import annotations

import fcntl
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from importlib import metadata
from typing import Any, NamedTuple

import msgspec
from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.utils import Environment

from dicelog.service.ops.settings import Settings
from dicelog.service.store.projection_store import open_tracking, open_views
from dicelog.service.store.reads import FIRST_EVENTS_INDEX

GAMES_APPLICATION = "Games"
"""The name of the games' eventsourcing application (``Games.name``), which names its tables."""

VERSION_TABLE = "dicelog_schema_version"


class Migration(NamedTuple):
    """One step of the schema: ``apply(settings)`` is idempotent."""

    version: int
    description: str
    apply: Callable[[Settings], None]


class MigrationReport(NamedTuple):
    """What ``migrate`` did: the version before and after, and the migrations applied."""

    before: int
    after: int
    applied: list[Migration]


class SchemaError(Exception):
    """The store's schema version does not fit this code (see the subclasses)."""


class SchemaTooNew(SchemaError):
    """The store was migrated by a newer dicelog: this one refuses to use it."""


class SchemaNotMigrated(SchemaError):
    """The store is older than this code and ``DICELOG_AUTO_MIGRATE`` is off: run ``dicelog migrate``."""


def dicelog_version() -> str:
    """The installed dicelog's version (``unknown`` when run from a source tree not installed)."""
    try:
        return metadata.version("dicelog")
    except metadata.PackageNotFoundError:
        return "unknown"


def _create_release_0_1_tables(settings: Settings) -> None:
    """The tables of the games' application (``dicelog.service.app.games.Games``, named ``Games``: its
    events and snapshots, made by the eventsourcing library's factory as the application makes them),
    the projections' views and checkpoints and the publisher's checkpoint."""
    settings = msgspec.structs.replace(settings, auto_migrate=True)
    factory = InfrastructureFactory.construct(Environment(GAMES_APPLICATION, settings.library_env("games")))
    factory.application_recorder()
    factory.aggregate_recorder("snapshots")
    factory.close()
    for view in open_views(settings, create=True).values():
        view.datastore.close()
    open_tracking(settings, "publisher", create=True).datastore.close()


def _create_views(settings: Settings) -> None:
    """The projections' views that do not exist yet
    (``dicelog.service.store.projection_store.open_views``)."""
    for view in open_views(msgspec.structs.replace(settings, auto_migrate=True), create=True).values():
        view.datastore.close()


def _index_first_events(settings: Settings) -> None:
    """A partial index of the games' events at version 1 in notification order (``GET /games`` reads the
    creations from it: ``dicelog.service.store.reads.creations``). Building it reads the events table
    once; on PostgreSQL writes to it wait meanwhile (not ``CONCURRENTLY``, which waits for every open
    transaction of the database, however unrelated, and leaves an invalid index when interrupted)."""
    if settings.store == "sqlite":
        conn = sqlite3.connect(_sqlite_path(settings), timeout=settings.sqlite_lock_timeout)
        try:
            conn.execute(
                f"CREATE INDEX IF NOT EXISTS {FIRST_EVENTS_INDEX} ON stored_events (originator_version) "
                "WHERE originator_version = 1"
            )
            conn.commit()
        finally:
            conn.close()
        return
    from psycopg.sql import SQL, Identifier

    with _pg(settings) as conn:
        conn.execute(
            SQL(
                "CREATE INDEX IF NOT EXISTS {0} ON {1} (notification_id) WHERE originator_version = 1"
            ).format(Identifier(FIRST_EVENTS_INDEX), Identifier(settings.postgres_schema, "games_events"))
        )


def _create_lease_tables(settings: Settings) -> None:
    """The workers' heartbeats and partition leases (``dicelog.service.store.partitions``); PostgreSQL
    only."""
    if settings.store == "sqlite":
        return
    from dicelog.service.store.partitions import create_statements

    with _pg(settings) as conn:
        for statement in create_statements(settings.postgres_schema):
            conn.execute(statement)


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "games event store and snapshots, projection views and checkpoints, publisher checkpoint",
        _create_release_0_1_tables,
    ),
    Migration(
        2, "index of the games' first events (GET /games reads creations from it)", _index_first_events
    ),
    Migration(
        3, "the audit index read model (each game's turn and round starts and undo ranges)", _create_views
    ),
    Migration(4, "the workers' heartbeats and partition leases (DICELOG_PARTITIONS)", _create_lease_tables),
)
SCHEMA_VERSION = MIGRATIONS[-1].version
"""The schema version this code reads and writes."""


# --- the version table ---------------------------------------------------------------------------


def _sqlite_path(settings: Settings) -> Any:
    return settings.data_dir / "games.sqlite"


def store_exists(settings: Settings) -> bool:
    """Whether the configured store holds dicelog's event store (SQLite: ``games.sqlite`` in the data
    directory; PostgreSQL: the ``games_events`` table in the schema). Creates nothing. Raises the
    driver's connection errors (``psycopg.OperationalError``) when PostgreSQL is unreachable."""
    if settings.store == "sqlite":
        return _sqlite_path(settings).is_file()
    with _pg(settings) as conn:
        row = conn.execute(
            "SELECT 1 FROM information_schema.tables WHERE table_schema = %s AND table_name = 'games_events'",
            (settings.postgres_schema,),
        ).fetchone()
    return row is not None


@contextmanager
def _pg(settings: Settings) -> Iterator[Any]:
    """A plain autocommit connection (not from the pool), with the connect timeout."""
    import psycopg

    with psycopg.connect(
        host=settings.postgres_host,
        port=settings.postgres_port,
        dbname=settings.postgres_dbname,
        user=settings.postgres_user,
        password=settings.postgres_password or None,
        connect_timeout=settings.postgres_connect_timeout,
        autocommit=True,
    ) as conn:
        yield conn


def _pg_table(settings: Settings) -> Any:
    from psycopg.sql import Identifier

    return Identifier(settings.postgres_schema, VERSION_TABLE)


def schema_version(settings: Settings) -> int:
    """The store's schema version: the newest recorded migration, 0 when none is (or when there is
    no store yet). Creates nothing."""
    if settings.store == "sqlite":
        path = _sqlite_path(settings)
        if not path.is_file():
            return 0
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return int(conn.execute(f"SELECT coalesce(max(version), 0) FROM {VERSION_TABLE}").fetchone()[0])
        except sqlite3.OperationalError as e:
            if "no such table" in str(e):
                return 0
            raise
        finally:
            conn.close()
    from psycopg.sql import SQL

    with _pg(settings) as conn:
        exists = conn.execute(
            "SELECT 1 FROM information_schema.tables WHERE table_schema = %s AND table_name = %s",
            (settings.postgres_schema, VERSION_TABLE),
        ).fetchone()
        if exists is None:
            return 0
        row = conn.execute(
            SQL("SELECT coalesce(max(version), 0) FROM {0}").format(_pg_table(settings))
        ).fetchone()
        return int(row[0])


@contextmanager
def _migration_lock(settings: Settings) -> Iterator[Callable[[Migration], None]]:
    """Hold the store's migration lock; yields ``record(migration)``, which stores a migration as applied.

    SQLite: an exclusive ``flock`` on ``migrate.lock`` in the data directory. PostgreSQL: a
    session advisory lock keyed by the schema, held on its own connection (not one of the pool's,
    and outside any transaction, so no idle-in-transaction timeout ends it)."""
    now = lambda: datetime.now(UTC).isoformat()  # noqa: E731
    if settings.store == "sqlite":
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        with open(settings.data_dir / "migrate.lock", "wb") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            conn = sqlite3.connect(_sqlite_path(settings), timeout=10)
            try:
                conn.execute(
                    f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version INTEGER PRIMARY KEY, "
                    "description TEXT NOT NULL, dicelog_version TEXT NOT NULL, applied_at TEXT NOT NULL)"
                )
                conn.commit()

                def record_sqlite(m: Migration) -> None:
                    conn.execute(
                        f"INSERT OR IGNORE INTO {VERSION_TABLE} VALUES (?, ?, ?, ?)",
                        (m.version, m.description, dicelog_version(), now()),
                    )
                    conn.commit()

                yield record_sqlite
            finally:
                conn.close()
        return
    from psycopg.sql import SQL

    table = _pg_table(settings)
    key = f"dicelog-migrate:{settings.postgres_schema}"
    with _pg(settings) as conn:
        conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (key,))
        try:
            conn.execute(
                SQL(
                    "CREATE TABLE IF NOT EXISTS {0} (version integer PRIMARY KEY, description text NOT NULL, "
                    "dicelog_version text NOT NULL, applied_at timestamptz NOT NULL)"
                ).format(table)
            )

            def record_pg(m: Migration) -> None:
                conn.execute(
                    SQL("INSERT INTO {0} VALUES (%s, %s, %s, now()) ON CONFLICT DO NOTHING").format(table),
                    (m.version, m.description, dicelog_version()),
                )

            yield record_pg
        finally:
            conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (key,))


def migrate(settings: Settings) -> MigrationReport:
    """Apply every migration newer than the store's version, in order, recording each.

    Idempotent: a second run applies nothing. Raises ``SchemaTooNew`` when the store is newer than
    this code, and the store's own errors (``sqlite3``/``psycopg``/eventsourcing ``PersistenceError``)."""
    with _migration_lock(settings) as record:
        before = schema_version(settings)
        if before > SCHEMA_VERSION:
            raise SchemaTooNew(_too_new(settings, before))
        applied = []
        for migration in MIGRATIONS:
            if migration.version > before:
                migration.apply(settings)
                record(migration)
                applied.append(migration)
    return MigrationReport(before=before, after=max(before, SCHEMA_VERSION), applied=applied)


def ensure_schema(settings: Settings) -> int:
    """Make sure the store's schema is the one this code uses before a process starts on it; returns
    the version.

    Newer: raises ``SchemaTooNew``. Older (or no store yet): migrates when ``settings.auto_migrate``,
    else raises ``SchemaNotMigrated``. Costs one query when the schema is current."""
    current = schema_version(settings)
    if current > SCHEMA_VERSION:
        raise SchemaTooNew(_too_new(settings, current))
    if current < SCHEMA_VERSION:
        if not settings.auto_migrate:
            raise SchemaNotMigrated(
                f"the store ({settings.describe_store()}) is at schema version {current}, this dicelog needs "
                f"{SCHEMA_VERSION}: run `dicelog migrate` (DICELOG_AUTO_MIGRATE is false)"
            )
        migrate(settings)
    return SCHEMA_VERSION


def _too_new(settings: Settings, version: int) -> str:
    return (
        f"the store ({settings.describe_store()}) is at schema version {version}, newer than this dicelog "
        f"({dicelog_version()}, schema version {SCHEMA_VERSION}) knows: run the dicelog release that "
        "migrated it"
    )
