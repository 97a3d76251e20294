"""Game content as data: mice, minion initiative cards, room tiles and chapters (docs/architecture.md, Content
is data).

Every file in ``content/`` decodes into frozen msgspec Structs with ``forbid_unknown_fields=True``; there
is one ``decode_<kind>`` function per file type. Files are read once, from the package itself, with
``importlib.resources`` (the only I/O the domain does). Values no source confirms carry
``provisional: true`` and a ``provisional_reason`` (docs/mice-and-mystics/facts.md, header note).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import msgspec
from msgspec import Meta, Struct

if TYPE_CHECKING:
    pass

Side = Literal["N", "E", "S", "W"]
Stat = Annotated[int, Meta(ge=0, le=9)]


class Data(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every content record."""


class Mouse(Data, kw_only=True):
    """A mouse hero card (numbers from docs/mice-and-mystics/facts.md §2; lives are provisional
    everywhere)."""

    id: str
    """The mouse id (``collin``), used for the party in a game's setup, in commands, as the mouse's figure
    id and as its initiative card id."""
    name: str
    """The mouse's English name (``Prince Collin``)."""
    classes: tuple[str, ...]
    """The mouse's class ids (``leader``, ``warrior``, ``healer``, ``scamp``, ``mystic``, ``tinkerer``,
    ``archer``): they decide which ability cards it may take and which search cards it may equip."""
    battle: Stat
    """Battle value (0-9): the dice the mouse rolls when it attacks, before its weapon's bonus."""
    defense: Stat
    """Defense value (0-9): the dice the mouse rolls to defend, before its armour's bonus."""
    lore: Stat
    """Lore value (0-9), read by some cards and rules (Chain Lightning's number of targets; a Tinkerer's
    mousetrap roll)."""
    move: Stat
    """Move value (0-9): added to the movement die's move number (1-3) to give the mouse's movement points
    for its turn."""
    lives: Annotated[int, Meta(ge=1)]
    """Lives (vitality, at least 1): the mouse is captured when its wounds reach this number. Provisional
    for every shipped mouse (5, the project default)."""
    starting_equipment: tuple[str, ...] = ()
    """Ids of the equipment cards (``equipment.json``) the mouse starts each chapter with, equipped; they
    are not in the search deck."""
    ability: str | None = None
    """Id of the hero ability printed on the mouse's card (``born-to-lead``, ``draw-power``), which the
    rules apply by this id; ``null`` when none is known."""
    provisional: bool = False
    """Whether some of this mouse's values are provisional: not verified in the rule sources (a project
    default, an inference or a single fan source); ``provisional_reason`` says which."""
    provisional_reason: str = ""
    """Why the mouse is provisional: which values are uncertain and where they come from; empty when it is
    not provisional."""


class MinionCard(Data, kw_only=True):
    """A minion or boss initiative card (docs/mice-and-mystics/facts.md §3)."""

    id: str
    """The initiative card id (``rat-warriors``), used on the initiative track; the card's figures on the
    board get the ids ``<id>-<n>``."""
    name: str
    """The card's English name (``Rat Warriors``, ``Brodie Chases``)."""
    rank: Literal["minion", "boss"]
    """``minion``, or ``boss`` for a boss's card (one boss figure acts on each of its cards; wounds dealt
    to the boss go on one of its cards)."""
    figure: str
    """The kind of figure or piece the card's minions use (``rat``, ``roach``, ``spider``, ``centipede``,
    ``brodie-paw``, ``vanestra``); the box's count of each limits how many are on the board."""
    battle: Stat
    """Battle value (0-9): the dice the card's figures roll when they attack."""
    defense: Stat
    """Defense value (0-9): the dice the card's figures roll to defend."""
    lives: Annotated[int, Meta(ge=1)]
    """Lives (at least 1): the wounds that defeat one figure of this card; for a boss's card, the wounds on
    that card that take it off the initiative track."""
    attack: Literal["melee", "ranged"]
    """``melee`` (the figures move toward the nearest mouse and attack one on their space or an adjacent
    one) or ``ranged`` (they attack a mouse they can see and move only when they see none)."""
    size: Literal["small", "large", "none"]
    """``small`` (up to 4 on a space), ``large`` (alone on a space) or ``none`` (a token that takes no
    room, Brodie's paw)."""
    abilities: tuple[str, ...] = ()
    """Ids of the card's abilities the rules apply (``aggressive``, ``steal``, ``poison``, ``stun``,
    ``chase``, ...); empty: none."""
    provisional: bool = False
    """Whether some of this card's values are provisional: not verified in the rule sources (a project
    default, an inference or a single fan source); ``provisional_reason`` says which."""
    provisional_reason: str = ""
    """Why the card is provisional: which values are uncertain and where they come from; empty when it is
    not provisional."""


