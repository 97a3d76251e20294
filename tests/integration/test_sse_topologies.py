"""SSE in the production topology: API replicas on one PostgreSQL schema with Redis configured.

Two apps (each its own ``Runtime``: its own in-process fan-out, its own Redis subscription) serve
the same store; a command sent to one must reach a stream read from the other through the Redis
wake-up (``dicelog.service.store.fanout.RedisWake``), with no worker running. The SSE poll interval is 30 s
and every delivery must come within 5 s: only the wake-up explains it. Also: ``Last-Event-ID`` resume
and the end of the game across replicas, the worker writing the Redis streams on a wake-up (its
own poll at 30 s), and Redis unreachable at start-up (commands do not wait; wake-ups come back
with Redis).

The shared Redis at 127.0.0.1:6379 carries the wake-ups of the first tests (only this test's games
are read); the Redis-down test runs its own ``redis-server`` on a free port.
"""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import redis

from dicelog.service.http.app import Runtime, create_app
from dicelog.service.ops.settings import Settings
from dicelog.service.store.fanout import RedisWake
from dicelog.service.worker.publisher import game_stream
from tests.api.conftest import settings_for
from tests.api.test_stream import RULESETS, advance, next_event, race_game, serve_app, sse_blocks
from tests.services import _unavailable, drop_postgres_schema, redis_server_binary

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

SHARED_REDIS = "redis://127.0.0.1:6379/0"
POLL = 30.0  # the SSE poll (and the worker's): far longer than any delivery allowed below
WITHIN = 5.0


