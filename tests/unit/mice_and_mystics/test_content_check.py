"""The content check (domain/mice_and_mystics/content_check.py): the shipped content has no finding,
and each kind of broken content is named exactly (so the check can fail)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from dicelog.domain.mice_and_mystics.content import Edge, Exit, Library, Wall, index_library, library
from dicelog.domain.mice_and_mystics.content_check import Finding, check

KINDS = ("mice", "minions", "tiles", "chapters", "items", "encounters", "abilities", "search_cards")


def broken(**changed: dict) -> Library:
    """The shipped library with some records replaced (``kind={id: record}``)."""
    records = {kind: {**getattr(library(), kind), **changed.get(kind, {})} for kind in KINDS}
    return index_library(records)


def tile(tile_id: str, **fields):
    return {tile_id: replace(library().tiles[tile_id], **fields)}


def space(tile_id: str, space_id: str, **fields):
    t = library().tiles[tile_id]
    return tile(tile_id, spaces=tuple(replace(s, **fields) if s.id == space_id else s for s in t.spaces))


def findings(lib: Library, prefix: str = "") -> list[Finding]:
    return [f for f in check(lib) if f.rule.startswith(prefix)]


def test_the_shipped_content_has_no_finding():
    assert check(library()) == []


def test_an_edge_to_a_space_that_does_not_exist_is_named():
    guard = library().tiles["guard-room"]
    lib = broken(tiles=tile("guard-room", edges=(*guard.edges, Edge(a="GR-1", b="GR-99"))))
    assert check(lib) == [
        Finding(
            rule="tile.edge-unknown-space",
            where="tile guard-room",
            detail="edge GR-1/GR-99: GR-99 is not a space of this tile",
        )
    ]


def test_a_pair_of_spaces_joined_twice_is_asymmetric_adjacency():
    guard = library().tiles["guard-room"]
    lib = broken(tiles=tile("guard-room", edges=(*guard.edges, Edge(a="GR-2", b="GR-1", line="red"))))
    assert check(lib) == [
        Finding(
            rule="tile.edge-twice", where="tile guard-room", detail="spaces GR-1 and GR-2 are joined 2 times"
        )
    ]


def test_a_yellow_line_must_point_to_one_of_its_spaces():
    edges = tuple(
        replace(e, arrow_to="GR-1") if e.line == "yellow" else e for e in library().tiles["guard-room"].edges
    )
    assert check(broken(tiles=tile("guard-room", edges=edges))) == [
        Finding(
            rule="tile.yellow-arrow",
            where="tile guard-room",
            detail="edge GR-7/GR-8: a yellow line's arrow must point to one of its spaces, not GR-1",
        )
    ]


def test_a_space_no_edge_reaches_is_disconnected():
    edges = tuple(e for e in library().tiles["guard-room"].edges if "GR-16" not in (e.a, e.b))
    assert check(broken(tiles=tile("guard-room", edges=edges))) == [
        Finding(rule="tile.disconnected", where="tile guard-room", detail="GR-16 cannot be reached from GR-1")
    ]


def test_exits_must_be_on_the_sides_facts_md_names():
    exits = tuple(x for x in library().tiles["guard-room"].exits if x.side != "E")
    assert check(broken(tiles=tile("guard-room", exits=exits))) == [
        Finding(
            rule="tile.exit-sides",
            where="tile guard-room",
            detail="exits on W; docs/mice-and-mystics/facts.md §8 has EW",
        )
    ]


def test_an_exit_space_away_from_its_side_is_named():
    exits = (Exit(side="W", colour="orange", spaces=("GR-5", "GR-7")), library().tiles["guard-room"].exits[1])
    assert check(broken(tiles=tile("guard-room", exits=exits))) == [
        Finding(
            rule="tile.exit-off-side",
            where="tile guard-room",
            detail="exit W: space GR-7 is not on the W side",
        )
    ]


def test_minion_entrances_must_be_as_many_as_facts_md_counts():
    assert check(broken(tiles=space("guard-room", "GR-2", kind="normal"))) == [
        Finding(
            rule="tile.minion-entrances",
            where="tile guard-room",
            detail="2 minion entrances; docs/mice-and-mystics/facts.md §8: 3-3",
        )
    ]


def test_the_pipes_flip_space_must_be_for_a_tinkerer_or_a_scamp_only():
    assert check(broken(tiles=space("pipes", "PI-10", flip_classes=()))) == [
        Finding(
            rule="tile.special-flip",
            where="tile pipes",
            detail="no flip space is only for scamp or tinkerer (docs/mice-and-mystics/facts.md §8)",
        )
    ]


def test_a_flip_space_needs_one_on_the_reverse_to_land_on():
    assert check(broken(tiles=space("alchemist", "AL-14", kind="normal"))) == [
        Finding(
            rule="tile.flip-reverse",
            where="tile crystal-tunnels",
            detail="has a flip space but its reverse alchemist has none to land on",
        )
    ]


def test_an_open_wall_outline_is_named():
    walls = (*library().tiles["tunnel-entrance"].walls, Wall(a=(1, 1), b=(1, 2)))
    assert check(broken(tiles=tile("tunnel-entrance", walls=walls))) == [
        Finding(
            rule="tile.wall-open",
            where="tile tunnel-entrance",
            detail="wall outline not closed at [1, 1], [1, 2]",
        )
    ]


def test_walls_outside_the_tile_are_named():
    walls = (Wall(a=(0, 0), b=(9, 0)), Wall(a=(9, 0), b=(0, 0)))
    assert (
        findings(broken(tiles=tile("guard-room", walls=walls)), "tile.wall")
        == [
            Finding(
                rule="tile.wall-outside", where="tile guard-room", detail="wall end [9, 0] is outside 4x4"
            )
        ]
        * 2
    )


def test_a_space_inside_a_black_area_is_named():
    assert check(broken(tiles=space("tunnel-entrance", "TE-8", centre=(2.5, 2.0)))) == [
        Finding(
            rule="tile.space-in-black-area",
            where="tile tunnel-entrance",
            detail="space TE-8 centre [2.5, 2.0] is inside a black area",
        )
    ]


def test_the_two_faces_of_a_board_must_name_each_other():
    lib = broken(tiles=tile("forge", reverse="dining-hall"))
    assert findings(lib, "tile.pairing") == [
        Finding(
            rule="tile.pairing",
            where="tile queens-chamber",
            detail="reverse forge (tile 14) is not this board's other face",
        ),
        Finding(
            rule="tile.pairing",
            where="tile forge",
            detail="reverse dining-hall (tile 7) is not this board's other face",
        ),
    ]


def test_a_chapter_naming_missing_cards_tiles_and_spaces_is_named():
    chapter = library().chapters["chapter-1"]
    lib = broken(
        chapters={
            "chapter-1": replace(
                chapter,
                start_space="GR-7",
                encounter_deck=(*chapter.encounter_deck, "standard-10"),
                search_deck=("dagger", "no-such-card"),
                mice_not_allowed=("lily", "stuart"),
            )
        }
    )
    assert check(lib) == [
        Finding(
            rule="chapter.start-space", where="chapter chapter-1", detail="start space GR-7 is a normal space"
        ),
        Finding(
            rule="chapter.unknown-mouse", where="chapter chapter-1", detail="mouse stuart does not exist"
        ),
        Finding(
            rule="chapter.unknown-encounter",
            where="chapter chapter-1",
            detail="encounter card standard-10 does not exist",
        ),
        Finding(
            rule="chapter.unknown-search-card",
            where="chapter chapter-1",
            detail="search card dagger is not a search-deck card",
        ),
        Finding(
            rule="chapter.unknown-search-card",
            where="chapter chapter-1",
            detail="search card no-such-card is not a search-deck card",
        ),
    ]


def test_a_chapter_minion_group_of_an_unknown_card_and_a_goal_without_its_feature():
    chapter = library().chapters["chapter-1"]
    lib = broken(
        chapters={
            "chapter-1": replace(
                chapter,
                minions=(replace(chapter.minions[0], card="rat-king"),),
                goal=replace(chapter.goal, feature="well"),
            )
        }
    )
    assert check(lib) == [
        Finding(
            rule="chapter.unknown-minion",
            where="chapter chapter-1",
            detail="minion card rat-king does not exist",
        ),
        Finding(
            rule="chapter.goal-feature",
            where="chapter chapter-1",
            detail="goal tile courtyard has no space with feature well",
        ),
    ]


def test_an_ability_for_a_class_no_mouse_has_is_named_and_any_is_allowed():
    abilities = library().abilities
    lib = broken(
        abilities={
            "feint": replace(abilities["feint"], classes=("bard",)),
            "dodge": replace(abilities["dodge"], classes=("any",)),
        }
    )
    assert check(lib) == [
        Finding(rule="ability.unknown-class", where="ability feint", detail="class bard is no mouse's class")
    ]


def test_a_search_card_requirement_must_name_a_class_or_a_mouse():
    cards = library().search_cards
    lib = broken(
        search_cards={"toothpick": replace(cards["toothpick"], requires=("wizard", "tilda", "scamp"))}
    )
    assert check(lib) == [
        Finding(
            rule="search-card.unknown-requirement",
            where="search card toothpick",
            detail="requirement wizard is neither a class nor a mouse",
        )
    ]


def test_a_search_card_must_agree_with_its_equipment_item():
    lib = broken(search_cards={"collins-sword": replace(library().search_cards["collins-sword"], battle=2)})
    assert check(lib) == [
        Finding(
            rule="search-card.equipment-mismatch",
            where="search card collins-sword",
            detail="its stats differ from the equipment item's",
        )
    ]


def test_an_encounter_with_an_unknown_minion_or_a_gap_in_its_pages_is_named():
    card = library().encounters["difficult-1"]
    bands = (card.bands[0], replace(card.bands[1], first=4, minions=(("rat-ogre", 1),)), card.bands[2])
    assert check(broken(encounters={"difficult-1": replace(card, bands=bands)})) == [
        Finding(
            rule="encounter.unknown-minion",
            where="encounter difficult-1",
            detail="minion card rat-ogre does not exist",
        ),
        Finding(
            rule="encounter.bands", where="encounter difficult-1", detail="band 4-4 does not start at page 3"
        ),
    ]


def test_a_provisional_record_must_say_why():
    lib = broken(
        mice={"filch": replace(library().mice["filch"], provisional_reason="")},
        minions={"spider": replace(library().minions["spider"], provisional=False)},
    )
    assert findings(lib, "provisional") == [
        Finding(
            rule="provisional.reason-missing", where="mouse filch", detail="provisional without a reason"
        ),
        Finding(
            rule="provisional.reason-without-flag",
            where="minion spider",
            detail="a reason but not provisional",
        ),
    ]


def test_a_room_rule_this_release_does_not_play_is_named__rulebook_capitolo_1_regole_speciali():
    """Room rules run by the ids the chapter data names (``room_rules.REGISTRY``): a pack naming another
    is reported, and the shipped chapter's five are all registered."""
    from dicelog.domain.mice_and_mystics.content import RoomRule
    from dicelog.domain.mice_and_mystics.rules.room_rules import REGISTRY

    chapter = library().chapters["chapter-1"]
    assert {r.rule for r in chapter.room_rules} <= set(REGISTRY)
    rules = (*chapter.room_rules, RoomRule(tile="kitchen", rule="flood"))
    lib = broken(chapters={"chapter-1": replace(chapter, room_rules=rules)})
    found = findings(lib, "chapter.unknown-room")
    assert [(f.where, f.detail.split(" (")[0]) for f in found] == [
        ("chapter chapter-1", "room rule flood is not one this release plays")
    ]


