"""The Dinner Fork (MM rulebook (it) §Oggetti del Gruppo, Forchetta; docs/mice-and-mystics/facts.md §5).

Put free from the party stash on the mouse's space, never on water. A mouse on its space may use its
action to catapult another mouse there to any space of the room that mouse can see (no move: no
mousetrap, no water roll), or to pick the fork up into the stash. Left behind when the mice leave the
room, it is lost (``party_items.after_explore``). Grapes are thrown from its space (``grapes.py``).
"""

from __future__ import annotations

from dicelog.domain.core.commands import Command
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.commands import Catapult, PickUpFork, PlaceFork
from dicelog.domain.mice_and_mystics.events import ActionStarted
from dicelog.domain.mice_and_mystics.item_events import MouseCatapulted, PartyItemPickedUp, PartyItemPlaced
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.actions import can_act, check_action
from dicelog.domain.mice_and_mystics.rules.free_actions import check_not_inside_action
from dicelog.domain.mice_and_mystics.rules.graph import can_enter
from dicelog.domain.mice_and_mystics.rules.party_items import (
    FORK,
    SECTION,
    free_to_use,
    in_stash,
    water_space,
)
from dicelog.domain.mice_and_mystics.rules.sight import same_room, sees
from dicelog.domain.mice_and_mystics.state import State, space_of


def decide_place_fork(state: State, cmd: PlaceFork) -> list[Event]:
    check_not_inside_action(state, cmd.mouse)
    here = space_of(state, cmd.mouse)
    if not in_stash(state, FORK):
        raise RuleBroken(
            "party-item.not-in-stash", section=SECTION, detail="the Dinner Fork is not in the party stash"
        )
    if here is None or water_space(library_of(state), here):
        raise RuleBroken(
            "fork.water", section=SECTION, detail="the Dinner Fork is never put on a water space"
        )
    return [PartyItemPlaced(mouse=cmd.mouse, item=FORK, spaces=(here,))]


def _check_fork_here(state: State, mouse: str) -> str:
    here = space_of(state, mouse)
    if here is None or state.tokens.get(FORK) != (here,):
        raise RuleBroken(
            "fork.not-here", section=SECTION, detail="the Dinner Fork is not on the mouse's space"
        )
    return here


def decide_catapult(state: State, cmd: Catapult) -> list[Event]:
    check_action(state, cmd.mouse, "catapult")
    here = _check_fork_here(state, cmd.mouse)
    if cmd.other == cmd.mouse or cmd.other not in state.party or space_of(state, cmd.other) != here:
        raise RuleBroken(
            "fork.no-mouse", section=SECTION, detail=f"{cmd.other} is not another mouse on the fork's space"
        )
    lib = library_of(state)
    known = cmd.space in lib.spaces and cmd.space != here
    if not known or not same_room(lib, here, cmd.space) or not sees(lib, here, cmd.space):
        raise RuleBroken(
            "fork.not-in-sight",
            section="MM rulebook (it) §Vedere il Bersaglio",
            detail=f"{cmd.other} cannot see {cmd.space}",
        )
    if not can_enter(state, cmd.space, "small", ignoring=cmd.other):
        raise RuleBroken(
            "fork.full-space",
            section="MM rulebook (it) §Condividere le Caselle",
            detail=f"{cmd.space} is full",
        )
    return [
        ActionStarted(mouse=cmd.mouse, action="catapult"),
        MouseCatapulted(mouse=cmd.other, by=cmd.mouse, origin=here, space=cmd.space),
    ]


def decide_pick_up_fork(state: State, cmd: PickUpFork) -> list[Event]:
    check_action(state, cmd.mouse, "fork")
    _check_fork_here(state, cmd.mouse)
    return [ActionStarted(mouse=cmd.mouse, action="fork"), PartyItemPickedUp(mouse=cmd.mouse, item=FORK)]


def legal_fork(state: State, mouse: str) -> list[Command]:
    """The Fork's commands for ``mouse``: placing it from the stash, a Catapult from its space, picking it
    up."""
    here = free_to_use(state, mouse)
    if here is None:
        return []
    out: list[Command] = []
    lib = library_of(state)
    if in_stash(state, FORK) and not water_space(lib, here):
        out.append(PlaceFork(mouse=mouse))
    if state.tokens.get(FORK) == (here,) and can_act(state, mouse, "catapult"):
        room = lib.tiles[lib.space_tile[here]]
        for other in sorted(m for m in state.board.get(here, ()) if m in state.party and m != mouse):
            out += [
                Catapult(mouse=mouse, other=other, space=s.id)
                for s in room.spaces
                if s.id != here and sees(lib, here, s.id) and can_enter(state, s.id, "small", ignoring=other)
            ]
        out.append(PickUpFork(mouse=mouse))
    return out
