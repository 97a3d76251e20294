"""Rounds and turns in initiative order (001 §Round di Gioco; 001 §Determinare l'Ordine di
Iniziativa; 001 §Il Turno di un Topo; 001 §Il Turno di un Servitore).

A round runs down the initiative track, top card first; after the last card a new round starts at
the top. A mouse card's turn waits for its player (``EndTurn``). A minion card's turn is run by
the server with no command: in this slice minion movement and attacks are not implemented, so it
records an explicit ``MinionTurnPassed``; Rat Warriors' Aggressive ability (swap with the card
directly above after its turn, facts.md §3) is applied.
"""

from __future__ import annotations

from domain.core.errors import NotYourTurn, RuleBroken
from domain.core.events import CardsShuffled, Event
from domain.mice_and_mystics.commands import EndTurn
from domain.mice_and_mystics.content import library
from domain.mice_and_mystics.events import (
    CheeseGained,
    InitiativeCardsSwapped,
    InitiativeTrackLaid,
    MinionTurnPassed,
    RoundStarted,
    TurnEnded,
    TurnStarted,
)
from domain.mice_and_mystics.evolve import evolve
from domain.mice_and_mystics.rules import sections
from domain.mice_and_mystics.state import State

NOT_IMPLEMENTED = "minion movement and attacks are not implemented in this slice"
BORN_TO_LEAD = "collin"


def check_turn(state: State, mouse: str) -> None:
    """Refuse a command for ``mouse`` unless it is that mouse's turn."""
    if state.phase != "playing":
        raise RuleBroken("turn.not-started", section=sections.ROUNDS, detail="the chapter has not started")
    if state.mouse_turn is None or state.mouse_turn.mouse != mouse:
        raise NotYourTurn(
            "turn.not-your-turn", section=sections.ROUNDS, detail=f"it is {state.turn_card}'s turn, not {mouse}'s"
        )


def _fold(state: State, events: list[Event]) -> State:
    for event in events:
        state = evolve(state, event)
    return state


def minion_turn(state: State, card: str, slot: int) -> list[Event]:
    """A minion card's whole turn, decided by the server (001 §Il Turno di un Servitore)."""
    events: list[Event] = [MinionTurnPassed(card=card, reason=NOT_IMPLEMENTED), TurnEnded(card=card)]
    minion = library().minions.get(card)
    if minion is not None and "aggressive" in minion.abilities and slot > 0:
        events.append(InitiativeCardsSwapped(card=card, other=state.track[slot - 1], reason="aggressive"))
    return events


def start_turns(state: State, slot: int) -> list[Event]:
    """Turns from ``slot`` on: run minion cards' turns until a mouse card's turn starts.

    Past the last card a new round starts at the top of the track (001 §Round di Gioco).
    """
    events: list[Event] = []
    for _ in range(2 * len(state.track) + 2):
        if slot >= len(state.track):
            more: list[Event] = [RoundStarted(round=state.round + 1)]
            slot = 0
        else:
            more = []
        card = state.track[slot]
        more.append(TurnStarted(card=card, slot=slot))
        state = _fold(state, more)
        events += more
        if card in state.party:
            return events
        more = minion_turn(state, card, slot)
        state = _fold(state, more)
        events += more
        slot += 1
    return events  # no mouse card on the track: nothing more happens until one is added


def resolve_initiative(state: State, answer: CardsShuffled) -> list[Event]:
    """Lay the shuffled cards down the track, top first (001 §Determinare l'Ordine di Iniziativa),
    apply Collin's Born to Lead (1 cheese if he is not in the first slot, facts.md §2), start
    round 1 and its first turns."""
    events: list[Event] = [InitiativeTrackLaid(cards=answer.order)]
    if BORN_TO_LEAD in answer.order and answer.order[0] != BORN_TO_LEAD:
        events.append(CheeseGained(mouse=BORN_TO_LEAD, count=1, reason="born-to-lead"))
    events.append(RoundStarted(round=1))
    state = _fold(state, events)
    return events + start_turns(state, 0)


def decide_end_turn(state: State, cmd: EndTurn) -> list[Event]:
    """End the mouse's turn (with or without moving) and run the turns that follow."""
    check_turn(state, cmd.mouse)
    ended: list[Event] = [TurnEnded(card=cmd.mouse)]
    assert state.slot is not None
    return ended + start_turns(_fold(state, ended), state.slot + 1)