SpaceKind = Literal["normal", "start", "minion-entrance", "flip", "mousetrap"]


class Space(Data, kw_only=True):
    """One space of a room tile: centre in tile units (x right, y down), kind and capacity.

    ``capacity`` is "standard" (4 small or 1 large figure) or "unlimited" for special areas
    (MM rulebook (it) §Aree Speciali). ``water``/``current`` mark water spaces and their current's direction.
    """

    id: str
    """The space id, ``<tile code>-<n>`` (``GR-6``), unique across all tiles; the id the board view,
    commands (``MoveTo.path``) and setup documents use."""
    centre: tuple[float, float]
    """The space's centre as ``[x, y]`` in tile units from the face's top-left corner (x right, y down,
    within ``width`` x ``height``); lines of sight are drawn between centres."""
    kind: SpaceKind = "normal"
    """``normal``; ``start`` (the chapter's start space); ``minion-entrance`` (where new minions are
    placed); ``flip`` (explore by turning the board over, landing on a flip space of the other face);
    ``mousetrap`` (a red-X space: a mousetrap token goes there when an encounter says Mousetrap)."""
    capacity: Literal["standard", "unlimited"] = "standard"
    """``standard``: 4 small figures or 1 large one; ``unlimited``: a special area (e.g. the kitchen
    counter or the dining table) holding any number."""
    area: str | None = None
    """The special area the space belongs to (``kitchen-counter``, ``dining-table``, ``kings-bed``,
    ``queens-table``), for rules that name it; ``null``: none."""
    water: bool = False
    """Whether this is a water space: entering it ends a mouse's movement, leaving it takes a roll, and a
    mouse in water takes no free actions."""
    current: Side | None = None
    """On a water space, the direction (``N``, ``E``, ``S``, ``W``) the current carries a mouse one space
    at the end of its turn (off the tile: the mouse is captured); ``null``: no current."""
    flip_requires: str | None = None
    """On a flip space, the id of the party item the party must hold to explore by it
    (``fishhook-and-thread``, the Sewer); ``null``: none needed."""
    feature: str | None = None
    """A printed feature the rules or a chapter goal refer to (``tree-entrance``, ``ladder``,
    ``magic-circle``); ``null``: none."""
    flip_classes: tuple[str, ...] = ()
    """Only a mouse of one of these classes may explore by this flip space (MM rulebook (it) §Esplorare: the
    Pipes' flip space, Tinkerer or Scamp only); empty: any mouse."""


class Edge(Data, kw_only=True):
    """A border between two spaces. ``plain``: adjacent, cost 1. ``yellow``: adjacent; crossing toward
    ``arrow_to`` costs 1, against it 3 (MM rulebook (it) §Linee Gialle). ``red``: not adjacent (MM rulebook
    (it) §Linee Rosse). ``gap``: a black gap between two sections of pipe (MM rulebook (it) §Aree Nere e Muri,
    the Pipes)."""

    a: str
    """Id of one of the two spaces (on the same tile face)."""
    b: str
    """Id of the other space."""
    line: Literal["plain", "yellow", "red", "gap"] = "plain"
    """``plain`` (adjacent, a step costs 1 movement), ``yellow`` (adjacent; 1 toward ``arrow_to``, 3
    against it), ``red`` (not adjacent: mice cannot cross; minions ignore yellow and red lines) or ``gap``
    (a black gap: not adjacent for mice or minions; a mouse crosses it, as a red line, only with an item
    that crosses red lines: the Scroll of Levitation, Fishhook & Thread)."""
    arrow_to: str | None = None
    """On a yellow line, the id of the space (``a`` or ``b``) its arrow points to; ``null`` on other lines."""


class Wall(Data, kw_only=True):
    """A wall or the outline of a black area, as a segment in tile units (MM rulebook (it) §Vedere il
    Bersaglio: a line of sight crossing a black area or a wall is blocked)."""

    a: tuple[float, float]
    """One end of the segment, ``[x, y]`` in tile units (the frame of ``Space.centre``)."""
    b: tuple[float, float]
    """The other end of the segment, ``[x, y]`` in tile units."""


class Exit(Data, kw_only=True):
    """An exit on one side of the tile, its colour, and the spaces next to it (MM rulebook (it)
    §Esplorare)."""

    side: Side
    """The side of the face the exit is on (``N`` up, ``E``, ``S``, ``W``, with the boards' arrows
    aligned); it leads to the tile in the next grid cell that way, if that tile has an exit facing it."""
    colour: Literal["orange", "blue"]
    """``orange`` or ``blue``: the colour of the face; an exit leads only to an exit of the same colour
    (the neighbouring board is turned over to match)."""
    spaces: tuple[str, ...]
    """Ids of the spaces next to the exit: a mouse on one of them may explore through it, and mice entering
    the room through it are placed on them."""


