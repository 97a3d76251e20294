"""Exact re-derivation of a game's log (DESIGN.md, Exact replay; Tamper evidence; Provably fair dice).

``verify`` checks, in one pass over the stored events of one game:

1. the hash chain: each event's ``prev_hash`` is the chain hash of its predecessor as stored;
2. re-derivation: every ``CommandAccepted`` is run again through the rules (``step``) from the
   state before it, with its stored seat and command id, and must reproduce the stored events
   that follow it, bit for bit (payload encoding, seat, command id, version);
3. dice: when the game ended in ``server`` dice mode, the revealed seed must match the
   commitment, and every server roll and shuffle must re-derive from it.

The answer names the first divergence (version, what was expected, what was found) or says how
many events were verified. Pure: the caller reads the events (from the store or an export).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from hashlib import sha256
from typing import Literal

import msgspec
from msgspec import Struct
from msgspec.structs import replace

from dicelog.domain.core import registry
from dicelog.domain.core.commands import UndoCommand
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
    Recorded,
    apply,
    chain_hash,
    envelope_bytes,
    step,
)

_encode = msgspec.json.Encoder().encode


class Divergence(Struct, frozen=True, kw_only=True):
    """The first place where the log and its re-derivation disagree."""

    version: int
    """Version (1-based position in the game's log) of the first event found wrong."""
    check: Literal["chain", "derivation", "dice", "structure"]
    """Which check failed: ``chain`` (the hash chain or the stored bytes: an event was edited, removed or
    reordered), ``derivation`` (re-running a command did not reproduce the stored events, or the rules refused
    it), ``dice`` (the revealed seed does not match the commitment, or a server roll, shuffle or draw does not
    re-derive from it) or ``structure`` (the log is not shaped like a game: no ``GameCreated`` first, a gap in
    the versions, another event where a command was expected)."""
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


def verify(records: Sequence[Recorded], stored: Sequence[bytes] | None = None) -> Verification:
    """Verify one game's events, in version order.

    ``stored`` are the envelope bytes as read from the store (same order); when given, the chain
    is checked over them (so an edit that decodes identically is still caught), and each must
    equal the canonical re-encoding of its record.
    """
    fail = lambda v, check, exp, found: Verification(  # noqa: E731
        ok=False,
        events=len(records),
        divergence=Divergence(version=v, check=check, expected=exp, found=found),
    )
    if not records or not isinstance(records[0].payload, GameCreated):
        return fail(
            1,
            "structure",
            "GameCreated at version 1",
            type(records[0].payload).__name__ if records else "no events",
        )
    hashes: list[str] = []
    raws: list[bytes] = []  # the canonical envelope of each event (= its stored bytes when given)
    game_id = records[0].originator_id
    id_text = str(game_id).encode()
    for i, record in enumerate(records):
        raw = envelope_bytes(record)
        if stored is not None and stored[i] != raw:
            return fail(record.originator_version, "chain", "canonical encoding", "stored bytes differ")
        if record.originator_version != i + 1:
            return fail(
                record.originator_version, "structure", f"version {i + 1}", str(record.originator_version)
            )
        raws.append(raw)
        if record.originator_id == game_id:  # chain_hash, without formatting the same id again
            hashes.append(sha256(b"%s:%d:" % (id_text, i + 1) + raw).hexdigest())
        else:
            hashes.append(chain_hash(record.originator_id, record.originator_version, raw))
    newest_link: Verification | None = None
    for i, record in enumerate(records):
        prev = hashes[i - 1] if i else GENESIS_HASH
        if record.prev_hash != prev:
            if i + 1 == len(records):
                # Only the newest link is broken: either its predecessor or its own prev_hash was
                # edited. Re-derivation (below) names an edited predecessor; if it finds nothing,
                # the newest event's prev_hash is what changed.
                newest_link = fail(record.originator_version, "chain", prev, record.prev_hash)
                break
            # Event i's link is broken. If event i itself was edited (its prev_hash field), the
            # next link breaks too; if the link after it holds, the edit is in event i - 1.
            edited_before = i > 0 and records[i + 1].prev_hash == hashes[i]
            culprit = records[i - 1] if edited_before else record
            return fail(culprit.originator_version, "chain", prev, record.prev_hash)

    created = records[0].payload
    ended = next((r.payload for r in records if isinstance(r.payload, GameEnded)), None)
    seed = bytes.fromhex(ended.seed) if ended is not None and ended.seed else None
    ruleset = registry.get(created.ruleset)
    decode_command = msgspec.json.Decoder(ruleset.command_type | UndoCommand).decode
    history = _Replayed(records)

    game: Game = apply(None, records[0])
    history.saw(game)
    i = 1
    while i < len(records):
        record = records[i]
        if not isinstance(record.payload, CommandAccepted):
            return fail(
                record.originator_version, "structure", "CommandAccepted", type(record.payload).__name__
            )
        try:
            command = decode_command(record.payload.command)
            # The head hash is known (``hashes``): the first new event need not hash its predecessor again.
            derived = step(
                replace(game, last=None, chain_head=hashes[i - 1]),
                command,
                seat=record.seat,
                command_id=record.command_id,
                at=record.timestamp,
                seed=seed,
                history=history,
            )
        except (DomainError, msgspec.DecodeError, msgspec.ValidationError, ValueError) as e:  # bad UTF-8 too
            return fail(
                record.originator_version, "derivation", "the command to be accepted", f"refused: {e}"
            )
        for j, expected in enumerate(derived):
            if i + j >= len(records):
                return fail(expected.originator_version, "derivation", _show(expected), "end of log")
            found = records[i + j]
            if not _same(expected, found, raws[i + j]):
                return fail(found.originator_version, "derivation", _show(expected), _show(found))
        for found in records[i : i + len(derived)]:
            game = apply(game, found)
            history.saw(game)
        i += len(derived)

    if newest_link is not None:
        return newest_link

    dice = 0
    if created.dice_mode == "server" and ended is not None:
        if seed is None or commitment(seed) != created.dice_commitment:
            v = next(r.originator_version for r in records if r.payload is ended)
            return fail(v, "dice", f"a seed with sha256 {created.dice_commitment}", ended.seed or "no seed")
        inherited = inherited_chances(created)
        for record, k, pending in chance_events(records):
            p = record.payload
            if p.source == "server" and record.originator_version > inherited:
                want, got = rederive(seed, k, pending, p)
                if want != got:
                    return fail(record.originator_version, "dice", str(list(want)), str(list(got)))
                dice += 1
    return Verification(ok=True, events=len(records), dice_checked=dice, seed_revealed=seed is not None)


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

    A fork of a running game rolls from a fresh seed (DESIGN.md, Undo never deletes: forks);
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
    k, pending = 0, None
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
