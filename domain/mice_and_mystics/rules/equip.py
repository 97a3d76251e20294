"""Equip, a free action (MM rulebook (it) §Equipaggiare; MM rulebook (it) §Carte Ricerca;
docs/mice-and-mystics/facts.md §2, §5).

One Equip moves any cards between the mouse's pack and its equipment (MM rulebook (it) §Equipaggiare: "può
Equipaggiare carte che sono nella sua sacca, o spostare nella sacca carte precedentemente
Equipaggiate"; MM rulebook (pt) §Equipar): first the cards it unequips go to the pack, then the cards it
equips leave the pack, in order. The pack holds at most 3 cards (tricks and party items take no room); a pack
left over the limit is followed by its player's discard of 1 card of their choice (``cards.pack_limit``; MM
rulebook (pt): "Se, em algum momento, o rato superar esse limite"). Equipped cards may not share a place,
except paws (2): a one-paw weapon takes one, a two-pawed one both; armour one body area, an accessory its own
place. Filch's Prehensile Tail: a dagger in his tail, a third paw. Starting equipment is equipped until first
moved. An equipped card displaced by a new one goes back to the pack (docs/mice-and-mystics/rulings.md,
Equip). Equipped weapons and armour feed the battle/defense dice (``cards.equipment``).
"""

from __future__ import annotations

from dicelog.domain.core.commands import Command
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.commands import Equip, EquipCard, Slot, Unequip
from dicelog.domain.mice_and_mystics.content import Library
from dicelog.domain.mice_and_mystics.item_events import (
    EquipmentDiscarded,
    SearchCardEquipped,
    SearchCardUnequipped,
)
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.cards import (
    BOTH_PAWS,
    EQUIPMENT,
    PAW,
    TAIL,
    card_slot,
    card_type,
    item_of,
    loadout,
    pack_limit,
)
from dicelog.domain.mice_and_mystics.rules.free_actions import EQUIP, check_free_action, may_take
from dicelog.domain.mice_and_mystics.state import State

EQUIP_SECTION = "MM rulebook (it) §Equipaggiare"
# docs/mice-and-mystics/facts.md §2: Filch may equip a dagger in his tail as a third paw
PREHENSILE_TAIL = ("filch",)


def slots_for(lib: Library, mouse: str, card: str) -> tuple[Slot, ...]:
    """The places ``mouse`` may equip ``card`` in: its slot, and Filch's tail for a dagger
    (docs/mice-and-mystics/facts.md §2)."""
    slot = card_slot(lib, card)
    item = item_of(lib, card)
    if slot == PAW and mouse in PREHENSILE_TAIL and item is not None and item.special == "dagger":
        return (PAW, TAIL)
    return (slot,)


def _displaced(current: tuple[tuple[str, str], ...], slot: str) -> tuple[str, ...]:
    """The cards a new card in ``slot`` pushes back to the pack (the oldest paw card first)."""
    if slot == BOTH_PAWS:
        return tuple(c for c, s in current if s in (PAW, BOTH_PAWS))
    if slot == PAW:
        paws = [(c, s) for c, s in current if s in (PAW, BOTH_PAWS)]
        if any(s == BOTH_PAWS for _, s in paws):
            return tuple(c for c, _ in paws)
        return (paws[0][0],) if len(paws) >= 2 else ()
    return tuple(c for c, s in current if s == slot)


def requirement_met(lib: Library, mouse: str, card: str) -> bool:
    """Whether ``mouse`` meets the card's requirement (a class or a mouse it names; none: anyone).
    MM rulebook (it) §Carte Ricerca ("un Topo deve soddisfare queste condizioni per poter usare
    l'Oggetto")."""
    found = lib.search_cards.get(card)
    if found is None or not found.requires:
        return True
    return bool(set(found.requires) & {mouse, *lib.mice[mouse].classes})


def equip_one(
    lib: Library,
    mouse: str,
    pack: tuple[str, ...],
    current: tuple[tuple[str, str], ...],
    card: str,
    slot: str | None,
) -> SearchCardEquipped:
    """``card`` moved from ``mouse``'s ``pack`` to ``slot``, given what it has equipped (``current``): what
    it displaces goes back to the pack (``unequipped``). Raises ``equip.not-in-pack``,
    ``equip.not-equipment``, ``equip.requirement`` (MM rulebook (it) §Carte Ricerca) and
    ``equip.wrong-slot``."""
    if card not in pack:
        raise RuleBroken(
            "equip.not-in-pack", section=EQUIP_SECTION, detail=f"{card} is not in {mouse}'s pack"
        )
    if card_type(lib, card) not in EQUIPMENT or item_of(lib, card) is None:
        raise RuleBroken(
            "equip.not-equipment", section=EQUIP_SECTION, detail=f"{card} is no weapon, armour or accessory"
        )
    if not requirement_met(lib, mouse, card):
        raise RuleBroken(
            "equip.requirement",
            section="MM rulebook (it) §Carte Ricerca",
            detail=f"{mouse} may not use {card}",
        )
    if slot not in slots_for(lib, mouse, card):
        raise RuleBroken(
            "equip.wrong-slot",
            section=EQUIP_SECTION,
            detail=f"{card} goes in {', '.join(slots_for(lib, mouse, card))}",
        )
    displaced = _displaced(current, slot)
    after = (*((c, s) for c, s in current if c not in displaced), (card, slot))
    return SearchCardEquipped(mouse=mouse, card=card, slot=slot, unequipped=displaced, loadout=after)