class RoomTile(Data, kw_only=True):
    """One face of a room board: a graph of spaces (docs/mice-and-mystics/facts.md §7-§8).

    ``orientation_arrow`` is the corner of the face its orientation arrow points to. Boards are
    always laid with their arrows aligned (MM rulebook (it) §Esplorare), so exit sides, space centres and wall
    geometry are given in that common frame, and two exits align when they face each other.
    """

    id: str
    """The face id (``guard-room``), used by chapters, setup documents and the board view."""
    number: int
    """The printed tile number, 1-16: odd numbers are the orange (castle) faces, even the blue ones; faces
    n and n+1 (n odd) are the two sides of one board."""
    name: str
    """The face's English name (``Guard Room``)."""
    side: Literal["orange", "blue"]
    """The face's colour, ``orange`` or ``blue``."""
    reverse: str
    """The id of the other face of the same board (where a flip space leads)."""
    code: str
    """The face's short code (``GR``), unique; every space id of the face starts with it (``GR-1``)."""
    width: int
    """The face's width in tile units: space centres and walls lie within ``width`` x ``height``, and a
    current pushing a mouse beyond it captures the mouse."""
    height: int
    """The face's height in tile units (see ``width``)."""
    spaces: tuple[Space, ...]
    """Every space of the face."""
    edges: tuple[Edge, ...]
    """The borders between adjacent spaces of the face, each with its line; spaces without an edge are not
    adjacent. Edges join spaces of one face only: mice change rooms by exploring."""
    exits: tuple[Exit, ...] = ()
    """The exits on the face's sides (at most one a side); empty: the room has none (the Courtyard)."""
    walls: tuple[Wall, ...] = ()
    """Segments of walls and black-area outlines: a line of sight between two space centres that crosses
    one is blocked. Empty: nothing blocks sight in the room."""
    orientation_arrow: Literal["N", "E", "S", "W"] = "N"
    """Where the face's printed orientation arrow points (``N``, ``E``, ``S``, ``W``) in the frame of its
    exits and coordinates; every shipped face has ``N``."""
    provisional: bool = False
    """Whether some of this tile face's values are provisional: not verified in the rule sources (a project
    default, an inference or a single fan source); ``provisional_reason`` says which."""
    provisional_reason: str = ""
    """Why the tile face is provisional: which values are uncertain and where they come from; empty when it
    is not provisional."""


class Item(Data, kw_only=True):
    """An equipment card (docs/mice-and-mystics/facts.md §5): weapon (melee or ranged, battle bonus) or armour
    (defense bonus).

    ``special`` names a card rule the combat rules know (``dagger``, ``maces-wounded-friends``,
    ``staff-melee-on-own-space``)."""

    id: str
    """The card id (``collins-sword``), the same as the card's id in the search card catalogue when it is
    listed there."""
    name: str
    """The card's English name (``Collin's Sword``)."""
    kind: Literal["weapon", "armour", "accessory"]
    """``weapon``, ``armour`` or ``accessory``."""
    attack: Literal["melee", "ranged"] | None = None
    """For a weapon, ``melee`` (hits on swords) or ``ranged`` (hits on bows); ``null`` for armour and
    accessories."""
    battle: Annotated[int, Meta(ge=0, le=9)] = 0
    """Battle dice the card adds (0-9): a weapon when the mouse attacks with it, an accessory to its
    non-ranged attacks."""
    defense: Annotated[int, Meta(ge=0, le=9)] = 0
    """Defense dice the card adds while equipped (0-9)."""
    special: str | None = None
    """Id of a card rule the combat rules apply (``dagger``, ``maces-wounded-friends``,
    ``staff-melee-on-own-space``); ``null``: none."""
    provisional: bool = False
    """Whether some of this card's values are provisional: not verified in the rule sources (a project
    default, an inference or a single fan source); ``provisional_reason`` says which."""
    provisional_reason: str = ""
    """Why the card is provisional: which values are uncertain and where they come from; empty when it is
    not provisional."""


class EquipmentFile(Data, kw_only=True):
    """The content file ``equipment.json``: the combat records of the equipment cards."""

    items: tuple[Item, ...]
    """Every equipment card's combat record."""


class RoomSummon(Data, kw_only=True):
    """A chapter's special summon for a room (MM rulebook (it) §Evocazioni, step 2), e.g. Guard Room: 2 Rat
    Warriors."""

    tile: str
    """Id of the room tile face the summon is for."""
    card: str
    """Id of the minion card whose figures are summoned (``rat-warriors``)."""
    count: Annotated[int, Meta(ge=1)]
    """How many figures are placed on the room's minion entrances (at least 1)."""


