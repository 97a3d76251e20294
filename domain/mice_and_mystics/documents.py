"""Documents a game is created from, beside the chapter: a sandbox table and a campaign carry-over.

Both are plain msgspec Structs (``forbid_unknown_fields``) so the HTTP schema, the ``Setup``
decoder and the ``State`` (which keeps them until ``Begin`` has put them on the table) share one
type. The rules that read them are ``rules/sandbox.py`` and ``campaign.py``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct, field

Card = Annotated[str, Meta(min_length=1, max_length=64)]


class Doc(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of the setup documents."""


class SandboxTile(Doc, kw_only=True):
    """A room tile face on the table: its id (``"courtyard"``) or printed number (``1``; odd numbers
    are orange faces, even blue, docs/mice-and-mystics/facts.md §7) at a grid cell (column right, row
    down)."""

    tile: str | Annotated[int, Meta(ge=1, le=99)]
    """The room tile face to lay: its id (``guard-room``) or its printed number (``5``), as listed by
    ``/content/mice-and-mystics/tiles``. Each board (the two faces n and n+1) may be used once."""
    column: Annotated[int, Meta(ge=-20, le=20)]
    """Grid column of the tile's cell (-20 to 20, growing east); the tile in the next cell east is the room
    an east exit leads to. Two tiles may not share a cell."""
    row: Annotated[int, Meta(ge=-20, le=20)]
    """Grid row of the tile's cell (-20 to 20, growing south)."""


class SandboxFigure(Doc, kw_only=True):
    """A figure on a space: a party mouse (``mouse``), a minion by its initiative card (``card``) or a boss
    (``boss``), with the wounds it already has."""

    space: Annotated[str, Meta(min_length=1, max_length=16)]
    """Id of the space the figure stands on (``GR-6``); it must be on a tile of this table and have room
    for the figure (4 small or 1 large, except special areas; no minion on the tree entrance)."""
    mouse: str | None = None
    """The id of a party mouse to place here (each party mouse exactly once); give either ``mouse`` or
    ``card``."""
    card: str | None = None
    """The minion or boss initiative card id (``rat-warriors``) of a minion figure to place here; the
    figure gets the id ``<card>-<n>``. Give exactly one of ``mouse``, ``card`` and ``boss``."""
    boss: str | None = None
    """A boss to place here by its id (``brodie``, ``vanestra``, ``captain-vurst``, ``skitter-clak``): one
    figure acting on its initiative cards (MM rulebook (it) §Carte Iniziativa dei Boss), with the figure id
    the boss's id. Its cards in play are ``boss_cards``; it starts with no wounds."""
    boss_cards: tuple[Card, ...] = ()
    """The boss's initiative cards in play, each on the ``track``: every one of a boss with one or two
    (Brodie's ``brodie-chases`` and ``brodie-pounces``), the 2 drawn for a boss with more (Vanestra).
    Omitted: all of them, for a boss with at most two."""
    wounds: Annotated[int, Meta(ge=0, le=20)] = 0
    """Wounds the figure already has (0-20); fewer than its lives, so that it is not already captured or
    defeated."""
    effects: tuple[Literal["stunned", "webbed", "knocked-down", "charmed"], ...] = ()
    """Negative effects the figure already has (MM rulebook (it) §Effetti Negativi): a mouse any of
    ``stunned``, ``webbed``, ``knocked-down``, ``charmed``; a small minion only ``knocked-down``; each at most
    once."""
    poison: Annotated[int, Meta(ge=0, le=20)] = 0
    """How many of a mouse's ``wounds`` are poison wounds (MM rulebook (it) §Avvelenato: ordinary healing
    never removes them); at most ``wounds``; a mouse only. Omitted: none."""


class EquippedCard(Doc, kw_only=True):
    """A search card a mouse has equipped, and where (MM rulebook (it) §Equipaggiare)."""

    card: Card
    """The search card id (a weapon, armour or accessory the mouse may use)."""
    slot: Literal["paw", "both-paws", "body", "accessory", "tail"]
    """Where it is equipped: the card's own place (``tail`` only for Filch's dagger,
    docs/mice-and-mystics/facts.md §2); a card equipped there displaces what the mouse holds there, its
    starting equipment included, to its pack."""


MouseId = Annotated[str, Meta(min_length=1, max_length=32)]


