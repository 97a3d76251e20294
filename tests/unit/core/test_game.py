"""The game-agnostic core: envelopes, pending nodes, provable dice, hash chain, verify."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from uuid import uuid4

import msgspec
import pytest

from dicelog.domain.core.commands import Choose, Roll, Shuffle
from dicelog.domain.core.dice import commitment, roll_faces, shuffle_order
from dicelog.domain.core.errors import GameOver, NotYourTurn, PendingFirst, RuleBroken
from dicelog.domain.core.events import CommandAccepted, DiceRolled, GameCreated, GameEnded, Seat
from dicelog.domain.core.game import (
    GENESIS_HASH,
    create,
    fold,
    record_hash,
    run_command_and_auto_answers_records,
    run_command_records,
)
from dicelog.domain.core.verify import verify
from tests.unit.core.race import Advance, Advanced, Pick

AT = datetime(2026, 11, 22, tzinfo=UTC)
SEED = bytes(range(32))


def new_game(dice_mode: str = "manual", seed: bytes | None = None, goal: int = 10, policy: str = "ask"):
    created = GameCreated(
        ruleset="race",
        setup=msgspec.Raw(msgspec.json.encode({"pieces": ["a", "b"], "goal": goal})),
        seats=(Seat(name="one", controls=("a",)), Seat(name="two", controls=("b",))),
        dice_mode=dice_mode,
        decision_policy=policy,
        dice_commitment=commitment(seed) if seed else None,
    )
    records = create(uuid4(), created, at=AT, seed=seed, command_id="c0")
    return records, fold(None, records)


def run(records, game, command, seat="one", seed=None, auto=True):
    fn = run_command_and_auto_answers_records if auto else run_command_records
    new = fn(game, command, seat=seat, command_id=f"c{game.version}", at=AT, seed=seed)
    return records + new, fold(game, new)


def test_creation_stops_at_the_pending_shuffle_in_manual_mode():
    records, game = new_game()
    assert [type(r.payload).__name__ for r in records] == [
        "GameCreated",
        "CommandAccepted",
        "ShuffleRequested",
    ]
    assert game.pending is not None and game.version == 3


def test_every_event_records_seat_command_id_and_chains_the_previous_hash():
    records, game = new_game()
    records, game = run(records, game, Shuffle(order=("b", "a")), seat="two")
    assert records[0].prev_hash == GENESIS_HASH
    for before, after in itertools.pairwise(records):
        assert after.prev_hash == record_hash(before)
    accepted = [r for r in records if isinstance(r.payload, CommandAccepted)][-1]
    assert accepted.seat == "two" and accepted.command_id == "c3"


def test_another_command_while_a_roll_is_pending_is_refused():
    _, game = new_game()
    with pytest.raises(PendingFirst, match="game.pending-first"):
        run_command_records(game, Advance(piece="a"), seat="one", command_id="x", at=AT, seed=None)


def test_a_roll_must_have_the_pending_number_of_dice_and_faces():
    records, game = new_game()
    records, game = run(records, game, Shuffle(order=("a", "b")))
    records, game = run(records, game, Advance(piece="a"))
    with pytest.raises(RuleBroken, match="roll.wrong-dice"):
        run_command_records(game, Roll(faces=(3, 4)), seat="one", command_id="x", at=AT, seed=None)
    with pytest.raises(RuleBroken, match="roll.wrong-dice"):
        run_command_records(game, Roll(faces=(7,)), seat="one", command_id="x", at=AT, seed=None)
    records, game = run(records, game, Roll(faces=(4,)))
    assert game.state.squares["a"] == 4
    assert isinstance(records[-1].payload, Advanced)


def test_a_shuffle_answer_must_be_a_permutation_of_the_cards():
    _, game = new_game()
    with pytest.raises(RuleBroken, match="shuffle.wrong-cards"):
        run_command_records(game, Shuffle(order=("a", "a")), seat="one", command_id="x", at=AT, seed=None)


def test_ruleset_refusals_propagate_with_their_rule_id():
    records, game = new_game()
    records, game = run(records, game, Shuffle(order=("a", "b")))
    with pytest.raises(NotYourTurn, match="turn.not-your-turn"):
        run_command_records(game, Advance(piece="b"), seat="two", command_id="x", at=AT, seed=None)


def test_a_pending_decision_is_answered_by_choose_or_by_the_default_policy():
    records, game = new_game()
    records, game = run(records, game, Shuffle(order=("a", "b")))
    records, game = run(records, game, Pick(piece="a"))
    with pytest.raises(RuleBroken, match="choose.not-an-option"):
        run_command_records(game, Choose(option="green"), seat="one", command_id="x", at=AT, seed=None)
    records, game = run(records, game, Choose(option="blue"))
    assert game.state.colour == "blue" and game.pending is None
    records, game = new_game(policy="default")
    records, game = run(records, game, Shuffle(order=("a", "b")))
    records, game = run(records, game, Pick(piece="a"))
    assert game.state.colour == "red" and records[-2].payload.by == "policy"


def test_server_mode_rolls_from_the_seed_and_reveals_it_at_the_end():
    records, game = new_game("server", SEED, goal=6)
    assert game.pending is None and game.state.order == shuffle_order(SEED, 0, ("a", "b"))
    while game.result is None:
        records, game = run(records, game, Advance(piece=game.ruleset.turn_piece(game.state)), seed=SEED)
    ended = records[-1].payload
    assert isinstance(ended, GameEnded) and ended.seed == SEED.hex()
    rolls = [r.payload for r in records if isinstance(r.payload, DiceRolled)]
    assert [r.faces for r in rolls] == [roll_faces(SEED, k + 1, 1) for k in range(len(rolls))]
    report = verify(records)
    assert report.ok and report.dice_checked == len(rolls) + 1 and report.seed_revealed


def test_no_command_is_accepted_after_the_end():
    records, game = new_game("server", SEED, goal=1)
    records, game = run(records, game, Advance(piece=game.ruleset.turn_piece(game.state)), seed=SEED)
    assert game.result is not None
    with pytest.raises(GameOver):
        run_command_records(game, Advance(piece="a"), seat="one", command_id="x", at=AT, seed=SEED)


def test_dice_derivation_is_uniform_enough_and_has_no_modulo_bias():
    faces = [f for k in range(3000) for f in roll_faces(SEED, k, 2)]
    counts = [faces.count(f) for f in range(1, 7)]
    expected = len(faces) / 6
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 20.5, counts  # 5 degrees of freedom, p = 0.001


def test_verify_reports_the_first_edited_event():
    records, game = new_game("server", SEED, goal=6)
    while game.result is None:
        records, game = run(records, game, Advance(piece=game.ruleset.turn_piece(game.state)), seed=SEED)
    assert verify(records).ok
    for i in (2, len(records) // 2, len(records) - 2):
        edited = list(records)
        edited[i] = msgspec.structs.replace(edited[i], seat="mallory")
        report = verify(edited)
        assert not report.ok and report.divergence.version == i + 1
    forged = list(records)
    k = next(i for i, r in enumerate(records) if isinstance(r.payload, DiceRolled))
    faces = records[k].payload.faces
    forged[k] = msgspec.structs.replace(
        records[k], payload=msgspec.structs.replace(records[k].payload, faces=(faces[0] % 6 + 1,))
    )
    report = verify(forged)
    assert not report.ok and report.divergence.version == k + 1


def test_rebuilt_game_equals_the_live_one_at_every_version():
    records, game = new_game("server", SEED, goal=8)
    live = [fold(None, records[:n]) for n in range(1, len(records))] + [game]
    while game.result is None:
        new = run_command_and_auto_answers_records(
            game,
            msgspec.convert({"type": "Advance", "piece": game.ruleset.turn_piece(game.state)}, Advance),
            seat="x",
            command_id=f"c{game.version}",
            at=AT,
            seed=SEED,
        )
        for r in new:
            game = fold(game, [r])
            live.append(game)
        records += new
    by_version = {g.version: g for g in live}
    assert sorted(by_version) == list(range(1, len(records) + 1))
    for n in range(1, len(records) + 1):
        assert fold(None, records[:n]) == by_version[n]


def test_verify_tells_an_edited_newest_link_from_an_edited_predecessor():
    records, game = new_game("server", SEED, goal=6)
    while game.result is None:
        records, game = run(records, game, Advance(piece=game.ruleset.turn_piece(game.state)), seed=SEED)
    last = records[-1]
    flipped = ("1" if last.prev_hash[0] != "1" else "2") + last.prev_hash[1:]
    report = verify([*records[:-1], msgspec.structs.replace(last, prev_hash=flipped)])
    assert not report.ok and report.divergence.version == last.originator_version
    before = records[-2]
    report = verify([*records[:-2], msgspec.structs.replace(before, seat="mallory"), last])
    assert not report.ok and report.divergence.version == before.originator_version
