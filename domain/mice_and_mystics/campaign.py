"""Campaign carry-over (001 §Giocare Mice and Mystics come una Campagna; 002 Mode Campagne;
facts.md, Campaign carry-over). Rulings in RULINGS.md (Campaign carry-over).

After a won chapter the next one receives a ``CarryOver`` document:

1. story achievements (party) and abilities (per mouse) are all kept;
2. each mouse keeps 1 search card (001 «va aggiunta all'equipaggiamento iniziale»), put in its pack
   at setup (``CarryOver.equipment`` names it; it is not equipped). Which one is a documented
   default, not a decision (the chapter's game has ended when the carry-over is computed): the
   card with the highest battle + defense bonus, ties to the one found first; never a party item;
   the card kept from the chapter before competes like any other;
3. party items, personal achievements, cheese, wounds and effects are lost (simply not carried).

The next chapter's ``Begin`` applies it (``CarryOverApplied``, after the decks are prepared): the
achievements and abilities are restored and each kept card goes to its mouse's pack, out of the deck.
"""

from __future__ import annotations

import msgspec

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.chapter_events import CarryOverApplied
from dicelog.domain.mice_and_mystics.content import Library, library_of
from dicelog.domain.mice_and_mystics.documents import CarryOver
from dicelog.domain.mice_and_mystics.events import DecksPrepared
from dicelog.domain.mice_and_mystics.state import State

SECTION = "001 §Giocare Mice and Mystics come una Campagna"
PARTY_ITEMS = frozenset({"disguises", "fishhook-and-thread", "dinner-fork", "grapes"})  # facts.md §5


def _card_stats(lib: Library, card: str) -> tuple[str | None, int]:
    found = getattr(lib, "search_cards", {}).get(card)
    if found is not None:
        return found.type, found.battle + found.defense
    item = lib.items.get(card)
    return (item.kind, item.battle + item.defense) if item is not None else (None, 0)


def kept_card(lib: Library, cards: tuple[str, ...]) -> str | None:
    """The one search card a mouse keeps: best battle + defense bonus, ties to the first found."""
    eligible = [c for c in cards if c not in PARTY_ITEMS and _card_stats(lib, c)[0] != "party-item"]
    return max(eligible, key=lambda c: (_card_stats(lib, c)[1], -cards.index(c)), default=None)


def carry_over_of(final_state: State, previous: CarryOver | None) -> CarryOver:
    previous = previous or CarryOver()
    equipment = {}
    lib = library_of(final_state)
    for mouse in final_state.party:
        start = set(lib.mice[mouse].starting_equipment)  # equipped search cards compete too (rules/equip.py)
        held = (*final_state.pack.get(mouse, ()), *(c for c, _ in final_state.equipped.get(mouse, ())))
        card = kept_card(lib, tuple(dict.fromkeys(c for c in held if c not in start)))
        if card is not None:
            equipment[mouse] = card
    return CarryOver(
        from_chapter=final_state.chapter,
        story_achievements=tuple(
            dict.fromkeys((*previous.story_achievements, *final_state.story_achievements))
        ),
        abilities={**previous.abilities, **final_state.abilities},
        equipment=equipment,
    )


def campaign_carry_over(final_state: State, previous: msgspec.Raw | None) -> msgspec.Raw:
    """What the next chapter receives (JSON of ``CarryOver``), from the final state of a won chapter
    and the carry-over that chapter itself received."""
    before = msgspec.json.decode(previous, type=CarryOver) if previous is not None else None
    return msgspec.Raw(msgspec.json.encode(carry_over_of(final_state, before)))


def check_carry_over(lib: Library, carry: CarryOver, party: tuple[str, ...]) -> None:
    for mouse in (*carry.equipment, *carry.abilities):
        if mouse not in lib.mice:
            raise RuleBroken("setup.unknown-mouse", section=SECTION, detail=f"carry-over: no mouse {mouse!r}")


def with_carry_over(state: State, events: list[Event]) -> list[Event]:
    """The chapter's setup events with ``CarryOverApplied`` right after the decks are prepared."""
    carry = state.carry_in
    if carry is None:
        return events
    applied = CarryOverApplied(
        from_chapter=carry.from_chapter,
        story_achievements=carry.story_achievements,
        abilities={m: a for m, a in carry.abilities.items() if m in state.party},
        equipment={m: c for m, c in carry.equipment.items() if m in state.party},
    )
    at = next((i + 1 for i, e in enumerate(events) if isinstance(e, DecksPrepared)), len(events))
    return [*events[:at], applied, *events[at:]]
