"""Minion turns (MM rulebook (it) §Muovere un Servitore; MM rulebook (it) §Attaccare con un Servitore; MM
rulebook (it) §Il Turno di un Servitore). Guard Room layout in tile-05-guard-room.json (provisional); Kitchen
Tunnels' black corners block sight (tile-04 walls)."""

from dicelog.domain.core.events import RollRequested
from dicelog.domain.mice_and_mystics.content import library
from dicelog.domain.mice_and_mystics.events import (
    AttackDeclared,
    AttackResolved,
    AttackRolled,
    CheeseAddedToWheel,
    CheeseGained,
    FigurePlaced,
    MinionActivated,
    MinionAttackSkipped,
    MinionDefeated,
    MinionMoved,
    MousetrapsSet,
    MouseWounded,
    RoomTilePlaced,
)
from dicelog.domain.mice_and_mystics.rules.flow import proceed
from dicelog.domain.mice_and_mystics.state import RULES_REVISION, space_of
from tests.unit.mice_and_mystics.scenario import chapter_1_table, fold_events, roll

RAT, ELITE = "rat-warriors", "elite-rat-warriors"
ONLY_RAT_1 = (
    MinionDefeated(figure="rat-warriors-2", card=RAT),
    MinionDefeated(figure="rat-warriors-3", card=RAT),
)


def at(space, figure):
    return FigurePlaced(figure=figure, card=figure, space=space)


def minion(card, n, space):
    return FigurePlaced(figure=f"{card}-{n}", card=card, space=space)


def start(*events, track=(RAT, "filch", "collin", "tilda", "maginos"), rules_revision=RULES_REVISION):
    state = chapter_1_table(*events, track=track, rules_revision=rules_revision)
    more = proceed(state)
    return more, fold_events(state, more)


def test_minion_melee_starting_on_a_mouse_space_does_not_move_and_attacks_it__rulebook_muovere_i_servitori_con_armi_da_mischia():  # noqa: E501
    events, _ = start(*ONLY_RAT_1, at("GR-2", "filch"))
    assert events == [
        MinionActivated(figure="rat-warriors-1"),
        MinionMoved(figure="rat-warriors-1", origin="GR-2", path=(), reason="starts on a mouse's space"),
        AttackDeclared(attacker="rat-warriors-1", target="filch", ranged=False, dice=2),
        RollRequested(reason="minion-attack", dice=2),
    ]


def test_minion_melee_moves_the_die_move_number_along_the_shortest_path_then_attacks__rulebook_muovere_i_servitori_con_armi_da_mischia():  # noqa: E501
    events, state = start(
        MinionDefeated(figure="rat-warriors-1", card=RAT), MinionDefeated(figure="rat-warriors-2", card=RAT)
    )
    assert events == [MinionActivated(figure="rat-warriors-3"), RollRequested(reason="minion-move", dice=1)]
    events, state = roll(state, 4)  # move number 2
    assert events == [
        MinionMoved(figure="rat-warriors-3", origin="GR-13", path=("GR-9", "GR-5")),
        AttackDeclared(attacker="rat-warriors-3", target="filch", ranged=False, dice=2),
        RollRequested(reason="minion-attack", dice=2),
    ]


def test_minion_figures_act_nearest_to_the_mice_first__rulebook_muovere_un_servitore():
    events, _ = start(minion(RAT, 4, "GR-16"))
    assert events[0] == MinionActivated(figure="rat-warriors-1")


def test_minion_cannot_enter_a_full_mouse_space_and_gets_as_close_as_it_can__rulebook_muovere_i_servitori_con_armi_da_mischia():  # noqa: E501
    _, state = start(*ONLY_RAT_1)
    events, _ = roll(state, 3)
    assert events[0] == MinionMoved(figure="rat-warriors-1", origin="GR-2", path=())


def test_minion_moves_toward_the_mouse_higher_on_the_track_when_equidistant__rulebook_muovere_i_servitori_con_armi_da_mischia():  # noqa: E501
    setup = (
        *ONLY_RAT_1,
        at("GR-1", "filch"),
        at("GR-3", "collin"),
        at("GR-16", "tilda"),
        at("GR-16", "maginos"),
    )
    _, state = start(*setup, track=(RAT, "collin", "filch", "tilda", "maginos"))
    events, _ = roll(state, 3)
    assert events[0] == MinionMoved(figure="rat-warriors-1", origin="GR-2", path=("GR-3",))
    assert events[1] == AttackDeclared(attacker="rat-warriors-1", target="collin", ranged=False, dice=2)


