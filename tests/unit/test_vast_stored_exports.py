"""Vast games stored by earlier releases (``tests/fixtures/vast-0.2``: the first Vast release;
``tests/fixtures/vast-0.3``: the release with the Dragon; ``tests/fixtures/vast-0.4``: the setups without a
Cave and rules revision 3; ``tests/fixtures/vast-0.5``: the Thief, rules revision 4, the last games of chain
format 1; ``tests/fixtures/vast-0.6``: chain format 2, with each seat's view taken during play; written by
``tests/fixtures/make_vast_exports.py``) read and verify with today's code (docs/event-model.md, Stored names
are forever): every topic decodes, the hash chain and every re-derived event match, the finished games replay
to the results they had, and each seat's view kept during play still verifies, alone and against the final
log."""

from __future__ import annotations

import io
import json
from pathlib import Path

import msgspec
import pytest

from dicelog.domain.core.game import fold
from dicelog.service.app.export import FORMAT, FORMAT_2, VIEW_FORMAT_2, Line, verify_file
from dicelog.service.store.persistence import decode_recorded

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
RELEASES = ("vast-0.2", "vast-0.3", "vast-0.4", "vast-0.5", "vast-0.6")
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
    chain_format = 2 if release >= "vast-0.6" else 1
    assert game.created.chain_format == report.chain_format == chain_format
    assert msgspec.json.decode(data.splitlines()[0])["format"] == (FORMAT_2 if chain_format == 2 else FORMAT)


VIEWS = [
    (r, label, seat)
    for r in RELEASES
    for label, game in sorted(MANIFESTS[r]["games"].items())
    for seat in sorted(game.get("views_digest_only", {}))
]


@pytest.mark.parametrize("release,label,seat", VIEWS)
def test_a_seats_view_kept_during_play_by_an_earlier_release_verifies_alone_and_against_the_final_log(
    release: str, label: str, seat: str
):
    view = (FIXTURES / release / f"{label}.{seat}.view.jsonl").read_bytes()
    old = MANIFESTS[release]["games"][label]
    assert msgspec.json.decode(view.splitlines()[0])["format"] == VIEW_FORMAT_2
    report = verify_file(io.BytesIO(view))
    assert report.ok and list(report.digest_only) == old["views_digest_only"][seat], report
    if old["result"] is not None:
        final = (FIXTURES / release / f"{label}.jsonl").read_bytes()
        against = verify_file(io.BytesIO(view), io.BytesIO(final))
        assert against.ok and against.view_key_revealed and against.events == old["version"], against


def test_the_views_kept_cover_every_seat_of_a_game_of_chain_format_2():
    assert {(label, seat) for r, label, seat in VIEWS if r == "vast-0.6"} >= {
        ("five-ended", s) for s in ("sir", "horde", "wyrm", "deep", "rogue")
    }


@pytest.mark.parametrize("release", RELEASES)
def test_the_manifest_lists_the_topics_the_exports_hold(release: str):
    topics: set[str] = set()
    for label in MANIFESTS[release]["games"]:
        for raw in (FIXTURES / release / f"{label}.jsonl").read_bytes().splitlines()[1:]:  # not the views
            topics.add(msgspec.json.decode(raw, type=Line).topic)
    assert topics == set(MANIFESTS[release]["topics"])
