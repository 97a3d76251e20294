"""Event base types shared by every ruleset.

Every domain event is a frozen, tagged msgspec Struct. The tag (``type`` in JSON) is the class
name and never changes once an event has been stored; new fields get defaults, and a new meaning
gets a new event type (msgspec, "Schema evolution"). Fields equal to their default are omitted
from the encoding (``omit_defaults``), so adding a defaulted field never changes the canonical
bytes, and so the chain hashes, of events stored before it existed.

The core events here are the game-agnostic chance and decision nodes of docs/architecture.md: a ruleset
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
DecisionPolicy = Literal["ask", "default"]
SeatName = Annotated[str, Meta(min_length=1, max_length=32, pattern=r"^[a-z0-9][a-z0-9_-]*$")]


class Event(Struct, frozen=True, kw_only=True, tag=True, omit_defaults=True):
    """Base of every stored domain event (a tagged, frozen msgspec Struct)."""


class Seat(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A player's place at the table: its name, the pieces (e.g. mice) it controls, and whether the server
    plays it (``bot``)."""

    name: SeatName
    """The seat's name, unique in its game: 1 to 32 lowercase letters, digits, ``_`` or ``-``, starting with a
    letter or digit (``alice``). ``auditor``, ``spectator``, ``server`` and ``policy`` are reserved. It names
    the seat in every event envelope, token and undo approval."""
    controls: tuple[str, ...] = ()
    """Ids of the pieces this seat plays, whose commands (and, in a game with secrets, whose hidden
    information) are its own; in Mice and Mystics, mouse ids such as ``filch``, each party mouse controlled by
    exactly one seat. Empty: the seat controls no piece."""
    bot: bool = False
    """The server plays this seat with the ruleset's bot: at creation and after every command, while the
    game goes on and the seat's piece has the turn or must answer a pending decision, the service sends the
    seat's command, chosen from the seat's own view (never another seat's secret), signed by the seat. A
    bot seat must control a piece, in a ruleset with a bot (422 otherwise); it never answers a manual roll,
    shuffle or draw, and approves an undo request. False (the default, omitted when stored): a person plays
    it."""


