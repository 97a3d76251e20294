"""Minion abilities (docs/mice-and-mystics/facts.md §3; MM rulebook (it) §Blatte Avide; MM rulebook (it) §Boss
dei Servitori; MM rulebook (it) §Ratti Guerrieri e Capitano Vurst: tokens under rat figures)."""

from dicelog.domain.core.events import RollRequested
from dicelog.domain.mice_and_mystics.events import (
    AttackDeclared,
    AttackResolved,
    CheeseGained,
    CheeseStolen,
    EffectAdded,
    FigurePlaced,
    InitiativeCardsSwapped,
    MouseWounded,
    RoachesTurnedGreedy,
    TurnEnded,
    TurnStarted,
)
from dicelog.domain.mice_and_mystics.rules.flow import end_turn
from dicelog.domain.mice_and_mystics.rules.keywords import greedy
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import chapter_1_table, roll

MICE = ("filch", "collin", "tilda", "maginos")


def attacked_by(figure, card, space, *given, dice=2, target="filch"):
    """``figure`` of ``card`` on ``space`` has declared a melee attack on ``target`` (on GR-6)."""
    state = chapter_1_table(FigurePlaced(figure=figure, card=card, space=space), *given, track=(*MICE, card))
    state = RULESET.evolve(state, AttackDeclared(attacker=figure, target=target, ranged=False, dice=dice))
    return RULESET.evolve(state, RollRequested(reason="minion-attack", dice=dice))


def two_wounds(state):
    _, state = roll(state, 2, 2)  # two hits
    return roll(state, 4, 4)  # no block


def test_roaches_steal_cheese_instead_of_wounding_while_the_mouse_has_cheese__facts_3_roaches_steal():
    state = attacked_by("roaches-1", "roaches", "GR-7", CheeseGained(mouse="filch", count=1, reason="test"))
    events, state = two_wounds(state)
    assert events[1:3] == [
        CheeseStolen(mouse="filch", figure="roaches-1", count=1),
        MouseWounded(mouse="filch", wounds=1),
    ]
    assert state.cheese["filch"] == 0 and state.cheese_wheel == 0 and state.wounds["filch"] == 1


def test_greedy_roaches_stolen_cheese_goes_on_the_wheel__rulebook_blatte_avide():
    state = attacked_by(
        "roaches-1",
        "roaches",
        "GR-7",
        CheeseGained(mouse="filch", count=3, reason="test"),
        RoachesTurnedGreedy(figures=("roaches-1",)),
    )
    events, state = two_wounds(state)
    assert events[1] == CheeseStolen(mouse="filch", figure="roaches-1", count=2, to_wheel=True)
    assert not [e for e in events if isinstance(e, MouseWounded)]
    assert state.cheese["filch"] == 1 and state.cheese_wheel == 2


def test_greedy_roaches_make_every_roach_in_play_greedy__rulebook_blatte_avide():
    state = chapter_1_table(
        FigurePlaced(figure="roaches-1", card="roaches", space="GR-7"),
        FigurePlaced(figure="roaches-2", card="roaches", space="GR-8"),
    )
    assert greedy(state) == [RoachesTurnedGreedy(figures=("roaches-1", "roaches-2"))]


def test_spider_wounds_are_poison_wounds__facts_3_spider_poison():
    state = attacked_by("spider-1", "spider", "GR-7")
    events, state = two_wounds(state)
    assert MouseWounded(mouse="filch", wounds=2, poison=2) in events
    assert state.poison_wounds["filch"] == 2


def test_cave_centipede_stuns_the_mouse_it_wounds_and_tilda_gains_cheese__facts_3_centipede_stun():
    state = attacked_by("cave-centipede-1", "cave-centipede", "GR-7", dice=3)
    events, state = two_wounds(state)
    assert events[-2:] == [
        EffectAdded(mouse="filch", effect="stunned"),
        CheeseGained(mouse="tilda", count=1, reason="empathetic-power"),
    ]
    assert state.effects["filch"] == ("stunned",)


def test_no_effect_when_every_hit_is_blocked__facts_3_centipede_stun():
    state = attacked_by("cave-centipede-1", "cave-centipede", "GR-7", dice=3)
    _, state = roll(state, 2, 4, 4)
    events, _ = roll(state, 3, 4)
    assert events[0] == AttackResolved(
        attacker="cave-centipede-1", target="filch", hits=1, blocks=1, wounds=0
    )
    assert not [e for e in events if isinstance(e, EffectAdded)]


def test_elite_rat_warriors_are_aggressive__facts_3_elite_rat_warriors():
    track = ("filch", "elite-rat-warriors", "collin", "tilda", "maginos")
    state = chapter_1_table(
        TurnEnded(card="filch"), TurnStarted(card="elite-rat-warriors", slot=1), track=track
    )
    assert end_turn(state, "elite-rat-warriors")[:2] == [
        TurnEnded(card="elite-rat-warriors"),
        InitiativeCardsSwapped(card="elite-rat-warriors", other="filch", reason="aggressive"),
    ]


def test_no_more_rat_figures_than_the_box_holds_elite_tokens_and_vurst_token_included__ratti_guerrieri():
    from dicelog.domain.mice_and_mystics.rules.placement import place_minions

    state = chapter_1_table()  # 3 rat figures on the board already
    placed = place_minions(state, "elite-rat-warriors", 4, "guard-room")
    assert len(placed) == 3  # 6 rat figures in the box
    state = chapter_1_table(*placed)
    assert place_minions(state, "captain-vurst", 1, "guard-room") == []
