"""docs/vast/facts.md §7 Variant cards, Flare: the Dragon die rolled round a space reveals every Dark tile it
hits; the Knight once a turn anywhere with no Encounter, each Goblin Tribe once a turn on its own space, the
Thief on his own space for 1 Action cube; only the setups whose variant cards hand it out."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import (
    DecisionRequested,
    RollRequested,
)
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.state import GoblinsRole
from tests.rulesets.vast.support import Play, dark, lit, refused, table, tribes
from tests.rulesets.vast.test_no_cave_player import goblins_vs_cave
from tests.rulesets.vast.thief_support import OPEN, thief_table


def test_flare_reveals_the_dark_tiles_the_dragon_die_hits_once_a_turn__vf_7_flare():
    p = Play(table(dark(2, 0, "crystal-01"), lit(1, 0, "event-01"), dark(2, 1, "crystal-02")))
    p.do(cmd.UseFlare(x=2, y=0))
    assert p.pending.reason == "flare:2,0" and p.pending.piece == "knight"
    p.roll(1)  # center only
    assert p.of(ev.FlareHit)[0].reveals == ((2, 0),)
    while p.pending is not None:
        if isinstance(p.pending, DecisionRequested):
            p.default()
        else:
            p.draw(p.pending.cards[0])
    assert next(c for c in p.state.cells if (c.x, c.y) == (2, 0)).crystal
    assert (
        p.state.knight.grit == 0 and p.state.knight.encounters == 0
    )  # no Grit, no Encounter (docs/vast/rulings.md)
    with pytest.raises(RuleBroken) as info:
        p.do(cmd.UseFlare(x=2, y=1))
    assert info.value.rule == "vast.flare.used"


def test_the_knight_lights_flare_only_with_its_variant_card__vf_7_variant_cards():
    """From rules revision 4 Flare is the Knight's only in the setups that hand her the card
    (docs/vast/facts.md §7: Knight, Goblins and Cave; Knight vs Cave); earlier games keep their rules."""
    base = table(dark(2, 0, "ambush-01"), rules_revision=4)
    with pytest.raises(RuleBroken) as refused:
        Play(base).do(cmd.UseFlare(x=2, y=0))
    assert refused.value.rule == "vast.flare.not-in-play"
    p = Play(replace(base, variants=("flare:knight", "infestation:B")))
    p.do(cmd.UseFlare(x=2, y=0))
    assert p.state.knight.flare_used
    old = Play(replace(base, rules_revision=3))
    old.do(cmd.UseFlare(x=2, y=0))
    assert old.state.knight.flare_used


def test_each_tribe_lights_flare_once_a_turn_on_its_own_space__vf_7_flare():
    gob = GoblinsRole(phase="activate", tribes=tribes(eye={"population": 2, "x": 1, "y": 0}))
    p = Play(goblins_vs_cave(lit(1, 0, OPEN), dark(2, 0, "crystal-02", "eye"), gob=gob))
    p.do(cmd.TribeFlare(tribe="eye"))
    used = p.of(ev.FlareUsed)[0]
    assert (used.x, used.y, used.tribe) == (1, 0, "eye")
    assert isinstance(p.pending, RollRequested) and p.pending.piece == "goblins"
    p.roll(3)  # the cross: the 4 tiles round the centre
    assert p.of(ev.FlareHit)[0].by == "goblins" and (2, 0) in p.of(ev.FlareHit)[0].reveals
    p.settle()
    revealed = next(e for e in p.of(ev.TileRevealed) if (e.x, e.y) == (2, 0))
    assert revealed.by == "goblins" and revealed.mode == "goblin-flare"
    assert next(c for c in p.state.cells if (c.x, c.y) == (2, 0)).crystal  # its token, nothing else
    assert refused(p.state, cmd.TribeFlare(tribe="eye")) == "vast.goblins.flare"  # once a turn


def test_flare_needs_the_card_and_a_tribe_on_the_map__vf_7_flare():
    gob = GoblinsRole(phase="activate", tribes=tribes(eye={"population": 2, "x": 1, "y": 0}))
    state = goblins_vs_cave(lit(1, 0, OPEN), gob=gob)
    assert refused(replace(state, variants=()), cmd.TribeFlare(tribe="eye")) == "vast.goblins.flare"
    assert refused(state, cmd.TribeFlare(tribe="fangs")) == "vast.goblins.flare"  # on its board
    assert refused(replace(state, goblins=replace(gob, phase="war")), cmd.TribeFlare(tribe="eye")) == (
        "vast.goblins.flare"
    )


def test_the_thiefs_flare_costs_a_cube_and_reveals_round_his_tile__vf_7_variant_cards_flare():
    cells = (dark(1, 0, "treasure-room-02"), lit(-1, 0, OPEN))
    assert refused(thief_table(*cells), cmd.ThiefFlare()) == "vast.flare.not-in-play"
    p = Play(
        thief_table(*cells, roles=("cave", "thief"), variants=("flare:thief", "place-treasure-optional"))
    )
    p.do(cmd.ThiefFlare())
    assert p.state.thief.cubes == 3
    assert isinstance(p.pending, RollRequested) and p.pending.reason == "thief-flare:0,0"
    p.roll(2)  # diamond: the 4 tiles round him
    p.settle()
    hit = p.of(ev.FlareHit)[0]
    assert hit.by == "thief" and (1, 0) in hit.reveals
    assert all(e.by == "thief" for e in p.of(ev.TileRevealed))
    assert next(c for c in p.state.cells if (c.x, c.y) == (1, 0)).lit
