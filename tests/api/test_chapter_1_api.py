"""Chapter 1 room rules through the REST API in manual dice mode, tables set up as sandboxes
(MM rulebook (it) §Capitolo 1, Regole Speciali del Capitolo)."""

from __future__ import annotations

from typing import Any

SEATS = [{"name": "red", "controls": ["collin", "filch"]}]


def create(client: Any, sandbox: dict[str, Any], policy: str = "default") -> tuple[str, dict[str, str]]:
    r = client.post(
        "/games",
        json={
            "setup": {"chapter": "chapter-1", "mice": ["collin", "filch"], "sandbox": sandbox},
            "seats": SEATS,
            "dice_mode": "manual",
            "decision_policy": policy,
        },
    )
    assert r.status_code == 201, r.text
    body = r.json()
    return body["game"]["id"], {"Authorization": f"Bearer {body['tokens'][0]['token']}"}


def send(client: Any, game: str, auth: dict[str, str], command: dict[str, Any]) -> list[dict[str, Any]]:
    r = client.post(f"/games/{game}/commands", json={"command": command}, headers=auth)
    assert r.status_code == 201, r.text
    return [e["payload"] for e in r.json()["events"]]


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def test_crow_wounds_a_mouse_rolling_1_for_movement_through_the_api__capitolo_1_il_vile_vecchio_corvo(
    client,
):
    game, auth = create(
        client,
        {
            "tiles": [{"tile": 1, "column": 0, "row": 0}],
            "figures": [{"mouse": "filch", "space": "CY-13"}, {"mouse": "collin", "space": "CY-13"}],
            "track": ["filch", "collin"],
        },
    )
    send(client, game, auth, {"type": "Move", "mouse": "filch"})
    events = send(client, game, auth, {"type": "Roll", "faces": [1]})
    dived = next(e for e in events if e["type"] == "CrowDived")
    assert dived == {"type": "CrowDived", "figure": "filch", "space": "CY-13"}
    assert {"type": "MouseWounded", "mouse": "filch", "wounds": 1} in events
    state = client.get(f"/games/{game}/state").json()["state"]
    assert state["wounds"] == {"filch": 1}


def test_miz_maggie_ally_through_the_api__rulebook_capitolo_1_farsi_vedere_da_miz_maggie(client):
    game, auth = create(
        client,
        {
            "tiles": [{"tile": 3, "column": 0, "row": 0}],
            "figures": [
                {"mouse": "collin", "space": "KI-5"},
                {"mouse": "filch", "space": "KI-5"},
                {"card": "roaches", "space": "KI-5"},
            ],
            "track": ["collin", "roaches", "filch"],
        },
    )
    send(client, game, auth, {"type": "Battle", "mouse": "collin", "target": "roaches-1"})
    send(client, game, auth, {"type": "Roll", "faces": [2, 2, 2]})
    events = send(client, game, auth, {"type": "Roll", "faces": [4]})
    assert types(events)[-2:] == ["RoachDefeatedInKitchen", "RollRequested"]
    events = send(client, game, auth, {"type": "Roll", "faces": [5]})
    assert {"type": "StoryAchievementGained", "achievement": "miz-maggie-ally"} in events
    board = client.get(f"/games/{game}/state").json()["state"]
    assert board["story_achievements"] == ["miz-maggie-ally"] and board["end_marker_page"] == 7
    assert client.post(f"/games/{game}/verify").json()["verification"]["ok"]


def test_miz_maggie_swats_on_a_miss_through_the_api__rulebook_capitolo_1_farsi_vedere_da_miz_maggie(client):
    game, auth = create(
        client,
        {
            "tiles": [{"tile": 3, "column": 0, "row": 0}],
            "figures": [
                {"mouse": "collin", "space": "KI-5"},
                {"mouse": "filch", "space": "KI-5"},
                {"card": "roaches", "space": "KI-5"},
            ],
            "track": ["collin", "roaches", "filch"],
        },
    )
    send(client, game, auth, {"type": "Battle", "mouse": "collin", "target": "roaches-1"})
    send(client, game, auth, {"type": "Roll", "faces": [2, 2, 2]})
    send(client, game, auth, {"type": "Roll", "faces": [4]})
    events = send(client, game, auth, {"type": "Roll", "faces": [3]})
    assert types(events)[:4] == ["CommandAccepted", "DiceRolled", "MizMaggieSwatted", "EffectAdded"]
    state = client.get(f"/games/{game}/state").json()["state"]
    assert "roaches-1" in state["board"]["KI-1"] and state["effects"]["collin"] == ["knocked-down"]


def create_party(client: Any, mice: list[str], sandbox: dict[str, Any]) -> tuple[str, dict[str, str]]:
    r = client.post(
        "/games",
        json={
            "setup": {"chapter": "chapter-1", "mice": mice, "sandbox": sandbox},
            "seats": [{"name": "red", "controls": mice}],
            "dice_mode": "manual",
            "decision_policy": "ask",
        },
    )
    assert r.status_code == 201, r.text
    body = r.json()
    return body["game"]["id"], {"Authorization": f"Bearer {body['tokens'][0]['token']}"}


def refused(client: Any, game: str, auth: dict[str, str], command: dict[str, Any]) -> dict[str, Any]:
    before = client.get(f"/games/{game}").json()["version"]
    r = client.post(f"/games/{game}/commands", json={"command": command}, headers=auth)
    assert r.status_code == 422, r.text
    assert client.get(f"/games/{game}").json()["version"] == before
    return r.json()


