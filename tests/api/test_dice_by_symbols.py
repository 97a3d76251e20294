"""Dice by their symbols (issue 10, the table companion): a table enters a manual roll by what the
die shows (``bow-star``, ``cheese``...), as ``/content/mice-and-mystics/dice`` lists the faces
(docs/mice-and-mystics/facts.md §1). Driven through the real app on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

MICE = ["collin", "filch", "maginos", "nez"]


def _manual_game_at_a_roll(client: Any) -> tuple[str, dict[str, str]]:
    body = {
        "setup": {"chapter": "chapter-1", "mice": MICE},
        "seats": [{"name": "table", "controls": MICE}],
        "dice_mode": "manual",
        "decision_policy": "default",
    }
    r = client.post("/games", json=body)
    assert r.status_code == 201, r.text
    game, auth = r.json()["game"]["id"], {"Authorization": f"Bearer {r.json()['tokens'][0]['token']}"}
    cards = client.get(f"/games/{game}").json()["pending"]["cards"]
    send = {"command": {"type": "Shuffle", "order": sorted(cards, key=lambda c: c not in MICE)}}
    assert client.post(f"/games/{game}/commands", json=send, headers=auth).status_code == 201
    mouse = client.get(f"/games/{game}").json()["turn"]
    move = {"command": {"type": "Move", "mouse": mouse}}
    assert client.post(f"/games/{game}/commands", json=move, headers=auth).status_code == 201
    assert client.get(f"/games/{game}").json()["pending"]["type"] == "RollRequested"
    return game, auth


def test_the_action_die_is_served_face_by_face_with_the_names_a_roll_may_send(client):
    dice = client.get("/content/mice-and-mystics/dice").json()
    assert [(d["face"], d["name"], d["move"]) for d in dice] == [
        (1, "cheese", 1),
        (2, "sword-star", 2),
        (3, "sword-shield", 3),
        (4, "bow", 2),
        (5, "bow-star", 1),
        (6, "sword-shield-star", 3),
    ]
    assert [d["face"] for d in dice if d["star"]] == [2, 5, 6]
    assert [d["face"] for d in dice if d["block"]] == [3, 6]


def test_a_manual_roll_entered_by_symbol_is_the_same_roll_as_by_number(client):
    game, auth = _manual_game_at_a_roll(client)
    before = client.get(f"/games/{game}").json()["version"]
    bad = client.post(
        f"/games/{game}/commands", json={"command": {"type": "Roll", "faces": ["sword"]}}, headers=auth
    )
    assert bad.status_code == 422 and bad.json()["rule"] == "roll.unknown-face"
    assert "bow-star" in bad.json()["detail"]  # the message names the faces a table may enter
    assert client.get(f"/games/{game}").json()["version"] == before  # nothing stored
    r = client.post(
        f"/games/{game}/commands", json={"command": {"type": "Roll", "faces": ["bow-star"]}}, headers=auth
    )
    assert r.status_code == 201, r.text
    rolled = next(e for e in r.json()["events"] if e["type"] == "DiceRolled")
    assert rolled["payload"]["faces"] == [5] and rolled["payload"]["source"] == "manual"
    accepted = next(e for e in r.json()["events"] if e["type"] == "CommandAccepted")
    assert accepted["payload"]["command"] == {"type": "Roll", "faces": ["bow-star"]}  # as the table said
    assert client.post(f"/games/{game}/verify").json()["verification"]["ok"]
