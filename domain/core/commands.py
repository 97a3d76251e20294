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
FaceName = Annotated[str, Meta(min_length=1, max_length=32, pattern="^[a-z0-9]+(-[a-z0-9]+)*$")]
"""A die face by the name of its printed symbols, as the ruleset's ``die_faces`` lists them (Mice and
Mystics: ``cheese``, ``sword-star``, ``sword-shield``, ``bow``, ``bow-star``, ``sword-shield-star``)."""


class Command(Struct, frozen=True, kw_only=True, tag=True, forbid_unknown_fields=True):
    """Base of every command."""


class Roll(Command, kw_only=True):
    """Answer a pending roll with its faces (1-based, in die order)."""

    faces: Annotated[tuple[Face | FaceName, ...], Meta(min_length=1, max_length=20)]
    """The faces rolled, one per die in die order (1 to 20 dice): exactly the pending ``RollRequested``'s
    ``dice``. Each face is its number (1 to the pending ``sides``) or the name of its printed symbols as the
    ruleset's die table gives it (Mice and Mystics: ``/content/mice-and-mystics/dice``; ``bow-star`` is face
    5), so a table can enter what it sees on the die."""


class Shuffle(Command, kw_only=True):
    """Answer a pending public shuffle with the resulting order, first card first."""

    order: Annotated[tuple[str, ...], Meta(min_length=1, max_length=64)]
    """The pending ``ShuffleRequested``'s cards in the order shuffled at the table, first card first: each of
    its card ids exactly once (1 to 64 cards)."""


class Draw(Command, kw_only=True):
    """Answer a pending draw with the cards drawn at the table (``manual`` mode), in order."""

    cards: Annotated[tuple[str, ...], Meta(min_length=1, max_length=64)]
    """The cards drawn at the table, in draw order (1 to 64): as many as the pending ``DrawRequested`` asks
    (fewer only if the deck holds fewer), all different and among its ``cards``. Each is a card id or,
    where the ruleset knows the card's printed name, that name (Mice and Mystics: a search card's name as
    printed, any case, e.g. ``Toothpick``; see ``/content/mice-and-mystics/search-cards``)."""


class Choose(Command, kw_only=True):
    """Answer the pending decision with one of its options."""

    option: Annotated[str, Meta(min_length=1, max_length=64)]
    """The option chosen: one of the pending ``DecisionRequested``'s ``options``, exactly as listed (1 to 64
    characters)."""


class RequestUndo(Command, kw_only=True):
    """Ask to return the game to the state after ``to_version`` (a version right before a
    player's command). Applied at once or after approvals, as the game's undo policy says."""

    to_version: Annotated[int, Meta(ge=1)]
    """The version to return to (at least 1, below the game's current version); the event after it must be a
    command sent by a player (not an automatic step of ``server`` or ``policy``), so an undo always lands
    right before a player's command."""


class ApproveUndo(Command, kw_only=True):
    """Approve the pending undo request."""


class RejectUndo(Command, kw_only=True):
    """Reject the pending undo request."""


UndoCommand = RequestUndo | ApproveUndo | RejectUndo


class CloseGame(Command, kw_only=True):
    """The service ends a running game that is no longer played (issued by the service only, as seat
    ``server``, never accepted from a client): a campaign's revert closes the reverted chapter's game
    (docs/campaigns.md). Its ``GameEnded`` carries ``result`` and ``reason`` and reveals the dice seed and
    view key like any end, so the game's log stays verifiable and no command changes it any more."""

    result: Annotated[str, Meta(min_length=1, max_length=32)]
    """The result recorded in ``GameEnded`` (``reverted``)."""
    reason: Annotated[str, Meta(max_length=200)] = ""
    """Why the game was closed, as readable text (``GameEnded.reason``)."""


ServiceCommand = CloseGame
"""Core commands only the service issues (never part of the API's command body)."""
