"""Bosses, ambushes and Brodie (MM rulebook (it) §Carte Iniziativa dei Boss; MM rulebook (it) §Ferire un Boss;
MM rulebook (it) §Imboscate; MM rulebook (it) §Boss dei Servitori; MM rulebook (it) §Brodie; §Brodie Graffia;
§Brodie Insegue; docs/mice-and-mystics/facts.md §3)."""

from dicelog.domain.core.events import (
    CardsDrawn,
    CardsShuffled,
    DecisionMade,
    DecisionRequested,
    DrawRequested,
    RollRequested,
    ShuffleRequested,
)
from dicelog.domain.mice_and_mystics.choice_events import ChoicesSettled, TieFound
from dicelog.domain.mice_and_mystics.commands import Battle
from dicelog.domain.mice_and_mystics.content import shipped_library
from dicelog.domain.mice_and_mystics.events import (
    AchievementEarned,
    AmbushDeclared,
    AmbushResolved,
    AttackDeclared,
    AttackResolved,
    AttackRolled,
    BossCardsAssigned,
    BossWounded,
    DefenseResolved,
    ExtraAttackGained,
    FigurePlaced,
    InitiativeCardMovedUp,
    InitiativeCardRemoved,
    InitiativeCardsAdded,
    InitiativeTrackReshuffled,
    MinionActivated,
    MinionDefeated,
    MinionMoved,
    MouseWounded,
)
from dicelog.domain.mice_and_mystics.rules.bosses import enter_boss
from dicelog.domain.mice_and_mystics.rules.brodie import chase_path, shortest_paths
from dicelog.domain.mice_and_mystics.rules.flow import proceed
from tests.unit.mice_and_mystics.scenario import (
    act,
    answer,
    chapter_1_table,
    choose,
    fold_events,
    of_type,
    roll,
)

SHIPPED = shipped_library()

MICE = ("filch", "collin", "tilda", "maginos")
RAT = "rat-warriors"
ONLY_RAT_1 = (
    MinionDefeated(figure="rat-warriors-2", card=RAT),
    MinionDefeated(figure="rat-warriors-3", card=RAT),
)
BRODIE = ("brodie-chases", "brodie-pounces")


def started(*events, track):
    state = chapter_1_table(*events, track=track)
    more = proceed(state)
    return more, fold_events(state, more)


def brodie_on(space):
    return (
        FigurePlaced(figure="brodie", card="brodie-chases", space=space),
        BossCardsAssigned(figure="brodie", cards=BRODIE),
    )


def test_boss_with_more_than_two_cards_draws_two_at_random__rulebook_carte_iniziativa_dei_boss():
    state = chapter_1_table()
    events = enter_boss(state, "vanestra", "GR-16")
    cards = ("vanestras-call", "vanestras-charm", "vanestras-sting", "vanestras-web")
    assert events == [
        FigurePlaced(figure="vanestra", card="vanestras-call", space="GR-16"),
        DrawRequested(reason="boss-cards", deck="boss-vanestra", cards=cards, count=2),
    ]


def test_boss_entering_while_minion_cards_are_on_the_track_goes_to_the_bottom_and_ambushes__rulebook_carte_iniziativa_dei_boss():  # noqa: E501
    state = fold_events(chapter_1_table(), enter_boss(chapter_1_table(), "vanestra", "GR-16"))
    drawn = CardsDrawn(reason="boss-cards", deck="boss-vanestra", cards=("vanestras-web", "vanestras-call"))
    events, state = answer(state, drawn)
    assert events[:4] == [
        FigurePlaced(figure="vanestra", card="vanestras-web", space="GR-16"),
        BossCardsAssigned(figure="vanestra", cards=("vanestras-web", "vanestras-call")),
        InitiativeCardsAdded(cards=("vanestras-web", "vanestras-call")),
        AmbushDeclared(cards=("vanestras-web",)),
    ]
    assert events[4] == RollRequested(reason="ambush", dice=1)
    events, state = roll(state, 6)  # move number 3
    assert events[:2] == [InitiativeCardMovedUp(card="vanestras-web", by=3), AmbushResolved()]
    assert state.track == ("filch", "collin", "vanestras-web", "tilda", "maginos", RAT, "vanestras-call")
    assert state.turn_card == "filch"


