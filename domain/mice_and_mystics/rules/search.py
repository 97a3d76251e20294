"""Search (MM rulebook (it) §Ricerca).

One die; a star draws the top search card (a ``DrawRequested`` on the search deck: the cards left,
sorted, never their order). The player keeps it in the pack or discards it for 1 cheese (a
``DecisionRequested``, always both options; default: keep, or discard when the pack already holds
3 cards that take room). A card may be kept even into a full pack: the player then discards 1 pack
card of their choice, for no cheese (MM rulebook (it) §Equipaggiare; MM rulebook (pt) §Equipar;
``cards.pack_limit``); tricks and party items take no room. An event card is not kept: it resolves at once and
is discarded (MM rulebook (it) §Ricerca: "Se invece pescate un Evento, seguite le istruzioni sulla carta";
``scrolls.resolve_event``). After a successful search the mouse cannot search that room again. Most card texts
are unknown (docs/mice-and-mystics/facts.md §5): a card of unknown type is treated as an item. The rooms'
special searches are in ``special_search.py``.
"""

from __future__ import annotations

from dicelog.domain.core.commands import Command
from dicelog.domain.core.errors import InvariantViolated, RuleBroken
from dicelog.domain.core.events import (
    CardsDrawn,
    DecisionMade,
    DecisionRequested,
    DiceRolled,
    DrawRequested,
    Event,
    RollRequested,
)
from dicelog.domain.mice_and_mystics.commands import Search
from dicelog.domain.mice_and_mystics.events import (
    ActionStarted,
    CheeseGained,
    SearchCardDiscarded,
    SearchCardKept,
    SearchFailed,
    SearchSucceeded,
)
from dicelog.domain.mice_and_mystics.item_events import PartyItemGained
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import sections
from dicelog.domain.mice_and_mystics.rules.actions import can_act, check_action
from dicelog.domain.mice_and_mystics.rules.cards import NO_ROOM, card_type, pack_limit, pack_load
from dicelog.domain.mice_and_mystics.rules.dice import STARS, count
from dicelog.domain.mice_and_mystics.rules.scrolls import is_event, resolve_event
from dicelog.domain.mice_and_mystics.state import State, space_of

KEEP = "search-keep"
PACK_LIMIT = 3


def _room(state: State, mouse: str) -> str:
    space = space_of(state, mouse)
    if space is None:
        raise InvariantViolated("mouse-on-board", f"{mouse} searches off the board")
    return library_of(state).space_tile[space]


def decide_search(state: State, cmd: Search) -> list[Event]:
    """``Search(mouse)`` -> ``[ActionStarted, RollRequested(search, 1 die)]``. Raises the action
    checks' rules (``actions.check_action``) and ``search.same-room`` (MM rulebook (it) §Ricerca)."""
    check_action(state, cmd.mouse, "search")
    if _room(state, cmd.mouse) in state.searched.get(cmd.mouse, ()):
        raise RuleBroken(
            "search.same-room", section=sections.SEARCH, detail=f"{cmd.mouse} already searched this room"
        )
    return [
        ActionStarted(mouse=cmd.mouse, action="search"),
        RollRequested(reason="search", dice=1, piece=cmd.mouse),
    ]


def resolve_search_roll(state: State, answer: DiceRolled) -> list[Event]:
    """No star: ``[SearchFailed]``; a star: ``[SearchSucceeded, DrawRequested(search deck)]`` (no draw
    when the deck is empty) (MM rulebook (it) §Ricerca)."""
    if state.mouse_turn is None:
        raise InvariantViolated("mouse-turn", "a search roll outside a mouse's turn")
    mouse = state.mouse_turn.mouse
    if not count(answer.faces, STARS):
        return [SearchFailed(mouse=mouse)]
    events: list[Event] = [SearchSucceeded(mouse=mouse, tile=_room(state, mouse))]
    if state.search_deck:
        events.append(
            DrawRequested(reason="search", deck="search", cards=tuple(sorted(state.search_deck)), piece=mouse)
        )
    return events


def resolve_search_draw(state: State, answer: CardsDrawn) -> list[Event]:
    """An event card resolves at once (``scrolls.resolve_event``); a party item goes to the party
    stash (``[PartyItemGained]``: MM rulebook (it) §Oggetti del Gruppo, «Quando peschi questa carta, aggiungi
    il segnalino ... al Forziere del Gruppo»; rules revision 1 asked keep or discard for it too); any other
    card asks keep or discard: ``[DecisionRequested(search-keep, ("keep", "discard"))]`` (MM rulebook (it)
    §Ricerca)."""
    if state.mouse_turn is None:
        raise InvariantViolated("mouse-turn", "a search draw outside a mouse's turn")
    mouse = state.mouse_turn.mouse

    lib = library_of(state)
    # MM rulebook (it) §Ricerca: an event is resolved, never kept or traded for cheese
    if is_event(lib, state.last_drawn[0]):
        return resolve_event(mouse, state.last_drawn[0])
    if state.rules_revision >= 2 and card_type(lib, state.last_drawn[0]) == "party-item":
        return [PartyItemGained(mouse=mouse, card=state.last_drawn[0])]
    full = (
        pack_load(lib, state.pack.get(mouse, ())) >= PACK_LIMIT
        and card_type(lib, state.last_drawn[0]) not in NO_ROOM
    )
    return [
        DecisionRequested(
            decision=KEEP, options=("keep", "discard"), piece=mouse, default="discard" if full else "keep"
        )
    ]


def resolve_keep(state: State, answer: DecisionMade) -> list[Event]:
    """``keep``: ``[SearchCardKept]`` (a party item: ``[PartyItemGained]``), then the pack-limit
    discard decision if the pack is now over 3 (``cards.pack_limit``); ``discard``:
    ``[SearchCardDiscarded, CheeseGained(1)]`` (MM rulebook (it) §Ricerca)."""
    if state.mouse_turn is None:
        raise InvariantViolated("mouse-turn", "a keep decision outside a mouse's turn")
    mouse, card = state.mouse_turn.mouse, state.last_drawn[0]
    if answer.option == "keep":
        # MM rulebook (it) §Oggetti del Gruppo: the token goes to the party stash
        if card_type(library_of(state), card) == "party-item":
            return [PartyItemGained(mouse=mouse, card=card)]
        return pack_limit(state, [SearchCardKept(mouse=mouse, card=card)])
    return [
        SearchCardDiscarded(mouse=mouse, card=card),
        CheeseGained(mouse=mouse, count=1, reason="search-discard"),
    ]


def legal_searches(state: State, mouse: str) -> list[Command]:
    """``[Search(mouse)]`` when the mouse may search this room, else ``[]``."""
    if not can_act(state, mouse, "search") or _room(state, mouse) in state.searched.get(mouse, ()):
        return []
    return [Search(mouse=mouse)]
