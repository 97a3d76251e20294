"""docs/vast/facts.md §7 Variant cards, Ash Dragon: the Dragon has 1 more Armor (at most 4); a Tribe stronger
than its Armor may attack it (1 Health, Rage -1, the Tribe scatters), and a surfaced Dragon entering such a
Tribe's tile is attacked (Vast rulebook §Limitazioni di Movimento)."""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.state import (
    DragonRole,
    GoblinsRole,
)
from tests.rulesets.vast.support import Play, lit, tribes
from tests.rulesets.vast.test_dragon import HAND, OPEN, dragon_table


def test_the_ash_dragon_has_1_more_armor_and_tribes_attack_it__vf7_ash_dragon():
    gob = GoblinsRole(phase="activate", tribes=tribes(fangs={"population": 2, "x": 1, "y": 0}))
    d = DragonRole(x=1, y=0, hand=HAND, health=2)
    state = replace(
        dragon_table(lit(1, 0, OPEN), gob=gob, dragon=d, turn="goblins"),
        roles=("goblins", "dragon", "cave"),
        knight=None,
        variants=("ash-dragon",),
    )
    from dicelog.domain.vast.rules.common import dragon_armor

    assert dragon_armor(state) == 2  # Armor 1 at Wakefulness 0, +1
    p = Play(state)
    p.do(cmd.ActivateTribe(tribe="fangs", action="attack"))  # Strength 3 > Armor 2
    assert p.of(ev.TribeAttackedDragon) and p.state.dragon.health == 1
    assert p.state.goblins.rage == 0 and p.state.goblins.tribes[0].x is None  # Rage -1, the Tribe scatters
    last = replace(state, dragon=replace(d, health=1))
    q = Play(last)
    q.do(cmd.ActivateTribe(tribe="fangs", action="attack"))
    assert q.state.winner == "goblins"  # docs/vast/facts.md §7: the Goblins must kill the Dragon


def test_a_surfaced_ash_dragon_entering_a_stronger_tribe_is_attacked__rulebook_limitazioni_di_movimento():
    gob = GoblinsRole(phase="", tribes=tribes(bones={"population": 3, "x": 2, "y": 0}))
    d = DragonRole(x=1, y=0, hand=HAND, awake=True, surfaced=True)
    state = replace(
        dragon_table(lit(1, 0, OPEN), lit(2, 0, OPEN), gob=gob, dragon=d),
        roles=("goblins", "dragon", "cave"),
        knight=None,
        variants=("ash-dragon",),
    )
    p = Play(state)
    p.do(cmd.MoveDragon(x=2, y=0))  # Bones Strength 3 > Armor 2
    assert p.of(ev.TribeAttackedDragon)[0].tribe == "bones" and p.state.dragon.health == 4
