"""docs/vast/facts.md §7 Variant cards, Goblin Infestation line C: a drawn Monster ambushes the Knight with
its Ambush STR and, when it hurts her, its Ambush text (docs/vast/facts.md §3 Monster cards); the Knight vs
Thief setup and the Knight's solo Hard level that play it (docs/vast/facts.md §7 Setup by player count,
Solo)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import DecisionRequested, DrawRequested, RollRequested
from dicelog.domain.core.visibility import Viewer
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.rules.flow import ambush, check_win
from dicelog.domain.vast.rules.goblins import built_monsters
from dicelog.domain.vast.ruleset import RULESET
from dicelog.domain.vast.state import KnightRole, ThiefRole
from dicelog.domain.vast.visibility import view_event
from tests.rulesets.vast.support import Play, dark, lit, refused, table
from tests.rulesets.vast.test_alone_in_the_dark import created

THIEF = Viewer(kind="seat", seat="rogue", pieces=frozenset({"thief"}))
KNIGHT = Viewer(kind="seat", seat="sir", pieces=frozenset({"knight"}))
WEAK = {"movement": 2}
"""Placed cubes that leave her none free: Strength 1, no cube to add."""


def line_c(knight: KnightRole | None = None, *cells, **kw) -> Play:
    """A Knight vs Thief table in play with line C's Monster deck (the Thief off the map)."""
    fields = {
        "roles": ("knight", "thief"),
        "cave": None,
        "thief": ThiefRole(),
        "variants": ("infestation:C", "flare:thief", "crystals:5"),
        "monster_deck": built_monsters(5),
        "rules_revision": 5,
    }
    return Play(table(*cells, knight=knight or KnightRole(placed=WEAK), **(fields | kw)))


def sprung(p: Play, monster: str) -> Play:
    p._take(ambush(p.state))
    assert isinstance(p.pending, DrawRequested) and p.pending.deck == "infestation"
    p.draw(monster)
    return p


def test_the_ambush_draws_a_monster_in_public__vf_7_goblin_infestation_line_c():
    p = line_c()
    p._take(ambush(p.state))
    draw = p.pending
    assert isinstance(draw, DrawRequested)
    assert draw.deck == "infestation" and draw.piece == "knight" and len(draw.cards) == 10
    p.draw("pet-frog")
    drawn = p.events[-len(p.events) :]
    assert p.state.ambusher == ""  # resolved and set aside
    shown = [view_event(e, THIEF) for e in drawn]
    assert any(getattr(e, "cards", None) == ("pet-frog",) for e in shown)  # every reader sees the Monster
    resolved = p.of(ev.VastAmbushResolved)[-1]
    assert resolved.monster == "pet-frog" and resolved.ambusher == 2 and resolved.hurt
    assert p.state.monster_discard == ("pet-frog",) and "pet-frog" not in p.state.monster_deck


def test_stronger_she_holds_and_the_monster_is_discarded__vf_7_goblin_infestation_line_c():
    p = sprung(line_c(KnightRole(placed={"strength": 3})), "blob")  # Strength 4 > 3
    resolved = p.of(ev.VastAmbushResolved)[-1]
    assert not resolved.hurt and resolved.ambusher == 3
    assert not p.of(ev.GritChanged)  # no text without a hurt
    assert p.state.monster_discard == ("blob",)


def test_she_puts_cubes_on_strength_knowing_the_monster__rulebook_imboscata_vf_7_line_c():
    p = sprung(line_c(KnightRole(grit=5)), "flame-giant")  # 3 cubes free, Strength 1 against 4
    assert isinstance(p.pending, DecisionRequested) and p.pending.decision == "ambush-cubes"
    assert p.pending.options == ("0", "1", "2", "3") and p.pending.default == "0"  # 4 needed, 3 free
    p.choose("3")  # Strength 4 = 4: the Dragon die
    assert isinstance(p.pending, RollRequested) and p.pending.reason == "ambush"
    p.roll(2)  # no center hit
    assert not p.of(ev.VastAmbushResolved)[-1].hurt and p.state.knight.health == 7


def test_equal_strength_and_a_center_hit_apply_the_text__vf_7_goblin_infestation():
    p = sprung(line_c(KnightRole(placed={"strength": 2, "movement": 2}, grit=17)), "blob")  # 3 = 3
    p.roll(1)  # center hit
    assert p.of(ev.VastAmbushResolved)[-1].hurt
    assert p.state.knight.health == 6
    grit = p.of(ev.GritChanged)[-1]
    assert grit.delta == -5 and grit.why == "blob" and p.state.knight.grit == 12


