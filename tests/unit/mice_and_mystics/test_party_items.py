"""Party items: held by the party, no pack room; Fishhook & Thread, Dinner Fork, Disguises (MM rulebook (it)
§Oggetti del Gruppo, pp. 18-19: Amo e Lenza, Forchetta, Travestimento, Uva come Arma, Uva come Esca per
Blatte; docs/mice-and-mystics/facts.md §5)."""

import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import CardsDrawn, RollRequested
from dicelog.domain.mice_and_mystics.chapter_events import SearchDeckShuffled
from dicelog.domain.mice_and_mystics.commands import (
    Catapult,
    LeaveWater,
    Move,
    MoveTo,
    PickUpFork,
    PlaceFishhook,
    PlaceFork,
    PlaceGrapes,
    RemoveFishhook,
    Search,
    ThrowGrapes,
)
from dicelog.domain.mice_and_mystics.events import (
    ActionStarted,
    AttackDeclared,
    AttackResolved,
    AttackRolled,
    DecksPrepared,
    EffectAdded,
    FigurePlaced,
    InitiativeCardRemoved,
    MinionActivated,
    MinionMoved,
    MouseMoved,
    RoomEntered,
    RoomTilePlaced,
    SearchCardKept,
    TurnEnded,
)
from dicelog.domain.mice_and_mystics.item_events import (
    MouseCatapulted,
    PartyItemGained,
    PartyItemLost,
    PartyItemPickedUp,
    PartyItemPlaced,
    RoachesAteGrapes,
)
from dicelog.domain.mice_and_mystics.rules import party_items
from dicelog.domain.mice_and_mystics.rules.flow import proceed
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import act, answer, chapter_1_table, fold_events, roll

FISHHOOK, FORK = "fishhook-and-thread", "dinner-fork"


def found(card, mouse="filch"):
    return PartyItemGained(mouse=mouse, card=card)


def test_a_party_item_found_by_search_goes_to_the_party_stash_even_with_a_full_pack__oggetti_del_gruppo():
    state = chapter_1_table(
        DecksPrepared(encounter_deck=(), search_deck=("grapes", "toothpick")),
        *(SearchCardKept(mouse="filch", card=f"search-card-0{n}") for n in (1, 2, 3)),
    )
    _, state = act(state, Search(mouse="filch"))
    _, state = roll(state, 5)
    events, state = answer(
        state, CardsDrawn(reason="search", deck="search", cards=("grapes",), source="manual")
    )
    # no keep-or-discard decision: the token goes to the stash (rules revision 2)
    assert events == [PartyItemGained(mouse="filch", card="grapes")]
    assert state.party_items == ("grapes",) and "grapes" not in state.pack["filch"]


# --- Fishhook & Thread ---------------------------------------------------------------------------


def test_placing_the_fishhook_is_free_and_links_two_spaces_as_adjacent__rulebook_amo_e_lenza():
    state = chapter_1_table(found(FISHHOOK))
    events, state = act(state, PlaceFishhook(mouse="filch", space="GR-15"))
    assert events == [PartyItemPlaced(mouse="filch", item=FISHHOOK, spaces=("GR-6", "GR-15"))]
    assert state.mouse_turn.action is None
    _, state = act(state, Move(mouse="filch"))
    _, state = roll(state, 1)
    events, _ = act(state, MoveTo(mouse="filch", path=("GR-15",)))
    assert events == [MouseMoved(mouse="filch", origin="GR-6", path=("GR-15",), cost=1)]


def test_fishhook_needs_one_end_out_of_water_and_a_space_of_the_same_room__rulebook_amo_e_lenza():
    state = chapter_1_table(
        RoomTilePlaced(tile="sewer", column=5, row=5),
        FigurePlaced(figure="filch", card="filch", space="SW-7"),
        found(FISHHOOK),
    )
    with pytest.raises(RuleBroken, match="fishhook.both-water"):
        RULESET.decide(state, PlaceFishhook(mouse="filch", space="SW-8"))
    with pytest.raises(RuleBroken, match="fishhook.invalid-space"):
        RULESET.decide(state, PlaceFishhook(mouse="filch", space="GR-1"))
    assert RULESET.decide(state, PlaceFishhook(mouse="filch", space="SW-12"))  # free, even from water


def test_removing_the_fishhook_costs_an_action__rulebook_amo_e_lenza():
    state = chapter_1_table(
        found(FISHHOOK), PartyItemPlaced(mouse="filch", item=FISHHOOK, spaces=("GR-15", "GR-6"))
    )
    events, state = act(state, RemoveFishhook(mouse="filch"))
    assert events == [
        ActionStarted(mouse="filch", action="fishhook"),
        PartyItemPickedUp(mouse="filch", item=FISHHOOK),
    ]
    assert state.tokens == {} and state.party_items == (FISHHOOK,)
    with pytest.raises(RuleBroken, match="party-item.not-in-stash"):
        RULESET.decide(chapter_1_table(), PlaceFishhook(mouse="filch", space="GR-15"))


