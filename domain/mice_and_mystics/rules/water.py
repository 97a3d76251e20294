"""Water (MM rulebook (it) §Muoversi nell'Acqua; MM rulebook (it) §Condividere le Caselle, note on free
actions).

Entering a water space ends a mouse's move, even from another water space. Leaving water takes the
mouse's whole move (``LeaveWater``, no move roll): stepping to an adjacent water space just moves it;
to a dry space it rolls one die for itself plus one per mouse on that space, and a star gets it
there, else it stays. At the end of its turn a mouse on a water space with a current is carried one
space the current's way; carried off the room tile it is captured; a wall or a full space there
stops it (docs/mice-and-mystics/rulings.md, Mousetraps and water). Leaving water is the mouse's move, so it
may come before or after its action (MM rulebook (it) §Il Turno di un Topo) and obeys the other move rules: a
webbed mouse cannot, a knocked-down one stands up instead (MM rulebook (it) §Atterrato), and more minions than
mice on its space hold it (MM rulebook (it) §Condividere le Caselle). A capture by a current is made like any
other (``combat.capture_mouse``: Poison Master, Escape Artist). Minions ignore water. Mice in water take no
free actions.
"""

from __future__ import annotations

from dicelog.domain.core.commands import Command
from dicelog.domain.core.errors import InvariantViolated, RuleBroken
from dicelog.domain.core.events import DiceRolled, Event, RollRequested
from dicelog.domain.mice_and_mystics.commands import LeaveWater
from dicelog.domain.mice_and_mystics.events import (
    LeavingWaterFailed,
    LeavingWaterStarted,
    MouseMoved,
    MouseSweptByCurrent,
)
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import sections
from dicelog.domain.mice_and_mystics.rules.combat import capture_mouse
from dicelog.domain.mice_and_mystics.rules.dice import STARS, count
from dicelog.domain.mice_and_mystics.rules.graph import can_enter, mice_on, mouse_neighbours
from dicelog.domain.mice_and_mystics.rules.links import linked
from dicelog.domain.mice_and_mystics.rules.movement import KNOCKED_DOWN, check_not_held
from dicelog.domain.mice_and_mystics.rules.turns import check_turn
from dicelog.domain.mice_and_mystics.state import State, space_of

LEAVE_WATER = "leave-water"
STEP = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}


def in_water(state: State, mouse: str) -> bool:
    space = space_of(state, mouse)
    return space is not None and library_of(state).spaces[space].water


def check_can_leave_water(state: State, mouse: str) -> None:
    """Refuse ``LeaveWater`` unless ``mouse`` (whose turn it is) stands in water and may still make its
    move: before or after its action (MM rulebook (it) §Il Turno di un Topo: "1 Azione e poi muovere, oppure
    prima muovere"), not once it moved or rolled to move. Errors: ``water.not-in-water``; ``water.whole-move``
    (already moved); ``water.knocked-down`` (MM rulebook (it) §Atterrato: its whole move stands it up, with
    ``Move``); then, as for any move, ``move.held-by-minions`` and ``move.webbed``
    (``movement.check_not_held``)."""
    check_turn(state, mouse)
    turn, here = state.mouse_turn, space_of(state, mouse)
    if turn is None or here is None:
        raise InvariantViolated("mouse-on-board", f"check_turn passed but {mouse} has no turn or no space")
    if not in_water(state, mouse):
        raise RuleBroken("water.not-in-water", section=sections.WATER, detail=f"{mouse} is not in water")
    if turn.moved or turn.movement_points is not None:
        raise RuleBroken(
            "water.whole-move", section=sections.WATER, detail="leaving water takes the whole move"
        )
    if KNOCKED_DOWN in state.effects.get(mouse, ()):
        detail = f"{mouse} is knocked down: its move stands it up (Move)"
        raise RuleBroken("water.knocked-down", section=sections.NEGATIVE_EFFECTS, detail=detail)
    check_not_held(state, mouse, here)


def against_current(state: State, here: str, there: str) -> bool:
    """Whether stepping from water space ``here`` to water space ``there`` goes against ``here``'s
    current (MM rulebook (pt) §Movendo-se na água: «O rato que se mover na água não pode ir contra a direção
    da correnteza»; rules revision 2). A step across the current, or out of the water, is not against it
    (docs/mice-and-mystics/rulings.md, Mousetraps and water)."""
    lib = library_of(state)
    flow = lib.spaces[here].current
    if state.rules_revision < 2 or flow is None or not lib.spaces[there].water:
        return False
    dx, dy = STEP[flow]
    (x0, y0), (x1, y1) = lib.spaces[here].centre, lib.spaces[there].centre
    return dx * (x1 - x0) + dy * (y1 - y0) < 0


