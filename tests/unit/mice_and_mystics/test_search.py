"""Search (MM rulebook (it) §Ricerca): one die, a star draws a search card (hidden draw); keep it or discard
it for 1 cheese; one successful search per mouse per room. A card kept into a full pack makes the player
discard 1 pack card of their choice, for no cheese (MM rulebook (it) §Equipaggiare; MM rulebook (pt)
§Equipar)."""

import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import (
    CardsDrawn,
    DecisionMade,
    DecisionRequested,
    DrawRequested,
    RollRequested,
)
from dicelog.domain.mice_and_mystics.chapter_events import (
    SearchDeckCardTaken,
    SearchDeckShuffled,
    SpecialSearchFound,
)
from dicelog.domain.mice_and_mystics.commands import EndTurn, Search
from dicelog.domain.mice_and_mystics.events import (
    ActionStarted,
    CheeseGained,
    DecksPrepared,
    SearchCardDiscarded,
    SearchCardKept,
    SearchFailed,
    SearchSucceeded,
)
from dicelog.domain.mice_and_mystics.item_events import PackCardDiscarded, PartyItemGained
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import act, answer, chapter_1_table, choose, roll

DECK = DecksPrepared(encounter_deck=(), search_deck=("toothpick", "grapes", "dinner-fork"))


def drawn(state, card):
    return answer(state, CardsDrawn(reason="search", deck="search", cards=(card,), source="manual"))


def test_search_rolls_one_die_for_the_mouse__rulebook_ricerca():
    events, _ = act(chapter_1_table(DECK), Search(mouse="filch"))
    assert events == [
        ActionStarted(mouse="filch", action="search"),
        RollRequested(reason="search", dice=1, piece="filch"),
    ]


@pytest.mark.parametrize("face", [1, 3, 4])
def test_search_without_a_star_finds_nothing__rulebook_ricerca(face):
    _, state = act(chapter_1_table(DECK), Search(mouse="filch"))
    assert roll(state, face)[0] == [SearchFailed(mouse="filch")]


def test_search_star_draws_from_the_remaining_cards_sorted_then_keep__rulebook_ricerca():
    _, state = act(chapter_1_table(DECK), Search(mouse="filch"))
    events, state = roll(state, 5)
    assert events == [
        SearchSucceeded(mouse="filch", tile="guard-room"),
        DrawRequested(
            reason="search", deck="search", cards=("dinner-fork", "grapes", "toothpick"), piece="filch"
        ),
    ]
    events, state = drawn(state, "toothpick")
    assert events == [
        DecisionRequested(decision="search-keep", options=("keep", "discard"), piece="filch", default="keep")
    ]
    assert state.search_deck == ("grapes", "dinner-fork")
    events, state = answer(state, DecisionMade(decision="search-keep", option="keep", by="north"))
    assert events == [SearchCardKept(mouse="filch", card="toothpick")] and state.pack["filch"] == (
        "toothpick",
    )


def test_search_card_discarded_for_one_cheese__rulebook_ricerca():
    _, state = act(chapter_1_table(DECK), Search(mouse="filch"))
    _, state = roll(state, 2)
    _, state = drawn(state, "toothpick")
    events, state = answer(state, DecisionMade(decision="search-keep", option="discard", by="north"))
    assert events == [
        SearchCardDiscarded(mouse="filch", card="toothpick"),
        CheeseGained(mouse="filch", count=1, reason="search-discard"),
    ]


def test_search_only_once_successfully_per_room__rulebook_ricerca():
    state = chapter_1_table(DECK, SearchSucceeded(mouse="filch", tile="guard-room"))
    with pytest.raises(RuleBroken, match="search.same-room"):
        RULESET.decide(state, Search(mouse="filch"))
    assert Search(mouse="filch") not in RULESET.legal_commands(state)


FULL = [SearchCardKept(mouse="filch", card=f"search-card-0{n}") for n in (1, 2, 3)]


def test_rulebook_ricerca_a_card_found_with_a_full_pack_may_still_be_kept_or_discarded_for_cheese():
    """MM rulebook (it) §Ricerca offers both choices whatever the pack holds; with 3 cards the default policy
    discards for 1 cheese (keeping would cost a discard for nothing)."""
    _, state = act(chapter_1_table(DECK, *FULL), Search(mouse="filch"))
    _, state = roll(state, 2)
    events, state = drawn(state, "toothpick")
    assert events == [
        DecisionRequested(
            decision="search-keep", options=("keep", "discard"), piece="filch", default="discard"
        )
    ]
    events, _ = answer(state, DecisionMade(decision="search-keep", option="discard", by="south"))
    assert events == [
        SearchCardDiscarded(mouse="filch", card="toothpick"),
        CheeseGained(mouse="filch", count=1, reason="search-discard"),
    ]


