"""Shared machinery of the game read models, on the eventsourcing library's ``Projection``.

A game projection receives every notification of the ``Games`` application as a domain event
with its ``Tracking`` (application name, notification id). For a game event it needs the game's
state *after* the event: it keeps the last state per game in memory and folds the event into it
(``dicelog.domain.core.game.apply``); when it has no state of the right version (first sight, restart,
eviction) it loads the game at that version from the application (snapshots keep that fast).
Events that are not game events (campaign events, the service's secret and idempotency
records) only advance the checkpoint.

Read models hold what anyone may see (``public_lens``): the spectator's view while a game runs,
everything once it ended. A reader who may see more (a seat's secrets, the auditor) is served
from the game itself, through its own lens (``dicelog.service.http.routes``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar
from uuid import UUID

import msgspec
from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection

from dicelog.domain.core.campaign import CampaignEvent
from dicelog.domain.core.game import Game, Recorded, apply
from dicelog.domain.core.visibility import SPECTATOR_VIEWER, Lens
from dicelog.projections.recorders import Checkpoint

V = TypeVar("V")


def public_lens(game: Game) -> Lens:
    """What anyone may see of ``game``: the spectator's view, everything once it ended."""
    return Lens(game.ruleset, SPECTATOR_VIEWER, reveal=game.result is not None)


_encode = msgspec.json.Encoder().encode
LoadGame = Callable[[UUID, int], Game]


class GameProjection(Projection[Any], Generic[V]):
    """Base of the game read models.

    Subclasses implement ``rows(game, record)`` (what one event adds to the read model) and
    ``write(rows, tracking)`` (store rows and the checkpoint in one transaction). A batch of
    notifications is folded in memory and written in one transaction with the last tracking
    record (``process_batch``), so the projection keeps up with the API's write rate.
    """

    cache_size = 256

    def __init__(self, view: V, load_game: LoadGame) -> None:
        super().__init__(view=view)
        self.load_game = load_game
        self._games: OrderedDict[UUID, Game] = OrderedDict()

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.process_batch([(domain_event, tracking)])

    def process_batch(
        self, items: Sequence[tuple[Any, Tracking]], checkpoint: Checkpoint | None = None
    ) -> None:
        """Project notifications in order; rows and the checkpoint (default: the last item's tracking
        record; one per partition when the log is followed by partitions) commit together."""
        if not items:
            return
        rows: list[Any] = []
        for event, _ in items:
            if isinstance(event, Recorded) and not isinstance(event.payload, CampaignEvent):
                rows.extend(self.rows(self._state_after(event), event))
        self.write(rows, items[-1][1] if checkpoint is None else checkpoint)

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

    def rows(self, game: Game, record: Recorded) -> list[Any]:
        raise NotImplementedError

    def write(self, rows: list[Any], checkpoint: Checkpoint) -> None:
        raise NotImplementedError


class DocumentProjection(GameProjection[Any]):
    """A read model of one document per game: only the newest document of each game is written."""

    def document(self, game: Game) -> Any:
        raise NotImplementedError

    def rows(self, game: Game, record: Recorded) -> list[Any]:
        return [(game.id, game.version, game)]

    def write(self, rows: list[Any], checkpoint: Checkpoint) -> None:
        newest: dict[UUID, tuple[int, Game]] = {}
        for game_id, version, game in rows:
            newest[game_id] = (version, game)
        documents = [
            (
                game_id,
                version,
                _encode({"game_id": game_id, "version": version, self.name: self.document(game)}),
            )
            for game_id, (version, game) in newest.items()
        ]
        self.view.save_documents(documents, checkpoint)
