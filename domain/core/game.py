"""The ``Game`` aggregate: a ruleset's decide/evolve wrapped as an eventsourcing aggregate.

Shaped like the eventsourcing library's ``aggregate6``/``aggregate7`` examples: the aggregate is
an immutable value (``Game``), events are immutable msgspec Structs (``Recorded``, which satisfy
the library's domain event protocol: ``originator_id``, ``originator_version``, ``timestamp``),
and ``project_game`` is the projector function given to ``Repository.get``.

Each ``Recorded`` envelope carries one ruleset event (``payload``), the seat that caused it, the
id of the command that caused it, and ``prev_hash``: the SHA-256 of the previous envelope's
canonical encoding (docs/verifiable-secrets.md, Tamper evidence). The clock is not read here: callers pass
``at``.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, cast
from uuid import UUID

import msgspec
from msgspec import Struct
from msgspec.structs import replace

from dicelog.domain.core import registry
from dicelog.domain.core.commands import (
    ApproveUndo,
    Choose,
    CloseGame,
    Command,
    Draw,
    RejectUndo,
    RequestUndo,
    Roll,
    Shuffle,
)
from dicelog.domain.core.dice import draw_cards, roll_faces, shuffle_order
from dicelog.domain.core.errors import GameOver, InvariantViolated, NotThisAggregate, PendingFirst, RuleBroken
from dicelog.domain.core.events import (
    CardsDrawn,
    CardsShuffled,
    CommandAccepted,
    DecisionMade,
    DecisionRequested,
    DiceMode,
    DiceRolled,
    DrawRequested,
    Event,
    GameCreated,
    GameEnded,
    PendingEvent,
    RollRequested,
    ShuffleRequested,
    UndoApplied,
    UndoApproved,
    UndoRejected,
    UndoRequested,
)
from dicelog.domain.core.ruleset import Answer, Begin
from dicelog.domain.core.undo import decide_undo

GENESIS_HASH = "0" * 64
CHAIN_FORMAT = 2
"""The chain format of new games of a ruleset with secrets (``GameCreated.chain_format``); every other game
keeps format 1."""
SERVER_SEAT = "server"
POLICY_SEAT = "policy"
MAX_AUTO_STEPS = 10_000
_SECTION = "docs/architecture.md, The core idea: decide / evolve"


class Recorded(Struct, frozen=True, kw_only=True):
    """One stored event of a game: the envelope around one ruleset event.

    ``originator_id`` is the game id, ``originator_version`` its 1-based position in the game's
    log, ``timestamp`` when it was recorded (UTC), ``seat`` the seat whose command caused it
    (``server`` for automatic steps), ``command_id`` the id of that command, ``prev_hash`` the
    chain hash of the previous event (64 hex chars, ``GENESIS_HASH`` for the first).
    """

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    seat: str
    command_id: str
    prev_hash: str
    payload: Event
    nonce: str | None = None
    salt: str | None = None


class Envelope(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The stored form of a ``Recorded`` (without id and version, which the store keeps).

    ``nonce`` (32 hex chars) is present only in games of a ruleset with secrets: it salts the
    chain hash, so the hash of a hidden event, shown to everyone as its digest, cannot be
    brute-forced from the few values its secret could take (docs/who-sees-what.md, Hidden information).
    Omitted when ``None``, so the bytes (and hashes) of every other event are unchanged.

    ``salt`` (64 hex chars) replaces ``nonce`` in games of chain format 2
    (``GameCreated.chain_format``): the key of the payload's digest (``payload_digest``), derived from
    the game's view key (``event_salt``). Shown only to a reader who sees the payload whole.
    """

    timestamp: datetime
    seat: str
    command_id: str
    prev_hash: str
    payload: Any
    nonce: str | None = None
    salt: str | None = None


class Link(Struct, frozen=True, kw_only=True):
    """What the chain hash of an event of chain format 2 covers: the event's public metadata and its
    payload's salted digest, never the payload itself (docs/verifiable-secrets.md, Tamper evidence).

    Every reader is shown these fields for every event, hidden or not, so every reader can recompute
    each link of the chain; the digest binds the payload, which a reader checks when it may see it
    (its ``salt`` is then shown too) or once ``GameEnded`` reveals the view key."""

    timestamp: datetime
    """When the event was recorded (UTC)."""
    seat: str
    """The seat whose command caused the event."""
    command_id: str
    """The id of that command."""
    prev_hash: str
    """The chain hash of the previous event (``GENESIS_HASH`` for version 1)."""
    type: str
    """The event type (the payload's tag)."""
    digest: str
    """``payload_digest(salt, payload)``: 64 hex chars."""


