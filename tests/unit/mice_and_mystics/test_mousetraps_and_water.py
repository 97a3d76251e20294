"""Mousetraps and water (001 §Attraversare le Trappole per Topi; 001 §Trappole per Topi; 001 §Muoversi
nell'Acqua). Sewer layout in tile-06-sewer.json (provisional): water SW-6..SW-10, current west."""

import pytest

from domain.core.errors import RuleBroken
from domain.core.events import RollRequested
from domain.mice_and_mystics.commands import EndTurn, LeaveWater, Move, MoveTo
from domain.mice_and_mystics.events import (
    CheeseGained,
    EffectAdded,
    FigurePlaced,
    HourglassAdvanced,
    LeavingWaterFailed,
    LeavingWaterStarted,
    MouseCaptured,
    MouseMoved,
    MouseStoppedAtMousetrap,
    MouseSweptByCurrent,
    MousetrapPassed,
    MousetrapSprung,
    MousetrapsSet,
    MouseWounded,
    TurnEnded,
    TurnStarted,
)
from domain.mice_and_mystics.rules.keywords import on_encounter
from domain.mice_and_mystics.rules.mousetraps import trap_dice
from tests.unit.mice_and_mystics.scenario import act, chapter_1_table, roll


def walking_into_trap():
    state = chapter_1_table(MousetrapsSet(spaces=("GR-7",)))
    _, state = act(state, Move(mouse="filch"))
    _, state = roll(state, 1)  # 3 + 1 movement
    events, state = act(state, MoveTo(mouse="filch", path=("GR-7", "GR-8")))
    return events, state


def test_mouse_entering_a_mousetrap_stops_and_rolls_its_move_value__001_attraversare_le_trappole_per_topi():
    events, _ = walking_into_trap()
    assert events == [
        MouseMoved(mouse="filch", origin="GR-6", path=("GR-7",), cost=1),
        MouseStoppedAtMousetrap(mouse="filch", space="GR-7", rest=("GR-8",)),
        RollRequested(reason="mousetrap", dice=3, piece="filch"),
    ]


def test_a_star_passes_the_mousetrap_and_the_move_goes_on__001_attraversare_le_trappole_per_topi():
    _, state = walking_into_trap()
    events, state = roll(state, 1, 1, 2)
    assert events == [MousetrapPassed(mouse="filch", space="GR-7"), MouseMoved(mouse="filch", origin="GR-7", path=("GR-8",), cost=1)]
    assert state.traps == ("GR-7",)


def test_no_star_springs_the_trap_wound_cheese_knocked_down_and_the_turn_ends__001_attraversare_le_trappole_per_topi():
    _, state = walking_into_trap()
    events, state = roll(state, 1, 3, 4)
    assert events[:6] == [
        MousetrapSprung(mouse="filch", space="GR-7"),
        CheeseGained(mouse="filch", count=1, reason="mousetrap"),
        MouseWounded(mouse="filch", wounds=1),
        EffectAdded(mouse="filch", effect="knocked-down"),
        TurnEnded(card="filch"),
        TurnStarted(card="collin", slot=1),
    ]
    assert state.traps == () and state.wounds["filch"] == 1


def test_a_tinkerer_may_roll_its_lore_value_for_a_mousetrap__001_attraversare_le_trappole_per_topi():
    assert trap_dice("nez") == 2 and trap_dice("collin") == 2 and trap_dice("filch") == 3


def test_mousetrap_encounter_keyword_puts_a_trap_on_every_red_x_space_of_the_room__001_trappole_per_topi(monkeypatch):
    from domain.mice_and_mystics.content import EncounterBand
    from domain.mice_and_mystics.rules import keywords

    monkeypatch.setattr(keywords, "band", lambda card, page: EncounterBand(first=1, last=99, minions=(), keywords=("mousetrap",)))
    events = on_encounter(chapter_1_table(), "standard-1", 1, "tunnel-entrance")
    assert events[1] == MousetrapsSet(spaces=("TE-7", "TE-12"))


def in_sewer(space="SW-7"):
    return chapter_1_table(FigurePlaced(figure="filch", card="filch", space=space))


def test_a_mouse_in_water_cannot_roll_to_move__001_muoversi_nell_acqua():
    with pytest.raises(RuleBroken, match="move.leave-water"):
        act(in_sewer(), Move(mouse="filch"))


def test_leaving_water_takes_the_whole_move_and_one_die_per_mouse_on_the_destination__001_muoversi_nell_acqua():
    state = chapter_1_table(FigurePlaced(figure="filch", card="filch", space="SW-7"),
                            FigurePlaced(figure="collin", card="collin", space="SW-2"))
    events, state = act(state, LeaveWater(mouse="filch", space="SW-2"))
    assert events == [LeavingWaterStarted(mouse="filch", space="SW-2"), RollRequested(reason="leave-water", dice=2, piece="filch")]
    events, state = roll(state, 1, 5)
    assert events == [MouseMoved(mouse="filch", origin="SW-7", path=("SW-2",), cost=0)]
    assert state.mouse_turn.moved


def test_leaving_water_without_a_star_stays_in_the_water__001_muoversi_nell_acqua():
    _, state = act(in_sewer(), LeaveWater(mouse="filch", space="SW-2"))
    events, state = roll(state, 1)
    assert events == [LeavingWaterFailed(mouse="filch", space="SW-2")]
    assert state.mouse_turn.moved and "filch" in state.board["SW-7"]


def test_current_carries_the_mouse_one_space_at_the_end_of_its_turn__001_muoversi_nell_acqua():
    events, _ = act(in_sewer("SW-7"), EndTurn(mouse="filch"))
    assert events[:2] == [MouseSweptByCurrent(mouse="filch", origin="SW-7", space="SW-6"), TurnEnded(card="filch")]


def test_current_carrying_a_mouse_off_the_tile_captures_it__001_muoversi_nell_acqua():
    events, _ = act(in_sewer("SW-6"), EndTurn(mouse="filch"))
    assert events[:3] == [MouseCaptured(mouse="filch"), HourglassAdvanced(page=2, reason="capture"), TurnEnded(card="filch")]
