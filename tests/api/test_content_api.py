"""``/content``: the content as data, every record with its provisional flag; 404 problems for unknown ids.

SQLite only (no game is created): this file needs no PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from dicelog.service.http.app import create_app
from dicelog.service.ops.settings import Settings

# search-cards: 71 records (the Leather Breastplate is one record of 2 copies; Tinkerer's Treasure is extra)
LISTS = {
    "mice": 6,
    "minions": 13,
    "abilities": 28,
    "search-cards": 71,
    "equipment": 7,
    "encounters": 18,
    "tiles": 16,
    "chapters": 1,
}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(Settings(data_dir=tmp_path), start_worker=False)) as c:
        yield c


@pytest.mark.parametrize("resource", LISTS)
def test_every_content_list_shows_provisional_and_its_reason(client, resource):
    r = client.get(f"/content/{resource}")
    assert r.status_code == 200, r.text
    items = r.json()
    assert len(items) == LISTS[resource]
    assert all(isinstance(i["provisional"], bool) and isinstance(i["provisional_reason"], str) for i in items)
    assert all(i["provisional_reason"] for i in items if i["provisional"])


def test_tiles_are_listed_by_number(client):
    assert [t["number"] for t in client.get("/content/tiles").json()] == list(range(1, 17))


def test_one_tile_by_number_with_its_space_graph(client):
    r = client.get("/content/tiles/15")
    assert r.status_code == 200
    pipes = r.json()
    assert (pipes["id"], pipes["side"], pipes["reverse"], pipes["provisional"]) == (
        "pipes",
        "orange",
        "sewer-drain-pipe",
        True,
    )
    flips = [s for s in pipes["spaces"] if s["kind"] == "flip"]
    assert [s["flip_classes"] for s in flips] == [["tinkerer", "scamp"]]
    # MM rulebook (it) §Aree Nere e Muri
    assert {e["line"] for e in pipes["edges"]} == {"plain", "yellow", "gap"}


def test_one_chapter_by_id(client):
    r = client.get("/content/chapters/chapter-1")
    assert r.status_code == 200
    assert r.json()["start_space"] == "GR-6" and r.json()["provisional"] is True


def test_chapter_1_room_rules_the_sources_leave_incomplete_are_marked_provisional(client):
    """Issue 10, item 10: the Kitchen counter (start count, roaches while cheese is on it) and Leaving
    the Sewer are garbled or cut in the Italian and Portuguese MM rulebooks: served as provisional, with the
    reason; the rules the sources state in full are not."""
    rules = {r["rule"]: r for r in client.get("/content/chapters/chapter-1").json()["room_rules"]}
    assert {name for name, rule in rules.items() if rule.get("provisional")} == {
        "counter-cheese",
        "leaving-the-sewer",
    }
    assert (
        "docs/mice-and-mystics/rulings.md, Kitchen counter cheese"
        in rules["counter-cheese"]["provisional_reason"]
    )
    assert (
        "docs/mice-and-mystics/rulings.md, Leaving the Sewer"
        in rules["leaving-the-sewer"]["provisional_reason"]
    )
    cards = client.get("/content/search-cards").json()
    treasure = next(c for c in cards if c["id"] == "tinkerers-treasure")
    assert "inferred" not in treasure["provisional_reason"] and "Fabbro" in treasure["provisional_reason"]


@pytest.mark.parametrize("path", ["/content/tiles/99", "/content/tiles/0", "/content/chapters/chapter-99"])
def test_unknown_tiles_and_chapters_are_404_problems(client, path):
    r = client.get(path)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["type"] == "urn:dicelog:problem:not-found"


def test_an_ability_with_an_unknown_cost_says_so(client):
    feint = next(a for a in client.get("/content/abilities").json() if a["id"] == "feint")
    assert (
        feint["cost"] is None and feint["provisional"] is True and "not found" in feint["provisional_reason"]
    )


def test_the_openapi_types_the_content_records(client):
    doc = client.get("/schema/openapi.json").json()
    ok = doc["paths"]["/content/abilities"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"
    ]
    assert ok["items"]["$ref"].endswith("/Ability")
    ability = doc["components"]["schemas"]["Ability"]["properties"]
    assert {"provisional", "provisional_reason", "cost", "classes"} <= set(ability)
    assert "404" in doc["paths"]["/content/tiles/{number}"]["get"]["responses"]
