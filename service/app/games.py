"""The event-sourced application: load a game, decide, save atomically (eventsourcing ``Application``).

Synchronous, like the library: the web layer calls it from worker threads. Every write is one
``save`` (one transaction): the game's new events, plus the game's secret record at creation or
the idempotency record of a keyed command. Optimistic concurrency comes from the store's unique
(originator id, version): two writers racing for the same game version cannot both succeed.
"""

from __future__ import annotations

import hashlib
import heapq
import hmac
import logging
import secrets
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from datetime import UTC, datetime
from typing import Any, NamedTuple, cast
from uuid import UUID, uuid4

import msgspec
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, Notification, PersistenceError

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
from dicelog.domain.core.dice import commitment
from dicelog.domain.core.errors import DomainError, InvariantViolated, NotThisAggregate, RuleBroken
from dicelog.domain.core.events import (
    CardsDrawn,
    CardsShuffled,
    CommandAccepted,
    DecisionRequested,
    DiceRolled,
    DrawRequested,
    ForkOrigin,
    GameCreated,
    GameEnded,
    RollRequested,
    ShuffleRequested,
    UndoApplied,
)
from dicelog.domain.core.game import (
    CHAIN_FORMAT,
    GENESIS_HASH,
    Game,
    GameSnapshot,
    Recorded,
    create,
    fold,
    project_game,
    record_hash,
    run_command_and_auto_answers,
)
from dicelog.domain.core.ruleset import Begin
from dicelog.domain.core.verify import Divergence, Verification, verify
from dicelog.domain.core.visibility import SPECTATOR_VIEWER, Lens, Viewer, has_secrets, seat_viewer
from dicelog.projections.game_index import GameIndex, IndexCache
from dicelog.service.app.errors import (
    AlreadyClaimed,
    Forbidden,
    GameNotFound,
    IdempotencyMismatch,
    Unauthorized,
    VersionConflict,
)
from dicelog.service.app.game_listing import GameListing, public_from_state
from dicelog.service.app.seat_bots import MAX_BOT_COMMANDS, check_seats, has_bots, next_bot_command
from dicelog.service.ops.metrics import count_events
from dicelog.service.store.fanout import FanOut
from dicelog.service.store.persistence import MsgspecMapper, decode_log
from dicelog.service.store.reads import creation_notification_id, read_range, topic_class
from dicelog.service.store.records import (
    GameSecret,
    IdempotencyRecord,
    SeatClaim,
    TokenHolder,
    TokenIndex,
    claim_id,
    holder_id,
    idempotency_id,
    revocation_id,
    secret_id,
    token_id,
)
from dicelog.service.store.revocations import (
    UNREVOKED,
    RevocationCheckingPostgresRecorder,
    RevocationCheckingSQLiteRecorder,
    TokenRevokedOnSave,
    recorder_topic,
)
from dicelog.service.store.topics import topics_of
from dicelog.service.store.write_lane import GroupCommit, WriteLane

_encode = msgspec.json.Encoder().encode
GAME_CREATED_TOPICS = list(topics_of(GameCreated))  # the canonical topic and release 0.1's


INDEX_CHUNK = 5000
"""Events read per query while an audit index catches up with a game."""

SCAN_CHUNK = 500
"""Events read per query by a filtered page of ``GET /games/{id}/events``."""

CHANCE_PROOF_EVENTS = (
    RollRequested,
    ShuffleRequested,
    DrawRequested,
    DiceRolled,
    CardsShuffled,
    CardsDrawn,
    UndoApplied,
    GameEnded,
)
"""The events ``dicelog.service.app.audit.dice_proof`` looks at (with the game's first event)."""
CHANCE_PROOF_TOPICS = frozenset(t for cls in (GameCreated, *CHANCE_PROOF_EVENTS) for t in topics_of(cls))


class Executed(NamedTuple):
    """What ``Games.execute`` answers: the HTTP status, the JSON body, and the version right before the
    command's first event (the ``Location``'s ``after``; ``None`` for an answer stored by a first attempt,
    which only its body tells)."""

    status: int
    body: bytes
    after: int | None


class Marked(NamedTuple):
    """A stored event with its audit marks (``GET /games/{id}/events``)."""

    record: Recorded
    undone: bool
    """Some later ``UndoApplied`` undid it."""
    round: int | None
    """The round it belongs to (1-based), ``None`` before the first round starts."""
    turn: int | None = None
    """The turn it belongs to (1-based, as ``GET /games/{id}/turns/{number}`` counts), ``None`` outside
    any turn."""


def new_token() -> str:
    """A fresh bearer token (256 random bits, URL-safe)."""
    return secrets.token_urlsafe(32)


TABLE = "table"
"""The audience of a game's table token (``table_device``): one shared device acting for every seat."""


def viewer_of(seats: Any, audience: str) -> Viewer:
    """The ``Viewer`` of an audience key (``seat:<name>``, ``spectator``, ``auditor``, ``table``: the shared
    table device reads what a spectator reads)."""
    if audience.startswith("seat:"):
        return seat_viewer(seats, audience.removeprefix("seat:"))
    if audience == TABLE:
        return SPECTATOR_VIEWER
    return Viewer(kind=audience)  # type: ignore[arg-type]  # spectator or auditor: seats and table are above


def table_seat(game: Game, command: Any = None) -> str:
    """The seat the shared table device acts as for ``command`` (``None``: the seat that must act now), in
    this order: an undo answer, the first seat the open undo request waits for; a command about a piece, the
    seat controlling it; then the seat that must answer the pending roll, draw or decision; the seat whose
    piece has the turn; the host (the first seat unless ``host`` names another)."""
    seats = game.created.seats
    ruleset = game.ruleset

    def owner(piece: str | None) -> str | None:
        return next((s.name for s in seats if piece is not None and piece in s.controls), None)

    waiting = [s for s in game.undo_needs if s not in game.undo_approved]
    if game.undo_request is not None and waiting and not isinstance(command, RequestUndo):
        return waiting[0]
    answers = (Roll, Shuffle, Draw, Choose, RequestUndo, ApproveUndo, RejectUndo)
    if command is not None and not isinstance(command, answers):
        found = owner(ruleset.piece_of(command))
        if found is not None:
            return found
    pending = game.pending
    found = owner(getattr(pending, "piece", None)) if pending is not None else None
    if found is None and game.result is None:
        found = owner(ruleset.turn_piece(game.state))
    return found or game.created.host or seats[0].name