def _unequip_one(mouse: str, current: tuple[tuple[str, str], ...], card: str) -> SearchCardUnequipped:
    if card not in (c for c, _ in current):
        raise RuleBroken("equip.not-equipped", section=EQUIP_SECTION, detail=f"{card} is not equipped")
    return SearchCardUnequipped(
        mouse=mouse, card=card, loadout=tuple((c, s) for c, s in current if c != card)
    )


def decide_equip(state: State, cmd: Equip) -> list[Event]:
    """One Equip free action moving any cards (MM rulebook (it) §Equipaggiare).

    ``Equip(mouse, card, slot, cards=(EquipCard(card, slot), ...), unequip=(card, ...))`` ->
    ``[SearchCardUnequipped...]`` for ``unequip`` (in order), then ``[SearchCardEquipped...]`` for
    ``card``/``slot`` and each of ``cards`` (in order; cards an equipped card displaces go back to the
    pack), then the pack-limit discard decision if the pack is now over 3 (``cards.pack_limit``). A
    card unequipped may be equipped again in another place in the same Equip.

    Raises the free-action rules (``check_free_action``), ``equip.nothing`` (no card named),
    ``equip.not-equipped``, ``equip.not-in-pack``, ``equip.not-equipment``, ``equip.requirement``
    (MM rulebook (it) §Carte Ricerca), ``equip.wrong-slot`` (no slot, or not the card's place).
    """
    check_free_action(state, cmd.mouse, EQUIP)
    lib = library_of(state)
    moves: tuple[EquipCard, ...] = (
        (EquipCard(card=cmd.card, slot=cmd.slot),) if cmd.card is not None and cmd.slot is not None else ()
    )
    if cmd.card is not None and cmd.slot is None:
        raise RuleBroken(
            "equip.wrong-slot",
            section=EQUIP_SECTION,
            detail=f"name the place for {cmd.card}: {', '.join(slots_for(lib, cmd.mouse, cmd.card))}",
        )
    moves += cmd.cards
    if not moves and not cmd.unequip:
        raise RuleBroken("equip.nothing", section=EQUIP_SECTION, detail="name cards to equip or unequip")
    pack, current = state.pack.get(cmd.mouse, ()), loadout(state, cmd.mouse)
    events: list[Event] = []
    for card in cmd.unequip:
        unequipped = _unequip_one(cmd.mouse, current, card)
        pack, current = (*pack, card), unequipped.loadout
        events.append(unequipped)
    for move in moves:
        event = equip_one(lib, cmd.mouse, pack, current, move.card, move.slot)
        left = list(pack)
        left.remove(move.card)
        pack, current = (*left, *event.unequipped), event.loadout
        events.append(event)
    return pack_limit(state, events)


def decide_unequip(state: State, cmd: Unequip) -> list[Event]:
    """``Unequip(mouse, card)`` -> ``[SearchCardUnequipped]`` (the card goes back to the pack), then the
    pack-limit discard decision if the pack is now over 3 (MM rulebook (it) §Equipaggiare;
    ``cards.pack_limit``). Raises the free-action rules and ``equip.not-equipped``."""
    check_free_action(state, cmd.mouse, EQUIP)
    return pack_limit(state, [_unequip_one(cmd.mouse, loadout(state, cmd.mouse), cmd.card)])


def discard_on_capture(state: State, mouse: str) -> list[Event]:
    """MM rulebook (it) §Topi Catturati: a captured mouse discards its equipped search cards (starting
    equipment and the pack are safe); the Escape Artist's third capture keeps them
    (docs/mice-and-mystics/facts.md, appendix)."""
    if state.achievements.get("escape-artist") == mouse and state.captures.get(mouse, 0) + 1 >= 3:
        return []
    start = set(library_of(state).mice[mouse].starting_equipment)
    current = loadout(state, mouse)
    cards = tuple(c for c, _ in current if c not in start)
    if not cards:
        return []
    kept = tuple((c, s) for c, s in current if c in start)
    return [EquipmentDiscarded(mouse=mouse, cards=cards, loadout=kept)]


def legal_equips(state: State, mouse: str) -> list[Command]:
    """The one-card Equips (each pack card in each of its places) and Unequips the mouse may make now
    (``decide_equip`` accepts several cards at once too)."""
    if not may_take(state, mouse, EQUIP):
        return []
    out: list[Command] = []
    pack = dict.fromkeys(state.pack.get(mouse, ()))
    lib = library_of(state)
    candidates: list[Equip | Unequip] = [
        Equip(mouse=mouse, card=c, slot=s) for c in pack for s in slots_for(lib, mouse, c)
    ]
    candidates += [Unequip(mouse=mouse, card=c) for c, _ in loadout(state, mouse)]
    for command in candidates:
        try:
            if isinstance(command, Equip):
                decide_equip(state, command)
            else:
                decide_unequip(state, command)
        except RuleBroken:
            continue
        out.append(command)
    return out
