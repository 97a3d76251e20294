"""Chapter 1 room rules (MM rulebook (it) §Capitolo 1, Regole Speciali del Capitolo;
docs/mice-and-mystics/facts.md §7), driven through decide/resolve with explicit dice. Faces: 1 cheese, 2
sword+star, 3 sword/shield, 4 bow, 5 bow+star, 6 sword/shield+star; move numbers 1,2,3,2,1,3."""

import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import DecisionMade, DecisionRequested, DrawRequested, RollRequested
from dicelog.domain.mice_and_mystics.chapter_events import (
    CounterCheesePlaced,
    CounterCheeseTaken,
    CrowDived,
    MizMaggieSwatted,
    RoachDefeatedInKitchen,
    SearchDeckCardTaken,
    SearchDeckShuffled,
    SpecialSearchFound,
    StoryAchievementGained,
    StoryRead,
)
from dicelog.domain.mice_and_mystics.commands import Battle, Explore, Move, MoveTo, Search
from dicelog.domain.mice_and_mystics.content import library
from dicelog.domain.mice_and_mystics.events import (
    AttackDeclared,
    CheeseAddedToWheel,
    DecksPrepared,
    EffectAdded,
    EndMarkerMoved,
    FigurePlaced,
    InitiativeTrackLaid,
    MinionDefeated,
    MinionMoved,
    MinionWounded,
    MouseWounded,
    MovementPointsGained,
    RoomEntered,
    RoomTilePlaced,
    RoundStarted,
    StoryBoardPrepared,
    TurnStarted,
)
from dicelog.domain.mice_and_mystics.item_events import PartyItemGained
from dicelog.domain.mice_and_mystics.rules.flow import proceed
from dicelog.domain.mice_and_mystics.rules.minion_turn import path_toward
from dicelog.domain.mice_and_mystics.rules.sight import sees
from dicelog.domain.mice_and_mystics.rules.summoning import summon
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import (
    act,
    answer,
    chapter_1_table,
    choose,
    fold_events,
    given,
    roll,
)

PARTY = ("collin", "tilda", "filch", "maginos")
PARTY_NEZ = ("nez", "tilda", "filch", "maginos")


def table(tile, placements, track, mice=PARTY, deck=()):
    """``tile`` alone on the table, figures (figure, card, space), ``track`` laid, first card's turn."""
    return given(
        RoomTilePlaced(tile=tile, column=0, row=0),
        *(FigurePlaced(figure=f, card=c, space=s) for f, c, s in placements),
        StoryBoardPrepared(hourglass_page=1, end_marker_page=6),
        DecksPrepared(encounter_deck=(), search_deck=deck),
        InitiativeTrackLaid(cards=track),
        RoundStarted(round=1),
        TurnStarted(card=track[0], slot=0),
        mice=mice,
    )


def mice_at(space, mice=PARTY):
    return [(m, m, space) for m in mice]


# --- Guard Room: Tinkerer's Treasure ------------------------------------------------------------

DECK = ("bow-of-precision", "cloak-of-displacement", "grapes", "toothpick")


def nez_searches(state, face=2):
    _, state = act(state, Search(mouse="nez"))
    return roll(state, face)


def test_guard_room_special_search_offers_tinkerers_treasure_to_a_tinkerer__rulebook_capitolo_1_stanza_delle_guardie():  # noqa: E501
    state = table(
        "guard-room", mice_at("GR-6", PARTY_NEZ), ("nez", "tilda", "filch", "maginos"), PARTY_NEZ, DECK
    )
    events, state = nez_searches(state)
    assert events[-1] == DecisionRequested(
        decision="special-search",
        options=("tinkerers-treasure", "search-deck"),
        piece="nez",
        default="tinkerers-treasure",
    )


