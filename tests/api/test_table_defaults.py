"""Defaults that suit a table (issue 10, the table companion): a manual-dice game lets a mistyped
roll be fixed unless the creator chose otherwise (undo policy ``all-seats``); a server-dice game has
no undo unless asked. Through the real app on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

MICE = ["collin", "filch", "maginos", "nez"]


def _create(client: Any, **options: Any) -> Any:
    body = {
        "setup": {"chapter": "chapter-1", "mice": MICE},
        "seats": [{"name": "table", "controls": MICE}],
        "decision_policy": "default",
        **options,
    }
    r = client.post("/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def test_the_undo_policy_defaults_by_dice_mode_and_an_explicit_one_is_kept(client):
    assert _create(client, dice_mode="manual")["game"]["undo_policy"] == "all-seats"
    assert _create(client, dice_mode="server")["game"]["undo_policy"] == "none"
    assert _create(client, dice_mode="manual", undo_policy="none")["game"]["undo_policy"] == "none"


def test_a_table_fixes_a_mistyped_roll_with_the_default_undo_policy(client):
    created = _create(client, dice_mode="manual")
    game, auth = created["game"]["id"], {"Authorization": f"Bearer {created['tokens'][0]['token']}"}

    def send(command: dict[str, Any]) -> Any:
        return client.post(f"/games/{game}/commands", json={"command": command}, headers=auth)

    cards = client.get(f"/games/{game}").json()["pending"]["cards"]
    assert send({"type": "Shuffle", "order": sorted(cards, key=lambda c: c not in MICE)}).status_code == 201
    mouse = client.get(f"/games/{game}").json()["turn"]
    assert send({"type": "Move", "mouse": mouse}).status_code == 201
    before_roll = client.get(f"/games/{game}").json()["version"]
    assert send({"type": "Roll", "faces": ["cheese"]}).status_code == 201  # the die showed a bow
    undo = send({"type": "RequestUndo", "to_version": before_roll})
    assert undo.status_code == 201, undo.text  # one seat at the table: no other approval needed
    assert client.get(f"/games/{game}").json()["pending"]["type"] == "RollRequested"
    fixed = send({"type": "Roll", "faces": ["bow"]})
    assert fixed.status_code == 201, fixed.text
    assert client.post(f"/games/{game}/verify").json()["verification"]["ok"]
