"""The REST API, driven through the real app on SQLite and on PostgreSQL."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from dicelog.domain.core.dice import commitment
from tests.api.conftest import MICE, Table


def _turn_mouse(table: Table) -> str:
    return table.summary()["turn"]


def test_create_returns_one_token_per_seat_and_a_dice_commitment(client):
    table = Table(client)
    assert set(table.tokens) == {"red", "blue"}
    assert len(table.game["dice_commitment"]) == 64
    assert table.game["pending"] is None and table.game["turn"] in {"collin", "filch", "maginos", "nez"}


def test_bad_setup_is_a_422_problem_and_creates_nothing(client):
    before = client.get("/games").json()["games"]
    r = client.post(
        "/games",
        json={
            "setup": {"chapter": "chapter-1", "mice": ["collin", "filch", "maginos", "lily"]},
            "seats": [{"name": "red", "controls": ["collin", "filch", "maginos", "lily"]}],
        },
    )
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json")
    problem = r.json()
    assert problem["type"].startswith("urn:dicelog:rule:setup.") and problem["section"]
    assert client.get("/games").json()["games"] == before


def test_malformed_json_is_a_400_problem(client):
    r = client.post("/games", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.headers["content-type"].startswith("application/problem+json")


def test_a_move_rolls_server_dice_and_answers_with_the_events(client):
    table = Table(client)
    mouse = _turn_mouse(table)
    r = table.send(table.seat_of(mouse), {"type": "Move", "mouse": mouse})
    assert r.status_code == 201, r.text
    types = [e["type"] for e in r.json()["events"]]
    assert types[:2] == ["CommandAccepted", "RollRequested"] and "DiceRolled" in types
    assert r.json()["pending"] is None


def test_a_command_for_another_seats_mouse_is_403_and_writes_nothing(client):
    table = Table(client)
    mouse = _turn_mouse(table)
    other = "blue" if table.seat_of(mouse) == "red" else "red"
    n = len(table.events())
    r = table.send(other, {"type": "Move", "mouse": mouse})
    assert r.status_code == 403 and r.json()["type"] == "urn:dicelog:problem:forbidden"
    assert len(table.events()) == n


def test_no_token_is_401(client):
    table = Table(client)
    r = client.post(f"/games/{table.id}/commands", json={"command": {"type": "EndTurn", "mouse": "nez"}})
    assert r.status_code == 401


def test_a_stale_expected_version_is_409_and_the_event_count_does_not_change(client):
    table = Table(client)
    mouse = _turn_mouse(table)
    n = len(table.events())
    r = table.send(table.seat_of(mouse), {"type": "Move", "mouse": mouse}, expected_version=n - 1)
    assert r.status_code == 409 and r.json()["current_version"] == n
    assert len(table.events()) == n
    r = table.send(table.seat_of(mouse), {"type": "Move", "mouse": mouse}, expected_version=n)
    assert r.status_code == 201


def test_a_retry_with_the_same_idempotency_key_returns_the_same_body_and_stores_once(client):
    table = Table(client)
    mouse = _turn_mouse(table)
    seat = table.seat_of(mouse)
    first = table.send(seat, {"type": "EndTurn", "mouse": mouse}, headers={"Idempotency-Key": "k-1"})
    n = len(table.events())
    again = table.send(seat, {"type": "EndTurn", "mouse": mouse}, headers={"Idempotency-Key": "k-1"})
    assert first.status_code == again.status_code == 201
    assert again.content == first.content
    assert len(table.events()) == n
    other = table.send(seat, {"type": "Move", "mouse": mouse}, headers={"Idempotency-Key": "k-1"})
    assert other.status_code == 422 and other.json()["type"] == "urn:dicelog:problem:idempotency-key-reused"


def test_a_rule_violation_names_the_rule_and_section_and_changes_nothing(client):
    table = Table(client)
    mouse = _turn_mouse(table)
    not_turn = next(m for m in ("collin", "filch", "maginos", "nez") if m != mouse)
    n = len(table.events())
    r = table.send(table.seat_of(not_turn), {"type": "Move", "mouse": not_turn})
    assert r.status_code in (409, 422)
    problem = r.json()
    assert problem["type"].startswith("urn:dicelog:rule:") and problem["rule"] and problem["section"]
    assert len(table.events()) == n


def test_events_are_paginated_and_carry_seat_command_and_chain_hash(client):
    table = Table(client)
    page = client.get(f"/games/{table.id}/events", params={"limit": 5}).json()
    assert [e["version"] for e in page["events"]] == [1, 2, 3, 4, 5] and page["next_after"] == 5
    nxt = client.get(f"/games/{table.id}/events", params={"after": 5, "limit": 5}).json()
    assert nxt["events"][0]["prev_hash"] == page["events"][-1]["hash"]
    assert all(e["seat"] and e["command_id"] for e in page["events"])


def test_state_at_every_version_is_the_replay_of_that_prefix(client):
    table = Table(client)
    mouse = _turn_mouse(table)
    table.send(table.seat_of(mouse), {"type": "Move", "mouse": mouse})
    latest = client.get(f"/games/{table.id}/state").json()
    assert client.get(f"/games/{table.id}/state", params={"version": latest["version"]}).json() == latest
    first = client.get(f"/games/{table.id}/state", params={"version": 1}).json()
    assert first["version"] == 1
    assert (
        client.get(f"/games/{table.id}/state", params={"version": latest["version"] + 1}).status_code == 404
    )


def test_legal_commands_are_accepted(client):
    table = Table(client)
    mouse = _turn_mouse(table)
    seat = table.seat_of(mouse)
    legal = client.get(f"/games/{table.id}/legal-commands", headers=table.auth(seat)).json()
    assert legal["commands"], legal
    r = table.send(seat, legal["commands"][0])
    assert r.status_code == 201, r.text


def test_manual_dice_mode_takes_the_faces_from_the_table(client):
    table = Table(client, dice_mode="manual")
    assert table.summary()["pending"]["type"] == "ShuffleRequested"
    cards = table.summary()["pending"]["cards"]
    mice_first = sorted(cards, key=lambda card: card not in MICE)  # the table's shuffle: mice, then the rats
    r = table.send("red", {"type": "Shuffle", "order": mice_first})
    assert r.status_code == 201, r.text
    mouse = _turn_mouse(table)
    seat = table.seat_of(mouse)
    table.send(seat, {"type": "Move", "mouse": mouse})
    pending = table.summary()["pending"]
    assert pending["type"] == "RollRequested" and pending["piece"] == mouse
    other = "blue" if seat == "red" else "red"
    assert table.send(other, {"type": "Roll", "faces": [3]}).status_code == 403
    assert table.send(seat, {"type": "Roll", "faces": [3, 3]}).status_code == 422
    r = table.send(seat, {"type": "Roll", "faces": [3]})
    assert r.status_code == 201 and "DiceRolled" in [e["type"] for e in r.json()["events"]]


def test_server_dice_mode_refuses_client_rolls(client):
    table = Table(client)
    r = table.send("red", {"type": "Roll", "faces": [1]})
    assert r.status_code == 422 and r.json()["rule"] == "roll.server-dice"


def test_verify_passes_on_an_untouched_log(client):
    table = Table(client)
    mouse = _turn_mouse(table)
    table.send(table.seat_of(mouse), {"type": "Move", "mouse": mouse})
    report = client.post(f"/games/{table.id}/verify").json()["verification"]
    assert report["ok"] and report["events"] == len(table.events())


@pytest.mark.fresh_app  # waits 10 s for the projections: only this game's events to catch up on
def test_projections_serve_initiative_board_and_log(client):
    table = Table(client)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        r = client.get(f"/games/{table.id}/log")
        if r.status_code == 200 and client.get(f"/games/{table.id}/board").status_code == 200:
            break
        time.sleep(0.05)
    version = table.summary()["version"]
    while (
        time.monotonic() < deadline
        and client.get(f"/games/{table.id}/initiative").json().get("version") != version
    ):
        time.sleep(0.05)
    initiative = client.get(f"/games/{table.id}/initiative").json()
    assert initiative["version"] == version
    assert client.get(f"/games/{table.id}/board").json()["board"]
    assert client.get(f"/games/{table.id}/log").json()["lines"]


def test_the_log_says_which_game_version_it_has_reached(client):
    """``GET /games/{id}/log``'s ``version``: every line up to it is in the log, events without a line
    included (a Move's ``CommandAccepted`` and ``RollRequested`` tell nothing), so a table that knows a
    later version can tell the log is behind."""
    table = Table(client)
    mouse = _turn_mouse(table)
    assert table.send(table.seat_of(mouse), {"type": "Move", "mouse": mouse}).status_code == 201
    version = table.summary()["version"]
    deadline = time.monotonic() + 10
    log = client.get(f"/games/{table.id}/log").json()
    while time.monotonic() < deadline and log.get("version") != version:
        time.sleep(0.05)
        log = client.get(f"/games/{table.id}/log").json()
    assert log["version"] == version
    told = [line["version"] for line in log["lines"]]
    assert told and max(told) <= version and len(told) < version  # some events have no line
    page = client.get(f"/games/{table.id}/log", params={"after": 0, "limit": 1}).json()
    assert page["version"] == version and len(page["lines"]) == 1  # a short page still names the position


def test_unknown_game_is_404_problem(client):
    r = client.get("/games/00000000-0000-0000-0000-000000000000")
    assert r.status_code == 404 and r.headers["content-type"].startswith("application/problem+json")


@pytest.mark.fresh_app  # lists the games: an empty store
def test_public_games_are_listed_with_a_cursor_and_others_only_with_their_token(client):
    """docs/api.md, Access: public games are listed; unlisted and private ones only for their tokens."""
    ids = [Table(client, visibility="public").id for _ in range(3)]
    unlisted, private = Table(client), Table(client, visibility="private")
    page = client.get("/games", params={"limit": 2}).json()
    assert [g["id"] for g in page["games"]] == ids[:2] and page["next_cursor"]
    rest = client.get("/games", params={"limit": 2, "cursor": page["next_cursor"]}).json()
    assert [g["id"] for g in rest["games"]] == ids[2:]
    assert rest["next_cursor"] is None
    mine = client.get("/games", params={"limit": 50}, headers=private.auth("blue")).json()["games"]
    assert [g["id"] for g in mine] == [*ids, private.id]
    spectating = client.get("/games", headers={"Authorization": f"Bearer {unlisted.spectator_token}"}).json()
    assert unlisted.id in [g["id"] for g in spectating["games"]] and private.id not in str(spectating)
    assert client.get("/games", headers={"Authorization": "Bearer nope"}).status_code == 401


def test_the_dice_commitment_is_sha256_of_a_32_byte_seed(client):
    table = Table(client)
    runtime = client.app.state.runtime
    from uuid import UUID

    seed = bytes.fromhex(runtime.games.secret(UUID(table.id)).seed)
    assert len(seed) == 32 and commitment(seed) == table.game["dice_commitment"]
    assert all(table.game["dice_commitment"] not in str(e["payload"].get("seed")) for e in table.events())


@pytest.mark.parametrize("backend", ["sqlite"], indirect=False)
def test_altering_one_stored_event_is_detected_by_verify(client, tmp_path: Path):
    table = Table(client)
    mouse = _turn_mouse(table)
    table.send(table.seat_of(mouse), {"type": "Move", "mouse": mouse})
    n = len(table.events())
    db = sqlite3.connect(tmp_path / "games.sqlite")
    (state,) = (
        db.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = 5",
            (table.id.replace("-", ""),),
        ).fetchone()
        or db.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = 5", (table.id,)
        ).fetchone()
    )
    edited = state.replace(b'"seat":"server"', b'"seat":"red"')
    assert edited != state
    db.execute(
        "UPDATE stored_events SET state = ? WHERE originator_version = 5 AND state = ?", (edited, state)
    )
    db.commit()
    client.app.state.runtime.games.repository.cache.cache.clear() if hasattr(
        client.app.state.runtime.games.repository.cache, "cache"
    ) else None
    report = client.post(f"/games/{table.id}/verify").json()["verification"]
    assert not report["ok"] and report["divergence"]["version"] == 5 and report["events"] == n


def test_metrics_count_requests_by_route_not_by_game_id(client):
    table = Table(client)
    client.get(f"/games/{table.id}")
    text = client.get("/metrics").text
    assert "dicelog_requests_total" in text and 'path="/games/{game_id}"' in text
    assert table.id not in text
