"""Explore and encounters (MM rulebook (it) §Esplorare; MM rulebook (it) §Incontri; MM rulebook (it)
§Determinare l'Ordine di Iniziativa). Chapter 1 table: Guard Room (0,0), Kitchen Tunnels (1,0), Tunnel
Entrance (1,1); the Guard Room's east exit (orange, GR-8/GR-12) aligns with the Kitchen's west exit (orange,
KI-8) on the other face of the Kitchen Tunnels board."""

import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import (
    CardsDrawn,
    CardsShuffled,
    DecisionRequested,
    DrawRequested,
    ShuffleRequested,
)
from dicelog.domain.mice_and_mystics.chapter_events import CounterCheesePlaced
from dicelog.domain.mice_and_mystics.commands import EndTurn, Explore
from dicelog.domain.mice_and_mystics.events import (
    ActionStarted,
    CheeseGained,
    DecksPrepared,
    EncounterRevealed,
    FigurePlaced,
    InitiativeCardRemoved,
    InitiativeTrackReshuffled,
    MinionDefeated,
    RoomEntered,
    RoomTilePlaced,
    RoundStarted,
    TileFlipped,
    TurnEnded,
    TurnStarted,
)
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from dicelog.domain.mice_and_mystics.state import RULES_REVISION
from tests.unit.mice_and_mystics.scenario import act, answer, chapter_1_table, given, of_type

RAT = "rat-warriors"
MICE = ("filch", "collin", "tilda", "maginos")
NO_RATS = (
    *(MinionDefeated(figure=f"rat-warriors-{n}", card=RAT) for n in (1, 2, 3)),
    InitiativeCardRemoved(card=RAT),
    DecksPrepared(encounter_deck=tuple(f"standard-{n}" for n in range(1, 10))),
)
DECK = tuple(f"standard-{n}" for n in range(1, 10))


def at(space, figure="filch"):
    return FigurePlaced(figure=figure, card=figure, space=space)


def test_explore_refused_while_minions_are_in_the_room__rulebook_esplorare():
    with pytest.raises(RuleBroken, match="explore.minions-in-room"):
        RULESET.decide(chapter_1_table(at("GR-8")), Explore(mouse="filch", via="E"))


def test_explore_needs_an_aligned_exit_of_the_same_colour__rulebook_esplorare():
    state = chapter_1_table(*NO_RATS, at("GR-9"), track=MICE)
    with pytest.raises(RuleBroken, match="explore.no-way"):
        RULESET.decide(state, Explore(mouse="filch", via="W"))
    assert [c for c in RULESET.legal_commands(state) if isinstance(c, Explore)] == []


def test_explore_an_exit_flips_the_next_board_to_the_matching_colour_and_moves_every_mouse__esplorare():
    state = chapter_1_table(*NO_RATS, at("GR-8"), track=MICE)
    assert Explore(mouse="filch", via="E") in RULESET.legal_commands(state)
    events, state = act(state, Explore(mouse="filch", via="E"))
    assert events[:2] == [
        ActionStarted(mouse="filch", action="explore"),
        TileFlipped(tile="kitchen-tunnels", to="kitchen"),
    ]
    assert events[2:6] == [
        FigurePlaced(figure=m, card=m, space="KI-8") for m in ("collin", "tilda", "filch", "maginos")
    ]
    assert events[6:] == [
        RoomEntered(tile="kitchen", first=True),
        CounterCheesePlaced(count=3),  # Chapter 1, Kitchen room rule (rules/chapter_1.py)
        DrawRequested(reason="encounter", deck="encounter", cards=DECK),
    ]