def test_guard_room_special_search_offers_tinkerers_treasure_through_the_api__rulebook_capitolo_1_stanza_delle_guardie(  # noqa: E501
    client,
):
    game, auth = create_party(
        client,
        ["nez", "filch"],
        {
            "tiles": [{"tile": 5, "column": 0, "row": 0}],
            "figures": [{"mouse": "nez", "space": "GR-6"}, {"mouse": "filch", "space": "GR-6"}],
            "track": ["nez", "filch"],
            "search_deck": ["bow-of-precision", "cloak-of-displacement", "toothpick"],
        },
    )
    send(client, game, auth, {"type": "Search", "mouse": "nez"})
    send(client, game, auth, {"type": "Roll", "faces": [2]})
    pending = client.get(f"/games/{game}").json()["pending"]
    assert pending["type"] == "DecisionRequested" and pending["decision"] == "special-search"
    assert pending["options"] == ["tinkerers-treasure", "search-deck"]
    events = send(client, game, auth, {"type": "Choose", "option": "tinkerers-treasure"})
    assert {
        "type": "SpecialSearchFound",
        "mouse": "nez",
        "tile": "guard-room",
        "item": "tinkerers-treasure",
    } in events


def test_guard_room_special_summon_places_two_rat_warriors_through_the_api__rulebook_capitolo_1_evocazione_speciale(  # noqa: E501
    client,
):
    game, auth = create(
        client,
        {
            "tiles": [{"tile": 5, "column": 0, "row": 0}],
            "figures": [{"mouse": "filch", "space": "GR-6"}, {"mouse": "collin", "space": "GR-6"}],
            "track": ["filch", "collin"],
            "cheese_wheel": 5,
        },
    )
    send(client, game, auth, {"type": "EndTurn", "mouse": "filch"})
    events = send(
        client, game, auth, {"type": "EndTurn", "mouse": "collin"}
    )  # time passes: the wheel reaches 6
    placed = [e for e in events if e["type"] == "FigurePlaced"]
    assert [e["card"] for e in placed] == ["rat-warriors", "rat-warriors"]
    assert all(e["space"].startswith("GR-") for e in placed)


def test_sewer_fishhook_special_search_on_water_through_the_api__rulebook_capitolo_1_fognature(client):
    game, auth = create(
        client,
        {
            "tiles": [{"tile": 6, "column": 0, "row": 0}],
            "figures": [{"mouse": "filch", "space": "SW-7"}, {"mouse": "collin", "space": "SW-12"}],
            "track": ["filch", "collin"],
            "search_deck": ["fishhook-and-thread", "grapes"],
        },
        policy="ask",
    )
    send(client, game, auth, {"type": "Search", "mouse": "filch"})
    send(client, game, auth, {"type": "Roll", "faces": [5]})
    send(client, game, auth, {"type": "Choose", "option": "fishhook-and-thread"})
    state = client.get(f"/games/{game}/state").json()["state"]
    assert state["party_items"] == ["fishhook-and-thread"]


def test_leaving_the_sewer_needs_the_fishhook_through_the_api__ruling_capitolo_1_abbandonare_le_fognature(
    client,
):
    game, auth = create(
        client,
        {
            "tiles": [{"tile": 6, "column": 0, "row": 0}],
            "figures": [{"mouse": "filch", "space": "SW-8"}, {"mouse": "collin", "space": "SW-8"}],
            "track": ["filch", "collin"],
        },
    )
    problem = refused(client, game, auth, {"type": "Explore", "mouse": "filch", "via": "flip"})
    assert problem["rule"] == "explore.sewer-needs-fishhook" and problem["type"].endswith(problem["rule"])


def test_the_tree_entrance_is_entered_only_from_its_one_adjacent_space_through_the_api__rulebook_capitolo_1_entrata_nell_albero(  # noqa: E501
    client,
):
    game, auth = create(
        client,
        {
            "tiles": [{"tile": 1, "column": 0, "row": 0}],
            "figures": [{"mouse": "filch", "space": "CY-2"}, {"mouse": "collin", "space": "CY-2"}],
            "track": ["filch", "collin"],
        },
    )
    send(client, game, auth, {"type": "Move", "mouse": "filch"})
    send(client, game, auth, {"type": "Roll", "faces": [3]})
    assert (
        refused(client, game, auth, {"type": "MoveTo", "mouse": "filch", "path": ["CY-1"]})["rule"]
        == "move.not-adjacent"
    )
    events = send(client, game, auth, {"type": "MoveTo", "mouse": "filch", "path": ["CY-7", "CY-6", "CY-1"]})
    assert any(e["type"] == "MouseMoved" and e["path"][-1] == "CY-1" for e in events)


def test_entering_the_kitchen_puts_cheese_on_the_counter_through_the_api__ruling_capitolo_1_cucina(
    client,
):
    game, auth = create(
        client,
        {
            "tiles": [{"tile": 5, "column": 0, "row": 0}, {"tile": 4, "column": 1, "row": 0}],
            "figures": [{"mouse": "filch", "space": "GR-8"}, {"mouse": "collin", "space": "GR-8"}],
            "track": ["filch", "collin"],
            "explored": ["guard-room"],
        },
    )
    events = send(client, game, auth, {"type": "Explore", "mouse": "filch", "via": "E"})
    assert {"type": "CounterCheesePlaced", "count": 3} in events
    assert client.get(f"/games/{game}/state").json()["state"]["counter_cheese"] == 3
