"""Water (001 §Muoversi nell'Acqua; 001 §Condividere le Caselle, note on free actions).

Entering a water space ends a mouse's move, even from another water space. Leaving water takes the
mouse's whole move (``LeaveWater``, no move roll): stepping to an adjacent water space just moves it;
to a dry space it rolls one die for itself plus one per mouse on that space, and a star gets it
there, else it stays. At the end of its turn a mouse on a water space with a current is carried one
space the current's way; carried off the room tile it is captured; a wall or a full space there
stops it (RULINGS.md, Water). Minions ignore water. Mice in water take no free actions.
"""

from __future__ import annotations

from domain.core.commands import Command
from domain.core.errors import RuleBroken
from domain.core.events import DiceRolled, Event, RollRequested
from domain.mice_and_mystics.commands import LeaveWater
from domain.mice_and_mystics.content import library
from domain.mice_and_mystics.events import HourglassAdvanced, LeavingWaterFailed, LeavingWaterStarted, MouseCaptured
from domain.mice_and_mystics.events import MouseMoved, MouseSweptByCurrent
from domain.mice_and_mystics.rules import sections
from domain.mice_and_mystics.rules.combat import STARS, count
from domain.mice_and_mystics.rules.graph import can_enter, mice_on, mouse_neighbours
from domain.mice_and_mystics.rules.links import linked
from domain.mice_and_mystics.rules.turns import check_turn
from domain.mice_and_mystics.state import State, space_of

LEAVE_WATER = "leave-water"
STEP = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}


def in_water(state: State, mouse: str) -> bool:
    space = space_of(state, mouse)
    return space is not None and library().spaces[space].water


def decide_leave_water(state: State, cmd: LeaveWater) -> list[Event]:
    check_turn(state, cmd.mouse)
    turn, here = state.mouse_turn, space_of(state, cmd.mouse)
    assert turn is not None and here is not None
    if not in_water(state, cmd.mouse):
        raise RuleBroken("water.not-in-water", section=sections.WATER, detail=f"{cmd.mouse} is not in water")
    if turn.moved or turn.movement_points is not None or turn.action is not None:
        raise RuleBroken("water.whole-move", section=sections.WATER, detail="leaving water takes the whole move")
    if cmd.space not in dict((*mouse_neighbours(here), *linked(state, here))) or not can_enter(state, cmd.space, "small", ignoring=cmd.mouse):
        raise RuleBroken("water.not-adjacent", section=sections.WATER, detail=f"{cmd.space} cannot be reached from {here}")
    if library().spaces[cmd.space].water:
        return [MouseMoved(mouse=cmd.mouse, origin=here, path=(cmd.space,), cost=1)]
    dice = 1 + len(mice_on(state, cmd.space))
    return [LeavingWaterStarted(mouse=cmd.mouse, space=cmd.space), RollRequested(reason=LEAVE_WATER, dice=dice, piece=cmd.mouse)]


def resolve_leave_water(state: State, answer: DiceRolled) -> list[Event]:
    assert state.mouse_turn is not None and state.water_target is not None
    mouse, target = state.mouse_turn.mouse, state.water_target
    here = space_of(state, mouse)
    if count(answer.faces, STARS) and here is not None and can_enter(state, target, "small", ignoring=mouse):
        return [MouseMoved(mouse=mouse, origin=here, path=(target,), cost=0)]
    return [LeavingWaterFailed(mouse=mouse, space=target)]


def legal_leave_water(state: State, mouse: str) -> list[Command]:
    turn, here = state.mouse_turn, space_of(state, mouse)
    if turn is None or here is None or not in_water(state, mouse) or turn.moved or turn.action is not None:
        return []
    if turn.movement_points is not None:
        return []
    steps = (*mouse_neighbours(here), *linked(state, here))  # Fishhook & Thread counts as adjacent
    return [LeaveWater(mouse=mouse, space=s) for s, _ in steps if can_enter(state, s, "small", ignoring=mouse)]


def current(state: State, mouse: str) -> list[Event]:
    """End of the mouse's turn: the current carries it one space, or off the tile (captured)."""
    here = space_of(state, mouse)
    lib = library()
    if here is None or lib.spaces[here].current is None:
        return []
    tile = lib.tiles[lib.space_tile[here]]
    dx, dy = STEP[lib.spaces[here].current]
    x, y = lib.spaces[here].centre[0] + dx, lib.spaces[here].centre[1] + dy
    if not (0 <= x <= tile.width and 0 <= y <= tile.height):
        from domain.mice_and_mystics.rules.equip import discard_on_capture

        return [
            *discard_on_capture(state, mouse),
            MouseCaptured(mouse=mouse, cheese_discarded=state.cheese.get(mouse, 0)),
            HourglassAdvanced(page=state.hourglass_page + 1, reason="capture"),
        ]
    there = next((s.id for s in tile.spaces if abs(s.centre[0] - x) < 0.01 and abs(s.centre[1] - y) < 0.01), None)
    if there is None or not can_enter(state, there, "small", ignoring=mouse):
        return []
    return [MouseSweptByCurrent(mouse=mouse, origin=here, space=there)]
