"""Schema versioning (``service/store/migrations.py``, ``dicelog migrate``): idempotent migrations, a recorded
version, and processes that refuse a schema they do not know."""

from __future__ import annotations

import json
import shutil
import sqlite3
import threading
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
import pytest
from litestar.testing import TestClient

from dicelog.service.cli.main import EXIT_OK, EXIT_SCHEMA, main
from dicelog.service.http.app import create_app
from dicelog.service.ops.settings import Settings
from dicelog.service.store.migrations import (
    SCHEMA_VERSION,
    VERSION_TABLE,
    SchemaNotMigrated,
    SchemaTooNew,
    ensure_schema,
    migrate,
    schema_version,
)
from tests.api.conftest import Table, settings_for
from tests.services import PG, drop_postgres_schema

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@pytest.fixture
def store(backend: str, tmp_path: Path) -> Any:
    """Settings of an empty store on ``backend`` (a fresh data directory or PostgreSQL schema)."""
    settings, schema = settings_for(backend, tmp_path / "data")
    try:
        yield settings
    finally:
        if schema:
            drop_postgres_schema(schema)


def _tables(settings: Settings) -> dict[str, list[str]]:
    """Every table of the store, with its columns (SQLite: by file)."""
    if settings.store == "sqlite":
        found = {}
        for path in sorted(settings.data_dir.glob("*.sqlite")):
            with sqlite3.connect(path) as conn:
                names = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                for (name,) in names.fetchall():
                    columns = [row[1] for row in conn.execute(f"PRAGMA table_info({name})")]
                    found[f"{path.name}:{name}"] = columns
        return found
    import psycopg

    with psycopg.connect(**PG) as conn:
        rows = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = %s "
            "ORDER BY table_name, ordinal_position",
            (settings.postgres_schema,),
        ).fetchall()
    found: dict[str, list[str]] = {}
    for table, column in rows:
        found.setdefault(table, []).append(column)
    return found


def _version_rows(settings: Settings) -> list[tuple[Any, ...]]:
    if settings.store == "sqlite":
        with sqlite3.connect(settings.data_dir / "games.sqlite") as conn:
            rows = conn.execute(f"SELECT version, description FROM {VERSION_TABLE} ORDER BY version")
            return rows.fetchall()
    import psycopg

    with psycopg.connect(**PG) as conn:
        return conn.execute(
            f"SELECT version, description FROM {settings.postgres_schema}.{VERSION_TABLE} ORDER BY version"
        ).fetchall()


def _set_version(settings: Settings, version: int) -> None:
    """Record ``version`` as applied, as a newer dicelog's migrate would."""
    values = (version, "from a newer dicelog", "9.9.9")
    if settings.store == "sqlite":
        with sqlite3.connect(settings.data_dir / "games.sqlite") as conn:
            conn.execute(f"INSERT INTO {VERSION_TABLE} VALUES (?, ?, ?, 'now')", values)
        return
    import psycopg

    with psycopg.connect(**PG) as conn:
        table = f"{settings.postgres_schema}.{VERSION_TABLE}"
        conn.execute(f"INSERT INTO {table} VALUES (%s, %s, %s, now())", values)


def test_migrate_creates_every_table_once_and_a_second_run_changes_nothing(store: Settings) -> None:
    assert schema_version(store) == 0
    first = migrate(store)
    assert (first.before, first.after, [m.version for m in first.applied]) == (
        0,
        SCHEMA_VERSION,
        [1, 2, 3, 4],
    )
    tables = _tables(store)
    names = {name.rsplit(":", 1)[-1] for name in tables}
    if store.store == "postgres":
        expected = {
            "games_events",
            "games_snapshots",
            "initiative_documents",
            "initiative_tracking",
            "board_documents",
            "board_tracking",
            "log_lines",
            "log_tracking",
            "audit_index_documents",
            "audit_index_tracking",
            "publisher_tracking",
            "dicelog_workers",
            "dicelog_partition_leases",
        }
    else:
        expected = {"stored_events", "stored_snapshots", "documents", "log_lines", "tracking"}
    assert expected | {VERSION_TABLE} <= names, names
    again = migrate(store)
    assert (again.before, again.after, again.applied) == (SCHEMA_VERSION, SCHEMA_VERSION, [])
    assert _tables(store) == tables
    assert [v for v, _ in _version_rows(store)] == list(range(1, SCHEMA_VERSION + 1))


def test_the_app_runs_on_a_migrated_store_without_creating_tables_itself(store: Settings) -> None:
    migrate(store)
    tables = _tables(store)
    settings = msgspec.structs.replace(store, auto_migrate=False)
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        mouse = table.summary()["turn"]
        assert table.send(table.seat_of(mouse), {"type": "EndTurn", "mouse": mouse}).status_code == 201
        assert client.post(f"/games/{table.id}/verify").json()["verification"]["ok"]
    assert _tables(store) == tables


def test_two_migrations_at_once_apply_each_migration_once(store: Settings) -> None:
    errors: list[BaseException] = []
    barrier = threading.Barrier(3)

    def run() -> None:
        try:
            barrier.wait()
            migrate(store)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert [v for v, _ in _version_rows(store)] == list(range(1, SCHEMA_VERSION + 1))


