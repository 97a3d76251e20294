"""API test fixtures: the real app on SQLite (always) and on PostgreSQL (``postgres`` marker)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from dicelog.service.http.app import create_app
from dicelog.service.ops.settings import Settings
from tests.services import PG, drop_postgres_schema, postgres_schema

MICE = ["collin", "filch", "maginos", "nez"]
SEATS = [{"name": "red", "controls": ["collin", "filch"]}, {"name": "blue", "controls": ["maginos", "nez"]}]


NO_QUOTAS = {"rate_limit_create": "off", "rate_limit_commands": "off", "rate_limit_expensive": "off"}
"""Tests play whole games quickly; the quotas have their own tests (test_quotas.py)."""
IN_PROCESS = {"embedded_worker": "thread"}
"""The projections as threads of the app under test (a ``TestClient`` app); the child process of the
default has its own tests (``tests/integration/test_embedded_worker.py``)."""


def settings_for(backend: str, tmp_path: Path) -> tuple[Settings, str | None]:
    if backend == "sqlite":
        return Settings(data_dir=tmp_path, snapshot_interval=10, **NO_QUOTAS, **IN_PROCESS), None
    schema = postgres_schema()
    return (
        Settings(
            store="postgres",
            postgres_host=PG["host"],
            postgres_port=PG["port"],
            postgres_dbname=PG["dbname"],
            postgres_user=PG["user"],
            postgres_schema=schema,
            snapshot_interval=10,
            **NO_QUOTAS,
            **IN_PROCESS,
        ),
        schema,
    )


STORES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
STORE_INDEPENDENT = {
    "test_chapter_1_api",
    "test_dice_by_symbols",
    "test_legal_commands",
    "test_sandbox_api",
    "test_table_defaults",
    "test_table_device",
    "test_vast_api",
    "test_vast_thief_api",
}
"""Modules whose tests play rules through the API and read back what a request answered: nothing in
them differs between the stores (no projection, stream, migration, transaction or store limit), so
they run on SQLite only (docs/testing.md). Every other module's ``client`` and ``race`` tests run on
both stores; a test may still name its store with ``@pytest.mark.parametrize("backend", [...])``."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" not in metafunc.fixturenames:
        return
    for mark in metafunc.definition.iter_markers("parametrize"):
        names = mark.args[0]
        if "backend" in ([n.strip() for n in names.split(",")] if isinstance(names, str) else names):
            return  # the test names its store
    independent = metafunc.module.__name__.rsplit(".", 1)[-1] in STORE_INDEPENDENT
    metafunc.parametrize("backend", STORES[:1] if independent else STORES, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def client(backend: str, tmp_path: Path) -> Iterator[TestClient[Any]]:
    settings, schema = settings_for(backend, tmp_path)
    try:
        with TestClient(create_app(settings)) as c:
            yield c
    finally:
        if schema:
            drop_postgres_schema(schema)


@pytest.fixture
def race(backend: str, tmp_path: Path) -> Iterator[TestClient[Any]]:
    """The app serving the core's small ``race`` ruleset too (it ends in a few rolls)."""
    settings, schema = settings_for(backend, tmp_path)
    try:
        with TestClient(create_app(settings, rulesets=("mice-and-mystics", "race"))) as c:
            yield c
    finally:
        if schema:
            drop_postgres_schema(schema)


class Table:
    """A game created through the API, with its seats' tokens."""

    def __init__(
        self, client: TestClient[Any], dice_mode: str = "server", visibility: str = "unlisted"
    ) -> None:
        self.client = client
        body = {
            "ruleset": "mice-and-mystics",
            "setup": {"chapter": "chapter-1", "mice": MICE},
            "seats": SEATS,
            "dice_mode": dice_mode,
            "visibility": visibility,
        }
        r = client.post("/games", json=body)
        assert r.status_code == 201, r.text
        body = r.json()
        self.id = body["game"]["id"]
        self.tokens = {t["seat"]: t["token"] for t in body["tokens"]}
        self.spectator_token, self.auditor_token = body["spectator_token"], body["auditor_token"]
        self.game = body["game"]

    def auth(self, seat: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def seat_of(self, mouse: str) -> str:
        return next(s["name"] for s in SEATS if mouse in s["controls"])

    def send(self, seat: str, command: dict[str, Any], **extra: Any) -> Any:
        headers = {**self.auth(seat), **extra.pop("headers", {})}
        return self.client.post(
            f"/games/{self.id}/commands", json={"command": command, **extra}, headers=headers
        )

    def summary(self) -> dict[str, Any]:
        return self.client.get(f"/games/{self.id}").json()

    def events(self) -> list[dict[str, Any]]:
        return self.client.get(f"/games/{self.id}/events", params={"limit": 1000}).json()["events"]
