"""Ability cards: one card a turn, used at several moments; known effects only (001 §Carte Abilità dei
Topi; 001 §Salire di Livello; facts.md §4)."""

import pytest

from domain.core.errors import RuleBroken
from domain.core.events import RollRequested
from domain.mice_and_mystics.commands import Battle, UseAbility
from domain.mice_and_mystics.events import (
    ActionStarted,
    AttackDeclared,
    AttackResolved,
    AttackRolled,
    CheeseGained,
    EffectAdded,
    EffectRemoved,
    MouseHealed,
    MouseWounded,
)
from domain.mice_and_mystics.item_events import AbilityUsed, MouseLeveledUp
from domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import act, chapter_1_table, roll

MAGINOS_FIRST = ("maginos", "filch", "collin", "tilda", "rat-warriors")


def knows(mouse, *abilities):
    return [MouseLeveledUp(mouse=mouse, ability=a, cheese=0) for a in abilities]


def cheese(mouse, n):
    return CheeseGained(mouse=mouse, count=n, reason="test")


def archer(*events):
    """Maginos (a ranged staff: battle 1 + 1) holding an archer's card (Lily may not play chapter 1)."""
    return chapter_1_table(*events, track=MAGINOS_FIRST)


def test_first_aid_takes_a_wound_off_a_mouse_on_the_space_as_a_free_action__001_carte_abilita_first_aid():
    state = chapter_1_table(*knows("filch", "first-aid"), cheese("filch", 3), MouseWounded(mouse="collin", wounds=2))
    events, state = act(state, UseAbility(mouse="filch", ability="first-aid", target="collin"))
    assert events == [AbilityUsed(mouse="filch", ability="first-aid", cost=2), MouseHealed(mouse="collin", wounds=1, reason="first-aid")]
    assert state.wounds["collin"] == 1 and state.cheese["filch"] == 1 and state.mouse_turn.action is None
    with pytest.raises(RuleBroken, match="ability.once-per-turn"):
        RULESET.decide(state, UseAbility(mouse="filch", ability="first-aid", target="collin"))


def test_first_aid_costs_a_healer_one_cheese_less__001_carte_abilita_first_aid():
    state = chapter_1_table(*knows("tilda", "first-aid"), cheese("tilda", 1), MouseWounded(mouse="tilda", wounds=1),
                            track=("tilda", "filch", "collin", "maginos", "rat-warriors"))
    events, _ = act(state, UseAbility(mouse="tilda", ability="first-aid", target="tilda"))
    assert events[0] == AbilityUsed(mouse="tilda", ability="first-aid", cost=1)


def test_first_aid_does_not_take_off_poison_wounds__rulings_ability_cards():
    state = chapter_1_table(*knows("filch", "first-aid"), cheese("filch", 3), MouseWounded(mouse="collin", wounds=1, poison=1))
    with pytest.raises(RuleBroken, match="ability.nothing-to-heal"):
        RULESET.decide(state, UseAbility(mouse="filch", ability="first-aid", target="collin"))


def test_only_one_ability_card_per_turn__001_carte_abilita_dei_topi():
    state = chapter_1_table(*knows("maginos", "first-aid", "chain-lightning"), cheese("maginos", 9), MouseWounded(mouse="collin", wounds=1),
                            track=MAGINOS_FIRST)
    _, state = act(state, UseAbility(mouse="maginos", ability="first-aid", target="collin"))
    with pytest.raises(RuleBroken, match="ability.one-per-turn"):
        RULESET.decide(state, UseAbility(mouse="maginos", ability="chain-lightning", targets=("rat-warriors-1",)))
    assert not [c for c in RULESET.legal_commands(state) if isinstance(c, UseAbility)]


def test_aimed_shot_adds_a_battle_die_to_the_ranged_attack__001_carte_abilita_aimed_shot():
    state = archer(*knows("maginos", "aimed-shot"), cheese("maginos", 1))
    events, state = act(state, UseAbility(mouse="maginos", ability="aimed-shot"))
    assert events == [AbilityUsed(mouse="maginos", ability="aimed-shot", cost=1)]
    events, _ = act(state, Battle(mouse="maginos", target="rat-warriors-1"))
    assert events[1:] == [AttackDeclared(attacker="maginos", target="rat-warriors-1", ranged=True, dice=3),
                          RollRequested(reason="battle", dice=3, piece="maginos")]


def test_power_shot_doubles_the_battle_dice_of_the_ranged_attack__001_carte_abilita_power_shot():
    state = archer(*knows("maginos", "power-shot"), cheese("maginos", 3))
    _, state = act(state, UseAbility(mouse="maginos", ability="power-shot"))
    events, _ = act(state, Battle(mouse="maginos", target="rat-warriors-1"))
    assert events[-1] == RollRequested(reason="battle", dice=4, piece="maginos")