def hash_token(token: str) -> str:
    """SHA-256 (hex) of a seat token: only this is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


def _bytes(hex_value: str | None) -> bytes | None:
    return bytes.fromhex(hex_value) if hex_value else None


def _secret(
    game_id: UUID, at: datetime, seed: str | None, tokens: dict[str, str], nonce_key: bytes | None
) -> GameSecret:
    """The secret record of a game whose audiences hold ``tokens`` (audience -> token)."""
    return GameSecret(
        originator_id=secret_id(game_id),
        timestamp=at,
        game_id=game_id,
        seed=seed,
        token_hashes={
            a.removeprefix("seat:"): hash_token(t) for a, t in tokens.items() if a.startswith("seat:")
        },
        audience_hashes={a: hash_token(t) for a, t in tokens.items() if not a.startswith("seat:")},
        nonce_key=nonce_key.hex() if nonce_key else None,
    )


def _token_index(owner_id: UUID, tokens: dict[str, str], at: datetime) -> list[TokenIndex]:
    return [
        TokenIndex(originator_id=token_id(hash_token(t)), timestamp=at, owner_id=owner_id, audience=a)
        for a, t in tokens.items()
    ]


class _Batch:
    """Events to save together, presented to the library as one object that collects them."""

    def __init__(self, events: list[Any]) -> None:
        self.events = events
        self.id = events[0].originator_id if events else None

    def collect_events(self) -> list[Any]:
        return self.events


class StoreHistory:
    """``dicelog.domain.core.undo.History`` over the event store, for one game."""

    def __init__(self, games: Games, game_id: UUID) -> None:
        self.games, self.game_id = games, game_id

    def game_at(self, version: int) -> Game:
        return self.games.game(self.game_id, version)

    def records(self, after: int, upto: int) -> list[Recorded]:
        return self.games.records(self.game_id, after=after, limit=upto - after)


_LOCK_STRIPES = 256
_REVOKED = "this token was revoked or replaced: a valid bearer token of this {kind} is required"


class Games(Application[UUID]):
    """Games of every ruleset: create, load at any version, run commands, list, verify."""

    name = "Games"
    mapper: MsgspecMapper  # construct_mapper's: decodes every stored event into a Recorded
    env = {  # the library reads this class attribute
        "AGGREGATE_CACHE_MAXSIZE": "1000",
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
    }

    def __init__(
        self, env: dict[str, str] | None = None, *, snapshot_interval: int = 100, fanout: FanOut | None = None
    ) -> None:
        env = dict(env or {})
        self.fanout = fanout
        if snapshot_interval > 0:
            env.setdefault("IS_SNAPSHOTTING_ENABLED", "y")
        self.snapshot_interval = snapshot_interval
        self._secrets: dict[UUID, GameSecret] = {}
        self.stored_index: Callable[[UUID, Any], GameIndex | None] | None = None
        """Reads a game's stored audit index (set by the app: ``dicelog.service.store.projection_store``)."""
        self.write_lane: WriteLane | None = None
        """The threads of the API's handlers that write (``dicelog.service.store.write_lane``; set by the
        app)."""
        self.trust_cache = False
        """``cached_game`` answers from the aggregate cache without asking the store for newer events:
        set (by the app) where one process writes the games, SQLite's one ``serve``. With several
        writers (PostgreSQL replicas) a command would often be decided on a stale game and then again,
        so there the store is asked first, as every read does."""
        self._indexes = IndexCache()
        self._listing = GameListing()
        topic = recorder_topic(env.get("PERSISTENCE_MODULE"))
        if topic is not None:
            env.setdefault("APPLICATION_RECORDER_TOPIC", topic)
        super().__init__(env)
        self._checks_revocations = isinstance(
            self.recorder, (RevocationCheckingSQLiteRecorder, RevocationCheckingPostgresRecorder)
        )
        """Whether the store checks ``save``'s ``unrevoked`` in the write's transaction (else: read first)."""
        self._locks = tuple(threading.RLock() for _ in range(_LOCK_STRIPES))
        self._cache_lock = threading.Lock()
        self.group_commit = GroupCommit(self._save_now)
        """Saves of several threads share a transaction (``dicelog.service.store.write_lane.GroupCommit``)."""
        self.game_ended: Callable[[Game], None] | None = None
        """Called with the game right after the save of a command that ended it (a player's or a bot's),
        still under the game's lock; it must not raise (set by the app: a campaign records its chapter's
        result, ``dicelog.service.app.campaigns.chapter_ended``)."""

    def save(self, *objs: Any, unrevoked: Sequence[str] = (), **kwargs: Any) -> Any:
        """Save events (``Recorded`` and the service's records) atomically, in order; their recordings.

        The events are handed to the library as one batch: its per-object runtime protocol
        checks cost ~20 µs each on Python 3.11, per event that would dominate a command. Through
        ``group_commit``, the saves of other threads made meanwhile may share the transaction; the
        outcome is this save's own (``GroupCommit``). ``unrevoked``: the SHA-256 (hex) of tokens that must
        not be revoked for the events to be stored, checked in the write's own transaction
        (``dicelog.service.store.revocations``). Raises ``Unauthorized`` (such a token was revoked: nothing
        stored), the store's ``IntegrityError`` (a version or record id taken: nothing stored) and its
        other ``PersistenceError``s.
        """
        events = [o for o in objs if o is not None]
        ids = [revocation_id(digest) for digest in unrevoked]
        if ids and not self._checks_revocations:
            for digest in unrevoked:  # a store without the in-transaction check: read them first
                self.ensure_not_revoked(digest)
            ids = []
        try:
            # with the library's own arguments (tracking...) a save is not grouped
            recordings = (
                super().save(_Batch(events), **kwargs, **({UNREVOKED: ids} if ids else {}))  # type: ignore[arg-type]  # _Batch: collects like an aggregate
                if kwargs
                else self.group_commit.save(events, ids)
            )
        except TokenRevokedOnSave:
            raise Unauthorized(_REVOKED.format(kind="game")) from None
        count_events(o.payload for o in objs if isinstance(o, Recorded))
        return recordings

    def _save_now(self, events: list[Any], unrevoked: Sequence[UUID] = ()) -> Any:
        if unrevoked:
            return super().save(_Batch(events), **{UNREVOKED: unrevoked})  # type: ignore[arg-type]  # _Batch: collects like an aggregate
        return super().save(_Batch(events))  # type: ignore[arg-type]  # _Batch: collects like an aggregate

    def construct_mapper(self) -> MsgspecMapper:
        mapper = self.factory.mapper(transcoder=self.construct_transcoder(), mapper_class=MsgspecMapper)
        if not isinstance(mapper, MsgspecMapper):
            raise InvariantViolated("mapper", f"the store made a {type(mapper).__name__}")
        return mapper

    # --- writing ---------------------------------------------------------------------------

    def lock(self, aggregate_id: UUID) -> AbstractContextManager[bool]:
        """The lock held while a game (or campaign) is read, decided on and saved by one of this
        process's threads, so that its writes take turns instead of failing with a version conflict
        (``IntegrityError``) against each other: one of 256 locks, chosen by the id (re-entrant)."""
        return self._locks[aggregate_id.int % _LOCK_STRIPES]

    def create_game(
        self,
        created: GameCreated,
        *,
        seed: bytes | None,
        tokens: dict[str, str],
        at: datetime | None = None,
    ) -> Game:
        """Store a new game: its events, its secret record and the index of its tokens.

        ``tokens`` maps audiences to bearer tokens: ``seat:<name>`` for each seat, ``spectator``
        and ``auditor``. Raises ``RuleBroken`` on a bad setup or bad bot seats
        (``seat_bots.check_seats``), storing nothing. Then the bot seats play until a person's move
        (``play_bots``): the game returned is the one after their commands.
        """
        at = at or datetime.now(UTC)
        check_seats(created.ruleset, created.seats)
        game_id = uuid4()
        nonce_key = None
        if has_secrets(registry.get(created.ruleset)):
            # the view key: it salts every payload's digest (chain format 2), revealed by GameEnded
            nonce_key = secrets.token_bytes(32)
            created = msgspec.structs.replace(
                created, chain_format=CHAIN_FORMAT, view_key_commitment=commitment(nonce_key)
            )
        records = create(
            game_id, created, at=at, seed=seed, command_id=f"create-{game_id}", nonce_key=nonce_key
        )
        secret = _secret(game_id, at, seed.hex() if seed else None, tokens, nonce_key)
        self.save(*records, secret, *_token_index(game_id, tokens, at))
        self._secrets[game_id] = secret
        game = self._saved(None, fold(None, records))
        return self.play_bots(game)

    def execute(
        self,
        game_id: UUID,
        *,
        seat: str,
        command: Command,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        request_hash: str = "",
        render: Any = None,
        game: Game | None = None,
        unrevoked: str | None = None,
    ) -> Executed:
        """Run one command for ``seat``; return its ``Executed`` (status, JSON body from ``render``, encoded
        once, and the ``after`` of its ``Location``).

        ``render(game_before, records, game_after) -> Struct`` builds the answer body. With an
        ``idempotency_key`` the first answer is stored with the events and returned again for a
        retry. ``game``: the game as the caller read it while holding ``lock(game_id)``, which it
        still holds (the lock is then not taken again); without it the game is read here, under
        the lock. ``unrevoked``: the SHA-256 (hex) of the token that sent the command, whose revocation
        is checked in the save's own transaction (``save``); an answer that stores nothing (a refusal, a
        stored first answer) leaves that check to the caller (``ensure_not_revoked``). Raises
        ``GameNotFound``, ``VersionConflict``, ``Forbidden``, ``Unauthorized`` (``unrevoked`` was revoked:
        nothing stored), ``IdempotencyMismatch`` and the domain's ``RuleBroken``.
        """
        key_id = idempotency_id(game_id, seat, idempotency_key) if idempotency_key is not None else None
        if key_id is not None:
            earlier = self._idempotent_answer(key_id, idempotency_key, request_hash)
            if earlier is not None:
                return earlier
        try:
            with nullcontext() if game is not None else self.lock(game_id):
                return self._execute(
                    game or self.game(game_id),
                    seat,
                    command,
                    expected_version,
                    key_id,
                    idempotency_key,
                    request_hash,
                    render,
                    unrevoked,
                )
        except (DomainError, VersionConflict, IntegrityError):
            # A retry that raced the first attempt (in flight when it arrived) finds the first
            # answer stored by now: it gets that answer, never a conflict.
            if key_id is not None:
                earlier = self._idempotent_answer(key_id, idempotency_key, request_hash)
                if earlier is not None:
                    return earlier
            raise

    def _execute(
        self,
        game: Game,
        seat: str,
        command: Command,
        expected_version: int | None,
        key_id: UUID | None,
        key: str | None,
        request_hash: str,
        render: Any,
        unrevoked: str | None = None,
    ) -> Executed:
        game_id = game.id
        if expected_version is not None and expected_version != game.version:
            raise VersionConflict(expected_version, game.version)
        records, after = self._play(game, seat, command)
        body = _encode(render(game, records, after))
        extra: list[Any] = []
        if key_id is not None:
            extra.append(
                IdempotencyRecord(
                    originator_id=key_id,
                    timestamp=records[0].timestamp,
                    game_id=game_id,
                    key=key or "",
                    request_hash=request_hash,
                    status=201,
                    body=msgspec.Raw(body),
                )
            )
        try:
            self.save(*records, *extra, unrevoked=(unrevoked,) if unrevoked else ())
        except IntegrityError:
            raise VersionConflict(expected_version, self.game(game_id).version) from None
        self._saved(game, after)
        self._remember(after)
        self.play_bots(after)
        return Executed(201, body, records[0].originator_version - 1)

    def _play(self, game: Game, seat: str, command: Command) -> tuple[list[Recorded], Game]:
        """``command`` by ``seat`` authorized and played on ``game`` with its secret seed and nonce key: the
        records to store and the game after them (nothing stored yet)."""
        self.authorize(game, seat, command)
        secret = self.secret(game.id)
        return run_command_and_auto_answers(
            game,
            command,
            seat=seat,
            command_id=str(uuid4()),
            at=datetime.now(UTC),
            seed=_bytes(secret.seed),
            history=StoreHistory(self, game.id),
            nonce_key=_bytes(secret.nonce_key),
        )

    def close_game(
        self, game: Game, *, result: str, reason: str, command_id: str, at: datetime
    ) -> tuple[list[Recorded], Game]:
        """The events that close the running ``game`` (``CloseGame`` by seat ``server``: ``GameEnded`` with
        ``result`` and ``reason``, revealing the seed and view key), and the game after them; nothing is
        stored: the caller saves them (with its own events, in one save) and then calls ``game_closed``."""
        secret = self.secret(game.id)
        return run_command_and_auto_answers(
            game,
            CloseGame(result=result, reason=reason),
            seat="server",
            command_id=command_id,
            at=at,
            seed=_bytes(secret.seed),
            nonce_key=_bytes(secret.nonce_key),
        )

    def game_closed(self, after: Game) -> None:
        """The events of ``close_game`` were stored: the aggregate cache holds the closed game."""
        self._remember(after)

    def play_bots(self, game: Game) -> Game:
        """Play the bot seats' commands (``Seat.bot``) while one of them has the move: each is chosen
        from the bot seat's own view (``dicelog.service.app.seat_bots``), played like a person's command
        (signed by the bot's seat; server dice and default decisions answered after it, as for any
        command) and saved on its own; returns the game after the last one saved.

        Stops at a person's move, at the end of the game, after ``MAX_BOT_COMMANDS`` and at the first
        bot command that fails (a refusal, a store conflict with another writer, a bug): that is
        logged, never raised, since the command (or creation) that set the bots going is stored and
        its answer stands. The bots' moves are read like any others: ``/events``, ``/state``, the
        stream.

        Bots do not move in a ``sealed`` fork: their moves would draw from the original's unseen deck, bag
        and hands, and every event of the fork reaches its Redis streams
        (``dicelog.service.worker.publisher``), which anyone with access to Redis reads, sealed or not. They
        take their moves once the seal lifts, at the first claim after the original ended (``claim``)."""
        if not has_bots(game) or self.sealed(game):
            return game
        log = logging.getLogger("dicelog.bots")
        for _ in range(MAX_BOT_COMMANDS):
            seat = None
            try:
                move = next_bot_command(game, self.lens)
                if move is None:
                    return game
                seat, command = move
                records, after = self._play(game, seat, command)
                self.save(*records)
            except IntegrityError:
                log.info("bot stopped: another command was stored first", extra={"game_id": str(game.id)})
                return game
            except DomainError as e:
                extra = {"game_id": str(game.id), "version": game.version, "seat": seat, "rule": e.rule}
                log.warning("bot command refused: %s", e, extra=extra)
                return game
            except Exception:
                log.exception("bot failed", extra={"game_id": str(game.id), "version": game.version})
                return game
            game = self._saved(game, after)
            self._remember(game)
        extra = {"game_id": str(game.id), "version": game.version}
        log.warning("bots stopped after %d commands in a row", MAX_BOT_COMMANDS, extra=extra)
        return game

    def _idempotent_answer(self, key_id: UUID, key: str | None, request_hash: str) -> Executed | None:
        """The stored answer of a keyed command, or ``None``. Raises ``IdempotencyMismatch`` when
        the key was used (by the same seat) for a different request."""
        record = self._read_record(key_id)
        if record is None:
            return None
        if not hmac.compare_digest(record.request_hash, request_hash):
            raise IdempotencyMismatch(f"Idempotency-Key {key!r} was used for a different request")
        return Executed(record.status, bytes(record.body), None)

    def _read_record(self, record_id: UUID) -> Any:
        """A one-event record (secret, idempotency) by id, or ``None``. Read from the store,
        not the repository: these records are not aggregates and are never cached there."""
        found = list(self.events.get(record_id, desc=True, limit=1))
        return found[0] if found else None

    def _saved(self, before: Game | None, after: Game) -> Game:
        """Take a snapshot when the new events cross a multiple of the snapshot interval.

        The events are stored by then: a snapshot the store refuses is logged and skipped (a
        later one replaces it), so that the request is not answered 503 although it was stored."""
        if before is not None and before.result is None and after.result is not None and self.game_ended:
            self.game_ended(after)
        n = self.snapshot_interval
        old = before.version if before is not None else 0
        if self.snapshots is not None and n > 0 and after.version // n > old // n:
            try:
                self.snapshots.put([GameSnapshot.take(after)])
            except PersistenceError as e:
                logging.getLogger("dicelog").warning(
                    "snapshot of game %s at version %d not stored (its events are): %s: %s",
                    after.id,
                    after.version,
                    type(e).__name__,
                    e,
                )
        return after

    def _notify(self, recordings: Sequence[Any]) -> None:
        """After each save: wake the in-process listeners of the games that changed."""
        if self.fanout is None:
            return
        newest: dict[UUID, int] = {}
        for recording in recordings:
            event = recording.domain_event
            if isinstance(event, Recorded):
                newest[event.originator_id] = event.originator_version
        for game_id, version in newest.items():
            self.fanout.publish(game_id, version)

    def fork(self, game_id: UUID, version: int, *, audience: str) -> tuple[Game, dict[str, str]]:
        """A new game from the first ``version`` events of ``game_id``, recording its origin;
        returns it and the tokens of the forking ``audience`` (and a spectator token).

        The prefix is copied event for event (re-chained under the new id); the original is
        untouched. A fork of a running game with secrets (or of a ``sealed`` fork) is the
        auditor's alone, and ``sealed`` until the original ends. A fork of a running
        ``server``-dice game draws a fresh seed and commits to it (``ForkOrigin.reseeded``): with
        the original's seed, playing the fork to its end would reveal every future roll of the
        original. A fork of an ended game keeps the revealed seed
        (an exact what-if). Only the forking audience gets a token of the fork; each other seat
        (and the auditor) of the original takes its own place with ``claim``. Raises
        ``GameNotFound`` and ``RuleBroken("fork.*")``.
        """
        records = self.records(game_id)
        if not records:
            raise GameNotFound(str(game_id))
        section = "docs/event-model.md, Undo never deletes"
        if version > len(records):
            raise RuleBroken(
                "fork.bad-version", section=section, detail=f"the game has {len(records)} events"
            )
        if version < len(records):
            following = records[version]
            if not isinstance(following.payload, CommandAccepted) or following.seat in ("server", "policy"):
                raise RuleBroken(
                    "fork.not-a-command-boundary",
                    section=section,
                    detail=f"version {version} is not right before a player's command",
                )
        original_game = self.game(game_id)
        running_secrets = original_game.result is None and has_secrets(original_game.ruleset)
        if (running_secrets or self.sealed(original_game)) and audience != "auditor":
            # A fork copies the hidden deck and hands: drawing in a fork would sample the original's
            # secrets. Only the auditor, who sees them all, may fork a running game with secrets.
            raise RuleBroken(
                "fork.secrets-in-play",
                section=section,
                detail="a running game with hidden information can be forked only with the auditor token",
            )
        original = self.secret(game_id)
        created_before = records[0].payload
        if not isinstance(created_before, GameCreated):
            raise InvariantViolated("game-starts", f"{game_id} starts with {type(created_before).__name__}")
        reseed = original_game.result is None and created_before.dice_mode == "server"
        seed = secrets.token_bytes(32) if reseed else _bytes(original.seed)
        new_id = uuid4()
        origin = ForkOrigin(
            game_id=str(game_id),
            version=version,
            head_hash=record_hash(records[version - 1]),
            reseeded=reseed,
        )
        nonce_key = secrets.token_bytes(32) if original.nonce_key else None
        created = msgspec.structs.replace(
            created_before,
            forked_from=origin,
            campaign_id=None,  # a fork plays no campaign's chapter
            dice_commitment=commitment(seed) if reseed and seed else created_before.dice_commitment,
            view_key_commitment=commitment(nonce_key)
            if created_before.chain_format >= 2 and nonce_key
            else None,
        )
        copied: list[Recorded] = []
        prev = GENESIS_HASH
        for record in records[:version]:
            new = msgspec.structs.replace(
                record,
                originator_id=new_id,
                prev_hash=prev,
                payload=created if not copied else record.payload,
            )
            copied.append(new)
            prev = record_hash(new)
        at = datetime.now(UTC)
        tokens = {audience: new_token(), "spectator": new_token()}
        secret = _secret(new_id, at, seed.hex() if seed else None, tokens, nonce_key)
        claims = [
            SeatClaim(originator_id=claim_id(new_id, a), timestamp=at, game_id=new_id, audience=a)
            for a in tokens
        ]
        self.save(*copied, secret, *_token_index(new_id, tokens, at), *claims)
        self._secrets[new_id] = secret
        # a fork of a game with bot seats goes on at once when the version it starts from is a bot's move
        return self.play_bots(self._saved(None, fold(None, copied))), tokens

    def claim(self, fork_id: UUID, original_token: str | None) -> tuple[str, str]:
        """Take, in fork ``fork_id``, the place the token holds in the fork's original game;
        returns (audience, new token). Raises ``GameNotFound``, ``Unauthorized`` (not a token of
        the original), ``RuleBroken("fork.not-a-fork")``, ``RuleBroken("fork.sealed")`` (a
        non-auditor token while the fork is ``sealed``) and ``AlreadyClaimed``."""
        fork = self.game(fork_id)  # an id that is no game's (a campaign's) is a 404 first
        if not original_token:
            raise Unauthorized("a token of the fork's original game is needed to claim a place")
        origin = fork.created.forked_from
        if origin is None:
            raise RuleBroken(
                "fork.not-a-fork",
                section="docs/event-model.md, Undo never deletes",
                detail=f"game {fork_id} is not a fork",
            )
        audience = self.audience(UUID(origin.game_id), original_token)
        if audience != "auditor" and self.sealed(fork):
            raise RuleBroken(
                "fork.sealed",
                section="docs/api-contract.md, Forks of a running game with secrets",
                detail="the fork's original still runs with hidden information: until it ends the fork "
                "is the auditor's alone, and its places cannot be claimed",
            )
        token = new_token()
        at = datetime.now(UTC)
        claim = SeatClaim(
            originator_id=claim_id(fork_id, audience), timestamp=at, game_id=fork_id, audience=audience
        )
        try:
            holder = TokenHolder(
                originator_id=holder_id(fork_id, audience),
                originator_version=1,
                timestamp=at,
                owner_id=fork_id,
                audience=audience,
                token_hash=hash_token(token),
                by=audience,
            )
            self.save(claim, holder, *_token_index(fork_id, {audience: token}, at))
        except IntegrityError:
            raise AlreadyClaimed(f"{audience} of game {fork_id} was already taken") from None
        if has_bots(fork) and not self.sealed(fork):
            with self.lock(
                fork_id
            ):  # a fork's bots wait while it is sealed: the first claim after sets them going
                self.play_bots(self.game(fork_id))
        return audience, token

    # --- authorization ---------------------------------------------------------------------

    def secret(self, game_id: UUID) -> GameSecret:
        """The game's secret record (cached; it never changes). Raises ``GameNotFound``."""
        try:
            return self._secrets[game_id]
        except KeyError:
            pass
        secret = self._read_record(secret_id(game_id))
        if secret is None:
            raise GameNotFound(str(game_id))
        self._secrets[game_id] = secret
        return secret

    def audience(self, game_id: UUID, token: str | None, kind: str = "game") -> str:
        """Whom a bearer token speaks for in a game (or a campaign: ``kind``, which the 401 names):
        ``seat:<name>``, ``spectator`` or ``auditor``.

        Tokens are compared by their SHA-256 only; a revoked (or rotated) token is refused. Raises
        ``GameNotFound``, ``Unauthorized``."""
        found, digest = self.audience_unchecked(game_id, token, kind)
        self.ensure_not_revoked(digest, kind)
        return found

    def audience_unchecked(self, game_id: UUID, token: str | None, kind: str = "game") -> tuple[str, str]:
        """``audience`` without the revocation read: (audience, the token's SHA-256 in hex). The caller must
        check the revocation before it answers anything: on the save of what the token sends (``save``'s
        ``unrevoked``, checked in the write's own transaction) or with ``ensure_not_revoked``. Raises
        ``GameNotFound``, ``Unauthorized`` (a token the game or its campaign never handed out)."""
        secret = self.secret(game_id)
        if token:
            digest = hash_token(token)
            found = self._audience_of(secret, digest)
            if found is None:
                index = self._read_record(token_id(digest))
                if isinstance(index, TokenIndex) and (
                    index.owner_id == game_id or index.owner_id == self._campaign_of(game_id)
                ):  # a token the game (or, for a chapter game, its campaign) handed out by rotation
                    found = index.audience
            if found is not None:
                return found, digest
        raise Unauthorized(f"a valid bearer token of this {kind} is required")

    def ensure_not_revoked(self, digest: str, kind: str = "game") -> None:
        """Raise ``Unauthorized`` if the token of this SHA-256 (hex) was revoked or replaced (``revoked``)."""
        if self.revoked(digest):
            raise Unauthorized(_REVOKED.format(kind=kind))

    def _campaign_of(self, owner_id: UUID) -> UUID | None:
        """The campaign of a chapter game (``None``: not a chapter game, or a campaign's id): a campaign's
        tokens open its chapter games, a rotated one too."""
        try:
            campaign_id = self.game(owner_id).created.campaign_id
        except GameNotFound:
            return None
        return UUID(campaign_id) if campaign_id else None

    @staticmethod
    def _audience_of(secret: GameSecret, digest: str) -> str | None:
        """The audience whose token handed out at creation has this hash, or ``None``."""
        for seat, stored in secret.token_hashes.items():
            if hmac.compare_digest(stored, digest):
                return f"seat:{seat}"
        for audience, stored in secret.audience_hashes.items():
            if hmac.compare_digest(stored, digest):
                return audience
        return None

    def revoked(self, digest: str) -> bool:
        """Whether the token of this SHA-256 (hex) was revoked (or replaced by a rotation). Read from the
        store at every call, never cached, so that a revocation holds at once on every replica."""
        return self._read_record(revocation_id(digest)) is not None

    def acting_seat(
        self,
        game: Game,
        token: str | None,
        command: Any = None,
        named: str | None = None,
        audience: str | None = None,
    ) -> str:
        """The seat a request acts as: a seat token's own seat (``named``, when given, must be it); the table
        token's (``table_device``) seat named by ``named`` (the ``Dicelog-Seat`` header) or else
        ``table_seat(game, command)``. Raises ``Unauthorized`` and ``Forbidden`` (a spectator's or auditor's
        token, a seat token naming another seat, a seat name the game does not have). ``audience``: the
        token's, when the caller has it already (``audience(game.id, token)``)."""
        audience = audience or self.audience(game.id, token)
        if audience.startswith("seat:"):
            seat = audience.removeprefix("seat:")
            if named is not None and named != seat:
                raise Forbidden(f"the token of seat {seat!r} acts as {seat!r} only, not {named!r}")
            return seat
        if audience != TABLE:
            raise Forbidden(f"a {audience} token reads the game; only a seat's token sends commands")
        if named is None:
            return table_seat(game, command)
        if named not in {s.name for s in game.created.seats}:
            raise Forbidden(f"the game has no seat {named!r}")
        return named

    def authenticate(self, game_id: UUID, token: str | None, kind: str = "game") -> str:
        """The seat a bearer token of a game (or a campaign: ``kind``) belongs to (only seats act). Raises
        ``GameNotFound``, ``Unauthorized``, ``Forbidden`` (a spectator or auditor token)."""
        audience = self.audience(game_id, token, kind)
        if not audience.startswith("seat:"):
            raise Forbidden(f"a {audience} token reads the {kind}; only a seat's token acts on it")
        return audience.removeprefix("seat:")

    def sealed(self, game: Game) -> bool:
        """Whether ``game`` is a fork whose original (or an original of that, up the chain) still runs
        with hidden information. Such a fork holds the original's unseen deck, bag and hands: playing
        or reading it would show them. Until the original ends it is the auditor's alone: only the
        fork's auditor token reads it and its places cannot be claimed (docs/api-contract.md, Forks
        of a running game with secrets)."""
        origin = game.created.forked_from
        while origin is not None:
            try:
                original = self.game(UUID(origin.game_id))
            except GameNotFound:
                return False
            if original.result is None and has_secrets(original.ruleset):
                return True
            origin = original.created.forked_from
        return False

    def viewer(self, game: Game, token: str | None, audience: str | None = None) -> Viewer:
        """Who reads ``game`` with this token (``None``: no token). Raises ``Unauthorized`` for a
        bad token, or no token on a ``private`` game or a ``sealed`` fork, and
        ``Forbidden`` for any token but the auditor's on a ``sealed`` fork. ``audience``: the token's,
        when the caller has it already (``audience(game.id, token)``)."""
        if self.sealed(game):
            if token is None:
                raise Unauthorized("this fork is sealed until its original ends: the auditor token is needed")
            audience = audience or self.audience(game.id, token)
            if audience != "auditor":
                raise Forbidden("this fork is sealed until its original ends: only the auditor reads it")
            return viewer_of(game.created.seats, audience)
        if audience is not None and token is not None:
            return viewer_of(game.created.seats, audience)
        return self.reader(game.id, game.created.seats, game.created.visibility, token)

    def reader(
        self, owner_id: UUID, seats: Any, visibility: str, token: str | None, kind: str = "game"
    ) -> Viewer:
        """Who reads the game or campaign (``kind``) ``owner_id`` of these seats and visibility with this
        token (``None``: no token): a seat, the spectator or the auditor; a spectator without a token,
        unless it is ``private``. Raises ``Unauthorized`` (a bad token, or none on a private one)."""
        if token is None:
            if visibility == "private":
                raise Unauthorized(f"this {kind} is private: a seat, spectator or auditor token is needed")
            return SPECTATOR_VIEWER
        return viewer_of(seats, self.audience(owner_id, token, kind))

    def revealed(self, game: Game) -> bool:
        """Whether everything of ``game`` is public: it ended, and, for a fork, so did its
        original (the fork's copied prefix holds the original's secrets)."""
        if game.result is None:
            return False
        origin = game.created.forked_from
        if origin is None:
            return True
        try:
            return self.revealed(self.game(UUID(origin.game_id)))
        except GameNotFound:
            return True

    def lens(self, game: Game, viewer: Viewer) -> Lens:
        """What ``viewer`` sees of ``game`` (``dicelog.domain.core.visibility``)."""
        return Lens(game.ruleset, viewer, reveal=self.revealed(game))

    def token_owners(self, token: str) -> TokenIndex | None:
        """The game or campaign a token belongs to (``None``: unknown token)."""
        digest = hash_token(token)
        index = self._read_record(token_id(digest))
        return index if isinstance(index, TokenIndex) and not self.revoked(digest) else None

    def authorize(self, game: Game, seat: str, command: Command) -> None:
        """Check ``seat`` may issue ``command`` now. Raises ``Forbidden`` or ``RuleBroken``.

        Answers to a pending roll/shuffle/draw are refused in ``server`` dice mode (the server rolls);
        in ``manual`` mode, and for decisions, only the seat controlling the pending node's
        piece may answer (anyone when it names no piece). Any other command about a piece is
        accepted only from the seat that controls that piece.
        """
        section = "docs/architecture.md, The core idea: decide / evolve"
        if isinstance(command, Begin):
            raise RuleBroken(
                "game.begin-is-internal", section=section, detail="Begin is issued by the server"
            )
        if isinstance(command, (Roll, Shuffle, Draw)) and game.created.dice_mode == "server":
            raise RuleBroken(
                "roll.server-dice",
                section="docs/verifiable-secrets.md, Provably fair dice",
                detail="the server rolls in this game",
            )
        if isinstance(command, (Roll, Shuffle, Draw, Choose)):
            pending = game.pending
            piece = (
                pending.piece
                if isinstance(pending, (RollRequested, DrawRequested, DecisionRequested))
                else None
            )
        else:
            piece = game.ruleset.piece_of(command)
        if piece is None:
            return
        controller = next((s.name for s in game.created.seats if piece in s.controls), None)
        if controller != seat:
            raise Forbidden(f"{piece} is controlled by seat {controller!r}, not {seat!r}")

    # --- reading ---------------------------------------------------------------------------

    def game(self, game_id: UUID, version: int | None = None) -> Game:
        """The game at ``version`` (latest if ``None``). Raises ``GameNotFound``."""
        try:
            game = self.repository.get(game_id, version=version, projector_func=project_game)
        except (AggregateNotFoundError, NotThisAggregate):  # no such id, or a campaign's
            raise GameNotFound(str(game_id)) from None
        if not isinstance(game, Game):
            raise GameNotFound(str(game_id))
        if version is None:
            # The library fast-forwards a cached aggregate by folding the new events, which for
            # an immutable aggregate returns a new object without putting it back: do so, or
            # every read would fast-forward from the first cached version again.
            self._remember(game)
        return game

    def _remember(self, game: Game) -> None:
        """Put ``game`` in the aggregate cache unless it holds a later version of it already: a read
        that loaded the game before a command stored its events must not set the cache back to before
        them (the command path decides on the cached game, ``cached_game``)."""
        cache = self.repository.cache
        if cache is None:
            return
        with self._cache_lock:
            try:
                held = cache.get(game.id)
            except KeyError:
                held = None
            if held is None or getattr(held, "version", -1) <= game.version:
                cache.put(game.id, game)

    def cached_game(self, game_id: UUID) -> Game:
        """With ``trust_cache``, the game as this process last read or saved it, from the aggregate
        cache without asking the store for newer events (another process may have stored some since);
        otherwise, or when it is not cached, read from the store (``game``). For the command path,
        under ``lock(game_id)``: a command decided on a stale game fails to store (its first event's
        version is taken), which the caller checks against the store before it answers a refusal.
        Raises ``GameNotFound``."""
        cache = self.repository.cache
        if self.trust_cache and cache is not None:
            try:
                game = cache.get(game_id)
            except KeyError:
                pass
            else:
                if isinstance(game, Game):
                    return game
        return self.game(game_id)

    def records(
        self, game_id: UUID, *, after: int = 0, limit: int | None = None, upto: int | None = None
    ) -> list[Recorded]:
        """The game's events with ``after`` < version <= ``upto`` (no bound when ``None``), at most
        ``limit``, oldest first: one range read of the store."""
        found = self.events.get(game_id, gt=after or None, lte=upto, limit=limit)
        return cast("list[Recorded]", list(found))  # decoded by the MsgspecMapper: Recorded

    # --- audit reads: only the events a read returns (plus an index kept up to date) -------

    def index(self, game_id: UUID, ruleset: Any) -> tuple[GameIndex, int]:
        """The game's audit index (``dicelog.projections.game_index``: turn and round starts, undo ranges)
        brought up to its newest stored event, and that version: the head the reader's view
        stops at. Reads only the events stored since the index was last brought up; the first time
        this process reads the game, it starts from the index the audit index projection stored
        (``stored_index``; ``dicelog.projections.audit_index``), else from the game's first event."""
        index = self._indexes.get(game_id, ruleset)
        with index.lock:
            if index.version == 0 and self.stored_index is not None:
                stored = self.stored_index(game_id, ruleset)
                if stored is not None:
                    index.adopt(stored)
            self._extend_index(index, game_id, None)
            return index, index.version

    def build_index(self, game_id: UUID, ruleset: Any, upto: int) -> GameIndex:
        """A new audit index of the game from its stored events up to version ``upto``."""
        index = GameIndex(ruleset)
        self._extend_index(index, game_id, upto)
        return index

    def _extend_index(self, index: GameIndex, game_id: UUID, upto: int | None) -> None:
        while upto is None or index.version < upto:
            stored = read_range(self.recorder, game_id, gt=index.version or None, lte=upto, limit=INDEX_CHUNK)
            index.extend(stored, self.mapper.to_domain_event, topic_class)
            if len(stored) < INDEX_CHUNK:
                return

    def marked(self, index: GameIndex, head: int, records: Sequence[Recorded]) -> list[Marked]:
        """``records`` (consecutive or not, version order) with their ``undone`` mark, round and turn."""
        if not records:
            return []
        undone = index.undone(records[0].originator_version, records[-1].originator_version, head)
        return [
            Marked(
                r,
                r.originator_version in undone,
                index.round_of(r.originator_version),
                index.turn_of(r.originator_version),
            )
            for r in records
        ]

    def marks(self, game_id: UUID, ruleset: Any, records: Sequence[Recorded]) -> list[Marked]:
        """``records`` of one game (version order) marked as ``GET /games/{id}/events`` shows them
        now (``undone``, ``round``, ``turn``): the live channels (SSE, Redis) send exactly that."""
        index, head = self.index(game_id, ruleset)
        return self.marked(index, max(head, records[-1].originator_version if records else 0), records)

    def event_page(
        self,
        game_id: UUID,
        ruleset: Any,
        *,
        after: int = 0,
        limit: int = 100,
        seat: str | None = None,
        type_: str | None = None,
        round_: int | None = None,
    ) -> tuple[list[Marked], int | None]:
        """A page of the audit log: the first ``limit`` events with version > ``after`` that match
        the filters (caused by ``seat``, of type ``type_``, in round ``round_``), marked, and the
        ``next_after`` cursor (``None`` when no later event matches).

        Without a filter, one range read of ``limit + 1`` events. ``round_`` narrows the read to
        that round's span (from the index); ``seat`` and ``type_`` scan forward in chunks of
        ``SCAN_CHUNK`` until ``limit + 1`` events match (a type is tested on the stored topic,
        before decoding). Everything is read as of the head the index was brought up to.
        """
        index, head = self.index(game_id, ruleset)
        low, high = after, head
        if round_ is not None:
            span = index.span("round", round_, head)
            if span is None:
                return [], None
            low, high = max(low, span[0] - 1), min(high, span[1])
        chosen: list[Recorded] = []
        filtered = seat is not None or type_ is not None
        while low < high and len(chosen) <= limit:
            want = limit + 1 - len(chosen)
            chunk = max(want, SCAN_CHUNK) if filtered else want
            stored = read_range(self.recorder, game_id, gt=low, lte=high, limit=chunk)
            if not stored:
                break
            for event in stored:
                low = event.originator_version
                if type_ is not None and topic_class(event.topic).__name__ != type_:
                    continue
                record = self.mapper.to_domain_event(event)
                if seat is not None and record.seat != seat:
                    continue
                chosen.append(record)
                if len(chosen) > limit:
                    break
        page = chosen[:limit]
        next_after = page[-1].originator_version if len(chosen) > limit else None
        return self.marked(index, head, page), next_after

    def span(
        self, game_id: UUID, ruleset: Any, kind: str, number: int
    ) -> tuple[int, int, list[Marked]] | None:
        """Turn or round ``number`` (1-based, ``kind`` ``turn`` / ``round``): its first and last
        version and its events, marked (one range read); ``None`` when there is no such one."""
        index, head = self.index(game_id, ruleset)
        found = index.span(kind, number, head)
        if found is None:
            return None
        first, last = found
        return first, last, self.marked(index, head, self.records(game_id, after=first - 1, upto=last))

    def chance_records(self, game_id: UUID) -> list[Recorded]:
        """What the dice proof needs of a game's log (``dicelog.service.app.audit.dice_proof``): its first
        event (``GameCreated``), every roll, shuffle and draw with its request, every
        ``UndoApplied`` (it rewinds the dice stream) and ``GameEnded``, oldest first: the store
        returns only those (a filter on their topics). Raises ``GameNotFound``."""
        stored = read_range(self.recorder, game_id, topics=CHANCE_PROOF_TOPICS)
        if not stored or stored[0].originator_version != 1:
            raise GameNotFound(str(game_id))
        return [self.mapper.to_domain_event(s) for s in stored]

    def games(
        self, *, after: int = 0, limit: int = 50, include: set[UUID] | frozenset[UUID] = frozenset()
    ) -> tuple[list[UUID], int | None]:
        """A page of game ids in creation order (notification id > ``after``): the public games
        and those in ``include`` (a token's own); returns (ids, cursor of the next page or
        ``None`` when no later game would be listed).

        The public games come from the process's ``GameListing``, extended only while it cannot
        fill the page (so each creation is read once per process, decoding only its
        visibility); the ``include`` games are placed by their creation's notification id (one
        indexed read each). No page walks the log again.
        """
        own = sorted(
            (position, game_id)
            for game_id in include
            if (position := creation_notification_id(self.recorder, game_id, GAME_CREATED_TOPICS)) is not None
            and position > after
        )
        newest: int | None = None
        while True:
            seen = self._listing.seen  # the listing is complete up to here
            found: list[tuple[int, UUID]] = []
            for position, game_id in heapq.merge(self._listing.after(after), own):
                if position > seen or len(found) > limit:
                    break  # past ``seen`` the public games are not known yet
                if not found or found[-1][0] != position:  # a public game of the token's own, once
                    found.append((position, game_id))
            if len(found) > limit:
                return [g for _, g in found[:limit]], found[limit - 1][0]
            if newest is None:
                newest = self.recorder.max_notification_id() or 0
            if seen >= newest:
                return [g for _, g in found], None
            missing = limit + 1 - len(found)
            self._listing.extend(self.recorder, GAME_CREATED_TOPICS, self._is_public, newest, missing)

    def _is_public(self, note: Notification) -> bool:
        """Whether a stored ``GameCreated`` is of a public game (its ``visibility`` only)."""
        if self.mapper.cipher is None and self.mapper.compressor is None:
            return public_from_state(note.state)
        return self.mapper.to_domain_event(note).payload.visibility == "public"

    def verify(self, game_id: UUID) -> Verification:
        """Re-derive the whole log of a game from the store (see ``dicelog.domain.core.verify``); one
        range read of every stored event, as stored. Raises ``GameNotFound``."""
        stored = read_range(self.recorder, game_id)
        if not stored:
            raise GameNotFound(str(game_id))
        records = decode_log(stored)
        if isinstance(records, Divergence):
            return Verification(ok=False, events=len(stored), divergence=records)
        return verify(records, [s.state for s in stored])
