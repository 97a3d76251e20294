"""Quotas (service/http/quotas.py): creations per client address, commands per bearer token.

The app is built by ``create_app``, which puts ``rate_limit_middleware(settings)`` in its
middleware; a refused request is a 429 problem+json with ``Retry-After`` and writes nothing.
"""

from __future__ import annotations

import hashlib
import inspect
import logging
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from litestar.testing import TestClient

from dicelog.service.cli.main import proxy_options
from dicelog.service.http import quotas
from dicelog.service.http.app import create_app
from dicelog.service.http.quotas import RATE_LIMITED, REDIS_NAMESPACE, STORE_NAME, rate_limit_middleware
from dicelog.service.ops.settings import Settings, parse_rate_limit
from tests.api.conftest import MICE, SEATS, Table
from tests.services import redis_server_binary

GAME = {"setup": {"chapter": "chapter-1", "mice": MICE}, "seats": SEATS}
CAMPAIGN = {"chapters": ["chapter-1"] * 2, "party": {"mice": MICE}, "seats": SEATS, "dice_mode": "manual"}

Client = TestClient[Any]


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Callable[..., Client]]:
    """``make_client(**settings)``: a client of a new app with those settings (SQLite in ``tmp_path``)."""
    with ExitStack() as stack:

        def make(**settings: Any) -> Client:
            settings.setdefault("data_dir", tmp_path / "data")
            settings.setdefault("embedded_worker", "thread")
            return stack.enter_context(TestClient(create_app(Settings(**settings))))

        yield make


def _written(client: Client) -> int:
    """The newest notification id of the event store: any write moves it."""
    return client.app.state.runtime.games.recorder.max_notification_id() or 0


def _assert_rate_limited(r: Any, quota: str, limit: int, window: int) -> None:
    assert r.status_code == 429, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert body["type"] == RATE_LIMITED and body["status"] == 429
    assert body["title"] and body["detail"]
    assert (body["quota"], body["limit"], body["window_seconds"]) == (quota, limit, window)
    assert 1 <= int(r.headers["retry-after"]) <= window
    assert r.headers["ratelimit-limit"] == str(limit) and r.headers["ratelimit-remaining"] == "0"


def _tokens(r: Any) -> list[str]:
    return [t["token"] for t in r.json()["tokens"]]


def test_the_third_creation_in_a_minute_is_a_429_problem_with_retry_after_and_creates_nothing(make_client):
    client = make_client(rate_limit_create="2/minute")
    first, second = client.post("/games", json=GAME), client.post("/games", json=GAME)
    assert first.status_code == second.status_code == 201
    assert first.headers["ratelimit-limit"] == "2" and second.headers["ratelimit-remaining"] == "0"
    written = _written(client)

    third = client.post("/games", json=GAME)

    _assert_rate_limited(third, "create", 2, 60)
    assert "tokens" not in third.json()
    assert _written(client) == written
    held = _tokens(first) + _tokens(second)
    assert len(held) == 2 * len(SEATS)


def test_games_campaigns_and_forks_share_the_creation_quota(make_client):
    client = make_client(rate_limit_create="3/minute")
    table = Table(client)
    version = table.summary()["version"]
    assert client.post("/campaigns", json=CAMPAIGN).status_code == 201
    fork = client.post(f"/games/{table.id}/forks", json={"version": version}, headers=table.auth("red"))
    assert fork.status_code == 201, fork.text
    written = _written(client)

    for path, body, headers in [
        ("/games", GAME, {}),
        ("/campaigns", CAMPAIGN, {}),
        (f"/games/{table.id}/forks", {"version": version}, table.auth("red")),
    ]:
        _assert_rate_limited(client.post(path, json=body, headers=headers), "create", 3, 60)
    assert _written(client) == written


def test_refused_and_malformed_creations_count_too(make_client):
    client = make_client(rate_limit_create="2/minute")
    assert client.post("/games", json={"seats": []}).status_code == 400
    assert client.post("/games", json=GAME).status_code == 201
    _assert_rate_limited(client.post("/games", json=GAME), "create", 2, 60)