class Goal(Data, kw_only=True):
    """Victory: every mouse on the space of ``tile`` with ``feature``, the tile clear of minions and no
    mouse captured (docs/mice-and-mystics/facts.md §7, Chapter 1)."""

    tile: str
    """Id of the room tile face the mice must reach (``courtyard``)."""
    feature: str
    """The ``Space.feature`` of the goal space on that face (``tree-entrance``): every mouse must stand on
    a space with it."""


class EncounterBand(Data, kw_only=True):
    """The minions an encounter card places while the hourglass is on pages ``first``..``last``."""

    first: int
    """The first hourglass page of the band (1-based; the first band starts at page 1)."""
    last: int
    """The last hourglass page of the band, inclusive (the next band starts at ``last + 1``); an hourglass
    past every band uses the last band."""
    minions: tuple[tuple[str, int], ...]
    """The minions placed, as ``[card id, count]`` pairs (``["rat-warriors", 2]``), on the room's minion
    entrances."""
    keywords: tuple[Literal["ambush", "mousetrap", "greedy-roaches"], ...] = ()
    """Keywords of the band: ``ambush`` (the minion cards move up the initiative track), ``mousetrap``
    (traps on the room's mousetrap spaces), ``greedy-roaches`` (roaches in play turn greedy); empty:
    none."""


class EncounterCard(Data, kw_only=True):
    """An encounter card (docs/mice-and-mystics/facts.md §6): page bands of minions; the same band is its
    summon."""

    id: str
    """The encounter card id (``standard-1``), used in chapters' and sandboxes' encounter decks."""
    bands: tuple[EncounterBand, ...]
    """The card's page bands, in page order; the band for the hourglass's page gives the minions placed."""
    deck: Literal["standard", "difficult"] = "standard"
    """Which deck the card belongs to: ``standard`` or ``difficult``."""
    provisional: bool = False
    """Whether some of this card's values are provisional: not verified in the rule sources (a project
    default, an inference or a single fan source); ``provisional_reason`` says which."""
    provisional_reason: str = ""
    """Why the card is provisional: which values are uncertain and where they come from; empty when it is
    not provisional."""


class EncountersFile(Data, kw_only=True):
    """The content file ``encounters.json``: every encounter card."""

    encounters: tuple[EncounterCard, ...]
    """Every encounter card."""


class TilePlacement(Data, kw_only=True):
    """A room tile face a chapter lays on the table at setup, at a grid cell."""

    tile: str
    """Id of the room tile face laid face up (``guard-room``)."""
    column: int
    """Grid column of the tile's cell (grows east); neighbouring cells are the rooms exits lead to."""
    row: int
    """Grid row of the tile's cell (grows south)."""


class MinionGroup(Data, kw_only=True):
    """Minions a chapter places at setup: ``count`` figures of one minion card on one room's minion
    entrances."""

    card: str
    """Id of the minion card (``rat-warriors``)."""
    count: Annotated[int, Meta(ge=1)]
    """How many figures of the card are placed (at least 1)."""
    tile: str
    """Id of the room tile face on whose minion entrances they are placed."""


class ReadAloud(Data, kw_only=True):
    """A room's read-aloud story on the mice's first entry: a short paraphrase written for dicelog,
    never the book's text (MM rulebook (it) §Capitolo 1, Frammenti di Leggenda)."""

    tile: str
    """Id of the room tile face whose first entry by the mice shows the text."""
    text: str
    """The story text (a paraphrase written for dicelog)."""


class SpecialSearch(Data, kw_only=True):
    """A room's special search item (MM rulebook (it) §Capitolo 1, Ricerca Speciale; MM rulebook (pt) "buscas
    especiais"): found once, by a successful search in ``tile`` (on a water space if ``water_only``), by a
    mouse of one of ``classes`` (any mouse if empty)."""

    tile: str
    """Id of the room tile face where the special search can be made."""
    item: str
    """Id of the search card found (``tinkerers-treasure``)."""
    water_only: bool = False
    """Whether the search must be made from a water space of the room."""
    classes: tuple[str, ...] = ()
    """Class ids of the mice that may find it (``tinkerer``); empty: any mouse."""