def test_ambush_rolls_one_die_per_minion_card_and_moves_each_up__rulebook_imboscate():
    track = ("filch", "collin", "tilda", "maginos", RAT, "roaches")
    events, state = started(
        FigurePlaced(figure="roaches-1", card="roaches", space="GR-16"), AmbushDeclared(), track=track
    )
    assert events == [RollRequested(reason="ambush", dice=2)]
    events, state = roll(state, 1, 4)  # move numbers 1 and 2
    assert events[:3] == [
        InitiativeCardMovedUp(card=RAT, by=1),
        InitiativeCardMovedUp(card="roaches", by=2),
        AmbushResolved(),
    ]
    assert state.track == ("filch", "collin", "tilda", "roaches", RAT, "maginos")


def test_wounds_on_a_boss_go_on_the_card_the_players_choose__rulebook_ferire_un_boss():
    state = chapter_1_table(*brodie_on("GR-7"), track=(*MICE, *BRODIE, RAT))
    _, state = act(state, Battle(mouse="filch", target="brodie"))
    _, state = roll(state, 2, 2)  # 2 hits; Brodie defends with 4 - 1 (Dagger) dice
    events, state = roll(state, 4, 4, 4)
    options = ("brodie-chases:2", "brodie-chases:1,brodie-pounces:1", "brodie-pounces:2")
    assert events[-1] == DecisionRequested(
        decision="boss-wound", options=options, piece="filch", default=options[0]
    )
    events, state = answer(state, DecisionMade(decision="boss-wound", option=options[1], by="north"))
    assert events[:6] == [
        BossWounded(figure="brodie", card="brodie-chases", wounds=1),
        InitiativeCardRemoved(card="brodie-chases"),
        BossWounded(figure="brodie", card="brodie-pounces", wounds=1),
        InitiativeCardRemoved(card="brodie-pounces"),
        MinionDefeated(figure="brodie", card="brodie-chases"),
        AchievementEarned(mouse="filch", achievement="cat-tamer"),
    ]
    assert "brodie" not in state.figures and state.track == (*MICE, RAT)


def test_captain_vurst_pistoleer_cheese_is_one_more_attack_not_wheel_cheese__facts_3_captain_vurst():
    vurst = FigurePlaced(figure="captain-vurst-1", card="captain-vurst", space="GR-16")
    events, state = started(*ONLY_RAT_1, vurst, track=("captain-vurst", *MICE, RAT))
    assert events[2] == AttackDeclared(attacker="captain-vurst-1", target="filch", ranged=True, dice=3)
    events, state = roll(state, 1, 4, 2)
    assert events == [
        AttackRolled(attacker="captain-vurst-1", target="filch", hits=1, cheese=1),
        ExtraAttackGained(figure="captain-vurst-1", count=1),
        RollRequested(reason="mouse-defense", dice=2, piece="filch"),
    ]
    events, state = roll(state, 3, 3)
    assert events[1] == AttackDeclared(attacker="captain-vurst-1", target="collin", ranged=True, dice=3)
    assert state.cheese_wheel == 0


def test_skitter_clak_constricts_no_defense_roll_for_mice__facts_3_skitter_clak():
    skitter = FigurePlaced(figure="skitter-clak-1", card="skitter-clak", space="GR-7")
    events, state = started(*ONLY_RAT_1, skitter, track=("skitter-clak", *MICE, RAT))
    _, state = roll(state, 1)  # stays: the mice's space is full
    events, state = roll(state, 2, 3)
    assert events[1:3] == [
        AttackResolved(attacker="skitter-clak-1", target="filch", hits=2, blocks=0, wounds=2),
        MouseWounded(mouse="filch", wounds=2),
    ]


def test_skitter_clak_carapace_sword_shield_star_blocks_two__facts_3_skitter_clak():
    state = chapter_1_table(
        FigurePlaced(figure="skitter-clak-1", card="skitter-clak", space="GR-7"),
        track=(*MICE, "skitter-clak", RAT),
    )
    _, state = act(state, Battle(mouse="filch", target="skitter-clak-1"))
    _, state = roll(state, 2, 3)
    events, _ = roll(state, 6)  # Dagger: 2 - 1 dice
    assert events[0] == AttackResolved(attacker="filch", target="skitter-clak-1", hits=2, blocks=2, wounds=0)


