"""The minion cheese wheel, time passing and summons (MM rulebook (it) §Evocazioni; MM rulebook (it) §Il Tempo
Scorre!; MM rulebook (it) §Collocare i Servitori sul Tabellone, 4; MM rulebook (it) §Determinare l'Ordine di
Iniziativa).

Time passes: when the last mouse card on the track ends its turn and no minion is on the board,
1 cheese goes on the wheel. A wheel of 6 or more summons, once no attack is being resolved:
the hourglass moves one page on; the chapter's special summon for the room the mice occupy (the
room of the mouse highest on the track) applies if there is one, else the face-up encounter card's
band for the hourglass page (then that card is discarded), else nobody comes; the wheel is
emptied. New minions are placed by the placement rules; cards already on the track are reused,
a single new card is laid on the first free slot, several are shuffled first. A placement tie the
players break (MM rulebook (it) §Collocare i Servitori sul Tabellone) defers the whole summon until answered
(``rules/ties.py``, context ``summon``): it is then re-run from the same state.
"""

from __future__ import annotations

from dicelog.domain.core.events import CardsShuffled, Event, ShuffleRequested
from dicelog.domain.mice_and_mystics.content import Library
from dicelog.domain.mice_and_mystics.events import (
    CheeseAddedToWheel,
    CheeseWheelEmptied,
    EncounterDiscarded,
    HourglassAdvanced,
    InitiativeCardsAdded,
)
from dicelog.domain.mice_and_mystics.evolve import evolve_all
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import placement
from dicelog.domain.mice_and_mystics.rules.captured import minions_on_board
from dicelog.domain.mice_and_mystics.rules.graph import mice_on_board
from dicelog.domain.mice_and_mystics.rules.keywords import on_summon
from dicelog.domain.mice_and_mystics.rules.ties import SUMMON, Choices, settle
from dicelog.domain.mice_and_mystics.state import State

WHEEL_FULL = 6
NEW_MINIONS = "new-minions"


def time_passes(state: State, card: str) -> list[Event]:
    """1 cheese on the wheel if ``card`` is the last mouse card on the track and no minion is on the board."""
    mice = [c for c in state.track if c in state.party]
    if mice and mice[-1] == card and not minions_on_board(state):
        return [CheeseAddedToWheel(count=1, reason="time-passes")]
    return []


def occupied_tile(state: State) -> str | None:
    spaces = list(mice_on_board(state).values())
    return library_of(state).space_tile[spaces[0]] if spaces else None


def encounter_band(lib: Library, card: str, page: int) -> tuple[tuple[str, int], ...]:
    bands = lib.encounters[card].bands
    return next((b.minions for b in bands if b.first <= page <= b.last), bands[-1].minions if bands else ())


def place_groups(
    state: State, groups: tuple[tuple[str, int], ...], tile: str, choices: Choices | None = None
) -> list[Event]:
    """Place every group (card, count) on ``tile``'s minion entrances as one placement: small
    melee figures spread evenly across all their cards (``placement.place_groups``); ties broken by
    ``choices`` (``None``: the defaults)."""
    return placement.place_groups(state, groups, tile, choices)


def new_cards_step(state: State, before: tuple[str, ...]) -> list[Event]:
    """Initiative for minion cards on the board but not on the track (reusing cards already there)."""
    on_board = dict.fromkeys(c for c in state.figures.values() if c not in state.party)
    new = tuple(sorted(c for c in on_board if c not in before))
    if len(new) > 1:
        return [ShuffleRequested(reason=NEW_MINIONS, cards=new)]
    return [InitiativeCardsAdded(cards=new)] if new else []


def resolve_new_minions(state: State, answer: CardsShuffled) -> list[Event]:
    return [InitiativeCardsAdded(cards=answer.order)]


def summon(state: State) -> list[Event]:
    """A full wheel summons (MM rulebook (it) §Evocazioni): ``HourglassAdvanced``, the minions placed, Greedy
    roaches, ``CheeseWheelEmptied``, then the new initiative cards; or, at a placement tie not yet
    answered, only the deferral and the decision (``ties.settle``, context ``summon``). A summon
    whose hourglass step reaches the chapter end marker loses the chapter (MM rulebook (it) §Plancia del
    Racconto), so where its minions stand changes nothing: it takes the defaults without asking."""
    if state.end_marker_page and state.hourglass_page + 1 >= state.end_marker_page:
        return _summon(state, Choices.defaults())
    return settle(state, SUMMON, lambda choices: _summon(state, choices))


def _summon(state: State, choices: Choices) -> list[Event]:
    page = state.hourglass_page + 1
    events: list[Event] = [HourglassAdvanced(page=page, reason="summon")]
    tile = occupied_tile(state)
    lib = library_of(state)
    rule = next((r for r in lib.chapters[state.chapter].summons if r.tile == tile), None)
    groups: tuple[tuple[str, int], ...] = ()
    if rule is not None:
        groups = ((rule.card, rule.count),)
    elif state.encounter_face_up is not None:
        groups = encounter_band(lib, state.encounter_face_up, page)
        events.append(EncounterDiscarded(card=state.encounter_face_up))
    after = evolve_all(state, events)
    if tile is not None and groups:
        placed = place_groups(after, groups, tile, choices)
        after = evolve_all(after, placed)
        events += placed
        if rule is None and state.encounter_face_up is not None:
            greedy = on_summon(after, state.encounter_face_up, page)
            after = evolve_all(after, greedy)
            events += greedy
    events.append(CheeseWheelEmptied(count=state.cheese_wheel))
    return events + new_cards_step(after, state.track)
