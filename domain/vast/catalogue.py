"""Vast: The Crystal Caverns' content catalogue, served read-only at ``/content/vast/...`` (the ruleset's
``content``; ``dicelog.domain.core.ruleset.ContentRoute``)."""

from __future__ import annotations

from msgspec import Struct

from dicelog.domain.core.ruleset import ContentRoute
from dicelog.domain.vast import content
from dicelog.domain.vast.cave import DRAGON_DIE, center_hit
from dicelog.domain.vast.content import Card, MonsterCard, Tile
from dicelog.domain.vast.rules.dragon import COSTS, ROLLED
from dicelog.domain.vast.rules.setup import SETUPS


class DragonDieFace(Struct, frozen=True, kw_only=True):
    """One face of Vast's Dragon die (Vast rulebook, The Dragon): a 3x3 pattern round the roller's tile."""

    face: int
    """The face's number (1-6), as a ``Roll`` sends it."""
    name: str
    """The pattern's name (HRF's), which a ``Roll`` may send instead of the number (``"cross"``)."""
    tiles: tuple[tuple[int, int], ...]
    """The tiles hit, as ``[dx, dy]`` offsets from the roller's tile (north positive)."""
    center_hit: bool
    """Whether the face hits the roller's own tile ("center hit": center, cross, saltire)."""


class DragonPower(Struct, frozen=True, kw_only=True):
    """One of the Dragon's Powers (Vast rulebook, The Dragon, Powers)."""

    power: str
    """The Power's id, as ``vast.UsePower`` names it (``flame-wall``)."""
    cost: tuple[str, ...]
    """The Power-card symbols it costs (``claw``, ``flame``, ``wing``; ``?`` any symbol)."""
    rolls: bool
    """Whether it rolls the Dragon die."""


class VastSetupInfo(Struct, frozen=True, kw_only=True):
    """A Vast setup this server plays (Vast rulebook, Setup by player count)."""

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
    """Why the row is provisional, when the rulebook leaves part of it open (the reading chosen is in
    docs/vast/rulings.md); empty: the row is as the sources give it."""


def dragon_die() -> list[DragonDieFace]:
    return [
        DragonDieFace(face=face, name=name, tiles=offsets, center_hit=center_hit(face))
        for face, (name, offsets) in DRAGON_DIE.items()
    ]


def powers() -> list[DragonPower]:
    return [DragonPower(power=p, cost=cost, rolls=p in ROLLED) for p, cost in COSTS.items()]


def setups() -> list[VastSetupInfo]:
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


CONTENT = (
    ContentRoute(
        "/tiles",
        "Vast's Cave tiles",
        "The 52 tiles: room, wall shape in base orientation, Tribe symbol of the Dark side.",
        Tile,
        lambda: list(content.tiles().values()),
    ),
    ContentRoute(
        "/cards",
        "Vast's Treasure, Event and Sidequest cards",
        "The 7 Treasure, 15 Event and 10 Sidequest cards, texts paraphrased.",
        Card,
        lambda: list(content.cards().values()),
    ),
    ContentRoute(
        "/dragon-die",
        "Vast's Dragon die",
        "The Dragon die's six faces: the tiles each hits round the roller, and the center hits.",
        DragonDieFace,
        dragon_die,
    ),
    ContentRoute(
        "/powers",
        "The Dragon's Powers",
        "The Dragon's 14 Powers (Vast rulebook, The Dragon, Powers): the symbols each costs, and whether it\n"
        "rolls the die. The 18 Power cards are ``claw-1``...``claw-6``, ``flame-1``...``flame-6``,\n"
        "``wing-1``...``wing-6``.",
        DragonPower,
        powers,
    ),
    ContentRoute(
        "/monsters",
        "Vast's Monster cards",
        "The 10 Monster cards: the effect on the Goblin Tribe holding one, and, for Goblin Infestation\n"
        "line C (Knight vs Thief, the Knight's solo Hard level), the Ambush STR and text; a card's\n"
        "``ambush_provisional`` says what of its Ambush no source gives.",
        MonsterCard,
        lambda: list(content.goblin_file().monsters),
    ),
    ContentRoute(
        "/setups",
        "Vast setups this server plays",
        "The setups of the rulebook's table this release plays, with their variant cards\n"
        "(``hunger-locked:2``: 2 Hunger cubes start on Wakefulness, locked; ``flare:thief``: the Thief\n"
        "holds Flare; ``place-treasure-optional``: the Cave may skip Place Treasure;\n"
        "``infestation:A``/``B``/``C``: Goblin Infestation's line; ``crystals:5``: Knight vs Thief's\n"
        "number to win, 6 if agreed at creation), and the rows the rulebook leaves open flagged\n"
        "``provisional``.",
        VastSetupInfo,
        setups,
    ),
)
"""The catalogue's endpoints, in the order they are listed."""