def _edge(tile_id: str, index: int, **fields):
    edges = library().tiles[tile_id].edges
    return tile(tile_id, edges=tuple(replace(e, **fields) if i == index else e for i, e in enumerate(edges)))


def _exit(tile_id: str, side: str, **fields):
    exits = library().tiles[tile_id].exits
    return tile(tile_id, exits=tuple(replace(x, **fields) if x.side == side else x for x in exits))


def _chapter(**fields):
    return {"chapter-1": replace(library().chapters["chapter-1"], **fields)}


def _placed(*placements):
    return _chapter(tiles=(*library().chapters["chapter-1"].tiles, *placements))


# Each case: one defect in the shipped content, the rule id prefix its findings are read under (other rules
# may also fire on the same defect: a space renamed also leaves its edges dangling), and every finding under
# it ("": every finding of the whole check).
TILE_CASES = {
    "a space listed twice": (
        lambda: broken(
            tiles=tile(
                "guard-room",
                spaces=(*library().tiles["guard-room"].spaces[:1],) * 2
                + library().tiles["guard-room"].spaces[1:],
            )
        ),
        "tile.",
        [
            ("tile.duplicate-space", "tile guard-room", "space GR-1 is listed 2 times"),
            ("tile.space-on-two-tiles", "tiles", "space GR-1 is on 2 tiles"),
        ],
    ),
    "a space id without its tile code": (
        lambda: broken(tiles=space("guard-room", "GR-16", id="XX-16")),
        "tile.space-id",
        [("tile.space-id", "tile guard-room", "space XX-16 does not start with the tile code GR-")],
    ),
    "a space centre outside the tile": (
        lambda: broken(tiles=space("guard-room", "GR-1", centre=(4.5, 0.5))),
        "tile.centre",
        [("tile.centre-outside", "tile guard-room", "space GR-1 centre [4.5, 0.5] is outside 4x4")],
    ),
    "a flip requirement on a space that is no flip space": (
        lambda: broken(tiles=space("guard-room", "GR-1", flip_classes=("scamp",))),
        "",
        [
            (
                "tile.flip-requirement",
                "tile guard-room",
                "space GR-1 is not a flip space but has a flip requirement",
            )
        ],
    ),
    "a current without water": (
        lambda: broken(tiles=space("guard-room", "GR-1", current="W")),
        "",
        [("tile.current-without-water", "tile guard-room", "space GR-1 has a current but no water")],
    ),
    "a special area of limited capacity": (
        lambda: broken(tiles=space("guard-room", "GR-1", area="guard-table")),
        "",
        [
            (
                "tile.area-capacity",
                "tile guard-room",
                "space GR-1 is in special area guard-table but its capacity is standard",
            )
        ],
    ),
    "an edge from a space to itself": (
        lambda: broken(tiles=_edge("guard-room", 0, b="GR-1")),
        "tile.edge-loop",
        [("tile.edge-loop", "tile guard-room", "edge GR-1/GR-1 joins a space to itself")],
    ),
    "an arrow on a line that is not yellow": (
        lambda: broken(tiles=_edge("guard-room", 0, arrow_to="GR-2")),
        "",
        [("tile.arrow-without-yellow", "tile guard-room", "edge GR-1/GR-2: only a yellow line has an arrow")],
    ),
    "a tile without spaces": (
        lambda: broken(tiles=tile("guard-room", spaces=(), edges=())),
        "tile.disconnected",
        [("tile.disconnected", "tile guard-room", "the tile has no spaces")],
    ),
    "an exit of the other side's colour": (
        lambda: broken(tiles=_exit("guard-room", "W", colour="blue")),
        "",
        [("tile.exit-colour", "tile guard-room", "exit W is blue on the orange side")],
    ),
    "an exit with no space next to it": (
        lambda: broken(tiles=_exit("guard-room", "W", spaces=())),
        "",
        [("tile.exit-empty", "tile guard-room", "exit W has no spaces next to it")],
    ),
    "an exit next to a space of no tile": (
        lambda: broken(tiles=_exit("guard-room", "W", spaces=("GR-5", "GR-99"))),
        "",
        [("tile.exit-unknown-space", "tile guard-room", "exit W: GR-99 is not a space of this tile")],
    ),
    "a mousetrap too few": (
        lambda: broken(tiles=space("tunnel-entrance", "TE-7", kind="normal")),
        "",
        [
            (
                "tile.mousetraps",
                "tile tunnel-entrance",
                "1 mousetrap spaces; docs/mice-and-mystics/facts.md §8: 2",
            )
        ],
    ),
    "a water channel against its current": (
        lambda: broken(tiles=space("sewer", "SW-6", current="E")),
        "",
        [
            (
                "tile.water",
                "tile sewer",
                "docs/mice-and-mystics/facts.md §8 has a water channel with a W current",
            )
        ],
    ),
    "a water channel gone": (
        lambda: broken(
            tiles=tile(
                "kings-tunnels",
                spaces=tuple(
                    replace(s, water=False, current=None) for s in library().tiles["kings-tunnels"].spaces
                ),
            )
        ),
        "",
        [("tile.water", "tile kings-tunnels", "docs/mice-and-mystics/facts.md §8 has a water channel")],
    ),
    "the sewer's flip space without the fishhook": (
        lambda: broken(tiles=space("sewer", "SW-8", flip_requires=None)),
        "",
        [
            (
                "tile.special-flip",
                "tile sewer",
                "no flip space needs fishhook-and-thread (docs/mice-and-mystics/facts.md §8)",
            )
        ],
    ),
    "a wall of no length": (
        lambda: broken(tiles=tile("guard-room", walls=(Wall(a=(1, 1), b=(1, 1)),))),
        "",
        [("tile.wall-degenerate", "tile guard-room", "wall [1, 1]-[1, 1] has no length")],
    ),
    "two tiles of one code": (
        lambda: broken(tiles=tile("guard-room", code="TE")),
        "tile.duplicate",
        [("tile.duplicate-code", "tiles", "code TE is used by 2 tiles")],
    ),
    "two tiles of one number": (
        lambda: broken(tiles=tile("guard-room", number=1)),
        "tile.duplicate",
        [("tile.duplicate-number", "tiles", "number 1 is used by 2 tiles")],
    ),
    "an odd tile on the blue side": (
        lambda: broken(tiles=tile("guard-room", side="blue")),
        "tile.side",
        [("tile.side", "tile guard-room", "tile 5 is blue; odd numbers are orange, even blue")],
    ),
    "a reverse that is no tile": (
        lambda: broken(tiles=tile("guard-room", reverse="attic")),
        "tile.reverse",
        [("tile.reverse-unknown", "tile guard-room", "reverse attic is not a tile")],
    ),
    "a flip space needing a card that does not exist": (
        lambda: broken(tiles=space("sewer", "SW-8", flip_requires="fishing-rod")),
        "tile.flip-requires",
        [("tile.flip-requires-unknown", "tile sewer", "flip space SW-8 needs fishing-rod, no card")],
    ),
    "a flip space for a class no mouse has": (
        lambda: broken(tiles=space("pipes", "PI-10", flip_classes=("scamp", "bard"))),
        "tile.flip-class",
        [("tile.flip-class-unknown", "tile pipes", "flip space PI-10: bard is no class")],
    ),
}


