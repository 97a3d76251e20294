"""Tables for the Thief's rule tests (Vast rulebook §Il Ladro; docs/vast/facts.md §6): a table built by hand
with the Thief in play, his board as a turn already under way (Stat tokens assigned, Action cubes taken), and
the start of his turn driven through the ruleset's own ``start_turn``. Dice, cards and decisions are explicit
(``support.Play``)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from dicelog.domain.vast.rules.flow import start_turn, then_advance
from dicelog.domain.vast.state import TURN_ORDER, DragonRole, GoblinsRole, KnightRole, ThiefRole, VastState
from tests.rulesets.vast.support import Play, goblin_table, table

OPEN = "treasure-room-01"
"""An open tile: no walls."""
TUNNEL = "ambush-05"
"""Walls N and S at rotation 0."""
SIDE = "ambush-08"
"""A wall on N at rotation 0."""
HAND = ("claw-1", "claw-2", "claw-3", "flame-1", "flame-2", "flame-3", "wing-1", "wing-2")
"""The Dragon's Power cards in the tests that need it."""


def thief(
    x: int | None = 0,
    y: int | None = 0,
    *,
    movement: int = 3,
    stealth: int = 3,
    thievery: int = 4,
    cubes: int | None = None,
    **kw: Any,
) -> ThiefRole:
    """The Thief's board in the middle of his turn: Stat tokens assigned, ``cubes`` Action cubes left
    (Thievery unless given), on ``x``, ``y`` (the Entrance unless given)."""
    return ThiefRole(
        x=x,
        y=y,
        movement=movement,
        stealth=stealth,
        thievery=thievery,
        assigned=True,
        cubes=thievery if cubes is None else cubes,
        **kw,
    )


def thief_table(
    *cells: Any,
    th: ThiefRole | None = None,
    roles: tuple[str, ...] = ("knight", "cave", "thief"),
    turn: str = "thief",
    knight: KnightRole | None = None,
    gob: GoblinsRole | None = None,
    dragon: DragonRole | None = None,
    **kw: Any,
) -> VastState:
    """A table in play with the Thief and ``roles`` (in turn order: docs/vast/facts.md §7); the Entrance plus
    ``cells``, open edges sealed with Dark tiles; 12 Treasure tokens (Vast rulebook §La Caverna,
    Preparazione). The Knight on the Entrance and the Thief on the Entrance unless given; the Dragon at (1, 0)
    with ``HAND``."""
    roles = tuple(r for r in TURN_ORDER if r in roles)
    if "goblins" in roles:
        state = goblin_table(*cells, gob=gob, knight=knight, turn=turn, **kw)
    else:
        state = table(*cells, knight=knight, turn=turn, **kw)
    cave = state.cave if "cave" in roles else None
    if cave is not None and "cave" not in kw:
        cave = replace(cave, supply=12)
    return replace(
        state,
        roles=roles,
        treasure_tokens=12,
        thief=th or thief(),
        knight=state.knight if "knight" in roles else None,
        cave=cave,
        goblins=state.goblins if "goblins" in roles else None,
        dragon=(dragon or DragonRole(x=1, y=0, hand=HAND)) if "dragon" in roles else None,
    )


def all_roles(*cells: Any, **kw: Any) -> VastState:
    """The 5-player table (docs/vast/facts.md §7): every role in play."""
    return thief_table(*cells, roles=TURN_ORDER, **kw)


def thief_turn(state: VastState) -> Play:
    """A ``Play`` of ``state`` once the Thief's turn has started (Vast rulebook §Riepilogo del Turno: back on
    the Entrance when off the map, then his Stat tokens)."""
    p = Play(replace(state, turn=None))
    p._take(then_advance(p.state, start_turn(p.state, "thief", p.state.round or 1)))
    return p
