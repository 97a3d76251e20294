"""Search cards as the rules read them (001 §Carte Ricerca; 001 §Equipaggiare; facts.md §5): a card's
type, combat record and place; what a pack holds; what a mouse has equipped.

The catalogue (``search-cards.json``) gives types and stats where known; a weapon of unknown attack
is melee, a card of unknown place goes to a paw (weapon), the body (armour) or the accessory place
(provisional: RULINGS.md, Equip). Tricks and party items take no pack room.
"""

from __future__ import annotations

from domain.mice_and_mystics.content import Item, library
from domain.mice_and_mystics.state import State

PACK_LIMIT = 3
NO_ROOM = ("trick", "party-item")
EQUIPMENT = ("weapon", "armour", "accessory")
PAW, BOTH_PAWS, TAIL = "paw", "both-paws", "tail"


def card_type(card: str) -> str | None:
    found = library().search_cards.get(card)
    if found is not None:
        return found.type
    item = library().items.get(card)
    return item.kind if item is not None else None


def item_of(card: str) -> Item | None:
    """The card's combat record: equipment.json, else the search-card catalogue (a weapon of unknown
    attack is melee: provisional)."""
    lib = library()
    if card in lib.items:
        return lib.items[card]
    found = lib.search_cards.get(card)
    if found is None or found.type not in EQUIPMENT:
        return None
    attack = found.attack or ("melee" if found.type == "weapon" else None)
    return Item(id=found.id, name=found.name, kind=found.type, attack=attack, battle=found.battle,
                defense=found.defense, special=found.special, provisional=found.provisional)


def card_slot(card: str) -> str:
    """Where the card goes: the catalogue's slot, else a paw (weapon), the body (armour) or the
    accessory place (provisional where the catalogue does not know: RULINGS.md)."""
    found = library().search_cards.get(card)
    if found is not None and found.slot is not None:
        return found.slot
    kind = card_type(card)
    return PAW if kind == "weapon" else "body" if kind == "armour" else "accessory"


def loadout(state: State, mouse: str) -> tuple[tuple[str, str], ...]:
    """Every equipped (card, slot) of the mouse, in the order equipped."""
    if mouse in state.equipped:
        return state.equipped[mouse]
    return tuple((card, card_slot(card)) for card in library().mice[mouse].starting_equipment)


def pack_load(pack: tuple[str, ...]) -> int:
    """Cards that take room in a pack (tricks and party items do not)."""
    return sum(1 for card in pack if card_type(card) not in NO_ROOM)
