"""Ability cards: one card a turn, used at several moments; known effects only (MM rulebook (it) §Carte
Abilità dei Topi; MM rulebook (it) §Salire di Livello; docs/mice-and-mystics/facts.md §4)."""

import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import DecisionMade, DecisionRequested, RollRequested
from dicelog.domain.mice_and_mystics.commands import Battle, LevelUp, Search, UseAbility
from dicelog.domain.mice_and_mystics.events import (
    ActionStarted,
    AttackDeclared,
    AttackResolved,
    AttackRolled,
    CheeseAddedToWheel,
    CheeseGained,
    EffectAdded,
    EffectRemoved,
    FigurePlaced,
    MinionDefeated,
    MouseCaptured,
    MouseHealed,
    MouseWounded,
    MovementPointsGained,
    RoundStarted,
    TurnStarted,
)
from dicelog.domain.mice_and_mystics.item_events import (
    AbilityUsed,
    ExtraActionTaken,
    KnifeStrikesLeft,
    MiceInspired,
    MouseLeveledUp,
    PreemptiveShotWindowClosed,
    SearchCardEquipped,
)
from dicelog.domain.mice_and_mystics.rules import ability_cards
from dicelog.domain.mice_and_mystics.rules.flow import proceed
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import act, answer, chapter_1_table, fold_events, of_type, roll

MAGINOS_FIRST = ("maginos", "filch", "collin", "tilda", "rat-warriors")


def knows(mouse, *abilities):
    return [MouseLeveledUp(mouse=mouse, ability=a, cheese=0) for a in abilities]


def cheese(mouse, n):
    return CheeseGained(mouse=mouse, count=n, reason="test")


def archer(*events):
    """Maginos (a ranged staff: battle 1 + 1) holding an archer's card (Lily may not play chapter 1)."""
    return chapter_1_table(*events, track=MAGINOS_FIRST)


def test_first_aid_takes_a_wound_off_a_mouse_on_the_space_as_a_free_action__carte_abilita_first_aid():
    state = chapter_1_table(
        *knows("filch", "first-aid"), cheese("filch", 3), MouseWounded(mouse="collin", wounds=2)
    )
    events, state = act(state, UseAbility(mouse="filch", ability="first-aid", target="collin"))
    assert events == [
        AbilityUsed(mouse="filch", ability="first-aid", cost=2),
        MouseHealed(mouse="collin", wounds=1, reason="first-aid"),
    ]
    assert state.wounds["collin"] == 1 and state.cheese["filch"] == 1 and state.mouse_turn.action is None
    with pytest.raises(RuleBroken, match="ability.once-per-turn"):
        RULESET.decide(state, UseAbility(mouse="filch", ability="first-aid", target="collin"))


def test_first_aid_costs_a_healer_one_cheese_less__rulebook_carte_abilita_first_aid():
    state = chapter_1_table(
        *knows("tilda", "first-aid"),
        cheese("tilda", 1),
        MouseWounded(mouse="tilda", wounds=1),
        track=("tilda", "filch", "collin", "maginos", "rat-warriors"),
    )
    events, _ = act(state, UseAbility(mouse="tilda", ability="first-aid", target="tilda"))
    assert events[0] == AbilityUsed(mouse="tilda", ability="first-aid", cost=1)


def test_first_aid_does_not_take_off_poison_wounds__rulings_ability_cards():
    state = chapter_1_table(
        *knows("filch", "first-aid"), cheese("filch", 3), MouseWounded(mouse="collin", wounds=1, poison=1)
    )
    with pytest.raises(RuleBroken, match="ability.nothing-to-heal"):
        RULESET.decide(state, UseAbility(mouse="filch", ability="first-aid", target="collin"))


def test_only_one_ability_card_per_turn__rulebook_carte_abilita_dei_topi():
    state = chapter_1_table(
        *knows("maginos", "first-aid", "chain-lightning"),
        cheese("maginos", 9),
        MouseWounded(mouse="collin", wounds=1),
        track=MAGINOS_FIRST,
    )
    _, state = act(state, UseAbility(mouse="maginos", ability="first-aid", target="collin"))
    with pytest.raises(RuleBroken, match="ability.one-per-turn"):
        RULESET.decide(
            state, UseAbility(mouse="maginos", ability="chain-lightning", targets=("rat-warriors-1",))
        )
    assert not [c for c in RULESET.legal_commands(state) if isinstance(c, UseAbility)]


