"""Free actions: Share, Equip, Level Up (MM rulebook (it) §Azioni Gratuite; §Condividere; §Equipaggiare;
§Salire di Livello; §Muoversi nell'Acqua; MM rulebook (it) §Topi Catturati; docs/mice-and-mystics/facts.md §0,
§2, §5)."""

import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import DecisionRequested, RollRequested
from dicelog.domain.mice_and_mystics.commands import (
    Battle,
    EndTurn,
    Equip,
    EquipCard,
    LevelUp,
    Search,
    Share,
    Unequip,
)
from dicelog.domain.mice_and_mystics.events import (
    AttackDeclared,
    CheeseGained,
    FigurePlaced,
    MouseCaptured,
    MouseWounded,
    RoomTilePlaced,
    SearchCardKept,
    TurnStarted,
)
from dicelog.domain.mice_and_mystics.item_events import (
    CheeseShared,
    EquipmentDiscarded,
    MouseLeveledUp,
    PackCardDiscarded,
    PartyItemGained,
    SearchCardEquipped,
    SearchCardShared,
    SearchCardUnequipped,
)
from dicelog.domain.mice_and_mystics.rules.combat import mouse_defense_dice, wound_mouse
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import act, chapter_1_table, choose


def kept(mouse, *cards):
    return [SearchCardKept(mouse=mouse, card=c) for c in cards]


COLLIN_FIRST = ("collin", "filch", "tilda", "maginos", "rat-warriors")


def at(space, mouse):
    return FigurePlaced(figure=mouse, card=mouse, space=space)


# --- Share -------------------------------------------------------------------------------------


def test_share_gives_a_pack_card_to_a_mouse_on_the_same_space__rulebook_condividere():
    state = chapter_1_table(*kept("filch", "toothpick"))
    events, state = act(state, Share(mouse="filch", with_mouse="collin", card="toothpick"))
    assert events == [SearchCardShared(mouse="filch", with_mouse="collin", card="toothpick", by="filch")]
    assert state.pack["filch"] == () and state.pack["collin"] == ("toothpick",)
    assert state.mouse_turn.action is None and state.mouse_turn.free_actions == ("share",)


def test_share_gives_cheese_and_a_card_to_an_adjacent_mouse_in_one_free_action__rulebook_condividere():
    state = chapter_1_table(
        at("GR-7", "collin"), *kept("filch", "toothpick"), CheeseGained(mouse="filch", count=3, reason="t")
    )
    events, state = act(state, Share(mouse="filch", with_mouse="collin", card="toothpick", cheese=2))
    assert events == [
        SearchCardShared(mouse="filch", with_mouse="collin", card="toothpick", by="filch"),
        CheeseShared(mouse="filch", with_mouse="collin", count=2, by="filch"),
    ]
    assert state.cheese["filch"] == 1 and state.cheese["collin"] == 2


def test_share_refused_with_a_mouse_neither_on_the_same_nor_an_adjacent_space__rulebook_condividere():
    state = chapter_1_table(at("GR-1", "collin"), CheeseGained(mouse="filch", count=1, reason="t"))
    with pytest.raises(RuleBroken, match="share.not-adjacent"):
        RULESET.decide(state, Share(mouse="filch", with_mouse="collin", cheese=1))
    assert not [c for c in RULESET.legal_commands(state) if isinstance(c, Share) and c.with_mouse == "collin"]


