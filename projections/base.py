"""Shared machinery of the game read models, on the eventsourcing library's ``Projection``.

A game projection receives every notification of the ``Games`` application as a domain event
with its ``Tracking`` (application name, notification id). For a game event it needs the game's
state *after* the event: it keeps the last state per game in memory and folds the event into it
(``domain.core.game.apply``); when it has no state of the right version (first sight, restart,
eviction) it loads the game at that version from the application (snapshots keep that fast).
Events that are not game events (campaign events, the service's secret and idempotency
records) only advance the checkpoint.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar
from uuid import UUID

from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection

from domain.core.campaign import CampaignEvent
from domain.core.game import Game, Recorded, apply

V = TypeVar("V")
LoadGame = Callable[[UUID, int], Game]


class GameProjection(Projection[Any], Generic[V]):
    """Base of the game read models. Subclasses implement ``project(game, record, tracking)``."""

    cache_size = 256

    def __init__(self, view: V, load_game: LoadGame) -> None:
        super().__init__(view=view)
        self.load_game = load_game
        self._games: OrderedDict[UUID, Game] = OrderedDict()

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:  # type: ignore[override]
        if not isinstance(domain_event, Recorded) or isinstance(domain_event.payload, CampaignEvent):
            self.view.insert_tracking(tracking)
            return
        game = self._state_after(domain_event)
        self.project(game, domain_event, tracking)

    def _state_after(self, record: Recorded) -> Game:
        game_id = record.originator_id
        game = self._games.pop(game_id, None)
        if game is not None and game.version == record.originator_version - 1:
            game = apply(game, record)
        else:
            game = self.load_game(game_id, record.originator_version)
        self._games[game_id] = game
        while len(self._games) > self.cache_size:
            self._games.popitem(last=False)
        return game

    def project(self, game: Game, record: Recorded, tracking: Tracking) -> None:
        raise NotImplementedError
