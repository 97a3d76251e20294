"""Vast rulebook §Coraggio, §Cubetti Eroe, §Equipaggiamento (Scudo): Grit, its cube thresholds and the
Shield."""

from __future__ import annotations

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.rules.common import free_cubes, grit_change, owned_cubes
from dicelog.domain.vast.state import KnightRole
from tests.rulesets.vast.support import Play, fold, table


def test_grit_spaces_5_11_18_26_35_each_give_a_cube__rulebook_preparazione():
    for grit, cubes in ((0, 2), (4, 2), (5, 3), (11, 4), (18, 5), (26, 6), (35, 7), (45, 7)):
        assert owned_cubes(KnightRole(grit=grit)) == cubes


def test_a_cube_reached_may_be_used_the_same_turn__rulebook_coraggio():
    state = table(knight=KnightRole(grit=4, placed={"movement": 2}))
    assert free_cubes(state.knight) == 0
    state = fold(state, grit_change(state, 1, "reveal"))
    assert free_cubes(state.knight) == 1


def test_grit_stays_between_0_and_45__rulebook_coraggio():
    state = table(knight=KnightRole(grit=44))
    assert fold(state, grit_change(state, 5, "sidequest")).knight.grit == 45
    state = table(knight=KnightRole(grit=1))
    assert fold(state, grit_change(state, -5, "spores")).knight.grit == 0


def test_falling_below_a_space_takes_an_unused_cube_first__rulebook_coraggio():
    state = table(knight=KnightRole(grit=5, placed={"movement": 1}))  # 3 cubes, 1 placed
    events = grit_change(state, -2, "rats")
    assert not any(isinstance(e, ev.HeroCubeReturned) for e in events)
    assert free_cubes(fold(state, events).knight) == 1


def test_with_no_unused_cube_a_placed_one_goes_back_and_her_turn_ends__rulebook_coraggio():
    p = Play(table(knight=KnightRole(grit=5, placed={"movement": 1, "perception": 1, "strength": 1})))
    state = p.state
    events = grit_change(state, -2, "rats")
    assert events[-1] == ev.HeroCubeReturned(target="strength")
    after = fold(state, events)
    assert after.turn_over
    from dicelog.domain.vast.rules.flow import advance

    follow = advance(after)
    assert any(isinstance(e, ev.VastTurnEnded) for e in follow)


def test_the_shield_makes_every_grit_loss_1__rulebook_equipaggiamento_scudo():
    p = Play(table(knight=KnightRole(grit=10)))
    p.do(cmd.PlaceHeroCube(target="shield"))
    events = grit_change(p.state, -5, "spores")
    assert events[0] == ev.GritChanged(delta=-1, why="spores")


def test_she_never_has_fewer_than_2_cubes__rulebook_consigli_rapidi_il_cavaliere():
    assert owned_cubes(KnightRole(grit=0, discarded=3)) == 2


def test_she_never_has_more_than_7_cubes__rulebook_preparazione():
    assert owned_cubes(KnightRole(grit=35, discarded=-1)) == 7
    assert owned_cubes(KnightRole(grit=26, discarded=-1)) == 7
