"""The request bodies that depend on which rulesets an app serves (the ruleset boundary).

Everything game-specific reaches the service through the ruleset registry
(``domain.core.registry``): ``POST /games`` takes a body tagged by ``ruleset`` whose ``setup`` is
that ruleset's own setup document type, and ``POST /games/{id}/commands`` takes any command of the
served rulesets (each ruleset's commands carry their own tags, e.g. ``vast.Move``; Mice and
Mystics keeps its bare tags) or a core command. ``api_types(names)`` builds these types once per
set of rulesets; the committed OpenAPI document is the app built with the shipped rulesets.
"""

from __future__ import annotations

import re
import typing
from functools import cache
from typing import Annotated, Any, Literal, Union

import msgspec
from msgspec import Meta, Struct

from domain.core import registry
from domain.core.commands import Choose, Command, Draw, Roll, Shuffle, UndoCommand
from domain.core.events import DiceMode, Seat, UndoPolicy, Visibility
from domain.core.ruleset import Begin

MAX_SEATS = 8


class NewGameBase(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What every new game states besides its ruleset and setup (see the ruleset's variant)."""

    seats: Annotated[list[Seat], Meta(min_length=1, max_length=MAX_SEATS)]
    dice_mode: DiceMode = "server"
    undo_policy: UndoPolicy = "none"
    decision_policy: Literal["ask", "default"] = "default"
    visibility: Visibility = "unlisted"
    content_pack: Annotated[dict[str, Any], Meta(extra_json_schema={"additionalProperties": True})] | None = None


def ruleset_of(new_game: NewGameBase) -> str:
    """The ruleset a ``POST /games`` body names (its ``ruleset`` tag)."""
    return str(type(new_game).__struct_config__.tag)


class ApiTypes:
    """The ruleset-dependent request types of one app: ``NewGame`` and ``CommandRequest``."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.rulesets = {name: registry.get(name) for name in names}
        variants = tuple(_new_game_type(r) for r in self.rulesets.values())
        self.NewGame: Any = variants[0] if len(variants) == 1 else Union[variants]  # noqa: UP007
        self.commands_of = {name: _commands(r) for name, r in self.rulesets.items()}  # ordered: stable schema
        every = tuple(dict.fromkeys(c for cs in self.commands_of.values() for c in cs))
        self.Command: Any = Union[(*every, *typing.get_args(UndoCommand))]  # noqa: UP007
        self.CommandRequest: Any = msgspec.defstruct(
            "CommandRequest",
            [("command", self.Command), ("expected_version", Annotated[int, Meta(ge=0)] | None, None)],
            kw_only=True,
            frozen=True,
            forbid_unknown_fields=True,
            module=__name__,
            namespace={"__doc__": "``POST /games/{id}/commands``: one command of the game's ruleset (or a core "
                       "command); ``expected_version`` guards against races."},
        )

    def belongs(self, ruleset: str, command: Command) -> bool:
        """Whether ``command`` is one ``ruleset`` (or the core) accepts."""
        core = (Roll, Shuffle, Draw, Choose, *typing.get_args(UndoCommand))
        return isinstance(command, core) or type(command) in self.commands_of.get(ruleset, ())


def _commands(ruleset: Any) -> tuple[type, ...]:
    kinds = typing.get_args(ruleset.command_type) or (ruleset.command_type,)
    return tuple(k for k in kinds if isinstance(k, type) and issubclass(k, Command) and k is not Begin)


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", name) if part)


def _new_game_type(ruleset: Any) -> type:
    setup = getattr(ruleset, "setup_type", None) or dict[str, Any]
    return msgspec.defstruct(
        f"New{_camel(ruleset.name)}Game",
        [("setup", setup)],
        bases=(NewGameBase,),
        tag_field="ruleset",
        tag=ruleset.name,
        kw_only=True,
        frozen=True,
        forbid_unknown_fields=True,
        module=__name__,
        namespace={"__doc__": f"``POST /games`` for a {ruleset.name} game: ``ruleset`` names it, ``setup`` is its "
                   "setup document; each seat lists the pieces it controls."},
    )


@cache
def api_types(names: tuple[str, ...]) -> ApiTypes:
    """The request types for an app serving ``names`` (cached: one set of types per ruleset set)."""
    return ApiTypes(names)