def test_get_requests_are_never_limited(make_client):
    client = make_client(rate_limit_create="1/minute", rate_limit_commands="1/minute")
    table = Table(client)
    for _ in range(5):
        for path in [
            "/games",
            f"/games/{table.id}",
            f"/games/{table.id}/events",
            f"/games/{table.id}/legal-commands",
            "/health",
        ]:
            r = client.get(path, headers=table.auth("red"))
            assert r.status_code == 200, (path, r.text)
            assert "ratelimit-limit" not in r.headers
    _assert_rate_limited(client.post("/games", json=GAME), "create", 1, 60)


def test_commands_are_limited_per_token_and_a_refused_command_writes_nothing(make_client):
    client = make_client(rate_limit_commands="2/minute")
    table = Table(client)
    mouse = table.summary()["turn"]
    seat = table.seat_of(mouse)
    other = "blue" if seat == "red" else "red"
    not_mine = next(m for m in MICE if table.seat_of(m) == other)
    legal = client.get(f"/games/{table.id}/legal-commands", headers=table.auth(seat)).json()["commands"][0]
    # Commands the handler refuses count as well.
    assert table.send(seat, {"type": "Move", "mouse": not_mine}).status_code == 403
    assert table.send(seat, {"type": "Move", "mouse": not_mine}).status_code == 403
    written, version = _written(client), table.summary()["version"]

    _assert_rate_limited(table.send(seat, legal), "commands", 2, 60)
    assert _written(client) == written and table.summary()["version"] == version

    # The other seat's token has its own budget.
    r = table.send(other, {"type": "Move", "mouse": mouse})
    assert r.status_code == 403 and r.headers["ratelimit-remaining"] == "1"
    # And creation has its own quota.
    assert client.post("/games", json=GAME).status_code == 201


def test_commands_without_a_token_are_limited_per_client_address(make_client):
    client = make_client(rate_limit_commands="2/minute")
    table = Table(client)
    command = {"command": {"type": "EndTurn", "mouse": "nez"}}
    assert client.post(f"/games/{table.id}/commands", json=command).status_code == 401
    assert client.post(f"/games/{table.id}/commands", json=command).status_code == 401
    _assert_rate_limited(client.post(f"/games/{table.id}/commands", json=command), "commands", 2, 60)
    # The same client with a token is counted by its token.
    assert table.send("red", {"type": "EndTurn", "mouse": "nez"}).status_code != 429


def test_campaign_commands_count_against_the_commands_quota(make_client):
    client = make_client(rate_limit_commands="1/minute")
    r = client.post("/campaigns", json=CAMPAIGN)
    assert r.status_code == 201, r.text
    campaign, token = r.json()["campaign"]["id"], _tokens(r)[0]
    auth = {"Authorization": f"Bearer {token}"}
    assert client.post(f"/campaigns/{campaign}/chapters", headers=auth).status_code != 429
    written = _written(client)
    refused = client.post(f"/campaigns/{campaign}/reverts/approval", headers=auth)
    _assert_rate_limited(refused, "commands", 1, 60)
    assert _written(client) == written


def test_off_disables_each_quota(make_client):
    every = {"rate_limit_create": "off", "rate_limit_commands": "off", "rate_limit_expensive": "off"}
    assert rate_limit_middleware(Settings(**every)) == []
    assert len(rate_limit_middleware(Settings(rate_limit_create="off"))) == 2
    client = make_client(rate_limit_create="off", rate_limit_commands="OFF")
    for _ in range(4):
        r = client.post("/games", json=GAME)
        assert r.status_code == 201 and "ratelimit-limit" not in r.headers
    table = Table(client)
    for _ in range(4):
        r = table.send("red", {"type": "Move", "mouse": "maginos"})
        assert r.status_code == 403 and "ratelimit-limit" not in r.headers


def test_the_defaults_are_30_creations_and_120_commands_a_minute():
    settings = Settings.from_env({})
    assert parse_rate_limit(settings.rate_limit_create, "x") == ("minute", 30)
    assert parse_rate_limit(settings.rate_limit_commands, "x") == ("minute", 120)
    settings = Settings.from_env(
        {"DICELOG_RATE_LIMIT_CREATE": " 5 / Hour ", "DICELOG_RATE_LIMIT_COMMANDS": "off"}
    )
    assert parse_rate_limit(settings.rate_limit_create, "x") == ("hour", 5)
    assert parse_rate_limit(settings.rate_limit_commands, "x") is None