_encode = msgspec.json.Encoder().encode


def envelope_bytes(record: Recorded) -> bytes:
    """The canonical encoding of an event's envelope, as stored (JSON, fixed field order)."""
    return _encode(
        Envelope(
            timestamp=record.timestamp,
            seat=record.seat,
            command_id=record.command_id,
            prev_hash=record.prev_hash,
            payload=record.payload,
            nonce=record.nonce,
            salt=record.salt,
        )
    )


def chain_hash(originator_id: UUID, version: int, stored: bytes) -> str:
    """The chain hash of a stored event: sha256 over ``"<id>:<version>:"`` + envelope bytes."""
    return hashlib.sha256(b"%s:%d:" % (str(originator_id).encode(), version) + stored).hexdigest()


def payload_digest(salt: str, payload: bytes) -> str:
    """The salted digest of an event's canonical payload bytes (chain format 2): ``sha256(salt bytes +
    payload)``, 64 hex chars. ``salt`` is 64 hex chars (``event_salt``); raises ``ValueError`` for
    anything else."""
    return hashlib.sha256(bytes.fromhex(salt) + payload).hexdigest()


def link_hash(originator_id: UUID, version: int, link: Link) -> str:
    """The chain hash of an event of chain format 2: sha256 over ``"<id>:<version>:"`` + the canonical
    JSON of its ``Link``."""
    return chain_hash(originator_id, version, _encode(link))


def record_link(record: Recorded) -> Link:
    """The ``Link`` of a ``record`` of chain format 2 (one that carries a ``salt``)."""
    return Link(
        timestamp=record.timestamp,
        seat=record.seat,
        command_id=record.command_id,
        prev_hash=record.prev_hash,
        type=str(type(record.payload).__struct_config__.tag),  # tag=True: the class name
        digest=payload_digest(record.salt or "", _encode(record.payload)),
    )


def record_hash(record: Recorded) -> str:
    """The chain hash of ``record`` (what the next event's ``prev_hash`` must be): over its stored envelope
    (chain format 1), or over its ``Link`` when it carries a ``salt`` (chain format 2)."""
    if record.salt is not None:
        return link_hash(record.originator_id, record.originator_version, record_link(record))
    return chain_hash(record.originator_id, record.originator_version, envelope_bytes(record))


class Game(Struct, frozen=True, kw_only=True):
    """The state of one game at one version: ruleset state plus the core's bookkeeping.

    ``pending`` is the open roll, shuffle or decision, if any. ``chance_count`` is the dice
    stream position: the number of ``DiceRolled``/``CardsShuffled`` events so far (so after an
    undo to an earlier version the same action meets the same dice). ``result`` is set once
    ``GameEnded`` is recorded. ``last`` is the newest ``Recorded`` event (its hash chains the
    next one); a game restored from a snapshot has ``last=None`` and keeps ``chain_head``.
    """

    id: UUID
    version: int
    created: GameCreated
    state: Any
    pending: PendingEvent | None = None
    chance_count: int = 0
    result: str | None = None
    created_on: datetime
    modified_on: datetime
    last: Any = None
    chain_head: str = GENESIS_HASH
    undo_request: UndoRequested | None = None
    undo_needs: tuple[str, ...] = ()
    undo_approved: tuple[str, ...] = ()

    @property
    def ruleset(self) -> Any:
        return registry.get(self.created.ruleset)

    @property
    def head_hash(self) -> str:
        """The chain hash of the newest event (what the next event's ``prev_hash`` must be)."""
        return self.chain_head if self.last is None else record_hash(self.last)


