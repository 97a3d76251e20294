"""Battle (001 §Attacco; §Attacco in Mischia; §Attacco a Distanza; §Vedere il Bersaglio; §Ferire un
Servitore). Faces (facts.md §1): 1 cheese, 2 sword+star, 3 sword/shield, 4 bow, 5 bow+star,
6 sword/shield+star. Rats (battle 2, defense 2, 1 life) on GR-2 (adjacent to GR-6), GR-4, GR-13."""

import pytest

from domain.core.errors import RuleBroken
from domain.core.events import RollRequested
from domain.mice_and_mystics.commands import Battle
from domain.mice_and_mystics.events import (
    ActionStarted,
    AttackDeclared,
    AttackResolved,
    AttackRolled,
    CheeseAddedToWheel,
    CheeseGained,
    FigurePlaced,
    InitiativeCardRemoved,
    MinionDefeated,
    MinionWounded,
    TurnStarted,
)
from domain.mice_and_mystics.rules.battle import battle_targets
from domain.mice_and_mystics.rules.sight import segments_intersect, sees
from domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import act, chapter_1_table, roll

RAT = "rat-warriors"


def at(space: str, figure: str) -> FigurePlaced:
    return FigurePlaced(figure=figure, card=figure, space=space)


def rat(n: int, space: str) -> FigurePlaced:
    return FigurePlaced(figure=f"{RAT}-{n}", card=RAT, space=space)


def test_battle_melee_rolls_battle_value_plus_weapon_and_sword_results_hit__001_attacco_in_mischia():
    state = chapter_1_table(track=("collin", "filch", "tilda", "maginos", RAT))
    events, state = act(state, Battle(mouse="collin", target="rat-warriors-1"))
    assert events == [
        ActionStarted(mouse="collin", action="battle"),
        AttackDeclared(attacker="collin", target="rat-warriors-1", ranged=False, dice=3),
        RollRequested(reason="battle", dice=3, piece="collin"),
    ]
    events, state = roll(state, 2, 3, 4)
    assert events == [
        AttackRolled(attacker="collin", target="rat-warriors-1", hits=2),
        RollRequested(reason="minion-defense", dice=2),
    ]


def test_battle_defense_sword_shield_blocks_unblocked_hits_wound_and_defeat__001_ferire_un_servitore():
    state = chapter_1_table(track=("collin", "filch", "tilda", "maginos", RAT))
    _, state = act(state, Battle(mouse="collin", target="rat-warriors-1"))
    _, state = roll(state, 2, 3, 6)
    events, state = roll(state, 3, 1)
    assert events == [
        AttackResolved(attacker="collin", target="rat-warriors-1", hits=3, blocks=1, wounds=2),
        CheeseAddedToWheel(count=1, reason="minion-defense"),
        MinionWounded(figure="rat-warriors-1", wounds=2),
        MinionDefeated(figure="rat-warriors-1", card=RAT),
    ]
    assert "GR-2" not in state.board and state.cheese_wheel == 1 and RAT in state.track


def test_battle_bows_do_not_hit_in_melee_and_no_defense_is_rolled__001_attacco_in_mischia():
    _, state = act(chapter_1_table(), Battle(mouse="filch", target="rat-warriors-1"))
    events, state = roll(state, 4, 5)
    assert events == [
        AttackRolled(attacker="filch", target="rat-warriors-1", hits=0),
        AttackResolved(attacker="filch", target="rat-warriors-1", hits=0, blocks=0, wounds=0),
    ]
    assert state.attack is None and state.mouse_turn.action == "battle"


def test_battle_cheese_rolled_goes_to_the_attacking_mouse__001_attacco():
    _, state = act(chapter_1_table(), Battle(mouse="filch", target="rat-warriors-1"))
    events, _ = roll(state, 1, 1)
    assert CheeseGained(mouse="filch", count=2, reason="attack") in events


