"""Turning domain values into API bodies (shared by the routes, the CLI and the worker).

Every function that shows a game takes the reader's ``Lens`` (``dicelog.domain.core.visibility``): who
sees what is decided there, once, for every read path.
"""

from __future__ import annotations

from typing import Any

import msgspec

from dicelog.domain.core.game import Game, Recorded, record_hash
from dicelog.domain.core.verify import viewed
from dicelog.domain.core.visibility import Lens
from dicelog.service.bodies.schemas import CommandResult, EventOut, GameSummary


def event_out(
    record: Recorded,
    lens: Lens,
    *,
    undone: bool = False,
    round_: int | None = None,
    turn: int | None = None,
    known_hash: str | None = None,
) -> EventOut:
    """The audit view of one stored event, as ``lens`` shows it: a hidden event keeps its
    version, type, seat and chain hash (and, in chain format 2, its payload's digest) and shows no payload
    (``hidden``). ``undone``, ``round_`` and ``turn``: the audit marks (``GET /games/{id}/events``).
    ``known_hash``: the record's chain hash when the caller has it already (the next
    record's ``prev_hash``), so that it is not computed again (chain format 1 only)."""
    shown = lens.event(record.payload, seat=record.seat)
    name = type(record.payload).__name__
    digest = salt = None
    if record.salt is not None:
        view = viewed(record, lens, shown)
        digest, salt, chained = view.digest, view.salt, view.hash
    else:
        chained = known_hash or record_hash(record)
    return EventOut(
        version=record.originator_version,
        type=name,
        seat=record.seat,
        command_id=record.command_id,
        timestamp=record.timestamp,
        prev_hash=record.prev_hash,
        hash=chained,
        payload=builtins(shown) if shown is not None else None,
        undone=undone,
        round=round_,
        turn=turn,
        hidden=shown is None,
        digest=digest,
        salt=salt,
    )


def summary(game: Game, lens: Lens) -> GameSummary:
    """A game at a glance, as ``lens`` shows it."""
    created = game.created
    return GameSummary(
        id=game.id,
        ruleset=created.ruleset,
        version=game.version,
        created_on=game.created_on,
        modified_on=game.modified_on,
        dice_mode=created.dice_mode,
        undo_policy=created.undo_policy,
        visibility=created.visibility,
        dice_commitment=created.dice_commitment,
        seats=list(created.seats),
        result=game.result,
        pending=lens.pending(game.pending),
        turn=turn_of(game, lens),
        undo_request=game.undo_request,
        undo_waiting_for=tuple(s for s in game.undo_needs if s not in game.undo_approved),
    )


def turn_of(game: Game, lens: Lens) -> str | None:
    """Whose turn it is (read from the state the lens shows): the ruleset's ``turn_card`` (Mice and Mystics:
    the mouse, or the minion card during the minions' turn) or else its ``turn_piece``; ``None`` after the
    end."""
    if game.result is not None:
        return None
    whose = getattr(game.ruleset, "turn_card", None) or game.ruleset.turn_piece
    return whose(lens.state(game.state))


def _pairs(records: list[Recorded]) -> Any:
    """Each record with the one after it (``None`` for the last)."""
    return zip(records, [*records[1:], None], strict=True)


def _next_link(record: Recorded, following: Recorded | None) -> str | None:
    """``record``'s chain hash as the next event of the same game states it (its ``prev_hash``), or
    ``None`` when there is no such event here."""
    if following is None or following.originator_version != record.originator_version + 1:
        return None
    return following.prev_hash


def command_result(lens: Lens) -> Any:
    """The renderer of an accepted command's answer, as the sending seat's ``lens`` shows it."""

    def render(_: Game, records: list[Recorded], after: Game) -> CommandResult:
        return CommandResult(
            game_id=after.id,
            version=after.version,
            events=[
                event_out(r, lens, known_hash=_next_link(r, following)) for r, following in _pairs(records)
            ],
            pending=lens.pending(after.pending),
            turn=turn_of(after, lens),
            result=after.result,
        )

    return render


def tagged(ruleset: str, document: dict[str, Any]) -> dict[str, Any]:
    """A ruleset's state, board or initiative document (JSON object) as the API shows it: with its
    ``ruleset`` first, the tag that tells a client which ruleset's shape the rest has (the
    ``GameState``, ``BoardDocument`` and ``InitiativeDocument`` unions of the OpenAPI document are
    discriminated by it). The stored documents do not carry it."""
    return {"ruleset": ruleset, **{k: v for k, v in document.items() if k != "ruleset"}}


_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


def builtins(value: Any) -> Any:
    """A msgspec value as plain JSON-ready Python objects (``Raw`` fields included)."""
    return _decode(_encode(value))
