"""Stored names are forever (docs/event-model.md): topics never change, and release 0.1's store still reads.

- the canonical topic of every stored type is frozen in ``tests/fixtures/stored-topics.json``
  (a new type is added there on purpose; a renamed or moved one fails), and so is the table of
  the module-path topics release 0.1 wrote, each of which still resolves;
- ``tests/fixtures/release-0.1-store/`` (written by release 0.1 with
  ``tests/fixtures/make_release_0_1_store.py``) opens with today's code: every game loads from
  its snapshot and verifies with the event counts release 0.1 reported, the campaign reads, the
  API serves the games, and an old running game takes new commands (a log of both kinds of
  topic);
- every stored type goes through the mapper under its canonical topic and comes back equal;
- a class's topic depends on its namespace and stored name only, not on its module or name.
"""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import msgspec
import msgspec.inspect as mi
import pytest
from eventsourcing.persistence import JSONTranscoder, MapperDeserialisationError, StoredEvent
from litestar.testing import TestClient

import dicelog.service.http.app  # every module that registers stored types is imported
from dicelog.domain.core import registry
from dicelog.domain.core.campaign import Campaign
from dicelog.domain.core.events import Event
from dicelog.domain.core.game import GENESIS_HASH, GameSnapshot, Recorded, fold
from dicelog.domain.core.verify import Divergence
from dicelog.service.app import campaigns
from dicelog.service.app.export import export_lines, verify_file
from dicelog.service.app.games import Games
from dicelog.service.ops.settings import Settings
from dicelog.service.store import topics
from dicelog.service.store.persistence import MsgspecMapper, decode_log, decode_recorded
from tests.api.conftest import settings_for

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
STORE = FIXTURES / "release-0.1-store"
FROZEN = json.loads((FIXTURES / "stored-topics.json").read_text())
MANIFEST = json.loads((STORE / "manifest.json").read_text())
AT = datetime(2026, 11, 23, tzinfo=UTC)


def _builtin_rulesets() -> list[str]:
    """The rulesets this build ships (not the test rulesets the test suite registers or installs)."""
    return list(registry.builtin_names())


# --- (a) the frozen lists -----------------------------------------------------------------------


def test_every_canonical_topic_is_in_the_frozen_list():
    now = sorted(topics.stored_types(_builtin_rulesets()))
    added = sorted(set(now) - set(FROZEN["canonical"]))
    gone = sorted(set(FROZEN["canonical"]) - set(now))
    assert not gone, f"stored topics that no longer resolve (renamed or moved types?): {gone}"
    assert not added, f"new stored types: add their topics to tests/fixtures/stored-topics.json: {added}"


def test_every_release_0_1_topic_is_kept_and_resolves_to_the_class_of_its_canonical_topic():
    legacy_topics = topics.legacy_topics(_builtin_rulesets())
    assert dict(legacy_topics) == FROZEN["release-0.1"]
    for legacy, canonical in legacy_topics.items():
        cls = topics.resolve(legacy)
        assert topics.resolve(canonical) is cls
        assert topics.topic_of(cls) == canonical
        assert legacy in topics.topics_of(cls)
    assert set(MANIFEST["stored_topics"]) <= set(legacy_topics)


def test_every_concrete_event_class_of_the_domain_has_a_topic():
    def concrete(cls: type) -> Iterator[type]:
        for sub in cls.__subclasses__():
            yield from concrete(sub)
            if not sub.__subclasses__():
                yield sub

    for cls in concrete(Event):
        if cls.__module__.startswith("dicelog.domain."):
            assert topics.resolve(topics.topic_of(cls)) is cls, cls


def test_unknown_topics_and_types_are_refused_with_a_stored_name_error():
    for topic in ("core/Nothing", "nowhere/Thing", "domain.core.events:Nothing", "", "service/"):
        with pytest.raises(topics.StoredNameError):
            topics.resolve(topic)
    with pytest.raises(topics.StoredNameError):
        topics.topic_of(type("Unstored", (msgspec.Struct,), {}))
    with pytest.raises(topics.StoredNameError):
        topics.register("service.records:GameSecret", type("Legacy", (), {}))
    with pytest.raises(topics.StoredNameError):
        topics.register("core/GameCreated", type("Taken", (), {}))
    unknown = StoredEvent(originator_id=uuid4(), originator_version=1, topic="domain.x:Y", state=b"{}")
    with pytest.raises(MapperDeserialisationError):
        MsgspecMapper(transcoder=JSONTranscoder()).to_domain_event(unknown)


