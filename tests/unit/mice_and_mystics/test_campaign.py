"""Campaign carry-over (MM rulebook (it) §Giocare Mice and Mystics come una Campagna; MM summary (fr) Mode
Campagne; domain/mice_and_mystics/campaign.py): what the next chapter receives, and how its setup applies
it."""

import json

import msgspec
import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import GameCreated, Seat
from dicelog.domain.core.ruleset import Begin
from dicelog.domain.mice_and_mystics.campaign import (
    campaign_carry_over,
    campaign_chapters,
    campaign_choice,
    kept_card,
)
from dicelog.domain.mice_and_mystics.chapter_events import (
    CarryOverApplied,
    SearchDeckCardTaken,
    StoryAchievementGained,
)
from dicelog.domain.mice_and_mystics.content import shipped_library
from dicelog.domain.mice_and_mystics.events import CheeseGained, EffectAdded, MouseWounded, SearchCardKept
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import PARTY, chapter_1_table, fold_events


def finished_chapter():
    return chapter_1_table(
        SearchCardKept(mouse="filch", card="search-card-07"),
        SearchCardKept(mouse="filch", card="toothpick"),
        SearchDeckCardTaken(mouse="tilda", card="fishhook-and-thread", reason="special-search"),
        StoryAchievementGained(achievement="miz-maggie-ally"),
        CheeseGained(mouse="collin", count=3, reason="attack"),
        MouseWounded(mouse="collin", wounds=2),
        EffectAdded(mouse="maginos", effect="knocked-down"),
    )


def carry(state, previous=None, choices=()):
    return msgspec.json.decode(campaign_carry_over(state, previous, choices))


def test_carry_over_keeps_story_achievements_and_one_search_card_per_mouse__rulebook_campagna():
    assert carry(finished_chapter()) == {
        "from_chapter": "chapter-1",
        "story_achievements": ["miz-maggie-ally"],
        "abilities": {},
        "equipment": {"filch": "search-card-07"},
    }


def test_carry_over_loses_party_items_cheese_wounds_and_effects__rulebook_campagna():
    document = carry(finished_chapter())
    assert "tilda" not in document["equipment"]  # the Fishhook & Thread is a party item
    assert set(document) == {"from_chapter", "story_achievements", "abilities", "equipment"}


def test_kept_card_is_the_best_bonus_then_the_first_found__ruling_campaign_carry_over():
    lib = shipped_library()
    assert kept_card(lib, ("search-card-07", "toothpick")) == "search-card-07"
    assert kept_card(lib, ("grapes", "leather-breastplate", "search-card-01")) == "leather-breastplate"
    assert kept_card(lib, ("grapes",)) is None


def test_carry_over_adds_the_previous_chapters_achievements__rulebook_campagna():
    previous = msgspec.Raw(b'{"story_achievements":["older"],"abilities":{"filch":["sneak"]}}')
    document = carry(finished_chapter(), previous)
    assert document["story_achievements"] == ["older", "miz-maggie-ally"] and document["abilities"] == {
        "filch": ["sneak"]
    }


def test_the_next_chapter_setup_applies_the_carry_over__rulebook_campagna():
    document = carry(finished_chapter())
    setup = {"chapter": "chapter-1", "mice": list(PARTY), "carry_over": document}
    created = GameCreated(
        ruleset="mice-and-mystics",
        setup=msgspec.Raw(json.dumps(setup).encode()),
        seats=(Seat(name="north", controls=PARTY),),
        dice_mode="manual",
    )
    state = RULESET.initial_state(created)
    events = RULESET.decide(state, Begin())
    assert (
        CarryOverApplied(
            from_chapter="chapter-1",
            story_achievements=("miz-maggie-ally",),
            equipment={"filch": "search-card-07"},
        )
        in events
    )
    state = fold_events(state, events)
    assert state.pack == {"filch": ("search-card-07",)} and "search-card-07" not in state.search_deck
    assert state.story_achievements == ("miz-maggie-ally",)
    assert state.cheese.get("collin", 0) <= 1 and state.wounds == {} and state.effects == {}


def test_the_players_choose_the_search_card_a_mouse_keeps__rulebook_campagna():
    """MM rulebook (it) «I Topi possono conservare solo 1 delle carte Ricerca»: the seat controlling a mouse
    chooses; ``null`` keeps none; a mouse no seat chose for keeps the default."""
    state = finished_chapter()
    mine = frozenset(PARTY)
    toothpick = campaign_choice(state, mine, {"keep": {"filch": "toothpick"}})
    assert carry(state, None, (toothpick,))["equipment"] == {"filch": "toothpick"}  # the default was card 07
    nothing = campaign_choice(state, mine, {"keep": {"filch": None}})
    assert carry(state, None, (nothing,))["equipment"] == {}
    # the latest choice for a mouse counts
    assert carry(state, None, (nothing, toothpick))["equipment"] == {"filch": "toothpick"}


@pytest.mark.parametrize(
    "keep,pieces,rule",
    [
        ({"filch": "leather-breastplate"}, PARTY, "campaign.card-not-kept"),  # not a card filch holds
        ({"tilda": "fishhook-and-thread"}, PARTY, "campaign.card-not-kept"),  # a party item
        ({"filch": "toothpick"}, ("collin",), "campaign.not-your-mouse"),  # another seat's mouse
        ({"nobody": None}, PARTY, "campaign.not-your-mouse"),  # not a mouse of the party
    ],
)
def test_a_carry_over_choice_the_rules_refuse_names_its_rule__rulebook_campagna(keep, pieces, rule):
    with pytest.raises(RuleBroken) as refused:
        campaign_choice(finished_chapter(), frozenset(pieces), {"keep": keep})
    assert refused.value.rule == rule


def test_a_carry_over_choice_that_is_not_one_is_a_validation_error():
    with pytest.raises(msgspec.ValidationError):
        campaign_choice(finished_chapter(), frozenset(PARTY), {"keep": {"filch": 7}})
    with pytest.raises(msgspec.ValidationError):
        campaign_choice(finished_chapter(), frozenset(PARTY), {"keep": {}, "cheese": 3})


def test_a_campaign_plays_the_chapters_of_its_partys_content():
    party = msgspec.Raw(msgspec.json.encode({"mice": ["collin", "filch", "maginos", "nez"]}))
    assert campaign_chapters(party) == frozenset(shipped_library().chapters)
    assert "chapter-1" in campaign_chapters(party)
    assert RULESET.campaign_chapters is campaign_chapters
    with pytest.raises(RuleBroken, match="setup.invalid"):
        campaign_chapters(msgspec.Raw(b"[1]"))