def test_minion_attacks_the_nearest_mouse_not_yet_attacked_this_turn__rulebook_attaccare_con_un_servitore():
    _, state = start(*ONLY_RAT_1, minion(RAT, 4, "GR-2"))
    _, state = roll(state, 1)  # rat 1 stays next to the full space
    events, state = roll(state, 4, 4)
    assert events[:2] == [
        AttackRolled(attacker="rat-warriors-1", target="filch", hits=0),
        AttackResolved(attacker="rat-warriors-1", target="filch", hits=0, blocks=0, wounds=0),
    ]
    assert events[2:] == [
        MinionActivated(figure="rat-warriors-4"),
        RollRequested(reason="minion-move", dice=1),
    ]
    events, _ = roll(state, 1)
    assert events[1] == AttackDeclared(attacker="rat-warriors-4", target="collin", ranged=False, dice=2)


def test_minion_attack_the_mouse_defends_with_defense_plus_armour_and_cheese_goes_to_wheel_and_mouse__rulebook_attaccare_con_un_servitore():  # noqa: E501
    _, state = start(*ONLY_RAT_1, track=(RAT, "collin", "filch", "tilda", "maginos"))
    _, state = roll(state, 1)
    events, state = roll(state, 2, 1)
    assert events == [
        AttackRolled(attacker="rat-warriors-1", target="collin", hits=1, cheese=1),
        CheeseAddedToWheel(count=1, reason="minion-attack"),
        RollRequested(reason="mouse-defense", dice=2, piece="collin"),
    ]
    events, state = roll(state, 4, 1)
    assert events[:3] == [
        AttackResolved(attacker="rat-warriors-1", target="collin", hits=1, blocks=0, wounds=1),
        CheeseGained(mouse="collin", count=1, reason="defense"),
        MouseWounded(mouse="collin", wounds=1),
    ]
    assert state.wounds["collin"] == 1 and state.cheese_wheel == 1


def test_minion_defense_sword_shield_blocks_the_minion_hits__rulebook_attaccare_con_un_servitore():
    _, state = start(*ONLY_RAT_1)
    _, state = roll(state, 1)
    _, state = roll(state, 2, 3)
    events, _ = roll(state, 6, 3)
    assert events[0] == AttackResolved(attacker="rat-warriors-1", target="filch", hits=2, blocks=2, wounds=0)


def test_minion_ranged_that_sees_a_mouse_does_not_move_and_shoots_with_bows__rulebook_muovere_i_servitori_con_armi_a_distanza():  # noqa: E501
    events, state = start(
        minion(ELITE, 1, "GR-16"), track=(ELITE, "filch", "collin", "tilda", "maginos", RAT)
    )
    assert events == [
        MinionActivated(figure="elite-rat-warriors-1"),
        MinionMoved(figure="elite-rat-warriors-1", origin="GR-16", path=(), reason="sees a mouse"),
        AttackDeclared(attacker="elite-rat-warriors-1", target="filch", ranged=True, dice=3),
        RollRequested(reason="minion-attack", dice=3),
    ]
    events, _ = roll(state, 4, 5, 2)
    assert events[0] == AttackRolled(attacker="elite-rat-warriors-1", target="filch", hits=2)


def test_minion_ranged_that_sees_no_mouse_walks_the_shortest_path_until_it_sees_one_without_a_roll__rulebook_muovere_i_servitori_con_armi_a_distanza():  # noqa: E501
    """MM rulebook (it) «dovrà usare tutto il movimento necessario per seguire il percorso più breve verso il
    Topo più vicino. Non appena sarà in grado di vedere un Topo, smetterà di muoversi»: no movement
    roll (rules revision 2)."""
    setup = (minion(ELITE, 1, "KT-1"), at("KT-11", "filch"))
    events, state = start(*setup, track=(ELITE, "filch", "collin", "tilda", "maginos", RAT))
    assert not [e for e in events if isinstance(e, RollRequested) and e.reason == "minion-move"]
    moved = next(e for e in events if isinstance(e, MinionMoved))
    assert moved.origin == "KT-1" and moved.path and moved.path[-1] == space_of(state, "elite-rat-warriors-1")
    assert AttackDeclared(attacker="elite-rat-warriors-1", target="filch", ranged=True, dice=3) in events


