"""The game log read model (``GET /games/{id}/log``).

One readable line per meaningful event (the ruleset's ``describe``), with the version, the seat
that caused it and the event type; events without a line (bookkeeping) only advance the
checkpoint.
"""

from __future__ import annotations

from eventsourcing.persistence import Tracking

from domain.core.describe import describe_core
from domain.core.game import Game, Recorded
from projections.base import GameProjection


class LogProjection(GameProjection):
    """Appends each game's log lines."""

    name = "log"

    def project(self, game: Game, record: Recorded, tracking: Tracking) -> None:
        line = game.ruleset.describe(game.state, record.payload) or describe_core(record.payload)
        if line is None:
            self.view.insert_tracking(tracking)
            return
        row = (record.originator_version, record.seat, type(record.payload).__name__, line)
        self.view.append_lines(game.id, [row], tracking)
