"""Search (001 §Ricerca): one die, a star draws a search card (hidden draw); keep it or discard it
for 1 cheese; one successful search per mouse per room."""

import pytest

from domain.core.errors import RuleBroken
from domain.core.events import CardsDrawn, DecisionMade, DecisionRequested, DrawRequested, RollRequested
from domain.mice_and_mystics.commands import Search
from domain.mice_and_mystics.events import (
    ActionStarted,
    CheeseGained,
    DecksPrepared,
    SearchCardDiscarded,
    SearchCardKept,
    SearchFailed,
    SearchSucceeded,
)
from domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import act, answer, chapter_1_table, roll

DECK = DecksPrepared(encounter_deck=(), search_deck=("toothpick", "grapes", "dinner-fork"))


def drawn(state, card):
    return answer(state, CardsDrawn(reason="search", deck="search", cards=(card,), source="manual"))


def test_search_rolls_one_die_for_the_mouse__001_ricerca():
    events, _ = act(chapter_1_table(DECK), Search(mouse="filch"))
    assert events == [ActionStarted(mouse="filch", action="search"), RollRequested(reason="search", dice=1, piece="filch")]


@pytest.mark.parametrize("face", [1, 3, 4])
def test_search_without_a_star_finds_nothing__001_ricerca(face):
    _, state = act(chapter_1_table(DECK), Search(mouse="filch"))
    assert roll(state, face)[0] == [SearchFailed(mouse="filch")]


def test_search_star_draws_from_the_remaining_cards_sorted_then_keep__001_ricerca():
    _, state = act(chapter_1_table(DECK), Search(mouse="filch"))
    events, state = roll(state, 5)
    assert events == [
        SearchSucceeded(mouse="filch", tile="guard-room"),
        DrawRequested(reason="search", deck="search", cards=("dinner-fork", "grapes", "toothpick"), piece="filch"),
    ]
    events, state = drawn(state, "toothpick")
    assert events == [DecisionRequested(decision="search-keep", options=("keep", "discard"), piece="filch", default="keep")]
    assert state.search_deck == ("grapes", "dinner-fork")
    events, state = answer(state, DecisionMade(decision="search-keep", option="keep", by="north"))
    assert events == [SearchCardKept(mouse="filch", card="toothpick")] and state.pack["filch"] == ("toothpick",)


def test_search_card_discarded_for_one_cheese__001_ricerca():
    _, state = act(chapter_1_table(DECK), Search(mouse="filch"))
    _, state = roll(state, 2)
    _, state = drawn(state, "toothpick")
    events, state = answer(state, DecisionMade(decision="search-keep", option="discard", by="north"))
    assert events == [SearchCardDiscarded(mouse="filch", card="toothpick"), CheeseGained(mouse="filch", count=1, reason="search-discard")]


def test_search_only_once_successfully_per_room__001_ricerca():
    state = chapter_1_table(DECK, SearchSucceeded(mouse="filch", tile="guard-room"))
    with pytest.raises(RuleBroken, match="search.same-room"):
        RULESET.decide(state, Search(mouse="filch"))
    assert Search(mouse="filch") not in RULESET.legal_commands(state)