def test_tinkerers_treasure_takes_any_weapon_or_armour_then_reshuffles_itself_in__rulebook_capitolo_1_bottino_del_fabbro():  # noqa: E501
    state = table(
        "guard-room", mice_at("GR-6", PARTY_NEZ), ("nez", "tilda", "filch", "maginos"), PARTY_NEZ, DECK
    )
    _, state = nez_searches(state)
    events, state = answer(
        state, DecisionMade(decision="special-search", option="tinkerers-treasure", by="north")
    )
    assert events == [
        SpecialSearchFound(mouse="nez", tile="guard-room", item="tinkerers-treasure"),
        DecisionRequested(
            decision="tinkerers-treasure",
            options=("bow-of-precision", "cloak-of-displacement", "toothpick"),
            piece="nez",
            default="bow-of-precision",
        ),
    ]
    events, state = answer(
        state, DecisionMade(decision="tinkerers-treasure", option="cloak-of-displacement", by="north")
    )
    assert events == [
        SearchDeckCardTaken(mouse="nez", card="cloak-of-displacement", reason="tinkerers-treasure"),
        SearchDeckShuffled(added=("tinkerers-treasure",), reason="tinkerers-treasure"),
    ]
    assert state.pack["nez"] == ("cloak-of-displacement",)
    assert sorted(state.search_deck) == ["bow-of-precision", "grapes", "tinkerers-treasure", "toothpick"]
    assert state.special_searches == ("guard-room",)


def test_tinkerers_treasure_is_not_offered_to_a_mouse_that_is_not_a_tinkerer__rulebook_capitolo_1_bottino_del_fabbro():  # noqa: E501
    state = table("guard-room", mice_at("GR-6"), PARTY, PARTY, DECK)
    _, state = act(state, Search(mouse="collin"))
    events, _ = roll(state, 2)
    assert isinstance(events[-1], DrawRequested)


def test_guard_room_special_search_may_be_refused_for_a_normal_draw__rulebook_capitolo_1_ricerca_speciale():
    state = table(
        "guard-room", mice_at("GR-6", PARTY_NEZ), ("nez", "tilda", "filch", "maginos"), PARTY_NEZ, DECK
    )
    _, state = nez_searches(state)
    events, _ = answer(state, DecisionMade(decision="special-search", option="search-deck", by="north"))
    assert events == [DrawRequested(reason="search", deck="search", cards=tuple(sorted(DECK)), piece="nez")]


def test_guard_room_special_summon_is_two_rat_warriors__rulebook_capitolo_1_evocazione_speciale():
    state = chapter_1_table(
        CheeseAddedToWheel(count=6, reason="test"), track=("filch", "collin", "tilda", "maginos")
    )
    # 2 rat warriors for 3 entrances holding one each: GR-2 is nearest the mice (1 space from GR-6),
    # GR-4 and GR-13 tie at 3: the players choose which takes the second (MM rulebook (pt) «mais próximos aos
    # ratos»)
    asked = summon(state)
    assert asked[-1] == DecisionRequested(
        decision="melee-minion-entrances", options=("GR-4", "GR-13"), default="GR-4"
    )
    events, _ = choose(fold_events(state, asked), "GR-4")
    placed = [e for e in events if isinstance(e, FigurePlaced)]
    assert [(e.card, e.space) for e in placed] == [("rat-warriors", "GR-2"), ("rat-warriors", "GR-4")]


# --- Sewer --------------------------------------------------------------------------------------

SEWER_DECK = ("fishhook-and-thread", "grapes")


def test_sewer_special_search_fishhook_only_on_water_spaces__rulebook_capitolo_1_fognature():
    state = table(
        "sewer",
        [*mice_at("SW-12", ("collin", "tilda", "maginos")), ("filch", "filch", "SW-7")],
        ("filch", "collin", "tilda", "maginos"),
        deck=SEWER_DECK,
    )
    _, state = act(state, Search(mouse="filch"))
    events, state = roll(state, 5)
    assert events[-1].options == ("fishhook-and-thread", "search-deck")
    events, state = answer(
        state, DecisionMade(decision="special-search", option="fishhook-and-thread", by="south")
    )
    # a party item goes to the party stash, not the pack (MM rulebook (it) §Oggetti del Gruppo)
    assert events == [
        SpecialSearchFound(mouse="filch", tile="sewer", item="fishhook-and-thread"),
        PartyItemGained(mouse="filch", card="fishhook-and-thread"),
    ]
    assert state.party_items == ("fishhook-and-thread",) and state.search_deck == ("grapes",)
    assert not state.pack.get("filch")


