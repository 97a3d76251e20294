"""The content catalogue (docs/mice-and-mystics/facts.md §4-§8): tiles 1-16, the 28 ability cards, the 71
search cards, the 9 + 9 encounter cards; content packs laid over the shipped content; ``dicelog content
check``."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from dicelog.domain.mice_and_mystics.content import library, library_with_pack
from dicelog.domain.mice_and_mystics.content_check import check
from dicelog.service.cli.main import main

PAIRS = {1: 2, 3: 4, 5: 6, 7: 8, 9: 10, 11: 12, 13: 14, 15: 16}


def test_sixteen_tile_faces_paired_odd_orange_even_blue():
    tiles = {t.number: t for t in library().tiles.values()}
    assert sorted(tiles) == list(range(1, 17))
    for odd, even in PAIRS.items():
        assert (tiles[odd].side, tiles[even].side) == ("orange", "blue")
        assert (tiles[odd].reverse, tiles[even].reverse) == (tiles[even].id, tiles[odd].id)


@pytest.mark.parametrize("number", range(7, 17))
def test_tiles_7_to_16_are_provisional_and_say_their_layout_is_drawn_from_section_8(number):
    tile = next(t for t in library().tiles.values() if t.number == number)
    assert tile.provisional and "docs/mice-and-mystics/facts.md §8" in tile.provisional_reason
    assert 12 <= len(tile.spaces) <= 20
    assert all(x.colour == tile.side for x in tile.exits)


def test_special_areas_hold_any_number_and_carry_a_minion_entrance():
    areas = {s.area: s for s in library().spaces.values() if s.area}
    assert sorted(areas) == ["dining-table", "kings-bed", "kitchen-counter", "queens-table"]
    assert all(s.capacity == "unlimited" and s.kind == "minion-entrance" for s in areas.values())


def test_the_pipes_flip_space_is_only_for_a_tinkerer_or_a_scamp():
    pipes = library().tiles["pipes"]
    assert [(s.kind, s.flip_classes) for s in pipes.spaces if s.kind == "flip"] == [
        ("flip", ("tinkerer", "scamp"))
    ]


def test_water_channels_with_west_currents_on_the_sewer_drain_pipe():
    drain = library().tiles["sewer-drain-pipe"]
    assert {s.current for s in drain.spaces if s.water} == {"W"}
    assert any(s.water for s in library().tiles["kings-tunnels"].spaces)


def test_the_28_ability_cards_of_facts_md_section_4():
    abilities = library().abilities
    assert len(abilities) == 28
    assert abilities["first-aid"].classes == ("any",) and abilities["first-aid"].cost == 2
    assert abilities["keen-eye"].classes == ("scamp", "archer")
    assert abilities["meeps"].mice == ("maginos",)
    unknown = [a for a in abilities.values() if a.cost is None or not a.effect]
    assert len(unknown) == 19 and all(a.provisional and a.provisional_reason for a in unknown)
    assert abilities["fortify"].provisional and abilities["cure"].cost is None


def test_the_search_deck_catalogue_counts_71_cards_and_holds_the_chapter_deck():
    cards = library().search_cards
    copies = Counter()
    for card in cards.values():
        copies[card.where] += card.copies
    assert copies["search-deck"] + copies["starting-equipment"] == 71
    assert copies["starting-equipment"] == 6
    deck = library().chapters["chapter-1"].search_deck
    assert all(cards[c].where == "search-deck" for c in deck)
    placeholders = [c for c in cards.values() if c.type == "unknown"]
    assert len(placeholders) == 56 and all(c.provisional for c in placeholders)
    assert cards["bow-of-precision"].requires == ("archer", "scamp")


def test_nine_standard_and_nine_difficult_encounter_cards_all_provisional():
    decks = Counter(e.deck for e in library().encounters.values())
    assert decks == {"standard": 9, "difficult": 9}
    assert all(
        e.provisional and "1-2 / 3-4 / 5+" in e.provisional_reason for e in library().encounters.values()
    )


def test_a_content_pack_overrides_by_id_and_extends_with_new_ids(tmp_path):
    mice = json.loads(library_file("mice.json"))
    mice["mice"] = [
        dict(m, lives=6, provisional=False, provisional_reason="") for m in mice["mice"] if m["id"] == "nez"
    ]
    (tmp_path / "mice.json").write_text(json.dumps(mice))
    new = {
        "id": "shield-bash",
        "name": "Shield Bash",
        "classes": ["warrior"],
        "cost": 1,
        "effect": "A pack card.",
    }
    (tmp_path / "abilities.json").write_text(json.dumps({"abilities": [new]}))
    lib = library_with_pack(tmp_path)
    assert lib.mice["nez"].lives == 6 and lib.mice["filch"].lives == 5
    assert len(lib.abilities) == 29 and lib.abilities["shield-bash"].cost == 1
    assert check(lib) == []
    assert library().mice["nez"].lives == 5  # the shipped content is untouched


def test_a_pack_tile_replaces_the_tile_with_the_same_id_whatever_its_file_name(tmp_path):
    tile = json.loads(library_file("tile-05-guard-room.json"))
    tile["name"] = "Guard Room (fixed)"
    (tmp_path / "tile-guard-room-layout.json").write_text(json.dumps(tile))
    lib = library_with_pack(tmp_path)
    assert lib.tiles["guard-room"].name == "Guard Room (fixed)" and len(lib.tiles) == 16


def test_a_pack_file_with_an_unknown_name_is_refused(tmp_path):
    (tmp_path / "notes.json").write_text("{}")
    with pytest.raises(ValueError, match="notes.json"):
        library_with_pack(tmp_path)


def test_cli_content_check_passes_on_the_shipped_content(capsys):
    assert main(["content", "check"]) == 0
    assert "content ok" in capsys.readouterr().out


def test_cli_content_check_prints_findings_and_fails_on_a_broken_pack(tmp_path, capsys):
    abilities = {"abilities": [{"id": "feint", "name": "Feint", "classes": ["bard"]}]}
    (tmp_path / "abilities.json").write_text(json.dumps(abilities))
    assert main(["content", "check", "--pack", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "ability feint: class bard is no mouse's class [ability.unknown-class]" in out


def test_cli_content_check_fails_on_a_pack_that_does_not_decode(tmp_path, capsys):
    (tmp_path / "mice.json").write_text('{"mice": [{"id": "x"}]}')
    assert (
        main(["content", "check", "--pack", str(tmp_path)]) == 4
    )  # a file of the wrong format (dicelog --help)
    assert "mice.json: Object missing required field `name`" in capsys.readouterr().err


def library_file(name: str) -> str:
    from dicelog.domain.mice_and_mystics import content

    return content._dir().joinpath(name).read_text()
