"""The game log read model (``GET /games/{id}/log``).

One readable line per meaningful event (the ruleset's ``describe``, or the core's for undo and
the end of the game), with the version, the seat that caused it and the event type. An event
without a line (bookkeeping) is stored as a row with no line, which the log never shows: it
records how far the read model has got in each game (``GET /games/{id}/log``'s ``version``).
"""

from __future__ import annotations

from typing import Any

from dicelog.domain.core.describe import describe_core
from dicelog.domain.core.game import Game, Recorded
from dicelog.projections.base import GameProjection, public_lens
from dicelog.projections.recorders import Checkpoint


class LogProjection(GameProjection):
    """Appends each game's log lines."""

    name = "log"

    def rows(self, game: Game, record: Recorded) -> list[Any]:
        lens = public_lens(game)
        shown = lens.event(record.payload, seat=record.seat)
        if shown is None:
            line: str | None = f"({type(record.payload).__name__}, hidden)"
        else:
            line = game.ruleset.describe(lens.state(game.state), shown) or describe_core(shown)
        return [(game.id, record.originator_version, record.seat, type(record.payload).__name__, line)]

    def write(self, rows: list[Any], checkpoint: Checkpoint) -> None:
        self.view.append_lines(rows, checkpoint)
