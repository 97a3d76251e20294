"""Grapes as roach bait (MM rulebook (it) §Oggetti del Gruppo, Uva come Esca per Blatte;
docs/mice-and-mystics/facts.md §5).

At any moment of a mouse's turn (not inside an action) the Grapes go from the party stash onto an
empty space next to the mouse (MM rulebook (pt): "vazio"), free. While they are on the board, each Roaches
figure moves toward them instead of toward a mouse (from a mouse's space too), stopping on entering them as on
a mouse's space; a roach ending its move there does not attack: it and every roach on that space leave the
board with the grapes, whose card is shuffled back into the search deck. Grapes thrown whole (``grapes.py``)
stay on the board as bait. Only the Roaches card is baited, not a boss (docs/mice-and-mystics/rulings.md,
Party items).
"""

from __future__ import annotations

from dicelog.domain.core.commands import Command
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.commands import PlaceGrapes
from dicelog.domain.mice_and_mystics.events import InitiativeCardRemoved, TurnEnded
from dicelog.domain.mice_and_mystics.item_events import PartyItemPlaced, RoachesAteGrapes
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.free_actions import check_not_inside_action
from dicelog.domain.mice_and_mystics.rules.graph import mouse_neighbours
from dicelog.domain.mice_and_mystics.rules.links import linked
from dicelog.domain.mice_and_mystics.rules.party_items import GRAPES, SECTION, in_stash, lost
from dicelog.domain.mice_and_mystics.state import State, space_of

ROACHES = "roaches"


def _bait_spaces(state: State, mouse: str) -> list[str]:
    here = space_of(state, mouse)
    if here is None or not in_stash(state, GRAPES):
        return []
    steps = (*mouse_neighbours(library_of(state), here), *linked(state, here))
    return sorted(s for s, _ in steps if not state.board.get(s))


def decide_place_grapes(state: State, cmd: PlaceGrapes) -> list[Event]:
    check_not_inside_action(state, cmd.mouse)
    if not in_stash(state, GRAPES):
        raise RuleBroken(
            "party-item.not-in-stash", section=SECTION, detail="the Grapes are not in the party stash"
        )
    if cmd.space not in _bait_spaces(state, cmd.mouse):
        raise RuleBroken(
            "grapes.invalid-space",
            section=SECTION,
            detail=f"{cmd.space} is not an empty space next to {cmd.mouse}",
        )
    return [PartyItemPlaced(mouse=cmd.mouse, item=GRAPES, spaces=(cmd.space,))]


def bait_for(state: State, figure: str) -> str | None:
    """The grapes' space, if ``figure`` acts on the Roaches card (not a boss) while grapes lie out."""
    turn, spaces = state.minion_turn, state.tokens.get(GRAPES, ())
    if turn is None or turn.card != ROACHES or figure in state.boss_cards or len(spaces) != 1:
        return None
    return spaces[0]


def eaten(state: State, figure: str, space: str) -> list[Event]:
    """The roach ended on the grapes: it and every roach there leave the board with the grapes."""
    if bait_for(state, figure) != space:
        return []
    roaches = tuple(
        f for f in state.board.get(space, ()) if state.figures.get(f) == ROACHES and f not in state.boss_cards
    )
    events: list[Event] = [RoachesAteGrapes(figures=roaches, space=space), *lost(GRAPES, "eaten")]
    others = [
        f
        for f, c in state.figures.items()
        if c == ROACHES and f not in roaches and space_of(state, f) is not None
    ]
    if not others:  # the card's turn ends and it leaves the track (as with the crow: chapter_1.py)
        events += [TurnEnded(card=ROACHES), InitiativeCardRemoved(card=ROACHES)]
    return events


def legal_baits(state: State, mouse: str) -> list[Command]:
    try:
        check_not_inside_action(state, mouse)
    except RuleBroken:
        return []
    return [PlaceGrapes(mouse=mouse, space=s) for s in _bait_spaces(state, mouse)]
