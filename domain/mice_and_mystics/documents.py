"""Documents a game is created from, beside the chapter: a sandbox table and a campaign carry-over.

Both are plain msgspec Structs (``forbid_unknown_fields``) so the HTTP schema, the ``Setup``
decoder and the ``State`` (which keeps them until ``Begin`` has put them on the table) share one
type. The rules that read them are ``rules/sandbox.py`` and ``campaign.py``.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct, field

Card = Annotated[str, Meta(min_length=1, max_length=64)]


class Doc(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of the setup documents."""


class SandboxTile(Doc, kw_only=True):
    """A room tile face on the table: its id (``"courtyard"``) or printed number (``1``; odd numbers
    are orange faces, even blue, facts.md §7) at a grid cell (column right, row down)."""

    tile: str | Annotated[int, Meta(ge=1, le=99)]
    column: Annotated[int, Meta(ge=-20, le=20)]
    row: Annotated[int, Meta(ge=-20, le=20)]


class SandboxFigure(Doc, kw_only=True):
    """A figure on a space: a party mouse (``mouse``) or a minion by its initiative card (``card``),
    with the wounds it already has."""

    space: Annotated[str, Meta(min_length=1, max_length=16)]
    mouse: str | None = None
    card: str | None = None
    wounds: Annotated[int, Meta(ge=0, le=20)] = 0


class Sandbox(Doc, kw_only=True):
    """An explicit table instead of the chapter's setup (DESIGN.md, Content is data: "a sandbox to
    teach, test, or reconstruct a disputed table"). The chapter's rules (goal, summons, room rules)
    still apply. ``track`` is the initiative track top first (omitted: shuffled as usual);
    ``search_deck`` / ``encounter_deck`` the cards that remain (omitted: the chapter's);
    ``explored`` the faces already explored (omitted: every face on the table)."""

    tiles: Annotated[tuple[SandboxTile, ...], Meta(min_length=1, max_length=16)]
    figures: Annotated[tuple[SandboxFigure, ...], Meta(max_length=64)] = ()
    track: tuple[Card, ...] | None = None
    cheese_wheel: Annotated[int, Meta(ge=0, le=5)] = 0
    hourglass_page: Annotated[int, Meta(ge=1, le=99)] = 1
    end_marker_page: Annotated[int, Meta(ge=1, le=99)] = 6
    mouse_cheese: dict[str, Annotated[int, Meta(ge=0, le=99)]] = field(default_factory=dict)
    search_deck: tuple[Card, ...] | None = None
    encounter_deck: tuple[Card, ...] | None = None
    explored: tuple[Card, ...] | None = None


class CarryOver(Doc, kw_only=True):
    """What the next chapter of a campaign receives (001 §Giocare Mice and Mystics come una
    Campagna; 002 Mode Campagne): story achievements, abilities gained per mouse, and the one
    search card each mouse keeps (added to its starting equipment)."""

    from_chapter: str | None = None
    story_achievements: tuple[Card, ...] = ()
    abilities: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    equipment: dict[str, Card] = field(default_factory=dict)