# --- (b) the store release 0.1 wrote ------------------------------------------------------------


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    """A copy of the release 0.1 store (the committed fixture is never opened in place)."""
    for path in STORE.glob("*.sqlite"):
        shutil.copyfile(path, tmp_path / path.name)
    return tmp_path


def _games(data_dir: Path) -> Games:
    settings = Settings(data_dir=data_dir, snapshot_interval=MANIFEST["settings"]["snapshot_interval"])
    return Games(settings.library_env("games"), snapshot_interval=settings.snapshot_interval)


def test_every_game_of_release_0_1_loads_from_its_snapshot_and_verifies_as_it_did(old_store: Path):
    games = _games(old_store)
    for label, old in MANIFEST["games"].items():
        game_id = UUID(old["id"])
        snapshot = next(iter(games.snapshots.get(game_id, desc=True, limit=1)))
        assert isinstance(snapshot, GameSnapshot)
        assert snapshot.originator_version == MANIFEST["snapshots"][game_id.hex], label
        records = games.records(game_id)
        assert len(records) == old["version"], label
        restored = snapshot.restore()
        assert restored.state == fold(None, records[: snapshot.originator_version]).state, label
        game = games.game(game_id)
        assert game.version == old["version"] and game.result == old["result"], label
        assert game.state == fold(None, records).state, label
        report = games.verify(game_id)
        assert report.ok, (label, report)
        then = old["verify"]
        assert (report.events, report.dice_checked, report.seed_revealed) == (
            then["events"],
            then["dice_checked"],
            then["seed_revealed"],
        ), label


def test_the_campaign_of_release_0_1_reads(old_store: Path):
    old = MANIFEST["campaign"]
    campaign = campaigns.load(_games(old_store), UUID(old["id"]))
    assert isinstance(campaign, Campaign) and campaign.version == old["version"]
    assert [(e.game_id, e.result, e.reverted) for e in campaign.entries] == [
        (c["game_id"], c["result"], c["reverted"]) for c in old["history"]
    ]


def test_the_export_of_an_old_game_verifies_offline(old_store: Path):
    games = _games(old_store)
    for label, old in MANIFEST["games"].items():
        stored = games.recorder.select_events(UUID(old["id"]))
        assert {s.topic for s in stored} <= set(topics.legacy_topics()), label
        records = [decode_recorded(s.originator_id, s.originator_version, s.topic, s.state) for s in stored]
        assert [r.originator_version for r in records] == list(range(1, old["version"] + 1)), label
        exported = b"\n".join(export_lines(UUID(old["id"]), stored)) + b"\n"
        report = verify_file(io.BytesIO(exported))
        assert report.ok and report.events == old["version"], (label, report)


@pytest.fixture
def old_client(old_store: Path) -> Iterator[TestClient[Any]]:
    settings, _ = settings_for("sqlite", old_store)
    with TestClient(dicelog.service.http.app.create_app(settings)) as client:
        yield client