@pytest.mark.parametrize("variable", ["DICELOG_RATE_LIMIT_CREATE", "DICELOG_RATE_LIMIT_COMMANDS"])
@pytest.mark.parametrize(
    "value",
    ["", "30", "30/minutes", "0/minute", "-1/minute", "1.5/hour", "ten/day", "10/week", "20000/day", "on"],
)
def test_a_bad_value_is_a_clear_error_naming_the_variable(variable, value):
    with pytest.raises(ValueError, match=variable) as raised:
        Settings.from_env({variable: value})
    assert "second, minute, hour, day" in str(raised.value) and "off" in str(raised.value)


def test_an_app_built_with_a_bad_value_names_the_variable(tmp_path):
    with pytest.raises(ValueError, match="DICELOG_RATE_LIMIT_COMMANDS"):
        create_app(Settings(data_dir=tmp_path, rate_limit_commands="lots"))


def test_rate_limit_store_keys_hold_a_sha256_of_the_token_never_the_token(make_client):
    client = make_client(rate_limit_create="5/minute", rate_limit_commands="5/minute")
    table = Table(client)
    for seat in table.tokens:
        table.send(seat, {"type": "EndTurn", "mouse": "nez"})
    fork = client.post(
        f"/games/{table.id}/forks", json={"version": table.summary()["version"]}, headers=table.auth("red")
    )
    assert fork.status_code == 201, fork.text
    stored = client.app.stores.get(STORE_NAME)._store  # MemoryStore: key -> StorageObject
    keys = list(stored)
    assert keys
    everything = " ".join(keys) + " ".join(str(v.data) for v in stored.values())
    for token in table.tokens.values():
        assert token not in everything
        assert any(hashlib.sha256(token.encode()).hexdigest() in k for k in keys), keys


def test_expired_counters_are_swept_from_the_memory_store(make_client, monkeypatch):
    client = make_client(rate_limit_commands="5/second")
    table = Table(client)
    store = client.app.stores.get(STORE_NAME)
    for n in range(3):
        client.post(
            f"/games/{table.id}/commands",
            json={"command": {"type": "EndTurn", "mouse": "nez"}},
            headers={"Authorization": f"Bearer not-a-token-{n}"},
        )
    assert sum(k.startswith("QuotaMiddleware::commands|") for k in store._store) == 3
    time.sleep(1.1)
    monkeypatch.setattr(quotas, "SWEEP_INTERVAL", 0.0)
    table.send("red", {"type": "EndTurn", "mouse": "nez"})
    hashed = hashlib.sha256(table.tokens["red"].encode()).hexdigest()
    assert [k for k in store._store if k.startswith("QuotaMiddleware::commands|")] == [
        f"QuotaMiddleware::commands|token:{hashed}"
    ]


# Redis: N replicas share the counters.


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """A redis-server of the test's own on a free port (the machine's Redis is left alone)."""

    def __init__(self, directory: Path) -> None:
        self.binary, self.port, self.dir = redis_server_binary(), _free_port(), directory
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        import redis

        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        client.close()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.redis
def test_replicas_share_their_counters_in_redis_under_hashed_keys(make_client, redis_server):
    import redis

    redis_url = redis_server.url
    settings = {
        "redis_url": redis_url,
        "embedded_worker": "off",
        "rate_limit_create": "3/minute",
        "rate_limit_commands": "2/minute",
    }
    one, two = make_client(**settings), make_client(**settings)
    table = Table(one)
    assert two.post("/games", json=GAME).status_code == 201
    assert one.post("/games", json=GAME).status_code == 201
    _assert_rate_limited(two.post("/games", json=GAME), "create", 3, 60)
    _assert_rate_limited(one.post("/games", json=GAME), "create", 3, 60)

    assert table.send("red", {"type": "Move", "mouse": "maginos"}).status_code == 403
    table.client = two  # the same token, on the other replica
    assert table.send("red", {"type": "Move", "mouse": "maginos"}).status_code == 403
    table.client = one
    _assert_rate_limited(table.send("red", {"type": "Move", "mouse": "maginos"}), "commands", 2, 60)

    keys = [k.decode() for k in redis.Redis.from_url(redis_url).keys("*")]
    assert keys and all(k.startswith(f"{REDIS_NAMESPACE}:") for k in keys), keys
    assert any(hashlib.sha256(table.tokens["red"].encode()).hexdigest() in k for k in keys), keys
    assert not any(token in k for k in keys for token in table.tokens.values())


