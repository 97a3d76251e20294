"""Mice and Mystics commands: imperative, frozen, tagged (STYLE.md §4, "What dicelog takes" 2).

The acting seat is not part of a command; the service checks that the seat controls the mouse
(``ruleset.piece_of``). Core answers (``Roll``, ``Shuffle``, ``Choose``) and ``Begin`` are part of
this ruleset's union so one decoder reads every command it accepts.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from domain.core.commands import Choose, Command, Draw, Roll, Shuffle
from domain.core.ruleset import Begin

MouseId = Annotated[str, Meta(min_length=1, max_length=32)]
SpaceId = Annotated[str, Meta(min_length=1, max_length=16)]


class Move(Command, kw_only=True):
    """Roll the action die for the mouse's move (001 §Movimento dei Topi)."""

    mouse: MouseId


class MoveTo(Command, kw_only=True):
    """Move the mouse along ``path`` (the spaces entered, in order) with the rolled movement points."""

    mouse: MouseId
    path: Annotated[tuple[SpaceId, ...], Meta(min_length=1, max_length=16)]


class EndTurn(Command, kw_only=True):
    """End the mouse's turn, moved or not (001 §Il Turno di un Topo)."""

    mouse: MouseId


class Battle(Command, kw_only=True):
    """Attack the minion figure ``target`` with the mouse's weapon (001 §Attacco)."""

    mouse: MouseId
    target: Annotated[str, Meta(min_length=1, max_length=48)]


class Search(Command, kw_only=True):
    """Search the room: one die, a star draws a search card (001 §Ricerca)."""

    mouse: MouseId


class Recover(Command, kw_only=True):
    """Recover from stunned or webbed (001 §Recupero)."""

    mouse: MouseId


class Scurry(Command, kw_only=True):
    """After moving, roll the die and move again (001 §Scatto)."""

    mouse: MouseId


class Explore(Command, kw_only=True):
    """Enter a new room through the exit on side ``via`` the mouse stands next to, or by its flip
    space (``via="flip"``) (001 §Esplorare)."""

    mouse: MouseId
    via: Literal["N", "E", "S", "W", "flip"]


class LeaveWater(Command, kw_only=True):
    """Spend the whole move leaving (or wading on in) water toward the adjacent ``space``; a dry space
    needs a star (001 §Muoversi nell'Acqua)."""

    mouse: MouseId
    space: SpaceId


MouseCommand = Move | MoveTo | EndTurn | Battle | Search | Recover | Scurry | Explore | LeaveWater
AnyCommand = Move | MoveTo | EndTurn | Battle | Search | Recover | Scurry | Explore | LeaveWater | Begin | Roll | Shuffle | Draw | Choose
decode_command = msgspec.json.Decoder(AnyCommand).decode