def test_share_is_a_free_exchange_giving_and_taking_cards_and_cheese__rulebook_condividere():
    """MM rulebook (it) §Condividere: "scambiare liberamente carte Ricerca e/o segnalini Formaggio"; MM
    rulebook (pt) "livremente trocar": one Share both gives and takes; it is the acting mouse's free action
    only."""
    state = chapter_1_table(
        at("GR-7", "collin"),
        *kept("filch", "toothpick"),
        *kept("collin", "ring-of-feline-strength", "search-card-01"),
        CheeseGained(mouse="collin", count=3, reason="t"),
    )
    command = Share(
        mouse="filch",
        with_mouse="collin",
        give=("toothpick",),
        take=("ring-of-feline-strength", "search-card-01"),
        take_cheese=2,
    )
    events, state = act(state, command)
    assert events == [
        SearchCardShared(mouse="filch", with_mouse="collin", card="toothpick", by="filch"),
        SearchCardShared(mouse="collin", with_mouse="filch", card="ring-of-feline-strength", by="filch"),
        SearchCardShared(mouse="collin", with_mouse="filch", card="search-card-01", by="filch"),
        CheeseShared(mouse="collin", with_mouse="filch", count=2, by="filch"),
    ]
    assert state.pack["filch"] == ("ring-of-feline-strength", "search-card-01") and state.pack["collin"] == (
        "toothpick",
    )
    assert state.cheese["filch"] == 2 and state.cheese["collin"] == 1
    assert state.mouse_turn.mouse == "filch" and state.mouse_turn.free_actions == ("share",)


def test_share_take_only_counts_as_the_acting_mouse_s_share__rulebook_azioni_gratuite():
    state = chapter_1_table(*kept("collin", "toothpick"))
    _, state = act(state, Share(mouse="filch", with_mouse="collin", take=("toothpick",)))
    assert state.pack["filch"] == ("toothpick",) and state.mouse_turn.free_actions == ("share",)
    with pytest.raises(RuleBroken, match="free-action.once-per-turn"):
        RULESET.decide(state, Share(mouse="filch", with_mouse="collin", card="toothpick"))


def test_share_refuses_cards_not_in_the_giver_s_pack_named_twice_and_missing_cheese__rulebook_condividere():
    state = chapter_1_table(
        *kept("filch", "toothpick"),
        *kept("collin", "search-card-01"),
        CheeseGained(mouse="collin", count=1, reason="t"),
    )
    with pytest.raises(RuleBroken, match="share.not-in-pack"):
        RULESET.decide(state, Share(mouse="filch", with_mouse="collin", take=("toothpick",)))
    with pytest.raises(RuleBroken, match="share.not-in-pack"):
        RULESET.decide(state, Share(mouse="filch", with_mouse="collin", give=("search-card-01",)))
    with pytest.raises(RuleBroken, match="share.same-card"):
        RULESET.decide(
            state, Share(mouse="filch", with_mouse="collin", card="toothpick", give=("toothpick",))
        )
    with pytest.raises(RuleBroken, match="share.not-enough-cheese"):
        RULESET.decide(state, Share(mouse="filch", with_mouse="collin", take_cheese=2))
    with pytest.raises(RuleBroken, match="share.nothing"):
        RULESET.decide(state, Share(mouse="filch", with_mouse="collin"))


def test_share_into_a_full_pack_the_receiver_discards_a_card_of_choice__rulebook_equipaggiare():
    """MM rulebook (it) §Equipaggiare: "se superate questo limite, dovrete scartare 1 carta a scelta dalla
    sacca" (MM rulebook (pt): "Se, em algum momento, o rato superar esse limite"): the gift is allowed;
    Collin's player picks the card to discard among his pack's cards (tricks and party items are not counted),
    for no cheese."""
    state = chapter_1_table(
        *kept("collin", "search-card-01", "search-card-02", "search-card-03"),
        *kept("filch", "toothpick"),
        PartyItemGained(mouse="collin", card="grapes"),
    )
    events, state = act(state, Share(mouse="filch", with_mouse="collin", card="toothpick"))
    assert events == [
        SearchCardShared(mouse="filch", with_mouse="collin", card="toothpick", by="filch"),
        DecisionRequested(
            decision="pack-limit",
            options=("search-card-01", "search-card-02", "search-card-03", "toothpick"),
            piece="collin",
            default="toothpick",
        ),
    ]
    with pytest.raises(RuleBroken, match="free-action.inside-action"):
        RULESET.decide(state, Equip(mouse="filch", card="toothpick", slot="both-paws"))
    events, state = choose(state, "search-card-02")
    assert events[0] == PackCardDiscarded(mouse="collin", card="search-card-02")
    assert not [e for e in events if isinstance(e, DecisionRequested)]
    assert (
        state.pack["collin"] == ("search-card-01", "search-card-03", "toothpick") and state.awaiting is None
    )
    assert state.cheese.get("collin", 0) == 0


