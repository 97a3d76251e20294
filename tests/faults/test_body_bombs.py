"""Body bombs (issue 12: "nested JSON of depth 1,000 or more in any body -> 500 (RecursionError)").

Hostile bodies are sent to a real ``dicelog serve`` on every route that takes one (create a game,
send a command, fork): JSON nested 10,000 levels deep (arrays and objects), a 2 MB string, a 3 MiB
body, an object with 200,000 keys. Each is refused with a 4xx problem+json, never a 5xx; nothing
is stored (the store holds the same events before and after); the server still answers and a legal
command still succeeds afterwards.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.faults.support import PROBLEM, Server, bearer, create_game, sqlite_env

pytestmark = pytest.mark.faults

DEPTH = 10_000

BOMBS = {
    "nested-arrays": '{"command": ' + "[" * DEPTH + "]" * DEPTH + "}",
    "nested-objects": '{"command": ' + '{"a": ' * DEPTH + "1" + "}" * DEPTH + "}",
    "huge-string": json.dumps({"command": {"type": "EndTurn", "mouse": "x" * 2_000_000}}),
    "3-mib-body": json.dumps(
        {"command": {"type": "EndTurn", "mouse": "filch"}, "pad": "y" * (3 * 1024 * 1024)}
    ),
    "many-keys": json.dumps(
        {"command": {"type": "EndTurn", "mouse": "filch", **{f"k{i}": i for i in range(200_000)}}}
    ),
}
ROUTES = ["/games", "/games/{id}/commands", "/games/{id}/forks"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("body-bombs")
    server = Server(sqlite_env(tmp / "data"), tmp / "serve.log")
    try:
        server.start()
        with httpx.Client(base_url=server.url, timeout=120) as http:
            game, token = create_game(http)
            yield {
                "server": server,
                "http": http,
                "game": game,
                "token": token,
                "store": tmp / "data" / "games.sqlite",
            }
    finally:
        server.stop()


def _stored_events(store: Path) -> int:
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
        return db.execute("SELECT count(*) FROM stored_events").fetchone()[0]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("bomb", list(BOMBS))
def test_a_body_bomb_is_refused_without_a_5xx_and_stores_nothing(
    served: dict[str, Any], bomb: str, route: str
) -> None:
    http, game, token, server = served["http"], served["game"], served["token"], served["server"]
    before = _stored_events(served["store"])
    r = http.post(
        route.format(id=game),
        content=BOMBS[bomb],
        headers={**bearer(token), "Content-Type": "application/json"},
    )
    assert r.status_code < 500, f"{r.status_code}: {r.text[:300]}"
    assert 400 <= r.status_code < 500 and r.headers["content-type"].startswith(PROBLEM), r.text[:300]
    expected = {"nested-arrays": 400, "nested-objects": 400, "3-mib-body": 413}
    if bomb in expected:  # service.http_guards.BodyLimits: deeper than 64 levels, larger than 2 MiB
        assert r.status_code == expected[bomb], r.text[:300]
    assert "Traceback" not in served["server"].tail(200), "a body bomb logged a traceback"
    assert _stored_events(served["store"]) == before, "a refused body stored events"
    assert server.alive(), server.tail()
    assert http.get("/health").status_code == 200


def test_the_server_still_plays_after_the_bombs(served: dict[str, Any]) -> None:
    http, game, token = served["http"], served["game"], served["token"]
    for body in BOMBS.values():
        http.post(
            f"/games/{game}/commands",
            content=body,
            headers={**bearer(token), "Content-Type": "application/json"},
        )
    legal = http.get(f"/games/{game}/legal-commands", headers=bearer(token)).json()
    end_turn = next(c for c in legal["commands"] if c["type"] == "EndTurn")
    r = http.post(
        f"/games/{game}/commands",
        json={"command": end_turn, "expected_version": legal["version"]},
        headers=bearer(token),
    )
    assert r.status_code == 201, r.text
    assert http.post(f"/games/{game}/verify", headers=bearer(token)).json()["verification"]["ok"]
