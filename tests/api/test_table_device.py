"""One device at a table acts for every seat (issue 10, the table companion): a game created with
``table_device: true`` hands out a table token besides the seats' tokens; it sends each command as the
seat the command is for (the seat controlling the piece, the seat that must answer the pending node, the
seat whose piece has the turn), or as the seat its ``Dicelog-Seat`` header names, and reads as a spectator.
Real app, SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import MICE, SEATS


def _create(client: Any, **options: Any) -> Any:
    body = {"setup": {"chapter": "chapter-1", "mice": MICE}, "seats": SEATS, "dice_mode": "manual", **options}
    return client.post("/games", json=body)


def _auth(token: str, seat: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}"}
    return headers | ({"Dicelog-Seat": seat} if seat else {})


def test_a_table_token_sends_every_seats_commands_each_as_its_seat(client):
    r = _create(client, table_device=True)
    assert r.status_code == 201, r.text
    game, table = r.json()["game"]["id"], r.json()["table_token"]
    seat_of = {m: s["name"] for s in SEATS for m in s["controls"]}
    sent: set[str] = set()
    for _ in range(200):  # answer whatever the table is asked until both seats have acted
        legal = client.get(f"/games/{game}/legal-commands", headers=_auth(table)).json()
        pending = legal["pending"]
        if pending is not None and pending["type"] == "ShuffleRequested":
            command = {"type": "Shuffle", "order": pending["cards"]}
        elif pending is not None and pending["type"] == "RollRequested":
            command = {"type": "Roll", "faces": [3] * pending["dice"]}
        elif pending is not None and pending["type"] == "DrawRequested":
            command = {"type": "Draw", "cards": pending["cards"][: pending["count"]]}
        elif legal["commands"]:
            end = [c for c in legal["commands"] if c["type"] == "EndTurn"]
            command = end[0] if end else legal["commands"][0]
        else:
            raise AssertionError(legal)
        before = client.get(f"/games/{game}").json()
        answer = client.post(f"/games/{game}/commands", json={"command": command}, headers=_auth(table))
        assert answer.status_code == 201, (command, answer.text)
        seat = answer.json()["events"][0]["seat"]
        if command["type"] == "EndTurn":  # a mouse's command is signed by the seat controlling it
            assert seat == seat_of[command["mouse"]] == legal["seat"], (command, seat, legal["seat"])
            assert before["turn"] == command["mouse"]
            sent.add(seat)
        if sent == {"red", "blue"}:
            break
    assert sent == {"red", "blue"}


def test_the_dicelog_seat_header_names_the_seat_and_a_seat_token_cannot_act_for_another(client):
    r = _create(client, table_device=True, undo_policy="all-seats")
    game, table = r.json()["game"]["id"], r.json()["table_token"]
    tokens = {t["seat"]: t["token"] for t in r.json()["tokens"]}
    legal = client.get(f"/games/{game}/legal-commands", headers=_auth(table, "blue")).json()
    assert legal["seat"] == "blue"
    wrong = client.get(f"/games/{game}/legal-commands", headers=_auth(table, "green"))
    assert wrong.status_code == 403 and wrong.headers["content-type"].startswith("application/problem+json")
    other = client.get(f"/games/{game}/legal-commands", headers=_auth(tokens["red"], "blue"))
    assert other.status_code == 403, other.text
    mine = client.get(f"/games/{game}/legal-commands", headers=_auth(tokens["red"], "red"))
    assert mine.status_code == 200 and mine.json()["seat"] == "red"
    # the table reads as a spectator, and the token never appears in what it reads
    summary = client.get(f"/games/{game}", headers=_auth(table))
    assert summary.status_code == 200 and table not in summary.text


@pytest.mark.fresh_app  # lists the games: an empty store
def test_a_game_without_table_device_has_no_table_token_and_a_ruleset_with_secrets_refuses_one(client):
    r = _create(client)
    assert r.status_code == 201 and r.json()["table_token"] is None
    vast = client.post(
        "/games",
        json={
            "ruleset": "vast",
            "setup": {"roles": ["knight", "cave"]},
            "seats": [{"name": "sir", "controls": ["knight"]}, {"name": "deep", "controls": ["cave"]}],
            "table_device": True,
            "visibility": "public",
        },
    )
    assert vast.status_code == 422 and vast.json()["rule"] == "table-device.secrets", vast.text
    assert client.get("/games").json()["games"] == []  # nothing stored


@pytest.mark.fresh_app  # lists the games: an empty store
def test_a_table_device_flag_that_is_not_a_json_boolean_is_a_400(client):
    for flag in (0, 1, "true", None):
        r = _create(client, table_device=flag, visibility="public")
        assert r.status_code == 400 and r.headers["content-type"].startswith("application/problem+json"), (
            r.text
        )
    assert client.get("/games").json()["games"] == []
