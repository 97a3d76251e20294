"""A campaign over HTTP (MM rulebook (it) §Giocare Mice and Mystics come una Campagna;
domain/core/campaign.py): Chapter 1 played to victory with manual dice forced in the mice's favour (the bot of
``domain/mice_and_mystics/bot.py`` picks the mice's commands), the next chapter receives the carry-over, and a
revert brings the carry-over back to Chapter 1's only (issue 5 acceptance).

Only Chapter 1 exists as content, so the campaign plays ``chapter-1`` three times (no invented
chapter-2 data). Each chapter's result is recorded when its game ends (docs/campaigns.md).
"""

from __future__ import annotations

from typing import Any

from dicelog.domain.mice_and_mystics.bot import choose_for, decode_state

MICE = ["collin", "filch", "maginos", "nez"]
SEATS = [{"name": "red", "controls": MICE}]
GOOD_FOR_MICE = {
    "move": 3,
    "scurry": 3,
    "minion-move": 2,
    "search": 2,
    "recover": 2,
    "mouse-defense": 3,
    "minion-defense": 4,
}


class Driver:
    """Plays one chapter game to its end: the bot for the mice, forced dice for every roll."""

    def __init__(
        self, client: Any, game: str, token: str, *, kitchen_encounter: str, maggie_face: int
    ) -> None:
        self.client, self.game, self.auth = client, game, {"Authorization": f"Bearer {token}"}
        self.kitchen_encounter, self.maggie_face = kitchen_encounter, maggie_face

    def send(self, command: dict[str, Any]) -> None:
        r = self.client.post(f"/games/{self.game}/commands", json={"command": command}, headers=self.auth)
        assert r.status_code == 201, (command, r.text)

    def answer(self, pending: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
        if pending["type"] == "ShuffleRequested":
            return {"type": "Shuffle", "order": pending["cards"]}
        if pending["type"] == "DrawRequested":
            wanted = (
                self.kitchen_encounter if self.kitchen_encounter in pending["cards"] else pending["cards"][0]
            )
            return {
                "type": "Draw",
                "cards": [wanted if pending["deck"] == "encounter" else pending["cards"][0]],
            }
        if pending["type"] == "DecisionRequested":
            return {"type": "Choose", "option": pending["default"] or pending["options"][0]}
        reason, attack = pending["reason"], state.get("attack") or {}
        if reason == "battle":
            face = 4 if attack.get("ranged") else 2
        elif reason == "minion-attack":
            face = 3 if attack.get("ranged") else 4
        elif reason == "miz-maggie":
            face = self.maggie_face
        else:
            face = GOOD_FOR_MICE.get(reason, 2)
        return {"type": "Roll", "faces": [face] * pending["dice"]}

    def play(self, limit: int = 3000) -> str:
        for _ in range(limit):
            summary = self.client.get(f"/games/{self.game}").json()
            if summary["result"] is not None:
                return summary["result"]
            legal = self.client.get(f"/games/{self.game}/legal-commands", headers=self.auth).json()
            state = self.client.get(f"/games/{self.game}/state").json()["state"]
            if legal["pending"] is not None:
                self.send(self.answer(legal["pending"], state))
            else:
                assert legal["commands"], legal
                self.send(choose_for(decode_state(state), legal["turn"], legal["commands"]))
        raise AssertionError("the chapter did not end")


def next_chapter(client: Any, campaign: str, auth: dict[str, str]) -> dict[str, Any]:
    r = client.post(f"/campaigns/{campaign}/chapters", headers=auth)
    assert r.status_code == 201, r.text
    return r.json()


def test_campaign_carries_chapter_1_over_and_a_revert_keeps_chapter_1_only__rulebook_campagna(client):
    r = client.post(
        "/campaigns",
        json={
            "chapters": ["chapter-1"] * 3,
            "party": {"mice": MICE},
            "seats": SEATS,
            "dice_mode": "manual",
            "undo_policy": "host",
        },
    )
    assert r.status_code == 201, r.text
    campaign, token = r.json()["campaign"]["id"], r.json()["tokens"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}

    first = next_chapter(client, campaign, auth)["game"]["id"]
    assert Driver(client, first, token, kitchen_encounter="standard-1", maggie_face=3).play() == "victory"
    end_1 = client.get(f"/games/{first}/state").json()["state"]

    started = next_chapter(client, campaign, auth)
    carry_1 = started["campaign"]["carry_over"]
    assert carry_1["from_chapter"] == "chapter-1"
    assert carry_1.get("story_achievements", []) == end_1.get("story_achievements", [])
    # every mouse chose its starting ability card at setup (the "default" decision policy answered)
    assert carry_1["abilities"] == end_1["abilities"] and all(len(carry_1["abilities"][m]) >= 1 for m in MICE)
    for mouse in MICE:  # one search card kept per mouse that found one; party items never
        party_items = ("fishhook-and-thread", "disguises", "dinner-fork", "grapes")
        eligible = [card for card in end_1["pack"].get(mouse, []) if card not in party_items]
        kept = carry_1.get("equipment", {}).get(mouse)
        assert (kept in eligible) if eligible else kept is None, (mouse, eligible, kept)
    assert "cheese" not in carry_1 and "wounds" not in carry_1 and "party_items" not in carry_1

    second = started["game"]["id"]
    state_2 = client.get(f"/games/{second}/state").json()["state"]
    for mouse, card in carry_1.get("equipment", {}).items():
        assert state_2["pack"][mouse] == [card] and card not in state_2["search_deck"]
    cheese_2 = state_2.get(
        "cheese", {}
    )  # cheese is lost; only Collin's Born to Lead may give him 1 at the start
    assert all(cheese_2.get(m, 0) == 0 for m in MICE if m != "collin") and cheese_2.get("collin", 0) <= 1
    assert state_2.get("wounds", {}) == {} and state_2.get("effects", {}) == {}
    assert state_2["abilities"] == carry_1["abilities"], (
        "kept abilities; no new starting card (docs/mice-and-mystics/rulings.md)"
    )

    assert Driver(client, second, token, kitchen_encounter="standard-2", maggie_face=6).play() == "victory"
    recorded = client.get(f"/campaigns/{campaign}").json()  # recorded at the game's end, before chapter 3
    assert [(c["number"], c["result"]) for c in recorded["history"]] == [(1, "victory"), (2, "victory")]
    carry_2 = next_chapter(client, campaign, auth)["campaign"]["carry_over"]
    assert carry_2 == recorded["carry_over"]
    assert "miz-maggie-ally" in carry_2["story_achievements"]

    reverted = client.post(f"/campaigns/{campaign}/reverts", json={"to_chapter": 2}, headers=auth)
    assert reverted.status_code in (200, 201), reverted.text
    body = reverted.json()
    assert body["carry_over"] == carry_1
    assert "miz-maggie-ally" not in (body["carry_over"].get("story_achievements") or [])
    assert [c["reverted"] for c in body["history"]][:2] == [False, True]


def test_a_chapter_created_with_a_carry_over_setup_starts_with_it__rulebook_campagna(client):
    carry = {
        "from_chapter": "chapter-1",
        "story_achievements": ["miz-maggie-ally"],
        "equipment": {"filch": "toothpick"},
    }
    r = client.post(
        "/games", json={"setup": {"mice": MICE, "carry_over": carry}, "seats": SEATS, "dice_mode": "manual"}
    )
    assert r.status_code == 201, r.text
    state = client.get(f"/games/{r.json()['game']['id']}/state").json()["state"]
    assert state["story_achievements"] == ["miz-maggie-ally"] and state["pack"] == {"filch": ["toothpick"]}
    assert "toothpick" not in state["search_deck"]


def test_the_players_choose_the_search_card_each_mouse_keeps__rulebook_campagna(client):
    """MM rulebook (it) «I Topi possono conservare solo 1 delle carte Ricerca»: between the victory and the
    next chapter the seat names each of its mice's kept card (``POST /campaigns/{id}/carry-over``); a mouse it
    did not name keeps the default (the best battle + defense bonus)."""
    r = client.post(
        "/campaigns",
        json={"chapters": ["chapter-1"] * 2, "party": {"mice": MICE}, "seats": SEATS, "dice_mode": "manual"},
    )
    assert r.status_code == 201, r.text
    campaign, token = r.json()["campaign"]["id"], r.json()["tokens"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    choose = lambda body: client.post(f"/campaigns/{campaign}/carry-over", json=body, headers=auth)  # noqa: E731

    first = next_chapter(client, campaign, auth)["game"]["id"]
    early = choose({"keep": {"filch": None}})
    assert early.status_code == 422 and early.json()["rule"] == "campaign.no-victory", early.text
    assert Driver(client, first, token, kitchen_encounter="standard-1", maggie_face=3).play() == "victory"
    end = client.get(f"/games/{first}/state").json()["state"]
    party_items = ("fishhook-and-thread", "disguises", "dinner-fork", "grapes")
    holding = {m: [c for c in end["pack"].get(m, []) if c not in party_items] for m in MICE}
    chooser = next(m for m in MICE if holding[m])  # a mouse holding a card it may keep
    assert any(holding[m] for m in MICE if m != chooser), holding  # a second one, which will keep none
    empty = next(m for m in MICE if m != chooser and holding[m])
    others = [m for m in MICE if m not in (chooser, empty)]

    refused = choose({"keep": {chooser: "no-such-card"}})
    assert refused.status_code == 422 and refused.json()["rule"] == "campaign.card-not-kept", refused.text
    bad = choose({"keep": {chooser: 7}})
    assert bad.status_code == 400, bad.text
    before = client.get(f"/campaigns/{campaign}").json()
    assert before["carry_over_choices"] == {}
    picked = holding[chooser][-1]  # the last card found (the default prefers the best bonus, then the first)
    assert choose({"keep": {chooser: holding[chooser][0], empty: holding[empty][0]}}).status_code == 201
    r = choose({"keep": {chooser: picked, empty: None}})  # the seat changed its mind: this one counts
    assert r.status_code == 201, r.text
    assert r.json()["carry_over_choices"] == {"red": {"keep": {chooser: picked, empty: None}}}
    assert r.json()["version"] == before["version"] + 4  # each choice: CarryOverChosen + CarryOverRecomputed
    assert r.json()["carry_over"]["equipment"][chooser] == picked, "the choice applies at once"

    started = next_chapter(client, campaign, auth)
    kept = started["campaign"]["carry_over"].get("equipment", {})
    assert kept[chooser] == picked and empty not in kept  # null: it keeps none
    for mouse in others:  # no choice: the default, as before this rule
        assert (kept.get(mouse) in holding[mouse]) if holding[mouse] else mouse not in kept, (mouse, kept)
    assert started["campaign"]["carry_over_choices"] == {}
    state_2 = client.get(f"/games/{started['game']['id']}/state").json()["state"]
    assert picked in state_2["pack"][chooser]
    running = choose({"keep": {chooser: None}})
    assert running.status_code == 422 and running.json()["rule"] == "campaign.no-victory", running.text
