"""Special searches of a chapter's rooms (MM rulebook (it) §Capitolo 1: La Stanza delle Guardie, Ricerca
Speciale: Il Bottino del Fabbro; Le Fognature, Ricerca Speciale (caselle d'acqua): Amo e Lenza;
MM rulebook (pt) §Regras especiais do Capítulo). Rulings in docs/mice-and-mystics/rulings.md (Special
searches).

A successful search (a star) in a room with a special search not yet found, by a mouse that may
take it (``SpecialSearch.classes``; on a water space if ``water_only``): the player chooses the
special item or the normal draw (a ``DecisionRequested``; default: the item). Each special item is
found once per chapter. A full pack does not stop it: a card that puts the pack over 3 is followed
by the player's discard of 1 pack card (MM rulebook (it) §Equipaggiare; ``cards.pack_limit``).

Tinkerer's Treasure (card text, MM rulebooks (it, pt)): look through the search deck, take any 1 weapon or
armour (a ``DecisionRequested`` among the eligible cards, sorted), then put the Treasure into the
search deck and shuffle it. Its note says it lets a Tinkerer search, so only a Tinkerer may take it.
Fishhook & Thread: the card goes to the mouse's pack (taken out of the deck if it is still there).
"""

from __future__ import annotations

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import DecisionMade, DecisionRequested, DrawRequested, Event
from dicelog.domain.mice_and_mystics.chapter_events import (
    SearchDeckCardTaken,
    SearchDeckShuffled,
    SpecialSearchFound,
)
from dicelog.domain.mice_and_mystics.content import Library, SpecialSearch
from dicelog.domain.mice_and_mystics.events import SearchSucceeded
from dicelog.domain.mice_and_mystics.item_events import PartyItemGained
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.cards import pack_limit
from dicelog.domain.mice_and_mystics.state import State, board_space, space_of

SPECIAL_SEARCH, TREASURE_PICK = "special-search", "tinkerers-treasure"
TINKERERS_TREASURE = "tinkerers-treasure"
DRAW = "search-deck"
# Card kinds docs/mice-and-mystics/facts.md §5 gives for search cards not yet in the content catalogue.
KNOWN_KINDS = {"bow-of-precision": "weapon", "toothpick": "weapon", "cloak-of-displacement": "armour"}


def card_kind(lib: Library, card: str) -> str | None:
    """The card's type: the catalogue, equipment.json, else docs/mice-and-mystics/facts.md §5
    (``KNOWN_KINDS``); None if unknown."""
    found = getattr(lib, "search_cards", {}).get(card)
    if found is not None:
        return found.type
    item = lib.items.get(card)
    return item.kind if item is not None else KNOWN_KINDS.get(card)


def weapons_and_armour(state: State) -> tuple[str, ...]:
    """The weapons and armour left in the search deck, sorted (Tinkerer's Treasure's choice)."""
    lib = library_of(state)
    return tuple(sorted(c for c in set(state.search_deck) if card_kind(lib, c) in ("weapon", "armour")))


def available(state: State, mouse: str) -> SpecialSearch | None:
    """The special search the mouse may take after a successful search where it stands, if any."""
    lib = library_of(state)
    chapter = lib.chapters.get(state.chapter)
    space = space_of(state, mouse)
    if chapter is None or space is None:
        return None
    tile = lib.space_tile[space]
    classes = set(lib.mice[mouse].classes)
    for special in chapter.special_searches:
        if special.tile != tile or special.tile in state.special_searches:
            continue
        if special.water_only and not lib.spaces[space].water:
            continue
        if special.classes and not classes & set(special.classes):
            continue
        if special.item == TINKERERS_TREASURE and not weapons_and_armour(state):
            continue
        return special
    return None


def after_search_roll(state: State, events: list[Event]) -> list[Event]:
    """Offer the special item instead of the draw after a successful search."""
    found = next((e for e in events if isinstance(e, SearchSucceeded)), None)
    if found is None:
        return events
    special = available(state, found.mouse)
    if special is None:
        return events
    kept = [e for e in events if not isinstance(e, DrawRequested)]
    options = (special.item, DRAW) if state.search_deck else (special.item,)
    return [
        *kept,
        DecisionRequested(decision=SPECIAL_SEARCH, options=options, piece=found.mouse, default=special.item),
    ]


def resolve_special_search(state: State, answer: DecisionMade) -> list[Event]:
    """The normal draw: ``[DrawRequested(search)]``; else ``[SpecialSearchFound, ...]``: Tinkerer's
    Treasure asks which weapon or armour (``DecisionRequested`` ``tinkerers-treasure``), a party item
    goes to the stash (``PartyItemGained``), any other card to the pack (``SearchDeckCardTaken``, then
    the pack-limit discard if the pack is over 3)."""
    mouse = state.mouse_turn.mouse if state.mouse_turn is not None else None
    if mouse is None:
        raise InvariantViolated("mouse-turn", "a special-search decision outside a mouse's turn")
    if answer.option == DRAW:
        return [
            DrawRequested(reason="search", deck="search", cards=tuple(sorted(state.search_deck)), piece=mouse)
        ]
    lib = library_of(state)
    tile = lib.space_tile[board_space(state, mouse)]
    events: list[Event] = [SpecialSearchFound(mouse=mouse, tile=tile, item=answer.option)]
    if answer.option == TINKERERS_TREASURE:
        eligible = weapons_and_armour(state)
        return [
            *events,
            DecisionRequested(decision=TREASURE_PICK, options=eligible, piece=mouse, default=eligible[0]),
        ]
    # MM rulebook (it) §Oggetti del Gruppo: held by the party
    if card_kind(lib, answer.option) == "party-item":
        return [*events, PartyItemGained(mouse=mouse, card=answer.option)]
    return pack_limit(
        state, [*events, SearchDeckCardTaken(mouse=mouse, card=answer.option, reason="special-search")]
    )


def resolve_treasure_pick(state: State, answer: DecisionMade) -> list[Event]:
    """``[SearchDeckCardTaken(card), SearchDeckShuffled(added=(tinkerers-treasure,))]``, then the
    pack-limit discard if the pack is over 3 (card text; MM rulebook (it) §Equipaggiare)."""
    mouse = state.mouse_turn.mouse if state.mouse_turn is not None else None
    if mouse is None:
        raise InvariantViolated("mouse-turn", "a treasure pick outside a mouse's turn")
    return pack_limit(
        state,
        [
            SearchDeckCardTaken(mouse=mouse, card=answer.option, reason=TINKERERS_TREASURE),
            SearchDeckShuffled(added=(TINKERERS_TREASURE,), reason=TINKERERS_TREASURE),
        ],
    )
