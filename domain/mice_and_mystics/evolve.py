"""``evolve(state, event) -> state``: apply one stored event. Never validates, never fails.

Core events other than the pending/answer nodes leave the state unchanged (``CardsDrawn`` also
takes the drawn cards out of the named deck).
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.core.events import (
    CardsDrawn,
    CardsShuffled,
    DecisionMade,
    DecisionRequested,
    DiceRolled,
    DrawRequested,
    Event,
    GameEnded,
    RollRequested,
    ShuffleRequested,
)
from domain.mice_and_mystics import events as ev
from domain.mice_and_mystics.chapter_events import CHAPTER_EVENTS
from domain.mice_and_mystics.evolve_chapter import evolve_chapter
from domain.mice_and_mystics.choice_events import CHOICE_EVENTS
from domain.mice_and_mystics.evolve_choices import answers_tie, evolve_choices
from domain.mice_and_mystics.evolve_items import evolve_items
from domain.mice_and_mystics.item_events import ITEM_EVENTS
from domain.mice_and_mystics.state import Attack, MinionTurn, MouseTurn, PlacedTile, State, space_of

PREEMPTIVE_SHOT = "preemptive-shot"


def _move(board: dict[str, tuple[str, ...]], figure: str, origin: str | None, target: str | None):
    board = dict(board)
    if origin is not None:
        left = tuple(f for f in board.get(origin, ()) if f != figure)
        if left:
            board[origin] = left
        else:
            board.pop(origin, None)
    if target is not None:
        board[target] = (*board.get(target, ()), figure)
    return board


def _add(counts: dict[str, int], key: str, n: int) -> dict[str, int]:
    return {**counts, key: counts.get(key, 0) + n}


def _without(mapping: dict, key: str) -> dict:
    return {k: v for k, v in mapping.items() if k != key}


def _minion_turn(state: State, **changes) -> MinionTurn | None:
    return replace(state.minion_turn, **changes) if state.minion_turn is not None else None


def _remove_card(state: State, card: str) -> State:
    if card not in state.track:
        return state
    index = state.track.index(card)
    slot = state.slot
    if slot is not None and index <= slot:
        slot -= 1
    return replace(state, track=tuple(c for c in state.track if c != card), slot=slot)


def _drop_effect(state: State, figure: str, effect: str) -> State:
    left = tuple(e for e in state.effects.get(figure, ()) if e != effect)
    return replace(state, effects={**_without(state.effects, figure), **({figure: left} if left else {})})


def _acting(state: State, figure: str) -> bool:
    return state.minion_turn is not None and state.minion_turn.figure == figure


def _note_new_minion(state: State, figure: str, card: str) -> State:
    """A minion placed in play opens the Preemptive Shot window (rules/preemptive_shot.py); noted only
    while a mouse holds the card, so other games' events are unchanged."""
    if state.phase != "playing" or card in state.party or figure in state.new_minions:
        return state
    if not any(PREEMPTIVE_SHOT in held for held in state.abilities.values()):
        return state
    return replace(state, new_minions=(*state.new_minions, figure))


