"""A campaign's own log, through the real app (docs/campaigns.md): ``GET /campaigns/{id}/events`` paged
like a game's, ``POST /campaigns/{id}/verify``, the export ``dicelog verify`` checks offline, and the
campaign's spectator and auditor tokens."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from dicelog.domain.core.campaign import ChapterRecorded
from dicelog.service.app import campaigns
from dicelog.service.app.export import verify_file
from dicelog.service.cli.main import EXIT_GAME, main
from tests.api.test_campaign_api import MICE, next_chapter
from tests.api.test_campaign_history_api import new_campaign, win
from tests.api.who_sees_what_support import assert_same_export


def every_event(client: Any, campaign: str, headers: dict[str, str], **query: Any) -> list[dict[str, Any]]:
    """The campaign's events read page by page (``next_after``)."""
    events: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        r = client.get(f"/campaigns/{campaign}/events", params={**query, "after": after}, headers=headers)
        assert r.status_code == 200, r.text
        events += r.json()["events"]
        after = r.json()["next_after"]
    return events


def test_the_campaign_log_tells_who_did_what_and_verifies_online_and_offline(client, tmp_path: Path):
    campaign, token, auth = new_campaign(client, 1)
    game = next_chapter(client, campaign, auth)["game"]["id"]
    win(client, game, token)
    end = client.get(f"/games/{game}/state").json()["state"]
    mouse = next(m for m in MICE if end["pack"].get(m))
    assert client.post(
        f"/campaigns/{campaign}/carry-over", json={"keep": {mouse: None}}, headers=auth
    ).is_success
    assert client.post(f"/campaigns/{campaign}/reverts", json={"to_chapter": 1}, headers=auth).is_success

    events = every_event(client, campaign, {}, limit=2)
    assert [(e["type"], e["seat"]) for e in events] == [
        ("CampaignStarted", "server"),
        ("ChapterBegun", "red"),
        ("ChapterRecorded", "server"),
        ("CarryOverChosen", "red"),
        ("CarryOverRecomputed", "red"),
        ("CampaignRevertRequested", "red"),
        ("CampaignReverted", "red"),
    ]
    assert [e["version"] for e in events] == list(range(1, 8))
    assert events[0]["prev_hash"] == "0" * 64
    assert all(b["prev_hash"] == a["hash"] for a, b in itertools.pairwise(events))
    assert events[2]["payload"] == {
        "type": "ChapterRecorded",
        "index": 0,
        "game_id": game,
        "result": "victory",
        "carry_over": events[2]["payload"]["carry_over"],
    }
    assert events[3]["payload"]["choice"] == {"keep": {mouse: None}}
    assert (
        events[3]["command_id"] == events[4]["command_id"]
        and events[5]["command_id"] == events[6]["command_id"]
    )
    assert [e["type"] for e in every_event(client, campaign, {}, type="ChapterRecorded")] == [
        "ChapterRecorded"
    ]
    assert [e["version"] for e in every_event(client, campaign, {}, seat="red")] == [2, 4, 5, 6, 7]

    verified = client.post(f"/campaigns/{campaign}/verify")
    assert verified.status_code == 200 and verified.json()["verification"]["ok"], verified.text
    assert verified.json()["verification"]["events"] == 7

    exported = client.get(f"/campaigns/{campaign}/export")
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("application/jsonl")
    assert verify_file(io.BytesIO(exported.content)).ok
    path = tmp_path / "campaign.jsonl"
    path.write_bytes(exported.content)
    assert main(["verify", str(path)]) == 0
    lines = exported.content.splitlines()
    assert json.loads(lines[0]) == {
        "format": "dicelog-campaign-export/1",
        "campaign_id": campaign,
        "events": 7,
    }
    edited = tmp_path / "edited.jsonl"
    edited.write_bytes(b"\n".join([*lines[:3], lines[3].replace(b'"victory"', b'"defeat"'), *lines[4:]]))
    assert main(["verify", str(edited)]) == 1
    # the typed JSON form: the same export as one document; an Accept matching neither form is 406
    typed = client.get(f"/campaigns/{campaign}/export", headers={"Accept": "application/json"})
    assert typed.status_code == 200 and typed.headers["content-type"].startswith("application/json")
    assert assert_same_export(exported.content, typed.content)["format"] == "dicelog-campaign-export/1"
    refused = client.get(f"/campaigns/{campaign}/export", headers={"Accept": "text/csv"})
    assert refused.status_code == 406 and refused.json()["type"] == "urn:dicelog:problem:not-acceptable"


