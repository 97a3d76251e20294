"""The OpenAPI document of an app serving rulesets whose events share a tag (issue 29): Mice and Mystics, Vast
and the plug-in ``secret-hand`` (``tests/rulesets/secret_hand_dist``), where Mice and Mystics and secret-hand
both store ``RoundStarted``, ``TurnStarted`` and ``TurnEnded``. Stored tags never change, so the document
scopes the event union by ruleset, then by ``type`` (``GameEvent``: one ``<Ruleset>GameEvent`` per served
ruleset, docs/api-contract.md, Rulesets sharing names), and a plug-in's class whose name a built-in ruleset
already gives a component is prefixed by its ruleset (``SecretHandRoundStarted``). The document is valid
OpenAPI 3.1, every answer is typed, and each ruleset's event pages validate against it, each event against its
ruleset's own union. Commands may not share a tag (a command body does not name its ruleset): such a set of
rulesets is refused when the app is built. (The committed document: ``test_openapi_contract.py``.)"""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from litestar.testing import TestClient
from openapi_spec_validator import validate

from dicelog.domain.core import registry
from dicelog.domain.core.commands import Command, Roll
from dicelog.service.http.api_types import api_types
from dicelog.service.http.app import create_app
from dicelog.service.http.openapi import EXAMPLES, OPENAPI_PATH
from tests.api.conftest import settings_for
from tests.api.test_vast_api import VastTable

SERVED = ("mice-and-mystics", "secret-hand", "vast")
SHARED_TAGS = ("RoundStarted", "TurnStarted", "TurnEnded")
COMMITTED: dict[str, Any] = json.loads(OPENAPI_PATH.read_text())["components"]["schemas"]
REF = "#/components/schemas/{}"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient[Any]]:
    settings, _ = settings_for("sqlite", tmp_path_factory.mktemp("shared-tags"))
    with TestClient(create_app(settings, rulesets=SERVED)) as client:
        yield client


@pytest.fixture(scope="module")
def doc(client: TestClient[Any]) -> dict[str, Any]:
    answer = client.get("/schema/openapi.json", timeout=120)
    assert answer.status_code == 200, answer.text[:2000]
    document: dict[str, Any] = answer.json()
    return document


def validator(doc: dict[str, Any], component: str) -> Draft202012Validator:
    """A JSON Schema validator of one component of ``doc`` (its refs resolve in it)."""
    return Draft202012Validator({"$ref": REF.format(component), "components": doc["components"]})


@pytest.mark.slow  # openapi-spec-validator spends 7-10 s on the 1 MB document (docs/testing.md)
def test_the_document_is_valid_openapi_3_1(doc):
    validate(doc)
    assert doc["openapi"].startswith("3.1")


def test_the_document_is_served_and_every_answer_is_typed(doc):
    untyped = [
        (method, path, status)
        for path, item in doc["paths"].items()
        for method, op in item.items()
        if isinstance(op, dict) and "responses" in op
        for status, response in op["responses"].items()
        for media_type, media in response.get("content", {}).items()
        if media_type == "application/json"
        and media.get("schema", {}) in ({}, {"type": "string"}, {"type": "object"})
    ]
    assert not untyped
    assert not [name for name in doc["components"]["schemas"] if "." in name], "module paths as names"


def test_events_are_scoped_by_ruleset_then_by_type(doc):
    schemas = doc["components"]["schemas"]
    scoped = {name: f"{''.join(p.capitalize() for p in name.split('-'))}GameEvent" for name in SERVED}
    assert schemas["GameEvent"]["anyOf"] == [{"$ref": REF.format(scoped[name])} for name in SERVED]
    mappings = {name: schemas[union]["discriminator"]["mapping"] for name, union in scoped.items()}
    for name, mapping in mappings.items():
        assert schemas[scoped[name]]["discriminator"]["propertyName"] == "type"
        assert sorted(m["$ref"] for m in schemas[scoped[name]]["anyOf"]) == sorted(mapping.values())
        assert mapping["DiceRolled"] == REF.format("DiceRolled"), "the core's events in every ruleset's union"
    for tag in SHARED_TAGS:
        # the built-in ruleset keeps the committed document's name; the plug-in's class is prefixed
        assert mappings["mice-and-mystics"][tag] == REF.format(tag)
        assert schemas[tag] == COMMITTED[tag]
        assert mappings["secret-hand"][tag] == REF.format(f"SecretHand{tag}")
        assert schemas[f"SecretHand{tag}"]["title"] == f"SecretHand{tag}"
        assert schemas[f"SecretHand{tag}"]["properties"]["type"]["const"] == tag
        assert tag not in mappings["vast"]  # Vast's are ``vast.RoundStarted``...
    # the other unions of the served rulesets' types: states by ``ruleset``, stored states by shape
    assert set(schemas["GameState"]["discriminator"]["mapping"]) == set(SERVED)
    assert REF.format("SecretHandState") in [m["$ref"] for m in schemas["RulesetState"]["oneOf"]]
    assert REF.format("State") in [m["$ref"] for m in schemas["RulesetState"]["oneOf"]]