def apply(game: Game | None, record: Recorded) -> Game:
    """Fold one stored event into the game (``evolve`` for the whole aggregate). Never fails."""
    payload = record.payload
    if game is None:
        if not isinstance(payload, GameCreated):
            raise InvariantViolated("game-starts", f"first event {type(payload).__name__}, not GameCreated")
        ruleset = registry.get(payload.ruleset)
        return Game(
            id=record.originator_id,
            version=record.originator_version,
            created=payload,
            state=ruleset.initial_state(payload),
            created_on=record.timestamp,
            modified_on=record.timestamp,
            last=record,
        )
    if type(payload) in _UNDO_EVENTS:
        return _apply_undo(game, record)
    if type(payload) is CommandAccepted:  # the core's own record of a command: no ruleset state in it
        return replace(game, version=record.originator_version, modified_on=record.timestamp, last=record)
    state = game.ruleset.evolve(game.state, payload)
    effect = _BOOKKEEPING.get(type(payload))
    if effect is None:
        return replace(
            game, version=record.originator_version, state=state, modified_on=record.timestamp, last=record
        )
    pending, chance, result = game.pending, game.chance_count, game.result
    if effect == "pending":
        pending = cast(PendingEvent, payload)  # _BOOKKEEPING: only the pending node types
    elif effect == "chance":
        pending, chance = None, chance + 1
    elif effect == "decided":
        pending = None
    else:
        result = cast(GameEnded, payload).result  # _BOOKKEEPING: "ended" is GameEnded's
    return replace(
        game,
        version=record.originator_version,
        state=state,
        pending=pending,
        chance_count=chance,
        result=result,
        modified_on=record.timestamp,
        last=record,
    )


_UNDO_EVENTS = (UndoRequested, UndoApproved, UndoRejected, UndoApplied)


def _apply_undo(game: Game, record: Recorded) -> Game:
    """Fold the undo events: a request and its approvals, and the restored state itself."""
    payload = record.payload
    if isinstance(payload, UndoApplied):
        restored = GameSnapshot(
            originator_id=game.id,
            originator_version=payload.to_version,
            timestamp=record.timestamp,
            topic="",
            game=payload.game,
            state=payload.state,
        ).restore()
        return replace(
            restored,
            id=game.id,
            version=record.originator_version,
            created=game.created,
            created_on=game.created_on,
            modified_on=record.timestamp,
            last=record,
            undo_request=None,
            undo_needs=(),
            undo_approved=(),
        )
    if isinstance(payload, UndoRequested):
        return replace(
            game,
            version=record.originator_version,
            modified_on=record.timestamp,
            last=record,
            undo_request=payload,
            undo_needs=payload.needs,
            undo_approved=(payload.by,),
        )
    if isinstance(payload, (UndoApproved, UndoRejected)):
        rejected = isinstance(payload, UndoRejected)
        return replace(
            game,
            version=record.originator_version,
            modified_on=record.timestamp,
            last=record,
            undo_request=None if rejected else game.undo_request,
            undo_needs=() if rejected else tuple(s for s in game.undo_needs if s != payload.by),
            undo_approved=() if rejected else (*game.undo_approved, payload.by),
        )
    raise InvariantViolated("undo-event", f"{type(payload).__name__} is not an undo event")


# What each core event does to the core's bookkeeping (by exact type: events are never subclassed).
_BOOKKEEPING: dict[type, str] = {
    RollRequested: "pending",
    ShuffleRequested: "pending",
    DrawRequested: "pending",
    DecisionRequested: "pending",
    DiceRolled: "chance",
    CardsShuffled: "chance",
    CardsDrawn: "chance",
    DecisionMade: "decided",
    GameEnded: "ended",
}


def project_game(game: Game | None, events: Iterable[Any]) -> Game | None:
    """Projector function for ``Repository.get``: fold a snapshot and/or events. Raises
    ``NotThisAggregate`` when the id is not a game's (a campaign's: its first event is no ``GameCreated``)."""
    if game is not None and not isinstance(game, Game):
        raise NotThisAggregate(f"{type(game).__name__} {getattr(game, 'id', '')} is not a game")
    for event in events:
        if isinstance(event, GameSnapshot):
            game = event.restore()
            continue
        if game is None and not isinstance(event.payload, GameCreated):
            raise NotThisAggregate(f"first event {type(event.payload).__name__}, not GameCreated")
        game = apply(game, event)
    return game


def encode_state(ruleset: Any, state: Any) -> bytes:
    """A ruleset state as stored (in snapshots and in ``UndoApplied.state``): its JSON, without the
    fields the ruleset lists in ``late_fields`` while they hold the default given there.

    ``late_fields`` (optional; field name -> its default as JSON, e.g. ``{"rules_revision": 1}``)
    names the state fields added after games were stored: an old game's state then encodes byte
    for byte as it did when its ``UndoApplied`` events were stored, so verify still re-derives
    them, and decodes back with the defaults. Pure."""
    raw = _encode(state)
    late = getattr(ruleset, "late_fields", None)
    if not late:
        return raw
    document = msgspec.json.decode(raw)
    kept = {k: v for k, v in document.items() if k not in late or v != late[k]}
    return raw if len(kept) == len(document) else _encode(kept)


