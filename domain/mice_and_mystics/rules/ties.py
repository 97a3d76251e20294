"""Ties the players break in the middle of a computation (MM rulebook (it) §Collocare i Servitori sul
Tabellone: "Se ci sono più Entrate equidistanti, i giocatori scelgono quella che preferiscono", "Se ci sono
più Entrate disponibili, i giocatori scelgono quelle che preferiscono"; MM rulebook (it) §Brodie Insegue: "Se
ci sono vari percorsi egualmente brevi, i giocatori possono decidere quale di questi utilizzare").

Placing minions (chapter setup, a summon, an encounter) and Brodie's chase are computations whose
callers go on after them (story board and decks; keywords and initiative). Rather than cut each
caller in pieces, such a computation runs with a ``Choices`` cursor over the answers given so far.
At a tie without an answer the cursor raises ``Undecided``; ``settle`` then emits only
``ChoiceDeferred`` (the first time), ``TieFound`` and ``DecisionRequested``. Each ``DecisionMade``
is recorded in ``State.deferred`` (``evolve_choices``), and ``rules/deferred.py`` re-runs the same
computation on the same state with the answers so far, until it completes: ``ChoicesSettled`` then
the computation's events, exactly those it would have made had the same options been taken without
asking. Every decision's ``default`` is the option a documented tile-order policy takes, so
``decision_policy="default"`` games play as before these ties were asked.
"""

from __future__ import annotations

from collections.abc import Callable

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import CardsDrawn, DecisionRequested, DiceRolled, Event
from dicelog.domain.mice_and_mystics.choice_events import ChoiceDeferred, ChoicesSettled, TieFound
from dicelog.domain.mice_and_mystics.rules import sections
from dicelog.domain.mice_and_mystics.state import State

RANGED_ENTRANCE = "ranged-minion-entrance"  # the entrance small ranged minions fill next
LARGE_ENTRANCES = "large-minion-entrances"  # which of the nearest free entrances take large minions
MELEE_ENTRANCES = "melee-minion-entrances"  # which entrances take one figure more in the even spread
BRODIE_PATH = "brodie-path"  # which of equally short paths Brodie takes
TIE_DECISIONS = (RANGED_ENTRANCE, LARGE_ENTRANCES, MELEE_ENTRANCES, BRODIE_PATH)

BEGIN, SUMMON, ENCOUNTER, BRODIE_CHASE = "begin", "summon", "encounter", "brodie-chase"


class Undecided(Exception):
    """Raised by ``Choices.pick`` at a tie with no answer yet; ``events`` asks it
    (``TieFound`` then ``DecisionRequested``)."""

    def __init__(self, events: list[Event]) -> None:
        super().__init__(events[-1])
        self.events = events


class Choices:
    """The answers given so far to a computation's ties, consumed in the order asked.

    ``Choices(given)`` raises ``Undecided`` at the first tie past ``given``;
    ``Choices.defaults()`` answers every tie with its default and never raises (for callers that
    only probe, e.g. whether Brodie would move at all)."""

    def __init__(self, given: tuple[str, ...] = (), *, ask: bool = True) -> None:
        self.given, self.ask, self.used = given, ask, 0

    @classmethod
    def defaults(cls) -> Choices:
        return cls(ask=False)

    def pick(
        self,
        decision: str,
        options: tuple[str, ...],
        default: str,
        *,
        subject: str,
        count: int = 0,
        toward: str | None = None,
    ) -> str:
        """One of ``options`` (at least one; ``default`` among them): the only one, the next answer
        given, the default when not asking, else ``Undecided``.

        Raises ``RuleBroken("choice.stale")`` when the next answer given is not an option (a record
        that does not belong to this computation; the core checks answers against the options)."""
        if len(options) == 1:
            return options[0]
        if self.used < len(self.given):
            option = self.given[self.used]
            self.used += 1
            if option not in options:
                raise RuleBroken(
                    "choice.stale",
                    section=sections.PLACEMENT,
                    detail=f"{option!r} is not one of {list(options)} for {decision}",
                )
            return option
        if not self.ask:
            return default
        raise Undecided(
            [
                TieFound(decision=decision, subject=subject, count=count, toward=toward),
                DecisionRequested(decision=decision, options=options, default=default),
            ]
        )


def settle(
    state: State,
    context: str,
    compute: Callable[[Choices], list[Event]],
    answer: DiceRolled | CardsDrawn | None = None,
) -> list[Event]:
    """Run ``compute`` with the answers recorded for ``context`` (none if nothing is deferred).

    Completed: its events (after ``ChoicesSettled`` if it had been deferred). At an unanswered tie:
    ``[ChoiceDeferred(context, answer)]`` (first tie only), ``TieFound``, ``DecisionRequested``.
    ``compute`` must not depend on ``state.deferred`` (the record is cleared by ``ChoicesSettled``
    before its events are folded)."""
    record = state.deferred if state.deferred is not None and state.deferred.context == context else None
    given = record.choices if record is not None else ()
    try:
        events = compute(Choices(given))
    except Undecided as tie:
        head: list[Event] = [] if record is not None else [ChoiceDeferred(context=context, answer=answer)]
        return [*head, *tie.events]
    return [ChoicesSettled(context=context, choices=given), *events] if record is not None else events
