"""``evolve`` for free-action, ability-card and party-item events (``item_events.py``).

Never validates, never fails for a stored event.
"""

from __future__ import annotations

from msgspec.structs import replace

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


def evolve_items(state: State, event: Event) -> State:
    match event:
        case ie.SearchCardShared(mouse=mouse, with_mouse=other, card=card, by=by):
            return _free(replace(state, pack=_give(state.pack, mouse, card, other)), by or mouse, "share")
        case ie.CheeseShared(mouse=mouse, with_mouse=other, count=n, by=by):
            return _free(
                replace(state, cheese=_add(_add(state.cheese, mouse, -n), other, n)), by or mouse, "share"
            )
        case ie.PackCardDiscarded(mouse=mouse, card=card):
            return replace(state, pack=_give(state.pack, mouse, card, None))
        case ie.SearchCardEquipped(mouse=mouse, card=card, unequipped=back, loadout=after):
            pack = _give(state.pack, mouse, card, None)
            pack = {**pack, mouse: (*pack.get(mouse, ()), *back)}
            return _free(replace(state, pack=pack, equipped={**state.equipped, mouse: after}), mouse, "equip")
        case ie.SearchCardUnequipped(mouse=mouse, card=card, loadout=after):
            pack = {**state.pack, mouse: (*state.pack.get(mouse, ()), card)}
            return _free(replace(state, pack=pack, equipped={**state.equipped, mouse: after}), mouse, "equip")
        case ie.RoachesAteGrapes(figures=gone):
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
        case ie.EquipmentDiscarded(mouse=mouse, loadout=kept):
            return replace(state, equipped={**state.equipped, mouse: kept})
        case ie.MouseLeveledUp(mouse=mouse, ability=ability, cheese=n):
            abilities = {**state.abilities, mouse: (*state.abilities.get(mouse, ()), ability)}
            return _free(
                replace(state, abilities=abilities, cheese=_add(state.cheese, mouse, -n)), mouse, "level-up"
            )
        case ie.AbilityUsed(mouse=mouse, ability=ability, cost=n):
            mouse_turn = state.mouse_turn
            if mouse_turn is not None and mouse_turn.mouse == mouse:
                mouse_turn = replace(
                    mouse_turn,
                    ability=ability,
                    ability_uses=(*mouse_turn.ability_uses, ability),
                    ability_after_action=mouse_turn.action is not None,
                )
            return replace(state, cheese=_add(state.cheese, mouse, -n), mouse_turn=mouse_turn)
        case ie.KnifeStrikesLeft(mouse=mouse, count=n) if (
            state.mouse_turn is not None and state.mouse_turn.mouse == mouse
        ):
            return replace(state, mouse_turn=replace(state.mouse_turn, knife_strikes=n))
        case ie.PreemptiveShotWindowClosed():
            return replace(state, new_minions=())
        case ie.MiceInspired(round=number):
            return replace(state, inspire_round=number)
        case ie.ExtraActionTaken(mouse=mouse, cheese=n):
            mouse_turn = state.mouse_turn
            if mouse_turn is not None and mouse_turn.mouse == mouse:
                mouse_turn = replace(mouse_turn, extra_action=True)
            return replace(state, cheese=_add(state.cheese, mouse, -n), mouse_turn=mouse_turn)
        case ie.PartyItemGained(card=card):
            deck = tuple(c for c in state.search_deck if c != card)
            return replace(
                state, party_items=tuple(dict.fromkeys((*state.party_items, card))), search_deck=deck
            )
        case ie.PartyItemPlaced(item=item, spaces=spaces):
            return replace(state, tokens={**state.tokens, item: spaces})
        case ie.PartyItemPickedUp(item=item):
            return replace(state, tokens={k: v for k, v in state.tokens.items() if k != item})
        case ie.PartyItemLost(item=item):
            return replace(
                state,
                tokens={k: v for k, v in state.tokens.items() if k != item},
                party_items=tuple(i for i in state.party_items if i != item),
            )
        case ie.MouseCatapulted(mouse=mouse, origin=origin, space=space) if space_of(state, mouse) == origin:
            return replace(state, board=_board_move(state.board, mouse, origin, space))
        case ie.MouseDisplaced(mouse=mouse, origin=origin, space=space) if space_of(state, mouse) == origin:
            return replace(state, board=_board_move(state.board, mouse, origin, space))
        case ie.ScrollUsed(mouse=mouse, card=card, effect=effect):
            state = replace(state, pack=_give(state.pack, mouse, card, None))
            mouse_turn = state.mouse_turn
            if mouse_turn is not None and mouse_turn.mouse == mouse:
                state = replace(
                    state, mouse_turn=replace(mouse_turn, scroll_effects=(*mouse_turn.scroll_effects, effect))
                )
            return _free(state, mouse, "scroll")
        case _:
            return state
