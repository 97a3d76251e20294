"""Mousetraps and water (MM rulebook (it) §Attraversare le Trappole per Topi; MM rulebook (it) §Trappole per
Topi; MM rulebook (it) §Muoversi nell'Acqua). Sewer layout in tile-06-sewer.json (provisional): water
SW-6..SW-10, current west."""

import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import RollRequested
from dicelog.domain.mice_and_mystics.commands import EndTurn, LeaveWater, Move, MoveTo, Search
from dicelog.domain.mice_and_mystics.content import shipped_library
from dicelog.domain.mice_and_mystics.events import (
    AchievementEarned,
    CheeseGained,
    EffectAdded,
    EndMarkerMoved,
    FigurePlaced,
    FigureStoodUp,
    HourglassAdvanced,
    InitiativeCardRemoved,
    LeavingWaterFailed,
    LeavingWaterStarted,
    MinionDefeated,
    MouseCaptured,
    MouseMoved,
    MouseReleased,
    MouseStoppedAtMousetrap,
    MouseSweptByCurrent,
    MousetrapPassed,
    MousetrapSprung,
    MousetrapsSet,
    MouseWounded,
    TileFlipped,
    TurnEnded,
    TurnStarted,
)
from dicelog.domain.mice_and_mystics.rules.keywords import on_encounter
from dicelog.domain.mice_and_mystics.rules.movement import trap_dice
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import act, chapter_1_table, roll


def walking_into_trap():
    state = chapter_1_table(MousetrapsSet(spaces=("GR-7",)))
    _, state = act(state, Move(mouse="filch"))
    _, state = roll(state, 1)  # 3 + 1 movement
    events, state = act(state, MoveTo(mouse="filch", path=("GR-7", "GR-8")))
    return events, state


def test_mouse_entering_a_mousetrap_stops_and_rolls_its_move_value__attraversare_le_trappole_per_topi():
    events, _ = walking_into_trap()
    assert events == [
        MouseMoved(mouse="filch", origin="GR-6", path=("GR-7",), cost=1),
        MouseStoppedAtMousetrap(mouse="filch", space="GR-7", rest=("GR-8",)),
        RollRequested(reason="mousetrap", dice=3, piece="filch"),
    ]


def test_a_star_passes_the_mousetrap_and_the_move_goes_on__rulebook_attraversare_le_trappole_per_topi():
    _, state = walking_into_trap()
    events, state = roll(state, 1, 1, 2)
    assert events == [
        MousetrapPassed(mouse="filch", space="GR-7"),
        MouseMoved(mouse="filch", origin="GR-7", path=("GR-8",), cost=1),
    ]
    assert state.traps == ("GR-7",)


def test_no_star_springs_the_trap_wound_cheese_knocked_down_and_the_turn_ends__rulebook_attraversare_le_trappole_per_topi():  # noqa: E501
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


def test_a_tinkerer_may_roll_its_lore_value_for_a_mousetrap__rulebook_attraversare_le_trappole_per_topi():
    lib = shipped_library()
    assert trap_dice(lib, "nez") == 2 and trap_dice(lib, "collin") == 2 and trap_dice(lib, "filch") == 3


def test_mousetrap_encounter_keyword_puts_a_trap_on_every_red_x_space_of_the_room__rulebook_trappole_per_topi(
    monkeypatch,
):
    from dicelog.domain.mice_and_mystics.content import EncounterBand
    from dicelog.domain.mice_and_mystics.rules import keywords

    mousetrap = EncounterBand(first=1, last=99, minions=(), keywords=("mousetrap",))
    monkeypatch.setattr(keywords, "band", lambda lib, card, page: mousetrap)
    events = on_encounter(chapter_1_table(), "standard-1", 1, "tunnel-entrance")
    assert events[1] == MousetrapsSet(spaces=("TE-7", "TE-12"))


def in_sewer(space="SW-7"):
    return chapter_1_table(FigurePlaced(figure="filch", card="filch", space=space))


def test_a_mouse_in_water_cannot_roll_to_move__rulebook_muoversi_nell_acqua():
    with pytest.raises(RuleBroken, match="move.leave-water"):
        act(in_sewer(), Move(mouse="filch"))


def test_leaving_water_takes_the_whole_move_and_one_die_per_mouse_on_the_destination__rulebook_muoversi_nell_acqua():  # noqa: E501
    state = chapter_1_table(
        FigurePlaced(figure="filch", card="filch", space="SW-7"),
        FigurePlaced(figure="collin", card="collin", space="SW-2"),
    )
    events, state = act(state, LeaveWater(mouse="filch", space="SW-2"))
    assert events == [
        LeavingWaterStarted(mouse="filch", space="SW-2"),
        RollRequested(reason="leave-water", dice=2, piece="filch"),
    ]
    events, state = roll(state, 1, 5)
    assert events == [MouseMoved(mouse="filch", origin="SW-7", path=("SW-2",), cost=0)]
    assert state.mouse_turn.moved