def test_aimed_shot_adds_a_battle_die_to_the_ranged_attack__rulebook_carte_abilita_aimed_shot():
    state = archer(*knows("maginos", "aimed-shot"), cheese("maginos", 1))
    events, state = act(state, UseAbility(mouse="maginos", ability="aimed-shot"))
    assert events == [AbilityUsed(mouse="maginos", ability="aimed-shot", cost=1)]
    events, _ = act(state, Battle(mouse="maginos", target="rat-warriors-1"))
    assert events[1:] == [
        AttackDeclared(attacker="maginos", target="rat-warriors-1", ranged=True, dice=3),
        RollRequested(reason="battle", dice=3, piece="maginos"),
    ]


def test_power_shot_doubles_the_battle_dice_of_the_ranged_attack__rulebook_carte_abilita_power_shot():
    state = archer(*knows("maginos", "power-shot"), cheese("maginos", 3))
    _, state = act(state, UseAbility(mouse="maginos", ability="power-shot"))
    events, _ = act(state, Battle(mouse="maginos", target="rat-warriors-1"))
    assert events[-1] == RollRequested(reason="battle", dice=4, piece="maginos")


def test_accurate_shot_takes_two_defense_dice_off_the_target__rulebook_carte_abilita_accurate_shot():
    state = archer(*knows("maginos", "accurate-shot"), cheese("maginos", 2))
    _, state = act(state, UseAbility(mouse="maginos", ability="accurate-shot"))
    _, state = act(state, Battle(mouse="maginos", target="rat-warriors-1"))
    events, _ = roll(state, 4, 3)  # one bow hit; the Rat Warriors' 2 defense dice drop to 0
    assert events[0] == AttackRolled(attacker="maginos", target="rat-warriors-1", hits=1)
    assert AttackResolved(attacker="maginos", target="rat-warriors-1", hits=1, blocks=0, wounds=1) in events
    assert not [e for e in events if isinstance(e, RollRequested)]


def test_shots_need_a_ranged_weapon_and_come_before_the_attack__rulebook_carte_abilita_dei_topi():
    state = chapter_1_table(*knows("filch", "aimed-shot"), cheese("filch", 1))
    with pytest.raises(RuleBroken, match="ability.needs-ranged-weapon"):
        RULESET.decide(state, UseAbility(mouse="filch", ability="aimed-shot"))
    state = archer(
        *knows("maginos", "aimed-shot"), cheese("maginos", 1), ActionStarted(mouse="maginos", action="search")
    )
    with pytest.raises(RuleBroken, match="action.already-taken"):
        RULESET.decide(state, UseAbility(mouse="maginos", ability="aimed-shot"))


def test_chain_lightning_replaces_the_battle_action_one_roll_each_target_defends__rulebook_carte_abilita_chain_lightning():  # noqa: E501
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


def test_chain_lightning_picks_at_most_lore_minions__rulebook_carte_abilita_chain_lightning():
    state = chapter_1_table(*knows("filch", "chain-lightning"), cheese("filch", 3))  # Filch: Lore 1
    with pytest.raises(RuleBroken, match="ability.invalid-targets"):
        RULESET.decide(
            state,
            UseAbility(
                mouse="filch", ability="chain-lightning", targets=("rat-warriors-1", "rat-warriors-2")
            ),
        )


def test_cure_is_an_action_paying_one_cheese_per_poison_wound_or_effect__rulebook_carte_abilita_cure():
    state = chapter_1_table(
        *knows("tilda", "cure"),
        cheese("tilda", 3),
        MouseWounded(mouse="filch", wounds=1, poison=1),
        EffectAdded(mouse="filch", effect="stunned"),
        track=("tilda", "filch", "collin", "maginos", "rat-warriors"),
    )
    events, state = act(
        state, UseAbility(mouse="tilda", ability="cure", target="filch", remove=("poison", "stunned"))
    )
    assert events == [
        ActionStarted(mouse="tilda", action="cure"),
        AbilityUsed(mouse="tilda", ability="cure", cost=2),
        MouseHealed(mouse="filch", wounds=0, poison=1, reason="cure"),
        EffectRemoved(mouse="filch", effect="stunned"),
    ]
    assert state.wounds["filch"] == 0 and state.cheese["tilda"] == 1 and state.mouse_turn.action == "cure"


