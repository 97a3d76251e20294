"""The shipped Python client's SSE iterator (``clients/python/dicelog_events.py``) yields a game's events as
the generated ``EventOut`` model, one at a time as they arrive, equal to what ``GET /events`` answers.

The client is generated from ``openapi/openapi.json`` as in ``test_generated_python_client.py``; the game
(Chapter 1, server dice) runs on a live service; the iterator reads the stream of a running game (it does
not end), is stopped after the events ``GET /events`` lists, resumes with ``last_event_id`` after a
command, and a ``Last-Event-ID`` past the head is the documented 400.
"""

from __future__ import annotations

import importlib
import sys

import httpx
import pytest

from tests.clients.conftest import MICE, OPENAPI, ROOT, SEATS
from tests.clients.test_generated_python_client import PACKAGE, forget, generate, load

sys.path.insert(0, str(ROOT / "clients" / "python"))
dicelog_events = importlib.import_module("dicelog_events")


def test_iter_messages_parses_the_event_stream_format():
    lines = iter(
        [": keep-alive", "retry: 2000", "", "event: event", "id: 3", 'data: {"a":', "data: 1}", "", ""]
    )
    assert list(dicelog_events.iter_messages(lines)) == [("event", "3", '{"a":\n1}')]


def test_the_iterator_yields_typed_events_as_get_events_shows_them(tmp_path, live_service):
    code, output, _ = generate(tmp_path / "client", OPENAPI)
    assert code == 0, output
    try:
        package = load(tmp_path / "client")
        models = importlib.import_module(f"{PACKAGE}.models")
        created = httpx.post(
            f"{live_service}/games",
            json={
                "setup": {"chapter": "chapter-1", "mice": MICE},
                "seats": [{"name": name, "controls": mice} for name, mice in SEATS.items()],
            },
        ).json()
        game_id, token = created["game"]["id"], created["tokens"][0]["token"]
        auth = {"Authorization": f"Bearer {token}"}
        client = package.AuthenticatedClient(base_url=live_service, token=token)

        def listed(after: int) -> list[dict]:
            page = httpx.get(f"{live_service}/games/{game_id}/events", params={"after": after}, headers=auth)
            return page.json()["events"]

        def read(after: int | None, count: int) -> list:
            got = []
            for event in dicelog_events.iter_events(client, game_id, last_event_id=after):
                got.append(event)
                if len(got) == count:
                    break  # the game runs: the stream would wait for the next event
            return got

        expected = listed(0)
        events = read(None, len(expected))
        assert all(isinstance(e, models.EventOut) for e in events)
        # the same objects as GET /events answers, parsed by the same generated model
        assert [e.to_dict() for e in events] == [models.EventOut.from_dict(e).to_dict() for e in expected]
        assert [(e.version, e.type_, e.hash_) for e in events] == [
            (e["version"], e["type"], e["hash"]) for e in expected
        ]
        legal = httpx.get(f"{live_service}/games/{game_id}/legal-commands", headers=auth).json()
        mouse = legal["turn"]
        seat = next(s for s, mice in SEATS.items() if mouse in mice)
        seat_token = next(t["token"] for t in created["tokens"] if t["seat"] == seat)
        sent = httpx.post(
            f"{live_service}/games/{game_id}/commands",
            json={"command": {"type": "EndTurn", "mouse": mouse}},
            headers={"Authorization": f"Bearer {seat_token}"},
        )
        assert sent.status_code == 201, sent.text
        head = len(expected)
        more = listed(head)
        resumed = read(head, len(more))
        assert [e.to_dict() for e in resumed] == [models.EventOut.from_dict(e).to_dict() for e in more]
        assert resumed[0].version == head + 1
        with pytest.raises(httpx.HTTPStatusError) as refused:
            list(dicelog_events.iter_events(client, game_id, last_event_id=10**6))
        assert refused.value.response.status_code == 400
    finally:
        if str(tmp_path / "client") in sys.path:
            sys.path.remove(str(tmp_path / "client"))
        forget()