class GameSnapshot(Struct, frozen=True, kw_only=True):
    """A snapshot of a ``Game`` (library snapshot protocol: ``take`` and the id/version/time)."""

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    topic: str
    game: msgspec.Raw
    state: msgspec.Raw

    @classmethod
    def take(cls, game: Game) -> GameSnapshot:
        return cls(
            originator_id=game.id,
            originator_version=game.version,
            timestamp=game.modified_on,
            topic="domain.core.game:Game",
            game=msgspec.Raw(_encode(replace(game, state=None, last=None, chain_head=game.head_hash))),
            state=msgspec.Raw(encode_state(game.ruleset, game.state)),
        )

    def restore(self) -> Game:
        game = msgspec.json.decode(self.game, type=Game)
        state = msgspec.json.decode(self.state, type=game.ruleset.state_type)
        return replace(game, state=state)


# --- deciding ------------------------------------------------------------------------------


def face_numbers(ruleset: Any, faces: tuple[int | str, ...]) -> tuple[int, ...]:
    """The faces of a ``Roll`` as numbers: a number stays, a name is looked up in the ruleset's
    ``die_faces`` (name of the printed symbols -> face number). The ``CommandAccepted`` keeps the
    command as sent; the ``DiceRolled`` records the numbers. Raises ``RuleBroken("roll.unknown-face")``
    for a name the ruleset's die does not have."""
    names: dict[str, int] = getattr(ruleset, "die_faces", None) or {}
    numbers: list[int] = []
    for face in faces:
        if isinstance(face, int):
            numbers.append(face)
        elif face in names:
            numbers.append(names[face])
        else:
            known = ", ".join(names) or "none: enter numbers"
            raise RuleBroken(
                "roll.unknown-face",
                section=_SECTION,
                detail=f"{face!r} is not a face of this game's die (names: {known})",
            )
    return tuple(numbers)


def card_ids(ruleset: Any, state: Any, deck: str, cards: tuple[str, ...]) -> tuple[str, ...]:
    """The cards of a ``Draw`` as card ids: each entry the ruleset's ``card_id(state, deck, text)``
    recognises as a card's printed name becomes that card's id (Mice and Mystics: a search card's
    name, any case, e.g. ``Toothpick``); anything else is kept as sent (an id, or an unknown text
    the draw then refuses). The ``CommandAccepted`` keeps the command as sent; ``CardsDrawn`` records
    the ids. Pure."""
    lookup = getattr(ruleset, "card_id", None)
    if lookup is None:
        return cards
    return tuple(lookup(state, deck, card) or card for card in cards)


def _answer(game: Game, command: Command, seat: str) -> Answer:
    """Validate an answer to the pending node and return the event that records it."""
    pending = game.pending
    source: DiceMode = "server" if seat == SERVER_SEAT else "manual"
    if isinstance(command, Roll):
        if not isinstance(pending, RollRequested):
            raise RuleBroken("roll.nothing-pending", section=_SECTION, detail="no roll is pending")
        faces = face_numbers(game.ruleset, command.faces)
        if len(faces) != pending.dice or any(f > pending.sides for f in faces):
            raise RuleBroken(
                "roll.wrong-dice",
                section=_SECTION,
                detail=f"{pending.dice} dice of 1..{pending.sides} are pending for {pending.reason}",
            )
        return DiceRolled(reason=pending.reason, faces=faces, source=source)
    if isinstance(command, Shuffle):
        if not isinstance(pending, ShuffleRequested):
            raise RuleBroken("shuffle.nothing-pending", section=_SECTION, detail="no shuffle is pending")
        if sorted(command.order) != sorted(pending.cards):
            raise RuleBroken(
                "shuffle.wrong-cards",
                section=_SECTION,
                detail=f"the order must be a permutation of {list(pending.cards)}",
            )
        return CardsShuffled(reason=pending.reason, order=command.order, source=source)
    if isinstance(command, Draw):
        if not isinstance(pending, DrawRequested):
            raise RuleBroken("draw.nothing-pending", section=_SECTION, detail="no draw is pending")
        if len(command.cards) != min(pending.count, len(pending.cards)):
            raise RuleBroken("draw.wrong-count", section=_SECTION, detail=f"draw {pending.count} card(s)")
        cards = card_ids(game.ruleset, game.state, pending.deck, command.cards)
        left = list(pending.cards)
        for card in cards:
            if card not in left:
                # No card is named: in a game with secrets the deck's content is hidden, and a
                # refusal naming the first card not in it would tell which others are.
                detail = (
                    f"the cards drawn must be {len(command.cards)} different card(s) left in the "
                    f"{pending.deck} deck"
                )
                raise RuleBroken("draw.not-in-deck", section=_SECTION, detail=detail)
            left.remove(card)
        return CardsDrawn(reason=pending.reason, deck=pending.deck, cards=cards, source=source)
    if not isinstance(command, Choose):
        raise InvariantViolated("answer-command", f"_answer got {type(command).__name__}")
    if not isinstance(pending, DecisionRequested):
        raise RuleBroken("choose.nothing-pending", section=_SECTION, detail="no decision is pending")
    if command.option not in pending.options:
        raise RuleBroken(
            "choose.not-an-option",
            section=_SECTION,
            detail=f"choose one of {list(pending.options)} for {pending.decision}",
        )
    return DecisionMade(decision=pending.decision, option=command.option, by=seat)