def test_leaving_water_without_a_star_stays_in_the_water__rulebook_muoversi_nell_acqua():
    _, state = act(in_sewer(), LeaveWater(mouse="filch", space="SW-2"))
    events, state = roll(state, 1)
    assert events == [LeavingWaterFailed(mouse="filch", space="SW-2")]
    assert state.mouse_turn.moved and "filch" in state.board["SW-7"]


def test_current_carries_the_mouse_one_space_at_the_end_of_its_turn__rulebook_muoversi_nell_acqua():
    events, _ = act(in_sewer("SW-7"), EndTurn(mouse="filch"))
    assert events[:2] == [
        MouseSweptByCurrent(mouse="filch", origin="SW-7", space="SW-6"),
        TurnEnded(card="filch"),
    ]


def test_current_carrying_a_mouse_off_the_tile_captures_it__rulebook_muoversi_nell_acqua():
    events, _ = act(in_sewer("SW-6"), EndTurn(mouse="filch"))
    assert events[:3] == [
        MouseCaptured(mouse="filch"),
        HourglassAdvanced(page=2, reason="capture"),
        TurnEnded(card="filch"),
    ]


def sewer_table(space, *events, rats_defeated=True):
    """The Guard Room turned over to the Sewer; Filch (whose turn it is) on ``space``, the other mice
    on SW-3; the three rats defeated unless ``rats_defeated`` is false; ``events`` before Filch is
    placed."""
    rats = (
        *(MinionDefeated(figure=f"rat-warriors-{n}", card="rat-warriors") for n in (1, 2, 3)),
        InitiativeCardRemoved(card="rat-warriors"),
    )
    return chapter_1_table(
        TileFlipped(tile="guard-room", to="sewer"),
        *(rats if rats_defeated else ()),
        *(FigurePlaced(figure=m, card=m, space="SW-3") for m in ("collin", "tilda", "maginos")),
        *events,
        FigurePlaced(figure="filch", card="filch", space=space),
    )


def leave_water_commands(state):
    return [c for c in RULESET.legal_commands(state) if isinstance(c, LeaveWater)]


def test_rulebook_il_turno_di_un_topo_a_mouse_may_act_then_leave_water():
    """MM rulebook (it) §Il Turno di un Topo: "può eseguire 1 Azione e poi muovere"; leaving water is the
    mouse's move (MM rulebook (it) §Muoversi nell'Acqua), so a mouse that searched from a water space (the
    Sewer's special search needs one) may still leave the water that turn."""
    _, state = act(sewer_table("SW-7"), Search(mouse="filch"))
    _, state = roll(state, 3)  # no star: nothing found, the action is spent
    assert state.mouse_turn.action == "search" and not state.mouse_turn.moved
    assert LeaveWater(mouse="filch", space="SW-2") in leave_water_commands(state)
    events, state = act(state, LeaveWater(mouse="filch", space="SW-2"))
    assert events == [
        LeavingWaterStarted(mouse="filch", space="SW-2"),
        RollRequested(reason="leave-water", dice=1, piece="filch"),
    ]
    events, state = roll(state, 2)
    assert events == [MouseMoved(mouse="filch", origin="SW-7", path=("SW-2",), cost=0)]


def test_rulebook_muoversi_nell_acqua_leaving_water_is_the_move_so_only_once():
    """MM rulebook (it) §Muoversi nell'Acqua: leaving water "deve usare il suo intero Valore di Movimento":
    once it tried, whether it got out or not, the mouse has no move left."""
    _, state = act(sewer_table("SW-7"), LeaveWater(mouse="filch", space="SW-2"))
    _, state = roll(state, 3)
    assert leave_water_commands(state) == []
    with pytest.raises(RuleBroken, match="water.whole-move"):
        act(state, LeaveWater(mouse="filch", space="SW-12"))


def test_rulebook_intrappolato_a_webbed_mouse_cannot_leave_water():
    """MM rulebook (it) §Intrappolato: "Un Topo Intrappolato non può muovere"; leaving water is a move."""
    state = sewer_table("SW-7", EffectAdded(mouse="filch", effect="webbed"))
    with pytest.raises(RuleBroken, match="move.webbed"):
        act(state, LeaveWater(mouse="filch", space="SW-2"))
    assert leave_water_commands(state) == []


def test_rulebook_atterrato_a_knocked_down_mouse_in_water_stands_up_instead_of_leaving():
    """MM rulebook (it) §Atterrato: "deve impiegare il suo intero movimento per potersi rialzare": in water
    too the move stands it up (``Move``), so it cannot leave the water that turn."""
    state = sewer_table("SW-7", EffectAdded(mouse="filch", effect="knocked-down"))
    with pytest.raises(RuleBroken, match="water.knocked-down"):
        act(state, LeaveWater(mouse="filch", space="SW-2"))
    assert leave_water_commands(state) == []
    assert Move(mouse="filch") in RULESET.legal_commands(state)
    events, state = act(state, Move(mouse="filch"))
    assert events == [FigureStoodUp(figure="filch")]
    assert leave_water_commands(state) == []


