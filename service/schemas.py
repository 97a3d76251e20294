"""Request and response bodies of the REST API (msgspec Structs; Litestar documents them)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from msgspec import Meta, Struct

from domain.core.campaign import CampaignRevertRequested
from domain.core.events import DiceMode, PendingEvent, Seat, UndoPolicy, Visibility
from domain.core.verify import Verification
from service.openapi_slots import slot

class SeatToken(Struct, frozen=True, kw_only=True):
    """A seat and its bearer token (shown once, at creation; only its hash is stored)."""

    seat: str
    token: str


class GameSummary(Struct, frozen=True, kw_only=True):
    """A game at a glance (as the reader may see it: a pending node may be masked)."""

    id: UUID
    ruleset: str
    version: int
    created_on: datetime
    modified_on: datetime
    dice_mode: DiceMode
    undo_policy: UndoPolicy
    visibility: Visibility
    dice_commitment: str | None
    seats: list[Seat]
    result: str | None
    pending: PendingEvent | None
    turn: str | None


class GameCreatedBody(Struct, frozen=True, kw_only=True):
    """Answer to ``POST /games``: the game, one bearer token per seat, a spectator token and an
    auditor token (the auditor sees every secret). A fork's answer holds only the forking
    place's token and a spectator token: the others take theirs with ``POST /games/{id}/claims``.
    Tokens are shown once; only their hashes are kept."""

    game: GameSummary
    tokens: list[SeatToken]
    spectator_token: str | None = None
    auditor_token: str | None = None


class ClaimedToken(Struct, frozen=True, kw_only=True):
    """Answer to ``POST /games/{id}/claims``: the place taken in the fork and its token."""

    game_id: UUID
    audience: str
    token: str


class GameList(Struct, frozen=True, kw_only=True):
    """A page of games; pass ``next_cursor`` as ``cursor`` for the next page (``None``: last)."""

    games: list[GameSummary]
    next_cursor: int | None


class EventOut(Struct, frozen=True, kw_only=True):
    """One stored event as the audit log shows it.

    ``hash`` is this event's chain hash, ``prev_hash`` its predecessor's; ``payload`` is the
    event itself (its ``type`` field names the event type). ``undone`` marks an event a later
    ``UndoApplied`` undid (it stays in the log); ``round`` is the round it happened in, if any.
    ``hidden`` marks an event the reader may not see yet (a secret of another seat): its
    ``payload`` is ``null`` (``type`` still names it) and ``hash`` is its digest, salted so it cannot be
    guessed; everything is shown once the game has ended.
    """

    version: int
    type: str
    seat: str
    command_id: str
    timestamp: datetime
    prev_hash: str
    hash: str
    payload: slot("event") | None
    """The event itself (its ``type`` names the event type), as the reader may see it; ``null``
    when ``hidden``."""
    undone: bool = False
    round: int | None = None
    hidden: bool = False


class EventPage(Struct, frozen=True, kw_only=True):
    """A page of a game's events, oldest first; ``next_after`` continues it (``None``: end)."""

    game_id: UUID
    events: list[EventOut]
    next_after: int | None


class CommandResult(Struct, frozen=True, kw_only=True):
    """Answer to a command: the new version, the events it caused, and what comes next."""

    game_id: UUID
    version: int
    events: list[EventOut]
    pending: PendingEvent | None
    turn: str | None
    result: str | None


class StateAt(Struct, frozen=True, kw_only=True):
    """The full state of a game at one version (replay)."""

    game_id: UUID
    version: int
    state: slot("state")
    """The game's state as the reader may see it (the ruleset's state document)."""
    pending: PendingEvent | None
    result: str | None


class LegalCommands(Struct, frozen=True, kw_only=True):
    """What the calling seat may send now, and what is pending (and for whom)."""

    game_id: UUID
    version: int
    seat: str
    commands: list[slot("command")]
    """Ready-to-send commands of the game's ruleset (the ``command`` of ``POST /games/{id}/commands``)."""
    pending: PendingEvent | None
    pending_seat: str | None
    turn: str | None


class VerifyResult(Struct, frozen=True, kw_only=True):
    """Answer to ``POST /games/{id}/verify``."""

    game_id: UUID
    verification: Verification


class RulesetInfo(Struct, frozen=True, kw_only=True):
    """A ruleset this server plays: its name and the path of its content catalogue, if any."""

    name: str
    content: str | None


class Health(Struct, frozen=True, kw_only=True):
    status: Literal["ok", "unavailable"]
    checks: dict[str, str]


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
    """A stable URI of the problem kind: ``urn:dicelog:rule:<rule id>`` for a broken game rule,
    ``urn:dicelog:problem:<kind>`` otherwise (``version-conflict``, ``game-not-found``, ...)."""
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


