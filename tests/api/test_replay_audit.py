"""Replay, audit and undo through the API: turns, rounds, dice proof, undo marks, forks, export."""

from __future__ import annotations

import io
import time
from uuid import UUID

import msgspec
import pytest

from dicelog.domain.core import registry
from dicelog.service.app.export import export_lines, verify_file
from tests.api.conftest import MICE, SEATS, Table


def _end_turns(table: Table, n: int) -> None:
    for _ in range(n):
        mouse = table.summary()["turn"]
        assert table.send(table.seat_of(mouse), {"type": "EndTurn", "mouse": mouse}).status_code == 201


def _move(table: Table) -> dict:
    mouse = table.summary()["turn"]
    r = table.send(table.seat_of(mouse), {"type": "Move", "mouse": mouse})
    assert r.status_code == 201, r.text
    return r.json()


def test_a_turn_is_replayed_with_its_commands_dice_and_states(client):
    table = Table(client)
    _move(table)
    _end_turns(table, 1)
    turns = []
    for n in range(1, 20):
        r = client.get(f"/games/{table.id}/turns/{n}")
        if r.status_code == 404:
            break
        turns.append(r.json())
    turn = next(t for t in turns if any(c["command"]["type"] == "Move" for c in t["commands"]))
    assert turn["from_version"] < turn["to_version"]
    assert [c["command"]["type"] for c in turn["commands"]][:2] == ["Move", "Roll"]
    assert any(d["event"]["type"] == "DiceRolled" for d in turn["dice"]) and turn["log"]
    assert turn["state_before"] != turn["state_after"]
    versions = [e["version"] for e in turn["events"]]
    assert versions == list(range(turn["from_version"], turn["to_version"] + 1))
    assert client.get(f"/games/{table.id}/turns/999").status_code == 404
    assert client.get(f"/games/{table.id}/rounds/1").json()["kind"] == "round"


def test_events_can_be_filtered_by_seat_type_and_round(client):
    table = Table(client)
    _move(table)
    by_type = client.get(f"/games/{table.id}/events", params={"type": "DiceRolled"}).json()["events"]
    assert by_type and {e["type"] for e in by_type} == {"DiceRolled"}
    mouse_seat = table.seat_of(table.summary()["turn"])
    by_seat = client.get(f"/games/{table.id}/events", params={"seat": mouse_seat}).json()["events"]
    assert by_seat and {e["seat"] for e in by_seat} == {mouse_seat}
    by_round = client.get(f"/games/{table.id}/events", params={"round": 1}).json()["events"]
    assert by_round and {e["round"] for e in by_round} == {1}


def test_the_dice_proof_shows_the_commitment_and_every_roll_but_not_the_seed_before_the_end(client):
    table = Table(client)
    _move(table)
    proof = client.get(f"/games/{table.id}/dice").json()
    assert proof["commitment"] == table.game["dice_commitment"] and proof["seed"] is None
    assert [c["k"] for c in proof["chances"]] == list(range(len(proof["chances"])))
    assert {c["type"] for c in proof["chances"]} == {"CardsShuffled", "DiceRolled"}


def _host_table(client) -> Table:
    table = Table.__new__(Table)
    table.client = client
    r = client.post(
        "/games",
        json={
            "setup": {"chapter": "chapter-1", "mice": MICE},
            "seats": SEATS,
            "dice_mode": "manual",
            "undo_policy": "host",
        },
    )
    assert r.status_code == 201, r.text
    body = r.json()
    table.id, table.game = body["game"]["id"], body["game"]
    table.tokens = {t["seat"]: t["token"] for t in body["tokens"]}
    cards = sorted(table.summary()["pending"]["cards"], key=lambda card: card not in MICE)
    assert table.send("red", {"type": "Shuffle", "order": cards}).status_code == 201
    return table


def test_undo_returns_the_state_keeps_the_undone_events_marked_and_projections_follow(client):
    table = _host_table(client)
    start = table.summary()["version"]
    before = client.get(f"/games/{table.id}/state").json()["state"]
    mouse = table.summary()["turn"]
    seat = table.seat_of(mouse)
    assert table.send(seat, {"type": "Move", "mouse": mouse}).status_code == 201
    assert table.send(seat, {"type": "Roll", "faces": [6]}).status_code == 201
    n = table.summary()["version"]
    r = table.send("red", {"type": "RequestUndo", "to_version": start})  # red is the host (first seat)
    assert r.status_code == 201, r.text
    assert client.get(f"/games/{table.id}/state").json()["state"] == before
    events = table.events()
    assert len(events) > n, "the undone events are still listed"
    assert [e["version"] for e in events if e["undone"]] == list(range(start + 1, n + 1))
    assert client.post(f"/games/{table.id}/verify").json()["verification"]["ok"]

    def log_lines() -> list[dict]:
        return client.get(f"/games/{table.id}/log", params={"limit": 1000}).json().get("lines", [])

    deadline = time.monotonic() + 10  # the log is a projection: it follows the store a moment later
    while not any(line["type"] == "UndoApplied" for line in log_lines()) and time.monotonic() < deadline:
        time.sleep(0.05)
    lines = log_lines()
    marked = {line["version"] for line in lines if line["undone"]}
    assert marked and marked <= set(range(start + 1, n + 1))  # the undone lines, and only those
    assert all(not line["undone"] for line in lines if line["version"] <= start)


def test_undo_refused_by_policy_is_a_rule_problem(client):
    table = Table(client)
    r = table.send("red", {"type": "RequestUndo", "to_version": 3})
    assert r.status_code == 422 and r.json()["rule"] == "undo.not-allowed"