class _Log:
    """Builds envelopes for new events, folding each one so versions and hashes chain."""

    def __init__(
        self, game: Game, seat: str, command_id: str, at: datetime, nonce_key: bytes | None = None
    ) -> None:
        self.game, self.seat, self.command_id, self.at = game, seat, command_id, at
        self.nonce_key = nonce_key
        self.records: list[Recorded] = []

    def emit(self, payload: Event) -> None:
        version = self.game.version + 1
        record = Recorded(
            originator_id=self.game.id,
            originator_version=version,
            timestamp=self.at,
            seat=self.seat,
            command_id=self.command_id,
            prev_hash=self.game.head_hash,
            payload=payload,
            **chain_salt(self.game.created, self.nonce_key, self.game.id, version),
        )
        self.game = apply(self.game, record)
        self.records.append(record)


def chain_salt(created: GameCreated, key: bytes | None, game_id: UUID, version: int) -> dict[str, str | None]:
    """The ``nonce`` (chain format 1) or ``salt`` (format 2) of event ``version`` of a game, as keyword
    arguments of ``Recorded``; both ``None`` without a key (a game without secrets)."""
    if created.chain_format >= 2:
        return {"salt": event_salt(key, game_id, version)}
    return {"nonce": event_nonce(key, game_id, version)}


def event_salt(key: bytes | None, game_id: UUID, version: int) -> str | None:
    """The salt of event ``version`` of a game of chain format 2: ``HMAC-SHA256(view key, "<id>:<version>")``
    (64 hex chars); ``None`` without a key."""
    if key is None:
        return None
    return hmac.new(key, f"{game_id}:{version}".encode(), hashlib.sha256).hexdigest()


def event_nonce(key: bytes | None, game_id: UUID, version: int) -> str | None:
    """The salt of event ``version`` of a game with secrets: ``HMAC-SHA256(key, "<id>:<version>")``
    (32 hex chars), from the game's secret nonce key; ``None`` for games without one."""
    if key is None:
        return None
    return hmac.new(key, f"{game_id}:{version}".encode(), hashlib.sha256).hexdigest()[:32]


def encode_command(command: Command) -> msgspec.Raw:
    """The canonical JSON of a command, as stored in ``CommandAccepted``."""
    return msgspec.Raw(_encode(command))


def run_command_records(
    game: Game,
    command: Command,
    *,
    seat: str,
    command_id: str,
    at: datetime,
    seed: bytes | None,
    history: Any = None,
    nonce_key: bytes | None = None,
) -> list[Recorded]:
    """Run one command through the rules; return its new events (see ``run_command``)."""
    return run_command(
        game,
        command,
        seat=seat,
        command_id=command_id,
        at=at,
        seed=seed,
        history=history,
        nonce_key=nonce_key,
    )[0]


