"""Redis streams, a public interface (docs/streams.md, "Redis streams"; service/worker/publisher.py).

- Notifications lose nothing (docs/architecture.md, Properties): Redis stopped during commands, then caught
  up.
- Every entry read back from Redis (public, per-seat, auditor and global streams; a game with
  secrets and one without) validates against the committed JSON Schema.
- Trimming: by length on the per-game streams, by age (``MINID ~``) on ``dicelog:games``.
- The consumer-group example of docs/streams.md, extracted from the page and run as it is: a consumer
  crashes with entries pending, another takes them over (XAUTOCLAIM), a duplicate entry is
  dropped, a missing one is fetched from the REST API, and entries trimmed before the group read
  them are detected.

Each test starts its own redis-server on a free port (with an append-only file in a temporary
directory, so what reached Redis before a stop survives the restart); the machine's shared Redis
is left alone.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema
import msgspec
import pytest
import redis
from litestar.testing import TestClient

from dicelog.service.http.app import create_app
from dicelog.service.ops.settings import Settings, parse_retention
from dicelog.service.worker.publisher import GLOBAL_STREAM, decode_entry, game_stream
from dicelog_secret_hand.ruleset import register
from tests.api.conftest import NO_QUOTAS, Table
from tests.services import redis_server_binary

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "redis-stream-entry.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(
    SCHEMA, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
)

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
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
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


# --- entries: the documented schema, on every stream ------------------------------------------------


def _validated(client: redis.Redis, key: str) -> list[dict[str, Any]]:
    """Every entry of ``key``, decoded as documented (``event`` JSON, the rest text) and validated
    against the committed schema; also decoded by ``decode_entry`` to the same value."""
    entries = []
    for _, fields in client.xrange(key):
        text = {k.decode(): v.decode() for k, v in fields.items()}
        entry: dict[str, Any] = {
            **text,
            "event": json.loads(text["event"]),
            "hidden": text["hidden"] == "true",
        }
        for name in ("format", "notification_id", "version"):
            entry[name] = int(text[name])
        errors = [e.message for e in VALIDATOR.iter_errors(entry)]
        assert not errors, (key, errors, entry)
        assert msgspec.to_builtins(decode_entry(fields)) == entry
        assert text["hidden"] in ("true", "false") and entry["event"]["version"] == entry["version"]
        entries.append(entry)
    return entries


def _secret_hand_game(http: TestClient[Any]) -> dict[str, Any]:
    body = {
        "ruleset": "secret-hand",
        "setup": {"players": ["ann", "bob"], "hand_size": 3, "rounds": 2},
        "seats": [{"name": "north", "controls": ["ann"]}, {"name": "south", "controls": ["bob"]}],
        "dice_mode": "server",
        "decision_policy": "default",
    }
    r = http.post("/games", json=body)
    assert r.status_code == 201, r.text
    created = r.json()
    game_id, tokens = created["game"]["id"], {t["seat"]: t["token"] for t in created["tokens"]}
    for _ in range(4):  # the first legal command of whichever seat may act: the hands are dealt
        for token in tokens.values():
            auth = {"Authorization": f"Bearer {token}"}
            legal = http.get(f"/games/{game_id}/legal-commands", headers=auth).json()
            if legal["commands"]:
                sent = http.post(
                    f"/games/{game_id}/commands", json={"command": legal["commands"][0]}, headers=auth
                )
                assert sent.status_code == 201, sent.text
                break
    return http.get(f"/games/{game_id}").json()


def test_every_entry_of_every_stream_follows_the_schema(redis_server, tmp_path):
    register()  # the test ruleset with secret hands: per-audience streams
    settings = Settings(data_dir=tmp_path / "data", redis_url=redis_server.url, **NO_QUOTAS)
    client = redis.Redis(port=redis_server.port)
    with TestClient(create_app(settings, rulesets=("mice-and-mystics", "secret-hand"))) as http:
        table = Table(http)
        _play(table, 2)
        hand = _secret_hand_game(http)
        versions = {table.id: table.summary()["version"], hand["id"]: hand["version"]}
        streams = {
            game_stream(table.id): versions[table.id],
            **{
                game_stream(hand["id"], a): versions[hand["id"]]
                for a in (None, "auditor", "seat:north", "seat:south")
            },
            GLOBAL_STREAM: sum(versions.values()),
        }
        assert _wait_for(lambda: all(client.xlen(k) >= n for k, n in streams.items()))
        http_events = {
            g: http.get(f"/games/{g}/events", params={"limit": 1000}).json()["events"] for g in versions
        }
    assert not client.exists(game_stream(table.id, "auditor")), (
        "an all-public game has only its public stream"
    )
    seen: dict[str, list[dict[str, Any]]] = {key: _validated(client, key) for key in streams}
    for key, entries in seen.items():
        if key != GLOBAL_STREAM:
            game = key.split(":")[2]
            assert [e["version"] for e in entries] == list(range(1, versions[game] + 1)), key
            assert {e["game_id"] for e in entries} == {game}
    ids = [e["notification_id"] for e in seen[GLOBAL_STREAM]]
    assert ids == sorted(set(ids)), "one entry per event, in store order"
    assert seen[GLOBAL_STREAM][0]["type"] == "GameCreated" and seen[GLOBAL_STREAM][0]["format"] == 1
    # The same event has the same notification id on every stream of its game; audiences differ.
    public, north, auditor = (seen[game_stream(hand["id"], a)] for a in (None, "seat:north", "auditor"))
    assert [e["notification_id"] for e in public] == [e["notification_id"] for e in north]
    payloads = {
        name: [e["event"]["payload"] for e in entries]
        for name, entries in (("public", public), ("north", north), ("auditor", auditor))
    }
    assert payloads["public"] != payloads["auditor"], "the dealt cards are masked for the spectator"
    assert payloads["north"] not in (payloads["public"], payloads["auditor"]), "north sees its own hand only"
    for stub in (e for e in public + north if e["hidden"]):
        assert (
            stub["event"]["payload"] is None
            and stub["event"]["hidden"]
            and stub["type"] == stub["event"]["type"]
        )
    assert not any(e["hidden"] for e in auditor)
    # Each entry carries the event exactly as GET /events shows it to the stream's audience (round, turn and
    # undone too); the hand game may have ended since, revealing payloads to GET /events: the marks match.
    assert [e["event"] for e in seen[game_stream(table.id)]] == http_events[table.id]

    def marks(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        return [(e["version"], e["type"], e["round"], e["turn"], e["undone"]) for e in events]

    for stream in (public, north, auditor):
        assert marks([e["event"] for e in stream]) == marks(http_events[hand["id"]])
    assert any(e["event"]["round"] is not None for e in public), "secret-hand plays in rounds"
    assert any(e["event"]["turn"] is not None for e in public), "and in turns"


# --- trimming ---------------------------------------------------------------------------------------


def test_settings_of_the_trimming_policy():
    defaults = Settings.from_env({})
    assert (defaults.stream_maxlen, defaults.stream_retention) == (10_000, 0)
    assert (defaults.global_stream_maxlen, defaults.global_stream_retention) == (1_000_000, 86_400)
    env = {
        "DICELOG_STREAM_MAXLEN": "0",
        "DICELOG_STREAM_RETENTION": "7d",
        "DICELOG_GLOBAL_STREAM_MAXLEN": "50000",
        "DICELOG_GLOBAL_STREAM_RETENTION": "off",
    }
    custom = Settings.from_env(env)
    assert (custom.stream_maxlen, custom.stream_retention) == (0, 7 * 86_400)
    assert (custom.global_stream_maxlen, custom.global_stream_retention) == (50_000, 0)
    assert [parse_retention(v, "X") for v in ("90m", "24h", "3600", "45s", "0", "OFF")] == [
        5400,
        86_400,
        3600,
        45,
        0,
        0,
    ]
    for bad in (
        {"DICELOG_GLOBAL_STREAM_RETENTION": "1 week"},
        {"DICELOG_STREAM_RETENTION": "-1h"},
        {"DICELOG_GLOBAL_STREAM_MAXLEN": "-5"},
        {"DICELOG_STREAM_MAXLEN": "lots"},
    ):
        with pytest.raises(ValueError, match=next(iter(bad))):
            Settings.from_env(bad)


def test_game_streams_are_capped_by_length_and_the_global_stream_by_age(redis_server, tmp_path):
    client = redis.Redis(port=redis_server.port)
    # Entries older than the retention, already in dicelog:games (ids from the Unix epoch's first
    # seconds), are trimmed by age when new ones are added; younger ones stay.
    for i in range(1, 301):
        client.xadd(GLOBAL_STREAM, {"old": "x" * 200}, id=f"{i}-0")
    settings = Settings(
        data_dir=tmp_path / "data",
        redis_url=redis_server.url,
        stream_maxlen=8,
        global_stream_maxlen=0,
        global_stream_retention=3600,
        **NO_QUOTAS,
    )
    with TestClient(create_app(settings)) as http:
        table = Table(http)
        _play(table, 12)
        total = table.summary()["version"]
        key = game_stream(table.id)
        assert _wait_for(lambda: (_versions_in_stream(client, key) or [0])[-1] == total)
        assert _wait_for(lambda: len([1 for _, f in client.xrange(GLOBAL_STREAM) if b"old" in f]) < 300)
    versions = _versions_in_stream(client, key)
    assert total > 30 and 8 <= len(versions) < total, "capped at about 8 (MAXLEN ~: at least 8 kept)"
    assert versions == list(range(total - len(versions) + 1, total + 1)), "the newest are kept"
    entries = client.xrange(GLOBAL_STREAM)
    old = [f for _, f in entries if b"old" in f]
    assert len(old) < 300, "old entries trimmed (MINID ~ removes whole nodes only: a few may stay)"
    ours = sorted(int(f[b"version"]) for _, f in entries if b"old" not in f)
    assert ours == list(range(1, total + 1)), "nothing younger than the retention was trimmed"


def test_an_ended_games_streams_expire_after_the_retention(redis_server, tmp_path):
    """``GameEnded`` sets every stream of the game to expire ``ended_stream_retention`` seconds later;
    the streams of a game still running and ``dicelog:games`` do not expire."""
    client = redis.Redis(port=redis_server.port)
    settings = Settings(
        data_dir=tmp_path / "data", redis_url=redis_server.url, ended_stream_retention=3600, **NO_QUOTAS
    )
    with TestClient(create_app(settings)) as http:
        ended, running = Table(http), Table(http)
        _play(ended, 2)
        _play(running, 2)
        games = http.app.state.runtime.games
        game = games.game(uuid.UUID(ended.id))
        events, after = games.close_game(
            game, result="defeat", reason="closed by the test", command_id="close-1", at=datetime.now(UTC)
        )
        games.save(*events)
        games.game_closed(after)
        key = game_stream(ended.id)
        assert _wait_for(lambda: client.ttl(key) > 0), f"{key} has no expiry: ttl {client.ttl(key)}"
        assert _wait_for(lambda: (_versions_in_stream(client, key) or [0])[-1] == after.version)
    assert 3500 < client.ttl(key) <= 3600
    assert client.ttl(game_stream(running.id)) == -1, "a running game's stream does not expire"
    assert client.ttl(GLOBAL_STREAM) == -1, "dicelog:games is bounded by its own cap and age"
    assert Settings.from_env({}).ended_stream_retention == 86_400
    assert Settings.from_env({"DICELOG_ENDED_STREAM_RETENTION": "off"}).ended_stream_retention == 0


# --- the consumer-group example of docs/streams.md, as it is written there ----------------------------


def _readme_example() -> dict[str, Any]:
    """The consumer-group example's code block of docs/streams.md, executed as a module (not as main)."""
    readme = (ROOT / "docs/streams.md").read_text()
    blocks = [b for b in re.findall(r"```python\n(.*?)```", readme, re.DOTALL) if "xautoclaim" in b]
    assert len(blocks) == 1, "docs/streams.md has one consumer-group example"
    namespace: dict[str, Any] = {"__name__": "readme_consumer_group_example"}
    exec(compile(blocks[0], "docs/streams.md (consumer-group example)", "exec"), namespace)
    return namespace


