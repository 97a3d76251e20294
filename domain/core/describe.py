"""Game-log lines for the core's own events (the ruleset describes its events)."""

from __future__ import annotations

from dicelog.domain.core.events import (
    Event,
    GameEnded,
    UndoApplied,
    UndoApproved,
    UndoRejected,
    UndoRequested,
)


def describe_core(event: Event) -> str | None:
    """A readable line for an undo or end-of-game event, ``None`` for any other event."""
    match event:
        case UndoRequested(to_version=v, by=by, needs=needs):
            waiting = f"; waiting for {', '.join(needs)}" if needs else ""
            return f"{by} asks to undo back to version {v}{waiting}"
        case UndoApproved(by=by):
            return f"{by} approves the undo"
        case UndoRejected(by=by):
            return f"{by} rejects the undo"
        case UndoApplied(to_version=v, approved_by=seats, crosses_rolls=crosses):
            rolls = " (across rolls already shown)" if crosses else ""
            return f"Undo: the game returns to version {v}{rolls}, agreed by {', '.join(seats)}"
        case GameEnded(result=result, seed=seed):
            reveal = f"; dice seed revealed: {seed}" if seed else ""
            return f"The game ends: {result}{reveal}"
    return None
