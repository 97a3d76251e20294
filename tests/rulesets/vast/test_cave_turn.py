"""Vast rulebook §La Caverna: §Riepilogo del Turno, §Tessere Caverna, §2. Modella la Caverna, §3. Piazza un
Tesoro, §1. Raccogli i Segnalini Presagio, §Usare i Presagi, §Presagi."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from dicelog.domain.core.events import DrawRequested
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.rules.flow import start_turn
from dicelog.domain.vast.state import CaveRole
from tests.rulesets.vast.support import Play, dark, lit, refused, table

HAND = ("ambush-01", "crystal-02", "event-02")


def cave_table(*cells, hand=HAND, **kw):
    return table(*cells, cave=CaveRole(hand=hand, omens=kw.pop("omens", ())), turn="cave", **kw)


def test_on_its_own_turn_the_cave_places_crystal_tiles_first__rulebook_tessere_caverna():
    state = cave_table()
    assert refused(state, cmd.PlaceTile(tile="ambush-01", x=2, y=0)) == "vast.shape.crystal-first"
    p = Play(state)
    p.do(cmd.PlaceTile(tile="crystal-02", x=2, y=0))
    placed = p.of(ev.DarkTilePlaced)[0]
    assert (placed.x, placed.y, placed.symbol, placed.own_turn) == (2, 0, "bones", True)


def test_a_tile_goes_next_to_a_tile_and_the_hand_is_refilled_to_3__rulebook_modella_la_caverna():
    state = cave_table()
    assert refused(state, cmd.PlaceTile(tile="crystal-02", x=5, y=5)) == "vast.shape.not-adjacent"
    assert refused(state, cmd.PlaceTile(tile="crystal-02", x=1, y=0)) == "vast.shape.not-adjacent"  # taken
    p = Play(state)
    p.do(cmd.PlaceTile(tile="crystal-02", x=2, y=0))
    assert isinstance(p.pending, DrawRequested) and p.pending.reason == "cave-hand"
    p.draw("ambush-02")
    assert p.state.cave.hand == ("ambush-01", "ambush-02", "event-02")
    assert refused(p.state, cmd.PlaceTile(tile="ambush-01", x=3, y=0)) == "vast.shape.done"


def test_place_treasure_on_a_dark_tile_without_a_piece_or_a_treasure__rulebook_piazza_un_tesoro():
    state = cave_table(dark(1, 0, "event-01", treasure=1), lit(0, 1, "event-02"))
    assert refused(state, cmd.PlaceTreasure(x=1, y=0)) == "vast.treasure.bad-tile"
    assert refused(state, cmd.PlaceTreasure(x=0, y=1)) == "vast.treasure.bad-tile"  # Lit
    p = Play(state)
    free = next(c for c in state.cells if not c.lit and not c.treasure)
    p.do(cmd.PlaceTreasure(x=free.x, y=free.y))
    assert p.state.cave.supply == 9


def test_the_turn_ends_only_after_shaping_and_placing_treasure__rulebook_riepilogo_del_turno():
    state = cave_table()
    assert refused(state, cmd.VastEndTurn(role="cave")) == "vast.shape.owed"
    p = Play(state)
    p.do(cmd.PlaceTile(tile="crystal-02", x=2, y=0))
    p.draw("ambush-02")
    assert refused(p.state, cmd.VastEndTurn(role="cave")) == "vast.treasure.owed"
    p.do(cmd.PlaceTreasure(x=2, y=0))
    p.do(cmd.VastEndTurn(role="cave"))
    assert p.state.turn == "knight" and p.state.round == 2


@pytest.mark.parametrize(
    "tokens,omens", [(0, 1), (1, 2), (2, 3), (3, 3), (4, 4), (6, 4), (7, 5), (10, 5), (11, 6)]
)
def test_omens_drawn_by_treasure_and_crystal_tokens_on_the_map__rulebook_raccogli_i_segnalini_presagio(
    tokens, omens
):
    cells = [dark(1 + i, 5, "event-01", treasure=1) for i in range(tokens)]
    state = cave_table(*cells)
    events = start_turn(state, "cave", 1)
    assert events[1] == ev.OmensCollected(count=omens, tokens_on_map=tokens)
    assert isinstance(events[2], DrawRequested) and events[2].count == omens


def test_soporific_spores_costs_3_of_its_symbols_and_takes_5_grit__rulebook_presagi():
    state = cave_table(omens=("bat-1", "mushroom-1", "quartz-1", "trail-1"))
    state = replace(state, knight=replace(state.knight, grit=7))
    assert refused(state, cmd.SoporificSpores(pay=("bat-1", "quartz-1", "trail-1"))) == "vast.omen.symbol"
    assert refused(state, cmd.SoporificSpores(pay=("quartz-1", "trail-1"))) == "vast.omen.cost"
    assert (
        refused(state, cmd.SoporificSpores(pay=("quartz-2", "trail-1", "mushroom-1"))) == "vast.omen.not-held"
    )
    p = Play(state)
    p.do(cmd.SoporificSpores(pay=("quartz-1", "trail-1", "mushroom-1")))
    assert p.state.knight.grit == 2
    assert p.state.cave.omens == ("bat-1",)
    assert "quartz-1" in p.state.omen_bag  # paid tokens go back to the bag


def test_hatred_costs_1_then_2_then_3_and_places_another_tile__rulebook_usare_i_presagi():
    state = cave_table(omens=("mushroom-1", "trail-1", "chasm-1", "chasm-2", "trail-2", "mushroom-2"))
    p = Play(state)
    p.do(cmd.PlaceTile(tile="crystal-02", x=2, y=0))
    p.draw("ambush-02")
    assert (
        refused(p.state, cmd.Hatred(pay=("mushroom-1", "trail-1"), tile="ambush-01", x=3, y=0))
        == "vast.omen.cost"
    )
    p.do(cmd.Hatred(pay=("mushroom-1",), tile="ambush-01", x=3, y=0))
    p.draw("ambush-03")
    p.do(cmd.Hatred(pay=("trail-1", "chasm-1"), tile="ambush-02", x=4, y=0))
    p.draw("crystal-01")
    assert p.state.cave.hatred == 2
    assert len(list(p.of(ev.DarkTilePlaced))) == 3


def test_a_rockslide_is_a_wall_between_two_tiles_one_lit__rulebook_presagi_frana():
    state = cave_table(lit(1, 0, "event-01"), omens=("bat-1", "boulder-1"))
    p = Play(state)
    p.do(cmd.Rockslide(pay=("bat-1", "boulder-1"), x=0, y=0, side="E"))
    from dicelog.domain.vast.rules.common import geometry

    assert geometry(p.state).wall_between((0, 0), "E")
    assert p.state.cave.rockslides == 2


def test_with_all_3_rockslides_out_the_cave_moves_one__rulebook_presagi_frana():
    out = ((1, 0, "E"), (0, 0, "N"), (-1, 0, "E"))
    state = cave_table(lit(1, 0, "event-01"), omens=("bat-1", "boulder-1"), rockslides=out)
    state = replace(state, cave=replace(state.cave, rockslides=0))
    p = Play(state)
    p.do(cmd.Rockslide(pay=("bat-1", "boulder-1"), x=0, y=0, side="E"))
    assert p.pending.decision == "rockslide-from:0,0:E" and p.pending.piece == "cave"
    assert p.pending.options == ("1,0:E", "0,0:N", "-1,0:E")
    p.choose("0,0:N")
    assert set(p.state.rockslides) == {(1, 0, "E"), (-1, 0, "E"), (0, 0, "E")}
    assert p.state.cave.rockslides == 0 and p.state.cave.omens == ()


def test_giant_bats_carry_the_knight_up_to_3_lit_tiles_not_through_walls__rulebook_esempio_3():
    # A corridor of Lit tiles east of the Entrance; a wall (Rockslide) closes the way north.
    cells = (lit(1, 0, "event-01"), lit(2, 0, "event-02"), lit(3, 0, "event-03"), lit(4, 0, "event-04"))
    state = cave_table(*cells, dark(0, 1, "event-05"), omens=("bat-1", "bat-2"))
    assert refused(state, cmd.GiantBats(pay=("bat-1",), target="knight", x=4, y=0)) == "vast.omen.bats-reach"
    assert refused(state, cmd.GiantBats(pay=("bat-1",), target="knight", x=0, y=1)) == "vast.omen.bats-reach"
    p = Play(state)
    p.do(cmd.GiantBats(pay=("bat-1",), target="knight", x=3, y=0))
    assert (p.state.knight.x, p.state.knight.y) == (3, 0)


def test_the_shield_keeps_the_knight_from_the_bats__rulebook_equipaggiamento_scudo():
    state = cave_table(lit(1, 0, "event-01"), omens=("bat-1",))
    state = replace(state, knight=replace(state.knight, placed={"shield": 1}))
    assert refused(state, cmd.GiantBats(pay=("bat-1",), target="knight", x=1, y=0)) == "vast.omen.shield"


def test_giant_bats_carry_a_treasure_token__rulebook_presagi():
    state = cave_table(dark(1, 0, "event-01", treasure=1), dark(2, 0, "event-02"), omens=("chasm-1",))
    p = Play(state)
    p.do(cmd.GiantBats(pay=("chasm-1",), target="treasure", from_x=1, from_y=0, x=2, y=0))
    cells = {(c.x, c.y): c for c in p.state.cells}
    assert cells[(1, 0)].treasure == 0 and cells[(2, 0)].treasure == 1


def test_crystal_curse_turns_a_lit_tile_and_its_rockslides_go_back__rulebook_presagi():
    state = cave_table(lit(1, 0, "crystal-04"), omens=("trail-1",), rockslides=((1, 0, "E"),))
    state = replace(state, cave=replace(state.cave, rockslides=2))
    p = Play(state)
    p.do(cmd.CrystalCurse(pay=("trail-1",), effect="rotate", x=1, y=0))
    cell = next(c for c in p.state.cells if (c.x, c.y) == (1, 0))
    assert cell.rotation == 1 and p.state.rockslides == () and p.state.cave.rockslides == 3


def test_crystal_curse_moves_the_top_3_events_to_the_bottom__rulebook_presagi():
    p = Play(cave_table(omens=("bat-1",)))
    p.do(cmd.CrystalCurse(pay=("bat-1",), effect="events-to-bottom"))
    assert p.pending.deck == "events" and p.pending.count == 3
    p.draw("rats-1", "light", "ambush-1")
    assert p.state.event_bottom == ("rats-1", "light", "ambush-1")
    assert p.of(ev.EventsSentToBottom)


def test_the_cave_uses_crystal_curse_again_and_again_in_one_turn_paying_each_time__rulebook_usare_i_presagi():
    """Vast rulebook §La Caverna, Usare i Presagi: «Puoi usare un presagio quante volte desideri, purché ne
    paghi il costo ogni volta»; only Hatred and Past Plunder cost more on later uses. Crystal Curse (cost 1)
    may turn the same tile five times in one turn, one Omen token each time, and no more once they are
    spent."""
    omens = ("bat-1", "chasm-2", "trail-3", "trail-4", "bat-5")
    p = Play(cave_table(lit(1, 0, "crystal-04"), omens=omens))
    for token in omens:
        p.do(cmd.CrystalCurse(pay=(token,), effect="rotate", x=1, y=0))
        p.settle()  # an edge the turn opens is filled at once
    cell = next(c for c in p.state.cells if (c.x, c.y) == (1, 0))
    assert cell.rotation == 5 % 4 and p.state.cave.omens == ()
    assert [e.paid for e in p.of(ev.OmenUsed)] == [(t,) for t in omens]
    curse = cmd.CrystalCurse(pay=("bat-1",), effect="rotate", x=1, y=0)
    assert refused(p.state, curse) == "vast.omen.not-held"