@pytest.fixture
def shared_redis() -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(SHARED_REDIS, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as e:
        _unavailable("Redis at 127.0.0.1:6379", e)
    yield client
    client.close()


@pytest.fixture
def pg_settings(tmp_path: Path) -> Iterator[Settings]:
    """Replica settings on a fresh PostgreSQL schema: no embedded worker, SSE poll every 30 s."""
    settings, schema = settings_for("postgres", tmp_path)
    try:
        yield msgspec.structs.replace(settings, embedded_worker="off", sse_poll_interval=POLL)
    finally:
        if schema:
            drop_postgres_schema(schema)


@contextmanager
def replicas(settings: Settings, count: int = 2) -> Iterator[list[tuple[str, Any]]]:
    """``count`` apps on the same settings (started one after the other: the first creates the
    tables); yields their (base URL, app)."""
    with ExitStack() as stack:
        out = []
        for _ in range(count):
            app = create_app(settings, rulesets=RULESETS)
            out.append((stack.enter_context(serve_app(app)), app))
        yield out


def _subscribed(app: Any) -> None:
    """Wait until the app's Redis subscription is established (so a test of the wake-up does
    not depend on start-up order; a late subscription would wake every stream anyway)."""
    wake = app.state.runtime.wake
    assert isinstance(wake, RedisWake)
    assert wake.subscribed.wait(10), "the replica never subscribed to the wake-up channel"


def _delivered(blocks: Iterator[dict[str, Any]], first: int, last: int, sent_at: float) -> float:
    """Read events ``first``..``last`` (their ids, in order); returns seconds since ``sent_at``."""
    for version in range(first, last + 1):
        event = next_event(blocks)
        assert int(event["id"]) == version, (event["id"], version)
    return time.monotonic() - sent_at


def test_a_command_on_one_replica_reaches_a_stream_on_the_other_through_redis_without_a_worker(
    pg_settings: Settings, shared_redis: redis.Redis
) -> None:
    settings = msgspec.structs.replace(pg_settings, redis_url=SHARED_REDIS)
    with replicas(settings) as [(url_a, app_a), (url_b, app_b)]:
        _subscribed(app_a)
        _subscribed(app_b)
        with httpx.Client(base_url=url_a, timeout=10) as a, httpx.Client(base_url=url_b, timeout=10) as b:
            made = race_game(a, goal=1000)
            game_id, version = made["game"]["id"], made["game"]["version"]
            path = f"/games/{game_id}/stream"
            with b.stream("GET", path, headers={"Last-Event-ID": str(version)}) as response:
                blocks = sse_blocks(response.iter_lines())
                assert next(blocks)["retry"] == "2000"
                for _ in range(3):
                    sent = time.monotonic()
                    answer = advance(a, made)  # saved through replica A
                    took = _delivered(blocks, version + 1, answer["version"], sent)
                    assert took < WITHIN, (
                        f"delivered by replica B after {took:.1f} s: the poll, not the wake-up"
                    )
                    version = answer["version"]

            # Resume across replicas: events saved through A while nobody listened, then live ones.
            missed_from = version + 1
            for _ in range(2):
                version = advance(a, made)["version"]
            with b.stream("GET", path, headers={"Last-Event-ID": str(missed_from - 1)}) as response:
                blocks = sse_blocks(response.iter_lines())
                _delivered(blocks, missed_from, version, time.monotonic())
                sent = time.monotonic()
                answer = advance(a, made)
                assert _delivered(blocks, version + 1, answer["version"], sent) < WITHIN

            # The other way round, and the end: B's stream closes after GameEnded saved through A.
            ended = race_game(b, goal=1)
            end_id, start = ended["game"]["id"], ended["game"]["version"]
            with a.stream(
                "GET", f"/games/{end_id}/stream", headers={"Last-Event-ID": str(start)}
            ) as response:
                blocks = sse_blocks(response.iter_lines())
                assert next(blocks)["retry"] == "2000"
                sent = time.monotonic()
                answer = advance(b, ended)
                assert answer["result"] is not None
                rest = [block for block in blocks if "data" in block]  # ends: the server closes it
                assert time.monotonic() - sent < WITHIN
            assert [int(e["id"]) for e in rest] == list(range(start + 1, answer["version"] + 1))
            assert '"type":"GameEnded"' in rest[-1]["data"]
            for client in (a, b):
                r = client.get(f"/games/{end_id}/stream", headers={"Last-Event-ID": str(answer["version"])})
                assert r.status_code == 204, r.text


def test_the_worker_writes_the_redis_streams_on_a_wake_up_not_on_its_poll(
    pg_settings: Settings, shared_redis: redis.Redis
) -> None:
    settings = msgspec.structs.replace(pg_settings, redis_url=SHARED_REDIS)
    with replicas(settings, count=1) as [(url, app)]:
        worker = Runtime(settings)  # what `dicelog worker` runs
        try:
            worker.follower.poll_interval = POLL
            assert isinstance(worker.wake, RedisWake) and worker.wake.subscribed.wait(10)
            worker.follower.start()
            _subscribed(app)
            with httpx.Client(base_url=url, timeout=10) as http:
                made = race_game(http, goal=1000)
                key = game_stream(made["game"]["id"])
                for _ in range(3):
                    sent = time.monotonic()
                    version = advance(http, made)["version"]
                    while not _newest_version(shared_redis, key) >= version:
                        assert time.monotonic() - sent < WITHIN, "the worker waited for its 30 s poll"
                        time.sleep(0.01)
        finally:
            worker.close()
            shared_redis.delete(game_stream(made["game"]["id"]))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def redis_later(directory: Path) -> Iterator[tuple[str, Any]]:
    """A Redis URL on a free port where nothing listens yet, and a function that starts a
    ``redis-server`` there (no persistence) and waits until it answers; stopped at the end."""
    binary, port, procs = redis_server_binary(), _free_port(), []

    def start() -> None:
        procs.append(
            subprocess.Popen(
                [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(directory)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        client, deadline = redis.Redis(port=port), time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    try:
        yield f"redis://127.0.0.1:{port}/0", start
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=10)


def _newest_version(client: redis.Redis, key: str) -> int:
    newest = client.xrevrange(key, count=1)
    return int(newest[0][1][b"version"]) if newest else 0


def test_with_redis_unreachable_commands_do_not_wait_and_wake_ups_resume_when_it_is_back(
    pg_settings: Settings, tmp_path: Path
) -> None:
    with redis_later(tmp_path) as (redis_url, start_redis):
        settings = msgspec.structs.replace(pg_settings, redis_url=redis_url)  # nothing listens there yet
        with (
            replicas(settings) as [(url_a, app_a), (url_b, app_b)],
            httpx.Client(base_url=url_a, timeout=10) as a,
            httpx.Client(base_url=url_b, timeout=10) as b,
        ):
            made = race_game(a, goal=1000)
            for _ in range(3):
                sent = time.monotonic()
                advance(a, made)
                assert time.monotonic() - sent < 1.0, "a command waited for Redis"
            assert not app_b.state.runtime.wake.subscribed.is_set()

            start_redis()  # Redis comes up: the replicas subscribe (redis-py's backoff, <= 2 s)
            _subscribed(app_a)
            _subscribed(app_b)
            version = a.get(f"/games/{made['game']['id']}").json()["version"]
            path = f"/games/{made['game']['id']}/stream"
            with b.stream("GET", path, headers={"Last-Event-ID": str(version)}) as response:
                blocks = sse_blocks(response.iter_lines())
                sent = time.monotonic()
                answer = advance(a, made)
                assert _delivered(blocks, version + 1, answer["version"], sent) < WITHIN


def test_a_wake_up_sender_never_blocks_and_closes_promptly_when_redis_is_unreachable(tmp_path: Path) -> None:
    from uuid import uuid4

    from dicelog.service.store.fanout import FanOut

    wake = RedisWake(f"redis://127.0.0.1:{_free_port()}/0", FanOut(), outbox=10)  # nobody listens there
    wake.start()
    started = time.monotonic()
    for version in range(1, 1001):
        wake.fanout.publish(uuid4(), version)
    assert time.monotonic() - started < 0.5
    assert wake.dropped > 0, "the bounded queue drops what Redis cannot take"
    started = time.monotonic()
    wake.close()
    assert time.monotonic() - started < 8
    assert not wake.subscribed.is_set()
