"""``POST /games`` with a Vast sandbox table (``dicelog.domain.vast.rules.sandbox``), through the real app:
what a referee lays is what the game holds and plays on; a table that cannot be is a 422 (``setup.sandbox-*``)
that stores nothing."""

from __future__ import annotations

from typing import Any

ROLES = ["knight", "cave", "thief"]
SEATS = [{"name": "sir", "controls": ["knight"]}, {"name": "deep", "controls": ["cave"]}]
SEATS += [{"name": "rogue", "controls": ["thief"]}]
CELLS = [
    {"x": 0, "y": 0, "tile": "entrance"},
    {"x": 1, "y": 0, "tile": "crystal-04", "lit": True, "crystal": True},
    {"x": 2, "y": 0, "tile": "ambush-01", "treasure": 1},
]
THIEF = {
    "x": 1,
    "y": 0,
    "movement": 4,
    "stealth": 2,
    "thievery": 3,
    "cubes": 3,
    "carried": 2,
    "stashed": 1,
    "upgrades": ["thievery+1"],
    "loot_drop": 1,
}


def _create(client: Any, sandbox: dict[str, Any], roles: list[str] = ROLES, seats: Any = SEATS) -> Any:
    body = {"ruleset": "vast", "setup": {"roles": roles, "sandbox": sandbox}, "seats": seats}
    return client.post("/games", json=body)


def _token(created: Any, seat: str) -> dict[str, str]:
    token = next(t["token"] for t in created.json()["tokens"] if t.get("seat") == seat)
    return {"Authorization": f"Bearer {token}"}


def test_the_thief_is_laid_mid_turn_and_moves_on__rulebook_il_ladro(client):
    """Vast rulebook, Il Ladro: his Stat tokens, Action cubes, carried and stashed tokens, Upgrades and Loot
    Drop are as laid; on his own turn laid as it stands he moves onto the Entrance and stashes."""
    r = _create(client, {"cells": CELLS, "turn": "thief", "thief": THIEF, "fill_open_edges": False})
    assert r.status_code == 201, r.text
    game = r.json()["game"]["id"]
    rogue = _token(r, "rogue")
    thief = client.get(f"/games/{game}/state", headers=rogue).json()["state"]["thief"]
    assert {k: thief[k] for k in ("x", "y", "movement", "stealth", "thievery", "cubes", "carried")} == {
        "x": 1,
        "y": 0,
        "movement": 4,
        "stealth": 2,
        "thievery": 3,
        "cubes": 3,
        "carried": 2,
    }
    assert thief["stashed"] == 1 and thief["upgrades"] == ["thievery+1"] and thief["loot_drop"] == 1
    legal = client.get(f"/games/{game}/legal-commands", headers=rogue).json()
    assert legal["turn"] == "thief"
    move = {"type": "vast.MoveThief", "x": 0, "y": 0, "climb": False}
    played = client.post(
        f"/games/{game}/commands", json={"command": move, "expected_version": legal["version"]}, headers=rogue
    )
    assert played.status_code in (200, 201), played.text
    log = client.get(f"/games/{game}/events", headers=rogue).json()["events"]
    events = [e["payload"]["type"] for e in log]
    assert "vast.TreasureStashed" in events
    assert client.post(f"/games/{game}/verify").json()["verification"]["ok"]


def test_a_thief_that_cannot_be_is_a_422_and_nothing_is_stored(client):
    listed = client.get("/games", params={"limit": 200}).json()
    r = _create(client, {"cells": CELLS, "turn": "thief", "thief": {**THIEF, "upgrades": ["flip-3"]}})
    assert r.status_code == 422 and r.json()["rule"] == "setup.sandbox-thief", r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert client.get("/games", params={"limit": 200}).json() == listed


def test_the_event_decks_top_is_laid_for_the_cave_alone__rulebook_la_caverna_eventi(client):
    """Vast rulebook, La Caverna, Eventi: the Cave reads the Event deck's top three at any time; laid, they
    are the Cave's to read and nobody else's."""
    top = ["light", "rats-1", "fresh-air"]
    sandbox = {
        "cells": CELLS,
        "event_top": top,
        "event_bottom": ["cave-bread"],
        "treasure_bottom": ["javelin"],
    }
    r = _create(client, sandbox)
    assert r.status_code == 201, r.text
    game = r.json()["game"]["id"]
    cave = client.get(f"/games/{game}/state", headers=_token(r, "deep")).json()["state"]
    sir = client.get(f"/games/{game}/state", headers=_token(r, "sir")).json()["state"]
    assert cave["event_top"] == top and cave["event_bottom"] == ["cave-bread"]
    assert "light" not in str(sir["event_top"]) and cave["treasure_bottom"] == ["javelin"]


def test_a_card_laid_twice_or_too_many_crystal_tokens_is_a_422_and_nothing_is_stored(client):
    listed = client.get("/games", params={"limit": 200}).json()
    for sandbox, rule in (
        ({"cells": CELLS, "event_top": ["light"], "event_bottom": ["light"]}, "setup.sandbox-duplicate"),
        ({"cells": CELLS, "treasure_bottom": ["not-a-card"]}, "setup.sandbox-card"),
        ({"cells": CELLS, "stack": ["crystal-04"]}, "setup.sandbox-duplicate"),
        ({"cells": CELLS, "knight": {"x": 1, "y": 0, "smashed": 9}}, "setup.sandbox-crystal"),
    ):
        r = _create(client, sandbox)
        assert r.status_code == 422 and r.json()["rule"] == rule, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
    assert client.get("/games", params={"limit": 200}).json() == listed