def test_abilities_without_known_effect_are_refused_honestly__facts_4():
    state = chapter_1_table(*knows("filch", "dodge", "knife-strike"), cheese("filch", 9))
    with pytest.raises(RuleBroken, match="ability.effect-unknown"):
        RULESET.decide(state, UseAbility(mouse="filch", ability="dodge"))
    assert not ability_cards.KNOWN_NOT_IMPLEMENTED  # every card whose effect is known is played
    with pytest.raises(RuleBroken, match="ability.not-owned"):
        RULESET.decide(state, UseAbility(mouse="filch", ability="first-aid", target="filch"))


def test_an_ability_needs_its_cheese__rulebook_carte_abilita_costo():
    state = chapter_1_table(
        *knows("filch", "first-aid"), cheese("filch", 1), MouseWounded(mouse="collin", wounds=1)
    )
    with pytest.raises(RuleBroken, match="ability.not-enough-cheese"):
        RULESET.decide(state, UseAbility(mouse="filch", ability="first-aid", target="collin"))
    assert not [c for c in RULESET.legal_commands(state) if isinstance(c, UseAbility)]


def test_legal_commands_list_ability_uses_concretely__rulebook_carte_abilita_dei_topi():
    state = chapter_1_table(
        *knows("filch", "first-aid"), cheese("filch", 2), MouseWounded(mouse="collin", wounds=1)
    )
    assert [c for c in RULESET.legal_commands(state) if isinstance(c, UseAbility)] == [
        UseAbility(mouse="filch", ability="first-aid", target="collin")
    ]


# Knife Strike, Inspire and Preemptive Shot (MM rulebook (it) §Carte Abilità dei Topi;
# docs/mice-and-mystics/facts.md §4 rows 5, 9, 14)

COLLIN_FIRST = ("collin", "filch", "tilda", "maginos", "rat-warriors")
SECOND_DAGGER = SearchCardEquipped(
    mouse="filch", card="dagger", slot="paw", unequipped=(), loadout=(("dagger", "paw"), ("dagger", "paw"))
)
RAT_NEXT_TO_MICE = FigurePlaced(figure="rat-warriors-4", card="rat-warriors", space="GR-5")


def decided(state, option, by="north"):
    """Answer the pending decision with ``option`` (``DecisionMade`` then ``resolve``)."""
    return answer(state, DecisionMade(decision=state.awaiting, option=option, by=by))


def uses(state, mouse):
    return [c for c in RULESET.legal_commands(state) if isinstance(c, UseAbility) and c.mouse == mouse]


def test_rulebook_carte_abilita_knife_strike_one_dagger_is_one_attack_with_the_dagger_rule():
    """docs/mice-and-mystics/facts.md §4 row 9, §5 Dagger: the Battle action, one attack for Filch's one
    dagger; the Rat Warriors, lower on the track, roll 1 defense die instead of 2."""
    state = chapter_1_table(*knows("filch", "knife-strike"), cheese("filch", 2))
    assert uses(state, "filch") == [
        UseAbility(mouse="filch", ability="knife-strike", target="rat-warriors-1")
    ]
    events, state = act(state, UseAbility(mouse="filch", ability="knife-strike", target="rat-warriors-1"))
    assert events == [
        ActionStarted(mouse="filch", action="battle"),
        AbilityUsed(mouse="filch", ability="knife-strike", cost=2),
        AttackDeclared(attacker="filch", target="rat-warriors-1", ranged=False, dice=2, weapon="dagger"),
        RollRequested(reason="battle", dice=2, piece="filch"),
    ]
    events, state = roll(state, 2, 4)  # one sword hit
    assert events[-1] == RollRequested(reason="minion-defense", dice=1)
    events, state = roll(state, 3)  # blocked
    assert events == [AttackResolved(attacker="filch", target="rat-warriors-1", hits=1, blocks=1, wounds=0)]
    assert state.awaiting is None and state.mouse_turn.knife_strikes == 0 and state.cheese["filch"] == 0
    with pytest.raises(RuleBroken, match="action.already-taken"):
        RULESET.decide(state, Battle(mouse="filch", target="rat-warriors-1"))


