"""``POST /games`` with a sandbox setup (DESIGN.md, Content is data): the table as given, refused
with problem+json (422, a ``setup.*`` rule) when it cannot be."""

from __future__ import annotations

SEATS = [{"name": "red", "controls": ["collin", "filch"]}]
SANDBOX = {
    "tiles": [{"tile": "guard-room", "column": 0, "row": 0}, {"tile": 4, "column": 1, "row": 0}],
    "figures": [
        {"mouse": "collin", "space": "GR-8"},
        {"mouse": "filch", "space": "GR-8"},
        {"card": "rat-warriors", "space": "GR-4", "wounds": 0},
    ],
    "track": ["filch", "rat-warriors", "collin"],
    "cheese_wheel": 3,
    "hourglass_page": 2,
}


def test_create_a_game_from_a_sandbox_table__design_content_is_data(client):
    r = client.post(
        "/games",
        json={
            "setup": {"mice": ["collin", "filch"], "sandbox": SANDBOX},
            "seats": SEATS,
            "dice_mode": "manual",
        },
    )
    assert r.status_code == 201, r.text
    game = r.json()["game"]["id"]
    state = client.get(f"/games/{game}/state").json()["state"]
    assert [t["tile"] for t in state["tiles"]] == ["guard-room", "kitchen-tunnels"]
    assert state["board"]["GR-8"] == ["collin", "filch"] and state["board"]["GR-4"] == ["rat-warriors-1"]
    assert state["track"] == ["filch", "rat-warriors", "collin"] and state["cheese_wheel"] == 3
    assert state["hourglass_page"] == 2 and state["mouse_turn"]["mouse"] == "filch"
    token = r.json()["tokens"][0]["token"]
    legal = client.get(f"/games/{game}/legal-commands", headers={"Authorization": f"Bearer {token}"}).json()
    assert {"type": "Move", "mouse": "filch"} in legal["commands"]
    assert client.post(f"/games/{game}/verify").json()["verification"]["ok"]


def test_a_sandbox_with_an_unknown_space_is_refused__design_content_is_data(client):
    bad = {**SANDBOX, "figures": [{"mouse": "collin", "space": "GR-99"}, {"mouse": "filch", "space": "GR-8"}]}
    r = client.post("/games", json={"setup": {"mice": ["collin", "filch"], "sandbox": bad}, "seats": SEATS})
    assert r.status_code == 422, r.text
    assert "setup.unknown-space" in r.text


def test_a_sandbox_with_a_full_space_is_refused__001_condividere_le_caselle(client):
    bad = {
        **SANDBOX,
        "figures": [
            {"mouse": "collin", "space": "GR-8"},
            {"mouse": "filch", "space": "GR-8"},
            {"card": "spider", "space": "GR-8"},
        ],
        "track": None,
    }
    r = client.post("/games", json={"setup": {"mice": ["collin", "filch"], "sandbox": bad}, "seats": SEATS})
    assert r.status_code == 422 and "setup.space-full" in r.text


def test_a_sandbox_with_mousetraps_and_effects_is_set_and_a_bad_one_refused__001_trappole_per_topi(client):
    """Armed mousetrap tokens and figures' negative effects are set at creation (KT-4 is the Kitchen
    Tunnels' red-X space); a mousetrap off a red-X space is refused with 422 and changes nothing."""
    figures = [
        {"mouse": "collin", "space": "GR-8", "effects": ["stunned"]},
        {"mouse": "filch", "space": "GR-8"},
        {"card": "rat-warriors", "space": "GR-4"},
    ]
    table = {**SANDBOX, "figures": figures, "mousetraps": ["KT-4"]}
    setup = {"mice": ["collin", "filch"], "sandbox": table}
    r = client.post("/games", json={"setup": setup, "seats": SEATS, "dice_mode": "manual"})
    assert r.status_code == 201, r.text
    state = client.get(f"/games/{r.json()['game']['id']}/state").json()["state"]
    assert state["traps"] == ["KT-4"] and state["effects"]["collin"] == ["stunned"]
    listed = client.get("/games").json()
    bad = {**table, "mousetraps": ["GR-8"]}
    r = client.post("/games", json={"setup": {"mice": ["collin", "filch"], "sandbox": bad}, "seats": SEATS})
    assert r.status_code == 422 and "setup.mousetrap" in r.text
    assert client.get("/games").json() == listed