def test_share_legal_commands_list_single_gives_and_takes__rulebook_condividere():
    state = chapter_1_table(
        *kept("collin", "toothpick"),
        CheeseGained(mouse="collin", count=2, reason="t"),
        *kept("filch", "search-card-01"),
    )
    legal = [c for c in RULESET.legal_commands(state) if isinstance(c, Share) and c.with_mouse == "collin"]
    assert legal == [
        Share(mouse="filch", with_mouse="collin", card="search-card-01"),
        Share(mouse="filch", with_mouse="collin", take=("toothpick",)),
        Share(mouse="filch", with_mouse="collin", take_cheese=1),
        Share(mouse="filch", with_mouse="collin", take_cheese=2),
    ]
    for command in legal:
        assert RULESET.decide(state, command)


# --- limits common to free actions ---------------------------------------------------------------


def test_each_free_action_at_most_once_per_turn__rulebook_azioni_gratuite():
    state = chapter_1_table(CheeseGained(mouse="filch", count=3, reason="t"))
    _, state = act(state, Share(mouse="filch", with_mouse="collin", cheese=1))
    with pytest.raises(RuleBroken, match="free-action.once-per-turn"):
        RULESET.decide(state, Share(mouse="filch", with_mouse="tilda", cheese=1))
    assert not [c for c in RULESET.legal_commands(state) if isinstance(c, Share)]
    _, state = act(state, Search(mouse="filch"))  # the action is still free
    assert state.awaiting == "search"


def test_free_actions_start_again_each_turn__rulebook_azioni_gratuite():
    state = chapter_1_table(CheeseGained(mouse="filch", count=3, reason="t"))
    _, state = act(state, Share(mouse="filch", with_mouse="collin", cheese=1))
    state = chapter_1_table(
        CheeseGained(mouse="filch", count=3, reason="t"),
        CheeseShared(mouse="filch", with_mouse="collin", count=1),
        TurnStarted(card="filch", slot=0),
    )
    assert RULESET.decide(state, Share(mouse="filch", with_mouse="collin", cheese=1))


def test_no_free_action_in_the_middle_of_another_action__rulebook_azioni_gratuite():
    state = chapter_1_table(CheeseGained(mouse="filch", count=3, reason="t"))
    _, state = act(state, Search(mouse="filch"))  # the search roll is pending
    with pytest.raises(RuleBroken, match="free-action.inside-action"):
        RULESET.decide(state, Share(mouse="filch", with_mouse="collin", cheese=1))


def test_no_free_action_for_a_mouse_in_water__rulebook_muoversi_nell_acqua():
    state = chapter_1_table(
        RoomTilePlaced(tile="sewer", column=5, row=5),
        at("SW-7", "filch"),
        at("SW-7", "collin"),
        CheeseGained(mouse="filch", count=6, reason="t"),
    )
    with pytest.raises(RuleBroken, match="free-action.in-water"):
        RULESET.decide(state, Share(mouse="filch", with_mouse="collin", cheese=1))
    with pytest.raises(RuleBroken, match="free-action.in-water"):
        RULESET.decide(state, LevelUp(mouse="filch", ability="knife-strike"))
    assert not [c for c in RULESET.legal_commands(state) if isinstance(c, (Share, LevelUp, Equip, Unequip))]


# --- Equip ---------------------------------------------------------------------------------------


def test_equip_a_two_pawed_weapon_puts_the_paw_weapon_back_in_the_pack__rulebook_equipaggiare():
    state = chapter_1_table(*kept("collin", "toothpick"), track=COLLIN_FIRST)
    events, state = act(state, Equip(mouse="collin", card="toothpick", slot="both-paws"))
    assert events == [
        SearchCardEquipped(
            mouse="collin",
            card="toothpick",
            slot="both-paws",
            unequipped=("collins-sword",),
            loadout=(("leather-breastplate", "body"), ("toothpick", "both-paws")),
        )
    ]
    assert state.pack["collin"] == ("collins-sword",)


