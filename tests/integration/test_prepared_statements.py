"""``DICELOG_POSTGRES_PREPARED_STATEMENTS`` (``dicelog.service.store.persistence``): with ``false``,
no connection of the process's pool prepares a statement on the server, even where the eventsourcing
library asks for it (``prepare=True``), as a transaction-pooling PgBouncer older than 1.21 needs
(docs/operations.md, "PgBouncer"; the live run is ``tests/integration/test_pgbouncer.py``). With the
default, statements are prepared as before."""

from __future__ import annotations

import pytest
from eventsourcing.utils import Environment

from dicelog.service.ops.settings import Settings
from dicelog.service.store.persistence import SharedPostgresFactory
from tests.faults.support import postgres_env

pytestmark = pytest.mark.postgres


def _prepared_on_the_server(schema: str, setting: str | None) -> int:
    """Run one statement twice with ``prepare=True`` on a connection of the process's pool; return how
    many statements that server session holds prepared (``pg_prepared_statements``)."""
    environ = postgres_env(schema)
    if setting is not None:
        environ["DICELOG_POSTGRES_PREPARED_STATEMENTS"] = setting
    settings = Settings.from_env(environ)
    assert settings.postgres_prepared_statements is (setting != "false")
    factory = SharedPostgresFactory(Environment("Games", settings.library_env("Games")))
    try:
        with factory.datastore.get_connection() as conn:
            for _ in range(2):
                conn.execute("SELECT %s::int + 1 AS n", (1,), prepare=True)
            row = conn.execute("SELECT count(*) AS n FROM pg_prepared_statements", prepare=False).fetchone()
            return int(row["n"])
    finally:
        factory.close()


def test_prepared_statements_off_prepares_nothing_on_the_server(schema: str) -> None:
    assert _prepared_on_the_server(schema, "false") == 0


def test_prepared_statements_are_on_by_default(schema: str) -> None:
    assert _prepared_on_the_server(schema, None) >= 1