class RoomRule(Data, kw_only=True):
    """A named chapter room rule the rules modules know (``rules/chapter_1.py``), e.g. ``crow``."""

    tile: str
    """Id of the room tile face the rule applies to."""
    rule: str
    """Id of the room rule the rules apply (``crow``, ``tree-entrance``, ``counter-cheese``,
    ``miz-maggie``, ``leaving-the-sewer``)."""
    provisional: bool = False
    """Whether what dicelog plays for this rule is not fully in the rule sources (a garbled or cut
    transcript completed by a ruling); ``provisional_reason`` says what, and docs/mice-and-mystics/rulings.md
    has the ruling."""
    provisional_reason: str = ""
    """Why the rule is provisional: which part the sources lack; empty when it is not provisional."""


class DieFace(Data, kw_only=True):
    """One face of the action die (docs/mice-and-mystics/facts.md §1: the face-to-symbol table comes from one
    fan source, GH-DIE, whose symbol counts per face agree with two others; the rulebooks name the symbols and
    what they do, not which face carries which). A ``Roll`` may give a face by its ``name``."""

    face: int
    """The face's number (1 to 6), as a ``Roll`` may send it and ``DiceRolled.faces`` records it."""
    name: str
    """The face by its printed symbols, as a ``Roll`` may send it: ``cheese``, ``sword-star``,
    ``sword-shield``, ``bow``, ``bow-star`` or ``sword-shield-star``."""
    symbol: str
    """The main symbol: ``cheese``, ``sword``, ``sword-and-shield`` or ``bow``."""
    star: bool
    """Whether the face also shows a star (a success for searches, mousetraps, leaving water, webs)."""
    move: int
    """The move number printed on the face (1 to 3; each on two faces)."""
    melee_hit: bool
    """A hit in a melee attack (a sword or a sword-and-shield)."""
    ranged_hit: bool
    """A hit in a ranged attack or a spell (a bow)."""
    block: bool
    """A block when defending (a sword-and-shield)."""
    cheese: bool
    """A cheese: 1 cheese to the roller's stash (a mouse) or to the minion wheel (a minion)."""


class Chapter(Data, kw_only=True):
    """A chapter's setup (MM rulebook (it), Capitolo 1: Preparazione del Capitolo / delle Stanze / del
    Gruppo)."""

    id: str
    """The chapter id (``chapter-1``), named in a game's setup."""
    title: str
    """The chapter's English title."""
    party_size: int
    """How many mice the party has: exactly this many in a game of the chapter (a sandbox game may have
    from 1 to this many)."""
    mice_not_allowed: tuple[str, ...] = ()
    """Ids of the mice that may not be chosen for this chapter (``lily``); empty: any mouse."""
    mice_not_allowed_reason: str = ""
    """Why those mice may not be chosen (the text of the refusal); empty when none is barred."""
    tiles: tuple[TilePlacement, ...]
    """The room tile faces laid at setup, each at its grid cell."""
    start_space: str
    """Id of the space every mouse starts on (a ``start`` space on one of ``tiles``)."""
    minions: tuple[MinionGroup, ...] = ()
    """The minions placed at setup, room by room."""
    hourglass_page: int = 1
    """The story-board page the hourglass starts on (1-based)."""
    end_marker_page: int
    """The story-board page of the chapter end marker: the chapter is lost when the hourglass reaches it."""
    encounter_deck: tuple[str, ...] = ()
    """Ids of the encounter cards in the encounter deck; one is drawn when the mice first enter a room
    other than the start room; empty: no encounters."""
    search_deck: tuple[str, ...] = ()
    """Ids of the search cards in the search deck at setup (starting equipment left out); empty: a
    successful search draws nothing."""
    summons: tuple[RoomSummon, ...] = ()
    """The chapter's special room summons: a summon made while the mice are in one of these rooms places
    these minions instead of the face-up encounter card's band."""
    goal: Goal | None = None
    """The victory condition; ``null``: the chapter cannot be won by reaching a goal."""
    read_aloud: tuple[ReadAloud, ...] = ()
    """Story texts given (a ``StoryRead`` event) when the mice first enter a room."""
    opening: str | None = None
    """The chapter's opening read-aloud, given (``ChapterStoryRead``, part ``opening``) when the chapter
    is set up: a short English paraphrase written for dicelog, never the storybook's words; ``null``:
    none."""
    story_continues: str | None = None
    """The chapter's «Il Racconto Continua…» (MM rulebook (pt) «A história continua...»), given
    (``ChapterStoryRead``, part ``story-continues``) when the chapter is won: a short English paraphrase
    written for dicelog, never the storybook's words; ``null``: none. Both texts are stored in the events of
    every game that read them, so the shipped chapters' texts never change (docs/event-model.md, Stored
    names are forever): their "003" and "001" name the Portuguese and Italian rulebooks."""
    special_searches: tuple[SpecialSearch, ...] = ()
    """Special search items of the chapter's rooms, each found once."""
    room_rules: tuple[RoomRule, ...] = ()
    """The named room rules of the chapter, by room."""
    provisional: bool = False
    """Whether some of this chapter's values are provisional: not verified in the rule sources (a project
    default, an inference or a single fan source); ``provisional_reason`` says which."""
    provisional_reason: str = ""
    """Why the chapter is provisional: which values are uncertain and where they come from; empty when it
    is not provisional."""


