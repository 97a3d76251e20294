"""Undo that never deletes (docs/event-model.md, Undo never deletes; issue "Replay, audit and undo").

An undo appends events; it never removes or edits one. ``UndoApplied`` carries the state of the
game at the target version, so the fold stays a pure function of the log, and the events in
between stay in every audit, marked undone. The dice stream position is part of that state, so
after an undo the same action meets the same dice (seed locking): undo cannot re-roll.

Policies (fixed at creation, ``GameCreated.undo_policy``):

- ``none``: no undo.
- ``own-turn``: the seat whose piece has the turn may undo, within that turn, commands only it
  sent; applied at once.
- ``host``: the host seat may undo anything; applied at once.
- ``all-seats``: any seat asks; every other seat must approve (``ApproveUndo``); any seat may
  reject (``RejectUndo``). While a request is open nothing else is accepted.

An undo across a random result already shown (a server roll, shuffle or draw) needs every other
seat's approval under every policy (like Board Game Arena, which never lets an undo cross a
visible random event without everyone's consent); ``UndoRequested.crosses_rolls`` records it.
An ended game takes no command, so an undo never crosses the end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from dicelog.domain.core.commands import ApproveUndo, Command, RejectUndo, RequestUndo
from dicelog.domain.core.errors import InvariantViolated, RuleBroken
from dicelog.domain.core.events import (
    CommandAccepted,
    Event,
    UndoApplied,
    UndoApproved,
    UndoRejected,
    UndoRequested,
)

SECTION = "docs/event-model.md, Undo never deletes"
AUTOMATIC_SEATS = ("server", "policy")


class History(Protocol):
    """Read access to a game's past, for undo and turn lookups (the store, or a list in verify)."""

    def game_at(self, version: int) -> Any: ...

    def records(self, after: int, upto: int) -> Sequence[Any]: ...


class Snapshot(Protocol):
    """What ``UndoApplied`` copies of the game at the undo's target version
    (``dicelog.domain.core.game.GameSnapshot``): the game and its state, encoded (read-only: the
    snapshot is a frozen Struct)."""

    @property
    def game(self) -> Any: ...

    @property
    def state(self) -> Any: ...


def starts_turn(ruleset: Any, event: Event) -> bool:
    """Does ``event`` start a turn? The ruleset may say (``starts_turn``); by default a
    ``TurnStarted`` event does."""
    own = getattr(ruleset, "starts_turn", None)
    return bool(own(event)) if own is not None else type(event).__name__ == "TurnStarted"


def starts_round(ruleset: Any, event: Event) -> bool:
    """Does ``event`` start a round? (``starts_round`` on the ruleset, else ``RoundStarted``)."""
    own = getattr(ruleset, "starts_round", None)
    return bool(own(event)) if own is not None else type(event).__name__ == "RoundStarted"


def decide_undo(
    game: Any, command: Command, seat: str, history: History | None, take: Callable[[Any], Snapshot]
) -> list[Event]:
    """The events of an undo command, or ``RuleBroken`` (``undo.*``) naming why not.

    ``take(game) -> Snapshot`` encodes the game at the target version for ``UndoApplied``
    (``GameSnapshot.take``: the core's game module calls this one, never the other way round)."""
    if history is None:
        raise RuleBroken("undo.unavailable", section=SECTION, detail="undo needs the game's history")
    if isinstance(command, RequestUndo):
        return _request(game, command.to_version, seat, history, take)
    request = game.undo_request
    if request is None:
        raise RuleBroken("undo.nothing-pending", section=SECTION, detail="no undo request is open")
    if isinstance(command, RejectUndo):
        if seat == request.by or seat not in _seat_names(game):
            raise RuleBroken(
                "undo.not-asked", section=SECTION, detail="only another seat may reject the request"
            )
        return [UndoRejected(by=seat)]
    if not isinstance(command, ApproveUndo):
        raise InvariantViolated("undo-command", f"decide_undo got {type(command).__name__}")
    if seat not in game.undo_needs:
        raise RuleBroken(
            "undo.not-asked", section=SECTION, detail=f"the request waits for {list(game.undo_needs)}"
        )
    events: list[Event] = [UndoApproved(by=seat)]
    if set(game.undo_needs) == {seat}:
        approved = (*game.undo_approved, seat)
        events.append(_applied(history, take, request.to_version, approved, request.crosses_rolls))
    return events


