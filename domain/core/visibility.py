"""Who sees what (docs/who-sees-what.md, Hidden information): the one function every read path goes through.

Everything is stored; what a reader sees is decided on read, here. A reader is a ``Viewer``:

- a seat (``kind="seat"``): sees what is public, plus the secrets of the pieces it controls;
- ``spectator``: sees what is public;
- ``auditor``: sees everything.

The ruleset says what is secret, with three optional pure functions (a ruleset without them,
like Mice and Mystics, is all public: there, only the deck order and the dice seed are hidden,
and neither is ever in an event):

- ``view_event(event, viewer) -> Event | None``: the event as ``viewer`` may see it: the event
  itself, a copy of the same type with the secret fields masked, or ``None`` when the viewer may
  not even see its fields (it is then shown as a stub: type, version and chain hash);
- ``view_state(state, viewer) -> State``: the state, of the same type, with what ``viewer`` may
  not see masked, so every view built from it (board, initiative, log lines) is safe by
  construction;
- ``view_command(command, viewer) -> Command | None``: a ruleset command with its secret
  arguments masked (``None``: its arguments are hidden altogether).

The core masks its own events with the same functions: a pending node (``DecisionRequested``,
``DrawRequested``...) is an event; the answer commands (``Roll``, ``Shuffle``, ``Draw``,
``Choose``) of a game with secrets show their arguments only to the seat that sent them (the
answer event that follows them says, through ``view_event``, what others may know); an
``UndoApplied`` carries a whole state, masked with ``view_state``, and the game's ``GameCreated``, shown as
``view_event`` shows it (a setup may lay secrets: a sandbox table).

When the game has ended, everything is public (``Lens(..., reveal=True)``): the whole log can
then be read and verified by anyone. The service decides ``reveal`` (a fork of a running game
reveals nothing of the original's secrets until the original ends: see ``service``).
"""

from __future__ import annotations

import typing
from collections.abc import Iterable
from functools import cache
from typing import Any, Literal

import msgspec
from msgspec import Struct

from dicelog.domain.core.commands import Choose, Draw, Roll, ServiceCommand, Shuffle, UndoCommand
from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import CommandAccepted, Event, GameCreated, PendingEvent, UndoApplied

AUDITOR = "auditor"
SPECTATOR = "spectator"
RESERVED_SEATS = (AUDITOR, SPECTATOR, "server", "policy")
"""Names no seat may take: the audiences and the core's own automatic seats."""

_encode = msgspec.json.Encoder().encode
_PENDING_TYPES = typing.get_args(PendingEvent)
_ANSWERS = (Roll, Shuffle, Draw, Choose)
_PUBLIC_COMMANDS = (*typing.get_args(UndoCommand), ServiceCommand)
"""Commands everyone sees whole: undo requests and answers, and the service's own (``CloseGame``)."""


@cache
def _command_decoder(command_type: Any) -> Any:
    return msgspec.json.Decoder(command_type | UndoCommand | ServiceCommand).decode


class Viewer(Struct, frozen=True, kw_only=True):
    """Who reads: a seat (with the pieces it controls), a spectator, or the auditor."""

    kind: Literal["seat", "spectator", "auditor"]
    """The audience: ``seat`` (a player: what is public plus its own pieces' secrets), ``spectator`` (what is
    public) or ``auditor`` (everything)."""
    seat: str | None = None
    """The seat's name when ``kind`` is ``seat``; ``None`` for a spectator or the auditor."""
    pieces: frozenset[str] = frozenset()
    """The pieces the seat controls (``Seat.controls``, e.g. mouse ids), whose secrets it may see; empty for a
    spectator or the auditor."""

    @property
    def audience(self) -> str:
        """``seat:<name>``, ``spectator`` or ``auditor`` (a stable key for caches and streams)."""
        return f"seat:{self.seat}" if self.kind == "seat" else self.kind

    def sees_piece(self, piece: str | None) -> bool:
        """Whether the viewer may see the secrets of ``piece`` (the auditor sees every piece)."""
        return self.kind == "auditor" or (piece is not None and piece in self.pieces)


AUDITOR_VIEWER = Viewer(kind="auditor")
SPECTATOR_VIEWER = Viewer(kind="spectator")


