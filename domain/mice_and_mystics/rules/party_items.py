"""Party items (MM rulebook (it) §Oggetti del Gruppo, pp. 18-19: Travestimento, Amo e Lenza, Forchetta;
docs/mice-and-mystics/facts.md §5).

A party item card found by search goes by the story board, its token into the party stash; any mouse
may use it, and it takes no pack room. Fishhook & Thread: put free from the stash between the
mouse's space and another space of the room (not both water); mice move between its ends as if
adjacent (``links.py``); an action at either end takes it back. The Dinner Fork is in ``fork.py``,
the Grapes as a weapon in ``grapes.py``. A token left in a room the mice leave is lost and its card
shuffled back into the search deck. Disguises: the next encounter that would place Rats places none
of them (not a summon); the token is discarded and the card shuffled back (docs/mice-and-mystics/rulings.md,
Party items).
"""

from __future__ import annotations

from dicelog.domain.core.commands import Command
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.chapter_events import SearchDeckShuffled
from dicelog.domain.mice_and_mystics.commands import PlaceFishhook, RemoveFishhook
from dicelog.domain.mice_and_mystics.content import Library
from dicelog.domain.mice_and_mystics.events import ActionStarted, RoomEntered
from dicelog.domain.mice_and_mystics.item_events import PartyItemLost, PartyItemPickedUp, PartyItemPlaced
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.actions import can_act, check_action
from dicelog.domain.mice_and_mystics.rules.free_actions import check_not_inside_action
from dicelog.domain.mice_and_mystics.rules.links import FISHHOOK
from dicelog.domain.mice_and_mystics.rules.sight import same_room
from dicelog.domain.mice_and_mystics.state import State, space_of

SECTION = "MM rulebook (it) §Oggetti del Gruppo"
FORK, DISGUISES, GRAPES = "dinner-fork", "disguises", "grapes"
RATS = ("rat-warriors", "elite-rat-warriors")


def holds(state: State, item: str) -> bool:
    """The party has the item (in the stash or on the board; also a card kept in a pack by older games)."""
    return item in state.party_items or any(item in pack for pack in state.pack.values())


def in_stash(state: State, item: str) -> bool:
    return holds(state, item) and item not in state.tokens


def water_space(lib: Library, space: str) -> bool:
    return lib.spaces[space].water


def decide_place_fishhook(state: State, cmd: PlaceFishhook) -> list[Event]:
    check_not_inside_action(state, cmd.mouse)
    here = space_of(state, cmd.mouse)
    if not in_stash(state, FISHHOOK):
        raise RuleBroken(
            "party-item.not-in-stash", section=SECTION, detail="Fishhook & Thread is not in the party stash"
        )
    lib = library_of(state)
    elsewhere = cmd.space in lib.spaces and cmd.space != here
    if here is None or not elsewhere or not same_room(lib, here, cmd.space):
        raise RuleBroken(
            "fishhook.invalid-space", section=SECTION, detail=f"{cmd.space} is not another space of this room"
        )
    if water_space(lib, here) and water_space(lib, cmd.space):
        raise RuleBroken("fishhook.both-water", section=SECTION, detail="at least one end must not be water")
    return [PartyItemPlaced(mouse=cmd.mouse, item=FISHHOOK, spaces=(here, cmd.space))]


def decide_remove_fishhook(state: State, cmd: RemoveFishhook) -> list[Event]:
    check_action(state, cmd.mouse, "fishhook")
    if space_of(state, cmd.mouse) not in state.tokens.get(FISHHOOK, ()):
        raise RuleBroken(
            "fishhook.not-here",
            section=SECTION,
            detail="the mouse is on neither end of the Fishhook & Thread",
        )
    return [
        ActionStarted(mouse=cmd.mouse, action="fishhook"),
        PartyItemPickedUp(mouse=cmd.mouse, item=FISHHOOK),
    ]


def lost(item: str, reason: str) -> list[Event]:
    return [PartyItemLost(item=item, reason=reason), SearchDeckShuffled(added=(item,), reason=reason)]


def after_explore(state: State, events: list[Event]) -> list[Event]:
    """Tokens left in a room the mice leave are lost, their cards shuffled back (before any draw)."""
    entered = next((e for e in events if isinstance(e, RoomEntered)), None)
    if entered is None:
        return events
    tile = library_of(state).space_tile
    left = [i for i, spaces in sorted(state.tokens.items()) if tile[spaces[0]] != entered.tile]
    at = events.index(entered) + 1
    return [*events[:at], *(e for i in left for e in lost(i, "left-behind")), *events[at:]]


Minions = tuple[tuple[str, int], ...]


def disguise(state: State, minions: Minions) -> tuple[Minions, list[Event]]:
    """Disguises: an encounter's Rats are not placed while the party holds the token (then lost)."""
    if not holds(state, DISGUISES) or not any(card in RATS for card, _ in minions):
        return minions, []
    return tuple(m for m in minions if m[0] not in RATS), lost(DISGUISES, DISGUISES)


def free_to_use(state: State, mouse: str) -> str | None:
    """The mouse's space when it may use a party item now (on the board, not inside an action), else
    ``None``."""
    try:
        check_not_inside_action(state, mouse)
    except RuleBroken:
        return None
    return space_of(state, mouse)


def legal_party_items(state: State, mouse: str) -> list[Command]:
    """Fishhook & Thread's commands for ``mouse`` (placing it from the stash, taking it back); the Fork's
    are ``fork.legal_fork``'s."""
    here = free_to_use(state, mouse)
    if here is None:
        return []
    out: list[Command] = []
    if in_stash(state, FISHHOOK):
        lib = library_of(state)
        room = lib.tiles[lib.space_tile[here]]
        ends = [
            s.id
            for s in room.spaces
            if s.id != here and not (water_space(lib, s.id) and water_space(lib, here))
        ]
        out += [PlaceFishhook(mouse=mouse, space=s) for s in ends]
    if here in state.tokens.get(FISHHOOK, ()) and can_act(state, mouse, "fishhook"):
        out.append(RemoveFishhook(mouse=mouse))
    return out
