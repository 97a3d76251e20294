"""``evolve`` for the chapter room-rule, sandbox and campaign events (``chapter_events.py``).

Never validates, never fails for a stored event.
"""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics import chapter_events as ce
from dicelog.domain.mice_and_mystics.state import State


def _pack(state: State, mouse: str, card: str) -> dict[str, tuple[str, ...]]:
    return {**state.pack, mouse: (*state.pack.get(mouse, ()), card)}


def evolve_chapter(state: State, event: Event) -> State:
    match event:
        case ce.SpecialSearchFound(tile=tile):
            return replace(state, special_searches=(*state.special_searches, tile))
        case ce.SearchDeckCardTaken(mouse=mouse, card=card):
            deck = tuple(c for c in state.search_deck if c != card)
            return replace(state, search_deck=deck, pack=_pack(state, mouse, card))
        case ce.SearchDeckShuffled(added=added):
            return replace(
                state, search_deck=(*state.search_deck, *(c for c in added if c not in state.search_deck))
            )
        case ce.CounterCheesePlaced(count=count):
            return replace(state, counter_cheese=state.counter_cheese + count)
        case ce.CounterCheeseTaken(count=count):
            return replace(state, counter_cheese=max(state.counter_cheese - count, 0))
        case ce.RoachDefeatedInKitchen(figure=figure):
            return replace(state, kitchen_roach=figure)
        case ce.MizMaggieSwatted():
            return replace(state, kitchen_roach=None)
        case ce.StoryAchievementGained(achievement=achievement):
            gained = tuple(dict.fromkeys((*state.story_achievements, achievement)))
            return replace(state, story_achievements=gained, kitchen_roach=None)
        case ce.RoomsMarkedExplored(tiles=tiles):
            return replace(state, explored=tuple(dict.fromkeys((*state.explored, *tiles))))
        case ce.RoomsMarkedSearched(mouse=mouse, tiles=tiles):
            searched = tuple(dict.fromkeys((*state.searched.get(mouse, ()), *tiles)))
            return replace(state, searched={**state.searched, mouse: searched})
        case ce.CarryOverApplied(story_achievements=kept, abilities=abilities, equipment=equipment):
            pack = dict(state.pack)
            for mouse, card in equipment.items():
                pack[mouse] = (*pack.get(mouse, ()), card)
            deck = tuple(c for c in state.search_deck if c not in set(equipment.values()))
            return replace(
                state,
                story_achievements=tuple(dict.fromkeys((*state.story_achievements, *kept))),
                abilities={**state.abilities, **abilities},
                pack=pack,
                search_deck=deck,
                carry_in=None,
            )
        case ce.StartingAbilityTaken(mouse=mouse, ability=ability):
            return replace(
                state, abilities={**state.abilities, mouse: (*state.abilities.get(mouse, ()), ability)}
            )
        case _:
            return state
