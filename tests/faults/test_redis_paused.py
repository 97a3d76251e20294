"""Redis paused (issue 12: "a 30 s Redis outage"; "projections stall when Redis hangs").

A private redis-server is frozen with SIGSTOP (its connections stay open and nothing answers: the
worst outage for a client with timeouts) for PAUSE seconds while a client keeps playing a game on a
real ``dicelog serve`` (embedded worker, ``DICELOG_REDIS_URL`` set), then resumed with SIGCONT.

- Commands keep succeeding while Redis is paused, each answered within LATENCY_BOUND seconds
  (commands never wait for Redis; the bound is generous for a loaded CI machine: measured, the
  slowest was a few milliseconds).
- After the resume, every event of the game reaches its Redis stream and ``dicelog:games`` (by
  version; duplicates allowed: delivery is at least once), and the game verifies.
- While Redis is paused, ``/board`` reaches the game's version within FOLLOW_TIMEOUT (a projection
  must not wait behind the publisher: the publisher runs in its own follower lane).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dicelog.domain.mice_and_mystics.bot import choose_command as choose
from dicelog.service.worker.publisher import GLOBAL_STREAM, game_stream
from tests.faults.support import (
    Ledger,
    RedisServer,
    Server,
    board_version,
    check_game,
    create_game,
    record,
    send_until_answered,
    sqlite_env,
    wait_for,
)

pytestmark = [pytest.mark.faults, pytest.mark.redis]

PAUSE = 6.0
"""Seconds Redis stays frozen."""
LATENCY_BOUND = 2.0
"""The slowest command answer accepted while Redis is paused (normally a few milliseconds)."""
FOLLOW_TIMEOUT = 3.0
"""How long ``/board`` may take to reach the game's version while Redis is still paused."""


def _play(
    http: httpx.Client, game: str, token: str, rng: random.Random, ledger: Ledger, seconds: float
) -> list[float]:
    """Send legal commands for ``seconds``; return each command's answer time."""
    latencies = []
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        legal = http.get(f"/games/{game}/legal-commands", headers={"Authorization": f"Bearer {token}"}).json()
        if not legal["commands"]:
            break
        body = {"command": choose(legal["commands"], rng), "expected_version": legal["version"]}
        started = time.monotonic()
        r = send_until_answered(http, game, token, body, ledger, timeout=30)
        latencies.append(time.monotonic() - started)
        record(ledger, game, r, conflicts_allowed=False)
        time.sleep(0.05)
    return latencies


@pytest.fixture(scope="module")
def outage(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Play before, during and after a Redis pause; yield what was seen."""
    tmp: Path = tmp_path_factory.mktemp("redis-paused")
    redis_server = RedisServer()
    server = Server({**sqlite_env(tmp / "data"), "DICELOG_REDIS_URL": redis_server.url}, tmp / "serve.log")
    try:
        server.start()
        rng, ledger = random.Random(3), Ledger()
        with httpx.Client(base_url=server.url, timeout=60) as http:
            game, token = create_game(http)
            _play(http, game, token, rng, ledger, 1.0)
            redis_server.pause()
            try:
                paused_latencies = _play(http, game, token, rng, ledger, PAUSE - FOLLOW_TIMEOUT - 0.5)
                version = http.get(f"/games/{game}").json()["version"]
                followed = wait_for(lambda: board_version(http, game, token) == version, FOLLOW_TIMEOUT)
                board_while_paused = board_version(http, game, token)
            finally:
                redis_server.resume()
            _play(http, game, token, rng, ledger, 1.0)
            yield {
                "http": http,
                "game": game,
                "token": token,
                "ledger": ledger,
                "redis": redis_server.client,
                "paused_latencies": paused_latencies,
                "paused_version": version,
                "followed": followed,
                "board_while_paused": board_while_paused,
                "server": server,
            }
    finally:
        server.stop()
        redis_server.stop()


def test_commands_succeed_within_the_bound_while_redis_is_paused(outage: dict[str, Any]) -> None:
    ledger, latencies = outage["ledger"], outage["paused_latencies"]
    assert not ledger.unexpected, ledger.unexpected
    assert len(latencies) >= 3, "too few commands were sent while Redis was paused"
    assert max(latencies) <= LATENCY_BOUND, f"slowest command {max(latencies):.2f} s with Redis paused"
    print(f"Redis paused: {len(latencies)} commands, slowest {max(latencies) * 1000:.0f} ms")


def test_every_event_reaches_the_redis_streams_after_the_resume_and_the_game_verifies(
    outage: dict[str, Any],
) -> None:
    http, game, token, client = outage["http"], outage["game"], outage["token"], outage["redis"]
    version = check_game(http, game, token, outage["ledger"].acked.get(game, []))

    def versions(key: str) -> set[int]:
        return {int(f[b"version"]) for _, f in client.xrange(key) if f[b"game_id"].decode() == game}

    expected = set(range(1, version + 1))
    assert wait_for(lambda: versions(game_stream(game)) >= expected, 60), (
        f"missing from {game_stream(game)}: {sorted(expected - versions(game_stream(game)))[:20]}"
    )
    assert wait_for(lambda: versions(GLOBAL_STREAM) >= expected, 60), (
        f"missing from {GLOBAL_STREAM}: {sorted(expected - versions(GLOBAL_STREAM))[:20]}"
    )


def test_board_follows_the_game_while_redis_is_paused(outage: dict[str, Any]) -> None:
    assert outage["followed"], (
        f"/board at {outage['board_while_paused']} after {FOLLOW_TIMEOUT} s, "
        f"the game at {outage['paused_version']}, Redis paused"
    )
