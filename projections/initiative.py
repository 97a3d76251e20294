"""The initiative track read model (``GET /games/{id}/initiative``).

One document per game: the ruleset's ``initiative_view`` of the state after each event
(Mice and Mystics: the cards on the track in order, whose turn it is, the round), with the game
version it shows.
"""

from __future__ import annotations

import msgspec
from eventsourcing.persistence import Tracking

from domain.core.game import Game, Recorded
from projections.base import GameProjection

_encode = msgspec.json.Encoder().encode


class InitiativeProjection(GameProjection):
    """Keeps each game's initiative track document."""

    name = "initiative"

    def project(self, game: Game, record: Recorded, tracking: Tracking) -> None:
        body = _encode({"game_id": game.id, "version": game.version, "initiative": game.ruleset.initiative_view(game.state)})
        self.view.save_document(game.id, game.version, body, tracking)
