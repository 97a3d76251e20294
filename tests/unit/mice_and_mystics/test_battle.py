"""Battle (MM rulebook (it) §Attacco; §Attacco in Mischia; §Attacco a Distanza; §Vedere il Bersaglio; §Ferire
un Servitore). Faces (docs/mice-and-mystics/facts.md §1): 1 cheese, 2 sword+star, 3 sword/shield, 4 bow, 5
bow+star, 6 sword/shield+star. Rats (battle 2, defense 2, 1 life) on GR-2 (adjacent to GR-6), GR-4, GR-13."""

import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import RollRequested
from dicelog.domain.mice_and_mystics.commands import Battle
from dicelog.domain.mice_and_mystics.events import (
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
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.battle import battle_targets
from dicelog.domain.mice_and_mystics.rules.sight import sees, segments_intersect
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import act, chapter_1_table, roll

RAT = "rat-warriors"


def at(space: str, figure: str) -> FigurePlaced:
    return FigurePlaced(figure=figure, card=figure, space=space)


def rat(n: int, space: str) -> FigurePlaced:
    return FigurePlaced(figure=f"{RAT}-{n}", card=RAT, space=space)


def test_battle_melee_rolls_battle_value_plus_weapon_and_sword_results_hit__rulebook_attacco_in_mischia():
    """MM rulebook (it) §Attacco in Mischia: dice = "Valore di Combattimento del Topo" plus "i bonus ... delle
    Armi equipaggiate"; "Spade e Spade/Scudi" are the hits."""
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


def test_battle_defense_sword_shield_blocks_unblocked_hits_wound_and_defeat__rulebook_ferire_un_servitore():
    """MM rulebook (it) §Ferire un Servitore: the minion rolls its defense, "per ogni risultato Spada/Scudo
    ... para uno dei colpi"; each unblocked hit is a wound; its cheese goes to the Cheese Wheel; Vitality 1 is
    defeated."""
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


def test_battle_bows_do_not_hit_in_melee_and_no_defense_is_rolled__rulebook_attacco_in_mischia():
    """MM rulebook (it) §Attacco in Mischia (only swords and sword/shields hit); MM rulebook (it) §Ferire un
    Servitore: the defense is rolled only "Se il Topo infligge uno o più colpi"."""
    _, state = act(chapter_1_table(), Battle(mouse="filch", target="rat-warriors-1"))
    events, state = roll(state, 4, 5)
    assert events == [
        AttackRolled(attacker="filch", target="rat-warriors-1", hits=0),
        AttackResolved(attacker="filch", target="rat-warriors-1", hits=0, blocks=0, wounds=0),
    ]
    assert state.attack is None and state.mouse_turn.action == "battle"


def test_battle_cheese_rolled_goes_to_the_attacking_mouse__rulebook_attacco():
    """MM rulebook (it) §Attacco: "Un Topo che ottiene uno o più simboli Formaggio con i Dadi Azione riceve un
    segnalino Formaggio per ogni simbolo ottenuto"."""
    _, state = act(chapter_1_table(), Battle(mouse="filch", target="rat-warriors-1"))
    events, _ = roll(state, 1, 1)
    assert CheeseGained(mouse="filch", count=2, reason="attack") in events


def test_battle_dagger_defender_lower_on_the_track_rolls_one_fewer__rulebook_ferire_un_servitore():
    """MM rulebook (it) §Ferire un Servitore (the defense roll) with Filch's Dagger
    (docs/mice-and-mystics/facts.md §5): a defender lower on the initiative track than the attacker rolls 1
    fewer defense die (Rat Warriors: 2 -> 1)."""
    _, state = act(chapter_1_table(), Battle(mouse="filch", target="rat-warriors-1"))
    events, _ = roll(state, 2, 4)
    assert events[-1] == RollRequested(reason="minion-defense", dice=1)


def test_battle_last_figure_defeated_removes_its_card_and_the_gap_closes__rulebook_ferire_un_servitore():
    """MM rulebook (it) §Ferire un Servitore: "Se la miniatura dello sconfitto era l'ultima ... rimuovete
    anche la relativa carta dalla Colonna"; MM rulebook (it) §Round di Gioco: the other cards move up to fill
    the gap."""
    state = chapter_1_table(
        MinionDefeated(figure="rat-warriors-2", card=RAT),
        MinionDefeated(figure="rat-warriors-3", card=RAT),
        TurnStarted(card="filch", slot=1),
        track=(RAT, "filch", "collin", "tilda", "maginos"),
    )
    _, state = act(state, Battle(mouse="filch", target="rat-warriors-1"))
    _, state = roll(state, 2, 2)
    events, state = roll(state, 4, 4)
    assert events[-3:] == [
        MinionDefeated(figure="rat-warriors-1", card=RAT),
        CheeseGained(mouse="filch", count=1, reason="pilfer"),  # MM rulebook (it) "Ladruncolo"
        InitiativeCardRemoved(card=RAT),
    ]
    assert (
        state.track == ("filch", "collin", "tilda", "maginos")
        and state.slot == 0
        and state.turn_card == "filch"
    )


def test_battle_melee_only_same_or_adjacent_space_not_across_red_lines__rulebook_attacco_in_mischia():
    """MM rulebook (it) §Attacco in Mischia: a minion "sulla stessa casella o su quella adiacente"; MM
    rulebook (it) §Linee Rosse: spaces across a red line "non sono considerate adiacenti" (GR-14 | GR-15)."""
    with pytest.raises(RuleBroken, match="battle.out-of-reach"):
        RULESET.decide(chapter_1_table(), Battle(mouse="filch", target="rat-warriors-2"))
    with pytest.raises(RuleBroken, match="battle.invalid-target"):  # not a minion in the room
        RULESET.decide(chapter_1_table(), Battle(mouse="filch", target="collin"))
    state = chapter_1_table(at("GR-14", "filch"), rat(4, "GR-15"), rat(5, "GR-10"))
    assert battle_targets(state, "filch") == {"rat-warriors-3": False, "rat-warriors-5": False}


def test_battle_maginos_draw_power_two_cheese_per_cheese_when_attacking__rulebook_attacco():
    """MM rulebook (it) §Attacco with Maginos' card (MM rulebook (it)): "Attingere al Potere: quando Attacca,
    Maginos riceve 2 segnalini Formaggio per ogni" cheese rolled (docs/mice-and-mystics/facts.md §2)."""
    state = chapter_1_table(track=("maginos", "filch", "collin", "tilda", RAT))
    _, state = act(state, Battle(mouse="maginos", target="rat-warriors-1"))
    events, _ = roll(state, 1, 4)
    assert events[:2] == [
        AttackRolled(attacker="maginos", target="rat-warriors-1", hits=1, cheese=1),
        CheeseGained(mouse="maginos", count=2, reason="attack"),
    ]


def test_battle_ranged_must_target_the_nearest_minions_on_same_or_adjacent_space__attacco_a_distanza():
    """MM rulebook (it) §Attacco a Distanza: "se ci sono Servitori nella stessa casella o in una adiacente ...
    sarà obbligato a scegliere uno dei Servitori più vicini"; Maginos' Staff is melee on its own space."""
    state = chapter_1_table(track=("maginos", "filch", "collin", "tilda", RAT))
    assert battle_targets(state, "maginos") == {"rat-warriors-1": True}
    here = chapter_1_table(
        at("GR-3", "maginos"), rat(4, "GR-3"), track=("maginos", "filch", "collin", "tilda", RAT)
    )
    assert battle_targets(here, "maginos") == {"rat-warriors-4": False}, "the staff is melee on its own space"


def test_battle_ranged_needs_line_of_sight_walls_block__rulebook_vedere_il_bersaglio():
    """MM rulebook (it) §Vedere il Bersaglio: "Se questa linea di vista immaginaria attraversa un'area nera o
    un muro, questo Attacco ... non può essere effettuato"."""
    state = chapter_1_table(
        at("KT-5", "maginos"),
        rat(4, "KT-3"),
        rat(5, "KT-9"),
        track=("maginos", "filch", "collin", "tilda", RAT),
    )
    lib = library_of(state)
    assert not sees(lib, "KT-5", "KT-3") and sees(lib, "KT-5", "KT-9") and not sees(lib, "KT-5", "GR-6")
    assert battle_targets(state, "maginos") == {"rat-warriors-5": True}
    with pytest.raises(RuleBroken, match="battle.no-line-of-sight") as refused:
        RULESET.decide(state, Battle(mouse="maginos", target="rat-warriors-4"))
    assert refused.value.section == "MM rulebook (it) §Vedere il Bersaglio"


def test_battle_ranged_refused_for_a_farther_minion_names_the_nearest_first_rule__attacco_a_distanza():
    """MM rulebook (it) §Attacco a Distanza: with minions on or next to its space, a ranged attacker must pick
    one of the nearest: refusing another is its own rule, not the line-of-sight one."""
    state = chapter_1_table(track=("maginos", "filch", "collin", "tilda", RAT))
    assert battle_targets(state, "maginos") == {"rat-warriors-1": True}
    with pytest.raises(RuleBroken, match="battle.nearer-minion-first") as refused:
        RULESET.decide(state, Battle(mouse="maginos", target="rat-warriors-2"))
    assert refused.value.section == "MM rulebook (it) §Attacco a Distanza"


def test_segment_intersection_counts_crossing_and_touching__rulebook_vedere_il_bersaglio():
    """MM rulebook (it) §Vedere il Bersaglio: the line from centre to centre is blocked by a wall it crosses
    or touches."""
    assert segments_intersect((0, 0), (2, 2), (0, 2), (2, 0))
    assert segments_intersect((0, 0), (2, 0), (1, 0), (1, 1)), "touching a wall blocks"
    assert not segments_intersect((0, 0), (1, 1), (2, 2), (3, 0))
    assert not segments_intersect((0, 0), (1, 0), (0, 1), (1, 1))


def test_battle_melee_reaches_across_a_yellow_line_both_ways__rulebook_linee_gialle():
    """MM rulebook (it) §Linee Gialle: "Le caselle separate da una Linea Gialla sono considerate adiacenti"
    (whatever the arrow); MM rulebook (it) §Attacco in Mischia: a minion "su quella adiacente" is a melee
    target. GR-7 -> GR-8 is a yellow line (tile-05-guard-room.json, provisional). Filch: battle 1 + Dagger
    1."""
    state = chapter_1_table(at("GR-7", "filch"), rat(4, "GR-8"))
    assert battle_targets(state, "filch") == {"rat-warriors-4": False}
    events, state = act(state, Battle(mouse="filch", target="rat-warriors-4"))
    assert events[1:] == [
        AttackDeclared(attacker="filch", target="rat-warriors-4", ranged=False, dice=2),
        RollRequested(reason="battle", dice=2, piece="filch"),
    ]
    events, state = roll(state, 2, 3)
    assert events == [
        AttackRolled(attacker="filch", target="rat-warriors-4", hits=2),
        RollRequested(reason="minion-defense", dice=1),
    ]  # Dagger: the rat is lower on the track
    events, state = roll(state, 4)
    assert AttackResolved(attacker="filch", target="rat-warriors-4", hits=2, blocks=0, wounds=2) in events
    assert MinionDefeated(figure="rat-warriors-4", card=RAT) in events and "GR-8" not in state.board
    against_the_arrow = chapter_1_table(at("GR-8", "filch"), rat(4, "GR-7"))
    assert battle_targets(against_the_arrow, "filch") == {"rat-warriors-2": False, "rat-warriors-4": False}
    events = RULESET.decide(against_the_arrow, Battle(mouse="filch", target="rat-warriors-4"))
    assert events[1] == AttackDeclared(attacker="filch", target="rat-warriors-4", ranged=False, dice=2)