def test_verify_finds_a_recorded_result_that_is_not_its_games(client):
    campaign, _, auth = new_campaign(client, 2)
    game = next_chapter(client, campaign, auth)["game"]["id"]
    games = client.app.state.runtime.games
    stored = campaigns.load(games, UUID(campaign))
    forged = ChapterRecorded(index=0, game_id=game, result="defeat")  # the game is still running
    campaigns._save(games, stored, UUID(campaign), "server", [forged])
    verification = client.post(f"/campaigns/{campaign}/verify").json()["verification"]
    assert not verification["ok"] and verification["divergence"]["check"] == "derivation", verification
    assert verification["divergence"]["version"] == 3
    assert verification["divergence"]["expected"] == f"the result of game {game}: None"


def test_spectator_and_auditor_tokens_read_a_private_campaign_and_its_games_and_act_on_nothing(client):
    r = client.post(
        "/campaigns",
        json={
            "chapters": ["chapter-1"],
            "party": {"mice": MICE},
            "seats": [{"name": "red", "controls": MICE}],
            "visibility": "private",
        },
    )
    assert r.status_code == 201, r.text
    body = r.json()
    campaign, seat = body["campaign"]["id"], {"Authorization": f"Bearer {body['tokens'][0]['token']}"}
    readers = {
        "spectator": {"Authorization": f"Bearer {body['spectator_token']}"},
        "auditor": {"Authorization": f"Bearer {body['auditor_token']}"},
    }
    game = next_chapter(client, campaign, seat)["game"]["id"]
    for path in (f"/campaigns/{campaign}", f"/campaigns/{campaign}/events", f"/games/{game}"):
        assert client.get(path).status_code == 401, path
        for name, headers in readers.items():
            assert client.get(path, headers=headers).status_code == 200, (path, name)
    assert client.post(f"/campaigns/{campaign}/verify", headers=readers["spectator"]).json()["verification"][
        "ok"
    ]
    assert client.get(f"/campaigns/{campaign}/export", headers=readers["auditor"]).status_code == 200
    for name, headers in readers.items():
        acted = client.post(f"/campaigns/{campaign}/chapters", headers=headers)
        assert acted.status_code == 403 and "campaign" in acted.json()["detail"], (name, acted.text)
        command = client.post(
            f"/games/{game}/commands", json={"command": {"type": "Choose", "option": "x"}}, headers=headers
        )
        assert command.status_code == 403, (name, command.text)
    listed = client.get("/games", headers=readers["spectator"]).json()["games"]
    assert [g["id"] for g in listed] == [game]


@pytest.mark.parametrize("backend", ["sqlite"])  # the CLI reads the store named by DICELOG_* settings
def test_dicelog_export_writes_a_campaigns_log_that_dicelog_verify_checks(
    client, tmp_path, monkeypatch, capsys
):
    campaign, token, auth = new_campaign(client, 1, visibility="private")
    next_chapter(client, campaign, auth)
    monkeypatch.setenv("DICELOG_DATA_DIR", str(client.app.state.runtime.settings.data_dir))
    out = tmp_path / "campaign.jsonl"
    assert main(["export", campaign, "--output", str(out)]) == 0
    assert json.loads(out.read_bytes().splitlines()[0])["format"] == "dicelog-campaign-export/1"
    assert out.read_bytes() == client.get(f"/campaigns/{campaign}/export", headers=auth).content
    assert main(["verify", str(out)]) == 0
    assert "verified: all 2 events" in capsys.readouterr().out
    assert main(["export", campaign, f"--token={token}", "--output", str(out)]) == 0
    assert main(["export", campaign, "--token", "not-a-token", "--output", str(out)]) == EXIT_GAME
    assert "cannot export campaign" in capsys.readouterr().err
