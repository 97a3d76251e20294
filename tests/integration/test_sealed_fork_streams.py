"""A sealed fork reveals nothing through the Redis streams (docs/api-contract.md, Forks of a running game
with secrets).

A fork of a running Vast game is sealed: over HTTP only its auditor reads it
(``tests/api/test_who_sees_what.py``). Its events still reach its Redis streams, which a client with
access to Redis reads without any token. So its bot seats do not move while it is sealed (a bot's move
would draw from the original's unseen Dark tiles, Treasures and Power hand): every stream of the fork
(public, each seat's, the auditor's, and the fork's entries of ``dicelog:games``) holds exactly the
copied prefix, each event as the original's stream of the same audience shows it. Once the original
ended, the first claim sets the fork's bots going, and their moves reach the streams.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
import redis
from litestar.testing import TestClient

from dicelog.service.http.app import create_app
from dicelog.service.ops.settings import Settings
from dicelog.service.worker.publisher import GLOBAL_STREAM, game_stream
from tests.api.conftest import NO_QUOTAS
from tests.api.test_seat_bots import BOTS, PERSON, ROLES, BotTable, _person_command
from tests.api.test_vast_api import RESULTS, SEAT_OF
from tests.integration.test_redis_streams import redis_server  # noqa: F401  # the fixture

pytestmark = pytest.mark.redis

AUDIENCES = (None, "auditor", *(f"seat:{SEAT_OF[r]}" for r in ROLES))
SHOWN = ("version", "type", "seat", "round", "undone", "hidden", "payload")
"""What an entry shows of its event (the chain hashes differ: a fork's events are re-chained under its id)."""


def _entries(client: redis.Redis, key: str) -> dict[int, dict[str, Any]]:
    """The events of stream ``key`` by version, as the entries show them."""
    out: dict[int, dict[str, Any]] = {}
    for _, fields in client.xrange(key):
        event = json.loads(fields[b"event"])
        out[int(fields[b"version"])] = {k: event[k] for k in SHOWN}
    return out


def _wait_for(predicate: Any, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def test_a_sealed_forks_bots_wait_and_its_streams_show_only_the_copied_prefix(redis_server, tmp_path):  # noqa: F811
    settings = Settings(data_dir=tmp_path / "data", redis_url=redis_server.url, **NO_QUOTAS)
    client = redis.Redis(port=redis_server.port)
    with TestClient(create_app(settings)) as http:
        table = BotTable(http, ROLES, {PERSON})
        events = table.events()
        # the version right before the last bot command: in the fork the bots' next move is due at once
        at = max(e["version"] for e in events if e["type"] == "CommandAccepted" and e["seat"] in BOTS) - 1
        r = http.post(
            f"/games/{table.id}/forks",
            json={"version": at},
            headers={"Authorization": f"Bearer {table.tokens['auditor']}"},
        )
        assert r.status_code == 201, r.text
        fork_id = r.json()["game"]["id"]
        auditor = {"Authorization": f"Bearer {r.json()['auditor_token']}"}
        fork = http.get(f"/games/{fork_id}", headers=auditor).json()
        assert fork["version"] == at, "no bot moved in the sealed fork"
        head = table.get("", None).json()["version"]
        assert _wait_for(
            lambda: all(
                client.xlen(game_stream(table.id, a)) >= head and client.xlen(game_stream(fork_id, a)) >= at
                for a in AUDIENCES
            )
        )
        for audience in AUDIENCES:
            original = _entries(client, game_stream(table.id, audience))
            forked = _entries(client, game_stream(fork_id, audience))
            assert sorted(forked) == list(range(1, at + 1)), (audience, sorted(forked))
            # every event the fork's stream shows, the original's stream of the same audience shows alike
            # (GameCreated differs only in the fork's origin and fresh commitments)
            assert {v: forked[v] for v in range(2, at + 1)} == {v: original[v] for v in range(2, at + 1)}, (
                audience
            )
            assert forked[1]["type"] == "GameCreated" and forked[1]["payload"]["forked_from"]["version"] == at
        everything = [json.loads(f[b"event"]) for _, f in client.xrange(GLOBAL_STREAM)]
        fork_versions = sorted(
            int(f[b"version"]) for _, f in client.xrange(GLOBAL_STREAM) if f[b"game_id"].decode() == fork_id
        )
        assert fork_versions == list(range(1, at + 1)) and everything
        r = http.post(f"/games/{fork_id}/claims", headers={"Authorization": f"Bearer {table.tokens[PERSON]}"})
        assert r.status_code == 422 and r.json()["rule"] == "fork.sealed", r.text

        # The original ends (the person plays the Thief to the end); the seal lifts.
        rng = random.Random(5)
        sent = 0
        for _ in range(3000):
            if table.get("", None).json()["result"] is not None:
                break
            legal = table.get("/legal-commands", PERSON).json()
            command = _person_command(legal, rng, sent)
            assert table.send(PERSON, command).status_code == 201
            sent = 0 if command["type"] == "vast.EndTurn" else sent + 1
        assert table.get("", None).json()["result"] in RESULTS
        assert http.get(f"/games/{fork_id}", headers=auditor).json()["version"] == at, "still waiting"

        r = http.post(f"/games/{fork_id}/claims", headers={"Authorization": f"Bearer {table.tokens[PERSON]}"})
        assert r.status_code == 201, r.text
        moved = http.get(f"/games/{fork_id}").json()["version"]
        assert moved > at, "the first claim after the seal lifted set the fork's bots going"
        assert _wait_for(lambda: client.xlen(game_stream(fork_id)) >= moved)
        assert sorted(_entries(client, game_stream(fork_id))) == list(range(1, moved + 1))