class TurnView(Struct, frozen=True, kw_only=True):
    """One turn (or round) replayed: its events in order, with the commands, dice and decisions
    among them, the state before and after, and a log line per event that has one."""

    game_id: UUID
    kind: Literal["turn", "round"]
    number: int
    from_version: int
    to_version: int
    state_before: slot("state")
    """The state before the first event of the span, as the reader may see it."""
    state_after: slot("state")
    """The state after the last event of the span, as the reader may see it."""
    events: list[EventOut]
    commands: list[TurnCommand]
    dice: list[TurnEvent]
    decisions: list[TurnEvent]
    log: list[str]


class TurnCommand(Struct, frozen=True, kw_only=True):
    """A command accepted during a turn or round."""

    version: int
    """Version of its ``CommandAccepted`` event."""
    seat: str
    """The seat that sent it."""
    command: slot("command")
    """The command as sent."""


class TurnEvent(Struct, frozen=True, kw_only=True):
    """A chance or decision event of a turn or round (a roll, shuffle or draw and its answer; a
    decision asked and made)."""

    version: int
    """The event's version."""
    event: slot("event")
    """The event as the reader may see it."""


class BoardOut(Struct, frozen=True, kw_only=True):
    """The board read model of a game (``GET /games/{id}/board``)."""

    game_id: UUID
    """The game."""
    version: int
    """The game version this board shows (the projection may trail the latest by a moment)."""
    board: slot("board")
    """The ruleset's board view, as the reader may see it."""


class InitiativeOut(Struct, frozen=True, kw_only=True):
    """The initiative read model of a game (``GET /games/{id}/initiative``)."""

    game_id: UUID
    """The game."""
    version: int
    """The game version this track shows (the projection may trail the latest by a moment)."""
    initiative: slot("initiative")
    """The ruleset's initiative view (turn order and public tracks), as the reader may see it."""


class LogLine(Struct, frozen=True, kw_only=True):
    """One readable line of the game log."""

    version: int
    """Version of the event the line tells."""
    seat: str
    """The seat whose command caused the event (``system`` for the core's own events)."""
    type: str
    """The event type."""
    line: str
    """What happened, in English game terms."""


class LogOut(Struct, frozen=True, kw_only=True):
    """A page of the game log (``GET /games/{id}/log``), oldest first."""

    game_id: UUID
    """The game."""
    lines: list[LogLine]
    """The lines after ``after``, at most ``limit`` of them."""


class ChanceOut(Struct, frozen=True, kw_only=True):
    """One random result: its position ``k`` in the dice stream, what it was and, once the seed
    is revealed, whether it re-derives from it."""

    version: int
    k: int
    type: str
    reason: str
    result: list[Any]
    source: str
    rederived: bool | None = None
    hidden: bool = False


class DiceProof(Struct, frozen=True, kw_only=True):
    """The dice proof: the commitment made at creation, the seed once revealed, every roll."""

    game_id: UUID
    dice_mode: DiceMode
    commitment: str | None
    seed: str | None
    seed_matches_commitment: bool | None
    chances: list[ChanceOut]


class ForkRequest(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``POST /games/{id}/forks``: the version to fork at (a version right before a player's
    command, or the latest)."""

    version: Annotated[int, Meta(ge=1)]


class NewCampaign(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``POST /campaigns``: the chapters in order, the party (the ruleset's setup without the
    chapter, e.g. ``{"mice": [...]}``), the seats and policies; the undo policy also governs
    reverting the campaign's history (``host`` or ``all-seats``)."""

    ruleset: Literal["mice-and-mystics"] = "mice-and-mystics"
    visibility: Visibility = "unlisted"
    chapters: Annotated[list[Annotated[str, Meta(min_length=1, max_length=64)]], Meta(min_length=1, max_length=64)]
    party: Annotated[dict[str, Any], Meta(extra_json_schema={"additionalProperties": True})]
    seats: Annotated[list[Seat], Meta(min_length=1, max_length=8)]
    dice_mode: DiceMode = "server"
    undo_policy: UndoPolicy = "none"
    host: str | None = None


class ChapterOut(Struct, frozen=True, kw_only=True):
    """One chapter played in a campaign (reverted chapters stay listed, marked)."""

    number: int
    chapter: str
    game_id: UUID
    result: str | None
    carry_in: Any
    carry_out: Any
    reverted: bool


class CampaignOut(Struct, frozen=True, kw_only=True):
    """A campaign's history: every chapter's game, result and carry-over, and what comes next."""

    id: UUID
    version: int
    ruleset: str
    chapters: list[str]
    next_chapter: str | None
    carry_over: Any
    history: list[ChapterOut]
    revert_pending: CampaignRevertRequested | None
    undo_policy: UndoPolicy


class CampaignCreatedBody(Struct, frozen=True, kw_only=True):
    campaign: CampaignOut
    tokens: list[SeatToken]


class ChapterStartedBody(Struct, frozen=True, kw_only=True):
    campaign: CampaignOut
    game: GameSummary


class RevertRequest(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Revert the campaign to before the result of chapter number ``to_chapter`` (1-based)."""

    to_chapter: Annotated[int, Meta(ge=1, le=64)]
