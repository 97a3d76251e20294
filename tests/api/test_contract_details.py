"""Small parts of the contract (docs/api-contract.md): ``Deprecation``/``Sunset`` on the legacy
content paths, ``X-Request-ID`` on every answer, validation errors naming the offending field, and
a ``Last-Event-ID`` past the head of a running game refused rather than waited on."""

from __future__ import annotations

from typing import Any

from tests.api.conftest import MICE, SEATS, Table

GAME = {"setup": {"chapter": "chapter-1", "mice": MICE}, "seats": SEATS}


def test_legacy_content_paths_say_they_are_deprecated_and_name_their_successor(client):
    legacy = client.get("/content/mice")
    assert legacy.status_code == 200
    assert legacy.headers["deprecation"].startswith("@") and int(legacy.headers["deprecation"][1:]) > 0
    assert legacy.headers["sunset"].endswith("GMT")
    assert legacy.headers["link"] == '</content/mice-and-mystics/mice>; rel="successor-version"'
    successor = client.get("/content/mice-and-mystics/mice")
    assert successor.json() == legacy.json()
    assert "deprecation" not in successor.headers and "sunset" not in successor.headers
    tile = client.get("/content/tiles/1")
    assert tile.status_code == 200 and tile.headers["link"].startswith("</content/mice-and-mystics/tiles>")
    paths = client.get("/schema/openapi.json").json()["paths"]
    declared = paths["/content/mice"]["get"]["responses"]["200"]["headers"]
    assert {"Deprecation", "Sunset", "Link"} <= set(declared)
    current = paths["/content/mice-and-mystics/mice"]["get"]["responses"]["200"].get("headers", {})
    assert not {"Deprecation", "Sunset", "Link"} & set(current)


def test_every_answer_carries_an_x_request_id_404s_and_405s_included(client):
    answers: list[Any] = [
        client.get("/no-such-path"),
        client.get("/games/not-a-uuid"),
        client.get("/games/00000000-0000-0000-0000-000000000000"),
        client.delete("/games"),
        client.get("/health"),
        client.post("/games", json={"nonsense": True}),
    ]
    for r in answers:
        assert len(r.headers.get("x-request-id", "")) >= 16, (r.request.url, r.status_code, r.headers)
    assert len({r.headers["x-request-id"] for r in answers}) == len(answers)
    for path in ("/no-such-path", "/health"):
        r = client.get(path, headers={"X-Request-ID": "trace-42.a"})
        assert r.headers["x-request-id"] == "trace-42.a", path
        r = client.get(path, headers={"X-Request-ID": "bad id\x7f"})
        assert r.headers["x-request-id"] != "bad id\x7f" and len(r.headers["x-request-id"]) == 32


def test_an_unknown_field_is_named_in_the_validation_error(client):
    r = client.post("/games", json={**GAME, "bogus": 1})
    assert r.status_code == 400, r.text
    errors = r.json()["errors"]
    assert [(e["key"], e["source"]) for e in errors] == [("bogus", "body")], errors
    r = client.post("/games", json={**GAME, "seats": [{**SEATS[0], "name": 5}, SEATS[1]]})
    assert r.status_code == 400 and r.json()["errors"][0]["key"] == "seats[0].name", r.text


def test_last_event_id_past_the_head_of_a_running_game_is_refused_not_waited_on(client):
    table = Table(client)
    version = table.summary()["version"]
    r = client.get(f"/games/{table.id}/stream", headers={"Last-Event-ID": str(version + 1)})
    assert r.status_code == 400, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    errors = r.json()["errors"]
    assert errors[0]["key"] == "Last-Event-ID" and errors[0]["source"] == "header", errors
    assert str(version) in errors[0]["message"]
