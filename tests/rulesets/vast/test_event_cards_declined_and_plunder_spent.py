"""Choices the rules leave to the player that no test took (issue 30): the Knight declining Light and Fresh
Air (docs/vast/facts.md §2 Event cards; Vast rulebook, Eventi), and Past Plunder with nothing to place
(docs/vast/facts.md §7 Variant cards). Tables are laid by hand and played with explicit commands."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.rules.flow import play_event
from dicelog.domain.vast.state import GoblinsRole, KnightRole
from tests.rulesets.vast.support import Play, lit, table
from tests.rulesets.vast.test_no_cave_player import OPEN, no_cave


@pytest.mark.parametrize("card, spend", [("light", "discard-cube"), ("fresh-air", "spend-cube")])
def test_the_knight_may_decline_light_and_fresh_air__docs_vast_facts_event_cards(card, spend):
    """docs/vast/facts.md §2 Event cards, Light and Fresh Air: she may give a Hero cube to heal; declining
    (``no``) keeps her cubes and her Health as they are."""
    p = Play(table(knight=KnightRole(grit=5, health=4)))
    p._take(play_event(p.state, card, ()))
    assert p.pending.options == (spend, "no")
    p.choose("no")
    k = p.state.knight
    assert (k.health, k.discarded, k.placed) == (4, 0, {})


def test_past_plunder_with_no_treasure_token_left_places_none__docs_vast_facts_past_plunder():
    """docs/vast/facts.md §7 Variant cards, Past Plunder: a Treasure token from the supply; with every token
    in play the step passes and the turn goes on to its Dark tile."""
    state = no_cave(lit(1, 0, OPEN), turn="goblins", gob=GoblinsRole(phase="activate"))
    p = Play(replace(state, treasure_tokens=0))
    p.do(cmd.VastEndTurn(role="goblins"))
    assert ev.StepPassed(step="plunder", why="no Treasure token is left") in p.events
    assert p.pending.decision == "shape"


def test_past_plunder_with_no_free_dark_tile_and_no_tile_left_places_none__docs_vast_facts_past_plunder():
    """docs/vast/facts.md §7 Variant cards, Past Plunder: with no free Dark tile a new one is drawn first;
    with the stack empty too, the step passes."""
    state = no_cave(lit(1, 0, OPEN), turn="goblins", gob=GoblinsRole(phase="activate"))
    full = tuple(c if c.lit else replace(c, treasure=1) for c in state.cells)
    empty = replace(
        state, cells=full, stack=(), crystals=(), piles=(0,), pile_crystals=(0,), treasure_tokens=12
    )
    p = Play(empty)
    p.do(cmd.VastEndTurn(role="goblins"))
    why = "no Dark tile free and no tile left to place"
    assert ev.StepPassed(step="plunder", why=why) in p.events
