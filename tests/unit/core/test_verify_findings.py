"""What ``verify``, ``verify_view`` and ``verify_against`` report for each kind of tampered or inconsistent
log (docs/event-model.md, Exact replay and Tamper evidence; docs/who-sees-what.md, Hidden information): each
test changes one thing in an otherwise valid log of a short game played through the rules and asserts the
exact divergence named (version, check, expected, found)."""

from __future__ import annotations

from uuid import uuid4

import msgspec
import pytest
from msgspec.structs import replace

from dicelog.domain.core.commands import CloseGame, RequestUndo
from dicelog.domain.core.dice import commitment, shuffle_order
from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import (
    CommandAccepted,
    DiceRolled,
    ForkOrigin,
    GameCreated,
    GameEnded,
    UndoApplied,
    UndoRequested,
)
from dicelog.domain.core.game import GENESIS_HASH, create, envelope_bytes, fold, record_hash
from dicelog.domain.core.verify import Divergence, rederive, verify, verify_against, verify_view, viewed
from dicelog.domain.core.visibility import Lens, seat_viewer
from tests.unit.core.race import Advance
from tests.unit.core.test_chain_format_2 import SEATS, _game, _rechain, _view
from tests.unit.core.test_game import AT, SEED, new_game, run
from tests.unit.core.test_undo import Table


def _race(goal: int = 6):
    """A race game in ``server`` dice mode played to its end (chain format 1)."""
    records, game = new_game("server", SEED, goal=goal)
    while game.result is None:
        records, game = run(records, game, Advance(piece=game.ruleset.turn_piece(game.state)), seed=SEED)
    return records


@pytest.fixture(scope="module")
def race() -> list:
    records = _race()
    assert verify(records).ok
    return records


@pytest.fixture(scope="module")
def vast() -> list:
    """A Vast game of chain format 2 played to its end."""
    return _game()


def _divergence(report) -> Divergence:
    assert not report.ok and report.divergence is not None, report
    return report.divergence


def _index(records, kind, start: int = 1) -> int:
    return next(i for i, r in enumerate(records) if i >= start and isinstance(r.payload, kind))


# --- verify: structure ---------------------------------------------------------------------------------


def test_an_empty_log_is_no_game():
    report = verify([])
    assert report.events == 0
    assert _divergence(report) == Divergence(
        version=1, check="structure", expected="GameCreated at version 1", found="no events"
    )


def test_a_log_that_does_not_start_with_game_created_is_no_game(race):
    assert _divergence(verify(race[1:])) == Divergence(
        version=1, check="structure", expected="GameCreated at version 1", found="CommandAccepted"
    )


def test_a_missing_event_is_a_gap_in_the_versions(race):
    report = verify([*race[:3], *race[4:]])
    assert _divergence(report) == Divergence(version=5, check="structure", expected="version 4", found="5")


def test_another_event_where_a_command_was_expected_is_named(race):
    i = _index(race, CommandAccepted, start=2)
    forged = _rechain(race, i + 1, race[i - 1].payload)
    assert _divergence(verify(forged)) == Divergence(
        version=i + 1,
        check="structure",
        expected="CommandAccepted",
        found=type(race[i - 1].payload).__name__,
    )


def test_a_revealed_seed_that_is_not_hex_is_named_at_the_game_end(race):
    end = race[-1]
    forged = _rechain(race, end.originator_version, replace(end.payload, seed="not hex"))
    divergence = _divergence(verify(forged))
    assert (divergence.version, divergence.check) == (end.originator_version, "structure")
    assert divergence.expected == "a seed and a view key in hex"
    assert "non-hexadecimal" in divergence.found


# --- verify: chain ---------------------------------------------------------------------------------------


def test_stored_bytes_that_differ_from_the_canonical_encoding_are_named(race):
    stored = [envelope_bytes(r) for r in race]
    stored[4] = stored[4].replace(b"{", b"{ ", 1)  # decodes alike, but is not the stored event's bytes
    assert _divergence(verify(race, stored)) == Divergence(
        version=5, check="chain", expected="canonical encoding", found="stored bytes differ"
    )
    assert verify(race, [envelope_bytes(r) for r in race]).ok


def test_an_event_moved_in_from_another_game_breaks_the_chain_at_it(race):
    forged = list(race)
    forged[3] = replace(race[3], originator_id=uuid4())
    divergence = _divergence(verify(forged))
    assert divergence == Divergence(
        version=4, check="chain", expected=record_hash(forged[3]), found=race[4].prev_hash
    )