def test_blob_she_loses_5_grit__vf_3_monster_cards_ambush_text():
    p = sprung(line_c(KnightRole(placed={"movement": 3}, grit=10)), "blob")  # 3 cubes, all placed
    assert p.state.knight.health == 6 and p.state.knight.grit == 5


def test_flame_giant_costs_one_more_health_at_strength_3_or_less__vf_3_monster_cards():
    p = sprung(line_c(), "flame-giant")
    assert p.state.knight.health == 5
    assert [e.why for e in p.of(ev.HealthChanged)] == ["ambush", "flame-giant"]


def test_gnome_discards_a_random_treasure_card__vf_3_monster_cards():
    knight = KnightRole(placed=WEAK, treasures=("elven-sword", "javelin"))
    p = sprung(line_c(knight), "gnome")
    draw = p.pending
    assert isinstance(draw, DrawRequested) and draw.deck == "knight-treasures" and draw.reason == "gnome"
    p.draw("javelin")
    discarded = p.of(ev.TreasureCardDiscarded)[-1]
    assert discarded.card == "javelin" and discarded.hidden
    assert p.state.knight.treasures == ("elven-sword",) and p.state.treasure_bottom[-1] == "javelin"
    assert view_event(discarded, THIEF).card != "javelin" and view_event(discarded, KNIGHT).card == "javelin"
    assert p.state.monster_discard == ("gnome",)


def test_gnome_with_no_treasure_card_does_nothing_more__vf_3_monster_cards():
    p = sprung(line_c(), "gnome")
    assert p.pending is None and not p.of(ev.TreasureCardDiscarded)


def test_golem_goes_on_her_board_and_a_wall_then_takes_2_map_cubes__vf_3_monster_cards():
    wall = lit(1, 0, "crystal-04", rotation=3)  # its W wall faces the Entrance
    p = sprung(line_c(KnightRole(placed=WEAK), wall), "golem")
    assert p.state.infestation_aside == ("golem",) and "golem" not in p.state.monster_discard
    state = replace(p.state, knight=KnightRole(placed={"map": 1}))
    assert refused(state, cmd.MoveKnight(x=1, y=0)) == "vast.move.wall"
    crossed = Play(replace(p.state, knight=KnightRole(placed={"map": 2})))
    crossed.do(cmd.MoveKnight(x=1, y=0))
    assert crossed.of(ev.KnightMoved)[-1].through_wall


def test_a_golem_that_did_not_hurt_her_is_discarded__vf_3_monster_cards():
    p = sprung(line_c(KnightRole(placed={"strength": 3})), "golem")
    assert p.state.infestation_aside == () and p.state.monster_discard == ("golem",)


def test_bright_beetles_wait_and_give_the_next_monster_plus_1__vf_3_monster_cards():
    p = sprung(line_c(KnightRole(placed={"strength": 2, "movement": 2}, grit=17)), "bright-beetles")
    p.roll(3)  # Strength 3 = 3, center hit: hurt
    assert p.state.infestation_aside == ("bright-beetles",)
    assert "bright-beetles" not in p.state.monster_deck
    sprung(p, "pet-frog")  # 2 + 1 = 3 against her 3
    assert isinstance(p.pending, RollRequested)
    p.roll(2)
    assert p.of(ev.VastAmbushResolved)[-1].ambusher == 3
    assert p.state.infestation_aside == ()
    assert p.state.monster_discard == ("bright-beetles", "pet-frog")


def test_ogre_and_troll_strike_with_4_and_their_texts_are_provisional__vf_3_monster_cards():
    for monster in ("ogre", "troll"):
        p = sprung(line_c(), monster)
        resolved = p.of(ev.VastAmbushResolved)[-1]
        assert resolved.ambusher == 4 and resolved.hurt
        assert p.state.knight.health == 6 and (p.state.knight.x, p.state.knight.y) == (0, 0)
        assert p.state.monster_discard == (monster,)


def test_wisp_has_no_ambush_strength__vf_3_monster_cards_provisional():
    p = sprung(line_c(), "wisp")
    assert not p.of(ev.VastAmbushResolved)[-1].hurt and p.state.knight.health == 7


def test_underworm_moves_her_diagonally_onto_a_dark_tile_and_reveals_it__vf_3_monster_cards():
    p = sprung(line_c(KnightRole(placed=WEAK), dark(1, 1, "treasure-room-01")), "underworm")
    assert isinstance(p.pending, DecisionRequested) and p.pending.decision == "underworm"
    assert p.pending.options == ("1,1",)
    p.choose("1,1")
    p.settle()
    moved = p.of(ev.KnightMoved)[-1]
    assert (moved.x, moved.y, moved.forced, moved.why) == (1, 1, True, "underworm")
    assert p.state.knight.moves == 0  # no Movement spent
    assert any(e.x == 1 and e.y == 1 for e in p.of(ev.TileRevealed))