def test_tokens_left_in_a_room_the_mice_leave_are_lost_and_reshuffled__rulebook_amo_e_lenza_forchetta():
    state = chapter_1_table(
        found(FISHHOOK), found(FORK), PartyItemPlaced(mouse="filch", item=FISHHOOK, spaces=("GR-6", "GR-15"))
    )
    events = party_items.after_explore(state, [RoomEntered(tile="kitchen-tunnels", first=True)])
    assert events == [
        RoomEntered(tile="kitchen-tunnels", first=True),
        PartyItemLost(item=FISHHOOK, reason="left-behind"),
        SearchDeckShuffled(added=(FISHHOOK,), reason="left-behind"),
    ]


# --- Dinner Fork ---------------------------------------------------------------------------------


def test_the_fork_goes_free_on_the_mouse_s_space_never_on_water__rulebook_forchetta():
    events, _ = act(chapter_1_table(found(FORK)), PlaceFork(mouse="filch"))
    assert events == [PartyItemPlaced(mouse="filch", item=FORK, spaces=("GR-6",))]
    state = chapter_1_table(
        RoomTilePlaced(tile="sewer", column=5, row=5),
        FigurePlaced(figure="filch", card="filch", space="SW-7"),
        found(FORK),
    )
    with pytest.raises(RuleBroken, match="fork.water"):
        RULESET.decide(state, PlaceFork(mouse="filch"))


def test_the_fork_catapults_another_mouse_to_a_space_it_sees_as_an_action__rulebook_forchetta():
    state = chapter_1_table(found(FORK))
    _, state = act(state, PlaceFork(mouse="filch"))
    events, state = act(state, Catapult(mouse="filch", other="collin", space="GR-15"))
    assert events == [
        ActionStarted(mouse="filch", action="catapult"),
        MouseCatapulted(mouse="collin", by="filch", origin="GR-6", space="GR-15"),
    ]
    assert "collin" in state.board["GR-15"]
    with pytest.raises(RuleBroken, match="action.already-taken"):
        RULESET.decide(state, PickUpFork(mouse="filch"))


def test_the_fork_is_picked_up_as_an_action_from_its_space__rulebook_forchetta():
    state = chapter_1_table(found(FORK), PartyItemPlaced(mouse="collin", item=FORK, spaces=("GR-7",)))
    with pytest.raises(RuleBroken, match="fork.not-here"):
        RULESET.decide(state, PickUpFork(mouse="filch"))
    state = chapter_1_table(found(FORK), PartyItemPlaced(mouse="filch", item=FORK, spaces=("GR-6",)))
    events, _ = act(state, PickUpFork(mouse="filch"))
    assert events == [
        ActionStarted(mouse="filch", action="fork"),
        PartyItemPickedUp(mouse="filch", item=FORK),
    ]


def test_legal_commands_offer_the_party_items__rulebook_oggetti_del_gruppo():
    state = chapter_1_table(found(FORK), PartyItemPlaced(mouse="filch", item=FORK, spaces=("GR-6",)))
    legal = RULESET.legal_commands(state)
    assert (
        Catapult(mouse="filch", other="collin", space="GR-15") in legal and PickUpFork(mouse="filch") in legal
    )
    assert PlaceFork(mouse="filch") not in legal


# --- Disguises -----------------------------------------------------------------------------------


def test_disguises_skip_every_rat_of_one_encounter_then_go_back_into_the_search_deck__travestimento():
    state = chapter_1_table(found("disguises"))
    minions, events = party_items.disguise(state, (("rat-warriors", 2), ("roaches", 2)))
    assert minions == (("roaches", 2),)
    assert events == [
        PartyItemLost(item="disguises", reason="disguises"),
        SearchDeckShuffled(added=("disguises",), reason="disguises"),
    ]
    assert party_items.disguise(state, (("roaches", 2),)) == ((("roaches", 2),), [])
    assert party_items.disguise(chapter_1_table(), (("rat-warriors", 2),)) == ((("rat-warriors", 2),), [])


# --- Grapes as a weapon --------------------------------------------------------------------------


def grapes_ready(*events):
    """Filch on GR-6 with the fork placed there and the grapes in the stash; Collin, Tilda, Maginos on
    GR-7."""
    return chapter_1_table(
        *(FigurePlaced(figure=m, card=m, space="GR-7") for m in ("collin", "tilda", "maginos")),
        found(FORK),
        found("grapes"),
        PartyItemPlaced(mouse="filch", item=FORK, spaces=("GR-6",)),
        *events,
    )


