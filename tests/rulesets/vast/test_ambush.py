"""Vast rulebook §Rivelare e risolvere le tessere Buie (Imboscata) with docs/vast/facts.md §7 Goblin
Infestation line B (the Knight vs Cave setup): Strength against 3, the Dragon die at equal Strength, the
Cave's win on an Ambush kill."""

from __future__ import annotations

from dicelog.domain.core.events import RollRequested
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.rules.flow import ambush
from dicelog.domain.vast.state import KnightRole
from tests.rulesets.vast.support import Play, fold, table


def ambushed(knight: KnightRole) -> Play:
    p = Play(table(knight=knight))
    p._take(ambush(p.state))
    return p


def test_she_may_first_put_cubes_on_strength__rulebook_imboscata():
    p = ambushed(KnightRole(grit=5))  # 3 cubes free, Strength 1
    assert p.pending.decision == "ambush-cubes" and p.pending.piece == "knight"
    assert p.pending.options == ("0", "1", "2", "3") and p.pending.default == "3"
    p.choose("3")  # Strength 4 > 3
    assert p.of(ev.VastAmbushResolved)[-1].hurt is False
    assert p.state.knight.health == 7


def test_weaker_than_the_ambusher_she_loses_1_health__vf_7_goblin_infestation():
    p = ambushed(KnightRole(placed={"movement": 2}))  # no cube left: Strength 1 < 3
    assert p.of(ev.VastAmbushResolved)[-1].hurt
    assert p.state.knight.health == 6


def test_at_equal_strength_the_dragon_die_decides__vf_7_goblin_infestation():
    for face, hurt in ((1, True), (2, False), (3, True), (4, False), (5, True), (6, False)):
        p = ambushed(KnightRole(placed={"strength": 2}))  # Strength 3
        assert isinstance(p.pending, RollRequested) and p.pending.reason == "ambush"
        p.roll(face)
        assert p.of(ev.VastAmbushResolved)[-1].hurt is hurt, face


def test_an_ambush_that_kills_the_knight_wins_for_the_cave__vf_7_knight_vs_cave():
    p = ambushed(KnightRole(health=1, placed={"movement": 2}))
    assert any(isinstance(e, ev.KnightDied) for e in p.events)
    from dicelog.domain.vast.rules.flow import advance

    won = advance(p.state)
    assert won == [ev.GameWon(winner="cave", reason="the Knight died in an Ambush")]
    assert fold(p.state, won).winner == "cave"


def test_entering_an_ambush_tile_ambushes_her__rulebook_rivelare_e_risolvere_imboscata():
    from tests.rulesets.vast.support import dark

    p = Play(table(dark(1, 0, "ambush-05"), knight=KnightRole(placed={"movement": 2})))  # a tunnel
    p.do(cmd.MoveKnight(x=1, y=0))
    while p.pending is not None and getattr(p.pending, "decision", "").startswith(("orient", "fill")):
        p.default()
        if getattr(p.pending, "reason", "") == "cave-hand":
            p.draw(p.pending.cards[0])
    assert p.of(ev.VastAmbushResolved)