def test_brodie_pounces_on_the_fullest_space_every_figure_there_defends_and_no_cheese_on_the_wheel__rulebook_brodie_graffia():  # noqa: E501
    events, state = started(*brodie_on("GR-1"), track=("brodie-pounces", *MICE, RAT, "brodie-chases"))
    assert events == [
        MinionActivated(figure="brodie"),
        MinionMoved(figure="brodie", origin="GR-1", path=("GR-6",), reason="pounce"),
        AttackDeclared(
            attacker="brodie", target="collin", ranged=False, dice=3, others=("tilda", "filch", "maginos")
        ),
        RollRequested(reason="minion-attack", dice=3),
    ]
    events, state = roll(state, 2, 2, 1)
    assert events == [
        AttackRolled(attacker="brodie", target="collin", hits=2, cheese=1),
        RollRequested(reason="mouse-defense", dice=2, piece="collin"),
    ]
    events, state = roll(state, 3, 4)
    assert events == [
        DefenseResolved(attacker="brodie", target="collin", hits=2, blocks=1, wounds=1),
        MouseWounded(mouse="collin", wounds=1),
        RollRequested(reason="mouse-defense", dice=2, piece="tilda"),
    ]
    assert state.cheese_wheel == 0 and state.attack.target == "tilda"


def test_brodie_chases_the_nearest_mouse_then_the_next_and_attacks_every_figure_he_crossed__rulebook_brodie_insegue():  # noqa: E501
    setup = (
        *brodie_on("GR-8"),
        FigurePlaced(figure="filch", card="filch", space="GR-1"),
        FigurePlaced(figure="rat-warriors-4", card=RAT, space="GR-7"),
    )
    events, state = started(*setup, track=("brodie-chases", *MICE, RAT, "brodie-pounces"))
    assert events == [MinionActivated(figure="brodie"), RollRequested(reason="brodie-chase", dice=2)]
    events, state = roll(state, 3, 6)  # 3 + 3 movement
    # GR-6 (the mice) is 2 steps away by one path only; from there filch on GR-1 is 2 steps away by
    # GR-2 or by GR-5: the players choose (MM rulebook (it) §Brodie Insegue)
    assert events[-2:] == [
        TieFound(decision="brodie-path", subject="brodie", count=4, toward="filch"),
        DecisionRequested(decision="brodie-path", options=("GR-2>GR-1", "GR-5>GR-1"), default="GR-2>GR-1"),
    ]
    events, state = choose(state, "GR-2>GR-1")
    assert events[:3] == [
        ChoicesSettled(context="brodie-chase", choices=("GR-2>GR-1",)),
        MinionMoved(figure="brodie", origin="GR-8", path=("GR-7", "GR-6", "GR-2", "GR-1"), reason="chase"),
        AttackDeclared(
            attacker="brodie",
            target="rat-warriors-4",
            ranged=False,
            dice=3,
            others=("collin", "tilda", "maginos", "rat-warriors-1", "filch"),
        ),
    ]


CHASE_TRACK = ("brodie-chases", *MICE, RAT, "brodie-pounces")


def test_rulebook_brodie_insegue_equally_short_paths_are_the_players_decision_on_each_leg():
    """Brodie on GR-1, the mice on GR-6 (2 steps by GR-2 or GR-5), filch on GR-11 (2 more steps
    from GR-6, by GR-7 or GR-10); 6 movement: one choice per leg, each honoured; the attack hits
    every figure on the chosen path (the rat on GR-2 is spared by going through GR-5)."""
    setup = (*brodie_on("GR-1"), FigurePlaced(figure="filch", card="filch", space="GR-11"))
    _, state = started(*setup, track=CHASE_TRACK)
    events, state = roll(state, 3, 6)
    assert events[-2:] == [
        TieFound(decision="brodie-path", subject="brodie", count=6, toward="collin"),
        DecisionRequested(decision="brodie-path", options=("GR-2>GR-6", "GR-5>GR-6"), default="GR-2>GR-6"),
    ]
    events, state = choose(state, "GR-5>GR-6")
    assert events == [
        TieFound(decision="brodie-path", subject="brodie", count=4, toward="filch"),
        DecisionRequested(
            decision="brodie-path", options=("GR-7>GR-11", "GR-10>GR-11"), default="GR-7>GR-11"
        ),
    ]
    events, state = choose(state, "GR-10>GR-11")
    assert events[:3] == [
        ChoicesSettled(context="brodie-chase", choices=("GR-5>GR-6", "GR-10>GR-11")),
        MinionMoved(figure="brodie", origin="GR-1", path=("GR-5", "GR-6", "GR-10", "GR-11"), reason="chase"),
        AttackDeclared(
            attacker="brodie", target="collin", ranged=False, dice=3, others=("tilda", "maginos", "filch")
        ),
    ]
    assert state.deferred is None


