"""Mouse movement (MM rulebook (it) §Movimento dei Topi; MM rulebook (it) §Caselle Adiacenti; MM rulebook (it)
§Linee Gialle; MM rulebook (it) §Linee Rosse; MM rulebook (it) §Condividere le Caselle; MM rulebook (it)
§Muoversi nell'Acqua).

``Move`` asks for one action die; its move number (docs/mice-and-mystics/facts.md §1) plus the mouse's move
value gives the movement points. ``MoveTo`` then walks a path of adjacent spaces costing at most that: yellow
lines cost 3 against the arrow; red lines and walls are not crossed; full spaces are neither entered nor
crossed; entering a space with a minion or a water space ends the move. A mouse that starts on a space with
minions may leave only if the mice there are at least as many as the minions. The move happens once per turn;
a path may stop early. A mouse under a Scroll of Levitation crosses red lines and the Pipes' black gaps this
turn (``steps_from``).
"""

from __future__ import annotations

import heapq

from dicelog.domain.core.commands import Command
from dicelog.domain.core.errors import InvariantViolated, RuleBroken
from dicelog.domain.core.events import DiceRolled, Event, RollRequested
from dicelog.domain.mice_and_mystics.commands import Move, MoveTo, Scurry
from dicelog.domain.mice_and_mystics.content import Library
from dicelog.domain.mice_and_mystics.events import (
    ActionStarted,
    FigureStoodUp,
    MouseMoved,
    MouseStoppedAtMousetrap,
    MovementPointsGained,
)
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import sections
from dicelog.domain.mice_and_mystics.rules.actions import WEBBED, can_act, check_action
from dicelog.domain.mice_and_mystics.rules.dice import MOVE_NUMBER
from dicelog.domain.mice_and_mystics.rules.graph import (
    can_enter,
    mice_on,
    minions_on,
    mouse_neighbours,
    mouse_step_cost,
)
from dicelog.domain.mice_and_mystics.rules.links import linked
from dicelog.domain.mice_and_mystics.rules.scrolls import LEVITATION, in_force
from dicelog.domain.mice_and_mystics.rules.turns import check_turn
from dicelog.domain.mice_and_mystics.state import State, space_of

KNOCKED_DOWN = "knocked-down"


def _stops(state: State, space: str) -> bool:
    """Entering ``space`` ends the move: a minion is there, or it is water."""
    return bool(minions_on(state, space)) or library_of(state).spaces[space].water


def check_can_leave(state: State, mouse: str, origin: str) -> None:
    if library_of(state).spaces[origin].water:
        raise RuleBroken(
            "move.leave-water", section=sections.WATER, detail="in water: LeaveWater takes the whole move"
        )
    check_not_held(state, mouse, origin)


def check_not_held(state: State, mouse: str, origin: str) -> None:
    """Refuse to let ``mouse`` leave ``origin`` (a move, or leaving water): ``move.held-by-minions``
    (MM rulebook (it) §Condividere le Caselle: more minions than mice there), ``move.webbed`` (MM rulebook
    (it) §Intrappolato)."""
    if len(minions_on(state, origin)) > len(mice_on(state, origin)):
        raise RuleBroken(
            "move.held-by-minions", section=sections.SHARING, detail=f"{mouse} is held by minions"
        )
    if WEBBED in state.effects.get(mouse, ()):
        raise RuleBroken("move.webbed", section=sections.NEGATIVE_EFFECTS, detail=f"{mouse} is webbed")


def decide_move(state: State, cmd: Move) -> list[Event]:
    check_turn(state, cmd.mouse)
    turn = state.mouse_turn
    if turn is None:
        raise InvariantViolated("mouse-turn", "check_turn passed but no mouse turn is open")
    if turn.moved or turn.movement_points is not None:
        raise RuleBroken(
            "move.already-moved", section=sections.MOUSE_TURN, detail=f"{cmd.mouse} already moved"
        )
    origin = space_of(state, cmd.mouse)
    if origin is None:
        raise InvariantViolated("mouse-on-board", f"{cmd.mouse} moves in its turn off the board")
    if KNOCKED_DOWN in state.effects.get(cmd.mouse, ()):
        return [FigureStoodUp(figure=cmd.mouse)]  # MM rulebook (it) §Atterrato: the whole move to stand up
    check_can_leave(state, cmd.mouse, origin)
    return [RollRequested(reason="move", dice=1, piece=cmd.mouse)]


