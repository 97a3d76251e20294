"""``evolve`` for the tie-breaking choice events (``choice_events.py``; ``rules/ties.py``) and for a
``DecisionMade`` answering one of those ties. Never validates, never fails for a stored event.
"""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.core.events import DecisionMade, Event
from dicelog.domain.mice_and_mystics import choice_events as ce
from dicelog.domain.mice_and_mystics.rules.ties import TIE_DECISIONS
from dicelog.domain.mice_and_mystics.state import Deferred, State


def answers_tie(state: State, event: Event) -> bool:
    """Whether ``event`` is a ``DecisionMade`` answering a tie of the deferred computation."""
    return isinstance(event, DecisionMade) and state.deferred is not None and event.decision in TIE_DECISIONS


def evolve_choices(state: State, event: Event) -> State:
    match event:
        case ce.ChoiceDeferred(context=context, answer=answer):
            return replace(state, deferred=Deferred(context=context, answer=answer))
        case ce.ChoicesSettled():
            return replace(state, deferred=None)
        case DecisionMade(option=option) if state.deferred is not None:
            deferred = replace(state.deferred, choices=(*state.deferred.choices, option))
            return replace(state, awaiting=None, deferred=deferred)
        case _:
            return state
