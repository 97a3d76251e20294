"""Search cards as the rules read them (MM rulebook (it) §Carte Ricerca; MM rulebook (it) §Equipaggiare;
docs/mice-and-mystics/facts.md §5): a card's type, combat record and place; what a pack holds; what a mouse
has equipped.

The catalogue (``search-cards.json``) gives types and stats where known; a weapon of unknown attack
is melee, a card of unknown place goes to a paw (weapon), the body (armour) or the accessory place
(provisional: docs/mice-and-mystics/rulings.md, Equip). Tricks and party items take no pack room.

The pack limit (MM rulebook (it) §Equipaggiare: "un Topo può portare al massimo 3 carte nella sua sacca,
esclusi gli Stratagemmi: se superate questo limite, dovrete scartare 1 carta a scelta dalla sacca del Topo";
MM rulebook (pt) §Equipar: "Se, em algum momento, o rato superar esse limite"): a card may always enter a pack
(a kept search card, a share, an unequip, a special search); when a pack then holds more than 3 cards that
take room, its player discards 1 of them of their choice, for no cheese (the cheese of MM rulebook (it)
§Ricerca is only for a freshly drawn card not kept): a ``DecisionRequested`` ``pack-limit`` (``pack_limit``),
answered by ``resolve_pack_limit``, repeated while the pack is still over.
"""

from __future__ import annotations

from typing import Final

from dicelog.domain.core.events import DecisionMade, DecisionRequested, Event
from dicelog.domain.mice_and_mystics.commands import Slot
from dicelog.domain.mice_and_mystics.content import Item, Library
from dicelog.domain.mice_and_mystics.evolve import evolve_all
from dicelog.domain.mice_and_mystics.item_events import PackCardDiscarded
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.state import State

PACK_LIMIT = 3
PACK_DISCARD = "pack-limit"
NO_ROOM = ("trick", "party-item")
EQUIPMENT: Final = ("weapon", "armour", "accessory")
PAW: Final = "paw"
BOTH_PAWS: Final = "both-paws"
TAIL: Final = "tail"


def card_type(lib: Library, card: str) -> str | None:
    found = lib.search_cards.get(card)
    if found is not None:
        return found.type
    item = lib.items.get(card)
    return item.kind if item is not None else None


def item_of(lib: Library, card: str) -> Item | None:
    """The card's combat record: equipment.json, else the search-card catalogue (a weapon of unknown
    attack is melee: provisional)."""
    if card in lib.items:
        return lib.items[card]
    found = lib.search_cards.get(card)
    if found is None or found.type not in EQUIPMENT:
        return None
    attack = found.attack or ("melee" if found.type == "weapon" else None)
    return Item(
        id=found.id,
        name=found.name,
        kind=found.type,
        attack=attack,
        battle=found.battle,
        defense=found.defense,
        special=found.special,
        provisional=found.provisional,
    )


def card_slot(lib: Library, card: str) -> Slot:
    """Where the card goes: the catalogue's slot, else a paw (weapon), the body (armour) or the
    accessory place (provisional where the catalogue does not know: docs/mice-and-mystics/rulings.md)."""
    found = lib.search_cards.get(card)
    if found is not None and found.slot is not None:
        return found.slot
    kind = card_type(lib, card)
    return PAW if kind == "weapon" else "body" if kind == "armour" else "accessory"


def loadout(state: State, mouse: str) -> tuple[tuple[str, str], ...]:
    """Every equipped (card, slot) of the mouse, in the order equipped."""
    if mouse in state.equipped:
        return state.equipped[mouse]
    lib = library_of(state)
    return tuple((card, card_slot(lib, card)) for card in lib.mice[mouse].starting_equipment)


def pack_load(lib: Library, pack: tuple[str, ...]) -> int:
    """Cards that take room in a pack (tricks and party items do not)."""
    return sum(1 for card in pack if card_type(lib, card) not in NO_ROOM)


def over_limit(state: State) -> str | None:
    """The first mouse (party order) whose pack holds more than ``PACK_LIMIT`` cards taking room."""
    lib = library_of(state)
    over = (m for m in (*state.party, *state.pack) if pack_load(lib, state.pack.get(m, ())) > PACK_LIMIT)
    return next(over, None)


def pack_limit(state: State, events: list[Event]) -> list[Event]:
    """``events``, then the pack-limit discard decision if they leave a pack over the limit.

    ``state`` is the state before ``events``; the answer is ``[DecisionRequested(decision="pack-limit",
    options=<the pack's cards that take room, in pack order, the newest last>, piece=<its mouse>,
    default=<the newest>)]`` appended (MM rulebook (it) §Equipaggiare; MM rulebook (pt) §Equipar). Never
    raises."""
    after = evolve_all(state, events)
    mouse = over_limit(after)
    return events if mouse is None else [*events, _discard_request(after, mouse)]


def _discard_request(state: State, mouse: str) -> DecisionRequested:
    lib = library_of(state)
    options = tuple(dict.fromkeys(c for c in state.pack.get(mouse, ()) if card_type(lib, c) not in NO_ROOM))
    return DecisionRequested(decision=PACK_DISCARD, options=options, piece=mouse, default=options[-1])


def resolve_pack_limit(state: State, answer: DecisionMade) -> list[Event]:
    """The chosen card leaves the over-full pack: ``[PackCardDiscarded(mouse, card)]``, then another
    ``pack-limit`` decision while that pack is still over the limit (MM rulebook (it) §Equipaggiare). The
    mouse is the one whose over-full pack holds the card (a card is in one pack only)."""
    lib = library_of(state)
    mouse = next(
        (
            m
            for m, cards in state.pack.items()
            if answer.option in cards and pack_load(lib, cards) > PACK_LIMIT
        ),
        None,
    )
    return [] if mouse is None else pack_limit(state, [PackCardDiscarded(mouse=mouse, card=answer.option)])


# --- what a mouse fights with (MM rulebook (it) §Equipaggiare; docs/mice-and-mystics/facts.md §5)
# ---------------------------------------


def equipment(mouse: str, state: State) -> tuple:
    """The mouse's equipped cards (MM rulebook (it) §Equipaggiare): its starting equipment until it equips or
    unequips (``equip.loadout``); search cards' stats from the catalogue (provisional where unknown)."""
    lib = library_of(state)
    return tuple(item for item in (item_of(lib, c) for c, _ in loadout(state, mouse)) if item is not None)


def weapon(mouse: str, state: State):
    """The weapon the mouse attacks with: the first equipped (a mouse attacks with one weapon at a
    time, docs/mice-and-mystics/facts.md §5 FAQ2; docs/mice-and-mystics/rulings.md, Equip)."""
    return next((item for item in equipment(mouse, state) if item.kind == "weapon"), None)


def attack_weapon(state: State, mouse: str):
    """The weapon of the mouse's attack in flight: the card it names (Knife Strike's daggers), else the
    mouse's weapon (``weapon``)."""
    named = state.attack.weapon if state.attack is not None and state.attack.attacker == mouse else None
    return item_of(library_of(state), named) if named is not None else weapon(mouse, state)
