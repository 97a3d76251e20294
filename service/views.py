"""Turning domain values into API bodies (shared by the routes, the CLI and the worker)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.game import Game, Recorded, record_hash
from service.schemas import CommandResult, EventOut, GameSummary


def event_out(record: Recorded, *, undone: bool = False, round_: int | None = None) -> EventOut:
    """The audit view of one stored event."""
    payload = builtins(record.payload)
    return EventOut(
        version=record.originator_version,
        type=type(record.payload).__name__,
        seat=record.seat,
        command_id=record.command_id,
        timestamp=record.timestamp,
        prev_hash=record.prev_hash,
        hash=record_hash(record),
        payload=payload,
        undone=undone,
        round=round_,
    )


def summary(game: Game) -> GameSummary:
    """A game at a glance."""
    created = game.created
    return GameSummary(
        id=game.id,
        ruleset=created.ruleset,
        version=game.version,
        created_on=game.created_on,
        modified_on=game.modified_on,
        dice_mode=created.dice_mode,
        undo_policy=created.undo_policy,
        dice_commitment=created.dice_commitment,
        seats=list(created.seats),
        result=game.result,
        pending=game.pending,
        turn=game.ruleset.turn_piece(game.state) if game.result is None else None,
    )


def command_result(_: Game, records: list[Recorded], after: Game) -> CommandResult:
    """The answer to an accepted command."""
    return CommandResult(
        game_id=after.id,
        version=after.version,
        events=[event_out(r) for r in records],
        pending=after.pending,
        turn=after.ruleset.turn_piece(after.state) if after.result is None else None,
        result=after.result,
    )


_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


def builtins(value: Any) -> Any:
    """A msgspec value as plain JSON-ready Python objects (``Raw`` fields included)."""
    return _decode(_encode(value))