def test_encounter_places_its_page_band_and_reshuffles_the_track_without_minion_cards__rulebook_incontri():
    _, state = act(chapter_1_table(*NO_RATS, at("GR-8"), track=MICE), Explore(mouse="filch", via="E"))
    events, state = answer(state, CardsDrawn(reason="encounter", deck="encounter", cards=("standard-1",)))
    # 2 rat warriors on 3 free entrances: the two nearest the mice on KI-8, KI-14 (1 space) and KI-1
    # (2), not KI-13 (5): nothing to ask (MM rulebook (it) §Collocare i Servitori, 3; MM rulebook (pt) «mais
    # próximos aos ratos»; rules revision 2)
    assert not of_type(events, DecisionRequested)
    assert EncounterRevealed(card="standard-1", page=1) in events
    placed = of_type(events, FigurePlaced)
    assert [(e.card, e.space) for e in placed] == [(RAT, "KI-1"), (RAT, "KI-14")]
    assert events[-1] == ShuffleRequested(reason="encounter-initiative", cards=(*MICE, RAT))
    events, state = answer(
        state,
        CardsShuffled(reason="encounter-initiative", order=(RAT, "collin", "filch", "tilda", "maginos")),
    )
    # Collin laid in slot 2: Born to Lead (MM rulebook (it) Collin's hero card, "quando collocate le carte
    # sulla Colonna dell'Iniziativa, se il Principe Collin non si trova sul primo spazio, aggiungete
    # immediatamente 1 segnalino Formaggio"; docs/mice-and-mystics/rulings.md, Born to Lead)
    assert events == [
        InitiativeTrackReshuffled(cards=(RAT, "collin", "filch", "tilda", "maginos")),
        CheeseGained(mouse="collin", count=1, reason="born-to-lead"),
    ]
    assert state.cheese["collin"] == 1
    assert state.turn_card == "filch" and state.slot == 2 and state.encounter_face_up == "standard-1"
    assert "standard-1" not in state.encounter_deck


def test_explore_a_flip_space_turns_the_room_over__rulebook_esplorare_una_casella_di_rotazione():
    state = chapter_1_table(*NO_RATS, at("GR-11"), track=MICE)
    events, _ = act(state, Explore(mouse="filch", via="flip"))
    assert events[1] == TileFlipped(tile="guard-room", to="sewer")
    assert {e.figure for e in of_type(events, FigurePlaced)} == set(MICE)
    assert of_type(events, RoomEntered) == [RoomEntered(tile="sewer", first=True)]


def test_rulebook_determinare_l_ordine_di_iniziativa_born_to_lead_not_when_collin_is_laid_first():
    """MM rulebook (it) Collin's hero card (Born to Lead): no cheese when the reshuffled track puts Collin on
    the first space."""
    _, state = act(chapter_1_table(*NO_RATS, at("GR-8"), track=MICE), Explore(mouse="filch", via="E"))
    _, state = answer(state, CardsDrawn(reason="encounter", deck="encounter", cards=("standard-1",)))
    order = ("collin", RAT, "filch", "tilda", "maginos")
    events, state = answer(state, CardsShuffled(reason="encounter-initiative", order=order))
    assert events == [InitiativeTrackReshuffled(cards=order)]
    assert state.cheese.get("collin", 0) == 0


PIPES = RoomTilePlaced(tile="pipes", column=0, row=1)


def test_rulebook_esplorare_the_pipes_flip_space_only_for_a_tinkerer_or_a_scamp():
    """MM rulebook (it) §Esplorare: "Una casella di Rotazione con questo simbolo può essere Esplorata
    solamente da un Fabbro o da un Furfante" (the Pipes' PI-10). Collin (Leader, Warrior) may not; Filch
    (Scamp) may."""
    collin_first = ("collin", "filch", "tilda", "maginos")
    state = chapter_1_table(*NO_RATS, PIPES, at("PI-10", "collin"), track=collin_first)
    with pytest.raises(RuleBroken, match="explore.flip-class"):
        RULESET.decide(state, Explore(mouse="collin", via="flip"))
    assert [c for c in RULESET.legal_commands(state) if isinstance(c, Explore)] == []
    state = chapter_1_table(*NO_RATS, PIPES, at("PI-10"), track=MICE)
    assert Explore(mouse="filch", via="flip") in RULESET.legal_commands(state)
    events, _ = act(state, Explore(mouse="filch", via="flip"))
    assert events[:2] == [
        ActionStarted(mouse="filch", action="explore"),
        TileFlipped(tile="pipes", to="sewer-drain-pipe"),
    ]
    assert of_type(events, FigurePlaced) == [FigurePlaced(figure="filch", card="filch", space="SD-12")]


def test_rulebook_esplorare_the_pipes_flip_space_for_a_tinkerer():
    """MM rulebook (it) §Esplorare: a Tinkerer ("Fabbro", Nez) may explore by the Pipes' flip space too."""
    state = chapter_1_table(
        *NO_RATS,
        PIPES,
        at("PI-10", "nez"),
        track=("nez", "collin", "filch", "tilda"),
        mice=("nez", "collin", "filch", "tilda"),
    )
    assert Explore(mouse="nez", via="flip") in RULESET.legal_commands(state)
    events, _ = act(state, Explore(mouse="nez", via="flip"))
    assert TileFlipped(tile="pipes", to="sewer-drain-pipe") in events


