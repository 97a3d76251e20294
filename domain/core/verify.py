"""Exact re-derivation of a game's log (docs/event-model.md, Exact replay; Tamper evidence; Provably fair
dice).

``verify`` checks, in one pass over the stored events of one game:

1. the hash chain: each event's ``prev_hash`` is the chain hash of its predecessor as stored;
2. re-derivation: every ``CommandAccepted`` is run again through the rules (``run_command_records``) from the
   state before it, with its stored seat and command id, and must reproduce the stored events
   that follow it, bit for bit (payload encoding, seat, command id, version);
3. secrets (chain format 2): when the game ended, the revealed view key must match its commitment,
   and every event's salt must derive from it;
4. dice: when the game ended in ``server`` dice mode, the revealed seed must match the
   commitment, and every server roll and shuffle must re-derive from it.

``verify_view`` checks what one reader holds of a game of chain format 2 while it is running (its own
view: the chain across every event, the payloads it sees against their digests), and ``verify_against``
checks such a view against the game's full log once the game has ended (docs/who-sees-what.md, Hidden
information).

The answer names the first divergence (version, what was expected, what was found) or says how
many events were verified. Pure: the caller reads the events (from the store or an export).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from hashlib import sha256
from typing import Any, Literal
from uuid import UUID

import msgspec
from msgspec import Struct
from msgspec.structs import replace

from dicelog.domain.core import registry
from dicelog.domain.core.commands import ServiceCommand, UndoCommand
from dicelog.domain.core.dice import commitment, draw_cards, roll_faces, shuffle_order
from dicelog.domain.core.errors import DomainError, InvariantViolated
from dicelog.domain.core.events import (
    CardsDrawn,
    CardsShuffled,
    CommandAccepted,
    DiceRolled,
    DrawRequested,
    GameCreated,
    GameEnded,
    PendingEvent,
    RollRequested,
    ShuffleRequested,
    UndoApplied,
    UndoRequested,
)
from dicelog.domain.core.game import (
    GENESIS_HASH,
    Envelope,
    Game,
    Link,
    Recorded,
    apply,
    chain_hash,
    envelope_bytes,
    event_salt,
    link_hash,
    payload_digest,
    record_link,
    run_command_records,
)
from dicelog.domain.core.visibility import Lens

_encode = msgspec.json.Encoder().encode


Check = Literal["chain", "derivation", "dice", "structure", "digest"]
"""The check a ``Divergence`` names (``Divergence.check``)."""


class Divergence(Struct, frozen=True, kw_only=True):
    """The first place where the log and its re-derivation disagree."""

    version: int
    """Version (1-based position in the game's log) of the first event found wrong."""
    check: Check
    """Which check failed: ``chain`` (the hash chain or the stored bytes: an event was edited, removed or
    reordered), ``derivation`` (re-running a command did not reproduce the stored events, or the rules refused
    it), ``dice`` (the revealed seed does not match the commitment, or a server roll, shuffle or draw does not
    re-derive from it), ``structure`` (the log is not shaped like a game: no ``GameCreated`` first, a gap in
    the versions, another event where a command was expected) or ``digest`` (chain format 2: a payload does
    not match the salted digest its reader holds, or the revealed view key does not match its commitment or
    the salts)."""
    expected: str
    """What the check expected at that version, as readable text (a hash, an event, a seed commitment,
    faces...)."""
    found: str
    """What the log holds there instead, as readable text."""


class Verification(Struct, frozen=True, kw_only=True):
    """Outcome of ``verify``: ``ok`` with ``events`` verified, or the first ``divergence``."""

    ok: bool
    """True when every check passed; false when ``divergence`` names the first failure."""
    events: int
    """Number of events in the log that was verified."""
    divergence: Divergence | None = None
    """The first place where the log and its re-derivation disagree; ``None`` when ``ok``."""
    dice_checked: int = 0
    """Number of server rolls, shuffles and draws re-derived from the revealed seed (a fork's results copied
    from a running original are proven there, not counted here); 0 while the seed is secret or in ``manual``
    dice mode."""
    seed_revealed: bool = False
    """True when the game ended and ``GameEnded`` revealed the dice seed, so the dice could be checked."""
    chain_format: int = 1
    """The game's chain format (``GameCreated.chain_format``): 1, each event's hash covers its whole stored
    bytes; 2, its public metadata and its payload's salted digest."""
    view_key_revealed: bool = False
    """Chain format 2: true when ``GameEnded`` revealed the view key, so every salt (and every payload hidden
    during play) could be checked."""
    digest_only: tuple[int, ...] = ()
    """The versions whose payload the reader could check only by its digest (hidden from it, or shown
    masked): the chain runs across them, and their payloads are proven once the game ends and the view key
    is revealed. Empty when every payload was checked (a full log)."""


def verify(records: Sequence[Recorded], stored: Sequence[bytes] | None = None) -> Verification:
    """Verify one game's events, in version order.

    ``stored`` are the envelope bytes as read from the store (same order); when given, the chain
    is checked over them (so an edit that decodes identically is still caught), and each must
    equal the canonical re-encoding of its record.

    The checks run in this order, the first divergence found being the answer: the structure and the
    chain (``_hash_envelopes``, ``_broken_link``), the re-derivation of every command (``_rederive``),
    a broken newest link, the view key of an ended game of chain format 2 (``_wrong_salt``), and the
    server's dice against the revealed seed (``_check_dice``).
    """
    if not records or not isinstance(records[0].payload, GameCreated):
        found = type(records[0].payload).__name__ if records else "no events"
        return _failed(
            records,
            Divergence(version=1, check="structure", expected="GameCreated at version 1", found=found),
        )
    created = records[0].payload
    salted = created.chain_format >= 2
    hashed = _hash_envelopes(records, stored, salted)
    if isinstance(hashed, Divergence):
        return _failed(records, hashed)
    hashes, raws = hashed
    broken, deferred = _broken_link(records, hashes)
    if broken is not None and not deferred:
        return _failed(records, broken)

    ended = next((r.payload for r in records if isinstance(r.payload, GameEnded)), None)
    revealed = _revealed(records, ended, salted)
    if isinstance(revealed, Divergence):
        return _failed(records, revealed)
    seed, view_key = revealed
    diverged = _rederive(records, created, hashes, raws, seed, view_key)
    if diverged is not None:
        return _failed(records, diverged)
    if broken is not None:
        return _failed(records, broken)

    if salted and ended is not None:
        wrong = _wrong_salt(records, created, view_key)
        if wrong is not None:
            return wrong

    dice = _check_dice(records, created, ended, seed)
    if isinstance(dice, Divergence):
        return _failed(records, dice)
    return Verification(
        ok=True,
        events=len(records),
        dice_checked=dice,
        seed_revealed=seed is not None,
        chain_format=created.chain_format,
        view_key_revealed=view_key is not None,
    )


def _failed(records: Sequence[Recorded], divergence: Divergence) -> Verification:
    return Verification(ok=False, events=len(records), divergence=divergence)


def _hash_envelopes(
    records: Sequence[Recorded], stored: Sequence[bytes] | None, salted: bool
) -> tuple[list[str], list[bytes]] | Divergence:
    """(chain hash, canonical envelope) of each event, or the first event whose stored bytes, version or
    salt is wrong. The canonical envelope equals the stored bytes when those are given."""
    hashes: list[str] = []
    raws: list[bytes] = []
    game_id = records[0].originator_id
    id_text = str(game_id).encode()
    for i, record in enumerate(records):
        v = record.originator_version
        raw = envelope_bytes(record)
        if stored is not None and stored[i] != raw:
            return Divergence(
                version=v, check="chain", expected="canonical encoding", found="stored bytes differ"
            )
        if v != i + 1:
            return Divergence(version=v, check="structure", expected=f"version {i + 1}", found=str(v))
        raws.append(raw)
        if salted or record.salt is not None:
            if not salted or record.salt is None or record.nonce is not None or len(record.salt) != 64:
                want = "a salt of 64 hex characters" if salted else "no salt (chain format 1)"
                return Divergence(version=v, check="chain", expected=want, found=f"salt {record.salt}")
            try:
                hashes.append(link_hash(record.originator_id, v, record_link(record)))
            except ValueError:
                return Divergence(
                    version=v, check="chain", expected="a salt of 64 hex characters", found=record.salt
                )
        elif record.originator_id == game_id:  # chain_hash, without formatting the same id again
            hashes.append(sha256(b"%s:%d:" % (id_text, i + 1) + raw).hexdigest())
        else:
            hashes.append(chain_hash(record.originator_id, v, raw))
    return hashes, raws


def _broken_link(records: Sequence[Recorded], hashes: list[str]) -> tuple[Divergence | None, bool]:
    """The first broken link of the chain (``prev_hash``), and whether it is the newest event's: that one is
    reported only after re-derivation, which names an edited predecessor first."""
    for i, record in enumerate(records):
        prev = hashes[i - 1] if i else GENESIS_HASH
        if record.prev_hash != prev:
            if i + 1 == len(records):
                # Only the newest link is broken: either its predecessor or its own prev_hash was
                # edited. Re-derivation names an edited predecessor; if it finds nothing,
                # the newest event's prev_hash is what changed.
                newest = Divergence(
                    version=record.originator_version, check="chain", expected=prev, found=record.prev_hash
                )
                return newest, True
            # Event i's link is broken. If event i itself was edited (its prev_hash field), the
            # next link breaks too; if the link after it holds, the edit is in event i - 1.
            edited_before = i > 0 and records[i + 1].prev_hash == hashes[i]
            culprit = records[i - 1] if edited_before else record
            return Divergence(
                version=culprit.originator_version, check="chain", expected=prev, found=record.prev_hash
            ), False
    return None, False


def _revealed(
    records: Sequence[Recorded], ended: GameEnded | None, salted: bool
) -> tuple[bytes | None, bytes | None] | Divergence:
    """(dice seed, view key) ``GameEnded`` revealed (``None`` each when it did not), or the divergence of a
    value that is not hex."""
    try:
        seed = bytes.fromhex(ended.seed) if ended is not None and ended.seed else None
        view_key = bytes.fromhex(ended.view_key) if salted and ended is not None and ended.view_key else None
    except ValueError as e:
        v = next(r.originator_version for r in records if r.payload is ended)
        return Divergence(version=v, check="structure", expected="a seed and a view key in hex", found=str(e))
    return seed, view_key


def _rederive(
    records: Sequence[Recorded],
    created: GameCreated,
    hashes: list[str],
    raws: list[bytes],
    seed: bytes | None,
    view_key: bytes | None,
) -> Divergence | None:
    """Run every accepted command again through the rules, from the game created; the first event the
    re-derivation does not produce alike (``_same``), else ``None``."""
    ruleset = registry.get(created.ruleset)
    decode_command = msgspec.json.Decoder(ruleset.command_type | UndoCommand | ServiceCommand).decode
    history = _Replayed(records)

    game: Game = apply(None, records[0])
    history.saw(game)
    i = 1
    while i < len(records):
        record = records[i]
        v = record.originator_version
        if not isinstance(record.payload, CommandAccepted):
            return Divergence(
                version=v, check="structure", expected="CommandAccepted", found=type(record.payload).__name__
            )
        try:
            command = decode_command(record.payload.command)
            # The head hash is known (``hashes``): the first new event need not hash its predecessor again.
            derived = run_command_records(
                replace(game, last=None, chain_head=hashes[i - 1]),
                command,
                seat=record.seat,
                command_id=record.command_id,
                at=record.timestamp,
                seed=seed,
                history=history,
                nonce_key=view_key,
            )
        except (DomainError, msgspec.DecodeError, msgspec.ValidationError, ValueError) as e:  # bad UTF-8 too
            return Divergence(
                version=v, check="derivation", expected="the command to be accepted", found=f"refused: {e}"
            )
        for j, expected in enumerate(derived):
            if i + j >= len(records):
                return Divergence(
                    version=expected.originator_version,
                    check="derivation",
                    expected=_show(expected),
                    found="end of log",
                )
            found = records[i + j]
            if not _same(expected, found, raws[i + j]):
                return Divergence(
                    version=found.originator_version,
                    check="derivation",
                    expected=_show(expected),
                    found=_show(found),
                )
        for found in records[i : i + len(derived)]:
            game = apply(game, found)
            history.saw(game)
        i += len(derived)
    return None


def _check_dice(
    records: Sequence[Recorded], created: GameCreated, ended: GameEnded | None, seed: bytes | None
) -> int | Divergence:
    """The server's dice, shuffles and draws after a fork's copied prefix re-derived from the revealed seed
    (``server`` dice of an ended game): how many were checked, or the first that differs (or a seed that
    does not match ``GameCreated.dice_commitment``). 0 when there is nothing to check."""
    dice = 0
    if created.dice_mode == "server" and ended is not None:
        if seed is None or commitment(seed) != created.dice_commitment:
            v = next(r.originator_version for r in records if r.payload is ended)
            return Divergence(
                version=v,
                check="dice",
                expected=f"a seed with sha256 {created.dice_commitment}",
                found=ended.seed or "no seed",
            )
        inherited = inherited_chances(created)
        for record, k, pending in chance_events(records):
            p = record.payload
            server = isinstance(p, (DiceRolled, CardsShuffled, CardsDrawn)) and p.source == "server"
            if server and record.originator_version > inherited:
                derived_result, logged = rederive(seed, k, pending, p)
                if derived_result != logged:
                    return Divergence(
                        version=record.originator_version,
                        check="dice",
                        expected=str(list(derived_result)),
                        found=str(list(logged)),
                    )
                dice += 1
    return dice


def _wrong_salt(
    records: Sequence[Recorded], created: GameCreated, view_key: bytes | None
) -> Verification | None:
    """The first failure of the view key check of an ended game of chain format 2 (``None``: it holds): the
    key ``GameEnded`` revealed must hash to ``GameCreated.view_key_commitment``, and the salt of every event
    after a fork's copied prefix (whose salts come from the original's key) must derive from it."""

    def fail(v: int, exp: str, found: str) -> Verification:
        return Verification(
            ok=False,
            events=len(records),
            divergence=Divergence(version=v, check="digest", expected=exp, found=found),
            chain_format=created.chain_format,
        )

    if view_key is None or commitment(view_key) != created.view_key_commitment:
        v = next(r.originator_version for r in records if isinstance(r.payload, GameEnded))
        return fail(
            v,
            f"a view key with sha256 {created.view_key_commitment}",
            view_key.hex() if view_key else "no view key",
        )
    inherited = created.forked_from.version if created.forked_from is not None else 0
    game_id = records[0].originator_id
    for record in records[inherited:]:
        want = event_salt(view_key, game_id, record.originator_version)
        if record.salt != want:
            return fail(record.originator_version, f"salt {want}", f"salt {record.salt}")
    return None


CHECKPOINT = 256
"""``verify`` keeps the game every this many versions (and at every version an undo asks for)."""


class _Replayed:
    """``dicelog.domain.core.undo.History`` for ``verify``: the games verify folded on its way.

    An undo re-derives ``UndoApplied`` from the game at its target version. ``ListHistory``
    folds the log from the first event for that, so a long game with many undos costs
    (undos x length) folds. Here the games verify folds anyway are kept (immutable, shared, so
    a kept game costs only its reference) at the versions some stored ``UndoRequested`` asks for
    and every ``CHECKPOINT`` versions; any other version is folded from the nearest kept game
    below it (at most ``CHECKPOINT`` events). The games are those a fold from the first event
    gives (``fold(None, records[:version])``), so ``game_at`` answers exactly what ``ListHistory``
    does.
    """

    def __init__(self, records: Sequence[Recorded]) -> None:
        self._records = records
        self._wanted = {r.payload.to_version for r in records if type(r.payload) is UndoRequested}
        self._kept: dict[int, Game] = {}

    def saw(self, game: Game) -> None:
        """Verify folded the log up to ``game.version`` (in order, from the first event)."""
        if game.version in self._wanted or game.version % CHECKPOINT == 0:
            self._kept[game.version] = game

    def game_at(self, version: int) -> Game:
        kept = self._kept.get(version)
        if kept is not None:
            return kept
        below = [v for v in self._kept if v <= version]
        start = max(below) if below else 0
        game = self._kept[start] if start else None
        for record in self._records[start:version]:
            game = apply(game, record)
        if game is None:
            raise InvariantViolated("game-at-version", "game_at(0): no game before its first event")
        return game

    def records(self, after: int, upto: int) -> Sequence[Recorded]:
        return self._records[after:upto]


def inherited_chances(created: GameCreated) -> int:
    """The version up to which a fork's chance events came from its original's seed (0: none).

    A fork of a running game rolls from a fresh seed (docs/event-model.md, Undo never deletes: forks);
    the results it copied are proven by the original game once that game reveals its seed."""
    origin = created.forked_from
    return origin.version if origin is not None and origin.reseeded else 0


class _StreamPosition(Struct, frozen=True):
    """What an ``UndoApplied`` restores of the dice stream (read from its ``game`` document)."""

    chance_count: int = 0
    """The dice stream position restored: the number of rolls, shuffles and draws answered before the restored
    version."""
    pending: PendingEvent | None = None
    """The roll, shuffle, draw or decision pending at the restored version; ``None``: none."""


def chance_events(records: Sequence[Recorded]) -> Iterator[tuple[Recorded, int, PendingEvent | None]]:
    """Every ``DiceRolled``/``CardsShuffled``/``CardsDrawn`` with its dice stream position ``k`` and
    the pending node it answered. An undo rewinds the position (seed locking), so ``k`` is the
    stream position of the game at that point, not a count of the chance events in the log."""
    k = 0
    pending: PendingEvent | None = None
    for record in records:
        p = record.payload
        if isinstance(p, (RollRequested, ShuffleRequested, DrawRequested)):
            pending = p
        elif isinstance(p, (DiceRolled, CardsShuffled, CardsDrawn)):
            yield record, k, pending
            k, pending = k + 1, None
        elif isinstance(p, UndoApplied):
            restored = msgspec.json.decode(p.game, type=_StreamPosition)
            k, pending = restored.chance_count, restored.pending


def _same(expected: Recorded, found: Recorded, found_bytes: bytes) -> bool:
    """Whether a re-derived event is the stored one: same version, and the same envelope bytes
    (time, seat, command id and payload, byte for byte) once given the stored event's chain
    fields (``prev_hash`` and ``nonce``: the chain is checked on its own). ``found_bytes`` is the
    canonical envelope of ``found``."""
    if expected.originator_version != found.originator_version:
        return False
    envelope = Envelope(
        timestamp=expected.timestamp,
        seat=expected.seat,
        command_id=expected.command_id,
        prev_hash=found.prev_hash,
        payload=expected.payload,
        nonce=found.nonce,
        salt=found.salt,
    )
    return _encode(envelope) == found_bytes


def _show(record: Recorded) -> str:
    return f"v{record.originator_version} {record.seat} {_encode(record.payload).decode()}"


def rederive(
    seed: bytes, k: int, pending: object, answer: object
) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """What chance event ``k`` must be under ``seed``, and what the log says it was."""
    if isinstance(answer, DiceRolled):
        sides = pending.sides if isinstance(pending, RollRequested) else 6
        return roll_faces(seed, k, len(answer.faces), sides), tuple(answer.faces)
    if isinstance(answer, CardsShuffled):
        cards = pending.cards if isinstance(pending, ShuffleRequested) else tuple(sorted(answer.order))
        return shuffle_order(seed, k, cards), tuple(answer.order)
    if not isinstance(answer, CardsDrawn):
        raise InvariantViolated("chance-event", f"{type(answer).__name__} answers no roll, shuffle or draw")
    cards = pending.cards if isinstance(pending, DrawRequested) else ()
    weights = pending.weights if isinstance(pending, DrawRequested) else ()
    return draw_cards(seed, k, cards, len(answer.cards), weights), tuple(answer.cards)


class Viewed(Struct, frozen=True, kw_only=True):
    """One event of a game of chain format 2 as one reader holds it: a line of a ``dicelog-view/2`` export
    (docs/who-sees-what.md, Hidden information). The ``Link`` fields are given for every event; the payload as
    the reader may see it, with its ``salt`` only when it is shown whole."""

    version: int
    """The event's version (1-based position in the game's log)."""
    timestamp: datetime
    """When the event was recorded (UTC)."""
    seat: str
    """The seat whose command caused the event (``server``, ``policy`` for the service's own steps)."""
    command_id: str
    """The id of the command that caused the event."""
    prev_hash: str
    """The chain hash of the previous event (64 hex chars; 64 zeros for version 1)."""
    type: str
    """The event type (the payload's ``type``), given even when the payload is hidden."""
    digest: str
    """The payload's salted digest, ``sha256(salt + payload)`` (64 hex chars), given for every event."""
    hash: str
    """The event's chain hash as the server computed it: the next event's ``prev_hash``."""
    shown: Literal["full", "masked", "hidden"]
    """How the reader sees the payload: ``full`` (the stored payload, checked against ``digest`` with
    ``salt``), ``masked`` (a copy with the reader's unknowns masked) or ``hidden`` (no payload)."""
    salt: str | None = None
    """The payload's salt (64 hex chars), given only when ``shown`` is ``full``."""
    payload: msgspec.Raw = msgspec.Raw(b"null")
    """The payload as the reader sees it, as canonical JSON (``null`` when hidden)."""

    def link(self) -> Link:
        """The ``Link`` the chain hash of this event covers."""
        return Link(
            timestamp=self.timestamp,
            seat=self.seat,
            command_id=self.command_id,
            prev_hash=self.prev_hash,
            type=self.type,
            digest=self.digest,
        )


def viewed(record: Recorded, lens: Lens, shown: Any = ...) -> Viewed:
    """``record`` (of a game of chain format 2: it carries a ``salt``) as ``lens``'s reader holds it: its
    link (metadata and payload digest), and its payload whole (with its salt), masked or hidden, as the one
    who-sees-what function (``Lens.event``) shows it (``shown``: its answer, when already asked)."""
    if shown is ...:
        shown = lens.event(record.payload, seat=record.seat)
    link = record_link(record)
    whole = shown is not None and (shown is record.payload or shown == record.payload)
    return Viewed(
        version=record.originator_version,
        timestamp=link.timestamp,
        seat=link.seat,
        command_id=link.command_id,
        prev_hash=link.prev_hash,
        type=link.type,
        digest=link.digest,
        hash=link_hash(record.originator_id, record.originator_version, link),
        shown="full" if whole else "hidden" if shown is None else "masked",
        salt=record.salt if whole else None,
        payload=msgspec.Raw(_encode(shown)),  # a hidden payload: ``null``
    )


class _Tag(Struct):
    type: str


def verify_view(game_id: UUID, viewed: Sequence[Viewed]) -> Verification:
    """Check what one reader holds of a running game of chain format 2: every link of the hash chain,
    hidden events included (each is recomputed from its public metadata and digest), and every payload it
    sees whole against its digest. ``digest_only`` lists the versions whose payload it could not check
    (hidden or masked from it): ``verify_against`` checks them once the game has ended. ``GameCreated`` must
    be shown, whole or masked (a setup laying secrets, e.g. a sandbox table, is masked like any other
    payload): its link is in the chain all the same, and its digest binds the commitments it holds.

    The rules are not re-run here: what follows a hidden card depends on it, so only the server (``verify``
    of the full log, ``POST /games/{id}/verify``) re-derives a running game with secrets; every reader can
    re-derive all of it after the end (``verify_against``, or ``verify`` of the public full log)."""

    def fail(v: int, check: Check, exp: str, found: str) -> Verification:
        return Verification(
            ok=False,
            events=len(viewed),
            divergence=Divergence(version=v, check=check, expected=exp, found=found),
            chain_format=2,
        )

    if not viewed or viewed[0].type != "GameCreated" or viewed[0].shown == "hidden":
        return fail(
            1, "structure", "GameCreated at version 1, shown", viewed[0].type if viewed else "no events"
        )
    try:
        created = msgspec.json.decode(viewed[0].payload, type=GameCreated)
    except msgspec.MsgspecError as e:
        return fail(1, "structure", "a GameCreated payload", str(e))
    if created.chain_format < 2:
        return fail(1, "structure", "a game of chain format 2", f"chain format {created.chain_format}")
    prev = GENESIS_HASH
    digest_only: list[int] = []
    for i, event in enumerate(viewed):
        v = event.version
        if v != i + 1:
            return fail(v, "structure", f"version {i + 1}", str(v))
        if event.prev_hash != prev:
            return fail(v, "chain", prev, event.prev_hash)
        try:
            prev = link_hash(game_id, v, event.link())
        except msgspec.MsgspecError as e:
            return fail(v, "structure", "a well-formed link", str(e))
        if event.hash != prev:
            return fail(v, "chain", prev, event.hash)
        if event.shown != "hidden":
            try:
                tag = msgspec.json.decode(event.payload, type=_Tag).type
            except msgspec.MsgspecError as e:
                return fail(v, "structure", f"a {event.type} payload", str(e))
            if tag != event.type:
                return fail(v, "digest", f"a {event.type} payload", f"a {tag} payload")
        if event.shown != "full":
            digest_only.append(v)
            continue
        if event.salt is None:
            return fail(v, "structure", "a payload shown whole with its salt", "no salt")
        try:
            digest = payload_digest(event.salt, bytes(event.payload))
        except ValueError:
            return fail(v, "structure", "a salt of 64 hex characters", event.salt)
        if digest != event.digest:
            return fail(v, "digest", event.digest, digest)
    return Verification(ok=True, events=len(viewed), chain_format=2, digest_only=tuple(digest_only))


def verify_against(
    game_id: UUID,
    viewed: Sequence[Viewed],
    records: Sequence[Recorded],
    stored: Sequence[bytes] | None = None,
) -> Verification:
    """Check a reader's view taken while the game ran (``verify_view``'s input) against the game's full log
    after the end: every event the reader held must be the final log's event at that version, link for
    link and digest for digest (a hidden payload changed afterwards is named at its version: ``digest``),
    and the full log must then verify (``verify``), its view key revealed and matching its commitment,
    so every salt, and with it every payload the reader saw only as a digest, is proven."""

    def fail(v: int, check: Check, exp: str, found: str) -> Verification:
        return Verification(
            ok=False,
            events=len(records),
            divergence=Divergence(version=v, check=check, expected=exp, found=found),
            chain_format=2,
        )

    own = verify_view(game_id, viewed)
    if not own.ok:
        return own
    if not records or records[0].originator_id != game_id:
        return fail(
            0, "structure", f"the full log of game {game_id}", "another game" if records else "no events"
        )
    if len(viewed) > len(records):
        return fail(len(records) + 1, "structure", f"at least {len(viewed)} events", f"{len(records)} events")
    for event in viewed:
        record = records[event.version - 1]
        if record.salt is None:
            return fail(event.version, "chain", "a salted event (chain format 2)", "no salt")
        try:
            link = record_link(record)
        except ValueError:
            return fail(event.version, "chain", "a salt of 64 hex characters", record.salt)
        if link.digest != event.digest:
            return fail(event.version, "digest", event.digest, link.digest)
        if link != event.link():
            return fail(event.version, "chain", _encode(event.link()).decode(), _encode(link).decode())
    full = verify(records, stored)
    if full.ok and not full.view_key_revealed:
        return fail(
            len(records), "structure", "the log of an ended game, its view key revealed", "no view key"
        )
    return full