def test_rulebook_equipaggiare_keeping_a_card_into_a_full_pack_discards_one_card_of_choice_for_no_cheese():
    """MM rulebook (it) §Equipaggiare: "se superate questo limite, dovrete scartare 1 carta a scelta dalla
    sacca del Topo (esclusi gli Stratagemmi)" — the new card or an older one; no cheese (that is only for the
    freshly drawn card of MM rulebook (it) §Ricerca)."""
    _, state = act(chapter_1_table(DECK, *FULL), Search(mouse="filch"))
    _, state = roll(state, 2)
    _, state = drawn(state, "toothpick")
    events, state = answer(state, DecisionMade(decision="search-keep", option="keep", by="south"))
    assert events == [
        SearchCardKept(mouse="filch", card="toothpick"),
        DecisionRequested(
            decision="pack-limit",
            options=("search-card-01", "search-card-02", "search-card-03", "toothpick"),
            piece="filch",
            default="toothpick",
        ),
    ]
    events, state = choose(state, "search-card-03")
    assert events[0] == PackCardDiscarded(mouse="filch", card="search-card-03")
    assert state.pack["filch"] == ("search-card-01", "search-card-02", "toothpick")
    assert state.cheese.get("filch", 0) == 0 and state.awaiting is None
    assert EndTurn(mouse="filch") in RULESET.legal_commands(state)  # the search is over, the turn goes on


def test_rulebook_capitolo_1_bottino_del_fabbro_a_full_pack_takes_the_treasure_then_discards_one():
    """Tinkerer's Treasure is no longer refused to a full pack: the weapon or armour taken puts the pack
    over 3 and the player discards 1 card of their choice (MM rulebook (it) §Equipaggiare;
    docs/mice-and-mystics/rulings.md, Special searches)."""
    mice = ("nez", "tilda", "filch", "maginos")
    deck = DecksPrepared(encounter_deck=(), search_deck=("cloak-of-displacement", "toothpick"))
    full = [SearchCardKept(mouse="nez", card=f"search-card-0{n}") for n in (1, 2, 3)]
    state = chapter_1_table(deck, *full, track=(*mice, "rat-warriors"), mice=mice)
    _, state = act(state, Search(mouse="nez"))
    events, state = roll(state, 2)
    assert events[-1] == DecisionRequested(
        decision="special-search",
        options=("tinkerers-treasure", "search-deck"),
        piece="nez",
        default="tinkerers-treasure",
    )
    events, state = choose(state, "tinkerers-treasure", "toothpick")
    assert events[0] == SpecialSearchFound(mouse="nez", tile="guard-room", item="tinkerers-treasure")
    assert events[-3:] == [
        SearchDeckCardTaken(mouse="nez", card="toothpick", reason="tinkerers-treasure"),
        SearchDeckShuffled(added=("tinkerers-treasure",), reason="tinkerers-treasure"),
        DecisionRequested(
            decision="pack-limit",
            options=("search-card-01", "search-card-02", "search-card-03", "toothpick"),
            piece="nez",
            default="toothpick",
        ),
    ]
    _, state = choose(state, "search-card-01")
    assert state.pack["nez"] == ("search-card-02", "search-card-03", "toothpick")


def test_a_drawn_party_item_goes_to_the_party_stash__rulebook_oggetti_del_gruppo():
    """MM rulebook (it) §Oggetti del Gruppo: «Quando peschi questa carta, aggiungi il segnalino ... al
    Forziere del Gruppo»: no keep-or-discard choice, so no cheese for it (rules revision 2). Revision 1 games
    asked keep or discard, as they were played."""
    _, state = act(chapter_1_table(DECK), Search(mouse="filch"))
    _, state = roll(state, 5)
    events, state = drawn(state, "dinner-fork")
    assert events == [PartyItemGained(mouse="filch", card="dinner-fork")]
    assert state.party_items == ("dinner-fork",) and not state.pack.get("filch")
    _, old = act(chapter_1_table(DECK, rules_revision=1), Search(mouse="filch"))
    _, old = roll(old, 5)
    events, _ = drawn(old, "dinner-fork")
    assert [type(e) for e in events] == [DecisionRequested]
