"""Vast rulebook, Il Drago, Poteri: each Power that rolls no die names its target, and a target the Power
cannot take is refused (``vast.dragon.target``) with nothing stored; Il Drago, 3. Posa una Gemma di Drago:
only a Gem of the reserve is placed. Knight, Goblins, Dragon and Cave tables (docs/vast/facts.md §7)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast.state import DragonRole, GoblinsRole, KnightRole
from tests.rulesets.vast.support import Play, dark, lit, refused, tribes
from tests.rulesets.vast.test_dragon import HAND, OPEN, dragon_table


def _table():
    """The Dragon on (1, 0) with a Treasure token next to it on (1, 1), a Lit tile (2, 0), a Dark tile (0, 1),
    the Knight two tiles off on (3, 0) and the Fangs on (2, 0)."""
    gob = GoblinsRole(phase="", tribes=tribes(fangs={"population": 2, "x": 2, "y": 0}))
    return dragon_table(
        lit(1, 0, OPEN),
        lit(1, 1, OPEN, treasure=1),
        lit(2, 0, OPEN),
        lit(3, 0, OPEN),
        dark(0, 1, "ambush-01"),
        knight=KnightRole(x=3, y=0),
        gob=gob,
    )


@pytest.mark.parametrize(
    "command, why",
    [
        (cmd.UsePower(power="wing"), "Wing names the tile it reaches"),
        (cmd.UsePower(power="hiss"), "Hiss names a Tribe"),
        (cmd.UsePower(power="slither", source="hunger", target="hunger"), "Slither moves between two tracks"),
        (cmd.UsePower(power="slither", source="hunger"), "Slither names the track the cube goes to"),
        (cmd.UsePower(power="swat", from_x=1, from_y=1, x=1, y=3), "Swat names the token pushed"),
        (cmd.UsePower(power="swat", from_x=3, from_y=0, token="treasure", x=3, y=2), "not next to it"),
        (cmd.UsePower(power="swat", from_x=1, from_y=1, token="claw", x=1, y=3), "no such Gem on that tile"),
        (cmd.UsePower(power="burn", x=2, y=0), "Burn reveals a Dark tile, not a Lit one"),
        (cmd.UsePower(power="burn"), "Burn names its tile"),
        (cmd.UsePower(power="slap", x=4, y=0), "Slap pushes the Knight from a space next to the Dragon"),
    ],
)
def test_a_power_aimed_at_what_it_cannot_take_is_refused__rulebook_il_drago_poteri(command, why):
    """Vast rulebook, Il Drago, Poteri (Ala, Sibilo, Striscio, Colpo, Bruciatura, Schiaffo): the Power's
    target as the card says it, or the command is refused and the Dragon keeps its cards."""
    state = _table()
    assert refused(state, command) == "vast.dragon.target", why
    assert state.dragon.hand == HAND


def test_a_second_flame_wall_is_refused_while_one_is_on_the_map__rulebook_il_drago_poteri_muro_di_fiamme():
    """Vast rulebook, Il Drago, Poteri, Muro di Fiamme: one Flame Wall token; while it is on the map the Power
    cannot place another (it returns at the Dragon's next turn)."""
    state = _table()
    p = Play(state)
    p.do(cmd.UsePower(power="flame-wall", x=2, y=0, pay=("flame-1", "flame-2", "flame-3")))
    assert p.state.dragon.flame_wall == (2, 0)
    again = replace(p.state, dragon=replace(p.state.dragon, hand=HAND))
    assert refused(again, cmd.UsePower(power="flame-wall", x=1, y=1)) == "vast.dragon.target"


def test_only_a_gem_of_the_reserve_is_placed__rulebook_il_drago_posa_una_gemma_di_drago():
    """Vast rulebook, Il Drago, 3. Posa una Gemma di Drago: the Gem comes from the Dragon's reserve; one it
    has placed already (or never had) is refused (``vast.dragon.no-gem``)."""
    state = replace(_table(), dragon=DragonRole(x=1, y=0, hand=HAND, gems=("flame",)))
    assert refused(state, cmd.PlaceGem(gem="claw")) == "vast.dragon.no-gem"
    p = Play(state)
    p.do(cmd.PlaceGem(gem="flame"))
    here = next(c for c in p.state.cells if (c.x, c.y) == (1, 0))
    assert p.state.dragon.gems == () and "flame" in here.gems