def test_equip_only_from_the_pack_and_in_the_card_s_slot__rulebook_equipaggiare():
    state = chapter_1_table(*kept("collin", "toothpick"), track=COLLIN_FIRST)
    with pytest.raises(RuleBroken, match="equip.not-in-pack"):
        RULESET.decide(state, Equip(mouse="collin", card="bow-of-precision", slot="paw"))
    with pytest.raises(RuleBroken, match="equip.wrong-slot"):
        RULESET.decide(state, Equip(mouse="collin", card="toothpick", slot="paw"))


def test_equip_refused_when_the_class_requirement_is_not_met__rulebook_carte_ricerca():
    state = chapter_1_table(*kept("collin", "cloak-of-displacement"), track=COLLIN_FIRST)
    with pytest.raises(RuleBroken, match="equip.requirement"):
        RULESET.decide(state, Equip(mouse="collin", card="cloak-of-displacement", slot="body"))


def test_unknown_cards_are_not_equipment__rulebook_carte_ricerca():
    state = chapter_1_table(*kept("collin", "search-card-01"), track=COLLIN_FIRST)
    with pytest.raises(RuleBroken, match="equip.not-equipment"):
        RULESET.decide(state, Equip(mouse="collin", card="search-card-01", slot="paw"))


def test_filch_prehensile_tail_holds_a_dagger_as_a_third_paw__rulebook_filch_coda_prensile():
    state = chapter_1_table(
        SearchCardUnequipped(mouse="filch", card="dagger", loadout=()), TurnStarted(card="filch", slot=0)
    )
    events, state = act(state, Equip(mouse="filch", card="dagger", slot="tail"))
    assert events[0].loadout == (("dagger", "tail"),)
    state = chapter_1_table(
        SearchCardUnequipped(mouse="collin", card="collins-sword", loadout=()),
        *kept("collin", "dagger"),
        TurnStarted(card="collin", slot=0),
    )
    with pytest.raises(RuleBroken, match="equip.wrong-slot"):
        RULESET.decide(state, Equip(mouse="collin", card="dagger", slot="tail"))


def test_unequip_into_a_full_pack_then_discard_one_card_of_choice__rulebook_equipaggiare():
    """MM rulebook (it) §Equipaggiare: at most 3 cards in the pack, tricks (and party items) excluded; over
    the limit the player discards 1 card of their choice — here the Dagger just put back is kept."""
    state = chapter_1_table(
        *kept("filch", "search-card-01", "search-card-02", "search-card-03"),
        PartyItemGained(mouse="filch", card="grapes"),
    )
    assert Unequip(mouse="filch", card="dagger") in RULESET.legal_commands(state)
    events, state = act(state, Unequip(mouse="filch", card="dagger"))
    assert events == [
        SearchCardUnequipped(mouse="filch", card="dagger", loadout=()),
        DecisionRequested(
            decision="pack-limit",
            options=("search-card-01", "search-card-02", "search-card-03", "dagger"),
            piece="filch",
            default="dagger",
        ),
    ]
    events, state = choose(state, "search-card-01")
    assert events[0] == PackCardDiscarded(mouse="filch", card="search-card-01")
    assert state.pack["filch"] == ("search-card-02", "search-card-03", "dagger")


