"""Vast rulebook §Rivelare e risolvere le tessere Buie, §Tessere Caverna, §Cristalli, §Tesori e Gemme, §Tesori
(the Cave), §Eventi: what a reveal sets off, in Vast rulebook's order."""

from __future__ import annotations

import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import DecisionRequested, DrawRequested
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.state import KnightRole
from tests.rulesets.vast.support import Play, dark, lit, table


def test_a_treasure_room_gets_a_treasure_token_then_she_gains_1_grit__rulebook_rivelare_e_risolvere():
    p = Play(table(dark(1, 0, "treasure-room-01")))
    p.do(cmd.MoveKnight(x=1, y=0))
    # treasure-room-01 is open: 3 open edges, filled by the Cave first (Vast rulebook §Tessere Caverna)
    for _ in range(3):
        assert isinstance(p.pending, DecisionRequested) and p.pending.decision.startswith("fill:")
        p.default()
        assert isinstance(p.pending, DrawRequested) and p.pending.reason == "cave-hand"
        p.draw(p.pending.cards[0])
    kinds = [type(e) for e in p.events]
    assert kinds.index(ev.DarkTilePlaced) < kinds.index(ev.TileResolved) < kinds.index(ev.GritChanged)
    cell = next(c for c in p.state.cells if (c.x, c.y) == (1, 0))
    assert cell.treasure == 1 and p.state.knight.grit == 1


def test_the_cave_fills_every_open_edge_from_its_hand_and_refills_to_3__rulebook_tessere_caverna():
    p = Play(table(dark(1, 0, "crystal-01")))
    p.do(cmd.MoveKnight(x=1, y=0))
    fills = 0
    while isinstance(p.pending, DecisionRequested) and p.pending.decision.startswith("fill:"):
        assert p.pending.piece == "cave"
        p.default()
        fills += 1
        assert len(p.state.cave.hand) == 2
        p.draw(p.pending.cards[0])
        assert len(p.state.cave.hand) == 3
    assert fills == 3
    assert not p.state.collapse


def test_on_others_turns_the_cave_need_not_place_crystal_tiles_first__rulebook_tessere_caverna():
    state = table(dark(1, 0, "event-01"))
    state = state.__class__(**{f: getattr(state, f) for f in state.__struct_fields__})
    from msgspec.structs import replace

    state = replace(state, cave=replace(state.cave, hand=("ambush-01", "crystal-02", "event-02")))
    p = Play(state)
    p.do(cmd.MoveKnight(x=1, y=0))
    assert set(p.pending.options) == {"ambush-01", "crystal-02", "event-02"}


def test_a_crystal_tile_gets_a_crystal_token_smashed_with_strength_3_for_2_grit__rulebook_cristalli():
    state = table(lit(1, 0, "crystal-04", rotation=1, crystal=True), knight=KnightRole(x=1, y=0, grit=4))
    with pytest.raises(RuleBroken) as info:
        Play(state).do(cmd.SmashCrystal())
    assert info.value.rule == "vast.crystal.too-weak"
    p = Play(state)
    p.do(cmd.PlaceHeroCube(target="strength"))
    p.do(cmd.PlaceHeroCube(target="strength"))
    p.do(cmd.SmashCrystal())
    assert p.state.knight.smashed == 1 and p.state.knight.grit == 6
    assert not next(c for c in p.state.cells if (c.x, c.y) == (1, 0)).crystal
    assert p.state.knight.encounters == 1


def test_the_cave_draws_2_treasures_gives_1_and_sends_the_other_to_the_bottom__rulebook_tesori():
    p = Play(table(lit(1, 0, "treasure-room-04", rotation=1, treasure=1), knight=KnightRole(x=1, y=0)))
    p.do(cmd.CollectTreasure())
    assert isinstance(p.pending, DrawRequested) and p.pending.count == 2 and p.pending.piece == "cave"
    p.draw("heroic-boots", "javelin")
    assert p.pending.decision == "treasure-choice" and p.pending.piece == "cave"
    p.choose("javelin")
    assert p.state.treasure_bottom == ("heroic-boots",)
    assert p.pending.decision == "keep-treasure" and p.pending.piece == "knight"
    p.choose("keep")
    assert p.state.knight.treasures == ("javelin",)
    assert p.state.cave.supply == 11  # the token went back to the Cave (Vast rulebook §Tesori)


def test_declining_a_treasure_gives_5_grit__rulebook_tesori_e_gemme():
    p = Play(table(lit(1, 0, "treasure-room-04", rotation=1, treasure=1), knight=KnightRole(x=1, y=0)))
    p.do(cmd.CollectTreasure())
    p.draw("heroic-boots", "javelin")
    p.choose("heroic-boots")
    p.choose("decline")
    assert p.state.knight.grit == 5 and p.state.knight.treasures == ()


def test_with_the_treasure_deck_empty_a_token_gives_5_grit__rulebook_tesori_e_gemme():
    state = table(lit(1, 0, "treasure-room-04", rotation=1, treasure=2), knight=KnightRole(x=1, y=0))
    from msgspec.structs import replace

    p = Play(replace(state, treasure_deck=()))
    p.do(cmd.CollectTreasure())
    assert p.state.knight.grit == 10  # both tokens, each resolved alone


def test_the_cave_plays_1_of_3_events_and_the_others_go_to_the_bottom__rulebook_eventi():
    p = Play(table(dark(1, 0, "event-06")))  # a tunnel: no open edge left once turned E-W
    p.do(cmd.MoveKnight(x=1, y=0))
    while isinstance(p.pending, DecisionRequested) and p.pending.decision.startswith(("orient", "fill")):
        p.default()
        if isinstance(p.pending, DrawRequested) and p.pending.reason == "cave-hand":
            p.draw(p.pending.cards[0])
    assert isinstance(p.pending, DrawRequested) and p.pending.deck == "events" and p.pending.count == 3
    p.draw("rats-1", "light", "vantage-point")
    assert p.pending.decision == "event-choice"
    grit = p.state.knight.grit
    p.choose("rats-1")
    assert p.state.event_bottom == ("light", "vantage-point")
    assert "rats-1" not in p.state.event_deck
    assert p.state.knight.grit == max(0, grit - 2) + 1  # Rats -2, then +1 for the reveal
