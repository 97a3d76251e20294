"""Fixtures shared by the integration tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.services import drop_postgres_schema, postgres_schema


@pytest.fixture
def schema() -> Iterator[str]:
    """A fresh PostgreSQL schema of the test database (``tests/services.py``), dropped afterwards."""
    name = postgres_schema()
    try:
        yield name
    finally:
        drop_postgres_schema(name)