def test_a_salt_on_an_event_of_chain_format_1_breaks_the_chain(race):
    forged = list(race)
    forged[2] = replace(race[2], salt="ab" * 32)
    assert _divergence(verify(forged)) == Divergence(
        version=3, check="chain", expected="no salt (chain format 1)", found=f"salt {'ab' * 32}"
    )


def test_a_salt_of_64_characters_that_is_not_hex_breaks_the_chain(vast):
    forged = list(vast)
    forged[5] = replace(vast[5], salt="zz" * 32)
    assert _divergence(verify(forged)) == Divergence(
        version=6, check="chain", expected="a salt of 64 hex characters", found="zz" * 32
    )


# --- verify: derivation ----------------------------------------------------------------------------------


def test_a_command_the_rules_cannot_read_is_named_as_refused(race):
    i = _index(race, CommandAccepted, start=2)
    garbled = replace(race[i].payload, command=msgspec.Raw(b'{"type":"NoSuchCommand"}'))
    divergence = _divergence(verify(_rechain(race, i + 1, garbled)))
    assert (divergence.version, divergence.check) == (i + 1, "derivation")
    assert divergence.expected == "the command to be accepted"
    assert divergence.found.startswith("refused: ") and "NoSuchCommand" in divergence.found


def test_a_log_cut_short_in_the_middle_of_a_command_ends_too_early(race):
    divergence = _divergence(verify(race[:-1]))
    assert divergence.version == len(race) and divergence.check == "derivation"
    assert divergence.expected.startswith(f"v{len(race)} server ") and '"GameEnded"' in divergence.expected
    assert divergence.found == "end of log"


def test_an_undo_whose_target_was_edited_is_re_derived_from_the_game_at_the_new_target():
    t = Table("host")  # manual dice: the host undoes alone, so the undo is applied at once
    t.advance("one", "a", 5)
    t.advance("two", "b", 2)
    t.advance("one", "a", 4)
    boundaries = [
        r.originator_version - 1
        for r in t.records
        if isinstance(r.payload, CommandAccepted) and r.seat in ("one", "two")
    ]
    target, earlier = boundaries[-1], boundaries[-2]
    t.send("two", RequestUndo(to_version=target))
    assert isinstance(t.records[-1].payload, UndoApplied) and verify(t.records).ok
    i = _index(t.records, UndoRequested) - 1
    # the stored undo asks for ``target``; re-derived, the edited command asks for ``earlier``, a version no
    # stored undo names, so verify folds the game there from the nearest one it kept
    edited = replace(
        t.records[i].payload, command=msgspec.Raw(msgspec.json.encode(RequestUndo(to_version=earlier)))
    )
    divergence = _divergence(verify(_rechain(t.records, i + 1, edited)))
    assert (divergence.version, divergence.check) == (i + 2, "derivation")
    assert f'"to_version":{earlier}' in divergence.expected and f'"to_version":{target}' in divergence.found


# --- verify: dice ----------------------------------------------------------------------------------------


def _other_seed_alike(cards: tuple[str, ...]) -> bytes:
    """A seed other than ``SEED`` whose first shuffle of ``cards`` is the same: a server that played with it
    shows the same opening."""
    want = shuffle_order(SEED, 0, cards)
    return next(
        s for s in (bytes([n]) * 32 for n in range(1, 64)) if s != SEED and shuffle_order(s, 0, cards) == want
    )


def test_a_game_played_with_another_seed_than_the_one_committed_is_named_at_its_end():
    other = _other_seed_alike(("a", "b"))
    created = GameCreated(
        ruleset="race",
        setup=msgspec.Raw(msgspec.json.encode({"pieces": ["a", "b"], "goal": 10})),
        seats=new_game()[0][0].payload.seats,
        dice_mode="server",
        decision_policy="ask",
        dice_commitment=commitment(SEED),
    )
    records = create(uuid4(), created, at=AT, seed=other, command_id="c0")
    records, _ = run(records, fold(None, records), CloseGame(result="reverted"), "server", other)
    ended = records[-1].payload
    assert isinstance(ended, GameEnded) and ended.seed == other.hex()
    assert _divergence(verify(records)) == Divergence(
        version=len(records),
        check="dice",
        expected=f"a seed with sha256 {commitment(SEED)}",
        found=other.hex(),
    )