def test_minion_ranged_that_sees_no_mouse_rolled_to_move_in_rules_revision_1__rulebook_muovere_i_servitori_con_armi_a_distanza():  # noqa: E501
    setup = (minion(ELITE, 1, "KT-1"), at("KT-11", "filch"))
    track = (ELITE, "filch", "collin", "tilda", "maginos", RAT)
    events, state = start(*setup, track=track, rules_revision=1)
    assert events[-1] == RollRequested(reason="minion-move", dice=1)
    events, state = roll(state, 3)
    moved = events[0]
    assert isinstance(moved, MinionMoved) and len(moved.path) < 3
    assert space_of(state, "elite-rat-warriors-1") == "KT-7"
    assert events[1] == AttackDeclared(attacker="elite-rat-warriors-1", target="filch", ranged=True, dice=3)


def test_minion_with_no_mouse_in_its_room_neither_moves_nor_attacks__rulebook_muovere_un_servitore():
    events, _ = start(minion(ELITE, 1, "KT-1"), track=(ELITE, "filch", "collin", "tilda", "maginos", RAT))
    assert events[1:3] == [
        MinionMoved(figure="elite-rat-warriors-1", origin="KT-1", path=(), reason="no mouse to move toward"),
        MinionAttackSkipped(figure="elite-rat-warriors-1", reason="sees no mouse"),
    ]


def test_minion_attacks_the_mouse_higher_on_the_track_when_every_mouse_in_reach_was_already_attacked__rulebook_attaccare_con_un_servitore():  # noqa: E501
    """MM rulebook (it) §Attaccare con un Servitore, rule 2: "(o se sono stati già tutti Attaccati), il
    Servitore Attaccherà il Topo più in alto sulla Colonna dell'Iniziativa" (MM rulebook (pt): "ou se todos
    foram neste turno"): among mice already attacked distance no longer counts. Rat 3 shares Collin's space
    but attacks Filch, adjacent and higher on the track."""
    setup = (
        minion(RAT, 2, "GR-1"),
        minion(RAT, 3, "GR-2"),
        at("GR-1", "filch"),
        at("GR-2", "collin"),
        at("GR-16", "tilda"),
        at("GR-16", "maginos"),
    )
    events, state = start(*setup)
    assert events[-2] == AttackDeclared(attacker="rat-warriors-1", target="collin", ranged=False, dice=2)
    events, state = roll(state, 4, 4)  # no hit
    assert events[-2] == AttackDeclared(attacker="rat-warriors-2", target="filch", ranged=False, dice=2)
    events, state = roll(state, 4, 4)
    assert events[-4:] == [
        MinionActivated(figure="rat-warriors-3"),
        MinionMoved(figure="rat-warriors-3", origin="GR-2", path=(), reason="starts on a mouse's space"),
        AttackDeclared(attacker="rat-warriors-3", target="filch", ranged=False, dice=2),
        RollRequested(reason="minion-attack", dice=2),
    ]


def test_minion_still_prefers_a_mouse_not_yet_attacked_over_a_nearer_attacked_one__rulebook_attaccare_con_un_servitore():  # noqa: E501
    """MM rulebook (it) §Attaccare con un Servitore, rule 1: the nearest mouse *not yet attacked*: Rat 3 on
    Collin's space (attacked) attacks Filch next to it (not attacked), lower on the track."""
    setup = (
        minion(RAT, 3, "GR-2"),
        at("GR-1", "filch"),
        at("GR-2", "collin"),
        at("GR-16", "tilda"),
        at("GR-16", "maginos"),
        MinionDefeated(figure="rat-warriors-2", card=RAT),
    )
    events, state = start(*setup, track=(RAT, "collin", "filch", "tilda", "maginos"))
    assert events[-2] == AttackDeclared(attacker="rat-warriors-1", target="collin", ranged=False, dice=2)
    events, _ = roll(state, 4, 4)
    assert events[-2] == AttackDeclared(attacker="rat-warriors-3", target="filch", ranged=False, dice=2)


