"""What any Vast command meets before its own rule (``Vast.decide``, ``Vast.legal_commands``): the rules
revision a game is created with, the setup (Vast rulebook, Preparazione: Begin once, no play before it), the
end of the game (Come Vincere) and a role not at the table. Each is refused naming the rule, nothing
stored."""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import GameCreated, Seat
from dicelog.domain.core.ruleset import Begin
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.ruleset import RULES_REVISION, RULESET
from tests.rulesets.vast.support import Play, lit, refused, table


def created(revision: int) -> GameCreated:
    setup = msgspec.Raw(msgspec.json.encode({"roles": ["knight", "cave"]}))
    seats = (Seat(name="table", controls=("knight", "cave")),)
    return GameCreated(ruleset="vast", setup=setup, seats=seats, rules_revision=revision)


@pytest.mark.parametrize("revision", [0, RULES_REVISION + 1])
def test_a_rules_revision_this_build_does_not_play_is_refused__rulebook_preparazione(revision):
    """Vast rulebook, Preparazione: a game is set up by the rules of a revision this build plays (1 to
    ``RULES_REVISION``); another is refused when the game is created and when it is folded
    (``setup.invalid``)."""
    for check in (RULESET.check_new_game, RULESET.initial_state):
        with pytest.raises(RuleBroken) as info:
            check(created(revision))
        assert info.value.rule == "setup.invalid"


def test_begin_comes_once_and_nothing_is_played_before_it__rulebook_preparazione():
    """Vast rulebook, Preparazione: before the setup is done only ``Begin`` is legal and a turn's command is
    refused (``vast.not-begun``); once begun, a second ``Begin`` is refused (``vast.already-begun``)."""
    fresh = RULESET.initial_state(created(RULES_REVISION))
    assert RULESET.legal_commands(fresh) == [Begin()]
    assert refused(fresh, cmd.VastEndTurn(role="knight")) == "vast.not-begun"
    p = Play(fresh)
    p.do(Begin())
    p.settle()
    assert p.of(ev.VastTurnStarted) and refused(p.state, Begin()) == "vast.already-begun"


def test_an_ended_game_takes_no_command__rulebook_come_vincere():
    """Vast rulebook, Come Vincere: the game ends when a player wins; then no command is legal and one played
    is refused (``vast.game-over``)."""
    won = table(lit(1, 0, "treasure-room-01"), winner="knight", begun=True)
    assert RULESET.legal_commands(won) == []
    assert refused(won, cmd.MoveKnight(x=1, y=0)) == "vast.game-over"
    ended = replace(won, winner=None, phase="ended")
    assert refused(ended, cmd.MoveKnight(x=1, y=0)) == "vast.game-over"


def test_a_role_not_at_the_table_cannot_act__rulebook_preparazione():
    """Vast rulebook, Preparazione: only the roles of the setup play; a Dragon's command in Knight vs Cave is
    refused (``vast.role-not-in-play``)."""
    assert refused(table(turn="cave", begun=True), cmd.PlaceGem(gem="claw")) == "vast.role-not-in-play"
