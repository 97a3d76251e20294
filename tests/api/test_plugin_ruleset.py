"""A ruleset published on its own plugs in with no change to the service (docs/architecture.md, The ruleset
boundary): ``secret-hand`` is its own distribution (``tests/rulesets/secret_hand_dist``), found by its entry
point (``dicelog.rulesets``), and gets creation, commands, legal commands, bot seats, a demo and content
routes from its ruleset object alone. (Its who-sees-what leak test is ``test_who_sees_what.py``; its web
table, ``tests/browser/test_who_sees_what_in_the_browser.py``.)"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from dicelog.domain.core import registry
from dicelog.service.cli.demo import run_demo
from dicelog.service.http.app import create_app
from tests.api.conftest import settings_for

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient[Any]]:
    settings, _ = settings_for("sqlite", tmp_path)
    with TestClient(create_app(settings, rulesets=("secret-hand",))) as client:
        yield client


def test_the_registry_finds_it_by_its_entry_point_and_the_service_never_names_it():
    found = {ep.name: ep for ep in entry_points(group=registry.GROUP)}
    assert found["secret-hand"].value == "dicelog_secret_hand.ruleset:SECRET_HAND"
    assert found["secret-hand"].dist is not None and found["secret-hand"].dist.name == "dicelog-secret-hand"
    assert "secret-hand" in registry.installed_names() and "secret-hand" not in registry.builtin_names()
    assert registry.get("secret-hand").name == "secret-hand"
    named = [
        str(path.relative_to(ROOT))
        for folder in ("service", "projections", "domain")
        for path in (ROOT / folder).rglob("*.py")
        if "secret-hand" in path.read_text() or "secret_hand" in path.read_text()
    ]
    assert named == []


def test_its_content_routes_are_served_from_its_catalogue(client):
    assert client.get("/rulesets").json() == [
        {
            "name": "secret-hand",
            "content": "/content/secret-hand",
            "table": "/static/js/generic.js",
            "lobby": None,
        }
    ]
    cards = client.get("/content/secret-hand/cards")
    assert cards.status_code == 200
    assert [c["value"] for c in cards.json()] == list(range(1, 25))
    assert client.get("/content/secret-hand/cards/card-07").json() == {"id": "card-07", "value": 7}
    missing = client.get("/content/secret-hand/cards/card-99")
    assert missing.status_code == 404
    assert missing.headers["content-type"].startswith("application/problem+json")
    assert client.get("/content/vast/tiles").status_code == 404  # only the rulesets served


def test_with_no_web_files_of_its_own_it_gets_the_generic_table(client):
    generic = client.get("/static/js/generic.js")
    assert generic.status_code == 200 and "export function renderTable" in generic.text
    missing = client.get("/web/rulesets/secret-hand/table.js")
    assert missing.status_code == 404
    assert missing.headers["content-type"].startswith("application/problem+json")


def test_a_game_is_created_played_with_legal_commands_and_its_bots_seats_play_the_rest(client):
    body = {
        "ruleset": "secret-hand",
        "setup": {"players": ["red", "blue"]},
        "seats": [{"name": "red", "controls": ["red"]}, {"name": "blue", "controls": ["blue"], "bot": True}],
    }
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.text
    game_id = created.json()["game"]["id"]
    red = {
        "Authorization": f"Bearer {next(t['token'] for t in created.json()['tokens'] if t['seat'] == 'red')}"
    }
    for _ in range(50):
        game = client.get(f"/games/{game_id}", headers=red).json()
        if game["result"] is not None:
            break
        assert game["turn"] == "red", "the bot seat plays blue's turns itself"
        legal = client.get(f"/games/{game_id}/legal-commands", headers=red).json()
        assert legal["commands"] and {c["type"] for c in legal["commands"]} <= {
            "hand.Play",
            "hand.Pass",
            "hand.Discard",
        }
        plays = [c for c in legal["commands"] if c["type"] == "hand.Play"] or legal["commands"]
        sent = client.post(
            f"/games/{game_id}/commands",
            headers=red,
            json={"command": plays[0], "expected_version": legal["version"]},
        )
        assert sent.status_code == 201, sent.text
    assert game["result"] is not None
    assert client.post(f"/games/{game_id}/verify").json()["verification"]["ok"] is True


def test_its_demo_plays_through_the_http_api_and_no_seat_sees_another_seats_cards(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("DICELOG_DATA_DIR", str(tmp_path))
    assert run_demo("secret-hand", seed=5, max_turns=100, quiet=True) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "verify ok" in out and ", 0 with another seat's secret" in out
    reads = int(out.split(" seat reads checked")[0].rsplit(" ", 1)[1])
    assert reads >= 18  # 3 players x 3 rounds, two reads each
