"""Notifications lose nothing (DESIGN.md): Redis stopped during commands, then caught up.

The test starts its own redis-server on a free port (with an append-only file in a temporary
directory, so what reached Redis before the stop survives the restart); the machine's shared
Redis is left alone.
"""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from litestar.testing import TestClient

from service.app import create_app
from service.publisher import GLOBAL_STREAM, game_stream
from service.settings import Settings
from tests.api.conftest import Table
from tests.services import redis_server_binary

pytestmark = pytest.mark.redis


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    def __init__(self, directory: Path) -> None:
        self.binary = redis_server_binary()
        self.port = _free_port()
        self.dir = directory
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes",
             "--appendfsync", "always", "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        assert self.proc is not None
        self.proc.terminate()
        self.proc.wait(timeout=10)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


@pytest.fixture
def redis_server(tmp_path: Path) -> Any:
    server = RedisServer(tmp_path / "redis")
    server.dir.mkdir()
    server.start()
    yield server
    if server.proc and server.proc.poll() is None:
        server.stop()


def _versions_in_stream(client: redis.Redis, key: str) -> list[int]:
    return [int(fields[b"version"]) for _, fields in client.xrange(key)]


def _wait_for(predicate: Any, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def _play(table: Table, moves: int) -> None:
    for _ in range(moves):
        mouse = table.summary()["turn"]
        r = table.send(table.seat_of(mouse), {"type": "EndTurn", "mouse": mouse})
        assert r.status_code == 201, r.text


def test_redis_stopped_during_commands_then_every_event_reaches_the_stream(redis_server, tmp_path):
    settings = Settings(data_dir=tmp_path / "data", redis_url=redis_server.url)
    client = redis.Redis(port=redis_server.port)
    with TestClient(create_app(settings)) as http:
        table = Table(http)
        _play(table, 2)
        key = game_stream(table.id)
        assert _wait_for(lambda: _versions_in_stream(client, key)[-1:] == [table.summary()["version"]])

        redis_server.stop()
        _play(table, 4)  # commands succeed with Redis down
        total = table.summary()["version"]
        assert http.get("/ready").json()["status"] == "ok"

        redis_server.start()  # same port and directory: what was there before is still there
        assert _wait_for(lambda: (_versions_in_stream(client, key) or [0])[-1] == total)

    versions = _versions_in_stream(client, key)
    assert sorted(set(versions)) == list(range(1, total + 1)), "every event, none missing"
    entries = client.xrange(GLOBAL_STREAM)
    ids = [int(f[b"notification_id"]) for _, f in entries]
    assert ids == sorted(ids) and len(set(ids)) >= total


def test_stream_entries_carry_the_notification_id_and_the_event(redis_server, tmp_path):
    settings = Settings(data_dir=tmp_path / "data", redis_url=redis_server.url)
    client = redis.Redis(port=redis_server.port)
    with TestClient(create_app(settings)) as http:
        table = Table(http)
        version = table.summary()["version"]
        assert _wait_for(lambda: len(client.xrange(game_stream(table.id))) >= version)
    _, fields = client.xrange(game_stream(table.id))[0]
    assert set(fields) == {b"notification_id", b"game_id", b"version", b"type", b"event"}
    assert fields[b"type"] == b"GameCreated" and fields[b"game_id"].decode() == table.id
