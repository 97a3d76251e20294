"""A mouse's action (MM rulebook (it) §Il Turno di un Topo; MM rulebook (it) §Effetti Negativi).

A mouse may move then act, or act then move; it takes one action a turn among scurry, battle,
search, recover and explore. Acting after rolling for movement but before walking gives the
rolled move up (docs/mice-and-mystics/rulings.md). A stunned mouse may only Recover; a webbed one may not move
or scurry (MM rulebook (it) §Stordito e Intrappolato). While Inspire is in force (``inspire.py``,
docs/mice-and-mystics/facts.md §4) a mouse may take one extra action in its turn for 1 cheese.
"""

from __future__ import annotations

from dicelog.domain.core.errors import InvariantViolated, RuleBroken
from dicelog.domain.mice_and_mystics.rules import inspire, sections
from dicelog.domain.mice_and_mystics.rules.turns import check_turn
from dicelog.domain.mice_and_mystics.state import State

STUNNED, WEBBED = "stunned", "webbed"


def check_action(state: State, mouse: str, action: str) -> None:
    """Refuse ``action`` unless it is the mouse's turn, no action was taken yet (or Inspire allows an
    extra one: ``inspire.check_extra_action``), and no effect forbids it.

    Errors: ``turn.*`` (``check_turn``); ``action.already-taken``, ``action.extra-needs-cheese``;
    ``action.stunned`` (only Recover); ``action.webbed`` (no Scurry) (MM rulebook (it) §Il Turno di un Topo;
    MM rulebook (it) §Effetti Negativi)."""
    check_turn(state, mouse)
    turn = state.mouse_turn
    if turn is None:
        raise InvariantViolated("mouse-turn", "check_turn passed but no mouse turn is open")
    if turn.action is not None:
        inspire.check_extra_action(state, mouse)  # Inspire's one extra action, else action.already-taken
    effects = state.effects.get(mouse, ())
    if STUNNED in effects and action != "recover":
        raise RuleBroken(
            "action.stunned", section=sections.NEGATIVE_EFFECTS, detail=f"{mouse} is stunned: only Recover"
        )
    if WEBBED in effects and action == "scurry":
        raise RuleBroken(
            "action.webbed", section=sections.NEGATIVE_EFFECTS, detail=f"{mouse} is webbed: no Scurry"
        )


def can_act(state: State, mouse: str, action: str) -> bool:
    try:
        check_action(state, mouse, action)
    except RuleBroken:
        return False
    return True