def decide_leave_water(state: State, cmd: LeaveWater) -> list[Event]:
    """Leave water to ``cmd.space``, adjacent (or linked by the Fishhook & Thread): to water,
    ``MouseMoved`` (cost 1); to a dry space, ``LeavingWaterStarted`` and a ``leave-water`` roll of one
    die plus one per mouse there (MM rulebook (it) §Muoversi nell'Acqua). Errors: ``check_can_leave_water``;
    ``water.not-adjacent``; ``water.against-current`` (``against_current``)."""
    check_can_leave_water(state, cmd.mouse)
    here = space_of(state, cmd.mouse)
    if here is None:
        raise InvariantViolated("mouse-on-board", f"{cmd.mouse} leaves water off the board")
    lib = library_of(state)
    steps = (*mouse_neighbours(lib, here), *linked(state, here))
    if cmd.space not in dict(steps) or not can_enter(state, cmd.space, "small", ignoring=cmd.mouse):
        raise RuleBroken(
            "water.not-adjacent", section=sections.WATER, detail=f"{cmd.space} cannot be reached from {here}"
        )
    if against_current(state, here, cmd.space):
        raise RuleBroken(
            "water.against-current",
            section=sections.WATER,
            detail=f"{cmd.space} is against the current of {here}",
        )
    if lib.spaces[cmd.space].water:
        return [MouseMoved(mouse=cmd.mouse, origin=here, path=(cmd.space,), cost=1)]
    dice = 1 + len(mice_on(state, cmd.space))
    return [
        LeavingWaterStarted(mouse=cmd.mouse, space=cmd.space),
        RollRequested(reason=LEAVE_WATER, dice=dice, piece=cmd.mouse),
    ]


def resolve_leave_water(state: State, answer: DiceRolled) -> list[Event]:
    if state.mouse_turn is None or state.water_target is None:
        raise InvariantViolated("leaving-water", "a leave-water roll with no mouse turn or no target space")
    mouse, target = state.mouse_turn.mouse, state.water_target
    here = space_of(state, mouse)
    if count(answer.faces, STARS) and here is not None and can_enter(state, target, "small", ignoring=mouse):
        return [MouseMoved(mouse=mouse, origin=here, path=(target,), cost=0)]
    return [LeavingWaterFailed(mouse=mouse, space=target)]


def legal_leave_water(state: State, mouse: str) -> list[Command]:
    """Every ``LeaveWater`` ``decide_leave_water`` accepts for ``mouse`` now."""
    here = space_of(state, mouse)
    if state.mouse_turn is None or state.mouse_turn.mouse != mouse or here is None:
        return []
    try:
        check_can_leave_water(state, mouse)
    except RuleBroken:
        return []
    # Fishhook & Thread counts as adjacent
    steps = (*mouse_neighbours(library_of(state), here), *linked(state, here))
    return [
        LeaveWater(mouse=mouse, space=s)
        for s in dict(steps)
        if can_enter(state, s, "small", ignoring=mouse) and not against_current(state, here, s)
    ]


def current(state: State, mouse: str) -> list[Event]:
    """End of the mouse's turn: the current carries it one space, or off the tile (captured)."""
    here = space_of(state, mouse)
    lib = library_of(state)
    flow = lib.spaces[here].current if here is not None else None
    if here is None or flow is None:
        return []
    tile = lib.tiles[lib.space_tile[here]]
    dx, dy = STEP[flow]
    x, y = lib.spaces[here].centre[0] + dx, lib.spaces[here].centre[1] + dy
    if not (0 <= x <= tile.width and 0 <= y <= tile.height):
        return capture_mouse(state, mouse)  # the capture hooks: Poison Master, Escape Artist
    there = next(
        (s.id for s in tile.spaces if abs(s.centre[0] - x) < 0.01 and abs(s.centre[1] - y) < 0.01), None
    )
    if there is None or not can_enter(state, there, "small", ignoring=mouse):
        return []
    return [MouseSweptByCurrent(mouse=mouse, origin=here, space=there)]