class Ability(Data, kw_only=True):
    """A mouse ability card (MM rulebook (it) §Carte Abilità; docs/mice-and-mystics/facts.md §4): class
    requirement, cheese cost, effect.

    ``classes`` holds class ids or ``"any"``; ``mice`` restricts a card to named mice (Meeps:
    Maginos). ``story_unlocked`` cards are given by the story book, never chosen at setup or by
    levelling up (Meeps, docs/mice-and-mystics/facts.md §4). ``cost`` is ``None`` when unknown. ``effect`` is
    paraphrased, never quoted."""

    id: str
    """The ability card id (``first-aid``), used in commands and setup documents."""
    name: str
    """The card's English name (``First Aid``)."""
    classes: tuple[str, ...]
    """Class ids that may take the card, or ``any`` for every class."""
    mice: tuple[str, ...] = ()
    """Ids of the only mice that may take the card (``maginos``); empty: any mouse of ``classes``."""
    story_unlocked: bool = False
    """Whether only the story gives the card: it is never chosen at setup or taken by levelling up."""
    cost: Annotated[int, Meta(ge=0, le=9)] | None = None
    """The card's cost in cheese, paid each time it is used (0-9; a Healer pays 1 less for First Aid);
    ``null`` when unknown (the card is then played for no cheese unless its effect says otherwise)."""
    effect: str = ""
    """The card's effect, paraphrased (never the printed text); empty when unknown."""
    provisional: bool = False
    """Whether some of this card's values are provisional: not verified in the rule sources (a project
    default, an inference or a single fan source); ``provisional_reason`` says which."""
    provisional_reason: str = ""
    """Why the card is provisional: which values are uncertain and where they come from; empty when it is
    not provisional."""


class AbilitiesFile(Data, kw_only=True):
    """The content file ``abilities.json``: every mouse ability card."""

    abilities: tuple[Ability, ...]
    """Every ability card."""


SearchCardType = Literal[
    "weapon", "armour", "accessory", "item", "scroll", "trick", "event", "party-item", "unknown"
]


class SearchCard(Data, kw_only=True):
    """A search card (MM rulebook (it) §Carte Ricerca; docs/mice-and-mystics/facts.md §5): the catalogue of
    the 71 cards and their stats.

    ``where``: ``search-deck`` (shuffled into the deck), ``starting-equipment`` (taken out of the deck
    at setup) or ``special-search`` (a room's special search reward, not one of the 71). ``requires``
    names classes or mice (empty: no requirement). ``copies`` counts identical cards; the deck and
    starting cards add up to 71. ``special`` names a card rule the rules know (as ``Item.special``)."""

    id: str
    """The search card id (``dagger``), used in decks, packs, commands and setup documents."""
    name: str
    """The card's English name (``Dagger``); placeholders are named ``Unknown search card <n>``."""
    type: SearchCardType
    """``weapon``, ``armour``, ``accessory`` (equipped), ``item``, ``scroll`` (one use), ``trick``,
    ``event`` (resolved when drawn), ``party-item`` (goes to the party's stash; like a trick it takes no
    pack room), or ``unknown`` for a placeholder (treated as an item)."""
    where: Literal["search-deck", "starting-equipment", "special-search"] = "search-deck"
    """``search-deck`` (shuffled into the search deck), ``starting-equipment`` (a mouse starts with it; not
    in the deck) or ``special-search`` (a room's special search reward, not one of the 71)."""
    copies: Annotated[int, Meta(ge=1)] = 1
    """How many identical cards the box has (at least 1); the deck and starting cards add up to 71."""
    attack: Literal["melee", "ranged"] | None = None
    """For a weapon, ``melee`` or ``ranged``; ``null`` otherwise or when unknown (a weapon is then melee)."""
    damage: Literal["sharp", "blunt", "magic"] | None = None
    """For a weapon, its damage type: ``sharp``, ``blunt`` or ``magic``; ``null`` otherwise or when
    unknown."""
    slot: Literal["paw", "both-paws", "body", "accessory"] | None = None
    """Where the card is equipped: ``paw``, ``both-paws``, ``body`` or ``accessory``; ``null`` when unknown
    (a weapon then takes a paw, armour the body, anything else the accessory place)."""
    battle: Annotated[int, Meta(ge=0, le=9)] = 0
    """Battle dice the card adds (0-9), as ``Item.battle``."""
    defense: Annotated[int, Meta(ge=0, le=9)] = 0
    """Defense dice the card adds while equipped (0-9)."""
    requires: tuple[str, ...] = ()
    """Class ids or mouse ids, one of which a mouse must match to equip the card (``warrior``, ``tilda``);
    empty: anyone."""
    effect: str = ""
    """The card's text, paraphrased; empty when unknown."""
    special: str | None = None
    """Id of a card rule the rules apply (as ``Item.special``: ``dagger``, ``precision``, ``levitation``,
    ...); ``null``: none."""
    provisional: bool = False
    """Whether some of this card's values are provisional: not verified in the rule sources (a project
    default, an inference or a single fan source); ``provisional_reason`` says which."""
    provisional_reason: str = ""
    """Why the card is provisional: which values are uncertain and where they come from; empty when it is
    not provisional."""