def test_underworm_places_a_dark_tile_when_none_is_diagonal__vf_3_monster_cards():
    p = sprung(line_c(), "underworm")  # the sealed Entrance: its four diagonals are empty
    assert isinstance(p.pending, DecisionRequested) and p.pending.decision == "underworm-place"
    p.choose("-1,-1")
    assert isinstance(p.pending, DrawRequested) and p.pending.deck == "tiles"
    p.draw(p.pending.cards[0])
    p.settle()
    placed = p.of(ev.DarkTilePlaced)[0]
    assert (placed.x, placed.y) == (-1, -1)
    assert (p.state.knight.x, p.state.knight.y) == (-1, -1)
    assert any(e.x == -1 and e.y == -1 for e in p.of(ev.TileRevealed))


def test_underworm_with_no_tile_left_to_place_does_nothing_more__vf_3_monster_cards():
    p = line_c(stack=(), crystals=(), piles=(0,), pile_crystals=(0,))
    sprung(p, "underworm")
    assert p.pending is None and not p.of(ev.KnightMoved)
    assert p.state.knight.health == 6 and p.state.monster_discard == ("underworm",)


def test_the_discards_are_shuffled_back_when_the_deck_is_empty__rulebook_3_vf_7_line_c():
    p = line_c(KnightRole(placed={"strength": 3}), monster_deck=(), monster_discard=("blob", "wisp"))
    p._take(ambush(p.state))
    assert isinstance(p.pending, DrawRequested) and p.pending.reason == "infestation-reshuffled"
    assert p.pending.cards == ("blob", "wisp")
    p.draw("wisp")
    assert p.state.monster_deck == ("blob",) and p.state.monster_discard == ("wisp",)


def test_an_ambush_kill_wins_for_the_thief__vf_7_knight_vs_thief():
    p = sprung(line_c(KnightRole(placed=WEAK, health=1)), "pet-frog")
    assert check_win(p.state) == [ev.GameWon(winner="thief", reason="the Knight died in an Ambush")]


@pytest.mark.parametrize("agreed", [5, 6])
def test_both_race_to_the_number_agreed__vf_7_knight_vs_thief(agreed):
    state = line_c().state
    state = replace(state, variants=("infestation:C", "flare:thief", f"crystals:{agreed}"))
    short = replace(state, knight=KnightRole(smashed=agreed - 1), thief=ThiefRole(stashed=agreed - 1))
    assert check_win(short) == []
    assert check_win(replace(state, knight=KnightRole(smashed=agreed)))[0].winner == "knight"
    thief = check_win(replace(state, thief=ThiefRole(stashed=agreed)))[0]
    assert thief.winner == "thief" and str(agreed) in thief.reason


def test_knight_vs_thief_seats_line_c_flare_and_the_crystals_agreed__vf_7_setup_by_player_count():
    state = RULESET.initial_state(created({"setup": "knight-vs-thief", "crystals": 6}, 5))
    assert state.roles == ("knight", "thief") and len(state.monster_deck) == 10
    p = Play(state)
    p.do(cmd.Begin())
    seated = p.of(ev.RolesSeated)[0]
    assert seated.setup == "knight-vs-thief"
    assert seated.variants == ("infestation:C", "flare:thief", "crystals:6")
    default = RULESET.initial_state(created({"roles": ["thief", "knight"]}, 5))
    assert default.setup_row == "knight-vs-thief" and default.variants == ()  # Begin seats crystals:5


def test_the_knights_solo_hard_level_plays_line_c__vf_7_solo():
    state = RULESET.initial_state(created({"setup": "knight-solo-hard"}, 5))
    p = Play(state)
    p.do(cmd.Begin())
    assert set(p.of(ev.RolesSeated)[0].variants) == {"alone-in-the-dark", "infestation:C"}
    assert len(state.monster_deck) == 10


@pytest.mark.parametrize(
    "document,revision,detail",
    [
        ({"setup": "knight-vs-thief"}, 4, "revision 5"),
        ({"setup": "knight-solo-hard"}, 4, "revision 5"),
        ({"setup": "knight-vs-cave", "crystals": 6}, 5, "only in Knight vs Thief"),
        ({"setup": "knight-vs-thief", "crystals": 7}, 5, "<= 6"),
    ],
)
def test_line_c_rows_need_revision_5_and_crystals_5_or_6__vf_7(document, revision, detail):
    with pytest.raises(RuleBroken) as refused_:
        RULESET.initial_state(created(document, revision))
    assert refused_.value.rule == "setup.invalid" and detail in str(refused_.value.detail)
