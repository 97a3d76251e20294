"""``GET /stream``: one stream of server-sent events for every game the request's tokens read (issue 33,
item 6), over a real HTTP server (uvicorn, SQLite, in-process fan-out): the games' backlog then live
events, each through the lens of the token's place in its game; ``Last-Event-ID`` resumes across games;
the ``game`` and ``ruleset`` filters; 401/403; and the leak test: a seat's cross-game stream of
secret-hand games never shows a card that seat may not see (tests/rulesets/secret_hand_dist)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dicelog.service.http.app import create_app
from dicelog_secret_hand.ruleset import register
from tests.api.test_stream import advance, next_event, race_game, serve_app, settings, sse_blocks
from tests.api.who_sees_what_support import HandTable, Tally, random_config

register()
RULESETS = ("secret-hand", "race")


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    with serve_app(create_app(settings(tmp_path), rulesets=RULESETS)) as url:
        yield url


def hand_table(http: httpx.Client, tally: Tally, rng: random.Random, steps: int) -> HandTable:
    config = {**random_config(rng), "visibility": "unlisted", "undo_policy": "none"}
    table = HandTable.create(http, tally, config, "server")  # type: ignore[arg-type]  # httpx answers alike
    for _ in range(steps):
        if not table.play_step(rng):
            break
    return table


def auth(first: str, *more: str) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {first}", "Accept": "text/event-stream"}
    if more:
        headers["Dicelog-Tokens"] = ", ".join(more)
    return headers


def read(blocks: Iterator[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    return [next_event(blocks) for _ in range(count)]


def test_a_seats_cross_game_stream_shows_no_hidden_card_of_any_game(base_url):
    """Two secret-hand games seen by their ``red`` seats on one connection: every event of both, each
    game's in version order, none showing a card ``red`` may not see (checked against the auditor's
    truth, never against the service's own masking); then a live event of each game."""
    rng = random.Random(33)
    tally = Tally()
    with httpx.Client(base_url=base_url, timeout=15) as http:
        tables = [hand_table(http, tally, rng, steps) for steps in (6, 3)]
        by_id = {t.id: t for t in tables}
        total = sum(t.version for t in tables)
        with http.stream(
            "GET", "/stream", headers=auth(*(t.tokens["red"] or "" for t in tables))
        ) as response:
            assert response.status_code == 200
            blocks = sse_blocks(response.iter_lines())
            backlog = read(blocks, total)
            ids = [int(b["id"]) for b in backlog]
            assert ids == sorted(ids) and len(set(ids)) == len(ids)
            seen: dict[str, list[int]] = {t.id: [] for t in tables}
            for block in backlog:
                data = json.loads(block["data"])
                assert block["event"] == "event" and data["ruleset"] == "secret-hand"
                seen[data["game_id"]].append(data["event"]["version"])
                table = by_id[data["game_id"]]
                table.scan(block["data"], "red", "GET /stream")
            assert seen == {t.id: list(range(1, t.version + 1)) for t in tables}
            # the same events as each game's own log shows red (the one lens)
            for table in tables:
                page = http.get(
                    f"/games/{table.id}/events",
                    params={"limit": 1000},
                    headers=auth(table.tokens["red"] or ""),
                )
                mine = [
                    json.loads(b["data"])["event"]
                    for b in backlog
                    if json.loads(b["data"])["game_id"] == table.id
                ]
                assert mine == page.json()["events"]
            # live: a step in each game arrives on the same connection, still masked for red
            for table in tables:
                before = table.version
                assert table.play_step(rng)
                for block in read(blocks, table.version - before):
                    data = json.loads(block["data"])
                    assert data["game_id"] == table.id
                    table.scan(block["data"], "red", "GET /stream (live)")
    assert tally.ids_checked > 0 and tally.responses > 0
    assert tally.leaks == [], tally.leaks[:3]


def test_last_event_id_resumes_across_games_and_the_filters_narrow_the_games(base_url):
    with httpx.Client(base_url=base_url, timeout=15) as http:
        one, two = race_game(http, goal=1000), race_game(http, goal=1000)
        advance(http, one)
        advance(http, two)
        tokens = [g["auditor_token"] for g in (one, two)]
        head = sum(http.get(f"/games/{g['game']['id']}").json()["version"] for g in (one, two))
        with http.stream("GET", "/stream", headers=auth(*tokens)) as response:
            everything = read(sse_blocks(response.iter_lines()), head)
        middle = everything[head // 2]
        with http.stream(
            "GET", "/stream", headers={**auth(*tokens), "Last-Event-ID": middle["id"]}
        ) as response:
            rest = read(sse_blocks(response.iter_lines()), head - head // 2 - 1)
        assert [b["id"] for b in rest] == [b["id"] for b in everything[head // 2 + 1 :]]
        # past the store's latest position no event has that id yet: refused, as a game's stream does
        latest = int(everything[-1]["id"])
        r = http.get("/stream", headers={**auth(*tokens), "Last-Event-ID": str(latest + 1)})
        assert r.status_code == 400 and r.headers["content-type"].startswith("application/problem+json")
        error = r.json()["errors"][0]
        assert (error["key"], error["source"]) == ("Last-Event-ID", "header"), error
        assert str(latest) in error["message"], error
        at_head = {**auth(*tokens), "Last-Event-ID": str(latest)}
        with http.stream("GET", "/stream", headers=at_head) as response:
            assert response.status_code == 200  # at the head: nothing to send yet, a live stream
        only = one["game"]["id"]
        with http.stream("GET", "/stream", params={"game": only}, headers=auth(*tokens)) as response:
            blocks = sse_blocks(response.iter_lines())
            version = http.get(f"/games/{only}").json()["version"]
            assert {json.loads(b["data"])["game_id"] for b in read(blocks, version)} == {only}
            advance(http, two)  # not streamed: filtered out
            advance(http, one)
            assert json.loads(next_event(blocks)["data"])["game_id"] == only
        with http.stream(
            "GET", "/stream", params={"ruleset": "secret-hand"}, headers=auth(*tokens)
        ) as response:
            first = next(sse_blocks(response.iter_lines()))
            assert "data" not in first and first[":"] == ["keep-alive"]  # no game of that ruleset


def test_the_stream_needs_tokens_that_read_the_games_it_names(base_url):
    with httpx.Client(base_url=base_url, timeout=15) as http:
        one, two = race_game(http), race_game(http)
        token = one["auditor_token"]
        assert http.get("/stream").status_code == 401
        r = http.get("/stream", headers=auth("not-a-token"))
        assert r.status_code == 401 and r.headers["content-type"].startswith("application/problem+json")
        assert http.get("/stream", headers=auth(token, "not-a-token")).status_code == 401
        r = http.get("/stream", params={"game": two["game"]["id"]}, headers=auth(token))
        assert r.status_code == 403, r.text
        r = http.get("/stream", headers=auth(token, *[f"t{i}" for i in range(51)]))
        assert r.status_code == 400