def test_a_store_newer_than_this_dicelog_is_refused_by_ensure_schema_serve_worker_and_migrate(
    store: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    migrate(store)
    _set_version(store, SCHEMA_VERSION + 1)
    with pytest.raises(SchemaTooNew, match=f"schema version {SCHEMA_VERSION + 1}, newer than this dicelog"):
        ensure_schema(store)
    with pytest.raises(SchemaTooNew):
        migrate(store)
    _point_cli_at(monkeypatch, store)
    for command in (["serve"], ["worker"], ["migrate"]):
        assert main(command) == EXIT_SCHEMA, command
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "newer than this dicelog" in err, (command, err)
    assert main(["migrate", "--check"]) == EXIT_SCHEMA


def test_without_auto_migrate_an_older_store_is_refused_until_dicelog_migrate_runs(
    store: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    manual = msgspec.structs.replace(store, auto_migrate=False)
    with pytest.raises(SchemaNotMigrated, match="run `dicelog migrate`"):
        ensure_schema(manual)
    _point_cli_at(monkeypatch, store)
    monkeypatch.setenv("DICELOG_AUTO_MIGRATE", "false")
    assert main(["worker"]) == EXIT_SCHEMA
    assert "run `dicelog migrate`" in capsys.readouterr().err
    assert schema_version(store) == 0
    assert main(["migrate"]) == EXIT_OK
    assert f"schema version {SCHEMA_VERSION} (migrated from version 0)" in capsys.readouterr().out
    assert main(["migrate"]) == EXIT_OK
    assert "(up to date)" in capsys.readouterr().out
    assert main(["migrate", "--check"]) == EXIT_OK
    assert ensure_schema(manual) == SCHEMA_VERSION
    assert ensure_schema(store) == SCHEMA_VERSION


def test_with_auto_migrate_the_first_start_creates_and_records_the_schema(store: Settings) -> None:
    assert ensure_schema(store) == SCHEMA_VERSION
    assert schema_version(store) == SCHEMA_VERSION


@pytest.mark.parametrize("backend", ["sqlite"])
def test_a_release_0_1_store_is_adopted_at_version_1_and_its_games_still_verify(
    backend: str, tmp_path: Path
) -> None:
    for path in (FIXTURES / "release-0.1-store").glob("*.sqlite"):
        shutil.copyfile(path, tmp_path / path.name)
    settings = Settings(data_dir=tmp_path)
    assert schema_version(settings) == 0
    assert migrate(settings).applied
    assert schema_version(settings) == SCHEMA_VERSION
    from dicelog.service.app.games import Games

    manifest = json.loads((FIXTURES / "release-0.1-store" / "manifest.json").read_text())
    games = Games(settings.library_env("games"), snapshot_interval=0)
    try:
        for entry in manifest["games"].values():
            assert games.verify(UUID(entry["id"])).ok
    finally:
        games.close()


def _point_cli_at(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> None:
    monkeypatch.setenv("DICELOG_STORE", settings.store)
    monkeypatch.setenv("DICELOG_DATA_DIR", str(settings.data_dir))
    monkeypatch.setenv("DICELOG_POSTGRES_HOST", settings.postgres_host)
    monkeypatch.setenv("DICELOG_POSTGRES_PORT", str(settings.postgres_port))
    monkeypatch.setenv("DICELOG_POSTGRES_DBNAME", settings.postgres_dbname)
    monkeypatch.setenv("DICELOG_POSTGRES_USER", settings.postgres_user)
    monkeypatch.setenv("DICELOG_POSTGRES_SCHEMA", settings.postgres_schema)


def test_migration_2_indexes_the_first_events_and_the_game_listing_reads_them_from_it(
    store: Settings,
) -> None:
    """Migration 2 (issue 12, reads in O(page)): ``GET /games`` reads the creations from a partial index
    of the events at version 1, so a cold first page does not walk the events stored between them."""
    from dicelog.service.app.games import GAME_CREATED_TOPICS, Games
    from dicelog.service.store.reads import FIRST_EVENTS_INDEX, creations, sqlite_creations

    migrate(store)
    if store.store == "sqlite":
        with sqlite3.connect(store.data_dir / "games.sqlite") as conn:
            (sql,) = conn.execute(
                "SELECT sql FROM sqlite_master WHERE name = ?", (FIRST_EVENTS_INDEX,)
            ).fetchone()
            assert "WHERE originator_version = 1" in sql
            statement = sqlite_creations("stored_events", len(GAME_CREATED_TOPICS))
            plan = conn.execute(
                f"EXPLAIN QUERY PLAN {statement}", (0, 10, *GAME_CREATED_TOPICS, 5)
            ).fetchall()
            assert any(FIRST_EVENTS_INDEX in row[-1] for row in plan), plan
            assert not any("TEMP B-TREE" in row[-1] for row in plan), plan
    else:
        import psycopg

        with psycopg.connect(**PG) as conn:
            row = conn.execute(
                "SELECT i.indisvalid, pg_get_indexdef(i.indexrelid) FROM pg_index i "
                "JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = %s AND c.relname = %s",
                (store.postgres_schema, FIRST_EVENTS_INDEX),
            ).fetchone()
        assert row is not None and row[0] and "WHERE (originator_version = 1)" in row[1], row
    games = Games(store.library_env("games"))
    try:
        assert creations(games.recorder, after=0, upto=10**9, limit=10, topics=GAME_CREATED_TOPICS) == []
    finally:
        games.close()
