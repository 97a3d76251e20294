"""``POST /games`` with a sandbox setup (docs/architecture.md, Content is data): the table as given, refused
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


def test_a_sandbox_with_a_full_space_is_refused__rulebook_condividere_le_caselle(client):
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


def test_a_sandbox_with_mousetraps_and_effects_is_set_and_a_bad_one_refused__trappole_per_topi(client):
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


def test_a_sandbox_sets_what_the_mice_carry_and_a_bad_one_is_refused_with_nothing_stored__equipaggiare(
    client,
):
    """Packs, equipment, rooms searched, poison and whose turn it is are set at creation (issue 10's
    sandbox), shown in the state, and the game verifies; a card the mouse may not equip there is a 422
    that stores nothing."""
    sandbox = {
        **SANDBOX,
        "figures": [
            {"mouse": "collin", "space": "GR-8", "wounds": 3, "poison": 2},
            {"mouse": "filch", "space": "GR-8"},
            {"card": "rat-warriors", "space": "GR-4"},
        ],
        "packs": {"collin": ["bow-of-precision"]},
        "equipped": {"filch": [{"card": "toothpick", "slot": "both-paws"}]},
        "searched": {"collin": ["guard-room"]},
        "turn": "collin",  # filch and the rat warriors have played this round
    }
    body = {"setup": {"mice": ["collin", "filch"], "sandbox": sandbox}, "seats": SEATS, "dice_mode": "manual"}
    r = client.post("/games", json=body)
    assert r.status_code == 201, r.text
    game = r.json()["game"]["id"]
    state = client.get(f"/games/{game}/state").json()["state"]
    assert state["pack"] == {"collin": ["bow-of-precision"], "filch": ["dagger"]}
    assert state["equipped"]["filch"] == [["toothpick", "both-paws"]]
    assert state["searched"] == {"collin": ["guard-room"]}
    assert state["wounds"]["collin"] == 3 and state["poison_wounds"] == {"collin": 2}
    assert client.get(f"/games/{game}").json()["turn"] == "collin" and state["slot"] == 2
    assert client.post(f"/games/{game}/verify").json()["verification"]["ok"]

    public = client.post("/games", json={**body, "visibility": "public"})  # a public game is listed
    assert public.status_code == 201, public.text
    listed = client.get("/games", params={"limit": 200}).json()["games"]
    assert len(listed) == 1
    bad = {**sandbox, "equipped": {"filch": [{"card": "toothpick", "slot": "body"}]}}
    r = client.post(
        "/games",
        json={**body, "setup": {"mice": ["collin", "filch"], "sandbox": bad}, "visibility": "public"},
    )
    assert r.status_code == 422 and r.json()["rule"] == "setup.equipped", r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert client.get("/games", params={"limit": 200}).json()["games"] == listed


def test_a_sprung_mousetrap_ends_the_mouses_turn_in_the_api__attraversare_le_trappole_per_topi(client):
    """MM rulebook (it), Attraversare le Trappole per Topi: «Il Turno di un Topo termina immediatamente non
    appena fa scattare una Trappola». Filch, whose turn it is, walks onto the armed trap on KT-4 and rolls no
    star: 1 wound, 1 cheese, knocked down, and the turn is no longer his."""
    figures = [
        {"mouse": "filch", "space": "KT-8"},
        {"mouse": "collin", "space": "GR-8"},
        {"card": "rat-warriors", "space": "GR-4"},
    ]
    table = {**SANDBOX, "figures": figures, "mousetraps": ["KT-4"]}
    setup = {"mice": ["collin", "filch"], "sandbox": table}
    r = client.post("/games", json={"setup": setup, "seats": SEATS, "dice_mode": "manual"})
    assert r.status_code == 201, r.text
    game = r.json()["game"]["id"]
    auth = {"Authorization": f"Bearer {r.json()['tokens'][0]['token']}"}

    def send(command: dict) -> list[dict]:
        answer = client.post(f"/games/{game}/commands", json={"command": command}, headers=auth)
        assert answer.status_code == 201, answer.text
        return [e["payload"] for e in answer.json()["events"]]

    assert client.get(f"/games/{game}").json()["turn"] == "filch"
    send({"type": "Move", "mouse": "filch"})
    send({"type": "Roll", "faces": [3]})
    stopped = send({"type": "MoveTo", "mouse": "filch", "path": ["KT-4"]})
    assert [e["type"] for e in stopped][-1] == "RollRequested"
    sprung = send({"type": "Roll", "faces": [1, 3, 4]})  # no star
    names = [e["type"] for e in sprung]
    i = names.index("MousetrapSprung")
    assert names[i : i + 5] == ["MousetrapSprung", "CheeseGained", "MouseWounded", "EffectAdded", "TurnEnded"]
    assert sprung[i + 4]["card"] == "filch"
    assert client.get(f"/games/{game}").json()["turn"] != "filch"
    state = client.get(f"/games/{game}/state").json()["state"]
    assert state["traps"] == [] and state["wounds"]["filch"] == 1
    assert "knocked-down" in state["effects"]["filch"]


def test_a_wheel_filled_by_a_minions_cheese_summons_from_the_face_up_encounter_card__evocazioni(client):
    """MM rulebook (it), Evocazioni: «Ogni volta che ottenete 1 o più simboli Formaggio con i dadi Azione di
    un Servitore quando Attacca ... aggiungete sulla Ruota del Formaggio 1 segnalino»; a full wheel moves the
    hourglass one page, then (no special summon rule for the room) «applicate gli effetti della carta Incontro
    scoperta ... infine scartatela». The Courtyard has no chapter 1 summon rule; the rat warriors' turn opens
    the laid table with the wheel at 5 and a face-up encounter card; every die shows cheese."""
    table = {
        "tiles": [{"tile": 1, "column": 0, "row": 0}],
        "figures": [
            {"mouse": "filch", "space": "CY-13"},
            {"mouse": "collin", "space": "CY-6"},
            {"card": "rat-warriors", "space": "CY-20"},
        ],
        "track": ["rat-warriors", "filch", "collin"],
        "cheese_wheel": 5,
        "hourglass_page": 2,
        "end_marker_page": 6,
        "encounter_face_up": "standard-9",
        "encounter_deck": [f"standard-{n}" for n in range(1, 9)],
    }
    setup = {"mice": ["collin", "filch"], "sandbox": table}
    r = client.post("/games", json={"setup": setup, "seats": SEATS, "dice_mode": "manual"})
    assert r.status_code == 201, r.text
    game = r.json()["game"]["id"]
    auth = {"Authorization": f"Bearer {r.json()['tokens'][0]['token']}"}
    before = client.get(f"/games/{game}/state").json()["state"]
    assert before["encounter_face_up"] == "standard-9" and before["cheese_wheel"] == 5
    log: list[dict] = []
    for _ in range(12):  # the minions' turn: each roll answered with cheese on every die, other nodes default
        pending = client.get(f"/games/{game}").json()["pending"]
        if pending is None or any(e["type"] == "CheeseWheelEmptied" for e in log):
            break
        if pending["type"] == "RollRequested":  # cheese on the minion's dice; a 1 to move calls the crow
            face = 3 if "move" in pending["reason"] else 1
            command = {"type": "Roll", "faces": [face] * pending["dice"]}
        else:
            legal = client.get(f"/games/{game}/legal-commands", headers=auth).json()["commands"]
            command = legal[0]
        answer = client.post(f"/games/{game}/commands", json={"command": command}, headers=auth)
        assert answer.status_code == 201, answer.text
        log += [e["payload"] for e in answer.json()["events"]]
    names = [e["type"] for e in log]
    assert "CheeseAddedToWheel" in names and "CheeseWheelEmptied" in names, names
    assert {"type": "HourglassAdvanced", "page": 3, "reason": "summon"}.items() <= next(
        e for e in log if e["type"] == "HourglassAdvanced"
    ).items()
    assert {"type": "EncounterDiscarded", "card": "standard-9"}.items() <= next(
        e for e in log if e["type"] == "EncounterDiscarded"
    ).items()
    summoned = [e for e in log if e["type"] == "FigurePlaced"]
    assert summoned, names  # the face-up card's minions
    after = client.get(f"/games/{game}/state").json()["state"]
    assert after["encounter_face_up"] is None and after["hourglass_page"] == 3 and after["cheese_wheel"] == 0


def test_a_boss_on_two_initiative_cards_with_one_figure_is_laid_in_the_api__carte_iniziativa_dei_boss(
    client,
):
    """MM rulebook (it), Carte Iniziativa dei Boss: one boss figure acts on two initiative cards (Brodie: both
    of his; Vanestra: the 2 of her 4 the table drew). Laid through the API, the track holds both and the
    figure is one; two cards she does not own are a 422 that stores nothing."""
    figures = [
        {"mouse": "filch", "space": "CY-13"},
        {"mouse": "collin", "space": "CY-6"},
        {"boss": "vanestra", "boss_cards": ["vanestras-web", "vanestras-call"], "space": "CY-20"},
    ]
    track = ["filch", "vanestras-call", "collin", "vanestras-web"]
    table = {"tiles": [{"tile": 1, "column": 0, "row": 0}], "figures": figures, "track": track}
    setup = {"mice": ["collin", "filch"], "sandbox": table}
    r = client.post("/games", json={"setup": setup, "seats": SEATS, "dice_mode": "manual"})
    assert r.status_code == 201, r.text
    state = client.get(f"/games/{r.json()['game']['id']}/state").json()["state"]
    assert state["boss_cards"] == {"vanestra": ["vanestras-web", "vanestras-call"]}
    assert state["track"] == track and state["board"]["CY-20"] == ["vanestra"]
    listed = client.get("/games", params={"limit": 200}).json()
    figures[2] = {"boss": "vanestra", "boss_cards": ["brodie-chases", "vanestras-call"], "space": "CY-20"}
    bad = {**table, "figures": figures}
    r = client.post("/games", json={"setup": {"mice": ["collin", "filch"], "sandbox": bad}, "seats": SEATS})
    assert r.status_code == 422 and r.json()["rule"] == "setup.boss", r.text
    assert client.get("/games", params={"limit": 200}).json() == listed