def test_battle_dagger_defender_lower_on_the_track_rolls_one_fewer__facts_5_dagger():
    _, state = act(chapter_1_table(), Battle(mouse="filch", target="rat-warriors-1"))
    events, _ = roll(state, 2, 4)
    assert events[-1] == RollRequested(reason="minion-defense", dice=1)


def test_battle_last_figure_defeated_removes_its_card_and_the_gap_closes__001_ferire_un_servitore():
    state = chapter_1_table(
        MinionDefeated(figure="rat-warriors-2", card=RAT),
        MinionDefeated(figure="rat-warriors-3", card=RAT),
        TurnStarted(card="filch", slot=1),
        track=(RAT, "filch", "collin", "tilda", "maginos"),
    )
    _, state = act(state, Battle(mouse="filch", target="rat-warriors-1"))
    _, state = roll(state, 2, 2)
    events, state = roll(state, 4, 4)
    assert events[-2:] == [MinionDefeated(figure="rat-warriors-1", card=RAT), InitiativeCardRemoved(card=RAT)]
    assert state.track == ("filch", "collin", "tilda", "maginos") and state.slot == 0 and state.turn_card == "filch"


def test_battle_melee_only_same_or_adjacent_space_not_across_red_lines__001_attacco_in_mischia():
    with pytest.raises(RuleBroken, match="battle.invalid-target"):
        RULESET.decide(chapter_1_table(), Battle(mouse="filch", target="rat-warriors-2"))
    state = chapter_1_table(at("GR-14", "filch"), rat(4, "GR-15"), rat(5, "GR-10"))
    assert battle_targets(state, "filch") == {"rat-warriors-3": False, "rat-warriors-5": False}


def test_battle_maginos_draw_power_two_cheese_per_cheese_when_attacking__facts_2_maginos():
    state = chapter_1_table(track=("maginos", "filch", "collin", "tilda", RAT))
    _, state = act(state, Battle(mouse="maginos", target="rat-warriors-1"))
    events, _ = roll(state, 1, 4)
    assert events[:2] == [
        AttackRolled(attacker="maginos", target="rat-warriors-1", hits=1, cheese=1),
        CheeseGained(mouse="maginos", count=2, reason="attack"),
    ]


def test_battle_ranged_must_target_the_nearest_minions_on_same_or_adjacent_space__001_attacco_a_distanza():
    state = chapter_1_table(track=("maginos", "filch", "collin", "tilda", RAT))
    assert battle_targets(state, "maginos") == {"rat-warriors-1": True}
    here = chapter_1_table(at("GR-3", "maginos"), rat(4, "GR-3"), track=("maginos", "filch", "collin", "tilda", RAT))
    assert battle_targets(here, "maginos") == {"rat-warriors-4": False}, "the staff is melee on its own space"


def test_battle_ranged_needs_line_of_sight_walls_block__001_vedere_il_bersaglio():
    state = chapter_1_table(
        at("KT-5", "maginos"), rat(4, "KT-3"), rat(5, "KT-9"), track=("maginos", "filch", "collin", "tilda", RAT)
    )
    assert not sees("KT-5", "KT-3") and sees("KT-5", "KT-9") and not sees("KT-5", "GR-6")
    assert battle_targets(state, "maginos") == {"rat-warriors-5": True}
    with pytest.raises(RuleBroken, match="battle.invalid-target"):
        RULESET.decide(state, Battle(mouse="maginos", target="rat-warriors-4"))


def test_segment_intersection_counts_crossing_and_touching__001_vedere_il_bersaglio():
    assert segments_intersect((0, 0), (2, 2), (0, 2), (2, 0))
    assert segments_intersect((0, 0), (2, 0), (1, 0), (1, 1)), "touching a wall blocks"
    assert not segments_intersect((0, 0), (1, 1), (2, 2), (3, 0))
    assert not segments_intersect((0, 0), (1, 0), (0, 1), (1, 1))