def test_rulebook_brodie_insegue_the_default_paths_are_the_first_in_tile_order():
    """What ``decision_policy="default"`` answers: the first shortest path of a breadth-first search
    in tile order, as Brodie moved before the players were asked."""
    setup = (*brodie_on("GR-1"), FigurePlaced(figure="filch", card="filch", space="GR-11"))
    _, state = started(*setup, track=CHASE_TRACK)
    assert chase_path(state, "GR-1", 6) == ("GR-2", "GR-6", "GR-7", "GR-11")
    events, state = roll(state, 3, 6)
    assert events[-1].default == "GR-2>GR-6"
    events, state = choose(state, "GR-2>GR-6")
    assert events[-1].default == "GR-7>GR-11"
    events, state = choose(state, "GR-7>GR-11")
    assert events[1] == MinionMoved(
        figure="brodie", origin="GR-1", path=("GR-2", "GR-6", "GR-7", "GR-11"), reason="chase"
    )


def test_rulebook_brodie_insegue_a_single_shortest_path_is_not_asked():
    """Brodie on GR-8 with 2 movement: GR-7 then GR-6 is the only shortest way to the mice."""
    _, state = started(*brodie_on("GR-8"), track=CHASE_TRACK)
    events, _ = roll(state, 1, 1)  # 1 + 1 movement
    assert not of_type(events, DecisionRequested)
    assert events[0] == MinionMoved(figure="brodie", origin="GR-8", path=("GR-7", "GR-6"), reason="chase")


def test_rulebook_brodie_insegue_paths_cut_to_his_movement_are_asked_only_if_they_differ():
    """From GR-8 toward GR-6 there is one path (GR-7); toward GR-1 from GR-6 the first step already
    differs. ``shortest_paths`` lists each distinct cut path once."""
    assert shortest_paths(SHIPPED, "GR-8", "GR-6", 6) == (("GR-7", "GR-6"),)
    assert shortest_paths(SHIPPED, "GR-6", "GR-1", 1) == (("GR-2",), ("GR-5",))
    assert shortest_paths(SHIPPED, "GR-1", "GR-11", 1) == (("GR-2",), ("GR-5",))
    assert shortest_paths(SHIPPED, "GR-1", "GR-11", 4) == (
        ("GR-2", "GR-6", "GR-7", "GR-11"),
        ("GR-2", "GR-6", "GR-10", "GR-11"),
        ("GR-5", "GR-6", "GR-7", "GR-11"),
        ("GR-5", "GR-6", "GR-10", "GR-11"),
        ("GR-5", "GR-9", "GR-10", "GR-11"),
    )
    assert shortest_paths(SHIPPED, "GR-1", "GR-11", 2) == (
        ("GR-2", "GR-6"),
        ("GR-5", "GR-6"),
        ("GR-5", "GR-9"),
    )


def test_brodie_does_not_chase_when_every_mouse_is_on_his_space__rulebook_brodie_insegue():
    events, _ = started(*brodie_on("GR-6"), track=("brodie-chases", *MICE, RAT, "brodie-pounces"))
    assert events[1] == MinionMoved(figure="brodie", origin="GR-6", path=(), reason="no mouse off his space")


NO_MINION_CARDS = (
    *(MinionDefeated(figure=f"rat-warriors-{n}", card=RAT) for n in (1, 2, 3)),
    InitiativeCardRemoved(card=RAT),
)


def test_boss_entering_with_no_minion_cards_on_the_track_is_shuffled_with_the_mice_cards__rulebook_carte_iniziativa_dei_boss():  # noqa: E501
    """MM rulebook (it) §Carte Iniziativa dei Boss: the cards are laid "normalmente"; with no minion card on
    the track that is MM rulebook (it) §Determinare l'Ordine di Iniziativa: every card of the table is
    shuffled into a new track (not the boss's cards among themselves at the bottom)."""
    state = chapter_1_table(*NO_MINION_CARDS, track=MICE)
    events = enter_boss(state, "brodie", "GR-16")
    assert events == [
        FigurePlaced(figure="brodie", card="brodie-chases", space="GR-16"),
        BossCardsAssigned(figure="brodie", cards=BRODIE),
        ShuffleRequested(reason="encounter-initiative", cards=(*MICE, *BRODIE)),
    ]
    state = fold_events(state, events)
    order = ("brodie-pounces", "collin", "filch", "brodie-chases", "tilda", "maginos")
    more, state = answer(state, CardsShuffled(reason="encounter-initiative", order=order))
    assert more[0] == InitiativeTrackReshuffled(cards=order)  # (Collin's Born to Lead may follow)
    assert state.track == order and state.turn_card == "filch" and state.boss_cards["brodie"] == BRODIE