def run_command(
    game: Game,
    command: Command,
    *,
    seat: str,
    command_id: str,
    at: datetime,
    seed: bytes | None,
    history: Any = None,
    nonce_key: bytes | None = None,
) -> tuple[list[Recorded], Game]:
    """Run one command through the rules; return its new events (``CommandAccepted`` first) and
    the game after them (each event folded once, as it is made).

    ``nonce_key`` (games with secrets) salts each new event's chain hash (``event_nonce``; in chain format 2
    it is the view key: ``event_salt``, revealed in ``GameEnded.view_key``).

    ``seed`` is the secret dice seed in ``server`` mode (``None`` otherwise); it is used only to
    reveal the seed in ``GameEnded`` when the rules end the game. Raises ``GameOver`` after the
    end, ``PendingFirst`` when another command arrives while a roll/shuffle/decision is pending,
    ``RuleBroken`` when the ruleset refuses the command. Undo commands need ``history``
    (``dicelog.domain.core.undo.History``) and raise ``RuleBroken("undo.*")``.
    """
    if game.result is not None:
        raise GameOver("game.over", section=_SECTION, detail=f"the game has ended: {game.result}")
    ruleset = game.ruleset
    log = _Log(game, seat, command_id, at, nonce_key)
    if isinstance(command, (RequestUndo, ApproveUndo, RejectUndo)):
        events = decide_undo(game, command, seat, history, GameSnapshot.take)
        log.emit(CommandAccepted(command=encode_command(command)))
        for event in events:
            log.emit(event)
        return log.records, log.game
    if isinstance(command, CloseGame):
        # the service closes the game (a campaign's revert): no rule to ask, the end is recorded as any end
        log.emit(CommandAccepted(command=encode_command(command)))
        log.emit(_ended(game, command.result, command.reason, seed, nonce_key))
        return log.records, log.game
    if game.undo_request is not None:
        raise PendingFirst(
            "undo.pending", section=_SECTION, detail="an undo request is open: approve or reject it"
        )
    if isinstance(command, (Roll, Shuffle, Draw, Choose)):
        answer = _answer(game, command, seat)
        log.emit(CommandAccepted(command=encode_command(command)))
        log.emit(answer)
        follow = ruleset.resolve(log.game.state, answer)
    else:
        if game.pending is not None:
            raise PendingFirst(
                "game.pending-first",
                section=_SECTION,
                detail=f"answer the pending {_describe(game.pending)} first",
            )
        follow = ruleset.decide(game.state, command)
        if not follow:
            # Every accepted command leaves at least one event after its CommandAccepted, so the
            # newest event of a log is always covered by re-derivation (see domain.core.verify).
            raise RuleBroken(
                "game.no-effect", section=_SECTION, detail=f"{type(command).__name__} changes nothing now"
            )
        log.emit(CommandAccepted(command=encode_command(command)))
    for event in follow:
        log.emit(event)
    outcome = ruleset.outcome(log.game.state)
    if outcome is not None and log.game.result is None:
        explain = getattr(ruleset, "outcome_reason", None)
        reason = explain(log.game.state) if explain is not None else ""
        log.emit(_ended(game, outcome, reason, seed, nonce_key))
    return log.records, log.game


def _ended(game: Game, result: str, reason: str, seed: bytes | None, nonce_key: bytes | None) -> GameEnded:
    """The ``GameEnded`` of ``game``: the result, why, and the revealed dice seed (``server`` dice) and view
    key (chain format 2)."""
    revealed = seed.hex() if seed is not None and game.created.dice_mode == "server" else None
    view_key = nonce_key.hex() if nonce_key is not None and game.created.chain_format >= 2 else None
    return GameEnded(result=result, reason=reason, seed=revealed, view_key=view_key)


def _describe(pending: PendingEvent) -> str:
    if isinstance(pending, RollRequested):
        return f"roll ({pending.dice} dice for {pending.reason})"
    if isinstance(pending, ShuffleRequested):
        return f"shuffle ({pending.reason})"
    if isinstance(pending, DrawRequested):
        return f"draw ({pending.count} from {pending.deck})"
    return f"decision ({pending.decision})"


def auto_answer(game: Game, seed: bytes | None) -> Command | None:
    """The command the server issues by itself for the pending node, if any.

    ``server`` dice mode: a ``Roll``/``Shuffle`` derived from the seed at the current stream
    position. ``decision_policy == "default"``: ``Choose`` of the pending decision's default.
    """
    pending = game.pending
    if isinstance(pending, RollRequested) and game.created.dice_mode == "server" and seed:
        return Roll(faces=roll_faces(seed, game.chance_count, pending.dice, pending.sides))
    if isinstance(pending, ShuffleRequested) and game.created.dice_mode == "server" and seed:
        return Shuffle(order=shuffle_order(seed, game.chance_count, pending.cards))
    if isinstance(pending, DrawRequested) and game.created.dice_mode == "server" and seed:
        return Draw(cards=draw_cards(seed, game.chance_count, pending.cards, pending.count, pending.weights))
    if (
        isinstance(pending, DecisionRequested)
        and game.created.decision_policy == "default"
        and pending.default is not None
    ):
        return Choose(option=pending.default)
    return None


