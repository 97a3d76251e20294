"""Command base types shared by every ruleset.

Commands are imperative, frozen, tagged msgspec Structs (tag = class name, in a ``type`` field).
The acting seat is not part of a command: it comes from the bearer token, and the service stores
it beside the command in every event's envelope.

``Roll``, ``Shuffle`` and ``Choose`` answer the pending chance and decision nodes
(``RollRequested``, ``ShuffleRequested``, ``DecisionRequested``). In ``server`` dice mode the
service issues ``Roll``/``Shuffle`` itself from the committed seed; in ``manual`` mode a client
submits the faces rolled at the table.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

Face = Annotated[int, Meta(ge=1, le=20)]


class Command(Struct, frozen=True, kw_only=True, tag=True, forbid_unknown_fields=True):
    """Base of every command."""


class Roll(Command, kw_only=True):
    """Answer a pending roll with its faces (1-based, in die order)."""

    faces: Annotated[tuple[Face, ...], Meta(min_length=1, max_length=20)]


class Shuffle(Command, kw_only=True):
    """Answer a pending public shuffle with the resulting order, first card first."""

    order: Annotated[tuple[str, ...], Meta(min_length=1, max_length=64)]


class Draw(Command, kw_only=True):
    """Answer a pending draw with the cards drawn at the table (``manual`` mode), in order."""

    cards: Annotated[tuple[str, ...], Meta(min_length=1, max_length=64)]


class Choose(Command, kw_only=True):
    """Answer the pending decision with one of its options."""

    option: Annotated[str, Meta(min_length=1, max_length=64)]


class RequestUndo(Command, kw_only=True):
    """Ask to return the game to the state after ``to_version`` (a version right before a
    player's command). Applied at once or after approvals, as the game's undo policy says."""

    to_version: Annotated[int, Meta(ge=1)]


class ApproveUndo(Command, kw_only=True):
    """Approve the pending undo request."""


class RejectUndo(Command, kw_only=True):
    """Reject the pending undo request."""


UndoCommand = RequestUndo | ApproveUndo | RejectUndo