def decide_scurry(state: State, cmd: Scurry) -> list[Event]:
    """MM rulebook (it) §Scatto: a mouse that has already moved may use its action to roll and move again."""
    check_action(state, cmd.mouse, "scurry")
    turn = state.mouse_turn
    if turn is None:
        raise InvariantViolated("mouse-turn", "check_action passed but no mouse turn is open")
    if not turn.moved:
        raise RuleBroken("scurry.not-moved", section=sections.SCURRY, detail=f"{cmd.mouse} has not moved yet")
    origin = space_of(state, cmd.mouse)
    if origin is None:
        raise InvariantViolated("mouse-on-board", f"{cmd.mouse} scurries in its turn off the board")
    check_can_leave(state, cmd.mouse, origin)
    return [
        ActionStarted(mouse=cmd.mouse, action="scurry"),
        RollRequested(reason="scurry", dice=1, piece=cmd.mouse),
    ]


def resolve_move_roll(state: State, answer: DiceRolled) -> list[Event]:
    if state.mouse_turn is None:
        raise InvariantViolated("mouse-turn", "a move roll outside a mouse's turn")
    mouse = state.mouse_turn.mouse
    number = MOVE_NUMBER[answer.faces[0]]
    value = library_of(state).mice[mouse].move
    return [MovementPointsGained(mouse=mouse, die_number=number, move_value=value, points=number + value)]


def decide_move_to(state: State, cmd: MoveTo) -> list[Event]:
    check_turn(state, cmd.mouse)
    turn = state.mouse_turn
    if turn is None:
        raise InvariantViolated("mouse-turn", "check_turn passed but no mouse turn is open")
    if turn.moved:
        raise RuleBroken(
            "move.already-moved", section=sections.MOUSE_TURN, detail=f"{cmd.mouse} already moved"
        )
    if turn.movement_points is None:
        raise RuleBroken("move.no-roll", section=sections.MOVEMENT, detail="roll for movement first (Move)")
    origin = space_of(state, cmd.mouse)
    if origin is None:
        raise InvariantViolated("mouse-on-board", f"{cmd.mouse} moves in its turn off the board")
    check_can_leave(state, cmd.mouse, origin)
    lib = library_of(state)
    spaces, cost, here = lib.spaces, 0, origin
    for step in cmd.path:
        if step not in spaces:
            raise RuleBroken("move.unknown-space", section=sections.MOVEMENT, detail=f"no space {step!r}")
        if here != origin and _stops(state, here):
            section = sections.WATER if spaces[here].water else sections.SHARING
            raise RuleBroken("move.must-stop", section=section, detail=f"the move ends on {here}")
        step_cost = min((c for o, c in steps_from(state, cmd.mouse, here) if o == step), default=None)
        if step_cost is None:
            across = dict(_across(lib, here)).get(step)
            section = {"red": sections.RED_LINES, "gap": sections.BLACK_AREAS}.get(
                across or "", sections.ADJACENT
            )
            raise RuleBroken("move.not-adjacent", section=section, detail=f"{step} is not adjacent to {here}")
        if not can_enter(state, step, "small", ignoring=cmd.mouse):
            raise RuleBroken("move.full-space", section=sections.SHARING, detail=f"{step} is full")
        cost += step_cost
        if cost > turn.movement_points:
            raise RuleBroken(
                "move.too-far",
                section=sections.YELLOW_LINES if step_cost > 1 else sections.MOVEMENT,
                detail=f"the path costs more than {turn.movement_points} movement",
            )
        here = step

    return walk(state, cmd.mouse, origin, cmd.path)


def steps_from(state: State, mouse: str, here: str) -> tuple[tuple[str, int], ...]:
    """(space, cost) of every step ``mouse`` may take from ``here``: adjacent spaces, Fishhook &
    Thread links, and, under a Scroll of Levitation this turn, spaces across a red line or a black gap of
    the Pipes at cost 1 (MM rulebook (it) §Linee Rosse; MM rulebook (it) §Aree Nere e Muri: items "che
    permettono ai Topi di attraversare le Linee Rosse, come Amo e Lenza o la Pergamena di Levitazione", and
    the Pipes' black zones "possono essere attraversate solamente usando quegli Oggetti";
    docs/mice-and-mystics/rulings.md, Scroll of Levitation)."""
    lib = library_of(state)
    steps = (*mouse_neighbours(lib, here), *linked(state, here))

    if in_force(state, mouse, LEVITATION):
        steps = (*steps, *((other, 1) for other, _ in _across(lib, here)))
    return steps