def test_the_documented_consumer_group_example_against_a_real_game(redis_server, tmp_path):
    settings = Settings(data_dir=tmp_path / "data", redis_url=redis_server.url, **NO_QUOTAS)
    r = redis.Redis(port=redis_server.port, decode_responses=True)
    example = _readme_example()
    handled: list[tuple[str, int, str]] = []
    example["r"] = r
    example["handle"] = lambda event: handled.append((event["type"], event["version"], event["hash"]))
    stream, group = example["STREAM"], example["GROUP"]
    assert stream == GLOBAL_STREAM
    with TestClient(create_app(settings)) as http:
        example["http"] = http  # same interface as the example's httpx.Client (base URL included)
        table = Table(http)
        _play(table, 4)
        total = table.summary()["version"]
        # Wait for the last event itself: the length may count duplicates (delivery is at least once).
        assert _wait_for(
            lambda: r.xlen(stream) and int(r.xrevrange(stream, count=1)[0][1]["version"]) == total
        )
        truth = [(e["type"], e["version"], e["hash"]) for e in table.events()]
        assert len(truth) == total

        # Consumer a reads three entries and crashes before acknowledging them.
        example["ensure_group"]()
        taken = r.xreadgroup(group, "a", {stream: ">"}, count=3)[0][1]
        assert [int(f["version"]) for _, f in taken] == [1, 2, 3]
        # The publisher wrote an entry twice (a crash before its checkpoint), and one entry is gone
        # (say, trimmed): the example drops the first and fetches the second from the REST API.
        entries = r.xrange(stream)
        r.xadd(stream, entries[1][1])
        r.xdel(stream, entries[5][0])

        applied: dict[str, int] = {}
        for _ in range(20):  # one call reads at most 100 fresh entries: a long game needs several
            example["consume"]("b", applied, idle_ms=0, block_ms=100, forever=False)
            if applied.get(table.id) == total:
                break
        assert handled == truth, "every event once, in order: claimed, fetched again, deduplicated"
        assert applied == {table.id: total}
        assert r.xpending(stream, group)["pending"] == 0, "everything acknowledged"
        assert example["missed_entries"]() == 0

        # New events, and the stream trimmed before the group read them: detected.
        _play(table, 3)
        now = table.summary()["version"]
        assert _wait_for(lambda: int(r.xrevrange(stream, count=1)[0][1]["version"]) == now)
        r.xtrim(stream, maxlen=1, approximate=False)
        assert example["missed_entries"]() == now - total - 1
        for _ in range(20):
            example["consume"]("b", applied, idle_ms=0, block_ms=100, forever=False)
            if applied.get(table.id) == now:
                break
        assert applied == {table.id: now}, "the version jump was filled from the REST API"
        assert handled == [(e["type"], e["version"], e["hash"]) for e in table.events()]