def test_carte_abilita_knife_strike_two_daggers_attack_twice_the_second_target_chosen_after_the_first():
    """docs/mice-and-mystics/facts.md §4 row 9; docs/mice-and-mystics/facts.md §5 (two 1-paw weapons): each
    equipped dagger attacks once; the second target is asked once the first attack is resolved (the first
    target fell)."""
    state = chapter_1_table(
        *knows("filch", "knife-strike"), cheese("filch", 2), SECOND_DAGGER, RAT_NEXT_TO_MICE
    )
    assert [c.target for c in uses(state, "filch")] == ["rat-warriors-1", "rat-warriors-4"]
    events, state = act(state, UseAbility(mouse="filch", ability="knife-strike", target="rat-warriors-1"))
    assert events[2] == KnifeStrikesLeft(mouse="filch", count=1)
    _, state = roll(state, 2, 2)
    events, state = roll(state, 5)  # no block: the rat falls, the second dagger's target is asked
    assert of_type(events, MinionDefeated) and events[-1] == DecisionRequested(
        decision="knife-strike", options=("rat-warriors-4", "pass"), piece="filch", default="rat-warriors-4"
    )
    events, state = decided(state, "rat-warriors-4")
    assert events == [
        KnifeStrikesLeft(mouse="filch", count=0),
        AttackDeclared(attacker="filch", target="rat-warriors-4", ranged=False, dice=2, weapon="dagger"),
        RollRequested(reason="battle", dice=2, piece="filch"),
    ]
    events, state = roll(state, 3, 4)
    assert events[-1] == RollRequested(reason="minion-defense", dice=1)  # the dagger rule again
    events, state = roll(state, 4)
    assert of_type(events, MinionDefeated)[0].figure == "rat-warriors-4"
    # the card paid once (2 cheese); Pilfer gave 1 back per rat defeated (MM rulebook (it) "Ladruncolo", empty
    # wheel)
    assert state.awaiting is None and state.attack is None and state.cheese["filch"] == 2


def test_rulebook_carte_abilita_knife_strike_second_attack_may_be_passed_and_ends_without_targets():
    """docs/mice-and-mystics/facts.md §4 row 9: ``pass`` gives the second attack up; with no minion left in
    reach the Knife Strike ends without asking."""
    state = chapter_1_table(
        *knows("filch", "knife-strike"), cheese("filch", 2), SECOND_DAGGER, RAT_NEXT_TO_MICE
    )
    _, state = act(state, UseAbility(mouse="filch", ability="knife-strike", target="rat-warriors-1"))
    _, state = roll(state, 4, 4)  # a miss: rat-warriors-1 still stands
    assert state.awaiting == "knife-strike"
    events, state = decided(state, "pass")
    assert events == [KnifeStrikesLeft(mouse="filch", count=0)] and state.awaiting is None
    state = chapter_1_table(*knows("filch", "knife-strike"), cheese("filch", 2), SECOND_DAGGER)
    _, state = act(state, UseAbility(mouse="filch", ability="knife-strike", target="rat-warriors-1"))
    _, state = roll(state, 2, 2)
    events, state = roll(state, 4)
    assert events[-1] == KnifeStrikesLeft(mouse="filch", count=0)
    assert not of_type(events, DecisionRequested) and state.awaiting is None


