"""A mouse's turn: move and one action in either order (001 §Il Turno di un Topo; 001 §Scatto;
000 §Effetti Negativi)."""

import pytest

from domain.core.errors import RuleBroken
from domain.core.events import RollRequested
from domain.mice_and_mystics.commands import Battle, EndTurn, Move, MoveTo, Recover, Scurry, Search
from domain.mice_and_mystics.events import ActionStarted, EffectAdded, FigurePlaced, MouseMoved, MovementPointsGained
from domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import act, chapter_1_table, roll


def at(space: str, figure: str = "filch") -> FigurePlaced:
    return FigurePlaced(figure=figure, card=figure, space=space)


def test_one_action_per_turn_a_second_is_refused__001_il_turno_di_un_topo():
    state = chapter_1_table(ActionStarted(mouse="filch", action="search"))
    with pytest.raises(RuleBroken, match="action.already-taken"):
        RULESET.decide(state, Battle(mouse="filch", target="rat-warriors-1"))
    with pytest.raises(RuleBroken, match="action.already-taken"):
        RULESET.decide(state, Search(mouse="filch"))
    assert not [c for c in RULESET.legal_commands(state) if isinstance(c, (Battle, Search, Scurry))]


def test_act_then_move__001_il_turno_di_un_topo():
    state = chapter_1_table(ActionStarted(mouse="filch", action="search"))
    assert RULESET.decide(state, Move(mouse="filch")) == [RollRequested(reason="move", dice=1, piece="filch")]


def test_move_then_act__001_il_turno_di_un_topo():
    state = chapter_1_table(
        MovementPointsGained(mouse="filch", die_number=1, move_value=3, points=4),
        MouseMoved(mouse="filch", origin="GR-6", path=("GR-2",), cost=1),
    )
    events = RULESET.decide(state, Battle(mouse="filch", target="rat-warriors-1"))
    assert events[0] == ActionStarted(mouse="filch", action="battle")


def test_acting_after_rolling_gives_the_unwalked_move_up__rulings_mouse_turn():
    state = chapter_1_table(MovementPointsGained(mouse="filch", die_number=1, move_value=3, points=4))
    _, state = act(state, Search(mouse="filch"))
    _, state = roll(state, 1)
    assert state.mouse_turn.moved
    with pytest.raises(RuleBroken, match="move.already-moved"):
        RULESET.decide(state, MoveTo(mouse="filch", path=("GR-7",)))


def test_legal_commands_list_one_battle_per_valid_target__001_il_turno_di_un_topo():
    legal = RULESET.legal_commands(chapter_1_table())
    assert [c for c in legal if isinstance(c, Battle)] == [Battle(mouse="filch", target="rat-warriors-1")]
    assert Move(mouse="filch") in legal and Search(mouse="filch") in legal and legal[-1] == EndTurn(mouse="filch")


def test_scurry_needs_a_move_first_then_rolls_again__001_scatto():
    state = chapter_1_table()
    with pytest.raises(RuleBroken, match="scurry.not-moved"):
        RULESET.decide(state, Scurry(mouse="filch"))
    state = chapter_1_table(
        MovementPointsGained(mouse="filch", die_number=1, move_value=3, points=4),
        MouseMoved(mouse="filch", origin="GR-6", path=("GR-10",), cost=1),
    )
    assert Scurry(mouse="filch") in RULESET.legal_commands(state)
    events, state = act(state, Scurry(mouse="filch"))
    assert events == [ActionStarted(mouse="filch", action="scurry"), RollRequested(reason="scurry", dice=1, piece="filch")]
    events, state = roll(state, 3)
    assert events == [MovementPointsGained(mouse="filch", die_number=3, move_value=3, points=6)]
    assert RULESET.decide(state, MoveTo(mouse="filch", path=("GR-9",)))[0] == MouseMoved(
        mouse="filch", origin="GR-10", path=("GR-9",), cost=1
    )


def test_a_stunned_mouse_may_only_recover__000_stordito_e_intrappolato():
    state = chapter_1_table(EffectAdded(mouse="filch", effect="stunned"))
    with pytest.raises(RuleBroken, match="action.stunned"):
        RULESET.decide(state, Battle(mouse="filch", target="rat-warriors-1"))
    assert Recover(mouse="filch") in RULESET.legal_commands(state)
    assert Move(mouse="filch") in RULESET.legal_commands(state)


def test_a_webbed_mouse_may_not_move__000_stordito_e_intrappolato():
    state = chapter_1_table(EffectAdded(mouse="filch", effect="webbed"))
    with pytest.raises(RuleBroken, match="move.webbed"):
        RULESET.decide(state, Move(mouse="filch"))