def test_one_equip_moves_several_cards_between_pack_and_equipment__rulebook_equipaggiare():
    """MM rulebook (it) §Equipaggiare: "può Equipaggiare carte che sono nella sua sacca, o spostare nella
    sacca carte precedentemente Equipaggiate" (plural): Filch moves his Dagger to his tail, takes the
    Toothpick in both paws and puts on the Cloak in one free action."""
    state = chapter_1_table(*kept("filch", "toothpick", "cloak-of-displacement"))
    command = Equip(
        mouse="filch",
        unequip=("dagger",),
        cards=(
            EquipCard(card="dagger", slot="tail"),
            EquipCard(card="toothpick", slot="both-paws"),
            EquipCard(card="cloak-of-displacement", slot="body"),
        ),
    )
    events, state = act(state, command)
    assert events == [
        SearchCardUnequipped(mouse="filch", card="dagger", loadout=()),
        SearchCardEquipped(mouse="filch", card="dagger", slot="tail", loadout=(("dagger", "tail"),)),
        SearchCardEquipped(
            mouse="filch",
            card="toothpick",
            slot="both-paws",
            loadout=(("dagger", "tail"), ("toothpick", "both-paws")),
        ),
        SearchCardEquipped(
            mouse="filch",
            card="cloak-of-displacement",
            slot="body",
            loadout=(("dagger", "tail"), ("toothpick", "both-paws"), ("cloak-of-displacement", "body")),
        ),
    ]
    assert state.pack["filch"] == () and state.mouse_turn.free_actions == ("equip",)
    with pytest.raises(RuleBroken, match="free-action.once-per-turn"):
        RULESET.decide(state, Unequip(mouse="filch", card="toothpick"))


def test_an_equip_of_several_cards_is_refused_whole_and_needs_a_card__rulebook_equipaggiare():
    state = chapter_1_table(*kept("filch", "toothpick"))
    with pytest.raises(RuleBroken, match="equip.not-in-pack"):  # the second card is not in the pack
        RULESET.decide(
            state,
            Equip(
                mouse="filch",
                card="toothpick",
                slot="both-paws",
                cards=(EquipCard(card="cloak-of-displacement", slot="body"),),
            ),
        )
    with pytest.raises(RuleBroken, match="equip.not-equipped"):
        RULESET.decide(state, Equip(mouse="filch", unequip=("toothpick",)))
    with pytest.raises(RuleBroken, match="equip.nothing"):
        RULESET.decide(state, Equip(mouse="filch"))
    with pytest.raises(RuleBroken, match="equip.wrong-slot"):
        RULESET.decide(state, Equip(mouse="filch", card="toothpick"))


def test_an_equip_leaving_the_pack_over_the_limit_asks_a_discard_until_it_fits__rulebook_equipaggiare():
    """Two cards back into a full pack make 5: one discard of the player's choice at a time until the
    pack holds 3 (MM rulebook (it) §Equipaggiare; MM rulebook (pt) §Equipar)."""
    state = chapter_1_table(
        *kept("collin", "search-card-01", "search-card-02", "search-card-03"), track=COLLIN_FIRST
    )
    events, state = act(state, Equip(mouse="collin", unequip=("collins-sword", "leather-breastplate")))
    assert events[-1] == DecisionRequested(
        decision="pack-limit",
        options=(
            "search-card-01",
            "search-card-02",
            "search-card-03",
            "collins-sword",
            "leather-breastplate",
        ),
        piece="collin",
        default="leather-breastplate",
    )
    events, state = choose(state, "search-card-02")
    assert events == [
        PackCardDiscarded(mouse="collin", card="search-card-02"),
        DecisionRequested(
            decision="pack-limit",
            options=("search-card-01", "search-card-03", "collins-sword", "leather-breastplate"),
            piece="collin",
            default="leather-breastplate",
        ),
    ]
    events, state = choose(state, "search-card-01")
    assert events[0] == PackCardDiscarded(mouse="collin", card="search-card-01")
    assert (
        state.pack["collin"] == ("search-card-03", "collins-sword", "leather-breastplate")
        and state.awaiting is None
    )


def test_unequip_moves_the_card_to_the_pack_and_the_mouse_cannot_attack_unarmed__rulebook_equipaggiare():
    events, state = act(chapter_1_table(), Unequip(mouse="filch", card="dagger"))
    assert events == [SearchCardUnequipped(mouse="filch", card="dagger", loadout=())]
    assert state.pack["filch"] == ("dagger",)
    with pytest.raises(RuleBroken, match="battle.unarmed"):
        RULESET.decide(state, Battle(mouse="filch", target="rat-warriors-1"))


