"""The choices the rules leave to players, and the newer commands, through the REST API: starting
ability cards (MM rulebook (it) §Preparazione del Gioco), the pack limit and Share as an exchange (MM rulebook
(it) §Azioni Gratuite), scrolls (MM rulebook (it) §Carte Ricerca); each refusal is a problem+json naming its
rule and changes nothing."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.api.test_chapter_1_api import create_party, refused, send

MICE = ["collin", "filch", "maginos", "nez"]
SEATS = [{"name": "red", "controls": ["collin", "filch"]}, {"name": "blue", "controls": ["maginos", "nez"]}]


def new_game(client: Any, **setup: Any) -> Any:
    return client.post(
        "/games",
        json={
            "setup": {"chapter": "chapter-1", "mice": MICE, **setup},
            "seats": SEATS,
            "dice_mode": "manual",
            "decision_policy": "ask",
        },
    )


def test_starting_abilities_are_asked_through_the_api_and_answered_by_the_controlling_seat__rulebook_scegliere_una_abilita(  # noqa: E501
    client,
):
    r = new_game(client)
    assert r.status_code == 201, r.text
    body = r.json()
    game, tokens = body["game"]["id"], {t["seat"]: t["token"] for t in body["tokens"]}
    chosen = {}
    for mouse, seat in (("collin", "red"), ("filch", "red"), ("maginos", "blue"), ("nez", "blue")):
        pending = client.get(f"/games/{game}").json()["pending"]
        assert pending["type"] == "DecisionRequested" and pending["decision"] == "starting-ability"
        assert pending["piece"] == mouse and pending["default"] in pending["options"]
        option = pending["options"][-1]
        events = send(
            client, game, {"Authorization": f"Bearer {tokens[seat]}"}, {"type": "Choose", "option": option}
        )
        assert {"type": "StartingAbilityTaken", "mouse": mouse, "ability": option} in events
        chosen[mouse] = option
    assert client.get(f"/games/{game}").json()["pending"]["type"] == "ShuffleRequested"
    state = client.get(f"/games/{game}/state").json()["state"]
    assert state["abilities"] == {m: [a] for m, a in chosen.items()}

    def logged() -> bool:  # the log is a projection: it follows the store a moment later
        log = client.get(f"/games/{game}/log").json()
        return any("takes the ability card" in str(line) for line in log.get("lines", []))

    deadline = time.monotonic() + 10
    while not logged() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert logged()


@pytest.mark.fresh_app  # lists the games: an empty store
def test_starting_abilities_in_the_setup_document_and_a_refused_one__rulebook_scegliere_una_abilita(client):
    r = new_game(client, abilities={"collin": "cure"})
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json")
    problem = r.json()
    assert (
        problem["type"] == "urn:dicelog:rule:setup.ability-not-eligible"
        and problem["rule"] == "setup.ability-not-eligible"
    )
    assert client.get("/games").json()["games"] == [], "a refused setup creates nothing"
    r = new_game(
        client, abilities={"collin": "inspire", "filch": "dodge", "maginos": "mystic-bolt", "nez": "set-trap"}
    )
    assert r.status_code == 201, r.text
    game = r.json()["game"]["id"]
    assert client.get(f"/games/{game}").json()["pending"]["type"] == "ShuffleRequested"
    assert client.get(f"/games/{game}/state").json()["state"]["abilities"]["nez"] == ["set-trap"]


def test_share_as_an_exchange_and_refusals_through_the_api__rulebook_condividere(client):
    game, auth = create_party(
        client,
        ["filch", "collin"],
        {
            "tiles": [{"tile": 5, "column": 0, "row": 0}],
            "figures": [{"mouse": "filch", "space": "GR-6"}, {"mouse": "collin", "space": "GR-6"}],
            "track": ["filch", "collin"],
            "mouse_cheese": {"collin": 2},
        },
    )
    events = send(
        client, game, auth, {"type": "Share", "mouse": "filch", "with_mouse": "collin", "take_cheese": 2}
    )
    assert any(e["type"] == "CheeseShared" for e in events)
    state = client.get(f"/games/{game}/state").json()["state"]
    # Collin's 1 is Born to Lead (laid second on the track): his 2 went to Filch
    assert state["cheese"].get("filch") == 2 and state["cheese"].get("collin", 0) == 1
    problem = refused(
        client, game, auth, {"type": "Share", "mouse": "filch", "with_mouse": "collin", "take": ["nothing"]}
    )
    assert problem["type"].startswith("urn:dicelog:rule:") and problem["rule"].startswith(
        ("share.", "free-action.")
    )


def test_a_scroll_the_pack_does_not_hold_is_refused_through_the_api__rulebook_carte_ricerca(client):
    game, auth = create_party(
        client,
        ["filch", "collin"],
        {
            "tiles": [{"tile": 5, "column": 0, "row": 0}],
            "figures": [{"mouse": "filch", "space": "GR-6"}, {"mouse": "collin", "space": "GR-6"}],
            "track": ["filch", "collin"],
        },
    )
    problem = refused(
        client, game, auth, {"type": "UseScroll", "mouse": "filch", "card": "scroll-of-levitation"}
    )
    assert problem["rule"] == "scroll.not-in-pack" and problem["status"] == 422