def test_rulebook_carte_abilita_knife_strike_refusals_dagger_reach_cost_and_moment():
    """MM rulebook (it) §Carte Abilità dei Topi (cost, the one action); MM rulebook (it) §Attacco in Mischia
    (reach); MM rulebook (it) §Salire di Livello (class)."""
    state = chapter_1_table(*knows("collin", "knife-strike"), cheese("collin", 2), track=COLLIN_FIRST)
    with pytest.raises(RuleBroken, match="ability.needs-dagger"):  # Collin's sword is no dagger
        RULESET.decide(state, UseAbility(mouse="collin", ability="knife-strike", target="rat-warriors-1"))
    state = chapter_1_table(*knows("filch", "knife-strike"), cheese("filch", 2))
    with pytest.raises(RuleBroken, match="battle.out-of-reach"):
        RULESET.decide(state, UseAbility(mouse="filch", ability="knife-strike", target="rat-warriors-2"))
    with pytest.raises(RuleBroken, match="battle.invalid-target"):
        RULESET.decide(state, UseAbility(mouse="filch", ability="knife-strike"))
    poor = chapter_1_table(*knows("filch", "knife-strike"), cheese("filch", 1))
    with pytest.raises(RuleBroken, match="ability.not-enough-cheese"):
        RULESET.decide(poor, UseAbility(mouse="filch", ability="knife-strike", target="rat-warriors-1"))
    assert not uses(poor, "filch")
    acted = fold_events(state, [ActionStarted(mouse="filch", action="search")])
    with pytest.raises(RuleBroken, match="action.already-taken"):
        RULESET.decide(acted, UseAbility(mouse="filch", ability="knife-strike", target="rat-warriors-1"))
    rich = chapter_1_table(cheese("collin", 6), track=COLLIN_FIRST)
    with pytest.raises(RuleBroken, match="level-up.not-eligible"):  # a Scamp's card
        RULESET.decide(rich, LevelUp(mouse="collin", ability="knife-strike"))


def test_rulebook_carte_abilita_inspire_before_the_turn_gives_each_mouse_one_extra_action_for_one_cheese():
    """docs/mice-and-mystics/facts.md §4 row 14: played before the leader's turn; a mouse that has taken its
    action pays 1 cheese for one more (once), the leader included."""
    state = chapter_1_table(*knows("collin", "inspire"), cheese("collin", 3), track=COLLIN_FIRST)
    assert uses(state, "collin") == [UseAbility(mouse="collin", ability="inspire")]
    events, state = act(state, UseAbility(mouse="collin", ability="inspire"))
    assert events == [
        AbilityUsed(mouse="collin", ability="inspire", cost=2),
        MiceInspired(mouse="collin", round=1),
    ]
    assert state.inspire_round == 1 and state.cheese["collin"] == 1
    _, state = act(state, Battle(mouse="collin", target="rat-warriors-1"))
    _, state = roll(state, 4, 4, 4)  # a miss: the Battle action is over
    assert Search(mouse="collin") in RULESET.legal_commands(state)
    events, state = act(state, Search(mouse="collin"))
    assert events[:2] == [
        ExtraActionTaken(mouse="collin", cheese=1),
        ActionStarted(mouse="collin", action="search"),
    ]
    assert state.cheese["collin"] == 0 and state.mouse_turn.extra_action


def test_rulebook_carte_abilita_inspire_extra_action_is_charged_once_and_needs_cheese():
    """docs/mice-and-mystics/facts.md §4 row 14: "max 1 extra each"; the extra action costs 1 cheese; a card
    that is an action costs its cheese plus that 1."""
    inspired = (*knows("collin", "inspire"), MiceInspired(mouse="collin", round=1))
    state = chapter_1_table(*inspired, cheese("filch", 2), ActionStarted(mouse="filch", action="search"))
    events, state = act(state, Battle(mouse="filch", target="rat-warriors-1"))
    assert events[:2] == [
        ExtraActionTaken(mouse="filch", cheese=1),
        ActionStarted(mouse="filch", action="battle"),
    ]
    _, state = roll(state, 4, 4)
    with pytest.raises(RuleBroken, match="action.already-taken"):
        RULESET.decide(state, Search(mouse="filch"))
    assert not [c for c in RULESET.legal_commands(state) if isinstance(c, (Battle, Search))]
    assert state.cheese["filch"] == 1
    broke = chapter_1_table(*inspired, ActionStarted(mouse="filch", action="search"))
    with pytest.raises(RuleBroken, match="action.extra-needs-cheese"):
        RULESET.decide(broke, Battle(mouse="filch", target="rat-warriors-1"))
    assert not [c for c in RULESET.legal_commands(broke) if isinstance(c, Battle)]
    mystic = chapter_1_table(
        *inspired,
        *knows("maginos", "chain-lightning"),
        cheese("maginos", 3),
        ActionStarted(mouse="maginos", action="search"),
        track=MAGINOS_FIRST,
    )
    lightning = UseAbility(mouse="maginos", ability="chain-lightning", targets=("rat-warriors-1",))
    with pytest.raises(RuleBroken, match="ability.not-enough-cheese"):
        RULESET.decide(mystic, lightning)
    events, state = act(fold_events(mystic, [cheese("maginos", 1)]), lightning)
    assert events[:3] == [
        ExtraActionTaken(mouse="maginos", cheese=1),
        ActionStarted(mouse="maginos", action="battle"),
        AbilityUsed(mouse="maginos", ability="chain-lightning", cost=3),
    ]
    assert state.cheese["maginos"] == 0