@pytest.mark.redis
def test_quotas_fail_open_while_redis_is_down_and_apply_again_when_it_is_back(
    make_client, redis_server, monkeypatch
):
    warnings: list[str] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: warnings.append(record.getMessage())  # type: ignore[method-assign]
    monkeypatch.setattr(quotas.log, "handlers", [handler])  # Litestar's logging config replaces the root's
    client = make_client(redis_url=redis_server.url, embedded_worker="off", rate_limit_create="1/minute")
    assert client.post("/games", json=GAME).status_code == 201
    _assert_rate_limited(client.post("/games", json=GAME), "create", 1, 60)

    redis_server.stop()
    started = time.monotonic()
    for _ in range(3):
        r = client.post("/games", json=GAME)
        assert r.status_code == 201 and "ratelimit-limit" not in r.headers
    assert time.monotonic() - started < 5
    assert len(warnings) == 1 and "create quota not enforced while its store fails" in warnings[0]

    monkeypatch.setattr(quotas, "STORE_RETRY", 0.0)
    redis_server.start()  # empty: the counters were lost with it
    assert client.post("/games", json=GAME).status_code == 201
    _assert_rate_limited(client.post("/games", json=GAME), "create", 1, 60)
    assert "create quota enforced again" in warnings[-1]


# --- expensive operations ------------------------------------------------------------------------


def test_verify_export_claims_and_replays_share_the_expensive_quota_per_token(make_client):
    client = make_client(rate_limit_expensive="4/minute", rate_limit_create="off")
    table = Table(client, visibility="public")
    version = table.summary()["version"]
    fork = client.post(f"/games/{table.id}/forks", json={"version": version}, headers=table.auth("red"))
    assert fork.status_code == 201, fork.text
    fork_id = fork.json()["game"]["id"]
    red = table.auth("red")
    for method, path in [
        ("POST", f"/games/{table.id}/verify"),
        ("GET", f"/games/{table.id}/export"),
        ("GET", f"/games/{table.id}/state?version=1"),
        ("POST", f"/games/{fork_id}/claims"),
    ]:
        headers = {"Authorization": f"Bearer {table.tokens['blue']}"} if path.endswith("claims") else red
        r = client.request(method, path, headers=headers)
        assert r.status_code in (200, 201), (path, r.text)
        assert r.headers["ratelimit-limit"] == "4", (path, r.headers)
    # red spent 3, blue 1: red has one left, then every expensive operation is refused to red
    assert client.post(f"/games/{table.id}/verify", headers=red).status_code == 200
    written = _written(client)
    for method, path in [
        ("POST", f"/games/{table.id}/verify"),
        ("GET", f"/games/{table.id}/export"),
        ("GET", f"/games/{table.id}/state?version=1"),
        ("POST", f"/games/{fork_id}/claims"),
    ]:
        _assert_rate_limited(client.request(method, path, headers=red), "expensive", 4, 60)
    assert _written(client) == written  # the refused claim took no place
    # the latest state, events and the game are not expensive; another token has its own count
    for path in [f"/games/{table.id}/state", f"/games/{table.id}/events", f"/games/{table.id}"]:
        r = client.get(path, headers=red)
        assert r.status_code == 200 and "ratelimit-limit" not in r.headers, (path, r.headers)
    assert client.post(f"/games/{table.id}/verify", headers=table.auth("blue")).status_code == 200
    # without a token the quota is per client address
    for _ in range(4):
        assert client.post(f"/games/{table.id}/verify").status_code == 200
    _assert_rate_limited(client.post(f"/games/{table.id}/verify"), "expensive", 4, 60)


def test_the_expensive_quota_defaults_to_60_a_minute_and_names_its_variable():
    assert parse_rate_limit(Settings.from_env({}).rate_limit_expensive, "x") == ("minute", 60)
    assert Settings.from_env({"DICELOG_RATE_LIMIT_EXPENSIVE": "off"}).rate_limit_expensive == "off"
    with pytest.raises(ValueError, match="DICELOG_RATE_LIMIT_EXPENSIVE"):
        Settings.from_env({"DICELOG_RATE_LIMIT_EXPENSIVE": "often"})