class SearchCardsFile(Data, kw_only=True):
    """The content file ``search-cards.json``: the search card catalogue."""

    search_cards: tuple[SearchCard, ...]
    """Every search card of the catalogue."""


class MiceFile(Data, kw_only=True):
    """The content file ``mice.json``: every mouse hero."""

    mice: tuple[Mouse, ...]
    """Every mouse hero."""


class MinionsFile(Data, kw_only=True):
    """The content file ``minions.json``: every minion and boss initiative card."""

    minions: tuple[MinionCard, ...]
    """Every minion and boss initiative card."""


def decode_mice(data: bytes) -> tuple[Mouse, ...]:
    return msgspec.json.decode(data, type=MiceFile).mice


def decode_minions(data: bytes) -> tuple[MinionCard, ...]:
    return msgspec.json.decode(data, type=MinionsFile).minions


def decode_equipment(data: bytes) -> tuple[Item, ...]:
    return msgspec.json.decode(data, type=EquipmentFile).items


def decode_encounters(data: bytes) -> tuple[EncounterCard, ...]:
    return msgspec.json.decode(data, type=EncountersFile).encounters


def decode_tile(data: bytes) -> RoomTile:
    return msgspec.json.decode(data, type=RoomTile)


def decode_chapter(data: bytes) -> Chapter:
    return msgspec.json.decode(data, type=Chapter)


def decode_abilities(data: bytes) -> tuple[Ability, ...]:
    return msgspec.json.decode(data, type=AbilitiesFile).abilities


def decode_search_cards(data: bytes) -> tuple[SearchCard, ...]:
    return msgspec.json.decode(data, type=SearchCardsFile).search_cards


DECODERS = {
    "equipment.json": decode_equipment,
    "encounters.json": decode_encounters,
    "mice.json": decode_mice,
    "minions.json": decode_minions,
    "tile-": decode_tile,
    "chapter-": decode_chapter,
}
DECODERS.update({"abilities.json": decode_abilities, "search-cards.json": decode_search_cards})


def _dir():
    return files("dicelog.domain.mice_and_mystics").joinpath("content")


def content_files() -> tuple[str, ...]:
    """Names of every content file shipped in the package."""
    return tuple(sorted(p.name for p in _dir().iterdir() if p.name.endswith(".json")))


def decoder_for(name: str):
    """The decode function for the content file called ``name``."""
    return next(fn for prefix, fn in DECODERS.items() if name.startswith(prefix))


class Library(Struct, frozen=True, kw_only=True, dict=True):
    """Every content record, by id.

    A library is immutable; values the rules derive from it (graph edges, line of sight) are kept
    with it by ``derived``, so they live exactly as long as the library and never mix contents.
    """

    mice: dict[str, Mouse]
    """The mouse heroes, by mouse id."""
    minions: dict[str, MinionCard]
    """The minion and boss initiative cards, by card id."""
    tiles: dict[str, RoomTile]
    """The room tile faces, by face id."""
    chapters: dict[str, Chapter]
    """The chapters, by chapter id."""
    spaces: dict[str, Space]
    """Every space of every tile face, by space id."""
    space_tile: dict[str, str]
    """The face id of each space, by space id."""
    items: dict[str, Item]
    """The equipment cards' combat records (``equipment.json``), by card id."""
    encounters: dict[str, EncounterCard]
    """The encounter cards, by card id."""
    abilities: dict[str, Ability] = {}
    """The ability cards, by card id."""
    search_cards: dict[str, SearchCard] = {}
    """The search card catalogue, by card id."""


T = TypeVar("T")


def derived(lib: Library, name: str, build: Callable[[Library], T]) -> T:
    """The value ``build(lib)``, computed once per library and kept with it (in its ``__dict__``,
    outside its fields: never encoded, never compared). Bounded because libraries are: the
    shipped one, and the few pack libraries ``packs.library_of`` keeps."""
    memo = lib.__dict__
    try:
        return memo[name]
    except KeyError:
        return memo.setdefault(name, build(lib))


