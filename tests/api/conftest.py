"""API test fixtures: the real app on SQLite (always) and on PostgreSQL (``postgres`` marker)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
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


SHARED_APP = {
    "test_campaign_api",
    "test_campaign_history_api",
    "test_chapter_1_api",
    "test_contract_details",
    "test_dice_by_symbols",
    "test_fair_forks",
    "test_games_api",
    "test_http_caching",
    "test_legal_commands",
    "test_player_choices_api",
    "test_replay_audit",
    "test_sandbox_api",
    "test_table_defaults",
    "test_table_device",
    "test_vast_api",
    "test_verifiable_secrets",
    "test_wrong_kind_ids",
}
"""Modules whose tests each create their own games and read back only those: one app (and store) per
module and store serves all their ``client`` and ``race`` tests, instead of one per test (building
and starting an app costs more than most of these tests' requests; docs/testing.md). A test of
such a module that needs an app of its own (an empty store, its data directory) is marked
``fresh_app``."""


def _module(node: Any) -> str:
    return node.module.__name__.rsplit(".", 1)[-1]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" not in metafunc.fixturenames:
        return
    if _names_its_store(metafunc.definition):
        return
    module = _module(metafunc)
    stores = STORES[:1] if module in STORE_INDEPENDENT else STORES
    # A module-scoped store parameter groups a SHARED_APP module's tests by store, so each store's
    # app is built once.
    scope = "module" if module in SHARED_APP else "function"
    metafunc.parametrize("backend", stores, indirect=True, scope=scope)


@pytest.fixture(scope="module")
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


def _names_its_store(definition: Any) -> bool:
    for mark in definition.iter_markers("parametrize"):
        names = mark.args[0]
        if "backend" in ([n.strip() for n in names.split(",")] if isinstance(names, str) else names):
            return True
    return False


def _shared(request: pytest.FixtureRequest) -> bool:
    """Whether this test runs on its module's app: a SHARED_APP module's test, unless it is marked
    ``fresh_app`` or names its store (its own parameter, not the module's)."""
    node = request.node
    return (
        _module(request) in SHARED_APP
        and node.get_closest_marker("fresh_app") is None
        and node.get_closest_marker("worker_off") is None
        and not _names_its_store(node)
    )


@contextmanager
def _app_client(
    backend: str, data_dir: Path, rulesets: tuple[str, ...] | None, worker: bool = True
) -> Iterator[TestClient[Any]]:
    settings, schema = settings_for(backend, data_dir)
    if not worker:
        settings = msgspec.structs.replace(settings, embedded_worker="off")
    try:
        with TestClient(create_app(settings, rulesets=rulesets)) as c:
            yield c
    finally:
        if schema:
            drop_postgres_schema(schema)


@pytest.fixture(scope="module")
def module_client(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient[Any]]:
    """The app a SHARED_APP module's ``client`` tests share, on ``backend``."""
    with _app_client(backend, tmp_path_factory.mktemp("app"), None) as c:
        yield c


@pytest.fixture(scope="module")
def module_race(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient[Any]]:
    """The app a SHARED_APP module's ``race`` tests share, on ``backend``."""
    with _app_client(backend, tmp_path_factory.mktemp("app"), RACE_RULESETS) as c:
        yield c


@pytest.fixture
def client(request: pytest.FixtureRequest, backend: str, tmp_path: Path) -> Iterator[TestClient[Any]]:
    """The app on ``backend`` (its data directory ``tmp_path`` unless shared by its module)."""
    if _shared(request):
        yield request.getfixturevalue("module_client")
        return
    worker = request.node.get_closest_marker("worker_off") is None
    with _app_client(backend, tmp_path, None, worker) as c:
        yield c


RACE_RULESETS = ("mice-and-mystics", "race")


@pytest.fixture
def race(request: pytest.FixtureRequest, backend: str, tmp_path: Path) -> Iterator[TestClient[Any]]:
    """The app serving the core's small ``race`` ruleset too (it ends in a few rolls)."""
    if _shared(request):
        yield request.getfixturevalue("module_race")
        return
    with _app_client(backend, tmp_path, RACE_RULESETS) as c:
        yield c


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
