"""The ``/content`` resource: each ruleset's content as data, read-only (DESIGN.md, Content is data).

Every record carries ``provisional`` and ``provisional_reason``: values no source confirms are flagged
and say why (rules/facts.md, header note). Unknown tile numbers and chapter ids are 404 problems.
"""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get
from litestar.exceptions import NotFoundException
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import Parameter
from msgspec import Struct

from dicelog.domain.mice_and_mystics.content import (
    Ability,
    Chapter,
    DieFace,
    EncounterCard,
    MinionCard,
    Mouse,
    RoomTile,
    SearchCard,
    library,
)
from dicelog.domain.mice_and_mystics.rules.dice import action_die
from dicelog.domain.vast import content as vast_content
from dicelog.domain.vast.cave import DRAGON_DIE, center_hit
from dicelog.domain.vast.content import Card as VastCard
from dicelog.domain.vast.content import MonsterCard as VastMonster
from dicelog.domain.vast.content import Tile as VastTile
from dicelog.domain.vast.rules.dragon import COSTS, ROLLED
from dicelog.domain.vast.rules.setup import SETUPS
from dicelog.service.schemas import Problem


def _not_found(what: str) -> dict[int, ResponseSpec]:
    return {
        400: ResponseSpec(
            data_container=Problem,
            description="Malformed request",
            media_type="application/problem+json",
            generate_examples=False,
        ),
        404: ResponseSpec(
            data_container=Problem,
            description=f"No such {what}",
            media_type="application/problem+json",
            generate_examples=False,
        ),
    }


class ContentController(Controller):
    """Mice and Mystics content at ``/content/...`` (kept for clients written before other rulesets
    existed); the same endpoints live at ``/content/mice-and-mystics/...``."""

    path = "/content"
    tags = ["content"]

    @get("/mice", sync_to_thread=False, summary="The mice")
    def mice(self) -> list[Mouse]:
        """The six mouse heroes: classes, battle/defense/lore/move, lives, starting equipment."""
        return list(library().mice.values())

    @get("/dice", sync_to_thread=False, summary="The action die's faces")
    def dice(self) -> list[DieFace]:
        """The action die, face by face: its number, the name a ``Roll`` may send instead
        (``{"type": "Roll", "faces": ["bow-star", "cheese"]}``), its symbol, star and move number,
        and what it counts for (facts.md §1; the face table has one fan source)."""
        return action_die()

    @get("/minions", sync_to_thread=False, summary="Minion and boss initiative cards")
    def minions(self) -> list[MinionCard]:
        """Minion and boss cards: battle and defense dice, lives, attack, size, abilities."""
        return list(library().minions.values())

    @get("/abilities", sync_to_thread=False, summary="Ability cards")
    def abilities(self) -> list[Ability]:
        """The 28 ability cards: class requirement, cheese cost (``null`` when unknown), paraphrased effect."""  # noqa: E501
        return list(library().abilities.values())

    @get("/search-cards", sync_to_thread=False, summary="Search cards")
    def search_cards(self) -> list[SearchCard]:
        """The search card catalogue (71 cards counting copies, most still placeholders)."""
        return list(library().search_cards.values())

    @get("/encounters", sync_to_thread=False, summary="Encounter cards")
    def encounters(self) -> list[EncounterCard]:
        """The standard and difficult encounter cards: minions per hourglass page band."""
        return list(library().encounters.values())

    @get("/tiles", sync_to_thread=False, summary="Room tiles")
    def tiles(self) -> list[RoomTile]:
        """Every room tile face, by number: spaces, edges, exits, walls."""
        return sorted(library().tiles.values(), key=lambda t: t.number)

    @get(
        "/tiles/{number:int}",
        sync_to_thread=False,
        summary="One room tile",
        responses=_not_found("room tile"),
    )
    def tile(self, number: Annotated[int, Parameter(description="Printed tile number")]) -> RoomTile:
        """One room tile face by its printed number (1-16; odd orange, even blue)."""
        found = next((t for t in library().tiles.values() if t.number == number), None)
        if found is None:
            raise NotFoundException(f"no room tile {number}")
        return found

    @get("/chapters", sync_to_thread=False, summary="Chapters")
    def chapters(self) -> list[Chapter]:
        """The chapters' setups."""
        return list(library().chapters.values())

    @get(
        "/chapters/{chapter_id:str}",
        sync_to_thread=False,
        summary="One chapter",
        responses=_not_found("chapter"),
    )
    def chapter(self, chapter_id: Annotated[str, Parameter(description="Chapter id")]) -> Chapter:
        """One chapter's setup: tiles, start space, minions, decks, summons, goal."""
        found = library().chapters.get(chapter_id)
        if found is None:
            raise NotFoundException(f"no chapter {chapter_id}")
        return found


class MiceAndMysticsContent(ContentController):
    """Mice and Mystics content at ``/content/mice-and-mystics/...`` (each ruleset's content
    lives under ``/content/<ruleset>/``)."""

    path = "/content/mice-and-mystics"