def test_equipped_ring_adds_a_battle_die_to_a_melee_attack__rulebook_carte_ricerca_anello():
    state = chapter_1_table(*kept("filch", "ring-of-feline-strength"))
    _, state = act(state, Equip(mouse="filch", card="ring-of-feline-strength", slot="accessory"))
    events, _ = act(state, Battle(mouse="filch", target="rat-warriors-1"))
    assert events[1:] == [
        AttackDeclared(attacker="filch", target="rat-warriors-1", ranged=False, dice=3),
        RollRequested(reason="battle", dice=3, piece="filch"),
    ]


def test_equipped_armour_adds_defense_dice__rulebook_attacco():
    state = chapter_1_table(*kept("filch", "cloak-of-displacement"))
    assert mouse_defense_dice("filch", state) == 2
    _, state = act(state, Equip(mouse="filch", card="cloak-of-displacement", slot="body"))
    assert mouse_defense_dice("filch", state) == 3


def test_a_captured_mouse_discards_equipped_search_cards_not_starting_equipment__rulebook_topi_catturati():
    state = chapter_1_table(*kept("filch", "cloak-of-displacement", "toothpick"))
    _, state = act(state, Equip(mouse="filch", card="cloak-of-displacement", slot="body"))
    events = wound_mouse(state, "filch", 5)
    assert events[:2] == [
        MouseWounded(mouse="filch", wounds=5),
        EquipmentDiscarded(mouse="filch", cards=("cloak-of-displacement",), loadout=(("dagger", "paw"),)),
    ]
    assert isinstance(events[2], MouseCaptured)


# --- Level up ------------------------------------------------------------------------------------


def test_level_up_trades_six_cheese_for_a_chosen_ability_card_of_the_class__rulebook_salire_di_livello():
    state = chapter_1_table(CheeseGained(mouse="filch", count=7, reason="t"))
    events, state = act(state, LevelUp(mouse="filch", ability="knife-strike"))
    assert events == [MouseLeveledUp(mouse="filch", ability="knife-strike", cheese=6)]
    assert state.cheese["filch"] == 1 and state.abilities["filch"] == ("knife-strike",)


def test_level_up_needs_six_cheese_the_class_and_a_card_no_mouse_holds__rulebook_salire_di_livello():
    state = chapter_1_table(CheeseGained(mouse="filch", count=5, reason="t"))
    with pytest.raises(RuleBroken, match="level-up.not-enough-cheese"):
        RULESET.decide(state, LevelUp(mouse="filch", ability="knife-strike"))
    state = chapter_1_table(
        CheeseGained(mouse="filch", count=6, reason="t"),
        MouseLeveledUp(mouse="collin", ability="first-aid", cheese=0),
    )
    for ability in ("accurate-shot", "first-aid", "meeps"):  # archer only; held by Collin; Maginos only
        with pytest.raises(RuleBroken, match="level-up.not-eligible"):
            RULESET.decide(state, LevelUp(mouse="filch", ability=ability))
    legal = {c.ability for c in RULESET.legal_commands(state) if isinstance(c, LevelUp)}
    assert legal == {"dodge", "energy-rush", "find", "keen-eye", "knife-strike"}


def test_legal_commands_list_free_actions_before_end_turn__rulebook_azioni_gratuite():
    state = chapter_1_table(*kept("filch", "toothpick"), CheeseGained(mouse="filch", count=1, reason="t"))
    legal = RULESET.legal_commands(state)
    assert Share(mouse="filch", with_mouse="collin", card="toothpick") in legal
    assert Share(mouse="filch", with_mouse="tilda", cheese=1) in legal
    assert Equip(mouse="filch", card="toothpick", slot="both-paws") in legal
    assert Unequip(mouse="filch", card="dagger") in legal  # the pack has room for it
    assert legal[-1] == EndTurn(mouse="filch")


def test_an_equipped_search_card_can_be_the_one_kept_for_the_campaign__rulebook_campagna_2():
    from dicelog.domain.mice_and_mystics.campaign import carry_over_of

    state = chapter_1_table(*kept("filch", "cloak-of-displacement"))
    _, state = act(state, Equip(mouse="filch", card="cloak-of-displacement", slot="body"))
    assert carry_over_of(state, None).equipment == {"filch": "cloak-of-displacement"}