def test_sewer_special_search_not_on_a_dry_space__rulebook_capitolo_1_fognature():
    state = table("sewer", mice_at("SW-12"), ("filch", "collin", "tilda", "maginos"), deck=SEWER_DECK)
    _, state = act(state, Search(mouse="filch"))
    events, _ = roll(state, 5)
    assert isinstance(events[-1], DrawRequested)


def test_leaving_the_sewer_needs_the_fishhook__ruling_capitolo_1_abbandonare_le_fognature():
    state = table("sewer", mice_at("SW-8"), ("filch", "collin", "tilda", "maginos"))
    with pytest.raises(RuleBroken, match="explore.sewer-needs-fishhook"):
        RULESET.decide(state, Explore(mouse="filch", via="flip"))
    assert not [c for c in RULESET.legal_commands(state) if isinstance(c, Explore)]


def test_sewer_flip_space_with_the_fishhook_leads_back_to_the_guard_room__rulebook_capitolo_1_fognature():
    state = table("sewer", mice_at("SW-8"), ("filch", "collin", "tilda", "maginos"), deck=SEWER_DECK)
    state = RULESET.evolve(
        state, SearchDeckCardTaken(mouse="tilda", card="fishhook-and-thread", reason="test")
    )
    assert Explore(mouse="filch", via="flip") in RULESET.legal_commands(state)


# --- Kitchen ------------------------------------------------------------------------------------


def kitchen(extra=(), track=("collin", "roaches", "filch", "tilda", "maginos")):
    return table("kitchen", [*mice_at("KI-5"), *extra], track)


def test_kitchen_first_entry_puts_cheese_on_the_counter__ruling_capitolo_1_cucina():
    state = chapter_1_table(
        FigurePlaced(figure="filch", card="filch", space="GR-8"),
        *(FigurePlaced(figure=m, card=m, space="GR-8") for m in PARTY),
        track=PARTY,
    )
    for n in (1, 2, 3):
        state = RULESET.evolve(state, MinionDefeated(figure=f"rat-warriors-{n}", card="rat-warriors"))
    state = RULESET.evolve(state, TurnStarted(card="filch", slot=2))
    events, state = act(state, Explore(mouse="filch", via="E"))
    assert CounterCheesePlaced(count=3) in events and state.counter_cheese == 3


def test_kitchen_each_cheese_a_roach_rolls_moves_counter_cheese_to_the_wheel__rulebook_capitolo_1_cucina():
    state = kitchen(
        [("roaches-1", "roaches", "KI-5")], track=("roaches", "filch", "collin", "tilda", "maginos")
    )
    state = RULESET.evolve(state, CounterCheesePlaced(count=3))
    state = RULESET.evolve(state, AttackDeclared(attacker="roaches-1", target="filch", ranged=False, dice=2))
    state = RULESET.evolve(state, RollRequested(reason="minion-attack", dice=2))
    events, state = roll(state, 1, 1)
    assert CounterCheeseTaken(count=2, figure="roaches-1") in events
    assert CheeseAddedToWheel(count=2, reason="kitchen-counter") in events
    assert state.counter_cheese == 1


def test_kitchen_empty_counter_roaches_are_normal_again__rulebook_capitolo_1_cucina():
    state = kitchen(
        [("roaches-1", "roaches", "KI-5")], track=("roaches", "filch", "collin", "tilda", "maginos")
    )
    state = RULESET.evolve(state, AttackDeclared(attacker="roaches-1", target="filch", ranged=False, dice=2))
    state = RULESET.evolve(state, RollRequested(reason="minion-attack", dice=2))
    events, _ = roll(state, 1, 1)
    assert not [e for e in events if isinstance(e, CounterCheeseTaken)]


def defeat_roach(state):
    _, state = act(state, Battle(mouse="collin", target="roaches-1"))
    _, state = roll(state, 2, 2, 2)  # three hits
    return roll(state, 4)  # roach defends: no block -> defeated


def test_defeating_a_roach_in_the_kitchen_rolls_for_miz_maggie__capitolo_1_farsi_vedere_da_miz_maggie():
    events, _ = defeat_roach(kitchen([("roaches-1", "roaches", "KI-5")]))
    assert MinionDefeated(figure="roaches-1", card="roaches") in events
    assert events[-2:] == [
        RoachDefeatedInKitchen(mouse="collin", figure="roaches-1"),
        RollRequested(reason="miz-maggie", dice=1, piece="collin"),
    ]


