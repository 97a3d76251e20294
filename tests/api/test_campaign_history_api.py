"""A campaign's history as a group audits and undoes it (docs/campaigns.md), through the real app:
a chapter's result is recorded when its game ends, the won last chapter completes the campaign and
can be reverted, a result lost between the game's save and the campaign's is recorded on the next
read, and a revert closes the reverted chapter's running game."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from dicelog.domain.core.campaign import decide_revert
from dicelog.service.app import campaigns
from dicelog.service.http.openapi import EXAMPLES
from tests.api.test_campaign_api import MICE, SEATS, Driver, next_chapter


def new_campaign(client: Any, chapters: int, **extra: Any) -> tuple[str, str, dict[str, str]]:
    body = {
        "chapters": ["chapter-1"] * chapters,
        "party": {"mice": MICE},
        "seats": SEATS,
        "dice_mode": "manual",
        "undo_policy": "host",
        **extra,
    }
    r = client.post("/campaigns", json=body)
    assert r.status_code == 201, r.text
    token = r.json()["tokens"][0]["token"]
    return r.json()["campaign"]["id"], token, {"Authorization": f"Bearer {token}"}


def win(client: Any, game: str, token: str) -> None:
    assert Driver(client, game, token, kitchen_encounter="standard-1", maggie_face=3).play() == "victory"


def test_the_won_last_chapter_is_recorded_at_its_end_completes_the_campaign_and_can_be_reverted(client):
    campaign, token, auth = new_campaign(client, 1)
    game = next_chapter(client, campaign, auth)["game"]["id"]
    win(client, game, token)

    done = client.get(f"/campaigns/{campaign}").json()
    assert [(c["number"], c["result"]) for c in done["history"]] == [(1, "victory")]
    assert done["next_chapter"] is None
    assert done["carry_over"] is not None and done["carry_over"] == done["history"][0]["carry_out"]
    assert done["carry_over"]["from_chapter"] == "chapter-1"
    again = client.post(f"/campaigns/{campaign}/chapters", headers=auth)
    assert again.status_code == 422 and again.json()["rule"] == "campaign.complete", again.text

    # the final carry-over is still the group's to choose, and is recorded
    end = client.get(f"/games/{game}/state").json()["state"]
    mouse = next(m for m in MICE if end["pack"].get(m))
    chosen = client.post(f"/campaigns/{campaign}/carry-over", json={"keep": {mouse: None}}, headers=auth)
    assert chosen.status_code == 201, chosen.text
    assert mouse not in chosen.json()["carry_over"].get("equipment", {})
    assert chosen.json()["history"][0]["carry_out"] == chosen.json()["carry_over"]

    reverted = client.post(f"/campaigns/{campaign}/reverts", json={"to_chapter": 1}, headers=auth)
    assert reverted.status_code == 201, reverted.text
    body = reverted.json()
    assert body["next_chapter"] == "chapter-1" and body["carry_over"] is None
    assert [c["reverted"] for c in body["history"]] == [True]
    assert client.get(f"/games/{game}").json()["result"] == "victory", "the ended game is untouched"
    assert client.post(f"/games/{game}/verify").json()["verification"]["ok"]
    replay = next_chapter(client, campaign, auth)
    assert replay["campaign"]["history"][-1]["carry_in"] is None


def test_a_result_lost_between_the_two_saves_is_recorded_on_the_next_read_once(client):
    campaign, token, auth = new_campaign(client, 2)
    game = next_chapter(client, campaign, auth)["game"]["id"]
    games = client.app.state.runtime.games
    games.game_ended = None  # the process dies after the game's save, before the campaign's
    win(client, game, token)
    stored = campaigns.load(games, UUID(campaign))
    assert stored.playing is not None, "nothing recorded in the campaign yet"

    first = client.get(f"/campaigns/{campaign}").json()
    assert first["history"][0]["result"] == "victory" and first["next_chapter"] == "chapter-1"
    assert first["version"] == stored.version + 1
    second = client.get(f"/campaigns/{campaign}").json()
    assert second["version"] == first["version"], "recorded once"
    assert campaigns.load(games, UUID(campaign)).version == first["version"]


def test_a_revert_closes_the_reverted_chapters_running_game(client):
    campaign, token, auth = new_campaign(client, 2)
    first = next_chapter(client, campaign, auth)["game"]["id"]
    win(client, first, token)
    second = next_chapter(client, campaign, auth)["game"]["id"]
    before = client.get(f"/games/{second}").json()
    assert before["result"] is None

    reverted = client.post(f"/campaigns/{campaign}/reverts", json={"to_chapter": 1}, headers=auth)
    assert reverted.status_code == 201, reverted.text
    assert [c["reverted"] for c in reverted.json()["history"]] == [True, True]

    closed = client.get(f"/games/{second}").json()
    assert closed["result"] == "reverted" and closed["version"] == before["version"] + 2
    legal = client.get(f"/games/{second}/legal-commands", headers=auth).json()
    assert legal["commands"] == []
    refused = client.post(
        f"/games/{second}/commands", json={"command": {"type": "Choose", "option": "x"}}, headers=auth
    )
    assert refused.status_code == 422 and refused.json()["rule"] == "game.over", refused.text
    events = client.get(f"/games/{second}/events", params={"after": before["version"]}).json()["events"]
    assert [e["type"] for e in events] == ["CommandAccepted", "GameEnded"]
    assert events[0]["seat"] == "server" and events[0]["payload"]["command"]["type"] == "CloseGame"
    assert "chapter 1" in events[1]["payload"]["reason"]
    assert client.post(f"/games/{second}/verify").json()["verification"]["ok"]
    assert client.post(f"/games/{first}/verify").json()["verification"]["ok"]


def test_a_revert_refusal_numbers_chapters_as_the_api_does(client):
    campaign, token, auth = new_campaign(client, 2)
    first = next_chapter(client, campaign, auth)["game"]["id"]
    win(client, first, token)
    refused = client.post(f"/campaigns/{campaign}/reverts", json={"to_chapter": 2}, headers=auth)
    assert refused.status_code == 422 and refused.json()["rule"] == "campaign.bad-chapter", refused.text
    assert "no recorded chapter 2" in refused.json()["detail"]


@pytest.mark.fresh_app  # lists the games: an empty store
def test_a_campaign_of_chapters_the_content_does_not_have_is_refused_naming_them(client):
    chapters = ["chapter-1", "no-such-chapter", "chapter-9"]
    body = {"chapters": chapters, "party": {"mice": MICE}, "seats": SEATS}
    r = client.post("/campaigns", json=body)
    assert r.status_code == 422 and r.json()["rule"] == "campaign.unknown-chapter", r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    detail = r.json()["detail"]
    assert "'no-such-chapter'" in detail and "'chapter-9'" in detail and "'chapter-1'" not in detail
    listed = client.get("/games", params={"limit": 200}).json()["games"]
    assert listed == [], "nothing stored"
    chapters = EXAMPLES["createCampaign"]["chapters"]  # the OpenAPI example's ids are real ones
    assert client.post("/campaigns", json={**body, "chapters": chapters}).status_code == 201


def test_401s_name_the_resource_a_token_is_missing_for(client):
    campaign, _, auth = new_campaign(client, 1, visibility="private")
    unauthorized = client.post(f"/campaigns/{campaign}/chapters")
    assert unauthorized.status_code == 401 and "of this campaign" in unauthorized.json()["detail"]
    wrong = client.post(f"/campaigns/{campaign}/chapters", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401 and "of this campaign" in wrong.json()["detail"]
    private = client.get(f"/campaigns/{campaign}")
    assert private.status_code == 401 and "this campaign is private" in private.json()["detail"]
    game = next_chapter(client, campaign, auth)["game"]["id"]
    hidden = client.get(f"/games/{game}")
    assert hidden.status_code == 401 and "this game is private" in hidden.json()["detail"]
    command = client.post(f"/games/{game}/commands", json={"command": {"type": "Choose", "option": "x"}})
    assert command.status_code == 401 and "of this game" in command.json()["detail"]


def test_the_last_chapter_is_reverted_with_every_other_seats_consent(client):
    seats = [{"name": "red", "controls": MICE}, {"name": "blue"}]  # blue plays no mouse, but must agree
    r = client.post(
        "/campaigns",
        json={
            "chapters": ["chapter-1"],
            "party": {"mice": MICE},
            "seats": seats,
            "dice_mode": "manual",
            "undo_policy": "all-seats",
        },
    )
    assert r.status_code == 201, r.text
    campaign = r.json()["campaign"]["id"]
    red, blue = (t["token"] for t in r.json()["tokens"])
    auth = {"Authorization": f"Bearer {red}"}
    game = next_chapter(client, campaign, auth)["game"]["id"]
    win(client, game, red)
    asked = client.post(f"/campaigns/{campaign}/reverts", json={"to_chapter": 1}, headers=auth)
    assert asked.status_code == 201, asked.text
    waiting = asked.json()
    assert waiting["revert_pending"]["needs"] == ["blue"] and waiting["next_chapter"] is None
    refused = client.post(f"/campaigns/{campaign}/reverts/approval", headers=auth)
    assert refused.status_code == 422 and refused.json()["rule"] == "campaign.not-asked", refused.text
    approved = client.post(
        f"/campaigns/{campaign}/reverts/approval", headers={"Authorization": f"Bearer {blue}"}
    )
    assert approved.status_code == 201, approved.text
    body = approved.json()
    assert (
        body["revert_pending"] is None and body["next_chapter"] == "chapter-1" and body["carry_over"] is None
    )
    assert [c["reverted"] for c in body["history"]] == [True]
    events = client.get(f"/campaigns/{campaign}/events", params={"after": 3}).json()["events"]
    assert [(e["type"], e["seat"]) for e in events] == [
        ("CampaignRevertRequested", "red"),
        ("CampaignRevertApproved", "blue"),
        ("CampaignReverted", "blue"),
    ]
    assert client.post(f"/campaigns/{campaign}/verify").json()["verification"]["ok"]


def test_a_chapter_game_left_running_by_an_earlier_revert_is_closed_on_the_campaigns_next_read(client):
    """Before reverts closed the reverted chapter's game, a revert left it open to commands."""
    campaign, token, auth = new_campaign(client, 2)
    first = next_chapter(client, campaign, auth)["game"]["id"]
    win(client, first, token)
    second = next_chapter(client, campaign, auth)["game"]["id"]
    games = client.app.state.runtime.games
    stored = campaigns.load(games, UUID(campaign))
    campaigns._save(
        games, stored, UUID(campaign), "red", decide_revert(stored, 0, "red")
    )  # as then: no close
    assert games.game(UUID(second)).result is None

    assert client.get(f"/campaigns/{campaign}").status_code == 200
    closed = client.get(f"/games/{second}").json()
    assert closed["result"] == "reverted"
    assert client.post(f"/games/{second}/verify").json()["verification"]["ok"]
    version = closed["version"]
    client.get(f"/campaigns/{campaign}")
    assert client.get(f"/games/{second}").json()["version"] == version, "closed once"
