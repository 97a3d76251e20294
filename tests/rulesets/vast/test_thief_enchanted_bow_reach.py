"""Vast rulebook, Tesori, Arco Incantato: the Knight's Enchanted Bow hits the Thief "fino a 5 tessere di
distanza in linea retta"; off the map he cannot be shot, nor out of a straight line or past 5 tiles
(``vast.thief.bow``, nothing stored). Knight, Cave and Thief tables on the Knight's turn, the Bow's Hero cube
placed."""

from __future__ import annotations

import pytest

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.state import KnightRole
from tests.rulesets.vast.support import Play, lit, refused
from tests.rulesets.vast.thief_support import OPEN, thief, thief_table

ROW = [lit(x, 0, OPEN) for x in range(1, 8)] + [lit(1, 1, OPEN)]


def bow_table(x: int | None, y: int | None):
    knight = KnightRole(x=0, y=0, treasures=("enchanted-bow",), placed={"enchanted-bow": 1})
    return thief_table(*ROW, knight=knight, th=thief(x, y, stealth=0), turn="knight")


@pytest.mark.parametrize(
    "where, why",
    [((None, None), "off the map"), ((1, 1), "not in a straight line"), ((6, 0), "6 tiles away")],
)
def test_the_enchanted_bow_does_not_reach_the_thief__rulebook_tesori_arco_incantato(where, why):
    """Off the map, off the Knight's row and column, or 6 tiles away: refused, the Thief untouched."""
    assert refused(bow_table(*where), cmd.ShootThief()) == "vast.thief.bow", why


def test_the_enchanted_bow_reaches_5_tiles_in_a_straight_line__rulebook_tesori_arco_incantato():
    """5 tiles east on her row, her Perception 1 above his Stealth 0: he is killed by the Bow."""
    p = Play(bow_table(5, 0))
    p.do(cmd.ShootThief())
    assert p.of(ev.ThiefKilled)[0].why == "bow" and p.state.thief.x is None
