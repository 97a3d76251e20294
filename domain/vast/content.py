"""Vast: The Crystal Caverns content as data: Cave tiles and the Knight's and Cave's cards.

Every file in ``content/`` decodes into frozen msgspec Structs with ``forbid_unknown_fields=True``;
files are read once, from the package itself, with ``importlib.resources`` (the only I/O the domain
does). The numbers come from ``docs/vast/facts.md``, which tags each fact with its sources;
card texts are paraphrased there and here.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import Literal

import msgspec
from msgspec import Struct

TileKind = Literal["entrance", "ambush", "event", "treasure-room", "crystal", "vault"]
Shape = Literal["open", "side", "corner", "tunnel", "deadend"]
Symbol = Literal["fangs", "bones", "eye"]


class Data(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every content record."""


class Tile(Data, kw_only=True):
    """A Cave tile (docs/vast/facts.md §1 Cave tiles): its Lit side's room and wall shape, its Dark side's
    Tribe symbol."""

    id: str
    """The tile id (``ambush-03``, ``crystal-07``, ``entrance``), used in commands, events and the board."""
    kind: TileKind
    """The room on the Lit side: ``ambush``, ``event``, ``treasure-room``, ``crystal``, ``vault`` (Thief games
    only) or the ``entrance``."""
    shape: Shape
    """The wall shape in base orientation (docs/vast/facts.md §1, HRF's names): ``open`` (no wall), ``side``
    (a wall on the north edge), ``corner`` (north and east), ``tunnel`` (north and south), ``deadend`` (north,
    east, west)."""
    symbol: Symbol | None
    """The Tribe symbol printed on the Dark side (``fangs``, ``bones``, ``eye``); ``None`` for the
    Entrance."""


class Card(Data, kw_only=True):
    """A card of a Vast deck (Treasure, Event, Sidequest; docs/vast/facts.md §2), its text paraphrased."""

    id: str
    """The card id (``elven-sword``, ``rats-2``, ``swift``): one id per physical card."""
    name: str
    """The card's English name as printed (``Elven Sword``)."""
    text: str
    """What the card does, paraphrased from docs/vast/facts.md (the rulebook section implementing it cites
    Vast rulebook)."""
    grit: int = 0
    """Sidequests: the Grit a completed Sidequest gives (3-6); 0 for other cards."""


class TileFile(Data, kw_only=True):
    source: str
    provisional_reason: str = ""
    tiles: tuple[Tile, ...]


class CardFile(Data, kw_only=True):
    source: str
    treasures: tuple[Card, ...]
    events: tuple[Card, ...]
    sidequests: tuple[Card, ...]


class WarCard(Data, kw_only=True):
    """A Goblins War card (docs/vast/facts.md §3 War cards): discs per Tribe, Monsters and Secrets to draw,
    extra Rage."""

    id: str
    """The card id (``thirst``)."""
    name: str
    """Its English name."""
    fangs: int
    """Goblin discs the Fangs Tribe gets."""
    bones: int
    """Goblin discs the Bones Tribe gets."""
    eye: int
    """Goblin discs the Eye Tribe gets."""
    monsters: int
    """Monster cards drawn."""
    secrets: int
    """Secrets cards drawn."""
    rage: int = 0
    """Extra Rage (Desperation, Pain: +1)."""


class MonsterCard(Data, kw_only=True):
    """A Monster card (docs/vast/facts.md §3 Monster cards), its effect on the Tribe it is assigned to."""

    id: str
    """The card id (``ogre``)."""
    name: str
    """Its English name."""
    strength: int
    """Strength it adds to its Tribe (a red Strength disc: Flame Giant, Ogre, Troll)."""
    built: bool
    """Whether this release plays its effect; the others are left out of the deck (docs/vast/index.md)."""
    text: str
    """Its effect, paraphrased."""
    ambush_strength: int = 0
    """Its Strength as a Goblin Infestation line C ambusher (docs/vast/facts.md §3 Monster cards, Ambush STR;
    docs/vast/facts.md §7 Variant cards)."""
    ambush_text: str = ""
    """What its Ambush does to a Knight it hurts (docs/vast/facts.md §3 Monster cards, Ambush text;
    paraphrased)."""
    ambush_provisional: str = ""
    """Why part of its Ambush is provisional (a rule no source gives); empty: as the sources say."""


class SecretCard(Data, kw_only=True):
    """A Secrets card (docs/vast/facts.md §3 Secrets cards)."""

    id: str
    """The card id (``hex``)."""
    name: str
    """Its English name."""
    face_up: bool
    """Whether it stays face up once played (Goblin Ruby, Trap)."""
    built: bool
    """Whether this release plays it; the others are left out of the deck (docs/vast/index.md)."""
    text: str
    """Its effect, paraphrased."""


class GoblinFile(Data, kw_only=True):
    source: str
    war: tuple[WarCard, ...]
    monsters: tuple[MonsterCard, ...]
    secrets: tuple[SecretCard, ...]


@cache
def goblin_file() -> GoblinFile:
    """``content/goblins.json``: the 10 War, 10 Monster and 10 Secrets cards."""
    return msgspec.json.decode(_read("goblins.json"), type=GoblinFile)


def _read(name: str) -> bytes:
    return files("dicelog.domain.vast").joinpath("content", name).read_bytes()


@cache
def tile_file() -> TileFile:
    """``content/tiles.json``: the 52 tiles (Entrance, 15 Ambush, 15 Event, 6 Treasure Room, 9 Crystal,
    6 Vault)."""
    return msgspec.json.decode(_read("tiles.json"), type=TileFile)


@cache
def card_file() -> CardFile:
    """``content/cards.json``: the 7 Treasure, 15 Event and 10 Sidequest cards."""
    return msgspec.json.decode(_read("cards.json"), type=CardFile)


@cache
def tiles() -> dict[str, Tile]:
    """Every tile by id."""
    return {t.id: t for t in tile_file().tiles}


@cache
def cards() -> dict[str, Card]:
    """Every Treasure, Event and Sidequest card by id."""
    f = card_file()
    return {c.id: c for c in (*f.treasures, *f.events, *f.sidequests)}


def tile(tile_id: str) -> Tile:
    """The tile ``tile_id``. Raises ``KeyError`` for an unknown id (content is checked at load)."""
    return tiles()[tile_id]


def event_kind(card_id: str) -> str:
    """The Event card's kind (``rats-2`` -> ``rats``, ``light`` -> ``light``)."""
    head, _, tail = card_id.rpartition("-")
    return head if tail.isdigit() else card_id
