"""``GET /games/{id}/stream``: server-sent events over a real HTTP server (uvicorn), embedded (SQLite,
in-process fan-out): replay then live, ``Last-Event-ID`` resume, ``retry:`` on the first message,
``: keep-alive`` heartbeats, the end after ``GameEnded`` and ``204`` past it.

The helpers (``serve``, ``serve_app``, ``sse_blocks``, ``next_event``, ``race_game``) are shared with
``tests/integration/test_sse_topologies.py``.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from dicelog.service.http.app import create_app
from dicelog.service.ops.settings import Settings
from tests.api.conftest import IN_PROCESS, NO_QUOTAS, Table

RULESETS = ("mice-and-mystics", "race")
RACE_SEATS = [{"name": "one", "controls": ["a"]}, {"name": "two", "controls": ["b"]}]


@contextmanager
def serve(settings: Settings) -> Iterator[str]:
    """``create_app(settings)`` (Mice and Mystics and the test ruleset ``race``) served by uvicorn
    in a thread on a free 127.0.0.1 port; yields its base URL. Open streams must be closed first."""
    with serve_app(create_app(settings, rulesets=RULESETS)) as url:
        yield url


@contextmanager
def serve_app(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on a free 127.0.0.1 port (its lifespan has run when
    this yields: ``app.state.runtime`` is there); yields its base URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the service did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def sse_blocks(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """The messages of an SSE body, as read: each message's fields (``id``, ``event``, ``data``,
    ``retry``), and its comment lines as a list under ``":"``."""
    block: dict[str, Any] = {}
    for line in lines:
        if not line:
            if block:
                yield block
            block = {}
            continue
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field:
            block[field] = value
        else:
            block.setdefault(":", []).append(value)
    if block:
        yield block


def next_event(blocks: Iterator[dict[str, Any]]) -> dict[str, Any]:
    """The next message that is an event (has ``data``), skipping comments."""
    for block in blocks:
        if "data" in block:
            return block
    raise AssertionError("the stream ended")


def race_game(http: httpx.Client, goal: int = 1) -> dict[str, Any]:
    """A new game of the test ruleset ``race`` (with ``goal`` 1, the first ``Advance`` ends it)."""
    r = http.post(
        "/games", json={"ruleset": "race", "setup": {"pieces": ["a", "b"], "goal": goal}, "seats": RACE_SEATS}
    )
    assert r.status_code == 201, r.text
    return r.json()


def advance(http: httpx.Client, made: dict[str, Any]) -> dict[str, Any]:
    """The piece whose turn it is advances (sent by its seat); returns the command's answer."""
    game_id = made["game"]["id"]
    auditor = {"Authorization": f"Bearer {made['auditor_token']}"}
    piece = http.get(f"/games/{game_id}", headers=auditor).json()["turn"]
    token = next(t["token"] for t in made["tokens"] if t["seat"] == ("one" if piece == "a" else "two"))
    r = http.post(
        f"/games/{game_id}/commands",
        json={"command": {"type": "Advance", "piece": piece}},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 201, r.text
    return r.json()


def settings(tmp_path: Path, **extra: Any) -> Settings:
    return Settings(data_dir=tmp_path, **{**NO_QUOTAS, **IN_PROCESS, **extra})


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    with serve(settings(tmp_path)) as url:
        yield url


def test_the_stream_replays_the_log_then_delivers_new_events_live(base_url):
    with httpx.Client(base_url=base_url, timeout=10) as http:
        table = Table(http)
        version = table.summary()["version"]
        with http.stream("GET", f"/games/{table.id}/stream") as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            blocks = sse_blocks(response.iter_lines())
            backlog = [next_event(blocks) for _ in range(version)]
            assert [int(e["id"]) for e in backlog] == list(range(1, version + 1))
            assert backlog[0]["retry"] == "2000", "the first message tells the client when to reconnect"
            assert all("retry" not in e for e in backlog[1:])
            mouse = table.summary()["turn"]
            assert table.send(table.seat_of(mouse), {"type": "EndTurn", "mouse": mouse}).status_code == 201
            live = next_event(blocks)
            assert int(live["id"]) == version + 1 and live["event"] == "event"


def test_the_stream_resumes_after_last_event_id(base_url):
    with httpx.Client(base_url=base_url, timeout=10) as http:
        table = Table(http)
        with http.stream("GET", f"/games/{table.id}/stream", headers={"Last-Event-ID": "5"}) as response:
            first = next_event(sse_blocks(response.iter_lines()))
            assert first["id"] == "6" and first["retry"] == "2000"


def test_the_stream_of_an_unknown_game_is_404(base_url):
    with httpx.Client(base_url=base_url, timeout=10) as http:
        r = http.get("/games/00000000-0000-0000-0000-000000000000/stream")
        assert r.status_code == 404


def test_an_idle_stream_opens_with_retry_then_sends_keep_alive_comments(tmp_path):
    with serve(settings(tmp_path, sse_heartbeat=0.2)) as url, httpx.Client(base_url=url, timeout=10) as http:
        made = race_game(http, goal=100)
        version = made["game"]["version"]
        headers = {"Last-Event-ID": str(version)}  # nothing to send: the stream is idle
        with http.stream("GET", f"/games/{made['game']['id']}/stream", headers=headers) as response:
            blocks = sse_blocks(response.iter_lines())
            first = next(blocks)
            assert first == {":": ["keep-alive"], "retry": "2000"}, "a comment: no event is dispatched"
            started = time.monotonic()
            heartbeats = [next(blocks) for _ in range(3)]
            assert heartbeats == [{":": ["keep-alive"]}] * 3
            assert time.monotonic() - started < 5
            answer = advance(http, made)  # live events, then the heartbeats go on
            live = [next(blocks) for _ in range(answer["version"] - version)]
            assert [int(e["id"]) for e in live] == list(range(version + 1, answer["version"] + 1))
            assert next(blocks) == {":": ["keep-alive"]}


def test_a_save_wakes_the_stream_at_once_without_waiting_for_the_poll(tmp_path):
    # The poll interval is 30 s: only the in-process wake-up can explain a delivery within 5 s.
    with (
        serve(settings(tmp_path, sse_poll_interval=30)) as url,
        httpx.Client(base_url=url, timeout=10) as http,
    ):
        made = race_game(http, goal=100)
        game_id, version = made["game"]["id"], made["game"]["version"]
        with http.stream(
            "GET", f"/games/{game_id}/stream", headers={"Last-Event-ID": str(version)}
        ) as response:
            blocks = sse_blocks(response.iter_lines())
            assert next(blocks)["retry"] == "2000"
            for _ in range(3):
                sent = time.monotonic()
                answer = advance(http, made)
                for v in range(version + 1, answer["version"] + 1):
                    assert int(next_event(blocks)["id"]) == v
                assert time.monotonic() - sent < 5
                version = answer["version"]


def test_the_stream_ends_after_the_game_ends_and_a_reconnect_past_the_end_is_204(base_url):
    with httpx.Client(base_url=base_url, timeout=10) as http:
        made = race_game(http, goal=1)
        game_id, version = made["game"]["id"], made["game"]["version"]
        with http.stream("GET", f"/games/{game_id}/stream") as response:
            blocks = sse_blocks(response.iter_lines())
            backlog = [next_event(blocks) for _ in range(version)]
            answer = advance(http, made)
            assert answer["result"] is not None
            rest = list(blocks)  # the server closes the stream after GameEnded
        end = answer["version"]
        events = backlog + rest
        assert [int(e["id"]) for e in events] == list(range(1, end + 1))
        assert '"type":"GameEnded"' in events[-1]["data"].replace(" ", "")

        # An EventSource reconnects with the last id it received: 204 tells it to stop.
        for last in (end, end + 5):
            r = http.get(f"/games/{game_id}/stream", headers={"Last-Event-ID": str(last)})
            assert r.status_code == 204 and r.content == b"", (last, r.status_code, r.text)
        # Before the end, the rest of the log is sent and the stream ends again.
        with http.stream(
            "GET", f"/games/{game_id}/stream", headers={"Last-Event-ID": str(end - 1)}
        ) as response:
            assert response.status_code == 200
            tail = [b for b in sse_blocks(response.iter_lines()) if "data" in b]
        assert [int(e["id"]) for e in tail] == [end]
        # A finished game's whole stream is finite too.
        with http.stream("GET", f"/games/{game_id}/stream") as response:
            assert len([b for b in sse_blocks(response.iter_lines()) if "data" in b]) == end


def test_204_past_the_end_needs_read_access_like_the_stream(base_url):
    with httpx.Client(base_url=base_url, timeout=10) as http:
        r = http.post(
            "/games",
            json={
                "ruleset": "race",
                "setup": {"pieces": ["a", "b"], "goal": 1},
                "seats": RACE_SEATS,
                "visibility": "private",
            },
        )
        assert r.status_code == 201, r.text
        made = r.json()
        end = advance(http, made)["version"]
        url, last = f"/games/{made['game']['id']}/stream", {"Last-Event-ID": str(end)}
        assert http.get(url, headers=last).status_code == 401
        auth = {"Authorization": f"Bearer {made['spectator_token']}"}
        assert http.get(url, headers={**last, **auth}).status_code == 204


def test_the_heartbeat_and_poll_intervals_come_from_the_environment_and_must_be_positive():
    env = {"DICELOG_SSE_HEARTBEAT": "0.5", "DICELOG_SSE_POLL_INTERVAL": "30"}
    parsed = Settings.from_env(env)
    assert (parsed.sse_heartbeat, parsed.sse_poll_interval) == (0.5, 30.0)
    assert (Settings.from_env({}).sse_heartbeat, Settings.from_env({}).sse_poll_interval) == (15.0, 2.0)
    for bad in ("0", "-1", "soon", "inf", "nan"):
        with pytest.raises(ValueError, match="DICELOG_SSE_HEARTBEAT"):
            Settings.from_env({"DICELOG_SSE_HEARTBEAT": bad})