CHAPTER_CASES = {
    "a tile that does not exist": (
        lambda: broken(
            chapters=_placed(replace(library().chapters["chapter-1"].tiles[0], tile="attic", column=5))
        ),
        [("chapter.unknown-tile", "tile attic does not exist")],
    ),
    "a board placed twice": (
        lambda: broken(
            chapters=_placed(replace(library().chapters["chapter-1"].tiles[0], tile="sewer", column=5))
        ),
        [("chapter.board-twice", "board guard-room/sewer is placed 2 times")],
    ),
    "two tiles at one place": (
        lambda: broken(chapters=_placed(replace(library().chapters["chapter-1"].tiles[0], tile="pipes"))),
        [("chapter.tiles-overlap", "2 tiles at column 0, row 0")],
    ),
    "a start space on a tile not placed": (
        lambda: broken(chapters=_chapter(start_space="CY-5")),
        [("chapter.start-space", "start space CY-5 is not a space of a placed tile")],
    ),
    "a start space of no tile": (
        lambda: broken(chapters=_chapter(start_space="GR-99")),
        [("chapter.start-space", "start space GR-99 is not a space of a placed tile")],
    ),
    "a party larger than the mice allowed": (
        lambda: broken(chapters=_chapter(party_size=6, mice_not_allowed=("lily",))),
        [("chapter.party-size", "a party of 6 needs more mice than are allowed")],
    ),
    "minions on a tile not placed": (
        lambda: broken(
            chapters=_chapter(
                minions=(replace(library().chapters["chapter-1"].minions[0], tile="courtyard"),)
            )
        ),
        [("chapter.minions-off-table", "rat-warriors are placed on courtyard, which is not placed")],
    ),
    "a summon of an unknown card for a tile off the table": (
        lambda: broken(
            chapters=_chapter(
                summons=(replace(library().chapters["chapter-1"].summons[0], card="rat-king", tile="pipes"),)
            )
        ),
        [
            ("chapter.unknown-minion", "summon card rat-king does not exist"),
            ("chapter.summon-off-table", "the summon for pipes is for a tile not on the table"),
        ],
    ),
    "a goal on a tile off the table": (
        lambda: broken(chapters=_chapter(goal=replace(library().chapters["chapter-1"].goal, tile="pipes"))),
        [("chapter.goal-tile", "goal tile pipes is not on the table")],
    ),
    "a special search off the table, of no card, for no class": (
        lambda: broken(
            chapters=_chapter(
                special_searches=(
                    replace(
                        library().chapters["chapter-1"].special_searches[0],
                        tile="pipes",
                        item="crown",
                        classes=("bard",),
                    ),
                )
            )
        ),
        [
            ("chapter.special-search-off-table", "special search in pipes, not on the table"),
            ("chapter.unknown-search-card", "special search item crown is no search card"),
            ("chapter.unknown-class", "special search class bard is no mouse's class"),
        ],
    ),
    "a story for a tile off the table": (
        lambda: broken(
            chapters=_chapter(
                read_aloud=(replace(library().chapters["chapter-1"].read_aloud[0], tile="pipes"),)
            )
        ),
        [("chapter.room-off-table", "a room rule or story names pipes, not on the table")],
    ),
    "the hourglass page not before the end marker": (
        lambda: broken(chapters=_chapter(hourglass_page=6, end_marker_page=6)),
        [("chapter.pages", "hourglass page 6 is not before the end marker")],
    ),
}