def test_miz_maggie_miss_knocks_the_mouse_down_and_puts_the_roach_back_on_the_counter__rulebook_capitolo_1_miz_maggie():  # noqa: E501
    _, state = defeat_roach(kitchen([("roaches-1", "roaches", "KI-5")]))
    events, state = roll(state, 3)
    assert events[:3] == [
        MizMaggieSwatted(mouse="collin", figure="roaches-1", space="KI-1"),
        EffectAdded(mouse="collin", effect="knocked-down"),
        FigurePlaced(figure="roaches-1", card="roaches", space="KI-1"),
    ]
    assert "roaches-1" in state.board["KI-1"] and "roaches" in state.track


def test_miz_maggie_hit_gives_the_ally_achievement_and_one_more_page__rulebook_capitolo_1_miz_maggie():
    _, state = defeat_roach(kitchen([("roaches-1", "roaches", "KI-5")]))
    events, state = roll(state, 6)
    assert events[:2] == [
        StoryAchievementGained(achievement="miz-maggie-ally"),
        EndMarkerMoved(page=7, reason="miz-maggie-ally"),
    ]
    assert state.story_achievements == ("miz-maggie-ally",) and state.end_marker_page == 7


def test_miz_maggie_ally_no_more_rolls__rulebook_capitolo_1_miz_maggie():
    state = RULESET.evolve(
        kitchen([("roaches-1", "roaches", "KI-5")]), StoryAchievementGained(achievement="miz-maggie-ally")
    )
    events, _ = defeat_roach(state)
    assert not [e for e in events if isinstance(e, RoachDefeatedInKitchen)]


# --- Courtyard ----------------------------------------------------------------------------------


def courtyard(extra=(), track=("filch", "collin", "tilda", "maginos"), mice_space="CY-13"):
    return table("courtyard", [*mice_at(mice_space), *extra], track)


def test_crow_dives_on_a_mouse_whose_movement_die_shows_1__rulebook_capitolo_1_il_vile_vecchio_corvo():
    _, state = act(courtyard(), Move(mouse="filch"))
    events, state = roll(state, 5)
    assert events == [
        MovementPointsGained(mouse="filch", die_number=1, move_value=3, points=4),
        CrowDived(figure="filch", space="CY-13"),
        MouseWounded(mouse="filch", wounds=1),
    ]
    assert state.wounds["filch"] == 1


@pytest.mark.parametrize("face", [2, 3, 4, 6])
def test_crow_stays_away_unless_the_die_shows_1__rulebook_capitolo_1_il_vile_vecchio_corvo(face):
    _, state = act(courtyard(), Move(mouse="filch"))
    events, _ = roll(state, face)
    assert not [e for e in events if isinstance(e, CrowDived)]


def test_crow_cannot_reach_a_mouse_on_the_tree_entrance__rulebook_capitolo_1_entrata_nell_albero():
    _, state = act(courtyard(mice_space="CY-1"), Move(mouse="filch"))
    events, _ = roll(state, 1)
    assert not [e for e in events if isinstance(e, CrowDived)]


def rats_turn():
    """The Courtyard with one Rat Warrior on CY-20 whose card starts the round: run to its move roll."""
    state = courtyard(
        [("rat-warriors-1", "rat-warriors", "CY-20")],
        track=("rat-warriors", "filch", "collin", "tilda", "maginos"),
    )
    state = fold_events(state, proceed(state))
    assert state.awaiting == "minion-move"
    return state


def test_crow_dives_on_a_moving_minion_and_can_defeat_it__rulebook_capitolo_1_il_vile_vecchio_corvo():
    events, state = roll(rats_turn(), 1)
    assert events[:3] == [
        CrowDived(figure="rat-warriors-1", space="CY-20"),
        MinionWounded(figure="rat-warriors-1", wounds=1),
        MinionDefeated(figure="rat-warriors-1", card="rat-warriors"),
    ]
    assert "rat-warriors" not in state.track and "rat-warriors-1" not in state.figures
    assert state.mouse_turn is not None and state.mouse_turn.mouse == "filch"


