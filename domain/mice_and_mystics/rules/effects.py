"""Negative effects (MM rulebook (it) §Effetti Negativi: Stordito e Intrappolato, Atterrato, Stregato,
Avvelenato).

- Stunned: the mouse moves normally but its only action is Recover (``actions.check_action``).
- Webbed: no move and no Scurry until a Recover rolls a star (``movement``, ``recover``).
- Knocked down: the figure spends its whole move standing up (a ``Move`` of a knocked-down mouse is
  ``FigureStoodUp`` with no roll; a knocked-down minion's move step likewise); it attacks and defends
  normally. Large figures are never knocked down.
- Charmed: the mouse's turn is played by the server as a melee minion's (``charmed.py``).
- Poisoned: poison wounds count as wounds; ordinary healing never removes them, only antidotes and
  Cure (``heal`` / ``cure``); capture removes them with every other wound.
"""

from __future__ import annotations

from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.events import EffectAdded, FigureStoodUp, MouseHealed
from dicelog.domain.mice_and_mystics.rules.graph import size_of
from dicelog.domain.mice_and_mystics.state import State

STUNNED, WEBBED, KNOCKED_DOWN, CHARMED = "stunned", "webbed", "knocked-down", "charmed"
MARKERS = (STUNNED, WEBBED, CHARMED)


def has(state: State, figure: str, effect: str) -> bool:
    return effect in state.effects.get(figure, ())


def add_effect(state: State, figure: str, effect: str) -> list[Event]:
    """``EffectAdded`` unless the figure already has it, or it is a large figure being knocked down."""
    if has(state, figure, effect) or (effect == KNOCKED_DOWN and size_of(state, figure) != "small"):
        return []
    return [EffectAdded(mouse=figure, effect=effect)]


def knock_down(state: State, figure: str) -> list[Event]:
    """MM rulebook (it) §Atterrato: lay the figure down; large figures cannot be knocked down."""
    return add_effect(state, figure, KNOCKED_DOWN)


def stand_up(figure: str) -> list[Event]:
    """MM rulebook (it) §Atterrato: the whole move goes into standing up."""
    return [FigureStoodUp(figure=figure)]


def normal_wounds(state: State, mouse: str) -> int:
    return state.wounds.get(mouse, 0) - state.poison_wounds.get(mouse, 0)


def heal(state: State, mouse: str, wounds: int, reason: str) -> list[Event]:
    """Ordinary healing (spells, scrolls, First Aid) removes up to ``wounds`` normal wounds, never a
    poison wound (MM rulebook (it) §Avvelenato)."""
    n = min(wounds, normal_wounds(state, mouse))
    return [MouseHealed(mouse=mouse, wounds=n, reason=reason)] if n > 0 else []


def cure(state: State, mouse: str, poison: int, reason: str) -> list[Event]:
    """Antidotes and Cure remove up to ``poison`` poison wounds (MM rulebook (it) §Avvelenato)."""
    n = min(poison, state.poison_wounds.get(mouse, 0))
    return [MouseHealed(mouse=mouse, wounds=0, poison=n, reason=reason)] if n > 0 else []
