"""The audit index read model: each game's ``GameIndex`` kept in the store (issue 12, reads in O(page)).

``/events``, ``/turns/{n}``, ``/rounds/{n}`` and ``/log`` mark each event ``undone`` and with its
round, and find a turn's or a round's span, from a ``dicelog.projections.game_index.GameIndex``: turn
and round starts and undo ranges, facts about the whole log. A process that reads a game for the
first time used to build that index from the game's whole log (about 45 ms for 10,000 events). This
projection keeps every game's index as a document (the index up to a version), so that a process
starts from the stored index and reads only the events stored after it (``Games.index``): with the
worker caught up, none.

Like the other projections it follows the notification log with its own checkpoint; it needs no game
state, only each event's type and, for the few events that say where an undo or (for a ruleset with its
own hooks) a turn or a round starts, the event itself. A game first seen mid-log (a restart, an eviction
from its cache of ``cache_size`` games) continues from its stored document, or from the store when the
document is behind. The documents hold versions only, no payload: nothing in them is anyone's secret.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection

from dicelog.domain.core import registry
from dicelog.domain.core.campaign import CampaignEvent
from dicelog.domain.core.events import GameCreated
from dicelog.domain.core.game import Recorded
from dicelog.projections.game_index import GameIndex, decode_index, encode_index
from dicelog.projections.recorders import Checkpoint

log = logging.getLogger("dicelog")

BuildIndex = Callable[[UUID, Any, int], GameIndex]
"""``build(game_id, ruleset, upto)``: the game's index from the store, up to version ``upto``."""


class AuditIndexProjection(Projection[Any]):
    """Keeps each game's audit index document (module docstring)."""

    name = "audit_index"
    cache_size = 256

    def __init__(self, view: Any, build: BuildIndex, ruleset_of: Callable[[UUID], Any]) -> None:
        super().__init__(view=view)
        self.build = build
        self.ruleset_of = ruleset_of
        self._indexes: OrderedDict[UUID, GameIndex] = OrderedDict()

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.process_batch([(domain_event, tracking)])

    def process_batch(
        self, items: Sequence[tuple[Any, Tracking]], checkpoint: Checkpoint | None = None
    ) -> None:
        """Extend the indexes of the games in ``items``; their documents and the checkpoint (default:
        the last item's tracking record) commit together."""
        if not items:
            return
        changed: dict[UUID, GameIndex] = {}
        for event, _ in items:
            if not isinstance(event, Recorded) or isinstance(event.payload, CampaignEvent):
                continue
            index = self._index_before(event)
            index.extend_records([event])
            changed[event.originator_id] = index
        documents = [(game_id, index.version, encode_index(index)) for game_id, index in changed.items()]
        self.view.save_documents(documents, items[-1][1] if checkpoint is None else checkpoint)

    def _index_before(self, record: Recorded) -> GameIndex:
        """The game's index up to the version before ``record``'s."""
        game_id, before = record.originator_id, record.originator_version - 1
        index = self._indexes.pop(game_id, None)
        if index is None or index.version != before:
            if isinstance(record.payload, GameCreated):
                index = GameIndex(registry.get(record.payload.ruleset))
            else:
                index = self._stored(game_id, before) or self.build(game_id, self.ruleset_of(game_id), before)
        self._indexes[game_id] = index
        while len(self._indexes) > self.cache_size:
            self._indexes.popitem(last=False)
        return index

    def _stored(self, game_id: UUID, before: int) -> GameIndex | None:
        index = stored_index(self.view, game_id, self.ruleset_of(game_id))
        return index if index is not None and index.version == before else None


def stored_index(view: Any, game_id: UUID, ruleset: Any) -> GameIndex | None:
    """The game's index as this projection stored it in ``view`` (``None`` when it has none, or one this
    code cannot read: the index is then built from the events)."""
    found = view.document(game_id)
    if found is None:
        return None
    try:
        return decode_index(ruleset, found[1])
    except msgspec.MsgspecError as e:
        log.warning("stored audit index of game %s not read (%s): built from its events", game_id, e)
        return None
