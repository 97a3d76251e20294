"""The initiative track read model (``GET /games/{id}/initiative``).

One document per game: the ruleset's ``initiative_view`` of the state (Mice and Mystics: the
cards on the track in order, whose turn it is, the round), with the game version it shows.
"""

from __future__ import annotations

from typing import Any

from dicelog.domain.core.game import Game
from dicelog.projections.base import DocumentProjection, public_lens


class InitiativeProjection(DocumentProjection):
    """Keeps each game's initiative track document."""

    name = "initiative"

    def document(self, game: Game) -> Any:
        return game.ruleset.initiative_view(public_lens(game).state(game.state))
