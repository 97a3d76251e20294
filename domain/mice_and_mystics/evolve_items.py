"""``evolve`` for free-action, ability-card and party-item events (``item_events.py``).

Never validates, never fails for a stored event.
"""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.core.dispatch import ByEventType
from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics import item_events as ie
from dicelog.domain.mice_and_mystics.state import State, space_of


def _free(state: State, mouse: str, kind: str) -> State:
    turn = state.mouse_turn
    if turn is None or turn.mouse != mouse or kind in turn.free_actions:
        return state
    return replace(state, mouse_turn=replace(turn, free_actions=(*turn.free_actions, kind)))


def _give(
    pack: dict[str, tuple[str, ...]], mouse: str, card: str, to: str | None
) -> dict[str, tuple[str, ...]]:
    held = list(pack.get(mouse, ()))
    if card in held:
        held.remove(card)
    out = {**pack, mouse: tuple(held)}
    if to is not None:
        out[to] = (*out.get(to, ()), card)
    return out


def _add(counts: dict[str, int], key: str, n: int) -> dict[str, int]:
    return {**counts, key: counts.get(key, 0) + n}


def _board_move(
    board: dict[str, tuple[str, ...]], figure: str, origin: str, target: str
) -> dict[str, tuple[str, ...]]:
    board = dict(board)
    left = tuple(f for f in board.get(origin, ()) if f != figure)
    if left:
        board[origin] = left
    else:
        board.pop(origin, None)
    board[target] = (*board.get(target, ()), figure)
    return board


ITEMS: ByEventType[State, State] = ByEventType("handler", lambda state, event: state)
"""The handler of each free-action, ability-card and party-item event (``dicelog.domain.core.dispatch``); an
event a handler's precondition does not hold for (or of another type) leaves the state unchanged."""


def evolve_items(state: State, event: Event) -> State:
    return ITEMS(state, event)


@ITEMS.on(ie.SearchCardShared)
def _search_card_shared(state: State, event: ie.SearchCardShared) -> State:
    mouse, other, card, by = event.mouse, event.with_mouse, event.card, event.by
    return _free(replace(state, pack=_give(state.pack, mouse, card, other)), by or mouse, "share")


@ITEMS.on(ie.CheeseShared)
def _cheese_shared(state: State, event: ie.CheeseShared) -> State:
    mouse, other, n, by = event.mouse, event.with_mouse, event.count, event.by
    return _free(replace(state, cheese=_add(_add(state.cheese, mouse, -n), other, n)), by or mouse, "share")


@ITEMS.on(ie.PackCardDiscarded)
def _pack_card_discarded(state: State, event: ie.PackCardDiscarded) -> State:
    mouse, card = event.mouse, event.card
    return replace(state, pack=_give(state.pack, mouse, card, None))


@ITEMS.on(ie.SearchCardEquipped)
def _search_card_equipped(state: State, event: ie.SearchCardEquipped) -> State:
    mouse, card, back, after = event.mouse, event.card, event.unequipped, event.loadout
    pack = _give(state.pack, mouse, card, None)
    pack = {**pack, mouse: (*pack.get(mouse, ()), *back)}
    return _free(replace(state, pack=pack, equipped={**state.equipped, mouse: after}), mouse, "equip")


@ITEMS.on(ie.SearchCardUnequipped)
def _search_card_unequipped(state: State, event: ie.SearchCardUnequipped) -> State:
    mouse, card, after = event.mouse, event.card, event.loadout
    pack = {**state.pack, mouse: (*state.pack.get(mouse, ()), card)}
    return _free(replace(state, pack=pack, equipped={**state.equipped, mouse: after}), mouse, "equip")


@ITEMS.on(ie.RoachesAteGrapes)
def _roaches_ate_grapes(state: State, event: ie.RoachesAteGrapes) -> State:
    gone = event.figures
    board = {s: tuple(f for f in figs if f not in gone) for s, figs in state.board.items()}
    turn = state.minion_turn
    if turn is not None and turn.figure in gone:
        turn = replace(turn, stage="done")
    return replace(
        state,
        board={s: figs for s, figs in board.items() if figs},
        minion_turn=turn,
        figures={f: c for f, c in state.figures.items() if f not in gone},
        wounds={f: n for f, n in state.wounds.items() if f not in gone},
        effects={f: e for f, e in state.effects.items() if f not in gone},
    )


@ITEMS.on(ie.EquipmentDiscarded)
def _equipment_discarded(state: State, event: ie.EquipmentDiscarded) -> State:
    mouse, kept = event.mouse, event.loadout
    return replace(state, equipped={**state.equipped, mouse: kept})