@pytest.mark.parametrize("case", TILE_CASES)
def test_each_tile_defect_is_named_exactly(case):
    make, prefix, expected = TILE_CASES[case]
    assert findings(make(), prefix) == [Finding(rule=r, where=w, detail=d) for r, w, d in expected]


@pytest.mark.parametrize("case", CHAPTER_CASES)
def test_each_chapter_defect_is_named_exactly(case):
    make, expected = CHAPTER_CASES[case]
    assert check(make()) == [Finding(rule=r, where="chapter chapter-1", detail=d) for r, d in expected]


def test_mice_and_abilities_naming_what_does_not_exist_are_named():
    abilities = library().abilities
    lib = broken(
        mice={"filch": replace(library().mice["filch"], starting_equipment=("dagger", "sling"))},
        abilities={
            "feint": replace(abilities["feint"], classes=()),
            "dodge": replace(abilities["dodge"], mice=("stuart",)),
        },
    )
    assert check(lib) == [
        Finding(
            rule="mouse.unknown-equipment",
            where="mouse filch",
            detail="starting equipment sling is not an item",
        ),
        Finding(rule="ability.unknown-mouse", where="ability dodge", detail="mouse stuart does not exist"),
        Finding(rule="ability.no-class", where="ability feint", detail="names no class (use any)"),
    ]


def test_a_finding_reads_as_where_detail_and_rule():
    finding = Finding(
        rule="tile.edge-loop", where="tile guard-room", detail="edge GR-1/GR-1 joins a space to itself"
    )
    assert str(finding) == "tile guard-room: edge GR-1/GR-1 joins a space to itself [tile.edge-loop]"