def _seat_names(game: Any) -> list[str]:
    return [s.name for s in game.created.seats]


def _request(
    game: Any, to_version: int, seat: str, history: History, take: Callable[[Any], Snapshot]
) -> list[Event]:
    created = game.created
    policy = created.undo_policy
    if policy == "none":
        raise RuleBroken("undo.not-allowed", section=SECTION, detail="this game was created without undo")
    if game.undo_request is not None:
        raise RuleBroken("undo.already-requested", section=SECTION, detail="an undo request is already open")
    if not 1 <= to_version < game.version:
        raise RuleBroken(
            "undo.bad-version", section=SECTION, detail=f"undo to a version before {game.version}"
        )
    undone = list(history.records(to_version, game.version))
    first = undone[0]
    if not isinstance(first.payload, CommandAccepted) or first.seat in AUTOMATIC_SEATS:
        raise RuleBroken(
            "undo.not-a-command-boundary",
            section=SECTION,
            detail=f"version {to_version} is not right before a player's command",
        )
    crosses = any(getattr(r.payload, "source", None) == "server" for r in undone)
    actors = {
        r.seat for r in undone if isinstance(r.payload, CommandAccepted) and r.seat not in AUTOMATIC_SEATS
    }
    needs: tuple[str, ...] = ()
    if policy == "own-turn":
        piece = game.ruleset.turn_piece(game.state)
        controller = next((s.name for s in created.seats if piece in s.controls), None)
        if controller != seat or actors - {seat}:
            raise RuleBroken(
                "undo.not-your-turn", section=SECTION, detail="only your own commands of your turn"
            )
        if any(starts_turn(game.ruleset, r.payload) for r in undone):
            raise RuleBroken(
                "undo.crosses-turn", section=SECTION, detail="undo stays within the current turn"
            )
    elif policy == "host":
        host = created.host or created.seats[0].name
        if seat != host:
            raise RuleBroken(
                "undo.host-only", section=SECTION, detail=f"only the host seat {host!r} may undo"
            )
    if policy == "all-seats" or crosses:
        # A random result already shown may be taken back only if every seat agrees, whatever
        # the policy: else undo would be a re-roll for whoever may undo alone.
        needs = tuple(name for name in _seat_names(game) if name != seat)
    events: list[Event] = [UndoRequested(to_version=to_version, by=seat, crosses_rolls=crosses, needs=needs)]
    if not needs:
        events.append(_applied(history, take, to_version, (seat,), crosses))
    return events


def _applied(
    history: History,
    take: Callable[[Any], Snapshot],
    to_version: int,
    approved: tuple[str, ...],
    crosses: bool,
) -> UndoApplied:
    snapshot = take(history.game_at(to_version))
    return UndoApplied(
        to_version=to_version,
        approved_by=approved,
        crosses_rolls=crosses,
        game=snapshot.game,
        state=snapshot.state,
    )


def undone_versions(records: Sequence[Any]) -> set[int]:
    """Versions of the events some ``UndoApplied`` undid (undo bookkeeping events excluded)."""
    undone: set[int] = set()
    for record in records:
        payload = record.payload
        if isinstance(payload, UndoApplied):
            undone.update(range(payload.to_version + 1, record.originator_version))
    bookkeeping = (UndoRequested, UndoApproved, UndoRejected, UndoApplied)
    return {
        r.originator_version for r in records if r.originator_version in undone and not _is(r, bookkeeping)
    }


def _is(record: Any, kinds: tuple[type, ...]) -> bool:
    payload = record.payload
    if isinstance(payload, CommandAccepted):
        return b'"type":"RequestUndo"' in bytes(payload.command) or b'"type":"ApproveUndo"' in bytes(
            payload.command
        )
    return isinstance(payload, kinds)