def test_a_fork_of_a_running_game_proves_only_the_rolls_of_its_own_seed():
    """A fork of a running game copies the original's events up to its version and rolls from a seed of its
    own (docs/event-model.md, Undo never deletes: forks): the copied rolls are the original's to prove."""
    records, game = new_game("server", SEED, goal=12)
    for _ in range(4):
        records, game = run(records, game, Advance(piece=game.ruleset.turn_piece(game.state)), seed=SEED)
    version, own = len(records), bytes(range(1, 33))
    origin = ForkOrigin(
        game_id=str(records[0].originator_id),
        version=version,
        head_hash=record_hash(records[-1]),
        reseeded=True,
    )
    created = replace(records[0].payload, forked_from=origin, dice_commitment=commitment(own))
    fork: list = []
    fork_id = uuid4()
    for r in records:
        prev = record_hash(fork[-1]) if fork else GENESIS_HASH
        fork.append(replace(r, originator_id=fork_id, prev_hash=prev, payload=r.payload if fork else created))
    game = fold(None, fork)
    while game.result is None:
        fork, game = run(fork, game, Advance(piece=game.ruleset.turn_piece(game.state)), seed=own)
    copied = [r for r in fork[:version] if isinstance(r.payload, DiceRolled)]
    rolled = [r for r in fork[version:] if isinstance(r.payload, DiceRolled)]
    assert copied and rolled
    report = verify(fork)
    assert report.ok and report.seed_revealed and report.dice_checked == len(rolled), report


def test_rederive_refuses_an_event_that_answers_no_chance(race):
    with pytest.raises(InvariantViolated, match="GameEnded answers no roll, shuffle or draw"):
        rederive(SEED, 0, None, race[-1].payload)


# --- verify_view -------------------------------------------------------------------------------------------


def _vfail(report, version, check, expected, found=None):
    divergence = _divergence(report)
    assert report.chain_format == 2
    assert (divergence.version, divergence.check, divergence.expected) == (version, check, expected)
    if found is not None:
        assert divergence.found == found
    return divergence


@pytest.fixture(scope="module")
def view(vast) -> list:
    """What seat ``k`` holds of the first 40 events of the Vast game."""
    held = _view(vast, "k", 40)
    assert verify_view(vast[0].originator_id, held).ok
    return held


def test_an_empty_view_is_no_game(vast):
    _vfail(verify_view(vast[0].originator_id, []), 1, "structure", "GameCreated at version 1, shown")


def test_a_view_whose_first_event_is_hidden_is_no_game(vast, view):
    hidden = [replace(view[0], shown="hidden", payload=msgspec.Raw(b"null"), salt=None), *view[1:]]
    _vfail(
        verify_view(vast[0].originator_id, hidden),
        1,
        "structure",
        "GameCreated at version 1, shown",
        "GameCreated",
    )


def test_a_view_whose_game_created_does_not_decode_is_refused(vast, view):
    broken = [replace(view[0], payload=msgspec.Raw(b'{"type":"GameCreated"}')), *view[1:]]
    _vfail(verify_view(vast[0].originator_id, broken), 1, "structure", "a GameCreated payload")


def test_a_view_with_a_gap_in_its_versions_is_refused(vast, view):
    _vfail(verify_view(vast[0].originator_id, [*view[:5], *view[6:]]), 7, "structure", "version 6", "7")


def test_a_view_whose_prev_hash_is_edited_breaks_the_chain_there(vast, view):
    edited = list(view)
    edited[6] = replace(view[6], prev_hash=GENESIS_HASH)
    _vfail(verify_view(vast[0].originator_id, edited), 7, "chain", view[5].hash, GENESIS_HASH)


def test_a_view_whose_server_hash_is_wrong_breaks_the_chain_there(vast, view):
    edited = list(view)
    edited[6] = replace(view[6], hash="0" * 64)
    _vfail(verify_view(vast[0].originator_id, edited), 7, "chain", view[6].hash, "0" * 64)


def _first(view, shown: str) -> int:
    return next(i for i, v in enumerate(view) if i and v.shown == shown)


def test_a_reader_that_holds_an_event_hidden_checks_the_chain_across_it_and_names_it_digest_only(vast, view):
    at = _first(view, "full")
    held = list(view)
    held[at] = replace(view[at], shown="hidden", salt=None, payload=msgspec.Raw(b"null"))
    report = verify_view(vast[0].originator_id, held)
    assert report.ok and at + 1 in report.digest_only
    assert verify_against(vast[0].originator_id, held, vast).ok


