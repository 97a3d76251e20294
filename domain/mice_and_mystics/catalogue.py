"""Mice and Mystics' content catalogue, served read-only at ``/content/mice-and-mystics/...`` and, for
clients written before other rulesets existed, at ``/content/...`` (the ruleset's ``content`` and
``content_aliases``; ``dicelog.domain.core.ruleset.ContentRoute``). Every record carries ``provisional``
and ``provisional_reason``: values no source confirms are flagged and say why."""

from __future__ import annotations

from pathlib import Path

from dicelog.domain.core.ruleset import ContentRoute
from dicelog.domain.mice_and_mystics.content import (
    Ability,
    Chapter,
    DieFace,
    EncounterCard,
    Item,
    MinionCard,
    Mouse,
    RoomTile,
    SearchCard,
    library,
    library_with_pack,
)
from dicelog.domain.mice_and_mystics.content_check import check
from dicelog.domain.mice_and_mystics.rules.dice import action_die


def _tile(number: int) -> RoomTile | None:
    return next((t for t in library().tiles.values() if t.number == number), None)


CONTENT = (
    ContentRoute(
        "/mice",
        "The mice",
        "The six mouse heroes: classes, battle/defense/lore/move, lives, starting equipment.",
        Mouse,
        lambda: list(library().mice.values()),
    ),
    ContentRoute(
        "/dice",
        "The action die's faces",
        "The action die, face by face: its number, the name a ``Roll`` may send instead\n"
        '(``{"type": "Roll", "faces": ["bow-star", "cheese"]}``), its symbol, star and move number,\n'
        "and what it counts for (Mice and Mystics rulebook, The dice).",
        DieFace,
        action_die,
    ),
    ContentRoute(
        "/minions",
        "Minion and boss initiative cards",
        "Minion and boss cards: battle and defense dice, lives, attack, size, abilities.",
        MinionCard,
        lambda: list(library().minions.values()),
    ),
    ContentRoute(
        "/abilities",
        "Ability cards",
        "The 28 ability cards: class requirement, cheese cost (``null`` when unknown), paraphrased effect.",
        Ability,
        lambda: list(library().abilities.values()),
    ),
    ContentRoute(
        "/search-cards",
        "Search cards",
        "The search card catalogue (71 cards counting copies, most still placeholders).",
        SearchCard,
        lambda: list(library().search_cards.values()),
    ),
    ContentRoute(
        "/equipment",
        "Equipment cards",
        "The equipment cards' combat records (the mice's starting weapons and armour among them):\n"
        "name, kind, attack, battle and defense dice; a page names a card a mouse holds by its ``name``.",
        Item,
        lambda: list(library().items.values()),
    ),
    ContentRoute(
        "/encounters",
        "Encounter cards",
        "The standard and difficult encounter cards: minions per hourglass page band.",
        EncounterCard,
        lambda: list(library().encounters.values()),
    ),
    ContentRoute(
        "/tiles",
        "Room tiles",
        "Every room tile face, by number: spaces, edges, exits, walls.",
        RoomTile,
        lambda: sorted(library().tiles.values(), key=lambda t: t.number),
    ),
    ContentRoute(
        "/tiles/{number:int}",
        "One room tile",
        "One room tile face by its printed number (1-16; odd orange, even blue).",
        RoomTile,
        _tile,
        key=("number", int, "Printed tile number"),
        not_found="room tile",
    ),
    ContentRoute(
        "/chapters",
        "Chapters",
        "The chapters' setups.",
        Chapter,
        lambda: list(library().chapters.values()),
    ),
    ContentRoute(
        "/chapters/{chapter_id:str}",
        "One chapter",
        "One chapter's setup: tiles, start space, minions, decks, summons, goal.",
        Chapter,
        lambda chapter_id: library().chapters.get(chapter_id),
        key=("chapter_id", str, "Chapter id"),
        not_found="chapter",
    ),
)
"""The catalogue's endpoints, in the order they are listed."""

CONTENT_ALIASES = ("/content",)
"""Where the catalogue is served besides ``/content/mice-and-mystics`` (release 0.1's paths, deprecated)."""


def check_content(pack: Path | None) -> tuple[list[str], str]:
    """``dicelog content check [--pack DIR]``: the findings of ``content_check.check`` over the shipped
    content (with ``pack``: laid over by that content pack directory) as lines, and a one-line count of
    what was checked. Raises ``OSError`` or ``ValueError`` when the pack cannot be read (the pack's
    files are the only thing read: ``content.library_with_pack``)."""
    lib = library_with_pack(pack) if pack is not None else library()
    findings = [str(finding) for finding in check(lib)]
    counts = f"{len(lib.tiles)} tiles, {len(lib.chapters)} chapters, {len(lib.search_cards)} search cards"
    return findings, counts