def test_rulebook_carte_abilita_inspire_lasts_until_the_round_ends():
    """docs/mice-and-mystics/facts.md §4 row 14: "until the end of the round"."""
    state = chapter_1_table(
        *knows("collin", "inspire"),
        MiceInspired(mouse="collin", round=1),
        cheese("filch", 2),
        RoundStarted(round=2),
        TurnStarted(card="filch", slot=0),
        ActionStarted(mouse="filch", action="search"),
    )
    with pytest.raises(RuleBroken, match="action.already-taken"):
        RULESET.decide(state, Battle(mouse="filch", target="rat-warriors-1"))


def test_rulebook_carte_abilita_inspire_only_before_the_turn_and_with_its_cheese():
    """docs/mice-and-mystics/facts.md §4 row 14: "use before this mouse's turn"; MM rulebook (it) §Carte
    Abilità dei Topi (cost)."""
    state = chapter_1_table(*knows("collin", "inspire"), cheese("collin", 3), track=COLLIN_FIRST)
    rolled = MovementPointsGained(mouse="collin", die_number=1, move_value=2, points=3)
    for started in (ActionStarted(mouse="collin", action="search"), rolled):
        late = fold_events(state, [started])
        with pytest.raises(RuleBroken, match="ability.too-late"):
            RULESET.decide(late, UseAbility(mouse="collin", ability="inspire"))
        assert not uses(late, "collin")
    _, once = act(state, UseAbility(mouse="collin", ability="inspire"))
    with pytest.raises(RuleBroken, match="ability.once-per-turn"):
        RULESET.decide(once, UseAbility(mouse="collin", ability="inspire"))
    poor = chapter_1_table(*knows("collin", "inspire"), cheese("collin", 1), track=COLLIN_FIRST)
    with pytest.raises(RuleBroken, match="ability.not-enough-cheese"):
        RULESET.decide(poor, UseAbility(mouse="collin", ability="inspire"))
    with pytest.raises(RuleBroken, match="turn.not-your-turn"):
        RULESET.decide(
            chapter_1_table(*knows("collin", "inspire"), cheese("collin", 3)),
            UseAbility(mouse="collin", ability="inspire"),
        )


def summoned_with_archer(*events, track=("filch", "collin", "tilda", "maginos", "rat-warriors")):
    """Maginos (ranged staff) holds Preemptive Shot; a full wheel summons 2 Rat Warriors into the
    Guard Room (chapter-1.json); placement choices are answered with their defaults."""
    state = chapter_1_table(
        *knows("maginos", "preemptive-shot"), *events, CheeseAddedToWheel(count=6, reason="test"), track=track
    )
    caused = proceed(state)
    state = fold_events(state, caused)
    while state.awaiting is not None and state.awaiting != "preemptive-shot":
        more, state = decided(state, caused[-1].default)
        caused += more
    return caused, state


def test_rulebook_carte_abilita_preemptive_shot_right_after_placement_one_free_ranged_attack():
    """docs/mice-and-mystics/facts.md §4 row 5: after the summon is placed, the archer (not in its turn) may
    shoot one of the new minions; it pays 1 cheese and the game goes back to Filch's turn."""
    caused, state = summoned_with_archer(cheese("maginos", 1))
    new = tuple(e.figure for e in of_type(caused, FigurePlaced))
    assert len(new) == 2 and state.new_minions == new
    assert caused[-1] == DecisionRequested(
        decision="preemptive-shot", options=(*sorted(new), "pass"), piece="maginos", default="pass"
    )
    events, state = decided(state, new[0], by="south")
    assert events == [
        AbilityUsed(mouse="maginos", ability="preemptive-shot", cost=1),
        PreemptiveShotWindowClosed(figures=new, mouse="maginos"),
        AttackDeclared(attacker="maginos", target=new[0], ranged=True, dice=2),
        RollRequested(reason="battle", dice=2, piece="maginos"),
    ]
    _, state = roll(state, 4, 5)
    events, state = roll(state, 4, 4)
    assert of_type(events, MinionDefeated)[0].figure == new[0]
    assert state.cheese["maginos"] == 0 and state.new_minions == () and state.awaiting is None
    assert (
        state.mouse_turn.mouse == "filch" and state.mouse_turn.ability is None
    )  # not Filch's card, not Maginos' turn
    assert proceed(state) == []  # once per placement