def test_single_card_boss_with_no_minion_cards_on_the_track_is_shuffled_too__rulebook_determinare_lordine_di_iniziativa():  # noqa: E501
    state = chapter_1_table(*NO_MINION_CARDS, track=MICE)
    events = enter_boss(state, "captain-vurst", "GR-16")
    assert events[-1] == ShuffleRequested(reason="encounter-initiative", cards=(*MICE, "captain-vurst"))


def test_single_card_boss_while_minion_cards_are_on_the_track_is_added_without_ambush__rulebook_carte_iniziativa_dei_boss():  # noqa: E501
    """The bottom-and-ambush rule is for "un Boss con Iniziativa multipla" (MM rulebook (pt): "um
    lacaio-chefão com múltiplas cartas de iniciativa"); Captain Vurst's one card is added like a new minion
    card."""
    state = chapter_1_table()
    events = enter_boss(state, "captain-vurst", "GR-16")
    assert events == [
        FigurePlaced(figure="captain-vurst", card="captain-vurst", space="GR-16"),
        BossCardsAssigned(figure="captain-vurst", cards=("captain-vurst",)),
        InitiativeCardsAdded(cards=("captain-vurst",)),
    ]


def test_the_ambush_keyword_on_an_encounter_card_declares_an_ambush_then_rolls_for_it__rulebook_imboscate():
    """MM rulebook (it) §Imboscate: an encounter band marked Ambush (rules/keywords.py) declares
    ``AmbushDeclared`` once its minions are placed; when the initiative is laid the ambush roll follows
    (``bosses.ambush_step``). Encounter contents are provisional (docs/mice-and-mystics/facts.md §6): the
    keyword is put on standard-1's first band, in a content pack of the game, for the test."""
    import msgspec

    from dicelog.domain.mice_and_mystics.commands import Explore
    from dicelog.domain.mice_and_mystics.events import EncounterStarted

    card = msgspec.to_builtins(shipped_library().encounters["standard-1"])
    card["bands"][0]["keywords"] = ["ambush"]
    pack = {"encounters.json": {"encounters": [card]}}
    filch = FigurePlaced(figure="filch", card="filch", space="GR-8")
    state = chapter_1_table(*NO_MINION_CARDS, filch, track=MICE, content_pack=pack)
    events, state = act(state, Explore(mouse="filch", via="E"))
    events, state = answer(state, CardsDrawn(reason="encounter", deck="encounter", cards=("standard-1",)))
    # the two rats go on the entrances nearest the mice, KI-14 and KI-1: nothing to ask
    assert events[-3:] == [
        EncounterStarted(card="standard-1"),
        AmbushDeclared(),
        ShuffleRequested(reason="encounter-initiative", cards=(*MICE, RAT)),
    ]
    order = ("collin", "filch", "tilda", "maginos", RAT)
    events, state = answer(state, CardsShuffled(reason="encounter-initiative", order=order))
    assert events == [InitiativeTrackReshuffled(cards=order), RollRequested(reason="ambush", dice=1)]
    events, state = roll(state, 6)  # move number 3
    assert events[:2] == [InitiativeCardMovedUp(card=RAT, by=3), AmbushResolved()]
    assert state.track == ("collin", RAT, "filch", "tilda", "maginos")


def test_brodie_pounces_tie_goes_to_the_space_holding_the_figure_highest_on_the_track__brodie_graffia():
    """MM rulebook (it) §Brodie Graffia: the space with most figures; two spaces with as many go to the one
    holding the figure highest on the initiative track (here GR-16, later in tile order than GR-10)."""
    mice = (
        FigurePlaced(figure="filch", card="filch", space="GR-10"),
        FigurePlaced(figure="collin", card="collin", space="GR-10"),
        FigurePlaced(figure="tilda", card="tilda", space="GR-16"),
        FigurePlaced(figure="maginos", card="maginos", space="GR-16"),
    )
    track = ("brodie-pounces", "tilda", "filch", "collin", "maginos", RAT, "brodie-chases")
    events, _ = started(*brodie_on("GR-1"), *mice, track=track)
    assert events[1] == MinionMoved(figure="brodie", origin="GR-1", path=("GR-16",), reason="pounce")
    assert isinstance(events[2], AttackDeclared) and {events[2].target, *events[2].others} == {
        "tilda",
        "maginos",
    }
    events, _ = started(
        *brodie_on("GR-1"),
        *mice,
        track=("brodie-pounces", "collin", "tilda", "filch", "maginos", RAT, "brodie-chases"),
    )
    assert events[1] == MinionMoved(figure="brodie", origin="GR-1", path=("GR-10",), reason="pounce")
