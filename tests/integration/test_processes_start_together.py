"""Processes that start at the same moment on one PostgreSQL store (two ``dicelog worker``s, N ``dicelog
serve`` replicas) all start: only ``ensure_schema`` creates and upgrades tables, under the migration lock
(``dicelog.service.store.migrations``), and a process then runs no DDL of its own. With the library's
CREATE_TABLE on, each process re-ran the library's ``CREATE OR REPLACE FUNCTION`` and two at once could end
one of them with "tuple concurrently updated" (seen in ``test_partitioned_workers``)."""

from __future__ import annotations

import threading
from pathlib import Path

import msgspec
import pytest

from dicelog.service.http.app import Runtime
from dicelog.service.store.migrations import migrate
from tests.api.conftest import settings_for
from tests.services import drop_postgres_schema

pytestmark = [pytest.mark.postgres]

PROCESSES = 6


def test_runtimes_starting_together_on_one_store_all_start_and_run_no_ddl(tmp_path: Path) -> None:
    settings, schema = settings_for("postgres", tmp_path)
    settings = msgspec.structs.replace(settings, embedded_worker="off")
    try:
        migrate(settings)
        barrier = threading.Barrier(PROCESSES)
        started: list[Runtime] = []
        errors: list[BaseException] = []

        def start() -> None:
            barrier.wait()
            try:
                started.append(Runtime(settings))
            except BaseException as e:  # noqa: BLE001  # the test reports every failure to start
                errors.append(e)

        threads = [threading.Thread(target=start) for _ in range(PROCESSES)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert not errors, errors
        assert len(started) == PROCESSES
        assert all(r.settings.library_env("games")["CREATE_TABLE"] == "no" for r in started)
        for r in started:
            r.close()
    finally:
        if schema:
            drop_postgres_schema(schema)
