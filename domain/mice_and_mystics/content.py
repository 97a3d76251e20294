"""Game content as data: mice, minion initiative cards, room tiles and chapters (DESIGN.md, Content is data).

Every file in ``content/`` decodes into frozen msgspec Structs with ``forbid_unknown_fields=True``; there
is one ``decode_<kind>`` function per file type. Files are read once, from the package itself, with
``importlib.resources`` (the only I/O the domain does). Values no source confirms carry
``provisional: true`` and a ``provisional_reason`` (rules/facts.md, header note).
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
    from domain.mice_and_mystics.state import State

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
    """One face of a room board: a graph of spaces (facts.md §7-§8).

    ``orientation_arrow`` is the corner of the face its orientation arrow points to. Boards are
    always laid with their arrows aligned (001 §Esplorare), so exit sides, space centres and wall
    geometry are given in that common frame, and two exits align when they face each other.
    """

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
    orientation_arrow: Literal["N", "E", "S", "W"] = "N"
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
    keywords: tuple[Literal["ambush", "mousetrap", "greedy-roaches"], ...] = ()


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


class ReadAloud(Data, kw_only=True):
    """A room's read-aloud story on the mice's first entry: a short paraphrase written for dicelog,
    never the book's text (001 §Capitolo 1, Frammenti di Leggenda)."""

    tile: str
    text: str


class SpecialSearch(Data, kw_only=True):
    """A room's special search item (001 §Capitolo 1, Ricerca Speciale; 003 "buscas especiais"):
    found once, by a successful search in ``tile`` (on a water space if ``water_only``), by a mouse
    of one of ``classes`` (any mouse if empty)."""

    tile: str
    item: str
    water_only: bool = False
    classes: tuple[str, ...] = ()


class RoomRule(Data, kw_only=True):
    """A named chapter room rule the rules modules know (``rules/chapter_1.py``), e.g. ``crow``."""

    tile: str
    rule: str


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
    read_aloud: tuple[ReadAloud, ...] = ()
    special_searches: tuple[SpecialSearch, ...] = ()
    room_rules: tuple[RoomRule, ...] = ()
    provisional: bool = False
    provisional_reason: str = ""


class Ability(Data, kw_only=True):
    """A mouse ability card (001 §Carte Abilità; facts.md §4): class requirement, cheese cost, effect.

    ``classes`` holds class ids or ``"any"``; ``mice`` restricts a card to named mice (Meeps:
    Maginos). ``story_unlocked`` cards are given by the story book, never chosen at setup or by
    levelling up (Meeps, facts.md §4). ``cost`` is ``None`` when unknown. ``effect`` is
    paraphrased, never quoted."""

    id: str
    name: str
    classes: tuple[str, ...]
    mice: tuple[str, ...] = ()
    story_unlocked: bool = False
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


class Library(Struct, frozen=True, kw_only=True, dict=True):
    """Every content record, by id.

    A library is immutable; values the rules derive from it (graph edges, line of sight) are kept
    with it by ``derived``, so they live exactly as long as the library and never mix contents.
    """

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


T = TypeVar("T")


def derived(lib: Library, name: str, build: Callable[[Library], T]) -> T:
    """The value ``build(lib)``, computed once per library and kept with it (in its ``__dict__``,
    outside its fields: never encoded, never compared). Bounded because libraries are: the
    shipped one, and the few pack libraries ``library_of`` keeps."""
    memo = lib.__dict__
    try:
        return memo[name]
    except KeyError:
        return memo.setdefault(name, build(lib))


def library_of(state: State) -> Library:
    """The content of ``state``'s game: its content pack laid over the shipped content, or the
    shipped content (``State.content_pack_digest`` is ``None``). Every rule reads content here
    (or is handed the library by a caller that did): nothing process-global decides it."""
    digest = state.content_pack_digest
    if digest is None:
        return shipped_library()
    found = PACK_LIBRARIES.get(digest)
    if found is not None:
        return found
    from domain.mice_and_mystics.packs import library_of_pack

    return PACK_LIBRARIES.put(digest, library_of_pack(state.content_pack))


class BoundedLibraries:
    """Pack libraries by pack digest, the ``maxsize`` most recently used (an LRU; thread-safe).

    A miss is never an error: ``library_of`` rebuilds the library from the pack the state carries.
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
    content check``, the demo bot). The rules never call it: a game's content is ``library_of``."""
    return shipped_library()


@cache
def shipped_library() -> Library:
    """Load and index all shipped content once."""
    read = {name: decoder_for(name)(_dir().joinpath(name).read_bytes()) for name in content_files()}
    return index_library(records_of(read))


# Which Library field each content file fills (a name or a name prefix, as in DECODERS).
KINDS = {
    "mice.json": "mice", "minions.json": "minions", "equipment.json": "items", "encounters.json": "encounters",
    "abilities.json": "abilities", "search-cards.json": "search_cards", "tile-": "tiles", "chapter-": "chapters",
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
        mice=dict(records["mice"]), minions=dict(records["minions"]),
        tiles=dict(tiles), chapters=dict(records["chapters"]),
        spaces={s.id: s for t in tiles.values() for s in t.spaces},
        space_tile={s.id: t.id for t in tiles.values() for s in t.spaces},
        items=dict(records["items"]), encounters=dict(records["encounters"]),
        abilities=dict(records["abilities"]), search_cards=dict(records["search_cards"]),
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