@ITEMS.on(ie.MouseLeveledUp)
def _mouse_leveled_up(state: State, event: ie.MouseLeveledUp) -> State:
    mouse, ability, n = event.mouse, event.ability, event.cheese
    abilities = {**state.abilities, mouse: (*state.abilities.get(mouse, ()), ability)}
    return _free(replace(state, abilities=abilities, cheese=_add(state.cheese, mouse, -n)), mouse, "level-up")


@ITEMS.on(ie.AbilityUsed)
def _ability_used(state: State, event: ie.AbilityUsed) -> State:
    mouse, ability, n = event.mouse, event.ability, event.cost
    mouse_turn = state.mouse_turn
    if mouse_turn is not None and mouse_turn.mouse == mouse:
        mouse_turn = replace(
            mouse_turn,
            ability=ability,
            ability_uses=(*mouse_turn.ability_uses, ability),
            ability_after_action=mouse_turn.action is not None,
        )
    return replace(state, cheese=_add(state.cheese, mouse, -n), mouse_turn=mouse_turn)


@ITEMS.on(ie.KnifeStrikesLeft)
def _knife_strikes_left(state: State, event: ie.KnifeStrikesLeft) -> State:
    mouse, n = event.mouse, event.count
    if not (state.mouse_turn is not None and state.mouse_turn.mouse == mouse):
        return state
    return replace(state, mouse_turn=replace(state.mouse_turn, knife_strikes=n))


@ITEMS.on(ie.PreemptiveShotWindowClosed)
def _preemptive_shot_window_closed(state: State, event: ie.PreemptiveShotWindowClosed) -> State:
    return replace(state, new_minions=())


@ITEMS.on(ie.MiceInspired)
def _mice_inspired(state: State, event: ie.MiceInspired) -> State:
    number = event.round
    return replace(state, inspire_round=number)


@ITEMS.on(ie.ExtraActionTaken)
def _extra_action_taken(state: State, event: ie.ExtraActionTaken) -> State:
    mouse, n = event.mouse, event.cheese
    mouse_turn = state.mouse_turn
    if mouse_turn is not None and mouse_turn.mouse == mouse:
        mouse_turn = replace(mouse_turn, extra_action=True)
    return replace(state, cheese=_add(state.cheese, mouse, -n), mouse_turn=mouse_turn)


@ITEMS.on(ie.PartyItemGained)
def _party_item_gained(state: State, event: ie.PartyItemGained) -> State:
    card = event.card
    deck = tuple(c for c in state.search_deck if c != card)
    return replace(state, party_items=tuple(dict.fromkeys((*state.party_items, card))), search_deck=deck)


@ITEMS.on(ie.PartyItemPlaced)
def _party_item_placed(state: State, event: ie.PartyItemPlaced) -> State:
    item, spaces = event.item, event.spaces
    return replace(state, tokens={**state.tokens, item: spaces})


@ITEMS.on(ie.PartyItemPickedUp)
def _party_item_picked_up(state: State, event: ie.PartyItemPickedUp) -> State:
    item = event.item
    return replace(state, tokens={k: v for k, v in state.tokens.items() if k != item})


@ITEMS.on(ie.PartyItemLost)
def _party_item_lost(state: State, event: ie.PartyItemLost) -> State:
    item = event.item
    return replace(
        state,
        tokens={k: v for k, v in state.tokens.items() if k != item},
        party_items=tuple(i for i in state.party_items if i != item),
    )


@ITEMS.on(ie.MouseCatapulted)
def _mouse_catapulted(state: State, event: ie.MouseCatapulted) -> State:
    mouse, origin, space = event.mouse, event.origin, event.space
    if space_of(state, mouse) != origin:
        return state
    return replace(state, board=_board_move(state.board, mouse, origin, space))


@ITEMS.on(ie.MouseDisplaced)
def _mouse_displaced(state: State, event: ie.MouseDisplaced) -> State:
    mouse, origin, space = event.mouse, event.origin, event.space
    if space_of(state, mouse) != origin:
        return state
    return replace(state, board=_board_move(state.board, mouse, origin, space))


@ITEMS.on(ie.ScrollUsed)
def _scroll_used(state: State, event: ie.ScrollUsed) -> State:
    mouse, card, effect = event.mouse, event.card, event.effect
    state = replace(state, pack=_give(state.pack, mouse, card, None))
    mouse_turn = state.mouse_turn
    if mouse_turn is not None and mouse_turn.mouse == mouse:
        state = replace(
            state, mouse_turn=replace(mouse_turn, scroll_effects=(*mouse_turn.scroll_effects, effect))
        )
    return _free(state, mouse, "scroll")
