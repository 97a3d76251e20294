"""Bot seats (``Seat.bot``): the server plays a seat with its ruleset's bot policy.

A game may switch a seat's bot on at creation (``seats[].bot``), so a person can play one role against bots
through the REST API. After the game is created, and after every command, ``dicelog.service.app.games``
asks ``next_bot_command`` for the command of the bot whose move it is, plays it exactly like a person's
command (signed by the bot's seat) and asks again, until a person's move, the end of the game, or a bound.

Whose move it is: the seat controlling the piece a pending decision names (it answers out of turn), else
the seat controlling the ruleset's ``turn_piece``. A pending roll, shuffle or draw (manual dice) waits for
the people at the table: bots never answer one. An undo request waiting for bot seats' approval gets it
(bots approve what the people ask), so a table of one person and bots is never stuck on one.

A bot reads only its own seat's view: the state and the pending decision through the seat's ``Lens``
(``dicelog.domain.core.visibility``), and the commands ``GET /games/{id}/legal-commands`` lists for the seat.
Its random tie-breaks come from ``bot_rng(game)``, seeded by the game id and version: the same game at the
same version always gets the same bot move.

Policies: each ruleset's ``bot`` (``dicelog.domain.core.ruleset``), found through the registry; a ruleset
without one has no bot seats.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import msgspec

from dicelog.domain.core import registry
from dicelog.domain.core.commands import ApproveUndo, Choose, Command
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import DecisionRequested, Seat
from dicelog.domain.core.game import Game
from dicelog.domain.core.visibility import Lens, Viewer, seat_viewer

SECTION = "docs/clients.md, Bot seats"
MAX_BOT_COMMANDS = 5_000
"""The most bot commands played in a row (after one person's command, or at creation): a game still on a
bot's move after that many is left as it stands until a seat's next command (a bot seat's token still sends
commands for it)."""


class BotPolicy(Protocol):
    """A ruleset's ``bot`` (``dicelog.domain.core.ruleset``): ``choose(view, legal, rng)`` picks one of the
    seat's legal commands (ruleset commands) given the seat's view of the state; ``decide(view, pending,
    options, rng)`` picks an option of the pending decision (``pending``: the ``DecisionRequested`` as the
    seat sees it, as JSON builtins)."""

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any: ...

    def decide(
        self, view: Any, pending: dict[str, Any], options: Sequence[str], rng: random.Random
    ) -> str: ...


def policy(ruleset: str) -> BotPolicy | None:
    """The bot of ``ruleset`` (its ``bot`` attribute), ``None`` when it has none or is unknown."""
    try:
        found = registry.get(ruleset)
    except RuleBroken:
        return None
    return getattr(found, "bot", None)


def check_seats(ruleset: str, seats: Sequence[Seat]) -> None:
    """Refuse bad bot seats before anything is stored (a game's or a campaign's): a bot seat must control
    a piece (``seat.bot-controls-nothing``), and the ruleset must have a bot (``seat.no-bot-policy``)."""
    bots = [s for s in seats if s.bot]
    if not bots:
        return
    idle = [s.name for s in bots if not s.controls]
    if idle:
        raise RuleBroken(
            "seat.bot-controls-nothing",
            section=SECTION,
            detail=f"bot seat(s) {idle} control no piece: a bot seat must control at least one",
        )
    if policy(ruleset) is None:
        known = ", ".join(name for name in registry.names() if policy(name) is not None)
        raise RuleBroken(
            "seat.no-bot-policy",
            section=SECTION,
            detail=f"ruleset {ruleset!r} has no bot, no seat of its games can be one (bots: {known})",
        )


def has_bots(game: Game) -> bool:
    return any(s.bot for s in game.created.seats)


def bot_rng(game: Game) -> random.Random:
    """The bots' random source at ``game``'s version (reproducible: seeded by game id and version)."""
    return random.Random(f"{game.id}:{game.version}")


def controller(game: Game, piece: str | None) -> Seat | None:
    """The seat controlling ``piece`` (as ``Games.authorize`` finds it), ``None`` when none does."""
    if not piece:
        return None
    return next((s for s in game.created.seats if piece in s.controls), None)


def undo_approver(game: Game) -> Seat | None:
    """A bot seat whose approval the open undo request still waits for (bots approve a person's undo, so a
    table of one person and bots is never stuck on it), ``None`` when there is none."""
    if game.undo_request is None:
        return None
    return next(
        (
            s
            for s in game.created.seats
            if s.bot and s.name in game.undo_needs and s.name not in game.undo_approved
        ),
        None,
    )


def bot_seat_to_move(game: Game) -> Seat | None:
    """The bot seat whose move it is now, ``None`` when it is nobody's or a person's (or a pending roll,
    shuffle or draw waits for people)."""
    if game.result is not None:
        return None
    if game.undo_request is not None:
        return undo_approver(game)
    pending = game.pending
    if pending is not None and not isinstance(pending, DecisionRequested):
        return None  # a manual roll, shuffle or draw: for the people at the table
    piece = pending.piece if pending is not None and pending.piece else game.ruleset.turn_piece(game.state)
    seat = controller(game, piece)
    return seat if seat is not None and seat.bot else None


def legal_for(game: Game, seat: Seat) -> list[Command]:
    """The ruleset commands ``seat`` may send now, as ``GET /games/{id}/legal-commands`` lists them."""
    ruleset = game.ruleset
    return [
        c
        for c in ruleset.legal_commands(game.state)
        if (piece := ruleset.piece_of(c)) is None or piece in seat.controls
    ]


def next_bot_command(game: Game, lens_of: Callable[[Game, Viewer], Lens]) -> tuple[str, Command] | None:
    """The bot seat to move and its command, or ``None`` (no bot's move, no policy, nothing legal).

    ``lens_of(game, viewer)`` is what ``viewer`` sees of ``game`` (``Games.lens``): the bot reads the state
    and the pending decision through its own seat's lens only."""
    seat = bot_seat_to_move(game)
    if seat is None:
        return None
    if game.undo_request is not None:
        return seat.name, ApproveUndo()
    bot = policy(game.created.ruleset)
    if bot is None:
        return None
    lens = lens_of(game, seat_viewer(game.created.seats, seat.name))
    view = lens.state(game.state)
    rng = bot_rng(game)
    if game.pending is not None:
        shown = lens.event(game.pending)
        if not isinstance(shown, DecisionRequested) or not shown.options:
            return None
        option = bot.decide(view, msgspec.to_builtins(shown), list(shown.options), rng)
        return seat.name, Choose(option=option)
    legal = legal_for(game, seat)
    if not legal:
        return None
    return seat.name, bot.choose(view, legal, rng)
