"""Without a Cave player, every role's bot removes the Collapse's tiles so that the fifth Crystal tile
collapses as late as it can (``dicelog.domain.vast.bot.collapse_choice``): everyone loses then (Vast rulebook
§Il Collasso, §Varianti; docs/vast/facts.md §7, No Cave player)."""

from __future__ import annotations

import random

from msgspec.structs import replace

from dicelog.domain.vast import bot
from dicelog.domain.vast.state import HIDDEN
from tests.rulesets.vast.support import dark, lit, table

OPEN = "treasure-room-01"


def no_cave(*cells):
    state = table(*cells, sealed=False)
    return replace(state, roles=("knight", "goblins"), cave=None)


def test_of_the_tiles_the_order_allows_it_removes_one_far_from_crystal_tiles__rulebook_il_collasso():
    """(1, 0) touches the Crystal tile (2, 0): removing it brings that tile nearer its turn; (0, 1) touches
    none, and goes first."""
    view = no_cave(lit(1, 0, OPEN), lit(2, 0, "crystal-01"), lit(0, 1, OPEN))
    pending = {"decision": "collapse-remove", "default": "1,0", "piece": "knight"}
    assert bot.decide(view, pending, ["1,0", "0,1"], random.Random(0)) == "0,1"


def test_a_dark_tile_it_cannot_see_may_be_a_crystal_tile_a_lit_one_goes_first__rulebook_il_collasso():
    """A Dark tile removed is turned over and counts if it is a Crystal tile: the Lit tile goes first; a
    Crystal tile the seat sees goes last of all."""
    view = no_cave(dark(1, 0, HIDDEN), lit(-1, 0, OPEN), lit(0, 1, "crystal-02"))
    assert bot.collapse_choice(view, ["1,0", "-1,0"]) == "-1,0"
    assert bot.collapse_choice(view, ["0,1", "1,0"]) == "1,0"


def test_with_a_cave_player_the_decision_keeps_its_default():
    """With a Cave player the Collapse is its own (``RemoveTile``); a ``collapse-remove`` asked of anyone else
    keeps the documented default."""
    view = replace(no_cave(lit(1, 0, OPEN), lit(2, 0, "crystal-01"), lit(0, 1, OPEN)), cave=table().cave)
    pending = {"decision": "collapse-remove", "default": "1,0", "piece": "knight"}
    assert bot.decide(view, pending, ["1,0", "0,1"], random.Random(0)) == "1,0"