def test_minion_moves_through_water_without_stopping__rulebook_muovere_un_servitore():
    """MM rulebook (it) §Muovere un Servitore: minions "ignorano gli effetti di acqua": a mouse entering water
    ends its move (MM rulebook (it) §Muoversi nell'Acqua); a rat crosses the Sewer's channel in one move."""
    setup = (
        RoomTilePlaced(tile="sewer", column=0, row=1),
        *ONLY_RAT_1,
        minion(RAT, 1, "SW-2"),
        at("SW-13", "filch"),
    )
    events, state = start(*setup)
    assert events == [MinionActivated(figure="rat-warriors-1"), RollRequested(reason="minion-move", dice=1)]
    events, state = roll(state, 3)  # move number 3
    moved = events[0]
    assert isinstance(moved, MinionMoved) and len(moved.path) == 3 and moved.path[-1] == "SW-13"
    assert any(library().spaces[s].water for s in moved.path[:-1])
    assert events[1] == AttackDeclared(attacker="rat-warriors-1", target="filch", ranged=False, dice=2)
    assert space_of(state, "rat-warriors-1") == "SW-13"


def test_minion_crosses_a_yellow_line_against_its_arrow_for_one_step__rulebook_muovere_un_servitore():
    """MM rulebook (it) §Muovere un Servitore: minions ignore yellow lines. GR-8 to GR-7 is against the arrow
    (3 movement for a mouse, MM rulebook (it) §Linee Gialle); a rat rolling move number 1 makes it."""
    setup = (*ONLY_RAT_1, minion(RAT, 1, "GR-8"), at("GR-7", "filch"), at("GR-16", "collin"))
    _, state = start(*setup)
    events, _ = roll(state, 1)
    assert events[:2] == [
        MinionMoved(figure="rat-warriors-1", origin="GR-8", path=("GR-7",)),
        AttackDeclared(attacker="rat-warriors-1", target="filch", ranged=False, dice=2),
    ]


def test_minion_moves_across_a_red_line__rulebook_muovere_un_servitore():
    """MM rulebook (it) §Muovere un Servitore: minions ignore red lines (MM rulebook (it) §Linee Rosse stops
    only mice): GR-14 to GR-15 is one step for a rat."""
    setup = (*ONLY_RAT_1, minion(RAT, 1, "GR-14"), at("GR-15", "filch"))
    _, state = start(*setup)
    events, _ = roll(state, 1)
    assert events[:2] == [
        MinionMoved(figure="rat-warriors-1", origin="GR-14", path=("GR-15",)),
        AttackDeclared(attacker="rat-warriors-1", target="filch", ranged=False, dice=2),
    ]


def test_minion_cannot_attack_across_a_red_line__rulebook_linee_rosse():
    """MM rulebook (it) §Linee Rosse: "Le caselle separate da una Linea Rossa non sono adiacenti" (for
    everyone, docs/mice-and-mystics/rulings.md): a rat on GR-14 next to the full GR-15 across the red line
    stays and cannot attack."""
    mice = tuple(at("GR-15", m) for m in ("filch", "collin", "tilda", "maginos"))
    _, state = start(*ONLY_RAT_1, minion(RAT, 1, "GR-14"), *mice)
    events, _ = roll(state, 3)
    assert events[:2] == [
        MinionMoved(figure="rat-warriors-1", origin="GR-14", path=()),
        MinionAttackSkipped(figure="rat-warriors-1", reason="no mouse in reach"),
    ]


def test_minion_walks_over_a_set_mousetrap_without_stopping__rulebook_muovere_un_servitore():
    """MM rulebook (it) §Muovere un Servitore: minions ignore mousetraps. A mouse stops on a set trap and
    rolls (MM rulebook (it) §Attraversare le Trappole per Topi); a rat walks KT-2, KT-4 (trap), KT-8 with no
    roll."""
    setup = (*ONLY_RAT_1, MousetrapsSet(spaces=("KT-4",)), minion(RAT, 1, "KT-2"), at("KT-8", "filch"))
    _, state = start(*setup)
    events, state = roll(state, 2)  # move number 2
    assert events == [
        MinionMoved(figure="rat-warriors-1", origin="KT-2", path=("KT-4", "KT-8")),
        AttackDeclared(attacker="rat-warriors-1", target="filch", ranged=False, dice=2),
        RollRequested(reason="minion-attack", dice=2),
    ]
    assert "KT-4" in state.traps