def _explored_and_reshuffled(rules_revision: int):
    """Filch (slot 0 of the track) explores into the Kitchen with no minion on the track; the
    encounter's rats join the track, which is laid again with Filch third."""
    table = chapter_1_table(*NO_RATS, at("GR-8"), track=MICE, rules_revision=rules_revision)
    _, state = act(table, Explore(mouse="filch", via="E"))
    _, state = answer(state, CardsDrawn(reason="encounter", deck="encounter", cards=("standard-1",)))
    order = (RAT, "collin", "filch", "tilda", "maginos")
    _, state = answer(state, CardsShuffled(reason="encounter-initiative", order=order))
    assert state.turn_card == "filch" and state.round == 1
    return state


def test_rulebook_determinare_l_ordine_di_iniziativa_a_track_laid_again_starts_a_new_round_from_the_top():
    """MM rulebook (it) §Determinare l'Ordine di Iniziativa (MM rulebook (pt) «cada vez que uma nova carta de
    confronto for revelada, a ordem de iniziativa deve ser novamente determinada»): the track laid again
    mid-turn is a new order; once the exploring mouse's turn ends, a new round starts from slot 1, so no card
    acts twice in a round (Collin and Filch would have, from Filch's new slot) and none is skipped in it
    (docs/mice-and-mystics/rulings.md, Encounter with no minion card on the track; rules revision 2)."""
    state = _explored_and_reshuffled(rules_revision=2)
    assert state.round_ends_after_turn
    events, state = act(state, EndTurn(mouse="filch"))
    ended = events.index(TurnEnded(card="filch"))
    assert events[ended + 1 : ended + 3] == [RoundStarted(round=2), TurnStarted(card=RAT, slot=0)]
    assert not state.round_ends_after_turn


def test_rulebook_determinare_l_ordine_di_iniziativa_rules_revision_1_games_go_on_from_the_new_slot():
    """Games created under rules revision 1 re-derive as they were played: the round went on from the
    exploring mouse's new slot (Tilda, below Filch), and verify keeps passing for them."""
    state = _explored_and_reshuffled(rules_revision=1)
    assert not state.round_ends_after_turn
    events, _ = act(state, EndTurn(mouse="filch"))
    ended = events.index(TurnEnded(card="filch"))
    assert events[ended + 1] == TurnStarted(card="tilda", slot=3)


def test_a_rules_revision_this_build_does_not_know_is_refused():
    with pytest.raises(RuleBroken, match="setup.rules-revision"):
        given(rules_revision=RULES_REVISION + 1)


def test_rules_revision_1_games_asked_for_any_spread_of_the_small_melee_minions__collocare_i_servitori():
    """Revision 1 placed the figures left over an even spread on any entrances (the players' choice,
    default the first in tile order); its games re-derive that way."""
    table = chapter_1_table(*NO_RATS, at("GR-8"), track=MICE, rules_revision=1)
    _, state = act(table, Explore(mouse="filch", via="E"))
    events, _ = answer(state, CardsDrawn(reason="encounter", deck="encounter", cards=("standard-1",)))
    assert events[-1] == DecisionRequested(
        decision="melee-minion-entrances",
        options=("KI-1+KI-13", "KI-1+KI-14", "KI-13+KI-14"),
        default="KI-1+KI-13",
    )


def test_rulebook_esplorare_a_board_with_figures_on_it_is_not_turned_over_from_revision_3():
    """MM rulebook (it) §Esplorare: entering a room of the other colour turns its board over ("ruotate il
    tabellone della Stanza di arrivo"); no source says where figures standing on it would go, so from rules
    revision 3 that Explore is refused (provisional; docs/mice-and-mystics/rulings.md). Revision 2 turned it
    over anyway."""
    minion_beyond = FigurePlaced(figure="rat-warriors-9", card=RAT, space="KT-1")
    state = chapter_1_table(*NO_RATS, minion_beyond, at("GR-8"), track=MICE)
    with pytest.raises(RuleBroken, match="explore.board-occupied") as refused:
        RULESET.decide(state, Explore(mouse="filch", via="E"))
    assert "rat-warriors-9" in refused.value.detail and refused.value.section == "MM rulebook (it) §Esplorare"
    assert Explore(mouse="filch", via="E") not in RULESET.legal_commands(state)
    older = chapter_1_table(*NO_RATS, minion_beyond, at("GR-8"), track=MICE, rules_revision=2)
    events, older = act(older, Explore(mouse="filch", via="E"))
    assert TileFlipped(tile="kitchen-tunnels", to="kitchen") in events
    # the figure left on the face no longer on the table: its own exits lead nowhere, and listing
    # the legal commands no longer fails on it
    assert RULESET.legal_commands(older) is not None
