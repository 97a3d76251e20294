"""The request bodies that depend on which rulesets an app serves (the ruleset boundary).

Everything game-specific reaches the service through the ruleset registry
(``dicelog.domain.core.registry``): ``POST /games`` takes a body tagged by ``ruleset`` whose ``setup`` is
that ruleset's own setup document type, and ``POST /games/{id}/commands`` takes any command of the
served rulesets (each ruleset's commands carry their own tags, e.g. ``vast.Move``; Mice and
Mystics keeps its bare tags) or a core command. ``api_types(names)`` builds these types once per
set of rulesets; the committed OpenAPI document is the app built with the shipped rulesets.
"""

from __future__ import annotations

import re
import typing
from functools import cache
from typing import Annotated, Any, Union

import msgspec
from msgspec import Meta, Struct

from dicelog.domain.core import registry
from dicelog.domain.core.commands import Choose, Command, Draw, Roll, Shuffle, UndoCommand
from dicelog.domain.core.events import DecisionPolicy, DiceMode, Seat, UndoPolicy, Visibility
from dicelog.domain.core.ruleset import Begin

MAX_SEATS = 8


class NewGameBase(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What every new game states besides its ruleset and setup (see the ruleset's variant)."""

    seats: Annotated[list[Seat], Meta(min_length=1, max_length=MAX_SEATS)]
    """The players' seats, 1 to 8, in order, names unique (400 otherwise; ``auditor``, ``spectator``,
    ``server`` and ``policy`` are reserved); each lists the pieces it controls, and the first seat is the
    host. The answer holds one bearer token per seat."""
    dice_mode: DiceMode = "server"
    """``server`` (the default: the service rolls, shuffles and draws from a secret seed it commits to now and
    reveals when the game ends) or ``manual`` (the seats submit the table's results with ``Roll``, ``Shuffle``
    and ``Draw``)."""
    undo_policy: UndoPolicy | None = None
    """Who may undo, fixed for the game: ``none``, ``own-turn`` (the seat whose piece has the turn, its own
    commands of that turn), ``all-seats`` (with every other seat's approval) or ``host`` (the first seat
    alone). Not given (``null``): ``all-seats`` in ``manual`` dice mode, so a table can fix a mistyped roll
    or card (the other seats approve; a table playing from one seat approves alone), ``none`` in ``server``
    dice mode."""
    decision_policy: DecisionPolicy = "default"
    """``default`` (the default here): the service answers each pending decision that has a default with it,
    recorded as chosen by ``policy``; ``ask``: every decision waits for a seat's ``Choose``."""
    visibility: Visibility = "unlisted"
    """Who may read the game: ``public`` (listed by ``GET /games``, readable by anyone), ``unlisted`` (the
    default: readable by anyone with its id, not listed) or ``private`` (a token is needed)."""
    table_device: bool = False
    """``true``: the answer also holds a ``table_token``, for one device shared at a table that acts for
    every seat (each command as the seat it is for, or the seat the ``Dicelog-Seat`` header names) and
    reads what a spectator reads. Refused (422 ``table-device.secrets``) in a ruleset with secrets, whose
    seats must not share a screen. ``false`` (the default): one token per seat only."""


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
        _check_command_tags(self.commands_of)
        every = tuple(dict.fromkeys(c for cs in self.commands_of.values() for c in cs))
        self.Command: Any = Union[(*every, *typing.get_args(UndoCommand))]
        self.CommandRequest: Any = msgspec.defstruct(
            "CommandRequest",
            [
                ("command", Annotated[self.Command, Meta(description="The command: its ``type`` names it.")]),
                (
                    "expected_version",
                    Annotated[
                        Annotated[int, Meta(ge=0)] | None,
                        Meta(
                            description="The game's version the client saw; a different current version "
                            "is a 409 (``null``: no check)."
                        ),
                    ],
                    None,
                ),
            ],
            kw_only=True,
            frozen=True,
            forbid_unknown_fields=True,
            module=__name__,
            namespace={
                "__doc__": "``POST /games/{id}/commands``: one command of the game's ruleset (or a core "
                "command); ``expected_version`` guards against races."
            },
        )

    def belongs(self, ruleset: str, command: Command) -> bool:
        """Whether ``command`` is one ``ruleset`` (or the core) accepts."""
        core = (Roll, Shuffle, Draw, Choose, *typing.get_args(UndoCommand))
        return isinstance(command, core) or type(command) in self.commands_of.get(ruleset, ())


def _check_command_tags(commands_of: dict[str, tuple[type, ...]]) -> None:
    """Raise ``ValueError`` when two served rulesets have commands of one tag: ``POST /games/{id}/commands``
    decodes one union of every served ruleset's commands (a body does not name its ruleset), so a tag must
    name one command type. (Events may share a tag: the API's event unions are per ruleset.)"""
    seen: dict[str, tuple[str, type]] = {}
    for name, commands in commands_of.items():
        for command in commands:
            tag = str(command.__struct_config__.tag)  # type: ignore[attr-defined]  # a Command Struct
            first, cls = seen.setdefault(tag, (name, command))
            if cls is not command:
                raise ValueError(
                    f"the rulesets {first} and {name} both have a command tagged {tag!r}: they cannot be "
                    "served together (a command body does not name its ruleset; tag a ruleset's commands "
                    "with its own prefix, e.g. 'vast.Move')"
                )


def _commands(ruleset: Any) -> tuple[type, ...]:
    kinds = typing.get_args(ruleset.command_type) or (ruleset.command_type,)
    return tuple(k for k in kinds if isinstance(k, type) and issubclass(k, Command) and k is not Begin)


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", name) if part)


CONTENT_PACK = Annotated[
    # the object's own schema says it takes any file name (an untyped object is refused by the contract)
    Annotated[dict[str, Any], Meta(extra_json_schema={"additionalProperties": True})] | None,
    Meta(
        description="Content files that override or extend the ruleset's shipped content for this game only: "
        "file name to document, same names and formats as the shipped content; it goes into the setup "
        "document as its ``content_pack``. At most 1 MiB of canonical JSON (413 otherwise); ``null``: the "
        "shipped content. Only for a ruleset that checks content packs (``check_content``: Mice and "
        "Mystics); the others have no such field.",
    ),
]


def _new_game_type(ruleset: Any) -> type:
    setup = getattr(ruleset, "setup_type", None) or dict[str, Any]
    fields: list[Any] = [("setup", Annotated[setup, Meta(description=f"The {ruleset.name} setup document.")])]
    if getattr(ruleset, "check_content", None) is not None:
        fields.append(("content_pack", CONTENT_PACK, None))
    return msgspec.defstruct(
        f"New{_camel(ruleset.name)}Game",
        fields,
        bases=(NewGameBase,),
        tag_field="ruleset",
        tag=ruleset.name,
        kw_only=True,
        frozen=True,
        forbid_unknown_fields=True,
        module=__name__,
        namespace={
            "__doc__": f"``POST /games`` for a {ruleset.name} game: ``ruleset`` names it, ``setup`` is its "
            "setup document; each seat lists the pieces it controls."
        },
    )


DOCUMENT_KINDS = {"state": "GameState", "board": "BoardDocument", "initiative": "InitiativeDocument"}
"""The ruleset documents the API shows tagged by ``ruleset`` (``dicelog.service.bodies.render.tagged``), with
the suffix of each one's schema name."""


@cache
def tagged_document(ruleset_name: str, kind: str) -> Any:
    """The schema type of ``ruleset_name``'s ``kind`` document (``state``, ``board`` or ``initiative``:
    the ruleset's ``state_type`` or the return type of its ``board_view`` / ``initiative_view``) as the
    API shows it: the same Struct tagged by ``ruleset`` (e.g. ``VastGameState``), so the union of the
    served rulesets' documents is discriminated by it. ``dict[str, Any]`` for a ruleset whose view is
    not typed (a JSON object, untagged in the schema)."""
    ruleset = registry.get(ruleset_name)
    if kind == "state":
        base = ruleset.state_type
    else:
        view = ruleset.board_view if kind == "board" else ruleset.initiative_view
        base = typing.get_type_hints(view).get("return", Any)
    if not (isinstance(base, type) and issubclass(base, Struct)) or base.__struct_config__.tag_field:
        return dict[str, Any]
    doc = (base.__doc__ or "").strip()
    return msgspec.defstruct(
        f"{_camel(ruleset_name)}{DOCUMENT_KINDS[kind]}",
        [],
        bases=(base,),
        tag_field="ruleset",
        tag=ruleset_name,
        module=__name__,
        namespace={
            "__doc__": f"{doc}\n\nAs the API shows it: ``ruleset`` (``{ruleset_name}``) first, which says "
            f"the document is a {ruleset_name} game's (the stored document does not carry it)."
        },
    )


@cache
def api_types(names: tuple[str, ...]) -> ApiTypes:
    """The request types for an app serving ``names`` (cached: one set of types per ruleset set)."""
    return ApiTypes(names)
