"""Equip, a free action (001 §Equipaggiare; 001 §Carte Ricerca; facts.md §2, §5).

A mouse moves one card between its pack and its equipment. The pack holds at most 3 cards; tricks
and party items take no room. Equipped cards may not share a place, except paws (2): a one-paw
weapon takes one, a two-pawed one both; armour one body area, an accessory its own place. Filch's
Prehensile Tail: a dagger in his tail, a third paw. Starting equipment is equipped until first
moved. An equipped card displaced by a new one goes back to the pack (RULINGS.md, Equip).
Equipped weapons and armour feed the battle/defense dice (``combat.equipment``).
"""

from __future__ import annotations

from domain.core.commands import Command
from domain.core.errors import RuleBroken
from domain.core.events import Event
from domain.mice_and_mystics.commands import Equip, Unequip
from domain.mice_and_mystics.content import library
from domain.mice_and_mystics.rules.cards import BOTH_PAWS, EQUIPMENT, PACK_LIMIT, PAW, TAIL, card_slot, card_type
from domain.mice_and_mystics.rules.cards import item_of, loadout, pack_load
from domain.mice_and_mystics.item_events import EquipmentDiscarded, SearchCardEquipped, SearchCardUnequipped
from domain.mice_and_mystics.rules.free_actions import EQUIP, check_free_action, may_take
from domain.mice_and_mystics.state import State

EQUIP_SECTION = "001 §Equipaggiare"
PREHENSILE_TAIL = ("filch",)  # facts.md §2: Filch may equip a dagger in his tail as a third paw


def slots_for(mouse: str, card: str) -> tuple[str, ...]:
    slot = card_slot(card)
    item = item_of(card)
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


def requirement_met(mouse: str, card: str) -> bool:
    """Whether ``mouse`` meets the card's requirement (a class or a mouse it names; none: anyone).
    001 §Carte Ricerca ("un Topo deve soddisfare queste condizioni per poter usare l'Oggetto")."""
    found = library().search_cards.get(card)
    if found is None or not found.requires:
        return True
    return bool(set(found.requires) & {mouse, *library().mice[mouse].classes})


def decide_equip(state: State, cmd: Equip) -> list[Event]:
    check_free_action(state, cmd.mouse, EQUIP)
    pack = state.pack.get(cmd.mouse, ())
    if cmd.card not in pack:
        raise RuleBroken("equip.not-in-pack", section=EQUIP_SECTION,
                         detail=f"{cmd.card} is not in {cmd.mouse}'s pack")
    if card_type(cmd.card) not in EQUIPMENT or item_of(cmd.card) is None:
        raise RuleBroken("equip.not-equipment", section=EQUIP_SECTION,
                         detail=f"{cmd.card} is no weapon, armour or accessory")
    if not requirement_met(cmd.mouse, cmd.card):
        raise RuleBroken("equip.requirement", section="001 §Carte Ricerca",
                         detail=f"{cmd.mouse} may not use {cmd.card}")
    if cmd.slot not in slots_for(cmd.mouse, cmd.card):
        raise RuleBroken("equip.wrong-slot", section=EQUIP_SECTION,
                         detail=f"{cmd.card} goes in {', '.join(slots_for(cmd.mouse, cmd.card))}")
    current = loadout(state, cmd.mouse)
    displaced = _displaced(current, cmd.slot)
    left = tuple(c for c in pack if c != cmd.card)
    if pack_load((*left, *displaced)) > PACK_LIMIT:
        raise RuleBroken("equip.pack-full", section=EQUIP_SECTION,
                         detail="the displaced cards do not fit in the pack")
    after = (*((c, s) for c, s in current if c not in displaced), (cmd.card, cmd.slot))
    return [SearchCardEquipped(mouse=cmd.mouse, card=cmd.card, slot=cmd.slot, unequipped=displaced,
                               loadout=after)]


def decide_unequip(state: State, cmd: Unequip) -> list[Event]:
    check_free_action(state, cmd.mouse, EQUIP)
    current = loadout(state, cmd.mouse)
    if cmd.card not in (c for c, _ in current):
        raise RuleBroken("equip.not-equipped", section=EQUIP_SECTION, detail=f"{cmd.card} is not equipped")
    if pack_load((*state.pack.get(cmd.mouse, ()), cmd.card)) > PACK_LIMIT:
        raise RuleBroken("equip.pack-full", section=EQUIP_SECTION, detail=f"{cmd.mouse}'s pack holds 3 cards")
    after = tuple((c, s) for c, s in current if c != cmd.card)
    return [SearchCardUnequipped(mouse=cmd.mouse, card=cmd.card, loadout=after)]


def discard_on_capture(state: State, mouse: str) -> list[Event]:
    """001 §Topi Catturati: a captured mouse discards its equipped search cards (starting equipment and
    the pack are safe); the Escape Artist's third capture keeps them (facts.md, appendix)."""
    if state.achievements.get("escape-artist") == mouse and state.captures.get(mouse, 0) + 1 >= 3:
        return []
    start = set(library().mice[mouse].starting_equipment)
    current = loadout(state, mouse)
    cards = tuple(c for c, _ in current if c not in start)
    if not cards:
        return []
    kept = tuple((c, s) for c, s in current if c in start)
    return [EquipmentDiscarded(mouse=mouse, cards=cards, loadout=kept)]


def legal_equips(state: State, mouse: str) -> list[Command]:
    if not may_take(state, mouse, EQUIP):
        return []
    out: list[Command] = []
    pack = dict.fromkeys(state.pack.get(mouse, ()))
    candidates: list[Command] = [Equip(mouse=mouse, card=c, slot=s) for c in pack for s in slots_for(mouse, c)]
    candidates += [Unequip(mouse=mouse, card=c) for c, _ in loadout(state, mouse)]
    for command in candidates:
        try:
            (decide_equip if isinstance(command, Equip) else decide_unequip)(state, command)
        except RuleBroken:
            continue
        out.append(command)
    return out
