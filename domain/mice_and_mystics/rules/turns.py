"""Whose turn it is (MM rulebook (it) §Round di Gioco; MM rulebook (it) §Il Turno di un Topo).

The round and turn engine itself is ``flow.py``; this module only holds the check every mouse
command makes first.
"""

from __future__ import annotations

from dicelog.domain.core.errors import NotYourTurn, RuleBroken
from dicelog.domain.mice_and_mystics.rules import sections
from dicelog.domain.mice_and_mystics.state import State


def check_turn(state: State, mouse: str) -> None:
    """Refuse a command for ``mouse`` unless it is that mouse's turn."""
    if state.phase != "playing":
        raise RuleBroken("turn.not-started", section=sections.ROUNDS, detail="the chapter has not started")
    if state.mouse_turn is None or state.mouse_turn.mouse != mouse:
        raise NotYourTurn(
            "turn.not-your-turn",
            section=sections.ROUNDS,
            detail=f"it is {state.turn_card}'s turn, not {mouse}'s",
        )
