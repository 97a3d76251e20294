"""A game created with a content pack plays with that content, and replays with it."""

from __future__ import annotations

import json
from importlib.resources import files
from uuid import UUID

from dicelog.domain.core.game import fold
from dicelog.domain.mice_and_mystics import content, packs
from tests.api.conftest import MICE, SEATS


def _mice_with_fast_filch() -> dict:
    mice = json.loads(files("dicelog.domain.mice_and_mystics").joinpath("content/mice.json").read_text())
    for mouse in mice["mice"]:
        if mouse["id"] == "filch":
            mouse["move"] = 6
    return mice


def test_a_content_pack_overrides_shipped_content_for_that_game_only(client):
    body = {
        "setup": {"chapter": "chapter-1", "mice": MICE},
        "seats": SEATS,
        "dice_mode": "manual",
        "content_pack": {"mice.json": _mice_with_fast_filch()},
    }
    r = client.post("/games", json=body)
    assert r.status_code == 201, r.text
    game_id = r.json()["game"]["id"]
    tokens = {t["seat"]: t["token"] for t in r.json()["tokens"]}
    cards = sorted(client.get(f"/games/{game_id}").json()["pending"]["cards"], key=lambda c: c != "filch")

    def send(command: dict) -> object:
        return client.post(
            f"/games/{game_id}/commands",
            json={"command": command},
            headers={"Authorization": f"Bearer {tokens['red']}"},
        )

    assert send({"type": "Shuffle", "order": cards}).status_code == 201
    assert client.get(f"/games/{game_id}").json()["turn"] == "filch"
    assert send({"type": "Move", "mouse": "filch"}).status_code == 201
    events = send({"type": "Roll", "faces": [1]}).json()["events"]
    gained = next(e["payload"] for e in events if e["type"] == "MovementPointsGained")
    assert gained["move_value"] == 6 and gained["points"] == 7
    # another game, without the pack, keeps the shipped value
    plain = client.post(
        "/games", json={"setup": {"chapter": "chapter-1", "mice": MICE}, "seats": SEATS}
    ).json()
    state = client.get(f"/games/{plain['game']['id']}/state").json()["state"]
    assert state.get("content_pack") is None
    # the pack is in the log: a replay in a fresh process (no cached pack library) gives the same game
    games = client.app.state.runtime.games
    records = games.records(UUID(game_id))
    content.PACK_LIBRARIES.clear()
    assert fold(None, records).state == games.game(UUID(game_id)).state
    assert client.post(f"/games/{game_id}/verify").json()["verification"]["ok"]


def test_a_broken_content_pack_is_refused_with_a_problem(client):
    body = {
        "setup": {"chapter": "chapter-1", "mice": MICE},
        "seats": SEATS,
        "content_pack": {"not-a-content-file.json": {}},
    }
    r = client.post("/games", json=body)
    assert r.status_code == 422 and r.json()["rule"] == "setup.content-pack"
    broken = {"tile-05-guard-room.json": {"id": "guard-room"}}
    r = client.post("/games", json={**body, "content_pack": broken})
    assert r.status_code == 422 and r.json()["rule"] == "setup.content-pack"


def test_a_content_pack_over_1_mib_is_refused_with_a_413_problem(client):
    mice = _mice_with_fast_filch()
    filch = next(m for m in mice["mice"] if m["id"] == "filch")
    filch["provisional"], filch["provisional_reason"] = True, "x" * packs.MAX_PACK_BYTES
    body = {
        "setup": {"chapter": "chapter-1", "mice": MICE},
        "seats": SEATS,
        "content_pack": {"mice.json": mice},
    }
    r = client.post("/games", json=body)
    assert r.status_code == 413 and r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["rule"] == "setup.content-pack-too-large"
    filch["provisional_reason"] = "x" * (packs.MAX_PACK_BYTES - 20_000)
    assert client.post("/games", json=body).status_code == 201


def test_the_example_pack_passes_the_content_check_and_a_game_plays_with_it(client):
    """docs/mice-and-mystics/index.md, Content packs: ``examples/content-pack`` is checked by ``dicelog
    content check --pack`` and a game created with it holds its records (the re-typed Collin's Sword, the
    house card)."""
    from pathlib import Path

    from dicelog.service.cli.main import main

    example = Path(__file__).resolve().parents[2] / "examples" / "content-pack"
    assert main(["content", "check", "--pack", str(example)]) == 0
    pack = {p.name: json.loads(p.read_text()) for p in sorted(example.glob("*.json"))}
    body = {"setup": {"chapter": "chapter-1", "mice": MICE}, "seats": SEATS, "content_pack": pack}
    r = client.post("/games", json=body)
    assert r.status_code == 201, r.text
    _, library = packs.pack_library(pack)
    sword = library.search_cards["collins-sword"]
    assert (sword.slot, sword.provisional) == ("paw", False)
    assert library.search_cards["lucky-acorn"].defense == 1
    assert content.library().search_cards["collins-sword"].slot is None  # the shipped content is unchanged