def _across(lib: Library, space: str) -> list[tuple[str, str]]:
    """(space, line) of the spaces across a red line or a black gap from ``space``."""
    tile = lib.tiles[lib.space_tile[space]]
    return [
        (e.b if e.a == space else e.a, e.line)
        for e in tile.edges
        if e.line in ("red", "gap") and space in (e.a, e.b)
    ]


def reachable(state: State, mouse: str, points: int) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Every space the mouse can end on with ``points``: (cost, one cheapest path) (Dijkstra)."""
    origin = space_of(state, mouse)
    if origin is None:
        raise InvariantViolated("mouse-on-board", f"reachable spaces of {mouse}, off the board")
    best: dict[str, tuple[int, tuple[str, ...]]] = {}
    heap: list[tuple[int, tuple[str, ...], str]] = [(0, (), origin)]
    while heap:
        cost, path, here = heapq.heappop(heap)
        if here in best or (here == origin and path):
            continue
        best[here] = (cost, path)
        if path and _stops(state, here):
            continue
        for other, step_cost in steps_from(state, mouse, here):
            if (
                other not in best
                and cost + step_cost <= points
                and can_enter(state, other, "small", ignoring=mouse)
            ):
                heapq.heappush(heap, (cost + step_cost, (*path, other), other))
    best.pop(origin, None)
    return best


def legal_moves(state: State, mouse: str) -> list[Command]:
    """Move, or one cheapest MoveTo per reachable destination, or Scurry once moved (if the action is
    free)."""
    turn = state.mouse_turn
    origin = space_of(state, mouse)
    if turn is None or origin is None:
        return []
    if KNOCKED_DOWN in state.effects.get(mouse, ()) and not turn.moved and turn.movement_points is None:
        return [Move(mouse=mouse)]
    try:
        check_can_leave(state, mouse, origin)
    except RuleBroken:
        return []
    if turn.moved:
        return [Scurry(mouse=mouse)] if can_act(state, mouse, "scurry") else []
    if turn.movement_points is None:
        return [Move(mouse=mouse)]
    dests = reachable(state, mouse, turn.movement_points)
    return [MoveTo(mouse=mouse, path=dests[d][1]) for d in sorted(dests, key=space_order)]


def space_order(space: str) -> tuple[str, int]:
    """Sort key: tile code, then space number (GR-2 before GR-10)."""
    code, _, number = space.rpartition("-")
    return (code, int(number) if number.isdigit() else 0)


# --- walking onto a mousetrap (MM rulebook (it) §Attraversare le Trappole per Topi; the roll: mousetraps.py)
# --------

MOUSETRAP = "mousetrap"
"""The roll a mouse stopped on a mousetrap makes (``RollRequested.reason``)."""
IMMUNE = "lesson-learned"
"""Lily's ability: mousetraps do not stop her (docs/mice-and-mystics/facts.md §2)."""


def trap_dice(lib: Library, mouse: str) -> int:
    hero = lib.mice[mouse]
    return max(hero.move, hero.lore) if "tinkerer" in hero.classes else hero.move


def walk(state: State, mouse: str, origin: str, path: tuple[str, ...]) -> list[Event]:
    """``MouseMoved`` along ``path``, stopping on the first mousetrap to roll for it."""
    lib = library_of(state)
    immune = lib.mice[mouse].ability == IMMUNE
    stop = next((i for i, s in enumerate(path) if s in state.traps), None) if not immune else None
    upto = path if stop is None else path[: stop + 1]
    cost, here = 0, origin
    for step in upto:
        cost += mouse_step_cost(lib, here, step) or 1
        here = step
    events: list[Event] = [MouseMoved(mouse=mouse, origin=origin, path=upto, cost=cost)] if upto else []
    if stop is None:
        return events
    return [
        *events,
        MouseStoppedAtMousetrap(mouse=mouse, space=path[stop], rest=path[stop + 1 :]),
        RollRequested(reason=MOUSETRAP, dice=trap_dice(lib, mouse), piece=mouse),
    ]
