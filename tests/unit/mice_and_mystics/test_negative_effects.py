"""Negative effects (MM rulebook (it) §Effetti Negativi: Stordito e Intrappolato, Atterrato, Stregato,
Avvelenato)."""

import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import RollRequested
from dicelog.domain.mice_and_mystics.commands import Move, Scurry
from dicelog.domain.mice_and_mystics.events import (
    ActionStarted,
    AttackDeclared,
    AttackResolved,
    EffectAdded,
    EffectRemoved,
    FigurePlaced,
    FigureStoodUp,
    MinionActivated,
    MinionDefeated,
    MouseHealed,
    MouseMoved,
    MouseWounded,
    TurnEnded,
    TurnStarted,
)
from dicelog.domain.mice_and_mystics.rules.effects import cure, heal, knock_down
from dicelog.domain.mice_and_mystics.rules.flow import proceed
from tests.unit.mice_and_mystics.scenario import act, chapter_1_table, fold_events, roll

RAT = "rat-warriors"
TRACK = ("filch", "collin", "tilda", "maginos", RAT)


def test_knocked_down_mouse_spends_its_whole_move_standing_up__rulebook_atterrato():
    """MM rulebook (it) §Atterrato: "Una miniatura Atterrata deve impiegare il suo intero movimento per
    potersi rialzare"."""
    state = chapter_1_table(EffectAdded(mouse="filch", effect="knocked-down"))
    events, state = act(state, Move(mouse="filch"))
    assert events == [FigureStoodUp(figure="filch")]
    assert state.mouse_turn.moved and "filch" not in state.effects
    with pytest.raises(RuleBroken, match="move.already-moved"):
        act(state, Move(mouse="filch"))


def test_knocked_down_mouse_may_still_scurry_after_standing_up__rulebook_atterrato():
    """MM rulebook (it) §Atterrato (standing up is the move); MM rulebook (it) §Scatto: "Se un Topo ha già
    mosso, può utilizzare l'Azione Scatto per muovere di nuovo"."""
    state = chapter_1_table(EffectAdded(mouse="filch", effect="knocked-down"))
    _, state = act(state, Move(mouse="filch"))
    events, _ = act(state, Scurry(mouse="filch"))
    assert events[-1] == RollRequested(reason="scurry", dice=1, piece="filch")


def test_large_figures_are_never_knocked_down__rulebook_atterrato():
    """MM rulebook (it) §Atterrato: "Le miniature grandi non possono essere Atterrate"."""
    state = chapter_1_table(FigurePlaced(figure="spider-1", card="spider", space="GR-16"))
    assert knock_down(state, "spider-1") == []
    assert knock_down(state, "rat-warriors-1") == [EffectAdded(mouse="rat-warriors-1", effect="knocked-down")]


def test_knocked_down_minion_stands_up_instead_of_moving_then_attacks__rulebook_atterrato():
    """MM rulebook (it) §Atterrato: the whole move goes to standing up, "mentre può Attaccare e Difendersi
    normalmente"."""
    state = chapter_1_table(
        MinionDefeated(figure="rat-warriors-2", card=RAT),
        MinionDefeated(figure="rat-warriors-3", card=RAT),
        EffectAdded(mouse="rat-warriors-1", effect="knocked-down"),
        track=(RAT, *TRACK[:4]),
    )
    events = proceed(state)
    assert events == [
        MinionActivated(figure="rat-warriors-1"),
        FigureStoodUp(figure="rat-warriors-1"),
        AttackDeclared(attacker="rat-warriors-1", target="filch", ranged=False, dice=2),
        RollRequested(reason="minion-attack", dice=2),
    ]


def test_charmed_mouse_moves_and_attacks_the_nearest_mouse_as_a_melee_minion_then_the_marker_goes__rulebook_stregato():  # noqa: E501
    """MM rulebook (it) §Stregato: "fatelo Attaccare e muovere come se si trattasse di un Servitore con Arma
    da Mischia ... utilizza solo le informazioni elencate sulla propria carta Iniziativa ... Non appena
    termina il Turno, rimuovete il segnalino Stregato"."""
    state = chapter_1_table(
        FigurePlaced(figure="filch", card="filch", space="GR-1"), EffectAdded(mouse="filch", effect="charmed")
    )
    events = proceed(state)
    assert events == [RollRequested(reason="charmed-move", dice=1)]
    state = fold_events(state, events)
    events, state = roll(state, 1)  # move number 1
    assert events == [
        MouseMoved(mouse="filch", origin="GR-1", path=("GR-2",), cost=1),
        ActionStarted(mouse="filch", action="charmed-attack"),
        AttackDeclared(
            attacker="filch", target="collin", ranged=False, dice=2
        ),  # battle value only, no Dagger
        RollRequested(reason="charmed-attack", dice=2),
    ]
    _, state = roll(state, 2, 2)
    events, state = roll(state, 4, 4)
    assert events[:2] == [
        AttackResolved(attacker="filch", target="collin", hits=2, blocks=0, wounds=2),
        MouseWounded(mouse="collin", wounds=2),
    ]
    assert events[2:5] == [
        EffectRemoved(mouse="filch", effect="charmed"),
        TurnEnded(card="filch"),
        TurnStarted(card="collin", slot=1),
    ]


def test_charmed_mouse_takes_no_command__rulebook_stregato():
    """MM rulebook (it) §Stregato: the charmed mouse's turn is played as a minion's, so its players have no
    command."""
    from dicelog.domain.mice_and_mystics.ruleset import legal_commands

    state = chapter_1_table(EffectAdded(mouse="filch", effect="charmed"))
    assert legal_commands(state) == []


def test_poison_wounds_count_as_wounds_and_ordinary_healing_cannot_remove_them__rulebook_avvelenato():
    """MM rulebook (it) §Avvelenato: "Le Ferite Avvelenate non possono essere guarite da normali Incantesimi
    di Guarigione e Pergamene. Richiedono invece speciali antidoti o Incantesimi di Cura"."""
    state = chapter_1_table(MouseWounded(mouse="filch", wounds=3, poison=2))
    assert state.wounds["filch"] == 3 and state.poison_wounds["filch"] == 2
    assert heal(state, "filch", 3, reason="first-aid") == [
        MouseHealed(mouse="filch", wounds=1, reason="first-aid")
    ]
    assert cure(state, "filch", 3, reason="cure") == [
        MouseHealed(mouse="filch", wounds=0, poison=2, reason="cure")
    ]
    state = fold_events(state, cure(state, "filch", 3, reason="cure"))
    assert state.wounds["filch"] == 1 and state.poison_wounds["filch"] == 0


def test_capture_removes_poison_wounds_with_every_other_wound__rulebook_topi_catturati():
    """MM rulebook (it) §Topi Catturati: "rimuovete tutte le Ferite, le Ferite Avvelenate e tutti i segnalini
    negativi"."""
    from dicelog.domain.mice_and_mystics.events import MouseCaptured

    state = chapter_1_table(MouseWounded(mouse="filch", wounds=2, poison=2), MouseCaptured(mouse="filch"))
    assert "filch" not in state.poison_wounds and "filch" not in state.wounds
