"""HTTP caching (docs/api-contract.md, HTTP caching; service/http/cache.py): a strong ETag on the
reads of a game and of content, 304 for a conditional GET, Cache-Control no-cache while the game
runs and immutable once it ended, private for a token's view, Link rel="next" on event pages."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from tests.api.test_fair_forks import _auth, _new, _play_to_end

READS = ["", "/events", "/state", "/state?version=1", "/dice", "/export"]


def _conditional(client: TestClient[Any], path: str, headers: dict[str, str]) -> tuple[Any, Any]:
    first = client.get(path, headers=headers)
    assert first.status_code == 200, (path, first.text)
    etag = first.headers["etag"]
    assert etag.startswith('"') and etag.endswith('"') and not etag.startswith("W/"), etag
    again = client.get(path, headers={**headers, "If-None-Match": etag})
    return first, again


def test_reads_of_a_running_game_revalidate_and_an_ended_game_is_immutable(race):
    made = _new(race)
    game_id, tokens = made["game"]["id"], {t["seat"]: t["token"] for t in made["tokens"]}
    base = f"/games/{game_id}"
    for tail in READS:
        first, again = _conditional(race, base + tail, {})
        assert first.headers["cache-control"] == "public, no-cache", (tail, first.headers)
        vary = {v.strip() for v in first.headers["vary"].split(",")}
        # the export's two forms (file, JSON document) share its URL: it varies on Accept too
        assert vary == ({"Accept", "Authorization"} if tail == "/export" else {"Authorization"}), (tail, vary)
        assert again.status_code == 304 and again.content == b"", (tail, again.status_code)
        assert again.headers["etag"] == first.headers["etag"]
        seat, _ = _conditional(race, base + tail, _auth(tokens["one"]))
        assert seat.headers["cache-control"] == "private, no-cache", tail
    stale = race.get(base, headers={"If-None-Match": '"0000"'})
    assert stale.status_code == 200 and stale.json()["id"] == game_id
    before = race.get(base).headers["etag"]
    _play_to_end(race, game_id, tokens)
    after = race.get(base, headers={"If-None-Match": before})
    assert after.status_code == 200 and after.headers["etag"] != before, "a new version, a new tag"
    for tail in READS:
        first, again = _conditional(race, base + tail, {})
        assert first.headers["cache-control"] == "public, max-age=31536000, immutable", (tail, first.headers)
        assert again.status_code == 304, tail
        seat, _ = _conditional(race, base + tail, _auth(tokens["two"]))
        assert seat.headers["cache-control"] == "private, max-age=31536000, immutable", tail


def test_errors_and_writes_are_not_tagged_and_the_contract_declares_the_headers(race):
    r = race.get("/games/00000000-0000-0000-0000-000000000000")
    assert r.status_code == 404 and "etag" not in r.headers and "cache-control" not in r.headers
    made = _new(race)
    assert "etag" not in race.post(f"/games/{made['game']['id']}/verify").headers
    paths = race.get("/schema/openapi.json").json()["paths"]
    responses = paths["/games/{game_id}/state"]["get"]["responses"]
    assert {"ETag", "Cache-Control"} <= set(responses["200"]["headers"]) and "304" in responses
    assert "Link" in paths["/games/{game_id}/events"]["get"]["responses"]["200"]["headers"]
    assert "304" not in paths["/games/{game_id}/stream"]["get"]["responses"]


def test_event_pages_link_to_the_next_page_with_the_same_filters(race):
    made = _new(race)
    game_id = made["game"]["id"]
    url = f"/games/{game_id}/events"
    version = race.get(f"/games/{game_id}").json()["version"]
    assert version >= 3
    seen: list[int] = []
    path = f"{url}?limit=1"
    while True:
        r = race.get(path)
        assert r.status_code == 200, r.text
        seen += [e["version"] for e in r.json()["events"]]
        if r.json()["next_after"] is None:
            assert "link" not in r.headers
            break
        link = r.headers["link"]
        assert link.endswith('>; rel="next"') and "limit=1" in link, link
        assert f"after={r.json()['next_after']}" in link
        path = link[1 : link.index(">")]
    assert seen == list(range(1, version + 1))


def test_content_is_cached_publicly_for_a_day(client):
    first, again = _conditional(client, "/content/mice-and-mystics/mice", {})
    assert first.headers["cache-control"] == "public, max-age=86400"
    assert again.status_code == 304 and again.content == b""
