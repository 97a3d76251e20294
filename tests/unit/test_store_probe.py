"""The store's write probe of ``GET /ready`` and the reasons of a 503, in-process
(``dicelog.service.ops.faults``, module docstring: The write probe): a writable store passes, a store that
cannot write raises ``StoreNotWritable`` with its reason, and a pooled PostgreSQL connection found dead is
replaced once."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from eventsourcing.popo import POPOApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

from dicelog.service.ops.faults import StoreNotWritable, probe_store, reason_of
from dicelog.service.store.write_lane import WriteLaneBusy
from tests.services import PG, drop_postgres_schema, postgres_schema


def test_a_write_that_waited_too_long_for_the_lane_is_busy():
    assert reason_of(WriteLaneBusy("waited 5 s for the write lane")) == "busy"


def test_a_psycopg_interface_error_is_a_lost_connection_whatever_its_words():
    import psycopg

    assert reason_of(psycopg.InterfaceError("something odd happened")) == "connection-lost"
    wrapped = RuntimeError("store failed")
    wrapped.__cause__ = psycopg.InterfaceError("the cursor is gone")
    assert reason_of(wrapped) == "connection-lost"


def test_an_in_memory_store_passes_by_reading_and_fails_with_the_reason_of_its_error():
    probe_store(POPOApplicationRecorder())

    class Locked(POPOApplicationRecorder):
        def max_notification_id(self) -> int | None:
            raise sqlite3.OperationalError("database is locked")

    with pytest.raises(StoreNotWritable) as raised:
        probe_store(Locked())
    assert raised.value.reason == "locked"
    assert str(raised.value) == "locked: OperationalError: database is locked"


def test_a_sqlite_store_that_can_write_passes_and_a_read_only_one_is_refused_and_left_unlocked(
    tmp_path: Path,
):
    path = tmp_path / "games.db"
    recorder = SQLiteApplicationRecorder(SQLiteDatastore(str(path)))
    recorder.create_table()
    probe_store(recorder)
    read_only = SQLiteApplicationRecorder(SQLiteDatastore(f"file:{path}?mode=ro"))
    with pytest.raises(StoreNotWritable) as raised:
        probe_store(read_only)
    assert raised.value.reason == "read-only"
    assert str(raised.value) == "read-only: OperationalError: attempt to write a readonly database"
    probe_store(recorder)  # the failed probe rolled back: the write lock is free again


@pytest.fixture
def schema() -> Iterator[str]:
    name = postgres_schema()
    try:
        yield name
    finally:
        drop_postgres_schema(name)


def _postgres_recorder(schema: str, create: bool = True):
    from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

    datastore = PostgresDatastore(
        dbname=PG["dbname"],
        host=PG["host"],
        port=PG["port"],
        user=PG["user"],
        password="",
        schema=schema,
        connect_timeout=3,
    )
    recorder = PostgresApplicationRecorder(datastore)
    if create:
        recorder.create_table()
    return recorder


def _rows(schema: str) -> int:
    import psycopg

    with psycopg.connect(**PG, connect_timeout=3, autocommit=True) as conn:
        row = conn.execute(f"SELECT count(*) FROM {schema}.stored_events").fetchone()
    return int(row[0]) if row else -1


@pytest.mark.postgres
def test_a_postgres_store_that_can_write_passes_and_keeps_no_row(schema):
    recorder = _postgres_recorder(schema)
    try:
        probe_store(recorder)
        probe_store(recorder)
        assert _rows(schema) == 0
    finally:
        recorder.datastore.close()


@pytest.mark.postgres
def test_a_postgres_store_without_its_events_table_is_refused(schema):
    recorder = _postgres_recorder(schema, create=False)
    try:
        with pytest.raises(StoreNotWritable) as raised:
            probe_store(recorder)
        assert raised.value.reason == "unavailable"
        assert str(raised.value).startswith("unavailable: UndefinedTable: ")
    finally:
        recorder.datastore.close()


@pytest.mark.postgres
def test_a_pooled_postgres_connection_killed_while_idle_is_replaced_once(schema):
    import psycopg

    recorder = _postgres_recorder(schema)
    try:
        with recorder.datastore.pool.connection() as conn:
            row = conn.execute("SELECT pg_backend_pid() AS pid").fetchone()
        assert row is not None
        pid = row["pid"]  # the library's connections give rows as dicts
        with psycopg.connect(**PG, connect_timeout=3, autocommit=True) as admin:
            assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone() == (True,)
        probe_store(recorder)  # the dead connection fails the first attempt; a fresh one passes
        assert _rows(schema) == 0
    finally:
        recorder.datastore.close()