def test_a_shown_payload_that_is_no_event_is_refused(vast, view):
    at = _first(view, "full")
    edited = list(view)
    edited[at] = replace(view[at], payload=msgspec.Raw(b"[1]"))
    _vfail(verify_view(vast[0].originator_id, edited), at + 1, "structure", f"a {view[at].type} payload")


def test_a_shown_payload_of_another_type_than_its_link_is_refused(vast, view):
    at = _first(view, "masked")
    edited = list(view)
    edited[at] = replace(view[at], payload=msgspec.Raw(b'{"type":"GameEnded"}'))
    _vfail(
        verify_view(vast[0].originator_id, edited),
        at + 1,
        "digest",
        f"a {view[at].type} payload",
        "a GameEnded payload",
    )


def test_a_payload_shown_whole_without_its_salt_is_refused(vast, view):
    at = _first(view, "full")
    edited = list(view)
    edited[at] = replace(view[at], salt=None)
    _vfail(
        verify_view(vast[0].originator_id, edited),
        at + 1,
        "structure",
        "a payload shown whole with its salt",
        "no salt",
    )


def test_a_payload_shown_whole_with_a_salt_that_is_not_hex_is_refused(vast, view):
    at = _first(view, "full")
    edited = list(view)
    edited[at] = replace(view[at], salt="zz" * 32)
    _vfail(
        verify_view(vast[0].originator_id, edited),
        at + 1,
        "structure",
        "a salt of 64 hex characters",
        "zz" * 32,
    )


def test_viewed_takes_the_lens_answer_when_given(vast):
    game = fold(None, vast[:3])
    lens = Lens(game.ruleset, seat_viewer(SEATS, "k"))
    record = vast[1]
    assert viewed(record, lens, None).shown == "hidden"
    assert viewed(record, lens, record.payload) == viewed(record, lens)


# --- verify_against ----------------------------------------------------------------------------------------


def test_a_view_that_fails_on_its_own_is_answered_as_such(vast, view):
    edited = [*view[:5], *view[6:]]
    game_id = vast[0].originator_id
    assert verify_against(game_id, edited, vast) == verify_view(game_id, edited)


def test_a_view_against_no_log_or_another_games_log(vast, view):
    game_id = vast[0].originator_id
    _vfail(verify_against(game_id, view, []), 0, "structure", f"the full log of game {game_id}", "no events")
    other = [replace(r, originator_id=uuid4()) for r in vast]
    _vfail(
        verify_against(game_id, view, other),
        0,
        "structure",
        f"the full log of game {game_id}",
        "another game",
    )


def test_a_view_longer_than_the_full_log_is_refused(vast, view):
    _vfail(
        verify_against(vast[0].originator_id, view, vast[:30]),
        31,
        "structure",
        f"at least {len(view)} events",
        "30 events",
    )


def test_a_full_log_event_without_its_salt_is_named(vast, view):
    forged = list(vast)
    forged[4] = replace(vast[4], salt=None)
    _vfail(
        verify_against(vast[0].originator_id, view, forged),
        5,
        "chain",
        "a salted event (chain format 2)",
        "no salt",
    )


def test_a_full_log_salt_that_is_not_hex_is_named(vast, view):
    forged = list(vast)
    forged[4] = replace(vast[4], salt="zz" * 32)
    _vfail(
        verify_against(vast[0].originator_id, view, forged),
        5,
        "chain",
        "a salt of 64 hex characters",
        "zz" * 32,
    )


def test_a_full_log_whose_metadata_differs_from_the_view_is_named(vast, view):
    forged = list(vast)
    forged[4] = replace(vast[4], seat="mallory")
    divergence = _vfail(
        verify_against(vast[0].originator_id, view, forged),
        5,
        "chain",
        msgspec.json.encode(view[4].link()).decode(),
    )
    assert '"seat":"mallory"' in divergence.found


def test_a_full_log_of_a_game_still_running_proves_no_hidden_payload(vast, view):
    # the game as it stood before one of its last commands: cut at a command's first event, never inside
    # the events one command made (a log cut there fails its derivation check, whatever the view)
    cut = max(i for i, r in enumerate(vast[:-10]) if isinstance(r.payload, CommandAccepted))
    running = vast[:cut]
    assert verify(running).ok
    _vfail(
        verify_against(vast[0].originator_id, view, running),
        len(running),
        "structure",
        "the log of an ended game, its view key revealed",
        "no view key",
    )
