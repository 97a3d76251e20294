"""Event base types shared by every ruleset.

Every domain event is a frozen, tagged msgspec Struct. The tag (``type`` in JSON) is the class
name and never changes once an event has been stored; new fields get defaults, and a new meaning
gets a new event type (msgspec, "Schema evolution"). Fields equal to their default are omitted
from the encoding (``omit_defaults``), so adding a defaulted field never changes the canonical
bytes, and so the chain hashes, of events stored before it existed.

The core events here are the game-agnostic chance and decision nodes of DESIGN.md: a ruleset
emits ``RollRequested`` / ``ShuffleRequested`` / ``DecisionRequested`` and stops; a ``Roll`` /
``Shuffle`` / ``Choose`` command answers with ``DiceRolled`` / ``CardsShuffled`` /
``DecisionMade``.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct

DiceMode = Literal["server", "manual"]
UndoPolicy = Literal["none", "own-turn", "all-seats", "host"]
Visibility = Literal["public", "unlisted", "private"]
SeatName = Annotated[str, Meta(min_length=1, max_length=32, pattern=r"^[a-z0-9][a-z0-9_-]*$")]


class Event(Struct, frozen=True, kw_only=True, tag=True, omit_defaults=True):
    """Base of every stored domain event (a tagged, frozen msgspec Struct)."""


class Seat(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A player's place at the table: its name and the pieces (e.g. mice) it controls."""

    name: SeatName
    controls: tuple[str, ...] = ()


class ForkOrigin(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Where a forked game comes from: the original game, the version it was forked at, and the
    chain hash of the original's event at that version."""

    game_id: str
    version: int
    head_hash: str
    reseeded: bool = False
    """The fork rolls from a seed of its own (a fork of a running game): the chance events up to
    ``version`` came from the original's seed and are proven in the original, not here."""


class GameCreated(Event, kw_only=True):
    """The first event of every game.

    ``setup`` is the ruleset's own setup document (JSON), decoded by the ruleset.
    ``dice_commitment`` is ``sha256(seed)`` as hex in ``server`` dice mode, ``None`` in
    ``manual`` mode (DESIGN.md, Provably fair dice). ``host`` is the seat that may undo alone
    under the ``host`` undo policy; ``forked_from`` is set on a fork. ``visibility`` says who
    may read the game (``public``: listed and readable by anyone; ``unlisted``: readable with its
    id; ``private``: a token is needed); games stored before it existed were all public.
    """

    ruleset: str
    setup: msgspec.Raw
    seats: tuple[Seat, ...]
    dice_mode: DiceMode = "server"
    undo_policy: UndoPolicy = "none"
    decision_policy: Literal["ask", "default"] = "ask"
    dice_commitment: str | None = None
    host: str | None = None
    forked_from: ForkOrigin | None = None
    visibility: Visibility = "public"


class CommandAccepted(Event, kw_only=True):
    """A command accepted by ``decide``; the events it caused follow it in the log.

    ``command`` is the command's canonical JSON (tagged), so ``verify`` can re-run it.
    """

    command: msgspec.Raw


class RollRequested(Event, kw_only=True):
    """A pending roll: ``dice`` dice of ``sides`` faces are needed, for ``reason``.

    ``piece`` is the piece (e.g. a mouse) the roll is for: in ``manual`` dice mode only the seat
    controlling it may submit the faces; ``None`` lets any seat roll (e.g. for minions).
    """

    reason: str
    dice: int
    sides: int = 6
    piece: str | None = None


class DiceRolled(Event, kw_only=True):
    """The faces (1-based) of a pending roll, in order; ``source`` is who rolled them."""

    reason: str
    faces: tuple[int, ...]
    source: Literal["server", "manual"] = "server"


class ShuffleRequested(Event, kw_only=True):
    """A pending public shuffle of ``cards`` (e.g. initiative cards laid on the track)."""

    reason: str
    cards: tuple[str, ...]


class CardsShuffled(Event, kw_only=True):
    """The order a public shuffle produced, first card first."""

    reason: str
    order: tuple[str, ...]
    source: Literal["server", "manual"] = "server"


class DrawRequested(Event, kw_only=True):
    """A pending draw of ``count`` cards from a face-down deck (DESIGN.md, Hidden information).

    ``cards`` lists the cards still in the deck, sorted: what is left is public, its order is
    not, and no order is ever stored. Drawing uniformly among them is the same as drawing the
    top card of a shuffled deck.
    """

    reason: str
    deck: str
    cards: tuple[str, ...]
    count: int = 1
    piece: str | None = None


class CardsDrawn(Event, kw_only=True):
    """The cards a pending draw revealed, in draw order."""

    reason: str
    deck: str
    cards: tuple[str, ...]
    source: Literal["server", "manual"] = "server"


class DecisionRequested(Event, kw_only=True):
    """A pending decision the rules leave to a seat: pick one of ``options``.

    ``default`` is the option the documented default policy picks; ``piece`` as for
    ``RollRequested``.
    """

    decision: str
    options: tuple[str, ...]
    piece: str | None = None
    default: str | None = None


class DecisionMade(Event, kw_only=True):
    """The option chosen for a pending decision, and by whom (a seat, or ``policy``)."""

    decision: str
    option: str
    by: str


class GameEnded(Event, kw_only=True):
    """The game is over. In ``server`` dice mode ``seed`` reveals the dice seed (hex)."""

    result: str
    reason: str = ""
    seed: str | None = None


class UndoRequested(Event, kw_only=True):
    """A seat asks to return the game to ``to_version`` (DESIGN.md, Undo never deletes).

    ``crosses_rolls`` tells that random results already shown (server dice, shuffles, draws)
    lie in the undone range; ``needs`` are the seats whose approval is still required.
    """

    to_version: int
    by: str
    crosses_rolls: bool = False
    needs: tuple[str, ...] = ()


class UndoApproved(Event, kw_only=True):
    """One seat approves the pending undo request."""

    by: str


class UndoRejected(Event, kw_only=True):
    """One seat rejects the pending undo request; the request is dropped."""

    by: str


class UndoApplied(Event, kw_only=True):
    """The game returns to its state at ``to_version``; the events after it stay in the log,
    marked undone. ``game`` and ``state`` carry that restored state (so replay needs no
    lookup), including the dice stream position: the same action meets the same dice."""

    to_version: int
    approved_by: tuple[str, ...]
    crosses_rolls: bool = False
    game: msgspec.Raw
    state: msgspec.Raw


PendingEvent = RollRequested | ShuffleRequested | DrawRequested | DecisionRequested
CHANCE_EVENTS = (DiceRolled, CardsShuffled, CardsDrawn)
