"""The board read model (``GET /games/{id}/board``).

One document per game: the ruleset's ``board_view`` of the state (Mice and Mystics: room tiles
placed, spaces and the figures on them, hourglass page, end marker, minion cheese wheel), with
the game version it shows.
"""

from __future__ import annotations

from typing import Any

from dicelog.domain.core.game import Game
from dicelog.projections.base import DocumentProjection, public_lens


class BoardProjection(DocumentProjection):
    """Keeps each game's board document."""

    name = "board"

    def document(self, game: Game) -> Any:
        return game.ruleset.board_view(public_lens(game).state(game.state))
