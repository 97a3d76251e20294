"""The stored free-form event fields are typed in the contract (issue 33, item 5, the untyped spots).

``GameCreated.setup``, ``UndoApplied.game`` and ``.state``, ``CampaignStarted.setup``,
``CarryOverChosen.choice`` and the ``carry_over`` of ``ChapterBegun``, ``ChapterRecorded`` and
``CarryOverRecomputed`` are raw JSON in the domain; the API describes them with typed mirrors
(``dicelog.service.bodies.stored_events``). Every such event of the stored fixtures (release 0.1's store,
the Vast exports of releases 0.2 to 0.6) and of freshly played games (a Mice and Mystics game with an undo, a
Vast game with an undo read by every seat, a campaign with a carry-over choice and a second chapter)
decodes with the mirror, its free-form fields with the game's ruleset's own types, and validates against the
published schema (``openapi/openapi.json``); the event pages the API answers validate as a whole.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
from jsonschema import Draft202012Validator

from dicelog.domain.core import registry
from dicelog.service.bodies.stored_events import CAMPAIGN_RULESET, MIRRORS, stored_setup_type
from dicelog.service.http.openapi import OPENAPI_PATH
from tests.api.test_campaign_api import MICE, SEATS, Driver, next_chapter
from tests.api.test_vast_api import VastTable

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
VAST_RELEASES = ("vast-0.2", "vast-0.3", "vast-0.4", "vast-0.5", "vast-0.6")
DOC: dict[str, Any] = json.loads(OPENAPI_PATH.read_text())
FIELDS = {
    "GameCreated": ("setup",),
    "UndoApplied": ("game", "state"),
    "CampaignStarted": ("setup",),
    "CarryOverChosen": ("choice",),
    "ChapterBegun": ("carry_over",),
    "ChapterRecorded": ("carry_over",),
    "CarryOverRecomputed": ("carry_over",),
}
MIRROR_OF = {cls.__name__: cls for cls in MIRRORS.values()}


def validator(component: str) -> Draft202012Validator:
    """A JSON Schema validator of one component of the published document (its refs resolve in it)."""
    schema = {"$ref": f"#/components/schemas/{component}", "components": DOC["components"]}
    return Draft202012Validator(schema)


VALIDATORS = {name: validator(name) for name in (*FIELDS, "EventPage", "CampaignEventPage")}


def _ruleset_of(payload: dict[str, Any]) -> str:
    if payload["type"] == "GameCreated":
        return str(payload["ruleset"])
    if payload["type"] == "UndoApplied":
        return str(payload["game"]["created"]["ruleset"])
    return CAMPAIGN_RULESET


def failures(payload: dict[str, Any], seen: Counter[tuple[str, str]]) -> list[str]:
    """What does not hold for one event payload (``[]`` for an event without a free-form field): it decodes
    with its mirror, each free-form field with its ruleset's own type, and it validates against its
    published schema. Counts each field checked in ``seen``."""
    kind = payload.get("type")
    if kind not in FIELDS:
        return []
    found: list[str] = []
    raw = msgspec.json.encode(payload)
    try:
        msgspec.json.decode(raw, type=MIRROR_OF[kind])
    except msgspec.ValidationError as error:
        found.append(f"{kind} mirror: {error}")
    ruleset = registry.get(_ruleset_of(payload))
    typed: list[tuple[str, Any, Any]] = []
    if kind in ("GameCreated", "CampaignStarted"):
        typed.append(("setup", payload["setup"], stored_setup_type(ruleset)))
    if kind == "UndoApplied":
        typed.append(("state", payload["state"], ruleset.state_type))
        typed.append(("game.created.setup", payload["game"]["created"]["setup"], stored_setup_type(ruleset)))
    if kind == "CarryOverChosen":
        typed.append(("choice", payload["choice"], ruleset.campaign_choice_type))
    if kind in ("ChapterBegun", "ChapterRecorded", "CarryOverRecomputed") and payload.get("carry_over"):
        typed.append(("carry_over", payload["carry_over"], ruleset.campaign_carry_over_type))
    for field, value, kind_type in typed:
        try:
            msgspec.json.decode(msgspec.json.encode(value), type=kind_type)
        except msgspec.ValidationError as error:
            found.append(f"{kind}.{field} as {kind_type.__name__}: {error}")
    errors = VALIDATORS[kind].iter_errors(payload)
    found += [f"{kind} schema: {e.json_path}: {e.message[:200]}" for e in errors]
    for field in FIELDS[kind]:
        seen[(kind, field if field in payload else f"{field} (absent)")] += 1
    return found


def stored_payloads() -> Iterator[tuple[str, dict[str, Any]]]:
    """(where, payload) of every event stored in the fixture stores."""
    with sqlite3.connect(FIXTURES / "release-0.1-store" / "games.sqlite") as db:
        rows = db.execute("SELECT originator_id, originator_version, state FROM stored_events")
        for game, version, state in rows:
            stored = json.loads(state)
            if "payload" in stored:  # the service's own records (a game's secret, an answer kept): no events
                yield f"release-0.1 {game}@{version}", stored["payload"]
    for release in VAST_RELEASES:
        for path in sorted((FIXTURES / release).glob("*.jsonl")):
            for line in path.read_text().splitlines()[1:]:
                record = json.loads(line)
                if "topic" in record:  # a view's lines of a hidden event carry no stored state
                    yield f"{path.name}@{record['originator_version']}", record["state"]["payload"]


def test_every_free_form_field_stored_in_the_fixtures_decodes_with_its_mirror_and_fits_the_schema():
    seen: Counter[tuple[str, str]] = Counter()
    found = [f"{where}: {f}" for where, payload in stored_payloads() for f in failures(payload, seen)]
    assert not found, f"{len(found)} failures, e.g. {found[:10]}"
    # release 0.1 stored both games' setups, an undo and a campaign; the Vast exports their setups
    assert seen[("GameCreated", "setup")] >= 20 and seen[("UndoApplied", "state")] >= 1, seen
    assert seen[("CampaignStarted", "setup")] >= 1 and seen[("ChapterRecorded", "carry_over")] >= 1, seen


def _pages(client: Any, path: str, headers: dict[str, str], page: str) -> Iterator[dict[str, Any]]:
    """Every event of ``path`` (``/games/{id}/events`` or ``/campaigns/{id}/events``) as read with
    ``headers``, each page validated against its published schema."""
    after: int | None = 0
    while after is not None:
        r = client.get(path, params={"after": after, "limit": 100}, headers=headers)
        assert r.status_code == 200, r.text
        body = r.json()
        errors = [f"{e.json_path}: {e.message[:200]}" for e in VALIDATORS[page].iter_errors(body)]
        assert not errors, (path, errors[:5])
        yield from (e["payload"] for e in body["events"] if e["payload"] is not None)
        after = body["next_after"]


def _undo_last_command(client: Any, game: str, auth: dict[str, str]) -> None:
    """The host takes back its last command (an ``UndoApplied`` at once under the ``host`` policy)."""
    versions, after = [], 0
    while after is not None:
        body = client.get(f"/games/{game}/events", params={"after": after, "limit": 100}, headers=auth).json()
        versions += [
            e["version"]
            for e in body["events"]
            if e["type"] == "CommandAccepted" and e["seat"] not in ("server", "policy")
        ]
        after = body["next_after"]
    undo = {"type": "RequestUndo", "to_version": max(versions) - 1}
    answer = client.post(f"/games/{game}/commands", json={"command": undo}, headers=auth)
    assert answer.status_code == 201, answer.text


def test_freshly_played_games_and_a_campaign_show_their_free_form_fields_as_the_schema_says(client):
    seen: Counter[tuple[str, str]] = Counter()
    found: list[str] = []

    def check(path: str, headers: dict[str, str], page: str = "EventPage") -> None:
        for payload in _pages(client, path, headers, page):
            found.extend(f"{path}: {f}" for f in failures(payload, seen))

    # a campaign: chapter 1 won, a carry-over chosen, chapter 2 begun with the carry-over
    r = client.post(
        "/campaigns",
        json={
            "chapters": ["chapter-1"] * 2,
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
    chosen = client.post(f"/campaigns/{campaign}/carry-over", json={"keep": {MICE[0]: None}}, headers=auth)
    assert chosen.status_code == 201, chosen.text
    second = next_chapter(client, campaign, auth)["game"]["id"]
    # an undo in the second chapter's game (a Mice and Mystics game with a carry-over in its setup)
    driver = Driver(client, second, token, kitchen_encounter="standard-2", maggie_face=6)
    for _ in range(4):
        legal = client.get(f"/games/{second}/legal-commands", headers=auth).json()
        state = client.get(f"/games/{second}/state").json()["state"]
        if legal["pending"] is not None:
            driver.send(driver.answer(legal["pending"], state))
        else:
            driver.send(legal["commands"][0])
    _undo_last_command(client, second, auth)
    check(f"/campaigns/{campaign}/events", auth, "CampaignEventPage")
    for game in (first, second):
        check(f"/games/{game}/events", auth)
        check(f"/games/{game}/events", {})

    # a Vast game with secrets: an undo every seat approved, read by each seat, the spectator and the auditor
    table = VastTable(client, undo_policy="all-seats")
    before = table.get("", None).json()["version"]
    assert table.send("sir", {"type": "vast.PlaceHeroCube", "target": "movement"}).status_code == 201
    assert table.send("sir", {"type": "RequestUndo", "to_version": before}).status_code == 201
    assert table.send("deep", {"type": "ApproveUndo"}).status_code == 201
    for who in ("sir", "deep", "spectator", "auditor"):
        check(f"/games/{table.id}/events", {"Authorization": f"Bearer {table.tokens[who]}"})

    assert not found, f"{len(found)} failures, e.g. {found[:10]}"
    every_field = {(kind, field) for kind, fields in FIELDS.items() for field in fields}
    assert every_field <= set(seen), sorted(every_field - set(seen))
    assert seen[("UndoApplied", "state")] >= 4 + 2, seen  # the Vast undo by 4 readers, the MM one by 2
