"""Encounter keywords (MM rulebook (it) §Trappole per Topi; MM rulebook (it) §Imboscate; MM rulebook (it)
§Blatte Avide; docs/mice-and-mystics/facts.md §6).

When an encounter's minions have been placed in the room:
- Mousetrap: a mousetrap token on every red-X space of the room.
- Ambush: once every minion card is on the track, each is ambushed (``bosses.ambush_step``).
- Greedy Roaches: every roach in play becomes greedy.
A summon uses the same band but "ambushes do not affect summons" (MM rulebook (it) §Imboscate); of the
keywords only Greedy Roaches applies to roaches a summon brings (docs/mice-and-mystics/rulings.md, Encounter
keywords).
"""

from __future__ import annotations

from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.content import EncounterBand, Library
from dicelog.domain.mice_and_mystics.events import (
    AmbushDeclared,
    EncounterStarted,
    MousetrapsSet,
    RoachesTurnedGreedy,
)
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.state import State

ROACHES = "roaches"


def band(lib: Library, card: str, page: int) -> EncounterBand | None:
    bands = lib.encounters[card].bands
    return next((b for b in bands if b.first <= page <= b.last), bands[-1] if bands else None)


def greedy(state: State) -> list[Event]:
    roaches = tuple(sorted(f for f, c in state.figures.items() if c == ROACHES and f not in state.greedy))
    return [RoachesTurnedGreedy(figures=roaches)] if roaches else []


def on_encounter(state: State, card: str, page: int, room: str | None) -> list[Event]:
    """``state`` after the encounter's minions were placed."""
    found = band(library_of(state), card, page)
    words = found.keywords if found is not None else ()
    events: list[Event] = [EncounterStarted(card=card)]
    if "greedy-roaches" in words:
        events += greedy(state)
    if "mousetrap" in words and room is not None:
        traps = tuple(s.id for s in library_of(state).tiles[room].spaces if s.kind == "mousetrap")
        events += [MousetrapsSet(spaces=traps)] if traps else []
    if "ambush" in words:
        events.append(AmbushDeclared())
    return events


def on_summon(state: State, card: str, page: int) -> list[Event]:
    found = band(library_of(state), card, page)
    return greedy(state) if found is not None and "greedy-roaches" in found.keywords else []