def test_grapes_are_thrown_from_the_fork_space_as_a_coin_flip__rulebook_uva_come_arma():
    events, _ = act(grapes_ready(), ThrowGrapes(mouse="filch", target="rat-warriors-3"))
    assert events == [
        ActionStarted(mouse="filch", action="battle"),
        AttackDeclared(attacker="filch", target="rat-warriors-3", ranged=True, dice=0),
        RollRequested(reason="grapes", dice=1, sides=2, piece="filch"),
    ]
    with pytest.raises(RuleBroken, match="grapes.not-on-fork"):
        RULESET.decide(chapter_1_table(found("grapes")), ThrowGrapes(mouse="filch", target="rat-warriors-3"))


def test_squashed_grapes_hit_every_figure_on_the_space_then_go_back_in_the_deck__rulebook_uva_come_arma():
    _, state = act(grapes_ready(), ThrowGrapes(mouse="filch", target="rat-warriors-3"))
    events, state = roll(state, 1)
    assert events == [
        PartyItemLost(item="grapes", reason="squashed"),
        SearchDeckShuffled(added=("grapes",), reason="squashed"),
        AttackRolled(attacker="filch", target="rat-warriors-3", hits=1),
        RollRequested(reason="minion-defense", dice=2),
    ]
    events, state = roll(state, 4, 4)
    assert AttackResolved(attacker="filch", target="rat-warriors-3", hits=1, blocks=0, wounds=1) in events
    assert "grapes" in state.search_deck and "grapes" not in state.party_items


def test_whole_grapes_knock_the_figures_down_and_stay_as_bait__rulebook_uva_come_arma():
    _, state = act(grapes_ready(), ThrowGrapes(mouse="filch", target="rat-warriors-3"))
    events, state = roll(state, 2)
    assert events[:3] == [
        EffectAdded(mouse="rat-warriors-3", effect="knocked-down"),
        AttackResolved(attacker="filch", target="rat-warriors-3", hits=0, blocks=0, wounds=0),
        PartyItemPlaced(mouse="filch", item="grapes", spaces=("GR-13",)),
    ]
    assert state.tokens["grapes"] == ("GR-13",)


def test_a_mouse_in_water_may_leave_it_along_the_fishhook__rulebook_amo_e_lenza_rulings_party_items():
    state = chapter_1_table(
        RoomTilePlaced(tile="sewer", column=5, row=5),
        FigurePlaced(figure="filch", card="filch", space="SW-7"),
        found(FISHHOOK),
    )
    with pytest.raises(RuleBroken, match="water.not-adjacent"):
        RULESET.decide(state, LeaveWater(mouse="filch", space="SW-15"))
    _, state = act(state, PlaceFishhook(mouse="filch", space="SW-15"))
    assert LeaveWater(mouse="filch", space="SW-15") in RULESET.legal_commands(state)
    events, _ = act(state, LeaveWater(mouse="filch", space="SW-15"))
    assert events[-1] == RollRequested(reason="leave-water", dice=1, piece="filch")


# --- Grapes as roach bait ------------------------------------------------------------------------


def test_grapes_go_free_on_an_empty_adjacent_space_as_bait__rulebook_uva_come_esca_per_blatte():
    state = chapter_1_table(found("grapes"))
    events, state = act(state, PlaceGrapes(mouse="filch", space="GR-5"))
    assert events == [PartyItemPlaced(mouse="filch", item="grapes", spaces=("GR-5",))]
    assert state.mouse_turn.action is None
    with pytest.raises(RuleBroken, match="grapes.invalid-space"):
        RULESET.decide(
            chapter_1_table(found("grapes")), PlaceGrapes(mouse="filch", space="GR-2")
        )  # a rat is there


def test_roaches_head_for_the_grapes_and_eat_them_instead_of_attacking__rulebook_uva_come_esca_per_blatte():
    state = chapter_1_table(
        found("grapes"),
        PartyItemPlaced(mouse="filch", item="grapes", spaces=("GR-5",)),
        FigurePlaced(figure="roaches-1", card="roaches", space="GR-1"),
        track=("roaches", "filch", "collin", "tilda", "maginos", "rat-warriors"),
    )
    pending = proceed(state)
    assert pending[-1] == RollRequested(reason="minion-move", dice=1)
    events, state = roll(fold_events(state, pending), 1)
    assert events[:6] == [
        MinionMoved(figure="roaches-1", origin="GR-1", path=("GR-5",)),
        RoachesAteGrapes(figures=("roaches-1",), space="GR-5"),
        PartyItemLost(item="grapes", reason="eaten"),
        SearchDeckShuffled(added=("grapes",), reason="eaten"),
        TurnEnded(card="roaches"),
        InitiativeCardRemoved(card="roaches"),
    ]
    assert "roaches-1" not in state.figures and "grapes" in state.search_deck
    assert not [e for e in events if isinstance(e, AttackDeclared) and e.attacker == "roaches-1"]


