"""Personal achievements (MM rulebook (it), Conquiste Personali, back page; docs/mice-and-mystics/facts.md
appendix)."""

from dicelog.domain.mice_and_mystics.commands import Battle
from dicelog.domain.mice_and_mystics.events import (
    AchievementEarned,
    AttackRolled,
    CheeseGained,
    EndMarkerMoved,
    FigurePlaced,
    HourglassAdvanced,
    MouseCaptured,
    MouseReleased,
    MouseWounded,
    RoachDefeatedCounted,
    RoachesTurnedGreedy,
)
from dicelog.domain.mice_and_mystics.rules.abilities import is_greedy
from dicelog.domain.mice_and_mystics.rules.achievements import on_defeat
from dicelog.domain.mice_and_mystics.rules.combat import wound_mouse
from tests.unit.mice_and_mystics.scenario import act, chapter_1_table, roll

TRACK = ("collin", "filch", "tilda", "maginos", "rat-warriors")


def test_cheese_master_first_to_roll_three_cheese_moves_the_end_marker__rulebook_conquiste_personali():
    state = chapter_1_table(track=TRACK)
    _, state = act(state, Battle(mouse="collin", target="rat-warriors-1"))
    assert state.awaiting == "battle"
    events, state = roll(state, 1, 1, 1)
    assert events[:4] == [
        AttackRolled(attacker="collin", target="rat-warriors-1", hits=0, cheese=3),
        CheeseGained(mouse="collin", count=3, reason="attack"),
        AchievementEarned(mouse="collin", achievement="cheese-master"),
        EndMarkerMoved(page=7, reason="cheese-master"),
    ]
    assert state.achievements == {"cheese-master": "collin"} and state.end_marker_page == 7


def test_roach_master_after_four_roaches_in_one_encounter__rulebook_conquiste_personali():
    state = chapter_1_table(*(RoachDefeatedCounted(mouse="filch") for _ in range(3)))
    assert on_defeat(state, "filch", "roaches-4", "roaches") == [
        RoachDefeatedCounted(mouse="filch"),
        AchievementEarned(mouse="filch", achievement="roach-master"),
        EndMarkerMoved(page=7, reason="roach-master"),
    ]


def test_poison_master_captured_with_a_poison_wound_then_takes_normal_wounds__rulebook_conquiste_personali():
    state = chapter_1_table(MouseWounded(mouse="filch", wounds=4, poison=1))
    events = wound_mouse(state, "filch", 1)
    assert events == [
        MouseWounded(mouse="filch", wounds=1),
        AchievementEarned(mouse="filch", achievement="poison-master"),
        MouseCaptured(mouse="filch"),
        HourglassAdvanced(page=2, reason="capture"),
    ]


def test_escape_artist_second_capture_and_freed_at_once_on_the_third__rulebook_conquiste_personali():
    events = wound_mouse(
        chapter_1_table(MouseCaptured(mouse="filch"), MouseReleased(mouse="filch", space="GR-6")), "filch", 5
    )
    assert events[-2:] == [
        AchievementEarned(mouse="filch", achievement="escape-artist"),
        EndMarkerMoved(page=7, reason="escape-artist"),
    ]
    state = chapter_1_table(
        MouseCaptured(mouse="filch"),
        MouseReleased(mouse="filch", space="GR-6"),
        MouseCaptured(mouse="filch"),
        MouseReleased(mouse="filch", space="GR-6"),
        AchievementEarned(mouse="filch", achievement="escape-artist"),
    )
    events = wound_mouse(state, "filch", 5)
    assert events[-1] == MouseReleased(mouse="filch", space="GR-6")


def test_cat_tamer_large_minions_roll_one_fewer_defense_die_against_it__rulebook_conquiste_personali():
    from dicelog.domain.mice_and_mystics.events import FigurePlaced
    from dicelog.domain.mice_and_mystics.rules.combat import minion_defense_dice

    state = chapter_1_table(
        FigurePlaced(figure="spider-1", card="spider", space="GR-7"),
        AchievementEarned(mouse="collin", achievement="cat-tamer"),
    )
    assert minion_defense_dice(state, "collin", "spider-1") == 2
    assert minion_defense_dice(state, "tilda", "spider-1") == 3


def test_roach_master_keeps_greedy_roaches_on_the_same_tile_calm__rulebook_conquiste_personali():
    """MM rulebook (pt) «no mesmo bloco», MM summary (fr) «sur la même tuile» (docs/mice-and-mystics/facts.md:
    "roaches on the achiever's tile"): a greedy roach anywhere on the Roach Master's tile is not greedy;
    elsewhere it is. Rules revision 1 games keep the earlier reading, the same space."""
    greedy_roach = (
        AchievementEarned(mouse="filch", achievement="roach-master"),
        FigurePlaced(figure="roaches-1", card="roaches", space="GR-2"),  # Filch is on GR-6, same tile
        FigurePlaced(figure="roaches-2", card="roaches", space="TE-2"),  # the Tunnel Entrance
        RoachesTurnedGreedy(figures=("roaches-1", "roaches-2")),
    )
    state = chapter_1_table(*greedy_roach)
    assert not is_greedy(state, "roaches-1")
    assert is_greedy(state, "roaches-2")
    old = chapter_1_table(*greedy_roach, rules_revision=1)
    assert is_greedy(old, "roaches-1") and is_greedy(old, "roaches-2")