def _events(client: TestClient[Any], game: str, headers: dict[str, str]) -> Iterator[dict[str, Any]]:
    after: int | None = 0
    while after is not None:
        answer = client.get(f"/games/{game}/events", params={"after": after, "limit": 100}, headers=headers)
        assert answer.status_code == 200, answer.text
        yield answer.json()
        after = answer.json()["next_after"]


def _auth(created: dict[str, Any], seat: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {next(t['token'] for t in created['tokens'] if t['seat'] == seat)}"}


def _play(client: TestClient[Any], game: str, headers: dict[str, str], commands: int) -> None:
    """Send the first legal command ``commands`` times (the listed commands are ready to send)."""
    for _ in range(commands):
        legal = client.get(f"/games/{game}/legal-commands", headers=headers).json()
        if not legal["commands"]:
            return
        sent = client.post(
            f"/games/{game}/commands",
            headers=headers,
            json={"command": legal["commands"][0], "expected_version": legal["version"]},
        )
        assert sent.status_code == 201, sent.text


def _games(client: TestClient[Any]) -> Iterator[tuple[str, str, dict[str, str]]]:
    """(ruleset, game id, a seat's headers) of a game of each served ruleset, a few commands in."""
    created = client.post("/games", json=EXAMPLES["createGame"]).json()
    game, turn = created["game"]["id"], created["game"]["turn"]
    seat = next(s["name"] for s in created["game"]["seats"] if turn in s["controls"])
    _play(client, game, _auth(created, seat), 3)
    yield "mice-and-mystics", game, _auth(created, seat)
    body = {
        "ruleset": "secret-hand",
        "setup": {"players": ["red", "blue"]},
        "seats": [{"name": "red", "controls": ["red"]}, {"name": "blue", "controls": ["blue"], "bot": True}],
    }
    answer = client.post("/games", json=body)
    assert answer.status_code == 201, answer.text
    game = answer.json()["game"]["id"]
    _play(client, game, _auth(answer.json(), "red"), 2)
    yield "secret-hand", game, _auth(answer.json(), "red")
    table = VastTable(client)
    assert table.send("sir", {"type": "vast.PlaceHeroCube", "target": "movement"}).status_code == 201
    yield "vast", table.id, {"Authorization": f"Bearer {table.tokens['sir']}"}


def test_an_event_page_of_each_ruleset_validates_and_each_event_against_its_rulesets_union(client, doc):
    pages = validator(doc, "EventPage")
    checked: dict[str, set[str]] = {}
    for ruleset, game, headers in _games(client):
        own = validator(doc, f"{''.join(p.capitalize() for p in ruleset.split('-'))}GameEvent")
        for page in _events(client, game, headers):
            errors = [f"{e.json_path}: {e.message[:200]}" for e in pages.iter_errors(page)]
            assert not errors, (ruleset, errors[:5])
            for event in page["events"]:
                if event["payload"] is not None:
                    errors = [f"{e.json_path}: {e.message[:200]}" for e in own.iter_errors(event["payload"])]
                    assert not errors, (ruleset, event["type"], errors[:5])
                    checked.setdefault(ruleset, set()).add(event["type"])
    assert set(checked) == set(SERVED)
    assert {"RoundStarted", "TurnStarted"} <= checked["mice-and-mystics"], checked["mice-and-mystics"]
    assert {"RoundStarted", "TurnStarted"} <= checked["secret-hand"], checked["secret-hand"]


class BareMove(Command, kw_only=True, tag="Move"):
    """A plug-in's command with Mice and Mystics' bare tag ``Move``."""

    piece: str


def test_rulesets_whose_commands_share_a_tag_are_refused_when_the_app_is_built(monkeypatch):
    """Events may share a tag, commands may not: a command body does not name its ruleset, and ``POST
    /games/{id}/commands`` decodes one union of the served rulesets' commands."""
    clash = SimpleNamespace(name="bare-move", command_type=BareMove | Roll, setup_type=None)
    monkeypatch.setitem(registry._RULESETS, "bare-move", clash)
    with pytest.raises(ValueError, match="mice-and-mystics and bare-move both have a command tagged 'Move'"):
        api_types(("mice-and-mystics", "bare-move"))
    assert api_types(("bare-move",)).commands_of["bare-move"] == (BareMove, Roll)