class DragonDieFace(Struct, frozen=True, kw_only=True):
    """One face of Vast's Dragon die (VF §4): a 3x3 pattern round the roller's tile."""

    face: int
    """The face's number (1-6), as a ``Roll`` sends it."""
    name: str
    """The pattern's name (HRF's), which a ``Roll`` may send instead of the number (``"cross"``)."""
    tiles: tuple[tuple[int, int], ...]
    """The tiles hit, as ``[dx, dy]`` offsets from the roller's tile (north positive)."""
    center_hit: bool
    """Whether the face hits the roller's own tile ("center hit": center, cross, saltire)."""


class DragonPower(Struct, frozen=True, kw_only=True):
    """One of the Dragon's Powers (004 §Poteri; VF §4 Powers)."""

    power: str
    """The Power's id, as ``vast.UsePower`` names it (``flame-wall``)."""
    cost: tuple[str, ...]
    """The Power-card symbols it costs (``claw``, ``flame``, ``wing``; ``?`` any symbol)."""
    rolls: bool
    """Whether it rolls the Dragon die."""


class VastSetupInfo(Struct, frozen=True, kw_only=True):
    """A Vast setup this server plays (VF §7 Setup by player count)."""

    id: str
    """The setup's id (``knight-vs-cave``)."""
    roles: tuple[str, ...]
    """Its roles, in turn order: the ``roles`` of a ``POST /games`` setup."""
    variants: tuple[str, ...]
    """The variant cards in play (``flare:knight``: the Knight holds Flare; ``infestation:B``: Goblin
    Infestation, line B, ambushes her)."""
    removed_sidequests: tuple[str, ...]
    """Sidequest cards taken out of the deck for this setup."""
    provisional: str = ""
    """Why the row is provisional, when VF §7 leaves part of it open (the reading chosen is in RULINGS.md);
    empty: the row is as the sources give it."""


class VastContent(Controller):
    """Vast: The Crystal Caverns content at ``/content/vast/...`` (VF = rules/vast-facts.md)."""

    path = "/content/vast"
    tags = ["content"]

    @get("/tiles", sync_to_thread=False, summary="Vast's Cave tiles")
    def tiles(self) -> list[VastTile]:
        """The 52 tiles (VF §1): room, wall shape in base orientation, Tribe symbol of the Dark side."""
        return list(vast_content.tiles().values())

    @get("/cards", sync_to_thread=False, summary="Vast's Treasure, Event and Sidequest cards")
    def cards(self) -> list[VastCard]:
        """The 7 Treasure, 15 Event and 10 Sidequest cards (VF §2), texts paraphrased."""
        return list(vast_content.cards().values())

    @get("/dragon-die", sync_to_thread=False, summary="Vast's Dragon die")
    def dragon_die(self) -> list[DragonDieFace]:
        """The Dragon die's six faces (VF §4): the tiles each hits round the roller, and the center hits."""
        return [
            DragonDieFace(face=face, name=name, tiles=offsets, center_hit=center_hit(face))
            for face, (name, offsets) in DRAGON_DIE.items()
        ]

    @get("/powers", sync_to_thread=False, summary="The Dragon's Powers")
    def powers(self) -> list[DragonPower]:
        """The Dragon's 14 Powers (004 §Poteri; VF §4): the symbols each costs, and whether it rolls the die.
        The 18 Power cards are ``claw-1``...``claw-6``, ``flame-1``...``flame-6``, ``wing-1``...``wing-6``."""
        return [DragonPower(power=p, cost=cost, rolls=p in ROLLED) for p, cost in COSTS.items()]

    @get("/monsters", sync_to_thread=False, summary="Vast's Monster cards")
    def monsters(self) -> list[VastMonster]:
        """The 10 Monster cards (VF §3): the effect on the Goblin Tribe holding one, and, for Goblin
        Infestation line C (Knight vs Thief, the Knight's solo Hard level), the Ambush STR and text; a card's
        ``ambush_provisional`` says what of its Ambush no source gives."""
        return list(vast_content.goblin_file().monsters)

    @get("/setups", sync_to_thread=False, summary="Vast setups this server plays")
    def setups(self) -> list[VastSetupInfo]:
        """The setups of VF §7 this release plays, with their variant cards (``hunger-locked:2``: 2 Hunger
        cubes start on Wakefulness, locked; ``flare:thief``: the Thief holds Flare;
        ``place-treasure-optional``: the Cave may skip Place Treasure; ``infestation:A``/``B``/``C``: Goblin
        Infestation's line; ``crystals:5``: Knight vs Thief's number to win, 6 if agreed at creation), and the
        rows VF §7 leaves open flagged ``provisional``."""
        return [
            VastSetupInfo(
                id=name,
                roles=row.roles,
                variants=row.variants,
                removed_sidequests=row.removed_sidequests,
                provisional=row.provisional,
            )
            for name, row in SETUPS.items()
        ]


CONTENT_CONTROLLERS = {"mice-and-mystics": MiceAndMysticsContent, "vast": VastContent}
"""The content catalogue of each ruleset that has one, by ruleset name."""
