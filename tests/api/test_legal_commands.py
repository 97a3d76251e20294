"""``GET /games/{id}/legal-commands``: what to do next is always in the answer (issue 10, the table
companion): the pending decision's options as ready-to-send ``Choose`` commands for the seat that
must answer, an open undo request's ``ApproveUndo`` / ``RejectUndo`` for the seats that may answer
it, and who the request still waits for. Driven through the real app (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

MICE = ["collin", "filch", "maginos", "nez"]
SEATS = [{"name": "red", "controls": ["collin", "filch"]}, {"name": "blue", "controls": ["maginos", "nez"]}]


def _game(client: Any, **options: Any) -> tuple[str, dict[str, str]]:
    r = client.post(
        "/games",
        json={"setup": {"chapter": "chapter-1", "mice": MICE}, "seats": SEATS, **options},
    )
    assert r.status_code == 201, r.text
    return r.json()["game"]["id"], {t["seat"]: t["token"] for t in r.json()["tokens"]}


def _legal(client: Any, game: str, token: str) -> dict[str, Any]:
    r = client.get(f"/games/{game}/legal-commands", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    return r.json()


def _send(client: Any, game: str, token: str, command: dict[str, Any]) -> Any:
    return client.post(
        f"/games/{game}/commands", json={"command": command}, headers={"Authorization": f"Bearer {token}"}
    )


def test_a_pending_decision_is_listed_as_one_choose_per_option_for_the_seat_that_answers(client):
    game, tokens = _game(client, dice_mode="manual", decision_policy="ask")
    red, blue = _legal(client, game, tokens["red"]), _legal(client, game, tokens["blue"])
    pending = red["pending"]
    assert pending["type"] == "DecisionRequested" and pending["piece"] == "collin"
    assert red["pending_seat"] == "red"
    assert red["commands"] == [{"type": "Choose", "option": option} for option in pending["options"]]
    assert blue["commands"] == [] and blue["pending_seat"] == "red"  # not blue's to answer
    assert _send(client, game, tokens["red"], red["commands"][-1]).status_code == 201  # ready to send


def test_a_pending_manual_roll_is_described_not_listed(client):
    game, tokens = _game(client, dice_mode="manual", decision_policy="default")
    red = _legal(client, game, tokens["red"])
    assert red["pending"]["type"] == "ShuffleRequested"  # the initiative shuffle, at the table
    assert red["commands"] == []


def test_an_open_undo_request_lists_approve_and_reject_for_the_seat_it_waits_for(client):
    game, tokens = _game(client, dice_mode="server", decision_policy="default", undo_policy="all-seats")
    start = client.get(f"/games/{game}").json()
    mouse = start["turn"]
    seat = "red" if mouse in SEATS[0]["controls"] else "blue"
    assert _send(client, game, tokens[seat], {"type": "Move", "mouse": mouse}).status_code == 201
    asked = _send(client, game, tokens["red"], {"type": "RequestUndo", "to_version": start["version"]})
    assert asked.status_code == 201, asked.text
    red, blue = _legal(client, game, tokens["red"]), _legal(client, game, tokens["blue"])
    assert red["undo_request"]["by"] == "red" and red["undo_request"]["to_version"] == start["version"]
    assert red["undo_waiting_for"] == blue["undo_waiting_for"] == ["blue"]
    assert red["commands"] == []  # the asking seat waits; no other command is accepted meanwhile
    assert blue["commands"] == [{"type": "ApproveUndo"}, {"type": "RejectUndo"}]
    # the game's own read says the same to every reader, a spectator too (issue 32: the table reads the
    # undo status in the one request of the game, not in four event queries)
    watched = client.get(f"/games/{game}").json()
    assert watched["undo_request"] == red["undo_request"] and watched["undo_waiting_for"] == ["blue"]
    assert _send(client, game, tokens["blue"], blue["commands"][0]).status_code == 201
    after = _legal(client, game, tokens["blue"])
    assert after["undo_request"] is None and after["undo_waiting_for"] == []
    watched = client.get(f"/games/{game}").json()
    assert watched["undo_request"] is None and watched["undo_waiting_for"] == []
    assert client.get(f"/games/{game}").json()["turn"] == mouse  # back before the move


def test_turn_names_the_minion_card_during_the_minions_turn__rulebook_round_di_gioco(client):
    """``turn`` is never ``null`` during the minions' turn: it names the minion card on the track whose turn
    it is (here the rat warriors, waiting for their movement roll at a manual-dice table), then the
    mouse's id when a mouse's turn comes."""
    sandbox = {
        "tiles": [{"tile": 1, "column": 0, "row": 0}],
        "figures": [
            {"mouse": "filch", "space": "CY-13"},
            {"mouse": "collin", "space": "CY-6"},
            {"card": "rat-warriors", "space": "CY-20"},
        ],
        "track": ["rat-warriors", "filch", "collin"],
    }
    r = client.post(
        "/games",
        json={
            "setup": {"mice": ["filch", "collin"], "sandbox": sandbox},
            "seats": [{"name": "red", "controls": ["filch", "collin"]}],
            "dice_mode": "manual",
        },
    )
    assert r.status_code == 201, r.text
    game, token = r.json()["game"]["id"], r.json()["tokens"][0]["token"]
    summary = client.get(f"/games/{game}").json()
    assert summary["turn"] == "rat-warriors" and summary["pending"] is not None, summary
    legal = _legal(client, game, token)
    assert legal["turn"] == "rat-warriors" and legal["commands"] == []  # the pending roll is described
    for _ in range(20):  # the table rolls for the minions until Filch's turn
        pending = client.get(f"/games/{game}").json()["pending"]
        if pending is None:
            break
        faces = {"type": "Roll", "faces": [2] * pending.get("dice", 1)}
        answer = pending if pending["type"] == "RollRequested" else None
        command = (
            faces if answer else {"type": "Choose", "option": pending.get("default") or pending["options"][0]}
        )
        assert _send(client, game, token, command).status_code == 201
    summary = client.get(f"/games/{game}").json()
    assert summary["turn"] == "filch" and _legal(client, game, token)["turn"] == "filch", summary