def test_rulebook_carte_abilita_preemptive_shot_pass_closes_the_window_without_paying():
    """docs/mice-and-mystics/facts.md §4 row 5: the card is optional; ``pass`` is the default."""
    caused, state = summoned_with_archer(cheese("maginos", 1))
    events, state = decided(state, "pass", by="south")
    new = tuple(e.figure for e in of_type(caused, FigurePlaced))
    assert events == [PreemptiveShotWindowClosed(figures=new)]
    assert state.cheese["maginos"] == 1 and state.new_minions == () and state.awaiting is None


def test_rulebook_carte_abilita_preemptive_shot_window_with_nobody_eligible_asks_nothing():
    """docs/mice-and-mystics/facts.md §4 row 5: no cheese, no sight of the new figures, captured, or nobody
    holding the card: no decision; the window closes (or is never opened)."""
    caused, state = summoned_with_archer()  # Maginos has no cheese
    assert caused[-1] == PreemptiveShotWindowClosed(
        figures=tuple(e.figure for e in of_type(caused, FigurePlaced))
    )
    assert "preemptive-shot" not in [e.decision for e in of_type(caused, DecisionRequested)]
    assert state.awaiting is None and state.new_minions == ()
    unseen = chapter_1_table(
        *knows("maginos", "preemptive-shot"),
        cheese("maginos", 1),
        FigurePlaced(figure="roaches-1", card="roaches", space="KT-1"),
    )
    assert proceed(unseen) == [PreemptiveShotWindowClosed(figures=("roaches-1",))]
    captured = fold_events(
        unseen, [MouseCaptured(mouse="maginos", cheese_discarded=1), cheese("maginos", 1), RAT_NEXT_TO_MICE]
    )
    assert proceed(captured) == [PreemptiveShotWindowClosed(figures=("roaches-1", "rat-warriors-4"))]
    nobody = chapter_1_table(RAT_NEXT_TO_MICE)
    assert nobody.new_minions == () and proceed(nobody) == []


def test_rulebook_carte_abilita_preemptive_shot_is_not_a_command_and_counts_in_the_archers_own_turn():
    """docs/mice-and-mystics/rulings.md, Ability cards: in its own turn the shot is the archer's one card of
    the turn; the card is never played by command."""
    state = chapter_1_table(
        *knows("maginos", "preemptive-shot", "aimed-shot"), cheese("maginos", 3), track=MAGINOS_FIRST
    )
    with pytest.raises(RuleBroken, match="ability.not-now"):
        RULESET.decide(state, UseAbility(mouse="maginos", ability="preemptive-shot"))
    assert UseAbility(mouse="maginos", ability="preemptive-shot") not in uses(state, "maginos")
    aimed = fold_events(state, [AbilityUsed(mouse="maginos", ability="aimed-shot", cost=1), RAT_NEXT_TO_MICE])
    assert proceed(aimed) == [PreemptiveShotWindowClosed(figures=("rat-warriors-4",))]
    fresh = fold_events(state, [RAT_NEXT_TO_MICE])
    asked = proceed(fresh)
    assert asked == [
        DecisionRequested(
            decision="preemptive-shot", options=("rat-warriors-4", "pass"), piece="maginos", default="pass"
        )
    ]
    _, shot = decided(fold_events(fresh, asked), "rat-warriors-4")
    assert shot.mouse_turn.ability == "preemptive-shot"
    with pytest.raises(RuleBroken, match="free-action.inside-action"):  # the shot's roll is pending
        RULESET.decide(shot, UseAbility(mouse="maginos", ability="aimed-shot"))