def test_rulebook_condividere_le_caselle_minions_hold_a_mouse_in_water_unless_mice_match_them():
    """MM rulebook (it) §Condividere le Caselle: a mouse starting its move on a space with minions "potrà
    uscire dalla casella solo se il numero di Topi … è uguale o maggiore a quello dei Servitori"."""
    rats = [FigurePlaced(figure=f"rat-warriors-{n}", card="rat-warriors", space="SW-7") for n in (1, 2)]
    state = sewer_table("SW-7", *rats, rats_defeated=False)
    with pytest.raises(RuleBroken, match="move.held-by-minions"):
        act(state, LeaveWater(mouse="filch", space="SW-2"))
    assert leave_water_commands(state) == []
    state = sewer_table(
        "SW-7", FigurePlaced(figure="collin", card="collin", space="SW-7"), *rats, rats_defeated=False
    )
    assert LeaveWater(mouse="filch", space="SW-2") in leave_water_commands(state)


def test_rulebook_muoversi_nell_acqua_entering_water_ends_the_move():
    """MM rulebook (it) §Muoversi nell'Acqua: "Quando un Topo muove in una casella d'acqua … deve interrompere
    il suo Movimento": a path may not go on through the water space, and no destination lies beyond it."""
    state = sewer_table("SW-2")
    _, state = act(state, Move(mouse="filch"))
    _, state = roll(state, 4)  # 3 + 4 movement: enough to cross the river
    with pytest.raises(RuleBroken, match="move.must-stop"):
        act(state, MoveTo(mouse="filch", path=("SW-7", "SW-12")))
    moves = [c for c in RULESET.legal_commands(state) if isinstance(c, MoveTo)]
    assert MoveTo(mouse="filch", path=("SW-7",)) in moves
    assert not any(c.path[-1] in {"SW-11", "SW-12", "SW-13", "SW-14", "SW-15"} for c in moves)
    events, state = act(state, MoveTo(mouse="filch", path=("SW-7",)))
    assert events == [MouseMoved(mouse="filch", origin="SW-2", path=("SW-7",), cost=1)]
    assert state.mouse_turn.moved


def test_rulebook_topi_catturati_a_current_capture_earns_poison_master():
    """MM rulebook (it) Conquiste Personali, Maestro dei Veleni: "Il primo Topo ad essere Catturato con ancora
    almeno 1 Ferita Avvelenata" — whatever captures it, a current too."""
    state = sewer_table("SW-6", MouseWounded(mouse="filch", wounds=1, poison=1))
    events, state = act(state, EndTurn(mouse="filch"))
    assert events[:4] == [
        AchievementEarned(mouse="filch", achievement="poison-master"),
        MouseCaptured(mouse="filch"),
        HourglassAdvanced(page=2, reason="capture"),
        TurnEnded(card="filch"),
    ]
    assert state.achievements == {"poison-master": "filch"}


def test_rulebook_topi_catturati_a_current_capture_counts_for_escape_artist():
    """MM rulebook (it) Conquiste Personali, Artista della Fuga: the second capture earns it (End marker one
    page on); a third, by a current as well, frees it at once on the default release space."""
    first = (MouseCaptured(mouse="filch"), MouseReleased(mouse="filch", space="GR-6"))
    state = sewer_table("SW-6", *first)
    events, state = act(state, EndTurn(mouse="filch"))
    assert events[:5] == [
        MouseCaptured(mouse="filch"),
        HourglassAdvanced(page=2, reason="capture"),
        AchievementEarned(mouse="filch", achievement="escape-artist"),
        EndMarkerMoved(page=7, reason="escape-artist"),
        TurnEnded(card="filch"),
    ]
    state = sewer_table("SW-6", *first, *first, AchievementEarned(mouse="filch", achievement="escape-artist"))
    events, state = act(state, EndTurn(mouse="filch"))
    assert events[:4] == [
        MouseCaptured(mouse="filch"),
        HourglassAdvanced(page=2, reason="capture"),
        MouseReleased(mouse="filch", space="SW-3"),
        TurnEnded(card="filch"),
    ]
    assert "filch" not in state.captured and "filch" in state.board["SW-3"]


def test_rulebook_movendo_se_na_agua_a_mouse_in_water_cannot_move_against_the_current():
    """MM rulebook (pt) «O rato que se mover na água não pode ir contra a direção da correnteza» (rules
    revision 2): from SW-7 (current west) Filch may step to SW-6, not to SW-8 upstream; the banks stay open.
    Revision 1 games allowed it, as they were played."""
    state = sewer_table("SW-7")
    with pytest.raises(RuleBroken, match="water.against-current"):
        RULESET.decide(state, LeaveWater(mouse="filch", space="SW-8"))
    spaces = {c.space for c in leave_water_commands(state)}
    assert "SW-8" not in spaces and {"SW-6", "SW-2", "SW-12"} <= spaces
    assert RULESET.decide(state, LeaveWater(mouse="filch", space="SW-6"))
    old = chapter_1_table(FigurePlaced(figure="filch", card="filch", space="SW-7"), rules_revision=1)
    assert RULESET.decide(old, LeaveWater(mouse="filch", space="SW-8"))
