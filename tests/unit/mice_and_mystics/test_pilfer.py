"""Filch's Pilfer (MM rulebook (it) §Schede dei Topi, Filch, "Ladruncolo"; docs/mice-and-mystics/facts.md §2,
FAQ1) and the mouse credited with a defeat (MM rulebook (it) §Conquiste Personali, Roach Master), through real
battles."""

from dicelog.domain.mice_and_mystics.commands import Battle
from dicelog.domain.mice_and_mystics.events import (
    AchievementEarned,
    CheeseAddedToWheel,
    CheeseGained,
    CheeseTakenFromWheel,
    FigurePlaced,
    MinionDefeated,
    RoachDefeatedCounted,
)
from tests.unit.mice_and_mystics.scenario import act, chapter_1_table, of_type, roll

RAT = "rat-warriors"
SWORD, NOTHING = 2, 4  # faces as in test_battle.py: 2 hits on swords, 4 blocks nothing


def filch_first(*events, track=("filch", "collin", "tilda", "maginos", RAT)):
    return chapter_1_table(*events, track=track)


def battle(state, mouse: str, target: str):
    _, state = act(state, Battle(mouse=mouse, target=target))
    pending = state.attack.dice
    _, state = roll(state, *([SWORD] * pending))
    defense = state.attack.dice if state.attack is not None else 0
    return roll(state, *([NOTHING] * max(defense, 1)))


def test_rulebook_ladruncolo_filch_defeating_a_rat_takes_the_cheese_off_the_wheel():
    state = filch_first(
        CheeseAddedToWheel(count=3, reason="test"),
        FigurePlaced(figure="rat-warriors-4", card=RAT, space="GR-6"),
    )
    events, state = battle(state, "filch", "rat-warriors-4")
    assert MinionDefeated(figure="rat-warriors-4", card=RAT) in events
    assert CheeseTakenFromWheel(mouse="filch", count=1, reason="pilfer") in events
    assert state.cheese_wheel == 2 and state.cheese.get("filch") == 1
    from dicelog.domain.mice_and_mystics.ruleset import RULESET

    assert (
        RULESET.describe(state, CheeseTakenFromWheel(mouse="filch", count=1, reason="pilfer"))
        == "Filch takes 1 cheese off the minion cheese wheel (pilfer): 2"
    )


def test_rulebook_ladruncolo_with_an_empty_wheel_the_cheese_comes_from_the_supply():
    state = filch_first(FigurePlaced(figure="rat-warriors-4", card=RAT, space="GR-6"))
    events, state = battle(state, "filch", "rat-warriors-4")
    assert CheeseGained(mouse="filch", count=1, reason="pilfer") in events and not of_type(
        events, CheeseTakenFromWheel
    )
    assert state.cheese.get("filch") == 1 and state.cheese_wheel == 0


def test_rulebook_ladruncolo_any_other_minion_gives_cheese_from_the_supply_not_the_wheel():
    state = filch_first(
        CheeseAddedToWheel(count=3, reason="test"),
        FigurePlaced(figure="roaches-1", card="roaches", space="GR-6"),
    )
    events, state = battle(state, "filch", "roaches-1")
    assert MinionDefeated(figure="roaches-1", card="roaches") in events
    assert CheeseGained(mouse="filch", count=1, reason="pilfer") in events
    assert state.cheese_wheel == 3


def test_rulebook_ladruncolo_only_filch_pilfers():
    state = filch_first(
        CheeseAddedToWheel(count=3, reason="test"),
        FigurePlaced(figure="rat-warriors-4", card=RAT, space="GR-6"),
        track=("collin", "filch", "tilda", "maginos", RAT),
    )
    events, state = battle(state, "collin", "rat-warriors-4")
    assert MinionDefeated(figure="rat-warriors-4", card=RAT) in events
    assert not [e for e in events if getattr(e, "reason", None) == "pilfer"] and state.cheese_wheel == 3


def test_rulebook_conquiste_personali_a_roach_defeated_in_battle_counts_for_the_attacker():
    """The fourth roach of an encounter defeated by a mouse in a real battle earns Roach Master (the
    attacker is credited even though the attack is resolved before the defeat)."""
    state = filch_first(
        *(RoachDefeatedCounted(mouse="collin") for _ in range(3)),
        FigurePlaced(figure="roaches-1", card="roaches", space="GR-6"),
        track=("collin", "filch", "tilda", "maginos", RAT),
    )
    events, state = battle(state, "collin", "roaches-1")
    assert RoachDefeatedCounted(mouse="collin") in events
    assert AchievementEarned(mouse="collin", achievement="roach-master") in events