def _events(client: TestClient[Any], game_id: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = client.get(f"/games/{game_id}/events", params={"after": after, "limit": 1000})
        assert page.status_code == 200, page.text
        events += page.json()["events"]
        after = page.json()["next_after"]
    return events


def test_the_api_serves_every_game_of_release_0_1(old_client: TestClient[Any]):
    listed = old_client.get("/games", params={"limit": 200}).json()["games"]
    assert {g["id"] for g in listed} >= {old["id"] for old in MANIFEST["games"].values()}
    for label, old in MANIFEST["games"].items():
        summary = old_client.get(f"/games/{old['id']}")
        assert summary.status_code == 200, (label, summary.text)
        assert summary.json()["version"] == old["version"] and summary.json()["result"] == old["result"]
        events = _events(old_client, old["id"])
        assert [e["version"] for e in events] == list(range(1, old["version"] + 1)), label
        report = old_client.post(f"/games/{old['id']}/verify")
        assert report.status_code == 200, (label, report.text)
        # the fields the release wrote are answered as then; the fields added since say "format 1"
        verification = report.json()["verification"]
        assert {k: verification[k] for k in old["verify"]} == old["verify"], label
        added = {k: v for k, v in verification.items() if k not in old["verify"]}
        assert added == {"chain_format": 1, "view_key_revealed": False, "digest_only": []}, label
    campaign = old_client.get(f"/campaigns/{MANIFEST['campaign']['id']}")
    assert campaign.status_code == 200 and campaign.json()["version"] == MANIFEST["campaign"]["version"]


@pytest.mark.parametrize("label", ["server-running", "manual"])
def test_an_old_running_game_takes_new_commands_stored_under_canonical_topics(
    old_client: TestClient[Any], old_store: Path, label: str
):
    old = MANIFEST["games"][label]
    game_id = old["id"]
    for _ in range(3):
        summary = old_client.get(f"/games/{game_id}").json()
        pending = summary["pending"] or {}
        mouse = pending.get("piece") or summary["turn"]
        seat = next((s["name"] for s in old["seats"] if mouse in s["controls"]), old["seats"][0]["name"])
        auth = {"Authorization": f"Bearer {old['tokens'][seat]}"}
        legal = old_client.get(f"/games/{game_id}/legal-commands", headers=auth).json()
        command = _answer(legal["pending"]) if legal["pending"] else _prefer_end_turn(legal["commands"])
        r = old_client.post(f"/games/{game_id}/commands", json={"command": command}, headers=auth)
        assert r.status_code == 201, (command, r.text)
    version = old_client.get(f"/games/{game_id}").json()["version"]
    assert version > old["version"]
    report = old_client.post(f"/games/{game_id}/verify").json()["verification"]
    assert report["ok"] and report["events"] == version, report
    with sqlite3.connect(old_store / "games.sqlite") as db:
        rows = db.execute(
            "SELECT originator_version, topic FROM stored_events WHERE originator_id = ? ORDER BY 1",
            (UUID(game_id).hex,),
        ).fetchall()
    assert len(rows) == version
    assert all(":" in topic for v, topic in rows if v <= old["version"]), "the old events are untouched"
    assert all(":" not in topic and "/" in topic for v, topic in rows if v > old["version"])


def _answer(pending: dict[str, Any]) -> dict[str, Any]:
    if pending["type"] == "DecisionRequested":
        return {"type": "Choose", "option": pending["default"] or pending["options"][0]}
    if pending["type"] == "ShuffleRequested":
        return {"type": "Shuffle", "order": pending["cards"]}
    if pending["type"] == "DrawRequested":
        return {"type": "Draw", "cards": pending["cards"][:1]}
    return {"type": "Roll", "faces": [3] * pending["dice"]}


def _prefer_end_turn(commands: list[dict[str, Any]]) -> dict[str, Any]:
    assert commands
    return next((c for c in commands if c["type"] == "EndTurn"), commands[0])


# --- (c) every stored type through the mapper ---------------------------------------------------


def _example_of(t: Any) -> Any:
    """The smallest valid value of a msgspec type (required fields only, constraints met)."""
    if isinstance(t, mi.StructType):
        return t.cls(**{f.name: _example_of(f.type) for f in t.fields if f.required})
    if isinstance(t, mi.UnionType):
        options = [u for u in t.types if not isinstance(u, mi.NoneType)]
        return _example_of(options[0]) if options else None
    if isinstance(t, mi.IntType):
        return max(1, t.ge or 0, (t.gt or 0) + 1)
    if isinstance(t, mi.StrType):
        return "a" * max(1, t.min_length or 0)
    if isinstance(t, mi.LiteralType):
        return t.values[0]
    if isinstance(t, mi.TupleType):
        return tuple(_example_of(item) for item in t.item_types)
    if isinstance(t, (mi.ListType, mi.VarTupleType, mi.SetType, mi.FrozenSetType)):
        items = [_example_of(t.item_type) for _ in range(t.min_length or 0)]
        return tuple(items) if isinstance(t, mi.VarTupleType) else items
    simple = {
        mi.BoolType: True,
        mi.FloatType: 1.5,
        mi.DictType: {},
        mi.AnyType: {"any": 1},
        mi.NoneType: None,
        mi.UUIDType: UUID(int=7),
        mi.DateTimeType: AT,
        mi.RawType: msgspec.Raw(b'{"raw":1}'),
        mi.BytesType: b"b",
    }
    for kind, value in simple.items():
        if isinstance(t, kind):
            return value
    raise TypeError(f"no example of {t!r}")


def _example(cls: type) -> Any:
    return _example_of(mi.type_info(cls))


def _recorded(payload: Any) -> Any:
    if not isinstance(payload, Event):
        return payload
    return Recorded(
        originator_id=uuid4(),
        originator_version=3,
        timestamp=AT,
        seat="red",
        command_id="c-1",
        prev_hash=GENESIS_HASH,
        payload=payload,
    )


@pytest.mark.parametrize("topic", FROZEN["canonical"])
def test_every_stored_type_round_trips_through_the_mapper_under_its_canonical_topic(topic: str):
    mapper = MsgspecMapper(transcoder=JSONTranscoder())
    cls = topics.resolve(topic)
    event = _recorded(_example(cls))
    stored = mapper.to_stored_event(event)
    assert stored.topic == topic
    assert mapper.to_domain_event(stored) == event
    for legacy in topics.topics_of(cls)[1:]:
        again = type(stored)(
            originator_id=stored.originator_id,
            originator_version=stored.originator_version,
            topic=legacy,
            state=stored.state,
        )
        assert mapper.to_domain_event(again) == event


# --- (d) a topic is a namespace and a stored name, wherever the class lives ---------------------


class _Stub:
    """Just enough of a ruleset for the registry and the topics."""

    def __init__(self, name: str, event_types: tuple[type, ...]) -> None:
        self.name, self.event_types = name, event_types


def _event_class(name: str, module: str, tag: str | None = None) -> type:
    cls = msgspec.defstruct(
        name, [("height", int)], bases=(Event,), kw_only=True, **({"tag": tag} if tag else {})
    )
    cls.__module__ = module
    return cls


def test_moving_or_renaming_a_class_keeps_its_topic(monkeypatch: pytest.MonkeyPatch):
    jumped = _event_class("Jumped", "domain.frogs.events")
    monkeypatch.setitem(registry._RULESETS, "frogs", _Stub("frogs", (jumped,)))
    assert topics.topic_of(jumped) == "frogs/Jumped"
    mapper = MsgspecMapper(transcoder=JSONTranscoder())
    stored = mapper.to_stored_event(_recorded(jumped(height=3)))
    assert stored.topic == "frogs/Jumped"

    moved = _event_class("Jumped", "domain.frogs.rules.jumping")  # another module
    renamed = _event_class("Leapt", "domain.frogs.leaps", tag="Jumped")  # another name, the tag kept
    for cls in (moved, renamed):
        monkeypatch.setitem(registry._RULESETS, "frogs", _Stub("frogs", (cls,)))
        assert topics.topic_of(cls) == "frogs/Jumped"
        assert topics.resolve("frogs/Jumped") is cls
        assert mapper.to_domain_event(stored).payload == cls(height=3)


def test_a_topic_is_the_namespace_and_the_stored_name_only():
    for topic, cls in topics.stored_types().items():
        namespace, _, name = topic.partition("/")
        if namespace not in topics.RESERVED_NAMESPACES:  # a ruleset's: its name and the type's tag
            assert registry.get(namespace).name == namespace and name == topics.stored_name(cls)
        assert topic == topics.topic_of(cls) and ":" not in topic and topic.count("/") == 1
        assert cls.__module__ not in topic
    assert topics.topic_of(GameSnapshot) == "core/GameSnapshot"  # listed with its topic written out


def test_a_ruleset_registered_at_run_time_has_topics_too():
    race = registry.get("race")
    for cls in race.event_types:
        assert topics.topic_of(cls) == f"race/{cls.__name__}"
        assert topics.resolve(f"race/{cls.__name__}") is cls


def test_a_log_with_an_undecodable_event_is_named_at_that_version(old_store: Path):
    """``decode_log`` (what a game's and a campaign's verify read the store with) decodes every event of a
    stored log, and names the first one that does not decode instead of raising."""
    old = next(iter(MANIFEST["games"].values()))
    games = _games(old_store)
    stored = games.recorder.select_events(UUID(old["id"]))
    records = decode_log(stored)
    assert isinstance(records, list) and [r.originator_version for r in records] == list(
        range(1, old["version"] + 1)
    )
    broken = stored[2]
    garbled = StoredEvent(
        originator_id=broken.originator_id,
        originator_version=broken.originator_version,
        topic=broken.topic,
        state=b"{not json",
    )
    divergence = decode_log([*stored[:2], garbled, *stored[3:]])
    assert isinstance(divergence, Divergence)
    assert (divergence.version, divergence.check, divergence.expected) == (3, "chain", "a decodable event")
