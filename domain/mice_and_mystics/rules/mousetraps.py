"""Mousetraps (MM rulebook (it) §Attraversare le Trappole per Topi; MM rulebook (it) §Trappole per Topi).

A mouse moving onto a space with a mousetrap token stops there and rolls dice equal to its move
value (a Tinkerer may roll its lore value instead: it rolls the larger, more dice never hurting).
A star: it passes safely and may walk on along its path (``movement.walk``). No star: the token is
removed, the mouse takes 1 wound and 1 cheese, is knocked down, and its turn ends at once. Minions ignore
mousetraps; Lily's Lesson Learned makes her immune (docs/mice-and-mystics/facts.md §2, single source).
"""

from __future__ import annotations

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import DiceRolled, Event
from dicelog.domain.mice_and_mystics.events import (
    CheeseGained,
    MouseCaptured,
    MousetrapPassed,
    MousetrapSprung,
)
from dicelog.domain.mice_and_mystics.evolve import evolve_all
from dicelog.domain.mice_and_mystics.rules.combat import wound_mouse
from dicelog.domain.mice_and_mystics.rules.dice import STARS, count
from dicelog.domain.mice_and_mystics.rules.effects import knock_down
from dicelog.domain.mice_and_mystics.rules.movement import MOUSETRAP, walk
from dicelog.domain.mice_and_mystics.rules.turn_end import end_turn
from dicelog.domain.mice_and_mystics.state import State, space_of


def resolve_mousetrap(state: State, answer: DiceRolled) -> list[Event]:
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
