"""Re-running a computation deferred at a tie the players break (MM rulebook (it) §Collocare i Servitori sul
Tabellone; MM rulebook (it) §Brodie Insegue; the mechanism is in ``rules/ties.py``).

Each context names one computation and how the ruleset first ran it, so that the re-run makes the
very events the first run would have made with the same answers: ``begin`` is the ``Begin``
command (chapter setup with the campaign carry-over), ``summon`` a full wheel's summon (run by
``flow.proceed``), ``encounter`` the encounter card draw, ``brodie-chase`` Brodie's move roll (with
the roll hooks every roll passes through, ``room_rules.after_roll``).
"""

from __future__ import annotations

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import CardsDrawn, DecisionMade, DiceRolled, Event
from dicelog.domain.mice_and_mystics import campaign
from dicelog.domain.mice_and_mystics.rules import brodie, explore, room_rules, sections, summoning
from dicelog.domain.mice_and_mystics.rules.setup import decide_begin
from dicelog.domain.mice_and_mystics.rules.ties import BEGIN, BRODIE_CHASE, ENCOUNTER, SUMMON, settle
from dicelog.domain.mice_and_mystics.state import State


def begin(state: State) -> list[Event]:
    """The ``Begin`` command: the chapter's setup events with the campaign carry-over, or, at an
    unanswered placement tie, only the deferral and the decision (context ``begin``)."""
    return settle(state, BEGIN, lambda choices: campaign.with_carry_over(state, decide_begin(state, choices)))


def resume(state: State, answer: DecisionMade) -> list[Event]:
    """Re-run the deferred computation with the answers recorded so far (``answer`` included, folded
    into ``state.deferred`` by ``evolve``): its events after ``ChoicesSettled``, or the next tie.

    Raises ``RuleBroken("choice.nothing-deferred")`` if no computation waits for this answer (a
    tie decision is only ever asked by a deferred computation)."""
    deferred = state.deferred
    if deferred is None:
        raise RuleBroken(
            "choice.nothing-deferred",
            section=sections.PLACEMENT,
            detail=f"no placement or chase waits for the {answer.decision} decision",
        )
    context, earlier = deferred.context, deferred.answer
    if context == BEGIN:
        return begin(state)
    if context == SUMMON:
        return summoning.summon(state)
    if context == ENCOUNTER and isinstance(earlier, CardsDrawn):
        return explore.resolve_encounter_draw(state, earlier)
    if context == BRODIE_CHASE and isinstance(earlier, DiceRolled):
        return room_rules.after_roll(state, earlier, brodie.resolve_chase(state, earlier))
    raise RuleBroken(
        "choice.nothing-deferred",
        section=sections.PLACEMENT,
        detail=f"unknown deferred computation {deferred.context!r}",
    )
