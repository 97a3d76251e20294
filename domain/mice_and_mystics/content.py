"""Game content as data: mice, minion initiative cards, room tiles and chapters (DESIGN.md, Content is data).

Every file in ``content/`` decodes into frozen msgspec Structs with ``forbid_unknown_fields=True``; there
is one ``decode_<kind>`` function per file type. Files are read once, from the package itself, with
``importlib.resources`` (the only I/O the domain does). Values no source confirms carry
``provisional: true`` and a ``provisional_reason`` (rules/facts.md, header note).
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct

Side = Literal["N", "E", "S", "W"]
Stat = Annotated[int, Meta(ge=0, le=9)]


class Data(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every content record."""


class Mouse(Data, kw_only=True):
    """A mouse hero card (numbers from facts.md §2; lives are provisional everywhere)."""

    id: str
    name: str
    classes: tuple[str, ...]
    battle: Stat
    defense: Stat
    lore: Stat
    move: Stat
    lives: Annotated[int, Meta(ge=1)]
    starting_equipment: tuple[str, ...] = ()
    ability: str | None = None
    provisional: bool = False
    provisional_reason: str = ""


class MinionCard(Data, kw_only=True):
    """A minion or boss initiative card (facts.md §3)."""

    id: str
    name: str
    rank: Literal["minion", "boss"]
    figure: str
    battle: Stat
    defense: Stat
    lives: Annotated[int, Meta(ge=1)]
    attack: Literal["melee", "ranged"]
    size: Literal["small", "large", "none"]
    abilities: tuple[str, ...] = ()
    provisional: bool = False
    provisional_reason: str = ""


SpaceKind = Literal["normal", "start", "minion-entrance", "flip", "mousetrap"]


class Space(Data, kw_only=True):
    """One space of a room tile: centre in tile units (x right, y down), kind and capacity.

    ``capacity`` is "standard" (4 small or 1 large figure) or "unlimited" for special areas
    (001 §Aree Speciali). ``water``/``current`` mark water spaces and their current's direction.
    """

    id: str
    centre: tuple[float, float]
    kind: SpaceKind = "normal"
    capacity: Literal["standard", "unlimited"] = "standard"
    area: str | None = None
    water: bool = False
    current: Side | None = None
    flip_requires: str | None = None
    feature: str | None = None
    flip_classes: tuple[str, ...] = ()
    """Only a mouse of one of these classes may explore by this flip space (001 §Esplorare: the
    Pipes' flip space, Tinkerer or Scamp only); empty: any mouse."""


class Edge(Data, kw_only=True):
    """A border between two spaces. ``plain``: adjacent, cost 1. ``yellow``: adjacent; crossing toward
    ``arrow_to`` costs 1, against it 3 (001 §Linee Gialle). ``red``: not adjacent (001 §Linee Rosse)."""

    a: str
    b: str
    line: Literal["plain", "yellow", "red"] = "plain"
    arrow_to: str | None = None


class Wall(Data, kw_only=True):
    """A wall or the outline of a black area, as a segment in tile units (001 §Vedere il Bersaglio:
    a line of sight crossing a black area or a wall is blocked)."""

    a: tuple[float, float]
    b: tuple[float, float]


class Exit(Data, kw_only=True):
    """An exit on one side of the tile, its colour, and the spaces next to it (001 §Esplorare)."""

    side: Side
    colour: Literal["orange", "blue"]
    spaces: tuple[str, ...]


class RoomTile(Data, kw_only=True):
    """One face of a room board: a graph of spaces (facts.md §7-§8)."""

    id: str
    number: int
    name: str
    side: Literal["orange", "blue"]
    reverse: str
    code: str
    width: int
    height: int
    spaces: tuple[Space, ...]
    edges: tuple[Edge, ...]
    exits: tuple[Exit, ...] = ()
    walls: tuple[Wall, ...] = ()
    provisional: bool = False
    provisional_reason: str = ""


class Item(Data, kw_only=True):
    """An equipment card (facts.md §5): weapon (melee or ranged, battle bonus) or armour (defense bonus).

    ``special`` names a card rule the combat rules know (``dagger``, ``maces-wounded-friends``,
    ``staff-melee-on-own-space``)."""

    id: str
    name: str
    kind: Literal["weapon", "armour", "accessory"]
    attack: Literal["melee", "ranged"] | None = None
    battle: Annotated[int, Meta(ge=0, le=9)] = 0
    defense: Annotated[int, Meta(ge=0, le=9)] = 0
    special: str | None = None
    provisional: bool = False
    provisional_reason: str = ""


class EquipmentFile(Data, kw_only=True):
    items: tuple[Item, ...]


class RoomSummon(Data, kw_only=True):
    """A chapter's special summon for a room (001 §Evocazioni, step 2), e.g. Guard Room: 2 Rat Warriors."""

    tile: str
    card: str
    count: Annotated[int, Meta(ge=1)]


class Goal(Data, kw_only=True):
    """Victory: every mouse on the space of ``tile`` with ``feature``, the tile clear of minions and no
    mouse captured (facts.md §7, Chapter 1)."""

    tile: str
    feature: str


class EncounterBand(Data, kw_only=True):
    """The minions an encounter card places while the hourglass is on pages ``first``..``last``."""

    first: int
    last: int
    minions: tuple[tuple[str, int], ...]


class EncounterCard(Data, kw_only=True):
    """An encounter card (facts.md §6): page bands of minions; the same band is its summon."""

    id: str
    bands: tuple[EncounterBand, ...]
    deck: Literal["standard", "difficult"] = "standard"
    provisional: bool = False
    provisional_reason: str = ""


