"""Tokens: a place's token can be rotated (by itself or by the host) and revoked (by the host); a revoked
token is refused at once, by every app on the same store; only tokens' hashes are stored."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
import pytest
from litestar.testing import TestClient

from dicelog.domain.mice_and_mystics.commands import Move
from dicelog.service.app.errors import Unauthorized
from dicelog.service.http.app import create_app
from tests.api.conftest import Table, settings_for
from tests.services import drop_postgres_schema


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def rotate(client: TestClient[Any], game_id: str, token: str, audience: str | None = None) -> Any:
    body = {} if audience is None else {"audience": audience}
    return client.post(f"/games/{game_id}/tokens/rotate", json=body, headers=bearer(token))


def revoke(client: TestClient[Any], game_id: str, token: str, audience: str | None = None) -> Any:
    body = {} if audience is None else {"audience": audience}
    return client.post(f"/games/{game_id}/tokens/revoke", json=body, headers=bearer(token))


def test_a_seat_rotates_its_token_and_the_old_one_is_refused_at_once(client):
    table = Table(client)
    old = table.tokens["blue"]
    assert client.get(f"/games/{table.id}/state", headers=bearer(old)).status_code == 200
    r = rotate(client, table.id, old)
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["audience"] == "seat:blue" and body["game_id"] == table.id
    new = body["token"]
    assert new != old
    refused = client.get(f"/games/{table.id}/state", headers=bearer(old))
    assert refused.status_code == 401
    assert refused.json()["type"] == "urn:dicelog:problem:unauthorized"
    assert client.get("/games", headers=bearer(old)).status_code == 401
    assert rotate(client, table.id, old).status_code == 401  # the old token cannot rotate again
    assert client.get(f"/games/{table.id}/state", headers=bearer(new)).status_code == 200
    listed = client.get("/games", headers=bearer(new)).json()["games"]
    assert table.id in [g["id"] for g in listed]
    # the new token acts as the seat: a command about red's mouse is still red's, not blue's
    table.tokens["blue"] = new
    legal = client.get(f"/games/{table.id}/legal-commands", headers=bearer(new))
    assert legal.status_code == 200


def test_the_host_revokes_a_seat_token_then_hands_the_seat_a_new_one(client):
    table = Table(client)
    host, blue = table.tokens["red"], table.tokens["blue"]
    # a seat that is not the host manages only its own token
    assert revoke(client, table.id, blue, "seat:red").status_code == 403
    assert rotate(client, table.id, blue, "seat:red").status_code == 403
    r = revoke(client, table.id, host, "seat:blue")
    assert r.status_code == 200, r.text
    assert r.json() == {"game_id": table.id, "audience": "seat:blue"}
    assert client.get(f"/games/{table.id}/state", headers=bearer(blue)).status_code == 401
    command = {"type": "Choose", "option": "any"}  # well-formed: the token is checked before the rules
    sent = client.post(f"/games/{table.id}/commands", json={"command": command}, headers=bearer(blue))
    assert sent.status_code == 401, sent.text
    r = rotate(client, table.id, host, "seat:blue")
    assert r.status_code == 201 and r.json()["audience"] == "seat:blue"
    handed = r.json()["token"]
    assert client.get(f"/games/{table.id}/state", headers=bearer(handed)).status_code == 200
    assert client.get(f"/games/{table.id}/state", headers=bearer(blue)).status_code == 401
    # the host rotates a rotated token too (the place's current one is revoked)
    again = rotate(client, table.id, table.auditor_token, "seat:blue")
    assert again.status_code == 201
    assert client.get(f"/games/{table.id}/state", headers=bearer(handed)).status_code == 401
    assert client.get(f"/games/{table.id}/state", headers=bearer(again.json()["token"])).status_code == 200
    # a revoked spectator token too
    assert revoke(client, table.id, host, "spectator").status_code == 200
    assert client.get(f"/games/{table.id}", headers=bearer(table.spectator_token)).status_code == 401


def test_bad_token_requests_are_problems(client):
    table = Table(client)
    host = table.tokens["red"]
    r = rotate(client, table.id, host, "seat:green")
    assert r.status_code == 400
    assert r.json()["errors"][0]["key"] == "audience"
    assert client.post(f"/games/{table.id}/tokens/rotate", json={}).status_code == 401
    assert rotate(client, table.id, "not-a-token").status_code == 401
    other = Table(client)
    assert rotate(client, other.id, host).status_code == 401  # a token of another game
    unknown = client.post(f"/games/{table.id}/tokens/revoke", json={"place": "x"}, headers=bearer(host))
    assert unknown.status_code == 400


def test_a_claimed_fork_place_is_revoked_by_the_forks_host(client):
    table = Table(client)
    head = table.summary()["version"]
    fork = client.post(f"/games/{table.id}/forks", json={"version": head}, headers=table.auth("red"))
    assert fork.status_code == 201, fork.text
    fork_id = fork.json()["game"]["id"]
    fork_host = next(t["token"] for t in fork.json()["tokens"] if t["seat"] == "red")
    claimed = client.post(f"/games/{fork_id}/claims", headers=table.auth("blue"))
    assert claimed.status_code == 201, claimed.text
    blue_fork = claimed.json()["token"]
    assert client.get(f"/games/{fork_id}/state", headers=bearer(blue_fork)).status_code == 200
    assert revoke(client, fork_id, fork_host, "seat:blue").status_code == 200
    assert client.get(f"/games/{fork_id}/state", headers=bearer(blue_fork)).status_code == 401
    # the original's token is untouched
    assert client.get(f"/games/{table.id}/state", headers=table.auth("blue")).status_code == 200


@pytest.mark.parametrize("backend", ["sqlite"])
def test_the_store_holds_hashes_of_tokens_never_the_tokens(client, tmp_path):
    table = Table(client)
    rotated = rotate(client, table.id, table.tokens["blue"]).json()["token"]
    tokens = [*table.tokens.values(), table.spectator_token, table.auditor_token, rotated]
    stored = b"".join(p.read_bytes() for p in Path(tmp_path).rglob("*.sqlite*"))
    for token in tokens:
        digest = hashlib.sha256(token.encode()).hexdigest().encode()
        assert digest in stored or token == table.tokens["blue"]  # the store is readable: hashes are there
        assert token.encode() not in stored


@pytest.mark.postgres
def test_a_revoked_token_is_refused_at_once_by_another_app_on_the_same_postgres_store(tmp_path):
    settings, schema = settings_for("postgres", tmp_path)
    quiet = msgspec.structs.replace(settings, embedded_worker="off")
    try:
        with TestClient(create_app(settings)) as one, TestClient(create_app(quiet)) as two:
            table = Table(one)
            blue = table.tokens["blue"]
            # the second app has read the game with the token (whatever it caches, it has it now)
            for _ in range(3):
                assert two.get(f"/games/{table.id}/state", headers=bearer(blue)).status_code == 200
            assert revoke(one, table.id, table.tokens["red"], "seat:blue").status_code == 200
            assert two.get(f"/games/{table.id}/state", headers=bearer(blue)).status_code == 401
            # a rotation made on the second app holds on the first at once
            host = table.tokens["red"]
            new_host = rotate(two, table.id, host).json()["token"]
            assert one.get(f"/games/{table.id}/state", headers=bearer(host)).status_code == 401
            assert one.get(f"/games/{table.id}/state", headers=bearer(new_host)).status_code == 200
    finally:
        drop_postgres_schema(schema)


def test_a_campaigns_tokens_rotate_and_revoke_for_the_campaign_and_its_chapter_games(client):
    """``POST /campaigns/{id}/tokens/rotate|revoke`` with a game's rules: a seat manages its own token, the
    host (or the auditor) any place's; a campaign's token opens its chapter games, so a rotation or a
    revocation holds there too (a chapter game's own token operations stay 403)."""
    seats = [
        {"name": "red", "controls": ["collin", "filch"]},
        {"name": "blue", "controls": ["maginos", "nez"]},
    ]
    body = {
        "chapters": ["chapter-1"] * 2,
        "party": {"mice": ["collin", "filch", "maginos", "nez"]},
        "seats": seats,
        "dice_mode": "manual",
        "undo_policy": "host",
    }
    made = client.post("/campaigns", json=body)
    assert made.status_code == 201, made.text
    campaign = made.json()["campaign"]["id"]
    tokens = {t["seat"]: t["token"] for t in made.json()["tokens"]}
    host, blue = tokens["red"], tokens["blue"]
    started = client.post(f"/campaigns/{campaign}/chapters", headers=bearer(host))
    assert started.status_code == 201, started.text
    chapter = started.json()["game"]["id"]

    def reads(token: str) -> tuple[int, int]:
        return (
            client.get(f"/campaigns/{campaign}", headers=bearer(token)).status_code,
            client.get(f"/games/{chapter}/state", headers=bearer(token)).status_code,
        )

    url = f"/campaigns/{campaign}/tokens"
    assert rotate(client, chapter, blue).status_code == 403  # rotated as the campaign's, not per chapter
    assert (
        client.post(f"{url}/revoke", json={"audience": "seat:red"}, headers=bearer(blue)).status_code == 403
    )
    r = client.post(f"{url}/rotate", json={}, headers=bearer(blue))
    assert r.status_code == 201, r.text
    assert r.headers["location"].endswith(f"/campaigns/{campaign}")
    assert {k: v for k, v in r.json().items() if k != "token"} == {
        "campaign_id": campaign,
        "audience": "seat:blue",
    }
    fresh = r.json()["token"]
    assert reads(blue) == (401, 401) and reads(fresh) == (200, 200)
    r = client.post(f"{url}/revoke", json={"audience": "seat:blue"}, headers=bearer(host))
    assert r.status_code == 200 and r.json() == {"campaign_id": campaign, "audience": "seat:blue"}, r.text
    assert reads(fresh) == (401, 401)
    handed = client.post(f"{url}/rotate", json={"audience": "seat:blue"}, headers=bearer(host))
    assert handed.status_code == 201 and reads(handed.json()["token"]) == (200, 200)
    assert (
        client.post(f"{url}/rotate", json={"audience": "seat:green"}, headers=bearer(host)).status_code == 400
    )
    assert (
        client.post(f"/campaigns/{chapter}/tokens/rotate", json={}, headers=bearer(host)).status_code == 404
    )
    assert reads(host) == (200, 200)  # the host's own token was never touched


def test_a_revoked_seat_token_gets_401_on_every_command_path_and_stores_nothing(client):
    """The revocation of a command's token is checked by the save's own transaction
    (``dicelog.service.store.revocations``); the answers that store nothing check it too: a stored first
    answer (``Idempotency-Key``), a refused command and a command of the wrong seat are 401 as well."""
    table = Table(client)
    mouse = table.game["turn"]
    seat = table.seat_of(mouse)
    token = table.tokens[seat]
    first = table.send(seat, {"type": "Move", "mouse": mouse}, headers={"Idempotency-Key": "k-1"})
    assert first.status_code == 201, first.text
    version = table.summary()["version"]
    assert revoke(client, table.id, token).status_code == 200  # a token may revoke itself
    answers = [
        table.send(seat, {"type": "Move", "mouse": mouse}, headers={"Idempotency-Key": "k-1"}),  # replay
        table.send(seat, {"type": "EndTurn", "mouse": mouse}, expected_version=version),  # accepted before
        table.send(seat, {"type": "Move", "mouse": mouse}),  # refused: the mouse has moved
        table.send(seat, {"type": "EndTurn", "mouse": mouse}, expected_version=version - 1),  # conflict
    ]
    assert [a.status_code for a in answers] == [401, 401, 401, 401], [a.text for a in answers]
    assert {a.json()["type"] for a in answers} == {"urn:dicelog:problem:unauthorized"}
    assert table.summary()["version"] == version


def test_a_revocation_stored_between_the_token_check_and_the_save_stops_the_command(client):
    """Another replica revokes the token after this one read it and before the command's events are saved:
    the save's own transaction finds the ``TokenRevoked`` record and stores nothing (Unauthorized)."""
    games = client.app.state.runtime.games
    assert games._checks_revocations  # the store checks in the write's transaction, not by a read first
    table = Table(client)
    mouse = table.game["turn"]
    seat = table.seat_of(mouse)
    game_id = UUID(table.id)
    audience, digest = games.audience_unchecked(game_id, table.tokens[seat])
    assert audience == f"seat:{seat}"
    assert revoke(client, table.id, table.tokens[seat]).status_code == 200
    version = table.summary()["version"]
    with pytest.raises(Unauthorized, match="revoked"):
        games.execute(game_id, seat=seat, command=Move(mouse=mouse), render=lambda *_: {}, unrevoked=digest)
    assert table.summary()["version"] == version
    # the same command with no token to check is stored: what stopped it was the revocation
    games.execute(game_id, seat=seat, command=Move(mouse=mouse), render=lambda *_: {})
    assert table.summary()["version"] > version