def seat_viewer(seats: Iterable[Any], name: str) -> Viewer:
    """The ``Viewer`` of seat ``name`` among ``seats`` (``GameCreated.seats``)."""
    controls = next((s.controls for s in seats if s.name == name), ())
    return Viewer(kind="seat", seat=name, pieces=frozenset(controls))


def has_secrets(ruleset: Any) -> bool:
    """Whether the ruleset hides anything from anyone (it defines ``view_event``)."""
    return getattr(ruleset, "view_event", None) is not None


class Lens:
    """What one viewer sees of one game: ``Lens(ruleset, viewer, reveal=ended)``.

    ``full`` is true when nothing is masked (the auditor, a game that ended, or a ruleset without
    secrets); every method is then the identity, so all-public games pay nothing.
    """

    def __init__(self, ruleset: Any, viewer: Viewer, *, reveal: bool = False) -> None:
        self.ruleset, self.viewer = ruleset, viewer
        self.full = reveal or viewer.kind == "auditor" or not has_secrets(ruleset)

    def event(self, event: Event | None, *, seat: str | None = None) -> Event | None:
        """``event`` as the viewer sees it; ``None`` when hidden (shown as a stub). ``seat`` is the
        seat that caused the event (the sender of a command sees its own command whole)."""
        if self.full or event is None:
            return event
        if isinstance(event, CommandAccepted):
            return self._command_accepted(event, seat)
        if isinstance(event, UndoApplied):
            return self._undo_applied(event)
        shown: Event | None = self.ruleset.view_event(event, self.viewer)
        return shown

    def pending(self, node: PendingEvent | None) -> PendingEvent | None:
        """A game's pending roll, shuffle, draw or decision as the viewer sees it (``event``, which keeps
        its type; ``None`` when none is pending or it is hidden). ``InvariantViolated`` (``lens-pending``)
        if the ruleset's ``view_event`` showed it as another type."""
        shown = self.event(node)
        if shown is None or isinstance(shown, _PENDING_TYPES):
            return shown
        raise InvariantViolated("lens-pending", f"a pending node shown as {type(shown).__name__}")

    def state(self, state: Any) -> Any:
        """The state as the viewer sees it (same type, secrets masked)."""
        if self.full:
            return state
        view = getattr(self.ruleset, "view_state", None)
        return state if view is None else view(state, self.viewer)

    def command(self, command: Any, *, seat: str | None = None) -> Any:
        """A command as the viewer sees it (``None``: its arguments are hidden)."""
        if self.full or (seat is not None and seat == self.viewer.seat):
            return command
        if isinstance(command, _PUBLIC_COMMANDS):
            return command
        if isinstance(command, _ANSWERS):
            return None
        view = getattr(self.ruleset, "view_command", None)
        return command if view is None else view(command, self.viewer)

    def _command_accepted(self, event: CommandAccepted, seat: str | None) -> CommandAccepted | None:
        try:
            command = _command_decoder(self.ruleset.command_type)(event.command)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None
        shown = self.command(command, seat=seat)
        if shown is command:
            return event
        if shown is None:
            return CommandAccepted(
                command=msgspec.Raw(_encode({"type": type(command).__struct_config__.tag}))
            )
        return CommandAccepted(command=msgspec.Raw(_encode(shown)))

    def _undo_applied(self, event: UndoApplied) -> UndoApplied:
        state = msgspec.json.decode(event.state, type=self.ruleset.state_type)
        game = msgspec.json.decode(event.game)
        pending = game.get("pending") if isinstance(game, dict) else None
        if pending is not None:
            shown = self.event(msgspec.convert(pending, type=PendingEvent))
            game = {**game, "pending": msgspec.to_builtins(shown) if shown is not None else None}
        created = game.get("created") if isinstance(game, dict) else None
        if created is not None:  # its setup may lay secrets (a sandbox table): shown as GameCreated is
            first = msgspec.json.decode(_encode(created), type=GameCreated)
            seen = self.event(first)
            if seen is not first:
                game = {**game, "created": msgspec.json.decode(_encode(seen)) if seen is not None else None}
        return msgspec.structs.replace(
            event, state=msgspec.Raw(_encode(self.state(state))), game=msgspec.Raw(_encode(game))
        )