def test_accurate_shot_takes_two_defense_dice_off_the_target__001_carte_abilita_accurate_shot():
    state = archer(*knows("maginos", "accurate-shot"), cheese("maginos", 2))
    _, state = act(state, UseAbility(mouse="maginos", ability="accurate-shot"))
    _, state = act(state, Battle(mouse="maginos", target="rat-warriors-1"))
    events, _ = roll(state, 4, 3)  # one bow hit; the Rat Warriors' 2 defense dice drop to 0
    assert events[0] == AttackRolled(attacker="maginos", target="rat-warriors-1", hits=1)
    assert AttackResolved(attacker="maginos", target="rat-warriors-1", hits=1, blocks=0, wounds=1) in events
    assert not [e for e in events if isinstance(e, RollRequested)]


def test_shots_need_a_ranged_weapon_and_come_before_the_attack__001_carte_abilita_dei_topi():
    state = chapter_1_table(*knows("filch", "aimed-shot"), cheese("filch", 1))
    with pytest.raises(RuleBroken, match="ability.needs-ranged-weapon"):
        RULESET.decide(state, UseAbility(mouse="filch", ability="aimed-shot"))
    state = archer(*knows("maginos", "aimed-shot"), cheese("maginos", 1), ActionStarted(mouse="maginos", action="search"))
    with pytest.raises(RuleBroken, match="action.already-taken"):
        RULESET.decide(state, UseAbility(mouse="maginos", ability="aimed-shot"))


def test_chain_lightning_replaces_the_battle_action_one_roll_each_target_defends__001_carte_abilita_chain_lightning():
    state = chapter_1_table(*knows("maginos", "chain-lightning"), cheese("maginos", 3), track=MAGINOS_FIRST)
    targets = ("rat-warriors-1", "rat-warriors-2", "rat-warriors-3")
    events, state = act(state, UseAbility(mouse="maginos", ability="chain-lightning", targets=targets))
    assert events == [
        ActionStarted(mouse="maginos", action="battle"),
        AbilityUsed(mouse="maginos", ability="chain-lightning", cost=3),
        AttackDeclared(attacker="maginos", target="rat-warriors-1", ranged=True, dice=3, others=targets[1:]),
        RollRequested(reason="battle", dice=3, piece="maginos"),
    ]
    events, _ = roll(state, 4, 5, 3)
    assert events[-1] == RollRequested(reason="minion-defense", dice=2)


def test_chain_lightning_picks_at_most_lore_minions__001_carte_abilita_chain_lightning():
    state = chapter_1_table(*knows("filch", "chain-lightning"), cheese("filch", 3))  # Filch: Lore 1
    with pytest.raises(RuleBroken, match="ability.invalid-targets"):
        RULESET.decide(state, UseAbility(mouse="filch", ability="chain-lightning", targets=("rat-warriors-1", "rat-warriors-2")))


def test_cure_is_an_action_paying_one_cheese_per_poison_wound_or_effect__001_carte_abilita_cure():
    state = chapter_1_table(*knows("tilda", "cure"), cheese("tilda", 3), MouseWounded(mouse="filch", wounds=1, poison=1),
                            EffectAdded(mouse="filch", effect="stunned"), track=("tilda", "filch", "collin", "maginos", "rat-warriors"))
    events, state = act(state, UseAbility(mouse="tilda", ability="cure", target="filch", remove=("poison", "stunned")))
    assert events == [ActionStarted(mouse="tilda", action="cure"), AbilityUsed(mouse="tilda", ability="cure", cost=2),
                      MouseHealed(mouse="filch", wounds=0, poison=1, reason="cure"), EffectRemoved(mouse="filch", effect="stunned")]
    assert state.wounds["filch"] == 0 and state.cheese["tilda"] == 1 and state.mouse_turn.action == "cure"


def test_abilities_without_known_effect_are_refused_honestly__facts_4():
    state = chapter_1_table(*knows("filch", "dodge", "knife-strike"), cheese("filch", 9))
    with pytest.raises(RuleBroken, match="ability.effect-unknown"):
        RULESET.decide(state, UseAbility(mouse="filch", ability="dodge"))
    with pytest.raises(RuleBroken, match="ability.not-implemented"):
        RULESET.decide(state, UseAbility(mouse="filch", ability="knife-strike"))
    with pytest.raises(RuleBroken, match="ability.not-owned"):
        RULESET.decide(state, UseAbility(mouse="filch", ability="first-aid", target="filch"))


def test_an_ability_needs_its_cheese__001_carte_abilita_costo():
    state = chapter_1_table(*knows("filch", "first-aid"), cheese("filch", 1), MouseWounded(mouse="collin", wounds=1))
    with pytest.raises(RuleBroken, match="ability.not-enough-cheese"):
        RULESET.decide(state, UseAbility(mouse="filch", ability="first-aid", target="collin"))
    assert not [c for c in RULESET.legal_commands(state) if isinstance(c, UseAbility)]


def test_legal_commands_list_ability_uses_concretely__001_carte_abilita_dei_topi():
    state = chapter_1_table(*knows("filch", "first-aid"), cheese("filch", 2), MouseWounded(mouse="collin", wounds=1))
    assert [c for c in RULESET.legal_commands(state) if isinstance(c, UseAbility)] == [
        UseAbility(mouse="filch", ability="first-aid", target="collin")]
