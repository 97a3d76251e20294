"""The Knight's equipment, Treasures, Sidequests and Flare refuse what the rulebook does not allow, naming the
rule, with nothing stored (Vast rulebook, Il Cavaliere: Cubetti Eroe, Equipaggiamento, Tesori, Missioni
Secondarie, Consigli Rapidi; docs/vast/facts.md §7 Variant cards). Knight vs Cave tables unless said."""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.state import GoblinsRole, KnightRole
from tests.rulesets.vast.support import Play, goblin_table, lit, refused, table, tribes

OPEN = "treasure-room-01"


def test_the_bow_takes_no_cube_with_no_goblins_in_play__rulebook_il_cavaliere_equipaggiamento():
    """Vast rulebook, Il Cavaliere, Equipaggiamento, Arco: the Bow shoots Goblin Tribes; in Knight vs Cave
    none are in play, so a Hero cube on it is refused (``vast.cube.no-use``)."""
    assert refused(table(), cmd.PlaceHeroCube(target="bow")) == "vast.cube.no-use"


def test_a_cube_goes_only_on_a_treasure_she_holds__rulebook_il_cavaliere_cubetti_eroe():
    """Vast rulebook, Il Cavaliere, Cubetti Eroe: a cube goes on a stat, her equipment or a Treasure card of
    hers; a Treasure she does not hold is refused (``vast.cube.unknown-target``)."""
    state = table(knight=KnightRole(treasures=("heroic-boots",)))
    assert refused(state, cmd.PlaceHeroCube(target="elven-sword")) == "vast.cube.unknown-target"


def test_the_potion_kit_never_takes_one_of_her_last_two_cubes__rulebook_consigli_rapidi_il_cavaliere():
    """Vast rulebook, Tesori, Kit di Pozioni: its cube is discarded with the card; Consigli Rapidi, Il
    Cavaliere: she never discards her last 2 Hero cubes, so with only 2 the Kit is refused
    (``vast.cube.last-two``); with a third (Grit 5, Coraggio) it heals her 2 and the cube is gone."""
    two = table(knight=KnightRole(treasures=("potion-kit",), health=3))
    assert refused(two, cmd.PlaceHeroCube(target="potion-kit")) == "vast.cube.last-two"
    p = Play(replace(two, knight=replace(two.knight, grit=5)))
    p.do(cmd.PlaceHeroCube(target="potion-kit"))
    assert ev.TreasureUsed(card="potion-kit", heal=2) in p.events and p.of(ev.HeroCubeDiscarded)


def test_a_sidequest_not_in_her_hand_cannot_be_completed__rulebook_il_cavaliere_missioni_secondarie():
    """Vast rulebook, Il Cavaliere, Missioni Secondarie: she reveals a Sidequest from her hand; one she does
    not hold is refused (``vast.sidequest.not-in-hand``)."""
    state = table(knight=KnightRole(sidequests=("swift",)))
    assert refused(state, cmd.CompleteSidequest(card="daring")) == "vast.sidequest.not-in-hand"


def test_the_bomb_needs_a_token_left__rulebook_il_cavaliere_equipaggiamento_bomba():
    """Vast rulebook, Il Cavaliere, Equipaggiamento, Bomba: with the Bomb's cube placed but every Bomb token
    spent, the Bomb is refused (``vast.bomb.no-token``)."""
    state = table(knight=KnightRole(placed={"bomb": 1}, bombs=0))
    assert refused(state, cmd.UseBomb(side="E")) == "vast.bomb.no-token"


def test_the_bow_hits_only_a_tribe_on_the_map__rulebook_il_cavaliere_equipaggiamento_arco():
    """Vast rulebook, Il Cavaliere, Equipaggiamento, Arco: a revealed Tribe at any range; a hidden Tribe is
    refused (``vast.bow.not-visible``)."""
    gob = GoblinsRole(phase="", tribes=tribes(fangs={"population": 2}))
    state = goblin_table(lit(1, 0, OPEN), gob=gob, turn="knight", knight=KnightRole(placed={"bow": 1}))
    assert refused(state, cmd.UseBow(tribe="fangs")) == "vast.bow.not-visible"


def test_flare_is_aimed_at_a_tile_of_the_map__docs_vast_facts_variant_cards():
    """Flare (docs/vast/facts.md §7 Variant cards; Vast rulebook, Consigli Rapidi - Varianti): any tile of the
    map; a space with no tile is refused (``vast.flare.no-tile``)."""
    state = table(variants=("flare:knight",))
    assert refused(state, cmd.UseFlare(x=9, y=9)) == "vast.flare.no-tile"
