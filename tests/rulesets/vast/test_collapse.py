"""Vast rulebook §2. Modella la Caverna (when the Collapse begins) and §Il Collasso: removal order, the
Entrance, the Knight on a collapsing tile, Crystal tiles counted, the Cave's win."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import DecisionRequested
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.rules.cave_turn import removable
from dicelog.domain.vast.rules.flow import start_turn
from dicelog.domain.vast.state import CaveRole, KnightRole
from tests.rulesets.vast.support import Play, dark, lit, table


def collapsing(*cells, knight=None, placed=0):
    state = table(*cells, knight=knight, cave=CaveRole(hand=(), placed=placed), turn="cave", sealed=False)
    return replace(state, collapse=True, piles=(0, 0, 0), stack=(), crystals=())


def test_the_collapse_begins_the_turn_after_the_last_tile_was_placed__rulebook_modella_la_caverna():
    state = replace(table(cave=CaveRole(hand=()), turn="knight"), piles=(0, 0, 0))
    events = start_turn(state, "cave", 2)
    assert ev.CollapseBegun() in events
    state = replace(table(cave=CaveRole(hand=("ambush-01",))), piles=(0, 0, 0))
    assert ev.CollapseBegun() not in start_turn(state, "cave", 2)


def test_the_collapse_begins_after_the_hands_last_tile_even_with_tiles_put_back_under_the_stack__rulebook():
    """Vast rulebook §2. Modella la Caverna («Quando l'ultima tessera della tua mano è stata piazzata, il
    Collasso ha inizio a partire dal tuo prossimo turno») and §Gli altri giocatori (before the Collapse, the
    tiles other than Crystal tiles a Cave-In or Wrath collapses are «messe in fondo alla pila»): the Cave's
    hand empty, the Collapse begins at its turn though such tiles lie in the stack (it draws only after
    placing a tile: before, it could neither place nor begin the Collapse, and the game never ended)."""
    state = replace(
        table(cave=CaveRole(hand=()), turn="knight"),
        piles=(0, 0, 2),
        stack=("ambush-01", "ambush-02"),
        rules_revision=8,
    )
    assert ev.CollapseBegun() in start_turn(state, "cave", 2)
    # a game created before rules revision 8 keeps waiting for the stack, as it was played and stored
    assert ev.CollapseBegun() not in start_turn(replace(state, rules_revision=7), "cave", 2)


def test_tiles_touching_one_tile_go_first_then_two__rulebook_il_collasso():
    # A line Entrance - (1,0) - (2,0) - (3,0) and a spur (2,1): (3,0) and (2,1) touch 1 tile.
    state = collapsing(
        lit(1, 0, "event-01"), lit(2, 0, "event-02"), lit(3, 0, "event-03"), lit(2, 1, "event-04")
    )
    assert removable(state) == [(2, 1), (3, 0)]
    with pytest.raises(RuleBroken) as info:
        Play(state).do(cmd.RemoveTile(x=1, y=0))
    assert info.value.rule == "vast.collapse.not-removable"


def test_a_revealed_crystal_tile_that_can_go_goes_first__rulebook_il_collasso():
    state = collapsing(lit(1, 0, "event-01"), lit(2, 0, "crystal-01"), lit(0, 1, "event-02"))
    assert removable(state) == [(2, 0)]


def test_the_entrance_is_never_removed__rulebook_il_collasso():
    state = collapsing(lit(1, 0, "event-01"))
    assert removable(state) == [(1, 0)]
    p = Play(state)
    p.do(cmd.RemoveTile(x=1, y=0))
    assert removable(p.state) == []
    with pytest.raises(RuleBroken) as info:
        Play(p.state).do(cmd.RemoveTile(x=0, y=0))
    assert info.value.rule == "vast.collapse.entrance"


def test_a_removed_dark_tile_is_turned_and_a_crystal_tile_counts__rulebook_il_collasso():
    state = replace(collapsing(dark(1, 0, "crystal-03")), crystal_tiles_collapsed=3)
    p = Play(state)
    p.do(cmd.RemoveTile(x=1, y=0))
    removed = p.of(ev.TileRemoved)[0]
    assert removed.crystal_tile and removed.tile == "crystal-03"
    assert p.state.crystal_tiles_collapsed == 4


def test_five_crystal_tiles_collapsed_and_the_cave_wins__rulebook_il_collasso():
    state = replace(collapsing(dark(1, 0, "crystal-03")), crystal_tiles_collapsed=4)
    p = Play(state)
    p.do(cmd.RemoveTile(x=1, y=0))
    assert p.events[-1] == ev.GameWon(winner="cave", reason="5 Crystal tiles collapsed: the Cave collapses")


def test_tokens_on_a_removed_tile_go_back__rulebook_il_collasso():
    p = Play(collapsing(dark(1, 0, "event-01", treasure=2)))
    p.do(cmd.RemoveTile(x=1, y=0))
    assert p.state.cave.supply == 12


def test_the_knight_on_a_collapsing_tile_steps_to_a_tile_next_to_it__rulebook_il_collasso():
    state = collapsing(lit(1, 0, "event-01"), lit(2, 0, "event-02"), knight=KnightRole(x=2, y=0))
    p = Play(state)
    p.do(cmd.RemoveTile(x=2, y=0))
    assert isinstance(p.pending, DecisionRequested) and p.pending.decision == "step-off:2,0"
    assert p.pending.piece == "knight" and p.pending.options == ("1,0",)
    p.choose("1,0")
    assert (p.state.knight.x, p.state.knight.y) == (1, 0)
    assert all((c.x, c.y) != (2, 0) for c in p.state.cells)


def test_three_tiles_a_turn__rulebook_il_collasso():
    state = collapsing(lit(1, 0, "event-01"), placed=3)
    with pytest.raises(RuleBroken) as info:
        Play(state).do(cmd.RemoveTile(x=1, y=0))
    assert info.value.rule == "vast.collapse.done"
    with pytest.raises(RuleBroken):
        Play(collapsing(lit(1, 0, "event-01"), placed=1)).do(cmd.VastEndTurn(role="cave"))


def test_open_edges_are_no_longer_filled_during_the_collapse__rulebook_consigli_rapidi_generali():
    state = collapsing(dark(1, 0, "event-01"))
    state = replace(state, turn="knight", cave=CaveRole(hand=("ambush-01",)))
    p = Play(state)
    p.do(cmd.MoveKnight(x=1, y=0))
    assert not any(getattr(e, "decision", "").startswith("fill:") for e in p.events)
