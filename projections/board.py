"""The board read model (``GET /games/{id}/board``).

One document per game: the ruleset's ``board_view`` of the state after each event (Mice and
Mystics: room tiles placed, spaces and the figures on them, hourglass page, end marker, minion
cheese wheel), with the game version it shows.
"""

from __future__ import annotations

import msgspec
from eventsourcing.persistence import Tracking

from domain.core.game import Game, Recorded
from projections.base import GameProjection

_encode = msgspec.json.Encoder().encode


class BoardProjection(GameProjection):
    """Keeps each game's board document."""

    name = "board"

    def project(self, game: Game, record: Recorded, tracking: Tracking) -> None:
        body = _encode({"game_id": game.id, "version": game.version, "board": game.ruleset.board_view(game.state)})
        self.view.save_document(game.id, game.version, body, tracking)
