"""The minion cheese wheel, time passing and summons (MM rulebook (it) §Evocazioni; MM rulebook (it) §Il Tempo
Scorre!; MM rulebook (it) §Determinare l'Ordine di Iniziativa; chapter-1.json: Guard Room special summon, 2
Rat Warriors)."""

from dicelog.domain.core.events import CardsShuffled, DecisionRequested, ShuffleRequested
from dicelog.domain.mice_and_mystics.choice_events import ChoiceDeferred, ChoicesSettled, TieFound
from dicelog.domain.mice_and_mystics.commands import EndTurn
from dicelog.domain.mice_and_mystics.events import (
    CheeseAddedToWheel,
    CheeseWheelEmptied,
    EncounterDiscarded,
    EncounterRevealed,
    FigurePlaced,
    HourglassAdvanced,
    InitiativeCardRemoved,
    InitiativeCardsAdded,
    MinionDefeated,
    RoundStarted,
    TurnEnded,
    TurnStarted,
)
from dicelog.domain.mice_and_mystics.rules.flow import proceed
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import act, answer, chapter_1_table, choose, fold_events, of_type

RAT = "rat-warriors"
MICE = ("filch", "collin", "tilda", "maginos")
NO_RATS = (
    *(MinionDefeated(figure=f"rat-warriors-{n}", card=RAT) for n in (1, 2, 3)),
    InitiativeCardRemoved(card=RAT),
)
IN_KITCHEN_TUNNELS = tuple(FigurePlaced(figure=m, card=m, space="KT-7") for m in MICE)


def last_turn(*events):
    state = chapter_1_table(*NO_RATS, *events, TurnStarted(card="maginos", slot=3), track=MICE)
    return act(state, EndTurn(mouse="maginos"))


def test_time_passes_one_cheese_when_the_last_mouse_ends_its_turn_with_no_minions__rulebook_il_tempo_scorre():
    events, state = last_turn()
    assert events[:3] == [
        TurnEnded(card="maginos"),
        CheeseAddedToWheel(count=1, reason="time-passes"),
        RoundStarted(round=2),
    ]
    assert state.cheese_wheel == 1


def test_time_does_not_pass_while_minions_are_on_the_board_or_for_other_mice__rulebook_il_tempo_scorre():
    state = chapter_1_table(TurnStarted(card="maginos", slot=3), track=MICE)
    assert not of_type(RULESET.decide(state, EndTurn(mouse="maginos")), CheeseAddedToWheel)
    state = chapter_1_table(*NO_RATS, track=MICE)
    assert not of_type(RULESET.decide(state, EndTurn(mouse="filch")), CheeseAddedToWheel)


def test_a_full_wheel_summons_the_rooms_special_summon_and_empties__rulebook_evocazioni():
    events, state = last_turn(CheeseAddedToWheel(count=5, reason="test"))
    # 2 rat warriors for the Guard Room's 3 free entrances: GR-2 nearest the mice, then GR-4 or GR-13
    # (tied): the players choose (MM rulebook (it) §Collocare i Servitori sul Tabellone, 3; MM rulebook (pt)
    # «mais próximos aos ratos»); the summon waits for the answer
    assert events == [
        TurnEnded(card="maginos"),
        CheeseAddedToWheel(count=1, reason="time-passes"),
        ChoiceDeferred(context="summon"),
        TieFound(decision="melee-minion-entrances", subject=RAT, count=2),
        DecisionRequested(decision="melee-minion-entrances", options=("GR-4", "GR-13"), default="GR-4"),
    ]
    events, state = choose(state, "GR-13")
    assert events[:7] == [
        ChoicesSettled(context="summon", choices=("GR-13",)),
        HourglassAdvanced(page=2, reason="summon"),
        FigurePlaced(figure="rat-warriors-1", card=RAT, space="GR-2"),
        FigurePlaced(figure="rat-warriors-2", card=RAT, space="GR-13"),
        CheeseWheelEmptied(count=6),
        InitiativeCardsAdded(cards=(RAT,)),
        TurnStarted(card=RAT, slot=4),  # laid below the last mouse: it acts before the round ends
    ]
    assert state.deferred is None
    assert state.track == (*MICE, RAT) and state.cheese_wheel == 0 and state.hourglass_page == 2


def test_a_summoned_minion_whose_card_is_on_the_track_reuses_it__rulebook_determinare_lordine_di_iniziativa():
    state = chapter_1_table(CheeseAddedToWheel(count=6, reason="test"))
    events, state = choose(fold_events(state, proceed(state)), "GR-4")
    assert not of_type(events, InitiativeCardsAdded) and len(of_type(events, FigurePlaced)) == 2
    assert state.track.count(RAT) == 1


def test_without_a_room_rule_the_face_up_encounter_card_summons_then_is_discarded__rulebook_evocazioni():
    state = chapter_1_table(
        *NO_RATS,
        *IN_KITCHEN_TUNNELS,
        EncounterRevealed(card="standard-3", page=1),
        CheeseAddedToWheel(count=6, reason="test"),
        track=MICE,
    )
    # the rat on the entrance nearest the mice (KT-1, 2 spaces from KT-7); then the 2 roaches spread
    # with it over the 3 entrances (MM rulebook (it) §Collocare i Servitori, 3: all small melee minions of the
    # placement), so they take the two left empty: nothing to ask (MM rulebook (pt) «mais próximos aos ratos»)
    events = proceed(state)
    state = fold_events(state, events)
    assert not of_type(events, DecisionRequested)
    assert events[:2] == [HourglassAdvanced(page=2, reason="summon"), EncounterDiscarded(card="standard-3")]
    placed = of_type(events, FigurePlaced)
    assert [(e.card, e.space) for e in placed] == [
        ("rat-warriors", "KT-1"),
        ("roaches", "KT-10"),
        ("roaches", "KT-20"),
    ]
    assert events[-1] == ShuffleRequested(reason="new-minions", cards=("rat-warriors", "roaches"))
    more, state = answer(state, CardsShuffled(reason="new-minions", order=("roaches", "rat-warriors")))
    assert more == [InitiativeCardsAdded(cards=("roaches", "rat-warriors"))]
    assert state.track == (*MICE, "roaches", "rat-warriors") and state.encounter_face_up is None


def test_with_no_room_rule_and_no_face_up_card_nobody_comes_but_the_hourglass_moves__rulebook_evocazioni():
    state = chapter_1_table(
        *NO_RATS, *IN_KITCHEN_TUNNELS, CheeseAddedToWheel(count=7, reason="test"), track=MICE
    )
    assert proceed(state) == [HourglassAdvanced(page=2, reason="summon"), CheeseWheelEmptied(count=7)]


def test_the_summon_that_reaches_the_end_marker_loses_the_chapter__rulebook_evocazioni():
    state = chapter_1_table(
        HourglassAdvanced(page=5, reason="test"), CheeseAddedToWheel(count=6, reason="test")
    )
    events = proceed(state)
    state = chapter_1_table(HourglassAdvanced(page=5, reason="test"), *events)
    assert RULESET.outcome(state) == "defeat"
