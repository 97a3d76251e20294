"""Undo never deletes (docs/event-model.md): policies, seed locking, marking, verify."""

from __future__ import annotations

from uuid import uuid4

import msgspec
import pytest

from dicelog.domain.core.commands import ApproveUndo, RejectUndo, RequestUndo, Roll, Shuffle
from dicelog.domain.core.dice import commitment
from dicelog.domain.core.errors import PendingFirst, RuleBroken
from dicelog.domain.core.events import DiceRolled, GameCreated, Seat, UndoApplied
from dicelog.domain.core.game import ListHistory, create, fold, run_command_and_auto_answers_records
from dicelog.domain.core.undo import undone_versions
from dicelog.domain.core.verify import verify
from tests.unit.core.race import Advance
from tests.unit.core.test_game import AT, SEED


class Table:
    def __init__(self, policy: str, dice_mode: str = "manual") -> None:
        seed = SEED if dice_mode == "server" else None
        created = GameCreated(
            ruleset="race",
            setup=msgspec.Raw(msgspec.json.encode({"pieces": ["a", "b"], "goal": 30})),
            seats=(Seat(name="one", controls=("a",)), Seat(name="two", controls=("b",))),
            dice_mode=dice_mode,
            undo_policy=policy,
            host="two",
            dice_commitment=commitment(seed) if seed else None,
        )
        self.seed = seed
        self.records = create(uuid4(), created, at=AT, seed=seed, command_id="c0")
        self.game = fold(None, self.records)
        if dice_mode == "manual":
            self.send("one", Shuffle(order=("a", "b")))

    def send(self, seat, command):
        new = run_command_and_auto_answers_records(
            self.game,
            command,
            seat=seat,
            command_id=f"c{self.game.version}",
            at=AT,
            seed=self.seed,
            history=ListHistory(self.records),
        )
        self.records += new
        self.game = fold(self.game, new)
        return new

    def advance(self, seat, piece, face=None):
        self.send(seat, Advance(piece=piece))
        if face is not None:
            self.send(seat, Roll(faces=(face,)))


def test_no_undo_when_the_policy_is_none():
    t = Table("none")
    t.advance("one", "a", 3)
    with pytest.raises(RuleBroken, match="undo.not-allowed"):
        t.send("one", RequestUndo(to_version=4))


def test_host_undo_returns_the_state_and_keeps_the_undone_events_marked():
    t = Table("host")
    before = t.game
    t.advance("one", "a", 5)
    t.advance("two", "b", 2)
    n = len(t.records)
    with pytest.raises(RuleBroken, match="undo.host-only"):
        t.send("one", RequestUndo(to_version=before.version))
    t.send("two", RequestUndo(to_version=before.version))
    assert t.game.state == before.state and t.game.chance_count == before.chance_count
    assert len(t.records) > n, "undo appends, never deletes"
    assert undone_versions(t.records) == set(range(before.version + 1, n + 1))
    assert verify(t.records).ok


def test_after_an_undo_the_same_action_meets_the_same_dice_in_server_mode():
    t = Table("all-seats", dice_mode="server")
    before = t.game
    t.advance("x", t.game.ruleset.turn_piece(t.game.state))
    first = [r.payload for r in t.records if isinstance(r.payload, DiceRolled)][-1]
    t.send("one", RequestUndo(to_version=before.version))
    assert t.game.undo_request is not None and t.game.undo_request.crosses_rolls
    t.send("two", ApproveUndo())
    assert t.game.chance_count == before.chance_count
    t.advance("x", t.game.ruleset.turn_piece(t.game.state))
    again = [r.payload for r in t.records if isinstance(r.payload, DiceRolled)][-1]
    assert again.faces == first.faces, "seed locking: undo cannot re-roll"
    assert verify(t.records).ok


@pytest.mark.parametrize("policy", ["host"])  # race's turn ends with its roll: own-turn never crosses one
def test_undo_across_a_shown_server_roll_needs_every_seats_consent_under_every_policy(policy):
    """docs/event-model.md, Undo never deletes: a host (or the seat on turn) alone may not take back a roll
    everyone has seen; the other seats must approve, and one rejection drops the request."""
    t = Table(policy, dice_mode="server")
    before = t.game
    mover = t.game.ruleset.turn_piece(t.game.state)
    asker = "two" if policy == "host" or mover == "b" else "one"
    t.advance(asker, mover)
    t.send(asker, RequestUndo(to_version=before.version))
    request = t.game.undo_request
    assert request is not None and request.crosses_rolls
    assert request.needs == tuple(s for s in ("one", "two") if s != asker)
    assert not isinstance(t.records[-1].payload, UndoApplied), "not applied before the others consent"
    other = request.needs[0]
    t.send(other, ApproveUndo())
    assert isinstance(t.records[-1].payload, UndoApplied) and t.game.state == before.state
    assert verify(t.records).ok


def test_all_seats_undo_waits_for_every_other_seat_and_blocks_play_meanwhile():
    t = Table("all-seats")
    before = t.game
    t.advance("one", "a", 4)
    t.send("one", RequestUndo(to_version=before.version))
    with pytest.raises(PendingFirst, match="undo.pending"):
        t.send("two", Advance(piece="b"))
    with pytest.raises(RuleBroken, match="undo.not-asked"):
        t.send("one", ApproveUndo())
    t.send("two", ApproveUndo())
    assert isinstance(t.records[-1].payload, UndoApplied) and t.game.state == before.state


def test_a_rejected_undo_changes_nothing():
    t = Table("all-seats")
    start = t.game.version
    t.advance("one", "a", 4)
    after = t.game.state
    t.send("one", RequestUndo(to_version=start))
    t.send("two", RejectUndo())
    assert t.game.state == after and t.game.undo_request is None


def test_own_turn_undo_only_within_the_seats_own_turn():
    t = Table("own-turn")
    start = t.game
    t.send("one", Advance(piece="a"))  # roll pending, still a's turn
    t.send("one", RequestUndo(to_version=start.version))
    assert t.game.pending is None and t.game.state == start.state
    t.advance("one", "a", 2)  # turn passes to b
    with pytest.raises(RuleBroken, match="undo.not-your-turn"):
        t.send("one", RequestUndo(to_version=start.version))


def test_undo_only_to_a_version_right_before_a_players_command():
    t = Table("host")
    t.advance("one", "a", 3)
    with pytest.raises(RuleBroken, match="undo.not-a-command-boundary"):
        t.send("two", RequestUndo(to_version=1))


def test_after_an_undo_across_server_rolls_every_roll_still_rederives_from_the_revealed_seed():
    t = Table("all-seats", dice_mode="server")
    before = t.game
    t.advance("x", t.game.ruleset.turn_piece(t.game.state))
    t.advance("x", t.game.ruleset.turn_piece(t.game.state))
    t.send("one", RequestUndo(to_version=before.version))
    t.send("two", ApproveUndo())
    while t.game.result is None:
        t.advance("x", t.game.ruleset.turn_piece(t.game.state))
    report = verify(t.records)
    rolls = [r for r in t.records if isinstance(r.payload, DiceRolled)]
    assert report.ok and report.seed_revealed, report
    assert report.dice_checked == len(rolls) + 1  # every roll and the initiative shuffle