def test_a_campaigns_verify_and_export_count_against_the_expensive_quota():
    """They re-read a whole log as a game's do; the campaign's other POSTs are commands."""
    assert quotas.quota_of_operation("POST", "/campaigns/{campaign_id}/verify") == "expensive"
    assert quotas.quota_of_operation("GET", "/campaigns/{campaign_id}/export") == "expensive"
    assert quotas.quota_of_operation("POST", "/campaigns/{campaign_id}/chapters") == "commands"
    assert quotas.quota_of_operation("GET", "/campaigns/{campaign_id}/events") is None


def test_the_openapi_declares_a_429_on_every_operation_a_quota_counts(make_client):
    client = make_client()
    paths = client.get("/schema/openapi.json").json()["paths"]
    counted = [
        ("post", "/games"),
        ("post", "/campaigns"),
        ("post", "/games/{game_id}/forks"),
        ("post", "/games/{game_id}/commands"),
        *quotas.EXPENSIVE_OPERATIONS,
        *[
            ("post", path)
            for path in paths
            if path.startswith("/campaigns/{campaign_id}/") and "post" in paths[path]
        ],
    ]
    for method, path in counted:
        assert "429" in paths[path][method]["responses"], (method, path)


# --- forwarded headers -----------------------------------------------------------------------------


def _served(settings: Settings, peer: str) -> Any:
    """The ASGI app ``dicelog serve`` runs for ``settings`` (uvicorn's own wrapping, from
    ``proxy_options``), called as if the connection came from ``peer``."""
    config = uvicorn.Config(create_app(settings), **proxy_options(settings))
    config.load()
    inner = config.loaded_app

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            scope = {**scope, "client": (peer, 40000)}
        await inner(scope, receive, send)

    return app


def _create(client: Client, forwarded_for: str) -> int:
    return client.post("/games", json=GAME, headers={"X-Forwarded-For": forwarded_for}).status_code


def test_a_forged_forwarded_for_header_gets_no_fresh_quota_by_default(tmp_path):
    settings = Settings(data_dir=tmp_path, embedded_worker="thread", rate_limit_create="2/minute")
    assert settings.forwarded_allow_ips == ()
    with TestClient(_served(settings, "127.0.0.1")) as client:
        assert [_create(client, f"203.0.113.{n}") for n in range(4)] == [201, 201, 429, 429]


def test_a_configured_proxy_names_the_client_and_anyone_else_is_counted_by_its_socket(tmp_path):
    settings = Settings.from_env(
        {
            "DICELOG_DATA_DIR": str(tmp_path),
            "DICELOG_EMBEDDED_WORKER": "thread",
            "DICELOG_RATE_LIMIT_CREATE": "2/minute",
            "DICELOG_FORWARDED_ALLOW_IPS": "10.0.0.0/8, 127.0.0.1",
        }
    )
    assert settings.forwarded_allow_ips == ("10.0.0.0/8", "127.0.0.1")
    with TestClient(_served(settings, "10.1.2.3")) as proxy:
        # the proxy's clients are counted apart, each by the address the proxy names
        assert [_create(proxy, "203.0.113.1") for _ in range(3)] == [201, 201, 429]
        assert _create(proxy, "203.0.113.2") == 201
    with TestClient(_served(settings, "198.51.100.7")) as direct:
        # not a proxy: its header is ignored, its socket address is counted
        assert [_create(direct, f"203.0.113.{n}") for n in range(10, 13)] == [201, 201, 429]


@pytest.mark.parametrize("value", ["proxy.example.org", "10.0.0.0/33", "*,10.0.0.1", "1.2.3"])
def test_a_bad_forwarded_allow_ips_is_a_clear_error(value):
    with pytest.raises(ValueError, match="DICELOG_FORWARDED_ALLOW_IPS"):
        Settings.from_env({"DICELOG_FORWARDED_ALLOW_IPS": value})


def test_whether_a_quota_applies_is_decided_on_the_event_loop_without_a_thread_hop(tmp_path):
    """Litestar runs a synchronous ``check_throttle_handler`` in a worker thread: with three quotas that was
    three thread hops on every request (bench/README.md §1). Each quota's check is a coroutine function."""
    middleware = rate_limit_middleware(Settings(data_dir=tmp_path))
    configs = [m.kwargs["config"] for m in middleware]
    assert {c.quota for c in configs} == {"create", "commands", "expensive"}
    for config in configs:
        assert inspect.iscoroutinefunction(config.check_throttle_handler), config.quota
