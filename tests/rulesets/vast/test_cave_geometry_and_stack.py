"""docs/vast/facts.md §1 (Cave tiles, Tile stack setup), docs/vast/facts.md §4 (Dragon die), Vast rulebook
§Equipaggiamento (a single wall), Vast rulebook §Consigli Rapidi - Generali (orientation toward the Entrance):
the cave's geometry, the stack and the die."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import msgspec
from msgspec.structs import replace

from dicelog.domain.core.dice import draw_cards
from dicelog.domain.core.events import DrawRequested, GameCreated
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.cave import DRAGON_DIE, Geometry, center_hit, die_tiles, shape_walls
from dicelog.domain.vast.content import card_file, tiles
from dicelog.domain.vast.rules.common import tile_draw
from dicelog.domain.vast.rules.setup import begin, initial_state
from tests.rulesets.vast.support import Play, table


def test_52_tiles_by_kind_and_symbol__vf_1_cave_tiles():
    kinds = Counter(t.kind for t in tiles().values())
    assert kinds == {"entrance": 1, "ambush": 15, "event": 15, "treasure-room": 6, "crystal": 9, "vault": 6}
    for kind in ("ambush", "event"):
        assert Counter(t.symbol for t in tiles().values() if t.kind == kind) == {
            "fangs": 5,
            "bones": 5,
            "eye": 5,
        }
    f = card_file()
    assert (len(f.treasures), len(f.events), len(f.sidequests)) == (7, 15, 10)


def test_wall_shapes_turn_clockwise__vf_1_cave_tiles():
    assert shape_walls("side", 0) == {"N"} and shape_walls("side", 1) == {"E"}
    assert shape_walls("corner", 2) == {"S", "W"}
    assert shape_walls("tunnel", 1) == {"E", "W"}
    assert shape_walls("deadend", 3) == {"W", "N", "S"}


def test_the_dragon_die_has_six_patterns_three_hitting_the_center__vf_4_dragon_die():
    assert [DRAGON_DIE[f][0] for f in range(1, 7)] == [
        "center",
        "diamond",
        "cross",
        "corners",
        "saltire",
        "around",
    ]
    assert [f for f in range(1, 7) if center_hit(f)] == [1, 3, 5]
    assert len(die_tiles((2, 3), 6)) == 8 and (2, 3) not in die_tiles((2, 3), 6)


def test_a_revealed_tile_connects_to_the_entrance_when_it_can__rulebook_consigli_rapidi_generali():
    # (1,0) Lit open; reveal a corner at (2,0) with no source: it must keep W open to reach the Entrance.
    g = Geometry({(0, 0), (1, 0), (2, 0)}, {(0, 0): ("entrance", 0), (1, 0): ("event-01", 0)})
    for r in g.reveal_rotations((2, 0), "crystal-07", None):
        assert "W" not in shape_walls("corner", r)
    # Isolated by a Rockslide: every distinct rotation is allowed (the revealer's choice).
    g = Geometry(
        {(0, 0), (1, 0), (2, 0)}, {(0, 0): ("entrance", 0), (1, 0): ("event-01", 0)}, rockslides={(1, 0, "E")}
    )
    assert len(g.reveal_rotations((2, 0), "crystal-07", None)) == 4


def test_setup_places_4_dark_tiles_round_the_entrance_and_builds_3_piles_of_crystals__vf_1_tile_stack():
    created = GameCreated(ruleset="vast", setup=msgspec.Raw(b'{"roles":["knight","cave"]}'), seats=())
    state = initial_state(created)
    assert len(state.stack) == 36 and len(state.crystals) == 9  # no Vault tiles without the Thief
    p = Play(state)
    p._take(begin(state))
    assert isinstance(p.pending, DrawRequested) and p.pending.count == 4
    assert all(tiles()[c].kind != "crystal" for c in p.pending.cards)
    p.draw("ambush-01", "event-01", "event-02", "treasure-room-01")
    assert {(c.x, c.y) for c in p.state.cells} == {(0, 0), (0, 1), (1, 0), (0, -1), (-1, 0)}
    assert p.of(ev.StackBuilt)[0] == ev.StackBuilt(piles=(14, 14, 13), pile_crystals=(3, 3, 3))
    removed = {"daring", "eagle-eyed"}  # docs/vast/facts.md §7 Knight vs Cave
    assert not removed & set(p.state.sidequest_deck) and len(p.state.sidequest_deck) == 8


def test_the_next_tile_is_a_crystal_with_the_top_piles_odds__vf_1_tile_stack():
    state = replace(
        table(), stack=("ambush-02", "ambush-03", "ambush-04"), crystals=("crystal-01", "crystal-02")
    )
    state = replace(state, piles=(4, 5), pile_crystals=(1, 1))  # top pile: 3 plain + 1 Crystal
    draw = tile_draw(state, "cave-hand")
    weights = dict(zip(draw.cards, draw.weights, strict=True))
    total = sum(weights.values())
    p_crystal = Fraction(sum(w for c, w in weights.items() if c.startswith("crystal")), total)
    assert p_crystal == Fraction(1, 4)
    assert len({w for c, w in weights.items() if c.startswith("ambush")}) == 1  # each plain tile alike


def test_weighted_server_draws_follow_the_weights():
    counts = Counter(draw_cards(bytes(32), k, ("a", "b"), 1, (1, 3))[0] for k in range(4000))
    assert 0.70 < counts["b"] / 4000 < 0.80


def test_drawing_from_an_exhausted_pile_moves_to_the_next__vf_1_tile_stack():
    state = replace(table(), piles=(1, 3), pile_crystals=(1, 1), crystals=("crystal-01", "crystal-02"))
    p = Play(state)
    p._take([tile_draw(state, "cave-hand")])
    p.draw("crystal-01")
    assert p.state.piles == (0, 3) and p.state.pile_crystals == (0, 1)
