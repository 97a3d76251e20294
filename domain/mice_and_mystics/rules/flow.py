"""Rounds and turns in initiative order, run forward by the server (MM rulebook (it) §Round di Gioco; MM
rulebook (it) §Determinare l'Ordine di Iniziativa; MM rulebook (it) §Il Turno di un Topo; MM rulebook (it) §Il
Turno di un Servitore).

``proceed(state)`` advances the game by itself until a player must act (a mouse's turn), a roll,
shuffle, draw or decision is pending, or the chapter ends. In order, each step: a completed placement
of new minions opens the Preemptive Shot window (``preemptive_shot.py``); a full cheese wheel
summons (``summoning.py``); an open minion turn takes its next step (``minion_turn.py``); a mouse
turn in the middle of a Knife Strike asks for its next attack (``knife_strike.py``); with no turn
open the next card on the track takes its turn (past the last card a new round starts at the top).
A captured mouse's turn is skipped or releases it (``captured.py``). A card's turn ends with
``TurnEnded``; Rat Warriors' Aggressive then swaps the card with the one above (docs/mice-and-mystics/facts.md
§3); the last mouse card's end may let time pass (``summoning.time_passes``).
"""

from __future__ import annotations

from collections.abc import Sequence

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import (
    DecisionRequested,
    DrawRequested,
    Event,
    RollRequested,
    ShuffleRequested,
)
from dicelog.domain.mice_and_mystics.commands import EndTurn
from dicelog.domain.mice_and_mystics.events import (
    RoundStarted,
    TurnStarted,
)
from dicelog.domain.mice_and_mystics.evolve import evolve_all
from dicelog.domain.mice_and_mystics.rules import knife_strike, preemptive_shot
from dicelog.domain.mice_and_mystics.rules.bosses import ambush_step
from dicelog.domain.mice_and_mystics.rules.captured import captured_turn, outcome
from dicelog.domain.mice_and_mystics.rules.charmed import charm_ends, charmed_step, is_charmed_turn
from dicelog.domain.mice_and_mystics.rules.minion_turn import minion_step
from dicelog.domain.mice_and_mystics.rules.summoning import WHEEL_FULL, summon
from dicelog.domain.mice_and_mystics.rules.turn_end import end_turn
from dicelog.domain.mice_and_mystics.rules.turns import check_turn
from dicelog.domain.mice_and_mystics.state import State

PENDING = (RollRequested, ShuffleRequested, DrawRequested, DecisionRequested)
MAX_STEPS = 1_000


def _next_turn(state: State) -> list[Event]:
    """The next card's ``TurnStarted``, or ``RoundStarted`` after the last card, or after a turn
    during which the track was laid again (rules revision 2: the new order is a new round, from the
    top, and a card that already took its turn this round is passed over; MM rulebook (it) §Determinare
    l'Ordine di Iniziativa, docs/mice-and-mystics/rulings.md)."""
    slot = -1 if state.slot is None else state.slot
    following: Sequence[int] = range(slot + 1, len(state.track))
    if state.rules_revision >= 2:
        following = [s for s in following if state.track[s] not in state.acted_this_round]
    if state.round_ends_after_turn or not following:
        return [RoundStarted(round=state.round + 1)] if state.track else []
    card = state.track[following[0]]
    return [TurnStarted(card=card, slot=following[0])]


def _step(state: State) -> list[Event]:
    if state.new_minions and state.ambush is None:
        return preemptive_shot.window(state)
    if state.cheese_wheel >= WHEEL_FULL:
        return summon(state)
    if state.ambush is not None:
        return ambush_step(state)
    if not state.turn_open:
        return _next_turn(state)
    card = state.turn_card
    if card is None:
        raise InvariantViolated("turn-card", "a turn is open but no card holds it")
    if state.minion_turn is not None:
        return minion_step(state) or end_turn(state, card)
    if is_charmed_turn(state):
        return charmed_step(state) or [
            *charm_ends(card),
            *end_turn(evolve_all(state, charm_ends(card)), card),
        ]
    if state.mouse_turn is not None:
        return knife_strike.next_strike(state) if state.mouse_turn.knife_strikes else []
    if card not in state.captured:
        return end_turn(state, card)  # released this turn: it does nothing else
    skipped = captured_turn(state, card)
    return (
        skipped if isinstance(skipped[-1], PENDING) else skipped + end_turn(evolve_all(state, skipped), card)
    )


def proceed(state: State) -> list[Event]:
    """Run the game forward until a player must act, a node is pending, or the chapter ends."""
    events: list[Event] = []
    for _ in range(MAX_STEPS):
        if state.phase != "playing" or state.awaiting or state.attack is not None or outcome(state):
            break
        more = _step(state)
        if not more:
            break
        state = evolve_all(state, more)
        events += more
        if isinstance(more[-1], PENDING):
            break
    return events


def decide_end_turn(state: State, cmd: EndTurn) -> list[Event]:
    """End the mouse's turn, moved and acted or not (MM rulebook (it) §Il Turno di un Topo)."""
    check_turn(state, cmd.mouse)
    return end_turn(state, cmd.mouse)
