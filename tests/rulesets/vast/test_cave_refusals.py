"""The Cave's turn refuses what the rulebook does not allow, naming the rule, with nothing stored (Vast
rulebook, La Caverna: 2. Modella la Caverna, 3. Piazza un Tesoro, Il Collasso, Presagi). Knight vs Cave
tables on the Cave's turn, Dark tiles sealing the map."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.state import CaveRole
from tests.rulesets.vast.support import Play, dark, lit, refused, table

OPEN = "treasure-room-01"  # no walls
TUNNEL = "ambush-05"  # walls N and S at rotation 0
HAND = ("ambush-01", "event-01", "treasure-room-01")
OMENS = ("mushroom-1", "trail-1", "chasm-1", "bat-1", "boulder-1", "quartz-1")
SPORES = ("quartz-1", "mushroom-1", "trail-1")  # Soporific Spores: 3 tokens (docs/vast/facts.md §5 Omens)


def cave_table(**kw):
    """The Entrance, a Lit open tile east of it (1, 0), a Lit tunnel (0, 1) (walls N and S), a Dark tile
    (2, 0); the Cave holding ``OMENS``, on its turn."""
    cells = (lit(1, 0, OPEN), lit(0, 1, TUNNEL), dark(2, 0, "ambush-02"))
    return table(*cells, cave=CaveRole(hand=HAND, omens=OMENS), turn="cave", **kw)


def test_no_tile_is_placed_during_the_collapse_and_none_is_removed_before_it__rulebook_il_collasso():
    """Vast rulebook, La Caverna, Il Collasso: once it has begun the Cave removes tiles instead of placing
    them (``vast.shape.collapsing``); before it, a tile is never removed (``vast.collapse.not-begun``)."""
    state = cave_table()
    assert refused(replace(state, collapse=True), cmd.PlaceTile(tile="ambush-01", x=3, y=0)) == (
        "vast.shape.collapsing"
    )
    assert refused(state, cmd.RemoveTile(x=2, y=0)) == "vast.collapse.not-begun"


def test_only_a_tile_of_the_hand_is_placed__rulebook_la_caverna_modella_la_caverna():
    """Vast rulebook, La Caverna, 2. Modella la Caverna: the Cave places a tile of its hand; another is
    refused (``vast.shape.not-in-hand``)."""
    assert refused(cave_table(), cmd.PlaceTile(tile="ambush-09", x=3, y=0)) == "vast.shape.not-in-hand"


def test_no_treasure_is_placed_from_an_empty_supply__rulebook_la_caverna_piazza_un_tesoro():
    """Vast rulebook, La Caverna, 3. Piazza un Tesoro: a token from the Cave's supply; with none left the
    step is refused (``vast.treasure.no-token``)."""
    state = cave_table()
    empty = replace(state, cave=replace(state.cave, supply=0))
    assert refused(empty, cmd.PlaceTreasure(x=2, y=0)) == "vast.treasure.no-token"


def test_hatred_before_the_collapse_names_the_tile_it_places__rulebook_la_caverna_presagi_disprezzo():
    """Vast rulebook, La Caverna, Presagi, Disprezzo: before the Collapse it places another tile, which the
    command names (``vast.omen.no-tile``); the Omen token is not spent."""
    state = cave_table()
    assert refused(state, cmd.Hatred(pay=("mushroom-1",), x=3, y=0)) == "vast.omen.no-tile"
    p = Play(state)
    p.do(cmd.Hatred(pay=("mushroom-1",), x=3, y=0, tile="ambush-01"))
    assert "mushroom-1" not in p.state.cave.omens and (3, 0) in {(c.x, c.y) for c in p.state.cells}


@pytest.mark.parametrize("target", ["goblins", "dragon"])
def test_soporific_spores_on_a_player_not_in_play_are_refused__rulebook_la_caverna_presagi(target):
    """Vast rulebook, La Caverna, Presagi, Spore Soporifere: they act on a player at the table; in Knight vs
    Cave the Goblins and the Dragon are not (``vast.omen.no-target``)."""
    assert refused(cave_table(), cmd.SoporificSpores(pay=SPORES, target=target)) == ("vast.omen.no-target")


@pytest.mark.parametrize(
    "x, y, side, rule",
    [
        (2, 0, "E", "vast.omen.rockslide-edge"),  # (2, 0) is Dark, and no Lit tile is east of it
        (0, 1, "S", "vast.omen.rockslide-wall"),  # the tunnel's south wall
    ],
)
def test_a_rockslide_goes_on_an_open_edge_by_a_lit_tile__rulebook_la_caverna_presagi_frana(x, y, side, rule):
    """Vast rulebook, La Caverna, Presagi, Frana: between two tiles, at least one of them Lit, where there is
    no wall already."""
    assert refused(cave_table(), cmd.Rockslide(pay=("bat-1", "boulder-1"), x=x, y=y, side=side)) == rule


def test_giant_bats_carry_a_treasure_token_from_a_tile_that_has_one__rulebook_la_caverna_presagi():
    """Vast rulebook, La Caverna, Presagi, Pipistrelli Giganti: a Treasure token moves from the tile named;
    a tile without one is refused (``vast.omen.no-treasure``)."""
    command = cmd.GiantBats(pay=("bat-1",), target="treasure", from_x=1, from_y=0, x=0, y=0)
    assert refused(cave_table(), command) == "vast.omen.no-treasure"


def test_crystal_curse_sends_no_event_card_down_when_none_is_left__rulebook_la_caverna_presagi():
    """Vast rulebook, La Caverna, Presagi, Maledizione del Cristallo: the top 3 Event cards go to the bottom
    of the deck; with no Event card left it is refused (``vast.omen.no-events``)."""
    state = cave_table(event_deck=(), event_bottom=())
    assert (
        refused(state, cmd.CrystalCurse(pay=("trail-1",), effect="events-to-bottom")) == "vast.omen.no-events"
    )


def test_no_rockslide_is_placed_with_none_in_supply_or_on_the_map__rulebook_la_caverna_presagi_frana():
    """Vast rulebook, La Caverna, Presagi, Frana: 3 Rockslide tokens; with all on the map one moves, and with
    none in the supply nor on the map there is none to place (``vast.omen.no-rockslide``)."""
    state = cave_table()
    none_left = replace(state, cave=replace(state.cave, rockslides=0), rockslides=())
    assert refused(none_left, cmd.Rockslide(pay=("bat-1", "boulder-1"), x=0, y=0, side="E")) == (
        "vast.omen.no-rockslide"
    )


def test_crystal_curse_sends_the_bottom_cards_down_again_when_the_deck_is_drawn_out__rulebook_presagi():
    """Vast rulebook, La Caverna, Presagi, Maledizione del Cristallo: the top 3 Event cards go to the bottom;
    with the deck drawn out the top cards are the bottom's first ones, which go under the others."""
    state = cave_table(event_deck=(), event_bottom=("light", "rats-1", "vantage-point", "ambush-1"))
    p = Play(state)
    p.do(cmd.CrystalCurse(pay=("trail-1",), effect="events-to-bottom"))
    assert p.of(ev.EventsSentToBottom) == [ev.EventsSentToBottom(cards=("light", "rats-1", "vantage-point"))]
    assert "trail-1" not in p.state.cave.omens
