"""Per-game indexes for the audit reads, so a page, a turn or a round reads only its own events.

An event's ``undone`` mark depends on every later ``UndoApplied``, its ``round`` on every earlier
round start, and turn ``n`` starts at the ``n``-th turn start: facts about the whole log. A
``GameIndex`` holds just those facts for one game, up to a version:

- the start versions of turns and rounds (``dicelog.domain.core.undo.starts_turn`` / ``starts_round``);
- each ``UndoApplied`` as (``to_version``, its own version), and the versions of the undo
  bookkeeping events (which are never marked undone): ``dicelog.domain.core.undo.undone_versions`` in
  index form.

It is a fold of the stored events, extended with the events after its version only (``extend``),
and mostly from each stored event's topic alone: only ``UndoApplied`` events, the
``CommandAccepted`` of an undo command and, for a ruleset that says itself where turns and rounds
start, the events are decoded. ``IndexCache`` keeps the indexes of the games read lately in the
process (``Games.index`` brings one up to the game's newest event before each read); a game read
for the first time since the process started is indexed from its whole log once.

The answers that could depend on later events take ``head``, the version the reader's view stops
at: an index extended meanwhile by another reader of the same game answers as it was at ``head``.
"""

from __future__ import annotations

import threading
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import StoredEvent
from msgspec import Struct

from dicelog.domain.core.events import CommandAccepted, UndoApplied, UndoApproved, UndoRejected, UndoRequested
from dicelog.domain.core.game import Recorded
from dicelog.domain.core.undo import starts_round, starts_turn

_BOOKKEEPING = (UndoRequested, UndoApproved, UndoRejected, UndoApplied)
_UNDO_COMMANDS = (b'"type":"RequestUndo"', b'"type":"ApproveUndo"')  # as dicelog.domain.core.undo._is
Decode = Callable[[StoredEvent], Recorded]


class GameIndex:
    """Turn and round starts and undo ranges of one game, up to ``version`` (see module docstring).

    Not thread-safe for writers: ``extend`` is called under ``lock``; the answers may be read
    while another thread extends (lists only grow, every answer is cut at ``head``).
    """

    def __init__(self, ruleset: Any) -> None:
        self.ruleset = ruleset
        self.version = 0
        """Versions 1..version are indexed."""
        self.turn_starts: list[int] = []
        self.round_starts: list[int] = []
        self.undos: list[tuple[int, int]] = []
        """(``to_version``, version) of each ``UndoApplied``, in log order."""
        self.bookkeeping: list[int] = []
        """Versions of the undo bookkeeping events (requests, approvals, rejections, applications and
        the ``CommandAccepted`` of ``RequestUndo`` / ``ApproveUndo``), ascending."""
        self.lock = threading.Lock()
        self._own_turns = getattr(ruleset, "starts_turn", None) is not None
        self._own_rounds = getattr(ruleset, "starts_round", None) is not None

    # --- building -------------------------------------------------------------------------

    def extend(self, stored: Iterable[StoredEvent], decode: Decode, classify: Callable[[str], type]) -> None:
        """Fold the stored events that follow ``version`` (consecutive versions, oldest first).

        ``decode`` turns a stored event into its ``Recorded`` (called only for the few events
        whose topic is not enough); ``classify`` names the class a stored topic stands for (the store's
        ``dicelog.service.store.reads.topic_class``). Raises ``ValueError`` on a gap in the versions and
        what ``decode`` and ``classify`` raise.
        """
        for event in stored:
            cls = classify(event.topic)
            undo_bytes = cls is CommandAccepted and any(tag in event.state for tag in _UNDO_COMMANDS)
            needed = cls is UndoApplied or self._own_turns or self._own_rounds or undo_bytes
            self._add(event.originator_version, cls, decode(event).payload if needed else None)

    def extend_records(self, records: Iterable[Recorded]) -> None:
        """``extend`` with events already decoded (the audit index projection's). Raises ``ValueError``
        on a gap in the versions."""
        for record in records:
            payload = record.payload
            self._add(record.originator_version, type(payload), payload)

    def _add(self, version: int, cls: type, payload: Any) -> None:
        """Fold event ``version`` of type ``cls``; ``payload`` is ``None`` when the type says enough."""
        if version != self.version + 1:
            raise ValueError(f"index of version {self.version} cannot take version {version}")
        if self._starts(payload, cls, starts_turn, self._own_turns, "TurnStarted"):
            self.turn_starts.append(version)
        if self._starts(payload, cls, starts_round, self._own_rounds, "RoundStarted"):
            self.round_starts.append(version)
        if cls in _BOOKKEEPING or (cls is CommandAccepted and _undo_command(payload)):
            self.bookkeeping.append(version)
        if cls is UndoApplied:
            self.undos.append((payload.to_version, version))
        self.version = version

    def _starts(self, payload: Any, cls: type, test: Any, own: bool, name: str) -> bool:
        if own:
            return bool(test(self.ruleset, payload))
        # what dicelog.domain.core.undo.starts_turn / starts_round say without a hook
        return cls.__name__ == name

    def adopt(self, other: GameIndex) -> None:
        """Take ``other``'s facts (an index of the same game read from the store), when this one holds
        fewer versions."""
        if other.version > self.version:
            self.turn_starts, self.round_starts = list(other.turn_starts), list(other.round_starts)
            self.undos, self.bookkeeping = list(other.undos), list(other.bookkeeping)
            self.version = other.version

    # --- answers --------------------------------------------------------------------------

    def round_of(self, version: int) -> int | None:
        """The round ``version`` belongs to (1-based), ``None`` before the first round starts
        (``dicelog.service.app.audit.rounds_by_version``; later round starts do not count)."""
        return bisect_right(self.round_starts, version) or None

    def turn_of(self, version: int) -> int | None:
        """The turn ``version`` belongs to (1-based), ``None`` before the first turn starts and between a
        round's start and the next turn's (``dicelog.service.app.audit.turns_by_version``: the turn
        ``span`` holds it; later starts do not count)."""
        number = bisect_right(self.turn_starts, version)
        if not number:
            return None
        first = self.turn_starts[number - 1]
        # a round started after this turn did, at or before ``version``: it ended the turn
        ended = bisect_right(self.round_starts, version) > bisect_right(self.round_starts, first)
        return None if ended else number

    def undone(self, first: int, last: int, head: int) -> set[int]:
        """The versions in ``first..last`` that an ``UndoApplied`` at or before ``head`` undid,
        undo bookkeeping excepted (``dicelog.domain.core.undo.undone_versions`` of the log up to
        ``head``, restricted to ``first..last``)."""
        found: set[int] = set()
        for to_version, applied in self.undos:
            if applied > head:
                break
            found.update(range(max(first, to_version + 1), min(last + 1, applied)))
        if found:
            low, high = bisect_left(self.bookkeeping, first), bisect_right(self.bookkeeping, last)
            found.difference_update(self.bookkeeping[low:high])
        return found

    def span(self, kind: str, number: int, head: int) -> tuple[int, int] | None:
        """(first, last) version of turn or round ``number`` (1-based) in the log up to ``head``,
        or ``None`` (``dicelog.service.app.audit.span``): a turn runs to the event before the next turn or
        round starts, a round to the event before the next round starts, the last one to ``head``."""
        starts = self.turn_starts if kind == "turn" else self.round_starts
        if not 1 <= number <= bisect_right(starts, head):
            return None
        first = starts[number - 1]
        following = [_following(starts, first, head)]
        if kind == "turn":
            following.append(_following(self.round_starts, first, head))
        ends = [v for v in following if v is not None]
        return first, (min(ends) - 1 if ends else head)


