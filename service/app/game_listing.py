"""The public games in creation order, for ``GET /games``, kept up to date incrementally.

``GET /games`` used to find a page by reading the notification log with a topic filter: the store
walks every event stored since the cursor to find the ``GameCreated`` among them (there is no
index on topics), so a page cost grew with the length of the games created meanwhile, and each
creation was decoded whole (its setup, up to a 1 MiB content pack) to read its visibility.

Now the creations are read from a partial index of the events at version 1 (schema migration 2,
``dicelog.service.store.reads.creations``): a cold process's first page reads about a page of
creations, however long the games stored between them. ``GameListing`` keeps, per process, the
(notification id, game id) of the public games in creation order, from the start of the log as far
as pages have needed, and decodes just the ``visibility`` of each creation. A page is a slice of that
list merged with the token's own games (``Games.games``), whose creation positions are read one by
one (``dicelog.service.store.reads.creation_notification_id``); the list is extended (``extend``) only
when it cannot fill the page, so each creation is looked at once per process.
"""

from __future__ import annotations

import threading
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from typing import Any
from uuid import UUID

import msgspec

from dicelog.service.store.reads import creations

CATCH_UP_CHUNK = 1000
"""Creations read per query while catching up."""


class _Visibility(msgspec.Struct):
    visibility: str = "public"
    """As ``GameCreated.visibility`` (games stored before visibility existed read as public)."""


class _CreatedEnvelope(msgspec.Struct):
    payload: _Visibility


_envelope = msgspec.json.Decoder(_CreatedEnvelope)


def public_from_state(state: bytes) -> bool:
    """Whether a stored ``GameCreated`` envelope (plain JSON) is of a public game; only its
    ``visibility`` is decoded. Raises ``msgspec.DecodeError`` / ``msgspec.ValidationError``."""
    return _envelope.decode(state).payload.visibility == "public"


class GameListing:
    """(notification id, game id) of the public games, in creation order (module docstring).

    It covers the notification log from its start up to ``seen``, and grows on demand: a page
    asks for more (``extend``) only while what is covered cannot fill it, so a cold process
    reads only as far as its first page needs, and a later page only the creations stored
    since.
    """

    def __init__(self) -> None:
        self._positions = array("q")
        self._ids: list[UUID] = []
        self.seen = 0
        """Every notification up to this id has been looked at."""
        self._lock = threading.Lock()

    def extend(
        self, recorder: Any, topics: Sequence[str], is_public: Callable[[Any], bool], newest: int, count: int
    ) -> None:
        """Look at the next ``count`` creations (notifications of ``topics``; at most
        ``CATCH_UP_CHUNK``) up to notification ``newest`` (nothing when ``seen`` is there
        already); ``is_public(notification)`` says whether to list one. The store reads the creations
        from its index of first events (``dicelog.service.store.reads.creations``), so a page costs the
        creations it reads, not the events stored between them; it asks for what it lacks."""
        count = max(1, min(count, CATCH_UP_CHUNK))
        with self._lock:
            if self.seen >= newest:
                return
            notes = creations(recorder, after=self.seen, upto=newest, limit=count, topics=topics)
            for note in notes:
                if is_public(note):
                    self._positions.append(note.id)
                    found = note.originator_id  # a UUID, or its text from a recorder that keeps text
                    self._ids.append(found if isinstance(found, UUID) else UUID(found))
            self.seen = notes[-1].id if len(notes) == count else newest

    def after(self, position: int) -> Iterator[tuple[int, UUID]]:
        """The public games created after notification ``position`` (up to ``seen``), oldest first."""
        i = bisect_right(self._positions, position)
        while i < len(self._ids):
            yield self._positions[i], self._ids[i]
            i += 1
