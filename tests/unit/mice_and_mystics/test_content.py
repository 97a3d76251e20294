"""Content is data (docs/architecture.md, Content is data; docs/conventions.md, rule 7): every file decodes,
strictly."""

import msgspec
import pytest

from dicelog.domain.mice_and_mystics import content
from dicelog.domain.mice_and_mystics.content import decode_tile, decoder_for, library


@pytest.mark.parametrize("name", content.content_files())
def test_every_content_file_decodes_with_forbid_unknown_fields(name):
    raw = content._dir().joinpath(name).read_bytes()
    assert decoder_for(name)(raw)


def test_unknown_fields_in_a_tile_are_refused():
    raw = content._dir().joinpath("tile-05-guard-room.json").read_bytes()
    bad = raw.replace(b'"code": "GR"', b'"code": "GR", "colour": "red"')
    with pytest.raises(msgspec.ValidationError):
        decode_tile(bad)


def test_the_six_mice_have_facts_md_stats_and_provisional_lives():
    mice = library().mice
    assert sorted(mice) == ["collin", "filch", "lily", "maginos", "nez", "tilda"]
    filch = mice["filch"]
    assert (filch.battle, filch.defense, filch.lore, filch.move) == (2, 2, 1, 3)
    assert all(m.lives == 5 and m.provisional and "lives" in m.provisional_reason for m in mice.values())


def test_rat_warriors_card_is_complete():
    rats = library().minions["rat-warriors"]
    assert (rats.battle, rats.defense, rats.lives, rats.attack, rats.size) == (2, 2, 1, "melee", "small")
    assert rats.abilities == ("aggressive",)


def test_chapter_1_tiles_are_space_graphs_with_valid_edges_and_exits():
    lib = library()
    for tile in lib.tiles.values():
        ids = {s.id for s in tile.spaces}
        assert 12 <= len(ids) <= 20, tile.id
        assert all(s.startswith(tile.code + "-") for s in ids)
        assert all(e.a in ids and e.b in ids for e in tile.edges)
        assert all(e.arrow_to in (e.a, e.b) for e in tile.edges if e.line == "yellow")
        assert all(set(x.spaces) <= ids for x in tile.exits)
        assert tile.provisional and tile.provisional_reason
        assert lib.tiles[tile.reverse].reverse == tile.id


def test_chapter_1_data_matches_facts_md_section_7():
    chapter = library().chapters["chapter-1"]
    assert [t.tile for t in chapter.tiles] == ["guard-room", "kitchen-tunnels", "tunnel-entrance"]
    assert (chapter.hourglass_page, chapter.end_marker_page, chapter.party_size) == (1, 6, 4)
    assert chapter.mice_not_allowed == ("lily",)
    assert len(chapter.minions) == 1 and chapter.minions[0].count == 3
    assert library().space_tile[chapter.start_space] == "guard-room"