def run_command_and_auto_answers_records(
    game: Game,
    command: Command,
    *,
    seat: str,
    command_id: str,
    at: datetime,
    seed: bytes | None,
    history: Any = None,
    nonce_key: bytes | None = None,
) -> list[Recorded]:
    """Run the command (``run_command``), then answer by itself every pending node it can (``auto_answer``);
    return all the new events.

    Automatic steps are stored as commands of their own, by seat ``server`` (dice) or ``policy``
    (default decisions), with command ids ``<command_id>/<n>``. Raises what ``run_command_records`` raises.
    """
    return run_command_and_auto_answers(
        game,
        command,
        seat=seat,
        command_id=command_id,
        at=at,
        seed=seed,
        history=history,
        nonce_key=nonce_key,
    )[0]


def run_command_and_auto_answers(
    game: Game,
    command: Command,
    *,
    seat: str,
    command_id: str,
    at: datetime,
    seed: bytes | None,
    history: Any = None,
    nonce_key: bytes | None = None,
) -> tuple[list[Recorded], Game]:
    """``run_command_and_auto_answers_records``, also returning the game after the new events (folded once,
    as they are made)."""
    records, game = run_command(
        game,
        command,
        seat=seat,
        command_id=command_id,
        at=at,
        seed=seed,
        history=history,
        nonce_key=nonce_key,
    )
    for n in range(1, MAX_AUTO_STEPS + 1):
        auto = auto_answer(game, seed) if game.result is None else None
        if auto is None:
            return records, game
        by = POLICY_SEAT if isinstance(auto, Choose) else SERVER_SEAT
        more, game = run_command(
            game, auto, seat=by, command_id=f"{command_id}/{n}", at=at, seed=seed, nonce_key=nonce_key
        )
        records.extend(more)
    raise InvariantViolated("auto-steps-settle", f"{MAX_AUTO_STEPS} automatic steps")  # pragma: no cover


class ListHistory:
    """``History`` (``dicelog.domain.core.undo``) over an in-memory list of a game's records
    (version order, from 1)."""

    def __init__(self, records: Sequence[Recorded]) -> None:
        self._records = records

    def game_at(self, version: int) -> Game:
        return fold(None, self._records[:version])

    def records(self, after: int, upto: int) -> Sequence[Recorded]:
        return self._records[after:upto]


def fold(game: Game | None, records: Iterable[Recorded]) -> Game:
    """Fold ``records`` into ``game`` (``None`` to start from nothing)."""
    for record in records:
        game = apply(game, record)
    if game is None:
        raise InvariantViolated("fold-records", "fold(None, []): no game without events")
    return game


def create(
    game_id: UUID,
    created: GameCreated,
    *,
    at: datetime,
    seed: bytes | None,
    command_id: str,
    nonce_key: bytes | None = None,
) -> list[Recorded]:
    """The events of a new game: ``GameCreated`` then the ruleset's ``Begin`` (auto-answered).

    Raises ``RuleBroken`` if the ruleset rejects the setup: its ``check_new_game(created)`` first (if it has
    one: the checks of a new game's setup, never run when a stored game is folded or verified), then its
    ``initial_state``.
    """
    check_new_game = getattr(registry.get(created.ruleset), "check_new_game", None)
    if check_new_game is not None:
        check_new_game(created)
    first = Recorded(
        originator_id=game_id,
        originator_version=1,
        timestamp=at,
        seat=SERVER_SEAT,
        command_id=command_id,
        prev_hash=GENESIS_HASH,
        payload=created,
        **chain_salt(created, nonce_key, game_id, 1),
    )
    game = apply(None, first)
    begin = run_command_and_auto_answers_records(
        game,
        Begin(),
        seat=SERVER_SEAT,
        command_id=f"{command_id}/begin",
        at=at,
        seed=seed,
        nonce_key=nonce_key,
    )
    return [first, *begin]