def test_a_fork_of_a_running_game_rolls_from_a_fresh_seed_and_hands_out_only_the_forkers_place(client):
    """docs/event-model.md, Undo never deletes (forks): the fork commits to a new seed (else playing it to the
    end would reveal the original's future rolls); only the forking seat gets a seat token, the
    others claim theirs once with their token of the original."""
    table = Table(client)
    _move(table)
    version = table.summary()["version"]
    r = client.post(f"/games/{table.id}/forks", json={"version": version}, headers=table.auth("red"))
    assert r.status_code == 201, r.text
    body = r.json()
    fork = Table.__new__(Table)
    fork.client, fork.id = client, body["game"]["id"]
    fork.tokens = {t["seat"]: t["token"] for t in body["tokens"]}
    assert list(fork.tokens) == ["red"] and body["spectator_token"] and body["auditor_token"] is None
    assert body["game"]["version"] == version
    assert body["game"]["dice_commitment"] != table.game["dice_commitment"]
    claim = client.post(f"/games/{fork.id}/claims", headers=table.auth("blue"))
    assert claim.status_code == 201 and claim.json()["audience"] == "seat:blue"
    fork.tokens["blue"] = claim.json()["token"]
    again = client.post(f"/games/{fork.id}/claims", headers=table.auth("blue"))
    assert (
        again.status_code == 422
        and again.json()["type"].endswith("already-claimed")
        and again.headers["content-type"].startswith("application/problem+json")
    )
    assert client.post(f"/games/{fork.id}/claims", headers=fork.auth("blue")).status_code == 401
    for t in (table, fork):
        mouse = t.summary()["turn"]
        legal = client.get(f"/games/{t.id}/legal-commands", headers=t.auth(t.seat_of(mouse))).json()[
            "commands"
        ]
        move_to = next(c for c in legal if c["type"] == "MoveTo")
        assert t.send(t.seat_of(mouse), move_to).status_code == 201
        _end_turns(t, 2)
    created = fork.events()[0]["payload"]
    assert created["forked_from"]["game_id"] == table.id and created["forked_from"]["version"] == version
    assert created["forked_from"]["reseeded"] is True
    assert client.post(f"/games/{fork.id}/verify").json()["verification"]["ok"]
    runtime = client.app.state.runtime
    from uuid import UUID

    assert runtime.games.secret(UUID(fork.id)).seed != runtime.games.secret(UUID(table.id)).seed


def test_a_fork_needs_a_seat_token_and_a_command_boundary(client):
    table = Table(client)
    assert client.post(f"/games/{table.id}/forks", json={"version": 2}).status_code == 401
    r = client.post(f"/games/{table.id}/forks", json={"version": 2}, headers=table.auth("red"))
    assert r.status_code == 422 and r.json()["rule"] == "fork.not-a-command-boundary"


@pytest.mark.parametrize("backend", ["sqlite"])
def test_an_exported_log_verifies_offline_and_an_edited_line_is_named(client):
    table = Table(client)
    _move(table)
    games = client.app.state.runtime.games
    stored = games.recorder.select_events(UUID(table.id))
    text = b"\n".join(export_lines(UUID(table.id), stored)) + b"\n"
    assert verify_file(io.BytesIO(text)).ok
    lines = text.splitlines()
    lines[7] = (
        lines[7].replace(b'"seat":"server"', b'"seat":"blue"').replace(b'"seat":"red"', b'"seat":"blue"')
    )
    report = verify_file(io.BytesIO(b"\n".join(lines)))
    assert not report.ok and report.divergence.version == 7


@pytest.mark.fresh_app  # waits 10 s for the projections: only this game's events to catch up on
def test_projections_show_the_state_after_an_undo(client):
    table = _host_table(client)
    start = table.summary()["version"]
    mouse = table.summary()["turn"]
    seat = table.seat_of(mouse)
    assert table.send(seat, {"type": "Move", "mouse": mouse}).status_code == 201
    assert table.send(seat, {"type": "Roll", "faces": [6]}).status_code == 201
    assert table.send("red", {"type": "RequestUndo", "to_version": start}).status_code == 201
    version = table.summary()["version"]
    deadline = time.monotonic() + 10
    while (
        time.monotonic() < deadline
        and client.get(f"/games/{table.id}/board").json().get("version") != version
    ):
        time.sleep(0.05)
    game = client.app.state.runtime.games.game(UUID(table.id))
    ruleset = registry.get("mice-and-mystics")

    def as_json(value: object) -> object:  # as the API shows a ruleset's document: tagged by ``ruleset``
        return {"ruleset": "mice-and-mystics", **msgspec.json.decode(msgspec.json.encode(value))}

    assert client.get(f"/games/{table.id}/board").json()["board"] == as_json(ruleset.board_view(game.state))
    while (
        time.monotonic() < deadline
        and client.get(f"/games/{table.id}/initiative").json().get("version") != version
    ):
        time.sleep(0.05)
    assert client.get(f"/games/{table.id}/initiative").json()["initiative"] == as_json(
        ruleset.initiative_view(game.state)
    )

    def log_lines() -> list[dict[str, object]]:
        return client.get(f"/games/{table.id}/log", params={"limit": 1000}).json()["lines"]

    # the log projection catches up on its own thread, as the board's and the initiative's do above
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any(line["type"] == "UndoApplied" for line in log_lines()):
        time.sleep(0.05)
    assert any(line["type"] == "UndoApplied" for line in log_lines()), "the log says the game was rewound"