class Sandbox(Doc, kw_only=True):
    """An explicit table instead of the chapter's setup (docs/architecture.md, Content is data: "a sandbox to
    teach, test, or reconstruct a disputed table"). The chapter's rules (goal, summons, room rules)
    still apply. ``track`` is the initiative track top first (omitted: shuffled as usual);
    ``search_deck`` / ``encounter_deck`` the cards that remain (omitted: the chapter's);
    ``explored`` the faces already explored (omitted: every face on the table)."""

    tiles: Annotated[tuple[SandboxTile, ...], Meta(min_length=1, max_length=16)]
    """The room tile faces on the table, 1 to 16 of them, each at its own grid cell."""
    figures: Annotated[tuple[SandboxFigure, ...], Meta(max_length=64)] = ()
    """The figures on the table (up to 64): every party mouse exactly once, and any minion figures."""
    track: tuple[Card, ...] | None = None
    """The initiative track, top first: card ids, exactly the party's mice and the cards of the minions
    placed; omitted (``null``): the cards are shuffled as at the start of a chapter."""
    cheese_wheel: Annotated[int, Meta(ge=0, le=5)] = 0
    """Cheese already on the minion cheese wheel (0-5; at 6 minions are summoned)."""
    hourglass_page: Annotated[int, Meta(ge=1, le=99)] = 1
    """The story-board page the hourglass starts on (1-99); it must be before ``end_marker_page``."""
    end_marker_page: Annotated[int, Meta(ge=1, le=99)] = 6
    """The story-board page of the chapter end marker (1-99, default 6); the chapter is lost when the
    hourglass reaches it."""
    mouse_cheese: dict[str, Annotated[int, Meta(ge=0, le=99)]] = field(default_factory=dict)
    """Cheese already in each party mouse's stash (0-99), by mouse id; a mouse not listed has none."""
    search_deck: tuple[Card, ...] | None = None
    """Ids of the search cards left in the search deck (search card or equipment ids); omitted (``null``):
    the chapter's search deck."""
    encounter_deck: tuple[Card, ...] | None = None
    """Ids of the encounter cards left in the encounter deck (``standard-1``); omitted (``null``): the
    chapter's encounter deck."""
    explored: tuple[Card, ...] | None = None
    """Ids of the room tile faces counted as already explored (entering one draws no encounter card);
    omitted (``null``): every face laid in ``tiles``."""
    mousetraps: Annotated[
        tuple[Annotated[str, Meta(min_length=1, max_length=16)], ...], Meta(max_length=32)
    ] = ()
    """Ids of the mousetrap (red-X) spaces that hold an armed mousetrap token (MM rulebook (it) §Trappole per
    Topi), each on a tile of this table, each once; omitted: none."""
    encounter_face_up: Card | None = None
    """The encounter card lying face up (``standard-3``): it sets the next summon (MM rulebook (it)
    §Evocazioni); not also in ``encounter_deck``. Revealed at the hourglass's page; omitted (``null``):
    none."""
    turn: Card | None = None
    """The card on ``track`` whose turn it is: round 1 goes on from it, the cards above it having played
    this round (MM rulebook (it) §Round di Gioco); it needs ``track``. Omitted (``null``): the first card
    plays."""
    searched: Annotated[dict[MouseId, tuple[Card, ...]], Meta(max_length=8)] = field(default_factory=dict)
    """The room tile faces each mouse has already searched with success, by mouse id: it may not search them
    again (MM rulebook (it) §Ricerca). Omitted: none."""
    packs: Annotated[dict[MouseId, tuple[Card, ...]], Meta(max_length=8)] = field(default_factory=dict)
    """The search cards in each mouse's pack, by mouse id, taken out of the search deck (each card once on
    the table; at most 3 that take room, MM rulebook (it) §Equipaggiare). Omitted: none."""
    equipped: Annotated[dict[MouseId, tuple[EquippedCard, ...]], Meta(max_length=8)] = field(
        default_factory=dict
    )
    """The search cards each mouse has equipped, by mouse id, in the order equipped, taken out of the search
    deck; what they displace (its starting equipment in that place) goes to its pack. Omitted: each mouse
    holds its starting equipment only."""


class CarryOver(Doc, kw_only=True):
    """What the next chapter of a campaign receives (MM rulebook (it) §Giocare Mice and Mystics come una
    Campagna; MM summary (fr) Mode Campagne): story achievements, abilities gained per mouse, and the one
    search card each mouse keeps (MM rulebook (it): «va aggiunta all'equipaggiamento iniziale»; played as: put
    in the mouse's pack at setup, from where it is equipped as any carried card)."""

    from_chapter: str | None = None
    """Id of the chapter this carry-over comes from (``chapter-1``), as recorded; ``null``: not given."""
    story_achievements: tuple[Card, ...] = ()
    """Ids of the party's story achievements, kept for the rest of the campaign (``miz-maggie-ally``)."""
    abilities: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    """Ability card ids each mouse holds, by mouse id; a mouse listed here keeps these cards and takes no
    new starting ability card."""
    equipment: dict[str, Card] = field(default_factory=dict)
    """The one search card id each mouse keeps, by mouse id (the field's name is stored and stays); at
    setup it is taken out of the search deck and put in that mouse's pack, not equipped. A mouse not
    listed keeps none."""


class CarryOverChoice(Doc, kw_only=True):
    """A seat's choice of the search card each of its mice keeps after a won chapter (MM rulebook (it)
    §Giocare Mice and Mystics come una Campagna: «I Topi possono conservare solo 1 delle carte Ricerca»;
    ``POST /campaigns/{id}/carry-over``). A mouse of the party not named keeps the default: its card with the
    highest battle + defense bonus, ties to the one found first."""

    keep: Annotated[dict[Annotated[str, Meta(min_length=1, max_length=32)], Card | None], Meta(max_length=8)]
    """The card each named mouse keeps, by mouse id: a search card it holds at the chapter's end (in its pack
    or equipped; not one of its starting equipment, never a party item); ``null``: it keeps none. Only the
    mice the choosing seat controls."""
