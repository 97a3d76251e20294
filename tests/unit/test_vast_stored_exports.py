"""Vast games stored by the release that introduced Vast (``tests/fixtures/vast-0.2``, written by
``tests/fixtures/make_vast_exports.py``) read and verify with today's code (DESIGN.md, Stored names are
forever): every topic decodes, the hash chain and every re-derived event match, and the finished game
replays to the result it had."""

from __future__ import annotations

import io
import json
from pathlib import Path

import msgspec
import pytest

from dicelog.domain.core.game import fold
from dicelog.service.export import Line, verify_file
from dicelog.service.persistence import decode_recorded

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "vast-0.2"
MANIFEST = json.loads((FIXTURE / "manifest.json").read_text())
FROZEN = json.loads((FIXTURE.parent / "stored-topics.json").read_text())["canonical"]


@pytest.mark.parametrize("label", sorted(MANIFEST["games"]))
def test_a_vast_export_of_the_first_vast_release_verifies_and_replays(label: str):
    data = (FIXTURE / f"{label}.jsonl").read_bytes()
    old = MANIFEST["games"][label]
    report = verify_file(io.BytesIO(data))
    assert report.ok and report.events == old["version"], report
    lines = [msgspec.json.decode(raw, type=Line) for raw in data.splitlines()[1:]]
    assert {line.topic for line in lines} <= set(FROZEN)
    records = [decode_recorded(x.originator_id, x.originator_version, x.topic, bytes(x.state)) for x in lines]
    game = fold(None, records)
    assert game.version == old["version"] and game.result == old["result"]
    assert game.ruleset.name == "vast"


def test_the_manifest_lists_the_topics_the_exports_hold():
    topics: set[str] = set()
    for label in MANIFEST["games"]:
        for raw in (FIXTURE / f"{label}.jsonl").read_bytes().splitlines()[1:]:
            topics.add(msgspec.json.decode(raw, type=Line).topic)
    assert topics == set(MANIFEST["topics"])
