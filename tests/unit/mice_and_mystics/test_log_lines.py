"""The game log says what happened (issue 10, messages for players): an attack's line no longer
claims wounds a roach turned into stolen cheese, and the Chapter 1 happenings have their lines
(MM rulebook (it) §Capitolo 1: the crow, the Kitchen counter, Miz Maggie; the end marker)."""

from dicelog.domain.mice_and_mystics.chapter_events import (
    CounterCheesePlaced,
    CounterCheeseTaken,
    CrowDived,
    MizMaggieSwatted,
    StoryAchievementGained,
)
from dicelog.domain.mice_and_mystics.events import (
    AttackResolved,
    CheeseStolen,
    EndMarkerMoved,
    MinionWounded,
    MouseWounded,
)
from dicelog.domain.mice_and_mystics.read_models import describe
from tests.unit.mice_and_mystics.scenario import chapter_1_table


def test_a_roach_that_steals_cheese_is_logged_as_a_theft_not_as_wounds__rulebook_blatte():
    state = chapter_1_table()
    hit = AttackResolved(attacker="roaches-1", target="filch", hits=2, blocks=0, wounds=2)
    assert describe(state, hit) == "Filch blocks 0 of 2 hits"  # no wound claimed here
    stolen = CheeseStolen(mouse="filch", figure="roaches-1", count=2, to_wheel=True)
    assert describe(state, stolen) == "Roach 1 steals 2 cheese from Filch onto the minion cheese wheel"
    miss = AttackResolved(attacker="rat-warriors-1", target="filch", hits=0, blocks=0, wounds=0)
    assert describe(state, miss) == "The attack on Filch scores no hit"
    assert describe(state, MouseWounded(mouse="filch", wounds=1)) == "Filch takes 1 wound"
    assert describe(state, MinionWounded(figure="rat-warriors-1", wounds=2)) == "Rat Warrior 1 takes 2 wounds"


def test_chapter_1_happenings_have_log_lines__rulebook_capitolo_1():
    state = chapter_1_table()
    lines = [
        describe(state, event)
        for event in (
            CrowDived(figure="filch", space="CY-3"),
            CounterCheesePlaced(count=3),
            CounterCheeseTaken(count=1, figure="roaches-2"),
            MizMaggieSwatted(mouse="tilda", figure="roaches-2", space="KI-7"),
            StoryAchievementGained(achievement="miz-maggie-ally"),
            EndMarkerMoved(page=7, reason="miz-maggie-ally"),
        )
    ]
    assert lines == [
        "The nasty old crow dives on Filch on The Courtyard · space 3: 1 wound, no defence",
        "3 cheese on the Kitchen counter",
        "Roach 2 takes 1 cheese from the Kitchen counter to the minion cheese wheel",
        "Miz Maggie's broom knocks Tilda down; the roach is back on the counter",
        "Story achievement: miz maggie ally",
        "The chapter end marker moves on to page 7 (miz maggie ally): more time",
    ]
