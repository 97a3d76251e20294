"""The end of a card's turn (MM rulebook (it) §Il Turno di un Topo, §Il Turno di un Servitore): a leaf of the
turn cycle, so the rules that end a turn early (a mousetrap sprung, chapter 1's rooms) import it downward
while ``flow`` runs the rounds. Rat Warriors' Aggressive and the passing of time are settled here
(docs/mice-and-mystics/facts.md §3; ``summoning.time_passes``)."""

from __future__ import annotations

from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.events import InitiativeCardsSwapped, TurnEnded
from dicelog.domain.mice_and_mystics.evolve import evolve_all
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import water
from dicelog.domain.mice_and_mystics.rules.summoning import time_passes
from dicelog.domain.mice_and_mystics.state import State


def end_turn(state: State, card: str) -> list[Event]:
    """``TurnEnded`` for ``card`` (a mouse in water is first swept by the current: ``water.current``), then
    Aggressive (a minion card swaps with the one above) or time passing (the last mouse card)."""
    swept = water.current(state, card) if card in state.party else []
    events: list[Event] = [*swept, TurnEnded(card=card)]
    minion = library_of(state).minions.get(card)
    slot = state.slot if state.slot is not None else 0
    if minion is not None and "aggressive" in minion.abilities and 0 < slot < len(state.track):
        events.append(InitiativeCardsSwapped(card=card, other=state.track[slot - 1], reason="aggressive"))
    return events + time_passes(evolve_all(state, events), card)
