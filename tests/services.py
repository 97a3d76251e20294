"""Access to the real PostgreSQL and Redis of the machine for tests.

Tests that need a service skip when it is unreachable, unless ``REQUIRE_SERVICES=1`` (as in CI),
in which case they fail: CI must never pass with those tests silently skipped.
"""

from __future__ import annotations

import os
import shutil
import uuid

import pytest

PG = {"host": "127.0.0.1", "port": 5432, "dbname": "test", "user": "postgres"}


def _unavailable(what: str, why: object) -> None:
    if os.environ.get("REQUIRE_SERVICES") == "1":
        pytest.fail(f"{what} is required (REQUIRE_SERVICES=1) but unavailable: {why}")
    pytest.skip(f"{what} unavailable: {why}")


def postgres_schema() -> str:
    """Create a fresh schema in the test database and return its name."""
    try:
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(**PG, connect_timeout=3, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return name
    except Exception as e:
        _unavailable("PostgreSQL at 127.0.0.1:5432 (database test)", e)
        raise


def drop_postgres_schema(name: str) -> None:
    import psycopg

    with psycopg.connect(**PG, connect_timeout=3, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")


def redis_server_binary() -> str:
    path = shutil.which("redis-server")
    if path is None:
        _unavailable("redis-server binary", "not on PATH")
    return path  # type: ignore[return-value]


def pgbouncer_binary() -> str:
    """PgBouncer's executable (Debian installs it in /usr/sbin, often not on a user's PATH)."""
    path = shutil.which("pgbouncer") or next(
        (p for p in ("/usr/sbin/pgbouncer", "/usr/bin/pgbouncer") if os.access(p, os.X_OK)), None
    )
    if path is None:
        _unavailable("pgbouncer binary", "not on PATH nor in /usr/sbin")
    return path  # type: ignore[return-value]
