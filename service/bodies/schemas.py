"""Request and response bodies of the REST API (msgspec Structs; Litestar documents them)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Union
from uuid import UUID

from msgspec import Meta, Struct

from dicelog.domain.core.campaign import CampaignRevertRequested
from dicelog.domain.core.events import DiceMode, PendingEvent, Seat, UndoPolicy, UndoRequested, Visibility
from dicelog.domain.core.verify import Verification
from dicelog.service.bodies.openapi_slots import BoardSlot, CommandSlot, EventSlot, InitiativeSlot, StateSlot
from dicelog.service.bodies.stored_events import (  # re-exported: the campaign ruleset's types
    CAMPAIGN_EVENT_TYPES,
    CarryOverChoice,
    CarryOverDocument,
)


class SeatToken(Struct, frozen=True, kw_only=True):
    """A seat and its bearer token (shown once, at creation; only its hash is stored)."""

    seat: str
    """The seat's name, as in the game's (or campaign's) ``seats``."""
    token: str
    """The seat's bearer token (an opaque URL-safe string), sent as ``Authorization: Bearer <token>`` to send
    commands as this seat and to read what it may see; only its SHA-256 is stored, so it cannot be shown
    again."""


class GameSummary(Struct, frozen=True, kw_only=True):
    """A game at a glance (as the reader may see it: a pending node may be masked)."""

    id: UUID
    """The game's id (UUID), as in ``/games/{id}``."""
    ruleset: str
    """Name of the ruleset the game is played with (``mice-and-mystics``; see ``GET /rulesets``)."""
    version: int
    """Number of events in the game's log, i.e. the version of its latest event (versions count events from
    1); send it as ``expected_version`` with the next command."""
    created_on: datetime
    """When the game was created (its first event), ISO 8601 in UTC; a fork keeps its original's creation
    time."""
    modified_on: datetime
    """When the game's latest event was recorded, ISO 8601 in UTC."""
    dice_mode: DiceMode
    """Who rolls, shuffles and draws, fixed at creation: ``server`` (the service, from a secret seed committed
    to in ``dice_commitment``) or ``manual`` (the seats submit the table's results with ``Roll``, ``Shuffle``
    and ``Draw``)."""
    undo_policy: UndoPolicy
    """Who may undo, fixed at creation: ``none``, ``own-turn`` (the seat whose piece has the turn, its own
    commands of that turn), ``all-seats`` (with every other seat's approval) or ``host`` (the host seat
    alone)."""
    visibility: Visibility
    """Who may read the game: ``public`` (listed by ``GET /games``, readable by anyone), ``unlisted``
    (readable by anyone with its id) or ``private`` (a token of the game is needed)."""
    dice_commitment: str | None
    """``sha256(seed)`` of the game's secret dice seed, 64 lowercase hex characters, in ``server`` dice mode;
    the seed is revealed when the game ends, so every result can be checked (``GET /games/{id}/dice``).
    ``null`` in ``manual`` mode."""
    seats: list[Seat]
    """The players' seats in order, each with the pieces it controls."""
    result: str | None
    """The game's outcome once it has ended (Mice and Mystics: ``victory`` or ``defeat``; Vast:
    ``won:<role>``, the role that won, ``knight``, ``goblins``, ``dragon``, ``cave`` or ``thief``, or
    ``lost:everyone``); ``null`` while it is running."""
    pending: PendingEvent | None
    """The roll, shuffle, draw or decision waiting for an answer (its ``type`` says which), as the reader may
    see it; the seat concerned answers with ``Roll``, ``Shuffle``, ``Draw`` or ``Choose``. ``null`` when
    nothing is pending (or the reader may not see it)."""
    turn: str | None
    """Whose turn it is: in Mice and Mystics the mouse id (``filch``) during a mouse's turn and the minion or
    boss initiative card (``rat-warriors``) during the minions' turn, so it is ``null`` only before the first
    turn, between two turns and after the end; in Vast the role (``knight``). A seat plays when ``turn`` is a
    piece it controls."""
    undo_request: UndoRequested | None = None
    """The open undo request (to which version, asked by which seat, whether it crosses rolls), if any: while
    it is open no other command is accepted. ``null``: none. The same as ``legal-commands``' field, here for
    every reader (a spectator's table shows it too) in the one read of the game."""
    undo_waiting_for: tuple[str, ...] = ()
    """The seats whose ``ApproveUndo`` the open undo request still waits for; empty when none is open."""


class GameCreatedBody(Struct, frozen=True, kw_only=True):
    """Answer to ``POST /games``: the game, one bearer token per seat, a spectator token and an
    auditor token (the auditor sees every secret). A fork's answer holds only the forking
    place's token and a spectator token: the others take theirs with ``POST /games/{id}/claims``.
    Tokens are shown once; only their hashes are kept."""

    game: GameSummary
    """The new game at a glance, as the first token's holder sees it (the first seat; in a fork, the forking
    place)."""
    tokens: list[SeatToken]
    """One bearer token per seat, in seat order. A fork's answer holds only the forking seat's token (none
    when a spectator or auditor token forked)."""
    spectator_token: str | None = None
    """A bearer token that reads the game as a spectator (only what is public); it cannot send commands. Given
    at creation and in a fork's answer."""
    auditor_token: str | None = None
    """A bearer token that reads everything, every seat's secrets included; it cannot send commands. ``null``
    in a fork's answer unless the auditor forked (the auditor of the original claims its place in the fork
    with ``POST /games/{id}/claims``)."""
    table_token: str | None = None
    """Given when the game was created with ``table_device: true``: the bearer token of one device shared at
    the table, which sends every seat's commands (each as the seat controlling the piece it is about, the
    seat that must answer the pending roll, draw or decision, or the seat named by the ``Dicelog-Seat``
    header) and reads as a spectator. ``null`` otherwise."""


class ClaimedToken(Struct, frozen=True, kw_only=True):
    """Answer to ``POST /games/{id}/claims``: the place taken in the fork and its token."""

    game_id: UUID
    """The fork (UUID) the place was taken in."""
    audience: str
    """The place taken, the same as the presented token's place in the original game: ``seat:<name>``,
    ``spectator`` or ``auditor``."""
    token: str
    """The new bearer token for that place in the fork (shown once; only its hash is kept)."""


class GameList(Struct, frozen=True, kw_only=True):
    """A page of games; pass ``next_cursor`` as ``cursor`` for the next page (``None``: last)."""

    games: list[GameSummary]
    """The games of this page in creation order: public games and, with a bearer token, the games that token
    belongs to (shown as the token sees them; the others as a spectator). A page may hold fewer than ``limit``
    games and still have a next one."""
    next_cursor: int | None
    """Pass it as ``cursor`` to get the next page; ``null`` on the last page."""


class EventOut(Struct, frozen=True, kw_only=True):
    """One stored event as the audit log shows it.

    ``hash`` is this event's chain hash, ``prev_hash`` its predecessor's; ``payload`` is the
    event itself (its ``type`` field names the event type). ``undone`` marks an event a later
    ``UndoApplied`` undid (it stays in the log); ``round`` and ``turn`` are the round and the turn it
    happened in, if any.
    ``hidden`` marks an event the reader may not see yet (a secret of another seat): its
    ``payload`` is ``null`` (``type`` still names it) and ``hash`` is its digest, salted so it cannot be
    guessed; everything is shown once the game has ended.
    """

    version: int
    """The event's version: its position in the game's log, counted from 1 (``GameCreated`` is 1). Versions
    have no gaps."""
    type: str
    """The event type (``CommandAccepted``, ``DiceRolled``, ``GameEnded``...), as the ``type`` of ``payload``;
    given even when the event is ``hidden``."""
    seat: str
    """The seat whose command caused the event: a seat's name, ``server`` for the service's own steps (the
    game's creation, server dice, automatic steps) or ``policy`` for a decision the default decision policy
    took."""
    command_id: str
    """Id of the command that caused the event, shared by every event it caused: a UUID for a player's
    command, ``<that id>/<n>`` for the automatic steps that followed it, ``create-<game id>`` (and
    ``create-<game id>/begin...``) for the game's creation. A fork's copied events keep their ids."""
    timestamp: datetime
    """When the event was recorded, ISO 8601 in UTC (every event of one command has the same time)."""
    prev_hash: str
    """The previous event's ``hash`` (64 lowercase hex characters); 64 zeros for version 1."""
    hash: str
    """This event's chain hash: the hex SHA-256 of ``<game id>:<version>:`` followed by the event's stored
    bytes (chain format 1), or by the JSON of its link (chain format 2: ``timestamp``, ``seat``,
    ``command_id``, ``prev_hash``, ``type`` and ``digest``), which include ``prev_hash``; the next event's
    ``prev_hash`` is this value. ``POST /games/{id}/verify`` checks the chain."""
    payload: EventSlot | None
    """The event itself (its ``type`` names the event type), as the reader may see it; ``null``
    when ``hidden``."""
    undone: bool = False
    """True when a later ``UndoApplied`` undid the event; it stays in the log. Undo requests, approvals and
    rejections are never marked."""
    round: int | None = None
    """Number of the round the event happened in, counted from 1 (the ``round`` filter of ``GET
    /games/{id}/events``); ``null`` before the first round starts."""
    turn: int | None = None
    """Number of the turn the event happened in, counted from 1 in the order turns started (the ``number`` of
    ``GET /games/{id}/turns/{number}``, whose span holds the event): from the event that starts a turn (the
    ruleset's own turn start: ``TurnStarted`` in Mice and Mystics, ``VastTurnStarted`` in Vast) to the event
    before the next turn or round starts. ``null`` outside any turn: during set-up, before the first turn,
    and from a round's start to its first turn."""
    hidden: bool = False
    """True when the reader may not see this event yet (a secret of another seat): ``payload`` is ``null``,
    while ``version``, ``type``, ``seat`` and the hashes are still given."""
    digest: str | None = None
    """Games of chain format 2 (``GameCreated.chain_format``; new Vast games): the payload's salted digest,
    ``sha256(salt + canonical payload JSON)``, 64 hex characters, given for every event, hidden or not. The
    chain hash covers it instead of the payload, so every reader checks the whole chain (``GET
    /games/{id}/export``, ``dicelog verify``); ``null`` in chain format 1."""
    salt: str | None = None
    """Chain format 2: the payload's salt (64 hex characters, derived from the game's view key), given only
    when the payload is shown whole, so the reader checks it against ``digest``; ``null`` otherwise (hidden
    or masked payloads are proven once ``GameEnded`` reveals the view key)."""


class EventPage(Struct, frozen=True, kw_only=True):
    """A page of a game's events, oldest first; ``next_after`` continues it (``None``: end)."""

    game_id: UUID
    """The game (UUID)."""
    events: list[EventOut]
    """The events with a version greater than ``after`` that match the filters, oldest first, at most
    ``limit`` of them."""
    next_after: int | None
    """Version of this page's last event when more events match: pass it as ``after`` (with the same filters)
    for the next page; ``null`` on the last page."""


class CommandResult(Struct, frozen=True, kw_only=True):
    """Answer to a command: the new version, the events it caused, and what comes next."""

    game_id: UUID
    """The game (UUID)."""
    version: int
    """The game's version after the command (that of the last event it caused); send it as
    ``expected_version`` with the next command."""
    events: list[EventOut]
    """The events the command caused, oldest first, as the sending seat may see them: its ``CommandAccepted``,
    the rules' events, and the automatic steps that followed (server dice, default decisions)."""
    pending: PendingEvent | None
    """The roll, shuffle, draw or decision now waiting for an answer (its ``type`` says which), as the seat
    may see it: answer it with ``Roll``, ``Shuffle``, ``Draw`` or ``Choose`` before anything else. In
    ``server`` dice mode the service answers rolls, shuffles and draws itself. ``null``: nothing is
    pending."""
    turn: str | None
    """Whose turn it is: in Mice and Mystics the mouse id (``filch``) during a mouse's turn and the minion or
    boss initiative card (``rat-warriors``) during the minions' turn, so it is ``null`` only before the first
    turn, between two turns and after the end; in Vast the role (``knight``). A seat plays when ``turn`` is a
    piece it controls."""
    result: str | None
    """The game's outcome if the command ended it (Mice and Mystics: ``victory`` or ``defeat``; Vast:
    ``won:<role>``, the role that won, ``knight``, ``goblins``, ``dragon``, ``cave`` or ``thief``, or
    ``lost:everyone``); ``null`` while the game goes on."""


class StateAt(Struct, frozen=True, kw_only=True):
    """The full state of a game at one version (replay)."""

    game_id: UUID
    """The game (UUID)."""
    version: int
    """The version shown: the state after the game's first ``version`` events (the latest version when the
    ``version`` query parameter is omitted)."""
    state: StateSlot
    """The game's state as the reader may see it (the ruleset's state document)."""
    pending: PendingEvent | None
    """The roll, shuffle, draw or decision that was waiting for an answer at that version, as the reader may
    see it; ``null``: none."""
    result: str | None
    """The game's outcome if it had ended by that version (Mice and Mystics: ``victory`` or ``defeat``; Vast:
    ``won:<role>``, the role that won, ``knight``, ``goblins``, ``dragon``, ``cave`` or ``thief``, or
    ``lost:everyone``); ``null`` otherwise."""


class LegalCommands(Struct, frozen=True, kw_only=True):
    """What the calling seat may send now, and what is pending (and for whom)."""

    game_id: UUID
    """The game (UUID)."""
    version: int
    """The game's current version; send it as ``expected_version`` with the command."""
    seat: str
    """The calling seat: the one the bearer token belongs to."""
    commands: list[CommandSlot]
    """Ready-to-send commands (the ``command`` of ``POST /games/{id}/commands``): the ruleset's commands for
    this seat's pieces when nothing is pending; one ``Choose`` per option when a decision this seat must
    answer is pending; ``ApproveUndo`` / ``RejectUndo`` while an undo request this seat may answer is open.
    Empty when this seat has nothing to do, and while a roll, shuffle or draw is pending (answered with
    what the table rolled, shuffled or drew: see ``pending``)."""
    pending: PendingEvent | None
    """The roll, shuffle, draw or decision waiting for an answer, as this seat may see it; it is answered
    with a ``Roll``, ``Shuffle``, ``Draw`` or ``Choose`` (a decision's ``options`` are the choices, listed in
    ``commands`` for the seat that must answer). ``null``: nothing is pending."""
    pending_seat: str | None
    """The seat that must answer ``pending``: the one controlling the piece it names. ``null`` when nothing is
    pending or it names no piece (then any seat may answer)."""
    turn: str | None
    """Whose turn it is: in Mice and Mystics the mouse id (``filch``) during a mouse's turn and the minion or
    boss initiative card (``rat-warriors``) during the minions' turn, so it is ``null`` only before the first
    turn, between two turns and after the end; in Vast the role (``knight``). A seat plays when ``turn`` is a
    piece it controls."""
    undo_request: UndoRequested | None = None
    """The open undo request (to which version, asked by which seat, whether it crosses rolls), if any:
    while it is open no other command is accepted. ``null``: none."""
    undo_waiting_for: tuple[str, ...] = ()
    """The seats whose ``ApproveUndo`` the open undo request still waits for; empty when none is open."""


class VerifyResult(Struct, frozen=True, kw_only=True):
    """Answer to ``POST /games/{id}/verify``."""

    game_id: UUID
    """The game (UUID)."""
    verification: Verification
    """The outcome: ``ok`` with the number of events verified, or the first divergence. A divergence's
    ``expected`` and ``found`` read ``(hidden)`` unless the reader sees everything (the auditor; anyone in a
    game without secrets, or once the game has ended)."""


class RulesetInfo(Struct, frozen=True, kw_only=True):
    """A ruleset this server plays: its name, the path of its content catalogue, if any, and the module of its
    web table."""

    name: str
    """The ruleset's name (``mice-and-mystics``): the ``ruleset`` of a ``POST /games`` body."""
    content: str | None
    """Path of the ruleset's content catalogue (``/content/mice-and-mystics``); ``null`` when it has none."""
    table: str
    """Path of the JavaScript module the web table (``/play/{id}``) imports for this ruleset's games
    (``/web/rulesets/vast/vast.js``); the generic table's (``/static/js/generic.js``) for a ruleset with
    no web files of its own."""
    lobby: str | None = None
    """Path of the JavaScript module that draws the lobby's setup form for a new game of this ruleset
    (``/web/rulesets/vast/lobby.js``); ``null``: the lobby asks for the setup document as JSON."""


class Health(Struct, frozen=True, kw_only=True):
    """Answer to ``GET /health`` (the process is up) and ``GET /ready`` (its event store answers; how far each
    projection lags)."""

    status: Literal["ok", "unavailable"]
    """``ok`` in every 200 answer. When the event store cannot write, ``GET /ready`` answers 503 with a
    problem instead of this body."""
    checks: dict[str, str]
    """``GET /ready``: ``store`` and each projection (``board``, ``initiative``, ``log``) and the Redis
    ``publisher`` (when configured), each ``ok``, ``behind by <n>`` (stored events it has not processed yet),
    ``unavailable: <reason>`` or ``error: <reason>``; a lagging projection does not make the service unready.
    Empty for ``GET /health``."""


class ProblemError(Struct, frozen=True, kw_only=True):
    """One reason a request was malformed (in a 400 problem's ``errors``)."""

    message: str
    """What is wrong."""
    key: str | None = None
    """The parameter, header or body field at fault, when known."""
    source: str | None = None
    """Where it was: ``body``, ``query``, ``path``, ``header`` or ``cookie``."""


class Problem(Struct, frozen=True, kw_only=True):
    """RFC 9457 problem details. ``type`` is stable per problem; for a broken rule it is
    ``urn:dicelog:rule:<rule id>`` and ``rule``/``section`` name the rule and its rulebook section."""

    status: int
    """The HTTP status code."""
    type: str | None = None
    """A stable URI of the problem kind: ``urn:dicelog:rule:<rule id>`` for a broken game rule (422),
    else one of the ``ProblemType`` values ``urn:dicelog:problem:<kind>`` (docs/api-contract.md,
    Problem types)."""
    title: str | None = None
    """A short summary of the problem kind."""
    detail: str | None = None
    """What happened in this case, for a person to read."""
    rule: str | None = None
    """The id of the rule that refused the command (422 rule problems)."""
    section: str | None = None
    """The rulebook section the rule comes from (422 rule problems)."""
    expected_version: int | None = None
    """The ``expected_version`` the request stated (409 ``version-conflict``)."""
    current_version: int | None = None
    """The game's version when the request arrived (409 ``version-conflict``)."""
    errors: list[ProblemError] | None = None
    """The reasons a request was malformed (400)."""
    reason: str | None = None
    """What failed (503 ``store-unavailable``): ``locked``, ``read-only``, ``disk-full``, ``io-error``,
    ``connection-lost``, ``pool-timeout``, ``timeout``, ``permission-denied``, ``pooler`` (a
    connection pooler's prepared statements), ``busy``, ``redis`` or ``unavailable``."""
    retry_after: int | None = None
    """Seconds to wait before retrying (503; also the ``Retry-After`` header)."""
    outcome: Literal["not-stored", "unknown"] | None = None
    """What became of a write answered 503: ``not-stored`` (nothing changed), or ``unknown`` (the
    connection failed while the store may have committed it: retry with the same ``Idempotency-Key``,
    which is answered as the first attempt was if it was stored, and runs once if it was not)."""
    max_bytes: int | None = None
    """The largest body accepted (413 ``body-too-large``)."""
    max_depth: int | None = None
    """The deepest nesting of arrays and objects accepted in a body (400 ``body-too-deep``)."""
    quota: Literal["create", "commands", "expensive"] | None = None
    """The quota that is spent (429 ``rate-limited``; docs/api-contract.md, Quotas)."""
    limit: int | None = None
    """How many requests the quota allows per window (429 ``rate-limited``)."""
    window_seconds: int | None = None
    """The quota's window, in seconds (429 ``rate-limited``)."""
    content_type: str | None = None
    """The ``Content-Type`` the request stated (415 ``unsupported-media-type``)."""
    accepted: list[str] | None = None
    """The media types the body may have (415 ``unsupported-media-type``)."""


class TurnView(Struct, frozen=True, kw_only=True):
    """One turn (or round) replayed: its events in order, with the commands, dice and decisions
    among them, the state before and after, and a log line per event that has one."""

    game_id: UUID
    """The game (UUID)."""
    kind: Literal["turn", "round"]
    """``turn`` or ``round``: what was replayed."""
    number: int
    """The turn's or round's number, counted from 1 in the order they started (the path's ``number``)."""
    from_version: int
    """Version of the span's first event: the one that started the turn or round."""
    to_version: int
    """Version of the span's last event: the one before the next turn (or round) starts, or the latest."""
    state_before: StateSlot
    """The state before the first event of the span, as the reader may see it."""
    state_after: StateSlot
    """The state after the last event of the span, as the reader may see it."""
    events: list[EventOut]
    """Every event of the span, oldest first, as the audit log shows them (``undone``, ``round`` and
    ``hidden`` included)."""
    commands: list[TurnCommand]
    """The commands accepted in the span, in order, the service's automatic ones (seats ``server`` and
    ``policy``) included; events hidden from the reader are left out."""
    dice: list[TurnEvent]
    """The rolls, shuffles and draws of the span in order, each request and its answer (``RollRequested`` then
    ``DiceRolled``...); events hidden from the reader are left out."""
    decisions: list[TurnEvent]
    """The decisions of the span in order: each ``DecisionRequested`` and the ``DecisionMade`` that answered
    it; events hidden from the reader are left out."""
    log: list[str]
    """Readable lines in order, ``v<version>: <what happened>``, one per event that has one; an event hidden
    from the reader reads ``v<version>: (<type>, hidden)``."""


class TurnCommand(Struct, frozen=True, kw_only=True):
    """A command accepted during a turn or round."""

    version: int
    """Version of its ``CommandAccepted`` event."""
    seat: str
    """The seat that sent it."""
    command: CommandSlot
    """The command as sent."""


class TurnEvent(Struct, frozen=True, kw_only=True):
    """A chance or decision event of a turn or round (a roll, shuffle or draw and its answer; a
    decision asked and made)."""

    version: int
    """The event's version."""
    event: EventSlot
    """The event as the reader may see it."""


class BoardOut(Struct, frozen=True, kw_only=True):
    """The board read model of a game (``GET /games/{id}/board``)."""

    game_id: UUID
    """The game."""
    version: int
    """The game version this board shows: the ``version`` asked for; without one, the latest as last
    projected (the projection may trail the latest by a moment)."""
    board: BoardSlot
    """The ruleset's board view, as the reader may see it."""


class InitiativeOut(Struct, frozen=True, kw_only=True):
    """The initiative read model of a game (``GET /games/{id}/initiative``)."""

    game_id: UUID
    """The game."""
    version: int
    """The game version this track shows: the ``version`` asked for; without one, the latest as last
    projected (the projection may trail the latest by a moment)."""
    initiative: InitiativeSlot
    """The ruleset's initiative view (turn order and public tracks), as the reader may see it."""


class LogLine(Struct, frozen=True, kw_only=True):
    """One readable line of the game log."""

    version: int
    """Version of the event the line tells."""
    seat: str
    """The seat whose command caused the event: a seat's name, ``server`` for the service's own steps or
    ``policy`` for a decision the default decision policy took."""
    type: str
    """The event type."""
    line: str
    """What happened, in English game terms."""
    undone: bool = False
    """True when a later undo undid the event (its line stays in the log, marked; the game went on from
    before it)."""


class LogOut(Struct, frozen=True, kw_only=True):
    """A page of the game log (``GET /games/{id}/log``), oldest first."""

    game_id: UUID
    """The game."""
    version: int
    """The game version this log has reached: every line of an event up to it is in the log (this page
    holds those after ``after``, at most ``limit``). The log is a read model and may trail the game by a
    moment: a reader who knows a later version (a command's answer, the stream) reads again."""
    lines: list[LogLine]
    """The lines after ``after``, at most ``limit`` of them."""


class ChanceOut(Struct, frozen=True, kw_only=True):
    """One random result: its position ``k`` in the dice stream, what it was and, once the seed
    is revealed, whether it re-derives from it."""

    version: int
    """Version of the ``DiceRolled``, ``CardsShuffled`` or ``CardsDrawn`` event."""
    k: int
    """The result's position in the dice stream, counted from 0: the values derive from ``HMAC-SHA256(seed,
    "dicelog:<k>:<block>")``. An undo rewinds the stream, so a position can appear more than once."""
    type: str
    """``DiceRolled``, ``CardsShuffled`` or ``CardsDrawn``."""
    reason: str
    """What the roll, shuffle or draw was for, as the ruleset names it (``move``, ``battle``, ``initiative``,
    ``search``...); empty when ``hidden``."""
    result: list[int | str]
    """What came out: the faces rolled (integers from 1), the shuffled card ids in order, or the card ids
    drawn in draw order; empty when ``hidden``."""
    source: str
    """``server`` (derived by the service from the committed seed) or ``manual`` (submitted by a seat)."""
    rederived: bool | None = None
    """Whether the result re-derives from the revealed seed. ``null`` while the seed is secret, for a
    ``manual`` result, for a fork's results copied from a running original (proven there), and while the
    reader may not see everything."""
    hidden: bool = False
    """True when the reader may not see this result yet (a secret of another seat): ``reason`` and ``result``
    are then empty."""


class DiceProof(Struct, frozen=True, kw_only=True):
    """The dice proof: the commitment made at creation, the seed once revealed, every roll."""

    game_id: UUID
    """The game (UUID)."""
    dice_mode: DiceMode
    """``server`` (the service rolls from its committed seed) or ``manual`` (the seats submit the results)."""
    commitment: str | None
    """``sha256(seed)``, 64 lowercase hex characters, published when the game was created (a fork of a running
    game has its own); ``null`` in ``manual`` mode."""
    seed: str | None
    """The dice seed as hex, revealed by the event that ends the game; ``null`` while the game is running and
    in ``manual`` mode."""
    seed_matches_commitment: bool | None
    """Whether the SHA-256 of the revealed ``seed`` equals ``commitment``; ``null`` while no seed is
    revealed."""
    chances: list[ChanceOut]
    """Every roll, shuffle and draw of the game, in log order."""


class ForkRequest(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``POST /games/{id}/forks``: the version to fork at (a version right before a player's
    command, or the latest)."""

    version: Annotated[int, Meta(ge=1)]
    """The fork copies the original's events 1 to ``version``: a version whose next event is a player's
    command, or the latest version (422 otherwise)."""


class NewCampaign(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``POST /campaigns``: the chapters in order, the party (the ruleset's setup without the
    chapter, e.g. ``{"mice": [...]}``), the seats and policies; the undo policy also governs
    reverting the campaign's history (``host`` or ``all-seats``)."""

    ruleset: Literal["mice-and-mystics"] = "mice-and-mystics"
    """The ruleset of every chapter's game; only ``mice-and-mystics`` has a campaign mode."""
    visibility: Visibility = "unlisted"
    """Who may read the campaign and its chapters' games: ``public``, ``unlisted`` (the default) or
    ``private`` (a seat's token is needed), as for a game."""
    chapters: Annotated[
        list[Annotated[str, Meta(min_length=1, max_length=64)]], Meta(min_length=1, max_length=64)
    ]
    """The chapter ids to play, in order (``chapter-1``); the campaign is complete when the last one is
    won."""
    party: Annotated[dict[str, Any], Meta(extra_json_schema={"additionalProperties": True})]
    """The ruleset's setup document without a ``chapter`` (400 if it names one), e.g. ``{"mice": [...]}``;
    each chapter's game is created from it with that chapter and the carry-over from the chapters won
    before."""
    seats: Annotated[list[Seat], Meta(min_length=1, max_length=8)]
    """The players' seats (1 to 8, names unique), the same in every chapter's game; each lists the pieces it
    controls."""
    dice_mode: DiceMode = "server"
    """``server`` (the default) or ``manual`` dice for every chapter's game, as for a game."""
    undo_policy: UndoPolicy = "none"
    """The undo policy of every chapter's game; it also says who may revert the campaign: nobody under
    ``none`` (the default) or ``own-turn``, the host alone under ``host``, any seat with every other seat's
    approval under ``all-seats``."""
    host: str | None = None
    """Name of the host seat, one of ``seats`` (400 otherwise); ``null``: the first seat."""


class ChapterOut(Struct, frozen=True, kw_only=True):
    """One chapter played in a campaign (reverted chapters stay listed, marked)."""

    number: int
    """The chapter's position in the campaign's ``chapters``, counted from 1 (a chapter played again after a
    defeat has one entry per game, with the same number); ``to_chapter`` of a revert names it."""
    chapter: str
    """The chapter's id (``chapter-1``)."""
    game_id: UUID
    """The game (UUID) that played the chapter (``GET /games/{id}``)."""
    result: str | None
    """The game's outcome (``victory`` or ``defeat``); ``null`` while the chapter is being played."""
    carry_in: CarryOverDocument | None
    """The carry-over document (JSON, the ruleset's) the chapter's game received; ``null`` when no chapter had
    been won before it."""
    carry_out: CarryOverDocument | None
    """The carry-over recorded with the result: after a victory, what the next chapter receives; after a
    defeat, the carry-over unchanged. ``null`` while the chapter is being played."""
    reverted: bool
    """True once a campaign revert undid this chapter: it stays listed but no longer counts."""


class CampaignOut(Struct, frozen=True, kw_only=True):
    """A campaign's history: every chapter's game, result and carry-over, and what comes next."""

    id: UUID
    """The campaign's id (UUID), as in ``/campaigns/{id}``."""
    version: int
    """Number of events in the campaign's own log (its latest version, counted from 1)."""
    ruleset: str
    """The ruleset of every chapter's game (``mice-and-mystics``)."""
    chapters: list[str]
    """The chapter ids to play, in order."""
    next_chapter: str | None
    """Id of the chapter to win next: the one being played while its game runs (the same one again after a
    defeat), else the one ``POST /campaigns/{id}/chapters`` starts; ``null`` once every chapter is won."""
    carry_over: CarryOverDocument | None
    """The carry-over document (JSON, the ruleset's) the next chapter's game receives: that of the latest
    victory not reverted; ``null`` while there is none."""
    history: list[ChapterOut]
    """Every chapter begun, in the order played, reverted ones included."""
    revert_pending: CampaignRevertRequested | None
    """The open revert request, ``null`` when none: ``to_index`` (the chapter's ``number`` minus 1), ``by``
    (the seat asking) and ``needs`` (the seats whose approval was asked when it was made). While it is open no
    chapter begins."""
    undo_policy: UndoPolicy
    """The campaign's undo policy (that of every chapter's game): who may revert it, nobody under ``none`` or
    ``own-turn``, the host alone under ``host``, any seat with every other seat's approval under
    ``all-seats``."""
    carry_over_choices: dict[str, CarryOverChoice] = {}
    """The choices of what carries over made since the latest chapter ended in a victory, by seat (``POST
    /campaigns/{id}/carry-over``; for Mice and Mystics ``{"keep": {"filch": "<card>"}}``): ``carry_over``
    applies them already, and the default to every piece no seat chose for. Empty once the next chapter
    begins."""


class CampaignCreatedBody(Struct, frozen=True, kw_only=True):
    """Answer to ``POST /campaigns``: the campaign and one bearer token per seat (the same token plays every
    chapter). Tokens are shown once; only their hashes are kept."""

    campaign: CampaignOut
    """The new campaign; no chapter has begun yet (``POST /campaigns/{id}/chapters`` starts the first)."""
    tokens: list[SeatToken]
    """One bearer token per seat, in seat order: it acts on the campaign and plays every chapter's game. Shown
    once; only its hash is kept."""
    spectator_token: str | None = None
    """A read-only token for spectators: it reads the campaign, its log and every chapter's game (even a
    private one) as a spectator does, and acts on nothing (403). Shown once."""
    auditor_token: str | None = None
    """A read-only token that reads the campaign, its log and every chapter's game in full, as a game's
    auditor token does. Shown once."""


class ChapterStartedBody(Struct, frozen=True, kw_only=True):
    """Answer to ``POST /campaigns/{id}/chapters``: the campaign and the game of the chapter just begun."""

    campaign: CampaignOut
    """The campaign after the new chapter began (the previous chapter's result was recorded when its game
    ended)."""
    game: GameSummary
    """The new chapter's game at a glance, as the calling seat sees it; the campaign's seat tokens play it."""


class RevertRequest(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Revert the campaign to before the result of chapter number ``to_chapter`` (1-based)."""

    to_chapter: Annotated[int, Meta(ge=1, le=64)]
    """``number`` (counted from 1, as in ``history``) of a recorded chapter not reverted: it and every later
    chapter are undone, and it is played again (422 when there is none)."""


CampaignEvent = Union[CAMPAIGN_EVENT_TYPES]  # type: ignore[valid-type]  # noqa: UP007 - a union of the tuple's types
"""A campaign's own events (docs/campaigns.md), tagged by ``type``: the typed mirrors of the stored events
(``dicelog.service.bodies.stored_events``)."""


class CampaignEventOut(Struct, frozen=True, kw_only=True):
    """One stored event of a campaign's own log, as ``GET /campaigns/{id}/events`` shows it: the same
    envelope and hash chain as a game's events (``EventOut``)."""

    version: int
    """The event's version: its position in the campaign's log, counted from 1 (``CampaignStarted`` is 1)."""
    type: str
    """The event type (``ChapterBegun``, ``ChapterRecorded``, ``CarryOverChosen``...), as the ``type`` of
    ``payload``."""
    seat: str
    """The seat whose request caused the event (who began a chapter, chose, asked for or approved a revert),
    or ``server`` for the service's own (the campaign's start, a chapter's result recorded at its game's
    end)."""
    command_id: str
    """Id of the request that caused the event, shared by every event it caused (a revert request and the
    revert it applied at once; a choice and the carry-over recomputed with it)."""
    timestamp: datetime
    """When the event was recorded, ISO 8601 in UTC."""
    prev_hash: str
    """The previous event's ``hash`` (64 lowercase hex characters); 64 zeros for version 1."""
    hash: str
    """This event's chain hash: the hex SHA-256 of ``<campaign id>:<version>:`` followed by the event's stored
    bytes; the next event's ``prev_hash`` is this value. ``POST /campaigns/{id}/verify`` checks the chain."""
    payload: CampaignEvent | None
    """The event itself (its ``type`` names it), as the reader may see it; ``null`` when ``hidden``."""
    hidden: bool = False
    """True when the reader may not see this event's payload (never for the rulesets served today: a
    campaign's events are public to its readers)."""


class CampaignEventPage(Struct, frozen=True, kw_only=True):
    """A page of a campaign's own events, oldest first; ``next_after`` continues it (``None``: end)."""

    campaign_id: UUID
    """The campaign (UUID)."""
    events: list[CampaignEventOut]
    """The events with a version greater than ``after`` that match the filters, oldest first, at most
    ``limit`` of them."""
    next_after: int | None
    """Version of this page's last event when more events match: pass it as ``after`` (with the same filters)
    for the next page; ``null`` on the last page."""


class CampaignVerifyResult(Struct, frozen=True, kw_only=True):
    """Answer to ``POST /campaigns/{id}/verify``."""

    campaign_id: UUID
    """The campaign (UUID)."""
    verification: Verification
    """The outcome: ``ok`` with the number of events verified, or the first divergence (``chain``,
    ``structure`` or ``derivation``: an event the campaign's rules would not decide there, or a recorded
    result that is not its game's)."""