def test_no_crow_dive_on_a_minion_rolling_2__rulebook_capitolo_1_il_vile_vecchio_corvo():
    events, _ = roll(rats_turn(), 2)
    assert isinstance(events[0], MinionMoved)


def test_tree_entrance_is_entered_only_from_its_one_adjacent_space__rulebook_capitolo_1_entrata_nell_albero():
    _, state = act(courtyard(mice_space="CY-2"), Move(mouse="filch"))
    _, state = roll(state, 3)
    with pytest.raises(RuleBroken, match="move.not-adjacent"):
        RULESET.decide(state, MoveTo(mouse="filch", path=("CY-1",)))
    assert RULESET.decide(state, MoveTo(mouse="filch", path=("CY-7", "CY-6", "CY-1")))


def test_mice_on_the_tree_entrance_see_only_the_adjacent_space__rulebook_capitolo_1_entrata_nell_albero():
    lib = library()
    assert sees(lib, "CY-1", "CY-6") and not sees(lib, "CY-1", "CY-7") and not sees(lib, "CY-13", "CY-1")


def test_minions_may_not_enter_the_tree_entrance__rulebook_capitolo_1_entrata_nell_albero():
    state = courtyard([("rat-warriors-1", "rat-warriors", "CY-7")], mice_space="CY-1")
    assert "CY-1" not in path_toward(state, "rat-warriors-1", "filch", 3)


def test_first_entry_of_the_courtyard_reads_its_story__rulebook_capitolo_1_frammenti_di_leggenda():
    flip = next(s.id for s in library().tiles["tunnel-entrance"].spaces if s.kind == "flip")
    state = table("tunnel-entrance", mice_at(flip), PARTY)
    events, _ = act(state, Explore(mouse="collin", via="flip"))
    read = [e for e in events if isinstance(e, StoryRead)]
    assert len(read) == 1 and read[0].room == "courtyard" and "crow" in read[0].text
    assert events.index(read[0]) == events.index(RoomEntered(tile="courtyard", first=True)) + 1


def test_rulebook_il_libro_delle_storie_the_opening_is_read_at_setup_and_the_story_continues_on_victory():
    """MM rulebook (it) «Il Racconto Continua… : alla fine di certi Capitoli è presente la sezione Il Racconto
    Continua… . Leggere ad alta voce questa parte»; MM rulebook (pt) Capítulo um, «Escolha um(a) jogador(a)
    para ler em voz alta»: the chapter's opening is given when it is set up, its «Il Racconto Continua…» when
    it is won (short paraphrases, never the storybook's words)."""
    from dicelog.domain.mice_and_mystics.chapter_events import ChapterStoryRead
    from dicelog.domain.mice_and_mystics.events import RoomTilePlaced
    from dicelog.domain.mice_and_mystics.ruleset import story_continues
    from tests.unit.mice_and_mystics.scenario import Table

    chapter = library().chapters["chapter-1"]
    opening = [
        r.payload for r in Table(choose_abilities=False).records if isinstance(r.payload, ChapterStoryRead)
    ]
    assert opening == [ChapterStoryRead(part="opening", text=chapter.opening)]
    assert "Paraphrase of 003" in chapter.opening and "Vanestra" in chapter.opening
    from dicelog.domain.mice_and_mystics.read_models import describe

    # the players read the story, not its source line (the content keeps it for reference)
    spoken = chapter.opening.split("». ", 1)[1]
    assert describe(chapter_1_table(), opening[0]) == f"Read aloud: {spoken}"
    # three mice on the tree entrance, Filch one step from it: his move wins the chapter
    state = chapter_1_table(
        RoomTilePlaced(tile="courtyard", column=2, row=1),
        *(FigurePlaced(figure=m, card=m, space="CY-1") for m in ("collin", "tilda", "maginos")),
        *(MinionDefeated(figure=f"rat-warriors-{n}", card="rat-warriors") for n in (1, 2, 3)),
        FigurePlaced(figure="filch", card="filch", space="CY-2"),
    )
    assert story_continues(state) == []
    won = RULESET.evolve(state, FigurePlaced(figure="filch", card="filch", space="CY-1"))
    assert story_continues(won) == [ChapterStoryRead(part="story-continues", text=chapter.story_continues)]
