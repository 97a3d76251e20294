"""Vast games stored by earlier releases (``tests/fixtures/vast-0.2``: the first Vast release;
``tests/fixtures/vast-0.3``: the release with the Dragon; ``tests/fixtures/vast-0.4``: the setups without a
Cave and rules revision 3; written by ``tests/fixtures/make_vast_exports.py``)
read and verify with today's code (DESIGN.md, Stored names are forever): every topic decodes, the hash chain
and every re-derived event match, and the finished games replay to the results they had."""

from __future__ import annotations

import io
import json
from pathlib import Path

import msgspec
import pytest

from dicelog.domain.core.game import fold
from dicelog.service.export import Line, verify_file
from dicelog.service.persistence import decode_recorded

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
RELEASES = ("vast-0.2", "vast-0.3", "vast-0.4")
MANIFESTS = {r: json.loads((FIXTURES / r / "manifest.json").read_text()) for r in RELEASES}
FROZEN = json.loads((FIXTURES / "stored-topics.json").read_text())["canonical"]


@pytest.mark.parametrize("release,label", [(r, g) for r in RELEASES for g in sorted(MANIFESTS[r]["games"])])
def test_a_vast_export_of_an_earlier_release_verifies_and_replays(release: str, label: str):
    data = (FIXTURES / release / f"{label}.jsonl").read_bytes()
    old = MANIFESTS[release]["games"][label]
    report = verify_file(io.BytesIO(data))
    assert report.ok and report.events == old["version"], report
    lines = [msgspec.json.decode(raw, type=Line) for raw in data.splitlines()[1:]]
    assert {line.topic for line in lines} <= set(FROZEN)
    records = [decode_recorded(x.originator_id, x.originator_version, x.topic, bytes(x.state)) for x in lines]
    game = fold(None, records)
    assert game.version == old["version"] and game.result == old["result"]
    assert game.ruleset.name == "vast"


@pytest.mark.parametrize("release", RELEASES)
def test_the_manifest_lists_the_topics_the_exports_hold(release: str):
    topics: set[str] = set()
    for label in MANIFESTS[release]["games"]:
        for raw in (FIXTURES / release / f"{label}.jsonl").read_bytes().splitlines()[1:]:
            topics.add(msgspec.json.decode(raw, type=Line).topic)
    assert topics == set(MANIFESTS[release]["topics"])
