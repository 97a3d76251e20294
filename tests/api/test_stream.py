"""``GET /games/{id}/stream``: server-sent events over a real HTTP server (uvicorn)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from service.demo import running_service
from service.settings import Settings
from tests.api.conftest import Table


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    with running_service(Settings(data_dir=tmp_path)) as url:
        yield url


def _read_events(lines: Iterator[str], count: int) -> list[dict[str, str]]:
    events: list[dict[str, str]] = []
    current: dict[str, str] = {}
    for line in lines:
        if not line:
            if current:
                events.append(current)
                current = {}
                if len(events) == count:
                    return events
            continue
        field, _, value = line.partition(":")
        current[field] = value.strip()
    return events


def test_the_stream_replays_the_log_then_delivers_new_events_live(base_url):
    with httpx.Client(base_url=base_url, timeout=10) as http:
        table = Table(http)
        version = table.summary()["version"]
        with http.stream("GET", f"/games/{table.id}/stream") as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            lines = response.iter_lines()
            backlog = _read_events(lines, version)
            assert [int(e["id"]) for e in backlog] == list(range(1, version + 1))
            mouse = table.summary()["turn"]
            assert table.send(table.seat_of(mouse), {"type": "EndTurn", "mouse": mouse}).status_code == 201
            live = _read_events(lines, 1)
            assert int(live[0]["id"]) == version + 1 and live[0]["event"] == "event"


def test_the_stream_resumes_after_last_event_id(base_url):
    with httpx.Client(base_url=base_url, timeout=10) as http:
        table = Table(http)
        with http.stream("GET", f"/games/{table.id}/stream", headers={"Last-Event-ID": "5"}) as response:
            first = _read_events(response.iter_lines(), 1)
            assert first[0]["id"] == "6"


def test_the_stream_of_an_unknown_game_is_404(base_url):
    with httpx.Client(base_url=base_url, timeout=10) as http:
        r = http.get("/games/00000000-0000-0000-0000-000000000000/stream")
        assert r.status_code == 404