def evolve(state: State, event: Event) -> State:  # noqa: C901 (a flat table of cases)
    if isinstance(event, CHAPTER_EVENTS):
        return evolve_chapter(state, event)
    if isinstance(event, ITEM_EVENTS):
        return evolve_items(state, event)
    if isinstance(event, CHOICE_EVENTS) or answers_tie(state, event):
        return evolve_choices(state, event)
    match event:
        case ev.RoomTilePlaced(tile=tile, column=column, row=row):
            return replace(state, tiles=(*state.tiles, PlacedTile(tile=tile, column=column, row=row)))
        case ev.FigurePlaced(figure=figure, card=card, space=space):
            board = _move(state.board, figure, space_of(state, figure), space)
            state = replace(state, board=board, figures={**state.figures, figure: card})
            return _note_new_minion(state, figure, card)
        case ev.StoryBoardPrepared(hourglass_page=hourglass, end_marker_page=end):
            return replace(state, hourglass_page=hourglass, end_marker_page=end)
        case ev.DecksPrepared(encounter_deck=deck, search_deck=search):
            return replace(state, encounter_deck=deck, search_deck=search)
        case ev.InitiativeTrackLaid(cards=cards):
            return replace(state, track=cards, phase="playing", slot=None)
        case ev.CheeseGained(mouse=mouse, count=count):
            return replace(state, cheese=_add(state.cheese, mouse, count))
        case ev.RoundStarted(round=number):
            return replace(state, round=number, slot=None)
        case ev.TurnStarted(card=card, slot=slot):
            playing = card in state.party and card not in state.captured
            return replace(
                state,
                slot=slot,
                turn_open=True,
                mouse_turn=MouseTurn(mouse=card) if playing else None,
                minion_turn=MinionTurn(card=card) if card not in state.party else None,
            )
        case ev.MovementPointsGained(points=points) if state.mouse_turn is not None:
            return replace(state, mouse_turn=replace(state.mouse_turn, movement_points=points, moved=False))
        case ev.MouseMoved(mouse=mouse, origin=origin, path=path):
            board = _move(state.board, mouse, origin, path[-1]) if path else state.board
            turn = state.mouse_turn
            if turn is not None and turn.mouse == mouse:
                turn = replace(turn, moved=True)
            return replace(state, board=board, mouse_turn=turn, water_target=None)
        case ev.ActionStarted(action=action) if state.mouse_turn is not None:
            turn = state.mouse_turn
            gave_up = turn.movement_points is not None and not turn.moved
            return replace(state, mouse_turn=replace(turn, action=action, moved=turn.moved or gave_up))
        case ev.InitiativeCardsSwapped(card=card, other=other):
            track = tuple(other if c == card else card if c == other else c for c in state.track)
            return replace(state, track=track)
        case ev.TurnEnded():
            return replace(state, mouse_turn=None, minion_turn=None, turn_open=False, trap_rest=(), water_target=None)
        case ev.AttackDeclared(attacker=attacker, target=target, ranged=ranged, dice=dice, others=others):
            attacked = state.minion_turn.attacked if state.minion_turn is not None else ()
            if attacker in state.figures and state.figures[attacker] not in state.party:
                attacked = (*attacked, target)
            attack = Attack(attacker=attacker, target=target, ranged=ranged, dice=dice, others=others, weapon=event.weapon)
            return replace(state, attack=attack, minion_turn=_minion_turn(state, attacked=attacked))
        case ev.AttackRolled(hits=hits) if state.attack is not None:
            return replace(state, attack=replace(state.attack, hits=hits))
        case ev.AttackResolved(attacker=attacker):
            turn = state.minion_turn
            done = turn is not None and turn.figure == attacker
            if done and turn.extra_attacks:
                return replace(state, attack=None, minion_turn=replace(turn, extra_attacks=turn.extra_attacks - 1))
            return replace(state, attack=None, minion_turn=_minion_turn(state, stage="done") if done else turn)
        case ev.CheeseAddedToWheel(count=count):
            return replace(state, cheese_wheel=state.cheese_wheel + count)
        case ev.CheeseWheelEmptied():
            return replace(state, cheese_wheel=0)
        case ev.MouseWounded(mouse=mouse, wounds=n, poison=poison) if poison:
            return replace(state, wounds=_add(state.wounds, mouse, n), poison_wounds=_add(state.poison_wounds, mouse, poison))
        case ev.MinionWounded(figure=figure, wounds=n) | ev.MouseWounded(mouse=figure, wounds=n):
            return replace(state, wounds=_add(state.wounds, figure, n))
        case ev.MinionDefeated(figure=figure):
            board = _move(state.board, figure, space_of(state, figure), None)
            return replace(
                state, board=board, figures=_without(state.figures, figure), wounds=_without(state.wounds, figure),
                greedy=tuple(f for f in state.greedy if f != figure), boss_cards=_without(state.boss_cards, figure),
                effects=_without(state.effects, figure),
            )
        case ev.InitiativeCardRemoved(card=card):
            bosses = {f: tuple(c for c in cards if c != card) for f, cards in state.boss_cards.items()}
            return replace(_remove_card(state, card), boss_cards=bosses)
        case ev.InitiativeCardsAdded(cards=cards):
            return replace(state, track=(*state.track, *cards))
        case ev.MouseCaptured(mouse=mouse):
            board = _move(state.board, mouse, space_of(state, mouse), None)
            return replace(
                state,
                board=board,
                captured=(*state.captured, mouse),
                cheese={**state.cheese, mouse: 0},
                wounds=_without(state.wounds, mouse),
                effects=_without(state.effects, mouse),
                poison_wounds=_without(state.poison_wounds, mouse),
                captures=_add(state.captures, mouse, 1),
            )
        case ev.HourglassAdvanced(page=page):
            return replace(state, hourglass_page=page)
        case ev.MouseReleased(mouse=mouse, space=space):
            board = _move(state.board, mouse, None, space)
            return replace(state, board=board, captured=tuple(m for m in state.captured if m != mouse))
        case ev.MinionActivated(figure=figure) if state.minion_turn is not None:
            turn = state.minion_turn
            return replace(state, minion_turn=replace(turn, figure=figure, stage="move", acted=(*turn.acted, figure)))
        case ev.MinionMoved(figure=figure, origin=origin, path=path):
            board = _move(state.board, figure, origin, path[-1]) if path else state.board
            return replace(state, board=board, minion_turn=_minion_turn(state, stage="attack", crossed=(origin, *path)))
        case ev.MinionAttackSkipped():
            return replace(state, minion_turn=_minion_turn(state, stage="done"))
        case ev.SearchSucceeded(mouse=mouse, tile=tile):
            return replace(state, searched={**state.searched, mouse: (*state.searched.get(mouse, ()), tile)})
        case ev.SearchCardKept(mouse=mouse, card=card):
            return replace(state, pack={**state.pack, mouse: (*state.pack.get(mouse, ()), card)})
        case ev.EffectAdded(mouse=mouse, effect=effect):
            return replace(state, effects={**state.effects, mouse: (*state.effects.get(mouse, ()), effect)})
        case ev.EffectRemoved(mouse=mouse, effect=effect):
            left = tuple(e for e in state.effects.get(mouse, ()) if e != effect)
            return replace(state, effects={**_without(state.effects, mouse), **({mouse: left} if left else {})})
        case ev.TileFlipped(tile=tile, to=to):
            tiles = tuple(replace(t, tile=to) if t.tile == tile else t for t in state.tiles)
            return replace(state, tiles=tiles)
        case ev.RoomEntered(tile=tile, first=first):
            return replace(state, explored=(*state.explored, tile)) if first else state
        case ev.EncounterRevealed(card=card):
            return replace(state, encounter_face_up=card)
        case ev.InitiativeTrackReshuffled(cards=cards):
            current = state.turn_card
            return replace(state, track=cards, slot=cards.index(current) if current in cards else state.slot)
        case ev.FigureStoodUp(figure=figure):
            state = _drop_effect(state, figure, "knocked-down")
            turn = state.mouse_turn
            if turn is not None and turn.mouse == figure:
                return replace(state, mouse_turn=replace(turn, moved=True))
            return replace(state, minion_turn=_minion_turn(state, stage="attack")) if _acting(state, figure) else state
        case ev.CheeseStolen(mouse=mouse, count=n, to_wheel=to_wheel):
            return replace(state, cheese=_add(state.cheese, mouse, -n), cheese_wheel=state.cheese_wheel + (n if to_wheel else 0))
        case ev.CheeseTakenFromWheel(mouse=mouse, count=n):
            return replace(state, cheese=_add(state.cheese, mouse, n), cheese_wheel=max(state.cheese_wheel - n, 0))
        case ev.RoachesTurnedGreedy(figures=figures):
            return replace(state, greedy=tuple(dict.fromkeys((*state.greedy, *figures))))
        case ev.MouseHealed(mouse=mouse, wounds=n, poison=poison):
            return replace(
                state, wounds=_add(state.wounds, mouse, -(n + poison)), poison_wounds=_add(state.poison_wounds, mouse, -poison)
            )
        case ev.BossCardsAssigned(figure=figure, cards=cards):
            return replace(state, boss_cards={**state.boss_cards, figure: cards})
        case ev.BossWounded(card=card, wounds=n):
            return replace(state, card_wounds=_add(state.card_wounds, card, n))
        case ev.AmbushDeclared(cards=cards):
            return replace(state, ambush=cards)
        case ev.AmbushResolved():
            return replace(state, ambush=None)
        case ev.InitiativeCardMovedUp(card=card, by=by) if card in state.track:
            current, track = state.turn_card, list(state.track)
            index = track.index(card)
            track.insert(max(index - by, 0), track.pop(index))
            slot = track.index(current) if current in track else state.slot
            return replace(state, track=tuple(track), slot=slot)
        case ev.ExtraAttackGained(count=n) if state.minion_turn is not None:
            return replace(state, minion_turn=replace(state.minion_turn, extra_attacks=state.minion_turn.extra_attacks + n))
        case ev.DefenseResolved() if state.attack is not None and state.attack.others:
            others = state.attack.others
            return replace(state, attack=replace(state.attack, target=others[0], others=others[1:]))
        case ev.MousetrapsSet(spaces=spaces):
            return replace(state, traps=tuple(dict.fromkeys((*state.traps, *spaces))))
        case ev.MouseStoppedAtMousetrap(rest=rest):
            return replace(state, trap_rest=rest)
        case ev.MousetrapPassed():
            return replace(state, trap_rest=())
        case ev.MousetrapSprung(space=space):
            return replace(state, traps=tuple(t for t in state.traps if t != space), trap_rest=())
        case ev.LeavingWaterStarted(space=space) if state.mouse_turn is not None:
            return replace(state, water_target=space, mouse_turn=replace(state.mouse_turn, moved=True))
        case ev.LeavingWaterFailed():
            return replace(state, water_target=None)
        case ev.MouseSweptByCurrent(mouse=mouse, origin=origin, space=space):
            return replace(state, board=_move(state.board, mouse, origin, space))
        case ev.AchievementEarned(mouse=mouse, achievement=achievement):
            return replace(state, achievements={**state.achievements, achievement: mouse})
        case ev.EndMarkerMoved(page=page):
            return replace(state, end_marker_page=page)
        case ev.RoachDefeatedCounted(mouse=mouse):
            return replace(state, roaches_defeated=_add(state.roaches_defeated, mouse, 1))
        case ev.EncounterStarted():
            return replace(state, roaches_defeated={})
        case ev.EncounterDiscarded():
            return replace(state, encounter_face_up=None)
        case CardsDrawn(deck=deck, cards=cards):
            state = replace(state, awaiting=None, last_drawn=cards)
            if deck == "search":
                return replace(state, search_deck=tuple(c for c in state.search_deck if c not in cards))
            if deck == "encounter":
                return replace(state, encounter_deck=tuple(c for c in state.encounter_deck if c not in cards))
            return state
        case RollRequested(reason=reason) | ShuffleRequested(reason=reason) | DrawRequested(reason=reason):
            phase = "initiative" if reason == "initiative" and state.phase == "setup" else state.phase
            return replace(state, awaiting=reason, phase=phase)
        case DecisionRequested(decision=decision):
            return replace(state, awaiting=decision)
        case DiceRolled() | CardsShuffled() | DecisionMade():
            return replace(state, awaiting=None)
        case GameEnded():
            return replace(state, phase="ended")
        case _:
            return state
