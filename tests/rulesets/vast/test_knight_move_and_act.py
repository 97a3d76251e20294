"""Vast rulebook §Il Cavaliere, §2. Muovi e Agisci, §Statistiche, §Cubetti Eroe, §Equipaggiamento (Mappa
Antica, Bomba): the Knight's movement and Encounters, driven through decide/evolve with explicit cards and
dice."""

from __future__ import annotations

import pytest

from dicelog.domain.core.errors import NotYourTurn
from dicelog.domain.core.events import DecisionRequested
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.state import KnightRole
from tests.rulesets.vast.support import Play, dark, lit, refused, table


def test_stats_start_at_1_and_cubes_raise_them_left_to_right__rulebook_statistiche_cubetti_eroe():
    p = Play(table(lit(1, 0, "event-01")))
    p.do(cmd.PlaceHeroCube(target="movement"))
    p.do(cmd.PlaceHeroCube(target="movement"))
    from dicelog.domain.vast.rules.common import movement, perception

    assert movement(p.state.knight) == 5  # docs/vast/facts.md §2 Stat tracks: 1 / 3 / 5 / 7
    assert perception(p.state.knight) == 1
    assert (
        refused(p.state, cmd.PlaceHeroCube(target="strength")) == "vast.cube.none-left"
    )  # 2 cubes at Grit 0


def test_a_stat_track_holds_3_cubes__rulebook_cubetti_eroe():
    state = table(knight=KnightRole(grit=18, placed={"movement": 3}))
    assert refused(state, cmd.PlaceHeroCube(target="movement")) == "vast.cube.target-full"


def test_she_moves_one_tile_orthogonally_onto_a_tile__rulebook_muovi_e_agisci():
    state = table(lit(1, 0, "event-01"), lit(1, 1, "event-02"))
    assert refused(state, cmd.MoveKnight(x=1, y=1)) == "vast.move.not-adjacent"
    assert (
        refused(table(lit(1, 0, "event-01"), sealed=False), cmd.MoveKnight(x=-1, y=0)) == "vast.move.no-tile"
    )
    p = Play(state)
    p.do(cmd.MoveKnight(x=1, y=0))
    assert (p.state.knight.x, p.state.knight.y) == (1, 0)


def test_movement_limits_the_tiles_moved__rulebook_statistiche():
    p = Play(table(lit(1, 0, "event-01"), lit(2, 0, "event-02")))
    p.do(cmd.MoveKnight(x=1, y=0))  # Movement 1 without cubes
    assert refused(p.state, cmd.MoveKnight(x=2, y=0)) == "vast.move.no-movement-left"


def test_she_may_move_only_with_an_encounter_left__rulebook_muovi_e_agisci():
    state = table(lit(1, 0, "event-01"), knight=KnightRole(encounters=1, placed={"movement": 1}))
    assert refused(state, cmd.MoveKnight(x=1, y=0)) == "vast.move.no-encounter-left"


def test_walls_block_and_each_ancient_map_cube_crosses_one__rulebook_equipaggiamento_mappa_antica():
    # crystal-04 is a "side" tile: rotation 3 puts its wall on W, facing the Entrance at (0, 0).
    state = table(lit(1, 0, "crystal-04", rotation=3))
    assert refused(state, cmd.MoveKnight(x=1, y=0)) == "vast.move.wall"
    p = Play(state)
    p.do(cmd.PlaceHeroCube(target="map"))
    p.do(cmd.MoveKnight(x=1, y=0))
    assert p.of(ev.KnightMoved)[0].through_wall
    assert p.state.knight.walls_crossed == 1


def test_a_single_wall_between_two_tiles__rulebook_mappa_antica():
    # The Entrance has no wall; the wall on the E side of the tile at (1, 0) also blocks from the west.
    state = table(lit(1, 0, "crystal-04", rotation=3))
    from dicelog.domain.vast.rules.common import geometry

    g = geometry(state)
    assert g.wall_between((0, 0), "E") and g.wall_between((1, 0), "W")


def test_entering_a_dark_tile_spends_an_encounter_and_reveals_it__rulebook_rivelare_e_risolvere():
    p = Play(table(dark(1, 0, "treasure-room-01")))
    p.do(cmd.MoveKnight(x=1, y=0))
    assert p.state.knight.encounters == 1
    revealed = p.of(ev.TileRevealed)
    assert revealed and revealed[0].tile == "treasure-room-01"


def test_a_revealed_tile_turns_an_open_side_toward_where_she_came_from__rulebook_rivelare_e_risolvere():
    # event-15 is a dead end (walls N, E, W at rotation 0): entered from the west (the Entrance),
    # its open side must face west: only rotation 1 (walls E, S, N... open W) qualifies.
    p = Play(table(dark(1, 0, "event-15")))
    p.do(cmd.MoveKnight(x=1, y=0))
    cell = next(c for c in p.state.cells if (c.x, c.y) == (1, 0))
    from dicelog.domain.vast.cave import tile_walls

    assert "W" not in tile_walls(cell.tile, cell.rotation)


def test_the_revealer_chooses_among_rotations_connected_to_the_entrance__rulebook_consigli_rapidi_generali():
    # crystal-07 is a corner (N, E): entered from the west, every rotation leaving W open connects.
    p = Play(table(dark(1, 0, "crystal-07")))
    p.do(cmd.MoveKnight(x=1, y=0))
    pending = p.pending
    assert isinstance(pending, DecisionRequested) and pending.decision == "orient:1,0"
    assert pending.piece == "knight"
    from dicelog.domain.vast.cave import shape_walls

    for option in pending.options:
        assert "W" not in shape_walls("corner", int(option))


def test_the_bomb_removes_a_wall_for_good__rulebook_equipaggiamento_bomba():
    state = table(lit(1, 0, "crystal-04", rotation=3))
    assert refused(state, cmd.UseBomb(side="E")) == "vast.bomb.no-cube"
    p = Play(state)
    p.do(cmd.PlaceHeroCube(target="bomb"))
    assert refused(p.state, cmd.UseBomb(side="N")) == "vast.bomb.no-wall"
    p.do(cmd.UseBomb(side="E"))
    assert p.state.knight.bombs == 2
    p.do(cmd.MoveKnight(x=1, y=0))  # no Map needed now
    assert not p.of(ev.KnightMoved)[0].through_wall


def test_only_the_role_on_turn_acts__vf_7_turn_order():
    with pytest.raises(NotYourTurn):
        Play(table(turn="cave")).do(cmd.MoveKnight(x=1, y=0))


def test_ending_her_turn_passes_to_the_cave_which_collects_omens__rulebook_riepilogo_del_turno():
    p = Play(table())
    p.do(cmd.VastEndTurn(role="knight"))
    assert p.state.turn == "cave"
    assert p.of(ev.OmensCollected)[0].count == 1  # 0 tokens on the map: 1 Omen