def _following(starts: list[int], after: int, head: int) -> int | None:
    """The first of ``starts`` after ``after``, if it is at or before ``head``."""
    i = bisect_right(starts, after)
    return starts[i] if i < len(starts) and starts[i] <= head else None


def _undo_command(payload: Any) -> bool:
    """``dicelog.domain.core.undo._is`` for a ``CommandAccepted`` (``None``: not decoded, not an undo)."""
    if not isinstance(payload, CommandAccepted):
        return False
    command = bytes(payload.command)
    return any(tag in command for tag in _UNDO_COMMANDS)


class IndexDocument(Struct, frozen=True, kw_only=True):
    """A ``GameIndex`` as stored by the audit index projection (``dicelog.projections.audit_index``)."""

    version: int
    turn_starts: list[int]
    round_starts: list[int]
    undos: list[tuple[int, int]]
    bookkeeping: list[int]


def encode_index(index: GameIndex) -> bytes:
    """``index`` as JSON (``IndexDocument``)."""
    return msgspec.json.encode(
        IndexDocument(
            version=index.version,
            turn_starts=index.turn_starts,
            round_starts=index.round_starts,
            undos=index.undos,
            bookkeeping=index.bookkeeping,
        )
    )


def decode_index(ruleset: Any, body: bytes) -> GameIndex:
    """The ``GameIndex`` of ``encode_index``'s bytes, for a game of ``ruleset``. Raises
    ``msgspec.DecodeError``/``msgspec.ValidationError`` on anything else."""
    document = msgspec.json.decode(body, type=IndexDocument)
    index = GameIndex(ruleset)
    index.version = document.version
    index.turn_starts = list(document.turn_starts)
    index.round_starts = list(document.round_starts)
    index.undos = [(to_version, applied) for to_version, applied in document.undos]
    index.bookkeeping = list(document.bookkeeping)
    return index


class IndexCache:
    """The indexes of the games read lately (least recently used dropped past ``size``)."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._indexes: OrderedDict[UUID, GameIndex] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: UUID, ruleset: Any) -> GameIndex:
        """The game's index (a new, empty one the first time)."""
        with self._lock:
            index = self._indexes.pop(game_id, None)
            if index is None:
                index = GameIndex(ruleset)
            self._indexes[game_id] = index
            while len(self._indexes) > self.size:
                self._indexes.popitem(last=False)
            return index