class ForkOrigin(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Where a forked game comes from: the original game, the version it was forked at, and the
    chain hash of the original's event at that version."""

    game_id: str
    """Id (UUID) of the original game the fork was copied from."""
    version: int
    """The original's version the fork was made at (1-based): its events 1 to ``version`` were copied into the
    fork, which goes on from there."""
    head_hash: str
    """Chain hash (64 lowercase hex characters) of the original game's event at ``version``, so the copied
    prefix can be checked against the original."""
    reseeded: bool = False
    """The fork rolls from a seed of its own (a fork of a running game): the chance events up to
    ``version`` came from the original's seed and are proven in the original, not here."""


class GameCreated(Event, kw_only=True):
    """The first event of every game.

    ``setup`` is the ruleset's own setup document (JSON), decoded by the ruleset.
    ``dice_commitment`` is ``sha256(seed)`` as hex in ``server`` dice mode, ``None`` in
    ``manual`` mode (docs/verifiable-secrets.md, Provably fair dice). ``host`` is the seat that may undo alone
    under the ``host`` undo policy; ``forked_from`` is set on a fork. ``visibility`` says who
    may read the game (``public``: listed and readable by anyone; ``unlisted``: readable with its
    id; ``private``: a token is needed); games stored before it existed were all public.
    """

    ruleset: str
    """Name of the ruleset that plays the game (``mice-and-mystics``; see ``GET /rulesets``)."""
    setup: msgspec.Raw
    """The ruleset's own setup document, as JSON (for Mice and Mystics: the chapter, the party of mice and the
    optional sandbox, carry-over, ability choices and content pack)."""
    seats: tuple[Seat, ...]
    """The players' seats, in order; the first is the host when ``host`` is not set."""
    dice_mode: DiceMode = "server"
    """Who rolls, shuffles and draws: ``server`` (the service, from a secret seed it committed to in
    ``dice_commitment``) or ``manual`` (a player submits what the table rolled with ``Roll``, ``Shuffle`` and
    ``Draw``)."""
    undo_policy: UndoPolicy = "none"
    """Who may undo, fixed for the whole game: ``none``, ``own-turn`` (the seat whose piece has the turn, its
    own commands within that turn), ``all-seats`` (every other seat approves) or ``host`` (the host seat
    alone) (docs/event-model.md, Undo never deletes)."""
    decision_policy: DecisionPolicy = "ask"
    """``ask``: every pending decision waits for a seat's ``Choose``; ``default``: the service answers each
    decision that has a default with that default, recorded as chosen by ``policy``."""
    dice_commitment: str | None = None
    """``sha256(seed)`` of the dice seed, as 64 lowercase hex characters, in ``server`` dice mode;
    ``GameEnded.seed`` reveals the seed so every roll can be checked. ``None`` in ``manual`` mode."""
    host: str | None = None
    """Name of the host seat (the one that may undo alone under the ``host`` undo policy); ``None``: the first
    seat is the host."""
    forked_from: ForkOrigin | None = None
    """Where this game was forked from; ``None`` for a game created afresh."""
    visibility: Visibility = "public"
    """Who may read the game: ``public`` (listed, readable by anyone), ``unlisted`` (readable by anyone with
    its id) or ``private`` (a token of the game is needed)."""
    rules_revision: int = 1
    """The revision of the ruleset's rules the game is played by, fixed at creation (the ruleset's
    ``rules_revision`` then; 1 for games stored before revisions existed). A rules fix that changes play
    comes with a new revision, and the rules keep the old behaviour for games of older revisions, so a
    stored game re-derives (verify, replay) exactly as it was played."""
    chain_format: int = 1
    """How each event's chain hash is computed (docs/verifiable-secrets.md, Tamper evidence), fixed at
    creation. ``1``: over the event's whole stored envelope (every Mice and Mystics game; the games with
    secrets stored before format 2). ``2`` (new games of a ruleset with secrets, such as Vast): over the
    event's public metadata and the salted digest of its payload, ``sha256(salt + payload)`` with ``salt =
    HMAC-SHA256(view key, "<game id>:<version>")``, so a reader who may not see a payload still checks the
    chain across it, and checks the payload against the digest once ``GameEnded`` reveals the view key."""
    view_key_commitment: str | None = None
    """``sha256(view key)`` as 64 lowercase hex characters in a game of chain format 2: the key salting every
    event's payload digest, kept secret until ``GameEnded.view_key`` reveals it; ``None`` in format 1."""
    campaign_id: str | None = None
    """Id (UUID) of the campaign this game plays a chapter of (``POST /campaigns/{id}/chapters``): its end is
    recorded in that campaign (docs/campaigns.md). ``None``: a game on its own, or a chapter's game stored
    before the field existed (found from the campaign's ``ChapterBegun``)."""


class CommandAccepted(Event, kw_only=True):
    """A command accepted by ``decide``; the events it caused follow it in the log.

    ``command`` is the command's canonical JSON (tagged), so ``verify`` can re-run it.
    """

    command: msgspec.Raw
    """The accepted command as canonical JSON, tagged with its ``type`` (``{"type": "Move", "mouse":
    "filch"}``). A reader not allowed to see a command's arguments gets only its ``type``."""


class RollRequested(Event, kw_only=True):
    """A pending roll: ``dice`` dice of ``sides`` faces are needed, for ``reason``.

    ``piece`` is the piece (e.g. a mouse) the roll is for: in ``manual`` dice mode only the seat
    controlling it may submit the faces; ``None`` lets any seat roll (e.g. for minions).
    """

    reason: str
    """What the roll is for, a name of the ruleset (Mice and Mystics: ``move``, ``battle``, ``mouse-defense``,
    ``minion-attack``, ``minion-move``, ``search``...); the answering ``DiceRolled`` carries it too."""
    dice: int
    """Number of dice to roll; a ``Roll`` must give exactly this many faces."""
    sides: int = 6
    """Faces per die, numbered 1 to ``sides``: 6 for the Mice and Mystics action die, 2 for a coin flip (the
    grapes)."""
    piece: str | None = None
    """The piece the roll is for (a mouse id such as ``filch``): in ``manual`` dice mode only the seat
    controlling it may submit the faces. ``None``: any seat may (e.g. a minion's roll)."""
    die: str | None = None
    """Which of the game's dice to roll, when it has several, by the ruleset's name (Vast from rules
    revision 6: ``dragon``, the Dragon die, or ``action``, the Thief's Action die). ``None``: the game's one
    die."""


class DiceRolled(Event, kw_only=True):
    """The faces (1-based) of a pending roll, in order; ``source`` is who rolled them."""

    reason: str
    """The ``reason`` of the ``RollRequested`` this roll answers."""
    faces: tuple[int, ...]
    """The faces rolled, one per die in die order, each from 1 to the request's ``sides`` (Mice and Mystics
    action die: 1 cheese, 2 sword with star, 3 sword/shield, 4 bow, 5 bow with star, 6 sword/shield with
    star)."""
    source: Literal["server", "manual"] = "server"
    """``server``: derived by the service from the committed seed (re-derivable once the seed is revealed);
    ``manual``: submitted by a seat from the table."""


class ShuffleRequested(Event, kw_only=True):
    """A pending public shuffle of ``cards`` (e.g. initiative cards laid on the track)."""

    reason: str
    """What the shuffle is for, a name of the ruleset (Mice and Mystics: ``initiative``, ``new-minions``,
    ``encounter-initiative``)."""
    cards: tuple[str, ...]
    """The card ids to shuffle (Mice and Mystics: initiative cards, i.e. mouse ids and minion card ids); a
    ``Shuffle`` must give an order of exactly these cards."""


class CardsShuffled(Event, kw_only=True):
    """The order a public shuffle produced, first card first."""

    reason: str
    """The ``reason`` of the ``ShuffleRequested`` this shuffle answers."""
    order: tuple[str, ...]
    """The requested cards in their shuffled order, first card first (for the initiative track: the top of the
    track first)."""
    source: Literal["server", "manual"] = "server"
    """``server`` (derived from the committed seed) or ``manual`` (submitted by a seat), as for
    ``DiceRolled.source``."""


class DrawRequested(Event, kw_only=True):
    """A pending draw of ``count`` cards from a face-down deck (docs/who-sees-what.md, Hidden information).

    ``cards`` lists the cards still in the deck, sorted: what is left is public, its order is
    not, and no order is ever stored. Drawing uniformly among them is the same as drawing the
    top card of a shuffled deck.
    """

    reason: str
    """What the draw is for, a name of the ruleset (Mice and Mystics: ``search``, ``encounter``,
    ``boss-cards``)."""
    deck: str
    """Name of the deck drawn from (Mice and Mystics: ``search``, ``encounter``, or ``boss-<boss>`` for a
    boss's initiative cards)."""
    cards: tuple[str, ...]
    """Ids of the cards left in the deck, sorted (a set: the deck's order is never stored)."""
    count: int = 1
    """How many cards to draw; fewer are drawn when the deck holds fewer."""
    piece: str | None = None
    """The piece the draw is for (a mouse id): in ``manual`` dice mode only the seat controlling it may submit
    the cards. ``None``: any seat may."""
    weights: tuple[int, ...] = ()
    """Relative weights of ``cards``, one each, when they are not equally likely (Vast's tile stack: a pile
    seeded with Crystal tiles; docs/vast/facts.md §1 Tile stack setup); empty (and omitted): uniform. Each
    card drawn is drawn with probability proportional to its weight among the cards still undrawn."""


class CardsDrawn(Event, kw_only=True):
    """The cards a pending draw revealed, in draw order."""

    reason: str
    """The ``reason`` of the ``DrawRequested`` this draw answers."""
    deck: str
    """The deck drawn from, as named by the request."""
    cards: tuple[str, ...]
    """Ids of the cards drawn, in draw order: ``count`` different cards of the request's ``cards`` (all of
    them if the deck held fewer). They leave the deck."""
    source: Literal["server", "manual"] = "server"
    """``server`` (derived from the committed seed) or ``manual`` (submitted by a seat), as for
    ``DiceRolled.source``."""


class DecisionRequested(Event, kw_only=True):
    """A pending decision the rules leave to a seat: pick one of ``options``.

    ``default`` is the option the documented default policy picks; ``piece`` as for
    ``RollRequested``.
    """

    decision: str
    """What is decided, a name of the ruleset (Mice and Mystics: ``search-keep``, ``release-space``,
    ``pack-limit``, ``starting-ability``, ``melee-minion-entrances``...)."""
    options: tuple[str, ...]
    """The allowed answers, as strings (e.g. space ids, card ids, ``keep``/``discard``); a ``Choose`` must
    name one of them."""
    piece: str | None = None
    """The piece the decision is about (a mouse id): only the seat controlling it may choose. ``None``: the
    players' common choice, any seat may answer."""
    default: str | None = None
    """The option the documented default policy picks, taken automatically when the game's ``decision_policy``
    is ``default``. ``None``: there is no default, a seat must choose."""


class DecisionMade(Event, kw_only=True):
    """The option chosen for a pending decision, and by whom (a seat, or ``policy``)."""

    decision: str
    """The ``decision`` of the ``DecisionRequested`` this answers."""
    option: str
    """The option chosen, one of the request's ``options``."""
    by: str
    """The seat that chose, or ``policy`` when the game's default decision policy took the default."""


class GameEnded(Event, kw_only=True):
    """The game is over. In ``server`` dice mode ``seed`` reveals the dice seed (hex); in a game of chain
    format 2 ``view_key`` reveals the key salting its payload digests."""

    result: str
    """The outcome the ruleset gives (Mice and Mystics: ``victory`` or ``defeat`` of the chapter; Vast:
    ``won:<role>``, the role that won, ``knight``, ``goblins``, ``dragon``, ``cave`` or ``thief``, or
    ``lost:everyone`` when the Cave collapsed with no Cave player)."""
    reason: str = ""
    """Free-text explanation of the end, from the ruleset's ``outcome_reason(state)`` if it has one (Mice and
    Mystics, games of rules revision 2 on); empty (and omitted) when none is given."""
    seed: str | None = None
    """The dice seed, as hex, revealed in ``server`` dice mode: its sha256 must equal
    ``GameCreated.dice_commitment``, and every server roll, shuffle and draw re-derives from it. ``None`` in
    ``manual`` mode."""
    view_key: str | None = None
    """The view key, as hex, revealed in a game of chain format 2: its sha256 must equal
    ``GameCreated.view_key_commitment``, every event's salt derives from it, and every payload hidden during
    play can then be checked against the digest each reader already held. ``None`` in format 1."""


class UndoRequested(Event, kw_only=True):
    """A seat asks to return the game to ``to_version`` (docs/event-model.md, Undo never deletes).

    ``crosses_rolls`` tells that random results already shown (server dice, shuffles, draws)
    lie in the undone range; ``needs`` are the seats whose approval is still required.
    """

    to_version: int
    """The version whose state the game would return to (from 1 to the version before the request); the event
    right after it is a player's command."""
    by: str
    """The seat asking for the undo."""
    crosses_rolls: bool = False
    """True when results already shown by the server (rolls, shuffles, draws) lie in the undone range: then
    every other seat must approve, whatever the undo policy."""
    needs: tuple[str, ...] = ()
    """The seats whose approval is still required; empty when the undo is applied at once."""


class UndoApproved(Event, kw_only=True):
    """One seat approves the pending undo request."""

    by: str
    """The seat approving (one of the request's ``needs``)."""


class UndoRejected(Event, kw_only=True):
    """One seat rejects the pending undo request; the request is dropped."""

    by: str
    """The seat rejecting (any seat of the game other than the one that asked)."""


class UndoApplied(Event, kw_only=True):
    """The game returns to its state at ``to_version``; the events after it stay in the log,
    marked undone. ``game`` and ``state`` carry that restored state (so replay needs no
    lookup), including the dice stream position: the same action meets the same dice."""

    to_version: int
    """The version whose state is restored; the events after it and before this one are marked undone (undo
    bookkeeping excepted) and stay in the log."""
    approved_by: tuple[str, ...]
    """The seats that agreed, the requesting seat first, then the approvals in order."""
    crosses_rolls: bool = False
    """As ``UndoRequested.crosses_rolls``: the undone range held results shown by the server."""
    game: msgspec.Raw
    """The core's bookkeeping at ``to_version`` as JSON: the pending roll, shuffle, draw or decision and the
    dice stream position (so the same action meets the same dice again)."""
    state: msgspec.Raw
    """The ruleset's state at ``to_version`` as JSON (for Mice and Mystics, the whole game state), secrets
    masked for the reader."""


PendingEvent = RollRequested | ShuffleRequested | DrawRequested | DecisionRequested
CHANCE_EVENTS = (DiceRolled, CardsShuffled, CardsDrawn)
