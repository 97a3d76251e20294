"""The shortcuts that make Vast's rules cheaper per command give what the plain rules give, on every state of
bot games (``bench/vast_bots.py``'s harness) and on maps with Rockslides and Bombs: the walls table
(``cave.shape_walls``), ``Geometry.wall_between`` and ``cave.edge_walled``, the first open edge
(``common.first_open_edge``), ``common.placeable_at``, ``commands.role_of`` by type, and ``legal_commands``
with the Goblins' paths searched once a state (``goblins.known_paths``) against ``decide`` tried on each
candidate."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from dicelog.domain.core import errors
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast.cave import (
    BASE_WALLS,
    OPPOSITE,
    SIDES,
    Geometry,
    edge,
    edge_walled,
    rotate,
    shape_walls,
    step,
    tile_walls,
)
from dicelog.domain.vast.rules import cave_turn, dragon, goblins, knight, thief
from dicelog.domain.vast.rules.common import first_open_edge, geometry, placeable, placeable_at
from dicelog.domain.vast.ruleset import RULESET
from dicelog.domain.vast.state import VastState
from tests.rulesets.vast.test_bots import new_game
from tests.rulesets.vast.test_bots import step as bot_step

POOLS = {
    "knight": knight.candidates,
    "goblins": goblins.candidates,
    "dragon": dragon.candidates,
    "cave": cave_turn.candidates,
    "thief": thief.candidates,
}


def plain_legal(state: VastState) -> list[cmd.VastCommand]:
    """``legal_commands`` as it was before the Goblins' paths were kept: ``decide`` on each candidate."""
    legal = []
    for candidate in POOLS[state.turn](state):  # type: ignore[index]
        try:
            RULESET.decide(state, candidate)
        except errors.RuleBroken:
            continue
        legal.append(candidate)
    return legal


def plain_wall_between(g: Geometry, pos: tuple[int, int], side: str) -> bool:
    """``Geometry.wall_between`` written as it was, the walls of each tile looked up anew."""
    e = edge(pos, side)
    if e in g.bombs:
        return False
    if e in g.rockslides:
        return True

    def walls(p: tuple[int, int]) -> frozenset[str]:
        return tile_walls(*g.lit[p]) if p in g.lit else frozenset()

    return side in walls(pos) or OPPOSITE[side] in walls(step(pos, side))


def check_state(state: VastState) -> int:
    """Every shortcut against its plain form on ``state``; the number of Lit sides compared."""
    g = geometry(state)
    open_edges = [(p, s) for p, s in g.all_open_edges() if (*p, s) not in state.open_left]
    assert first_open_edge(state) == (open_edges[0] if open_edges else None)
    spots = set(placeable(state))
    xs = [c.x for c in state.cells]
    ys = [c.y for c in state.cells]
    for x in range(min(xs) - 2, max(xs) + 3):
        for y in range(min(ys) - 2, max(ys) + 3):
            assert placeable_at(state, (x, y)) == ((x, y) in spots)
    compared = 0
    for c in state.cells:
        for side in SIDES:
            assert g.wall_between((c.x, c.y), side) == plain_wall_between(g, (c.x, c.y), side)
            compared += 1
    return compared


@pytest.mark.parametrize(("row", "n"), [("goblins-vs-cave", 1), ("knight-goblins-dragon-cave-thief", 2)])
def test_shortcuts_match_the_plain_rules_on_every_state_of_a_bot_game(row, n):
    game = new_game(row, n)
    legal_states = sides = 0
    for i in range(140):
        if game is None or game.result is not None:
            break
        state = game.state
        sides += check_state(state)
        if game.pending is None and state.phase == "play" and state.turn is not None:
            assert RULESET.legal_commands(state) == plain_legal(state)
            legal_states += 1
        game = bot_step(game, n, i)
    assert legal_states > 30 and sides > 1000


def test_walls_with_rockslides_and_bombs_match_the_plain_rules():
    game = new_game("knight-goblins-dragon-cave-thief", 2)
    for i in range(60):
        game = bot_step(game, 2, i)
    state = game.state
    lit = [(c.x, c.y) for c in state.cells if c.lit]
    # a Rockslide and a Bomb on sides of Lit tiles: on an open side and on a walled one
    rockslides = tuple(edge(p, s) for p in lit[:3] for s in ("N", "E"))
    bombs = tuple(edge(p, s) for p in lit[3:6] for s in ("S", "W"))
    for state2 in (replace(state, rockslides=rockslides), replace(state, bombs=bombs)):
        check_state(state2)
        g = geometry(state2)
        taken = {(c.x, c.y) for c in state2.cells}
        for c in state2.cells:
            if not c.lit:
                continue
            for side in SIDES:
                if step((c.x, c.y), side) not in taken:
                    walls = tile_walls(c.tile, c.rotation)
                    assert edge_walled((c.x, c.y), side, walls, g.rockslides, g.bombs) == plain_wall_between(
                        g, (c.x, c.y), side
                    )


def test_walls_table_matches_the_shapes_turned():
    for shape, walls in BASE_WALLS.items():
        for rotation in range(-5, 9):
            assert shape_walls(shape, rotation) == frozenset(rotate(s, rotation) for s in walls)
    with pytest.raises(KeyError):
        shape_walls("round", 0)


def test_role_by_type_matches_the_role_lists():
    order = [
        ("knight", cmd.KNIGHT_COMMANDS),
        ("cave", cmd.CAVE_COMMANDS),
        ("goblins", cmd.GOBLIN_COMMANDS),
        ("dragon", cmd.DRAGON_COMMANDS),
        ("thief", cmd.THIEF_COMMANDS),
    ]
    for _, kinds in order:
        for kind in kinds:
            expected = next(role for role, listed in order if issubclass(kind, listed))
            assert cmd._ROLE_BY_TYPE[kind] == expected
    assert cmd.role_of(cmd.VastEndTurn(role="dragon")) == "dragon"
    assert cmd.role_of(cmd.ActivateTribe(tribe="fangs", action="hide")) == "goblins"