def test_a_roach_standing_on_the_grapes_eats_them_without_moving__rulebook_uva_come_esca_per_blatte():
    state = chapter_1_table(
        found("grapes"),
        PartyItemPlaced(mouse="filch", item="grapes", spaces=("GR-1",)),
        FigurePlaced(figure="roaches-1", card="roaches", space="GR-1"),
        FigurePlaced(figure="roaches-2", card="roaches", space="GR-15"),
        track=("roaches", "filch", "collin", "tilda", "maginos", "rat-warriors"),
    )
    events = proceed(state)
    assert events[:5] == [
        MinionActivated(figure="roaches-1"),
        MinionMoved(figure="roaches-1", origin="GR-1", path=(), reason="on the grapes"),
        RoachesAteGrapes(figures=("roaches-1",), space="GR-1"),
        PartyItemLost(item="grapes", reason="eaten"),
        SearchDeckShuffled(added=("grapes",), reason="eaten"),
    ]
    assert events[5] == MinionActivated(figure="roaches-2")  # the card goes on: roaches-2 is left


def test_disguises_do_not_skip_captain_vurst_a_boss_of_rat_figures__rulebook_boss_dei_servitori():
    """MM rulebook (it) §Boss dei Servitori: "il Capitano Vurst non sarà influenzato da nessuna regola o
    potere che abbia effetto sui Ratti" (MM rulebook (pt): "os chefões não são afetados pelos poderes que
    afetam os comuns"): Disguises ignore the encounter's Rats, not Vurst."""
    state = chapter_1_table(found("disguises"))
    minions, events = party_items.disguise(state, (("captain-vurst", 1), ("rat-warriors", 2)))
    assert minions == (("captain-vurst", 1),) and of_kind(events, PartyItemLost)
    assert party_items.disguise(state, (("captain-vurst", 1),)) == ((("captain-vurst", 1),), [])


def test_a_boss_of_rat_figures_on_the_grapes_does_not_throw_them__rulebook_boss_dei_servitori():
    """MM rulebook (it) §Uva come Arma makes a Rat on the grapes throw them; MM rulebook (it) §Boss dei
    Servitori: not Captain Vurst (``grapes.rat_on_grapes``), while a Rat Warrior there does."""
    from dicelog.domain.mice_and_mystics.events import BossCardsAssigned
    from dicelog.domain.mice_and_mystics.rules import grapes

    state = chapter_1_table(
        found(FORK),
        found("grapes"),
        PartyItemPlaced(mouse="filch", item="grapes", spaces=("GR-16",)),
        FigurePlaced(figure="captain-vurst", card="captain-vurst", space="GR-16"),
        BossCardsAssigned(figure="captain-vurst", cards=("captain-vurst",)),
        FigurePlaced(figure="rat-warriors-3", card="rat-warriors", space="GR-16"),
    )
    assert state.tokens.get("grapes") == ("GR-16",)
    assert not grapes.rat_on_grapes(state, "captain-vurst")
    assert grapes.rat_on_grapes(state, "rat-warriors-3")


def test_disguises_do_not_stop_a_summon__rulebook_travestimento():
    """MM rulebook (it) §Travestimento: "Il Travestimento non permette di ignorare un'Evocazione": a summon
    from the face-up encounter card places its Rats and the party keeps the Disguises."""
    from dicelog.domain.core.events import DecisionRequested as Asked
    from dicelog.domain.mice_and_mystics.events import CheeseAddedToWheel, EncounterRevealed, MinionDefeated
    from dicelog.domain.mice_and_mystics.rules.summoning import summon
    from tests.unit.mice_and_mystics.scenario import choose

    mice = ("filch", "collin", "tilda", "maginos")
    state = chapter_1_table(
        *(MinionDefeated(figure=f"rat-warriors-{n}", card="rat-warriors") for n in (1, 2, 3)),
        InitiativeCardRemoved(card="rat-warriors"),
        *(FigurePlaced(figure=m, card=m, space="KT-7") for m in mice),
        EncounterRevealed(card="standard-1", page=1),
        found("disguises"),
        CheeseAddedToWheel(count=6, reason="test"),
        track=mice,
    )
    events = summon(state)
    state = fold_events(state, events)
    if isinstance(events[-1], Asked):
        more, state = choose(state, events[-1].default)
        events += more
    assert [e.card for e in of_kind(events, FigurePlaced)] == ["rat-warriors", "rat-warriors"]
    assert not of_kind(events, PartyItemLost) and party_items.holds(state, "disguises")


def of_kind(events, kind):
    return [e for e in events if isinstance(e, kind)]
