"""Chapter 1 room rules through the REST API in manual dice mode, tables set up as sandboxes
(001 §Capitolo 1, Regole Speciali del Capitolo)."""

from __future__ import annotations

from typing import Any

SEATS = [{"name": "red", "controls": ["collin", "filch"]}]


def create(client: Any, sandbox: dict[str, Any]) -> tuple[str, dict[str, str]]:
    r = client.post("/games", json={"setup": {"chapter": "chapter-1", "mice": ["collin", "filch"], "sandbox": sandbox},
                                    "seats": SEATS, "dice_mode": "manual"})
    assert r.status_code == 201, r.text
    body = r.json()
    return body["game"]["id"], {"Authorization": f"Bearer {body['tokens'][0]['token']}"}


def send(client: Any, game: str, auth: dict[str, str], command: dict[str, Any]) -> list[dict[str, Any]]:
    r = client.post(f"/games/{game}/commands", json={"command": command}, headers=auth)
    assert r.status_code == 201, r.text
    return [e["payload"] for e in r.json()["events"]]


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def test_crow_wounds_a_mouse_rolling_1_for_movement_through_the_api__001_capitolo_1_il_vile_vecchio_corvo(client):
    game, auth = create(client, {"tiles": [{"tile": 1, "column": 0, "row": 0}],
                                 "figures": [{"mouse": "filch", "space": "CY-13"}, {"mouse": "collin", "space": "CY-13"}],
                                 "track": ["filch", "collin"]})
    send(client, game, auth, {"type": "Move", "mouse": "filch"})
    events = send(client, game, auth, {"type": "Roll", "faces": [1]})
    dived = next(e for e in events if e["type"] == "CrowDived")
    assert dived == {"type": "CrowDived", "figure": "filch", "space": "CY-13"}
    assert {"type": "MouseWounded", "mouse": "filch", "wounds": 1} in events
    state = client.get(f"/games/{game}/state").json()["state"]
    assert state["wounds"] == {"filch": 1}


def test_miz_maggie_ally_through_the_api__001_capitolo_1_farsi_vedere_da_miz_maggie(client):
    game, auth = create(client, {"tiles": [{"tile": 3, "column": 0, "row": 0}],
                                 "figures": [{"mouse": "collin", "space": "KI-5"}, {"mouse": "filch", "space": "KI-5"},
                                             {"card": "roaches", "space": "KI-5"}],
                                 "track": ["collin", "roaches", "filch"]})
    send(client, game, auth, {"type": "Battle", "mouse": "collin", "target": "roaches-1"})
    send(client, game, auth, {"type": "Roll", "faces": [2, 2, 2]})
    events = send(client, game, auth, {"type": "Roll", "faces": [4]})
    assert types(events)[-2:] == ["RoachDefeatedInKitchen", "RollRequested"]
    events = send(client, game, auth, {"type": "Roll", "faces": [5]})
    assert {"type": "StoryAchievementGained", "achievement": "miz-maggie-ally"} in events
    board = client.get(f"/games/{game}/state").json()["state"]
    assert board["story_achievements"] == ["miz-maggie-ally"] and board["end_marker_page"] == 7
    assert client.post(f"/games/{game}/verify").json()["verification"]["ok"]


def test_miz_maggie_swats_on_a_miss_through_the_api__001_capitolo_1_farsi_vedere_da_miz_maggie(client):
    game, auth = create(client, {"tiles": [{"tile": 3, "column": 0, "row": 0}],
                                 "figures": [{"mouse": "collin", "space": "KI-5"}, {"mouse": "filch", "space": "KI-5"},
                                             {"card": "roaches", "space": "KI-5"}],
                                 "track": ["collin", "roaches", "filch"]})
    send(client, game, auth, {"type": "Battle", "mouse": "collin", "target": "roaches-1"})
    send(client, game, auth, {"type": "Roll", "faces": [2, 2, 2]})
    send(client, game, auth, {"type": "Roll", "faces": [4]})
    events = send(client, game, auth, {"type": "Roll", "faces": [3]})
    assert types(events)[:4] == ["CommandAccepted", "DiceRolled", "MizMaggieSwatted", "EffectAdded"]
    state = client.get(f"/games/{game}/state").json()["state"]
    assert "roaches-1" in state["board"]["KI-1"] and state["effects"]["collin"] == ["knocked-down"]