class BoundedLibraries:
    """Pack libraries by pack digest, the ``maxsize`` most recently used (an LRU; thread-safe).

    A miss is never an error: ``packs.library_of`` rebuilds the library from the pack the state carries.
    """

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._items: OrderedDict[str, Library] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, digest: str) -> Library | None:
        with self._lock:
            found = self._items.get(digest)
            if found is not None:
                self._items.move_to_end(digest)
            return found

    def put(self, digest: str, lib: Library) -> Library:
        """Keep ``lib`` under ``digest`` (evicting the least recently used); returns the library
        kept under ``digest`` (the one already there, if another thread was first)."""
        with self._lock:
            kept = self._items.setdefault(digest, lib)
            self._items.move_to_end(digest)
            while len(self._items) > self.maxsize:
                self._items.popitem(last=False)
            return kept

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, digest: object) -> bool:
        return digest in self._items

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


PACK_LIBRARIES_KEPT = 8
"""How many content-pack libraries a process keeps (each up to a few MB for a pack at the cap,
``packs.MAX_PACK_BYTES``); games of other packs rebuild theirs from their state on use."""
PACK_LIBRARIES = BoundedLibraries(PACK_LIBRARIES_KEPT)


def library() -> Library:
    """The shipped content, for readers outside a game (the ``/content`` endpoints, ``dicelog
    content check``, the demo bot). The rules never call it: a game's content is ``packs.library_of``."""
    return shipped_library()


@cache
def shipped_library() -> Library:
    """Load and index all shipped content once."""
    read = {name: decoder_for(name)(_dir().joinpath(name).read_bytes()) for name in content_files()}
    return index_library(records_of(read))


# Which Library field each content file fills (a name or a name prefix, as in DECODERS).
KINDS = {
    "mice.json": "mice",
    "minions.json": "minions",
    "equipment.json": "items",
    "encounters.json": "encounters",
    "abilities.json": "abilities",
    "search-cards.json": "search_cards",
    "tile-": "tiles",
    "chapter-": "chapters",
}


def kind_of(name: str) -> str | None:
    """The Library field the content file ``name`` fills, or ``None`` for a name no decoder knows."""
    for prefix, kind in KINDS.items():
        if name == prefix or (prefix.endswith("-") and name.startswith(prefix) and name.endswith(".json")):
            return kind
    return None


def records_of(read: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Decoded files (name -> one record or a tuple of records) grouped by kind, then by id."""
    out: dict[str, dict[str, Any]] = {kind: {} for kind in KINDS.values()}
    for name, decoded in read.items():
        kind = kind_of(name)
        if kind is None:
            raise ValueError(f"{name}: not a content file name ({', '.join(KINDS)})")
        for record in decoded if isinstance(decoded, tuple) else (decoded,):
            out[kind][record.id] = record
    return out


def index_library(records: dict[str, dict[str, Any]]) -> Library:
    """A Library from records grouped by kind and id (``records_of``), with the space indexes."""
    tiles = records["tiles"]
    return Library(
        mice=dict(records["mice"]),
        minions=dict(records["minions"]),
        tiles=dict(tiles),
        chapters=dict(records["chapters"]),
        spaces={s.id: s for t in tiles.values() for s in t.spaces},
        space_tile={s.id: t.id for t in tiles.values() for s in t.spaces},
        items=dict(records["items"]),
        encounters=dict(records["encounters"]),
        abilities=dict(records["abilities"]),
        search_cards=dict(records["search_cards"]),
    )


def read_content_dir(path: Path) -> dict[str, Any]:
    """Decode every ``*.json`` file of a directory (a content pack); unknown names are refused."""
    if not path.is_dir():
        raise ValueError(f"{path}: not a directory")
    read: dict[str, Any] = {}
    for file in sorted(path.glob("*.json")):
        if kind_of(file.name) is None:
            raise ValueError(f"{file.name}: not a content file name ({', '.join(KINDS)})")
        try:
            read[file.name] = decoder_for(file.name)(file.read_bytes())
        except msgspec.DecodeError as e:
            raise ValueError(f"{file.name}: {e}") from None
    return read


def library_with_pack(pack: Path) -> Library:
    """The shipped content with a content pack laid over it: a pack record replaces the shipped
    record with the same id (of the same kind), a new id extends the content. Not used by games."""
    shipped = {name: decoder_for(name)(_dir().joinpath(name).read_bytes()) for name in content_files()}
    records = records_of(shipped)
    for kind, by_id in records_of(read_content_dir(pack)).items():
        records[kind].update(by_id)
    return index_library(records)