class EncountersFile(Data, kw_only=True):
    encounters: tuple[EncounterCard, ...]


class TilePlacement(Data, kw_only=True):
    tile: str
    column: int
    row: int


class MinionGroup(Data, kw_only=True):
    card: str
    count: Annotated[int, Meta(ge=1)]
    tile: str


class Chapter(Data, kw_only=True):
    """A chapter's setup (001, Capitolo 1: Preparazione del Capitolo / delle Stanze / del Gruppo)."""

    id: str
    title: str
    party_size: int
    mice_not_allowed: tuple[str, ...] = ()
    mice_not_allowed_reason: str = ""
    tiles: tuple[TilePlacement, ...]
    start_space: str
    minions: tuple[MinionGroup, ...] = ()
    hourglass_page: int = 1
    end_marker_page: int
    encounter_deck: tuple[str, ...] = ()
    search_deck: tuple[str, ...] = ()
    summons: tuple[RoomSummon, ...] = ()
    goal: Goal | None = None
    provisional: bool = False
    provisional_reason: str = ""


class Ability(Data, kw_only=True):
    """A mouse ability card (001 §Carte Abilità; facts.md §4): class requirement, cheese cost, effect.

    ``classes`` holds class ids or ``"any"``; ``mice`` restricts a card to named mice (Meeps:
    Maginos). ``cost`` is ``None`` when unknown. ``effect`` is paraphrased, never quoted."""

    id: str
    name: str
    classes: tuple[str, ...]
    mice: tuple[str, ...] = ()
    cost: Annotated[int, Meta(ge=0, le=9)] | None = None
    effect: str = ""
    provisional: bool = False
    provisional_reason: str = ""


class AbilitiesFile(Data, kw_only=True):
    abilities: tuple[Ability, ...]


SearchCardType = Literal["weapon", "armour", "accessory", "item", "scroll", "trick", "event", "party-item", "unknown"]


class SearchCard(Data, kw_only=True):
    """A search card (001 §Carte Ricerca; facts.md §5): the catalogue of the 71 cards and their stats.

    ``where``: ``search-deck`` (shuffled into the deck), ``starting-equipment`` (taken out of the deck
    at setup) or ``special-search`` (a room's special search reward, not one of the 71). ``requires``
    names classes or mice (empty: no requirement). ``copies`` counts identical cards; the deck and
    starting cards add up to 71. ``special`` names a card rule the rules know (as ``Item.special``)."""

    id: str
    name: str
    type: SearchCardType
    where: Literal["search-deck", "starting-equipment", "special-search"] = "search-deck"
    copies: Annotated[int, Meta(ge=1)] = 1
    attack: Literal["melee", "ranged"] | None = None
    damage: Literal["sharp", "blunt", "magic"] | None = None
    slot: Literal["paw", "both-paws", "body", "accessory"] | None = None
    battle: Annotated[int, Meta(ge=0, le=9)] = 0
    defense: Annotated[int, Meta(ge=0, le=9)] = 0
    requires: tuple[str, ...] = ()
    effect: str = ""
    special: str | None = None
    provisional: bool = False
    provisional_reason: str = ""


class SearchCardsFile(Data, kw_only=True):
    search_cards: tuple[SearchCard, ...]


class MiceFile(Data, kw_only=True):
    mice: tuple[Mouse, ...]


class MinionsFile(Data, kw_only=True):
    minions: tuple[MinionCard, ...]


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


DECODERS = {"equipment.json": decode_equipment, "encounters.json": decode_encounters, "mice.json": decode_mice, "minions.json": decode_minions, "tile-": decode_tile, "chapter-": decode_chapter}
DECODERS.update({"abilities.json": decode_abilities, "search-cards.json": decode_search_cards})


def _dir():
    return files("domain.mice_and_mystics").joinpath("content")


def content_files() -> tuple[str, ...]:
    """Names of every content file shipped in the package."""
    return tuple(sorted(p.name for p in _dir().iterdir() if p.name.endswith(".json")))


def decoder_for(name: str):
    """The decode function for the content file called ``name``."""
    return next(fn for prefix, fn in DECODERS.items() if name.startswith(prefix))


class Library(Struct, frozen=True, kw_only=True):
    """Every content record, by id."""

    mice: dict[str, Mouse]
    minions: dict[str, MinionCard]
    tiles: dict[str, RoomTile]
    chapters: dict[str, Chapter]
    spaces: dict[str, Space]
    space_tile: dict[str, str]
    items: dict[str, Item]
    encounters: dict[str, EncounterCard]
    abilities: dict[str, Ability] = {}
    search_cards: dict[str, SearchCard] = {}


@cache
def library() -> Library:
    """Load and index all content once."""
    read = {name: decoder_for(name)(_dir().joinpath(name).read_bytes()) for name in content_files()}
    tiles = {t.id: t for n, t in read.items() if n.startswith("tile-")}
    return Library(
        mice={m.id: m for m in read["mice.json"]},
        minions={m.id: m for m in read["minions.json"]},
        tiles=tiles,
        chapters={c.id: c for n, c in read.items() if n.startswith("chapter-")},
        spaces={s.id: s for t in tiles.values() for s in t.spaces},
        space_tile={s.id: t.id for t in tiles.values() for s in t.spaces},
        items={i.id: i for i in read["equipment.json"]},
        encounters={e.id: e for e in read["encounters.json"]},
    )
