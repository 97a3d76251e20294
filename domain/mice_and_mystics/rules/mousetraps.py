"""Mousetraps (001 §Attraversare le Trappole per Topi; 001 §Trappole per Topi).

A mouse moving onto a space with a mousetrap token stops there and rolls dice equal to its move
value (a Tinkerer may roll its lore value instead: it rolls the larger, more dice never hurting).
A star: it passes safely and may walk on along its path. No star: the token is removed, the mouse
takes 1 wound and 1 cheese, is knocked down, and its turn ends at once. Minions ignore mousetraps;
Lily's Lesson Learned makes her immune (facts.md §2, single source).
"""

from __future__ import annotations

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import DiceRolled, Event, RollRequested
from dicelog.domain.mice_and_mystics.content import Library, library_of
from dicelog.domain.mice_and_mystics.events import (
    CheeseGained,
    MouseCaptured,
    MouseMoved,
    MouseStoppedAtMousetrap,
    MousetrapPassed,
    MousetrapSprung,
)
from dicelog.domain.mice_and_mystics.evolve import evolve_all
from dicelog.domain.mice_and_mystics.rules.combat import STARS, count, wound_mouse
from dicelog.domain.mice_and_mystics.rules.effects import knock_down
from dicelog.domain.mice_and_mystics.rules.graph import mouse_step_cost
from dicelog.domain.mice_and_mystics.state import State, space_of

MOUSETRAP = "mousetrap"
IMMUNE = "lesson-learned"


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


def resolve_mousetrap(state: State, answer: DiceRolled) -> list[Event]:
    from dicelog.domain.mice_and_mystics.rules.flow import end_turn  # flow runs the turns this module serves

    if state.mouse_turn is None:
        raise InvariantViolated("mouse-turn", "a mousetrap roll outside a mouse's turn")
    mouse = state.mouse_turn.mouse
    here = space_of(state, mouse)
    if here is None:
        raise InvariantViolated("mouse-on-board", f"{mouse} rolls for a mousetrap off the board")
    if count(answer.faces, STARS):
        return [MousetrapPassed(mouse=mouse, space=here), *walk(state, mouse, here, state.trap_rest)]
    events: list[Event] = [
        MousetrapSprung(mouse=mouse, space=here),
        CheeseGained(mouse=mouse, count=1, reason=MOUSETRAP),
    ]
    after = evolve_all(state, events)
    wounded = wound_mouse(after, mouse, 1)
    events += wounded
    if not any(isinstance(e, MouseCaptured) for e in wounded):
        events += knock_down(after, mouse)
    return events + end_turn(evolve_all(state, events), mouse)
