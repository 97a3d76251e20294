"""Chain format 2 (issue 16; docs/verifiable-secrets.md, Tamper evidence and Hidden information), driven
through the domain: each event's chain hash covers its public metadata and its payload's salted digest, the
salts derive from a view key committed in ``GameCreated`` and revealed in ``GameEnded``; every reader checks
the chain across what it may not see (``verify_view``) and, after the end, every payload it held by digest
only (``verify_against``). Games of chain format 1 hash and verify exactly as before."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from itertools import pairwise
from uuid import uuid4

import msgspec
import pytest
from msgspec.structs import replace

from dicelog.domain.core.dice import commitment
from dicelog.domain.core.events import GameCreated, GameEnded, Seat
from dicelog.domain.core.game import (
    CHAIN_FORMAT,
    GENESIS_HASH,
    Recorded,
    chain_hash,
    create,
    envelope_bytes,
    event_salt,
    fold,
    record_hash,
    run_command_and_auto_answers_records,
)
from dicelog.domain.core.registry import rules_revision
from dicelog.domain.core.verify import verify, verify_against, verify_view, viewed
from dicelog.domain.core.visibility import SPECTATOR_VIEWER, Lens, seat_viewer
from dicelog.domain.vast.bot import choose

AT = datetime(2026, 11, 26, tzinfo=UTC)
SEATS = (Seat(name="k", controls=("knight",)), Seat(name="c", controls=("cave",)))
SEAT_OF = {"knight": "k", "cave": "c"}
KEY = bytes(range(100, 132))
SEED = bytes(range(32))


def _game(key: bytes | None = KEY, max_commands: int = 2_000) -> list[Recorded]:
    """A Knight vs Cave game played by the bots (each from its own view) to its end, of chain format 2
    with ``key`` as its view key (format 1 without one)."""
    created = GameCreated(
        ruleset="vast",
        setup=msgspec.Raw(msgspec.json.encode({"setup": "knight-vs-cave"})),
        seats=SEATS,
        decision_policy="default",
        dice_commitment=commitment(SEED),
        rules_revision=rules_revision("vast"),
        chain_format=CHAIN_FORMAT if key else 1,
        view_key_commitment=commitment(key) if key else None,
    )
    records = create(uuid4(), created, at=AT, seed=SEED, command_id="c0", nonce_key=key)
    game = fold(None, records)
    rng = random.Random(16)
    for n in range(max_commands):
        if game.result is not None:
            break
        seat = SEAT_OF[game.state.turn]
        view = Lens(game.ruleset, seat_viewer(SEATS, seat)).state(game.state)
        command = choose(view, game.ruleset.legal_commands(game.state), rng)
        new = run_command_and_auto_answers_records(
            game, command, seat=seat, command_id=f"c{n}", at=AT, seed=SEED, nonce_key=key
        )
        game = fold(game, new)
        records += new
    assert game.result is not None
    return records


@pytest.fixture(scope="module")
def records() -> list[Recorded]:
    return _game()


def _view(records: list[Recorded], reader: str, upto: int) -> list:
    game = fold(None, records[:upto])
    viewer = SPECTATOR_VIEWER if reader == "spectator" else seat_viewer(SEATS, reader)
    lens = Lens(game.ruleset, viewer, reveal=game.result is not None)
    return [viewed(r, lens) for r in records[:upto]]


def _rechain(records: list[Recorded], version: int, payload: object) -> list[Recorded]:
    """``records`` with the payload at ``version`` replaced and every later link recomputed: what a server
    rewriting its own store consistently would hold."""
    out = list(records[: version - 1])
    for r in records[version - 1 :]:
        new = replace(
            r,
            payload=payload if r.originator_version == version else r.payload,
            prev_hash=record_hash(out[-1]) if out else GENESIS_HASH,
        )
        out.append(new)
    return out


def test_every_event_carries_its_salt_from_the_view_key_and_the_game_verifies_in_full(records):
    game_id = records[0].originator_id
    assert all(r.salt == event_salt(KEY, game_id, r.originator_version) and r.nonce is None for r in records)
    assert all(b.prev_hash == record_hash(a) for a, b in pairwise(records))
    ended = records[-1].payload
    assert isinstance(ended, GameEnded) and ended.view_key == KEY.hex()
    report = verify(records, [envelope_bytes(r) for r in records])
    assert report.ok and report.chain_format == 2 and report.view_key_revealed and report.seed_revealed


@pytest.mark.parametrize("reader", ["k", "c", "spectator"])
def test_a_readers_view_mid_game_checks_the_chain_and_names_what_it_holds_by_digest_only(records, reader):
    upto = len(records) // 2
    view = _view(records, reader, upto)
    report = verify_view(records[0].originator_id, view)
    assert report.ok, report
    assert report.digest_only == tuple(v.version for v in view if v.shown != "full")
    assert report.digest_only, "every reader holds some payload by digest only in a game with secrets"
    assert all(v.salt is None for v in view if v.shown != "full")
    # after the end the same view, with the final log, proves every payload it held by digest
    after = verify_against(records[0].originator_id, view, records)
    assert after.ok and after.view_key_revealed and after.events == len(records)


def test_a_payload_changed_after_a_readers_view_is_named_at_its_version_even_when_the_chain_is_rewritten(
    records,
):
    upto = len(records) // 2
    view = _view(records, "k", upto)
    version = next(v.version for v in view if v.shown == "masked" and v.type == "CardsDrawn")
    drawn = records[version - 1].payload
    forged = _rechain(records, version, replace(drawn, cards=tuple(reversed(drawn.cards)) or ("x",)))
    assert forged != records
    report = verify_against(records[0].originator_id, view, forged)
    assert not report.ok
    assert report.divergence.version == version and report.divergence.check == "digest"


def test_a_payload_a_reader_sees_whole_must_match_its_digest(records):
    view = _view(records, "c", 40)
    at = next(i for i, v in enumerate(view) if v.shown == "full" and v.type == "CommandAccepted")
    edited = list(view)
    edited[at] = replace(view[at], payload=msgspec.Raw(bytes(view[at].payload).replace(b"}", b',"x":1}', 1)))
    report = verify_view(records[0].originator_id, edited)
    assert not report.ok and report.divergence.check == "digest" and report.divergence.version == at + 1


def test_a_link_edited_in_a_readers_view_breaks_the_chain_there(records):
    view = _view(records, "k", 40)
    at = next(i for i, v in enumerate(view) if v.shown == "masked")
    edited = list(view)
    edited[at] = replace(view[at], digest="0" * 64)
    report = verify_view(records[0].originator_id, edited)
    assert not report.ok and report.divergence.check == "chain" and report.divergence.version == at + 1


def test_a_view_key_that_does_not_match_its_commitment_is_refused(records):
    version = records[-1].originator_version
    other = bytes(32).hex()
    forged = _rechain(records, version, replace(records[-1].payload, view_key=other))
    report = verify(forged)
    assert not report.ok and report.divergence.check == "digest" and report.divergence.version == version
    assert report.divergence.found == other


def test_a_salt_that_does_not_derive_from_the_revealed_key_is_refused(records):
    version = 7
    forged = list(records)
    forged[version - 1] = replace(records[version - 1], salt="ab" * 32)
    forged = _rechain(forged, version, forged[version - 1].payload)
    report = verify(forged)
    assert not report.ok and report.divergence.check == "digest" and report.divergence.version == version


def test_a_format_2_event_without_a_salt_breaks_the_chain(records):
    forged = list(records)
    forged[3] = replace(records[3], salt=None)
    report = verify(forged)
    assert not report.ok and report.divergence.check == "chain" and report.divergence.version == 4


def test_a_game_of_chain_format_1_hashes_its_whole_envelope_as_before():
    records = _game(key=None)
    assert all(r.salt is None for r in records)
    assert all(
        record_hash(r) == chain_hash(r.originator_id, r.originator_version, envelope_bytes(r))
        for r in records
    )
    report = verify(records, [envelope_bytes(r) for r in records])
    assert report.ok and report.chain_format == 1 and not report.view_key_revealed
    # a reader's view is checked in chain format 2 only: a format-1 view says so at version 1
    report = verify_view(records[0].originator_id, _view(records, "k", 20))
    assert not report.ok and report.divergence.check == "structure" and report.divergence.version == 1
