"""``evolve(state, event) -> state``: apply one stored event. Never validates, never fails.

One small handler per event type (or per group), looked up by ``type(event)`` in ``HANDLERS``,
built once at import by ``@_on(...)``: no chain of isinstance tests. A handler whose precondition
does not hold (e.g. ``AttackRolled`` with no attack) returns the state unchanged. The chapter, item
and choice events go whole to ``evolve_chapter`` / ``evolve_items`` / ``evolve_choices``; a
``DecisionMade`` answering a tie (``answers_tie``) goes to ``evolve_choices``. Events in ``IGNORED``
leave the state unchanged, and so do core events other than the pending/answer nodes
(``CardsDrawn`` also takes the drawn cards out of the named deck). No event class subclasses
another; a subclass would still get the handler of its nearest registered base
(``dicelog.domain.core.dispatch.ByEventType``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from msgspec.structs import replace

from dicelog.domain.core.dispatch import ByEventType
from dicelog.domain.core.events import (
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
from dicelog.domain.mice_and_mystics import events as ev
from dicelog.domain.mice_and_mystics.chapter_events import CHAPTER_EVENTS
from dicelog.domain.mice_and_mystics.choice_events import CHOICE_EVENTS
from dicelog.domain.mice_and_mystics.evolve_chapter import evolve_chapter
from dicelog.domain.mice_and_mystics.evolve_choices import answers_tie, evolve_choices
from dicelog.domain.mice_and_mystics.evolve_items import evolve_items
from dicelog.domain.mice_and_mystics.item_events import ITEM_EVENTS
from dicelog.domain.mice_and_mystics.state import Attack, MinionTurn, MouseTurn, PlacedTile, State, space_of

PREEMPTIVE_SHOT = "preemptive-shot"

Handler = Callable[[State, Any], State]
EVOLVE: ByEventType[State, State] = ByEventType("handler", lambda state, event: state)
"""The handler of each event type (``dicelog.domain.core.dispatch``); an unknown type leaves the state
unchanged."""
HANDLERS = EVOLVE.handlers
_on = EVOLVE.on


def evolve(state: State, event: Event) -> State:
    return EVOLVE(state, event)


def evolve_all(state: State, events: Iterable[Event]) -> State:
    """``state`` after ``events``, in order (what the rules fold to look past events they emit)."""
    for event in events:
        state = evolve(state, event)
    return state


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


# Whole groups folded elsewhere.

_on(*CHAPTER_EVENTS)(evolve_chapter)
_on(*ITEM_EVENTS)(evolve_items)
_on(*CHOICE_EVENTS)(evolve_choices)

# Mice and Mystics events that leave the state unchanged (no handler of their own).
IGNORED: tuple[type[Event], ...] = (
    ev.MinionTurnPassed,
    ev.MouseTurnSkipped,
    ev.SearchFailed,
    ev.SearchCardDiscarded,
)


@_on(*IGNORED)
def _unchanged(state: State, event: Event) -> State:
    return state


# Setup, rounds and turns.


@_on(ev.RoomTilePlaced)
def _room_tile_placed(state: State, event: ev.RoomTilePlaced) -> State:
    return replace(
        state, tiles=(*state.tiles, PlacedTile(tile=event.tile, column=event.column, row=event.row))
    )


@_on(ev.FigurePlaced)
def _figure_placed(state: State, event: ev.FigurePlaced) -> State:
    figure, card = event.figure, event.card
    board = _move(state.board, figure, space_of(state, figure), event.space)
    state = replace(state, board=board, figures={**state.figures, figure: card})
    return _note_new_minion(state, figure, card)


@_on(ev.StoryBoardPrepared)
def _story_board_prepared(state: State, event: ev.StoryBoardPrepared) -> State:
    return replace(state, hourglass_page=event.hourglass_page, end_marker_page=event.end_marker_page)


@_on(ev.DecksPrepared)
def _decks_prepared(state: State, event: ev.DecksPrepared) -> State:
    return replace(state, encounter_deck=event.encounter_deck, search_deck=event.search_deck)


@_on(ev.InitiativeTrackLaid)
def _initiative_track_laid(state: State, event: ev.InitiativeTrackLaid) -> State:
    return replace(state, track=event.cards, phase="playing", slot=None)


@_on(ev.CheeseGained)
def _cheese_gained(state: State, event: ev.CheeseGained) -> State:
    return replace(state, cheese=_add(state.cheese, event.mouse, event.count))


@_on(ev.RoundStarted)
def _round_started(state: State, event: ev.RoundStarted) -> State:
    return replace(state, round=event.round, slot=None, round_ends_after_turn=False, acted_this_round=())


@_on(ev.TurnStarted)
def _turn_started(state: State, event: ev.TurnStarted) -> State:
    card = event.card
    playing = card in state.party and card not in state.captured
    return replace(
        state,
        slot=event.slot,
        # revision 1 keeps the field empty: its states (and the game documents of its UndoApplied
        # events) encode exactly as before the field existed
        acted_this_round=(*state.acted_this_round, card) if state.rules_revision >= 2 else (),
        turn_open=True,
        mouse_turn=MouseTurn(mouse=card) if playing else None,
        minion_turn=MinionTurn(card=card) if card not in state.party else None,
    )


@_on(ev.MovementPointsGained)
def _movement_points_gained(state: State, event: ev.MovementPointsGained) -> State:
    if state.mouse_turn is None:
        return state
    return replace(state, mouse_turn=replace(state.mouse_turn, movement_points=event.points, moved=False))


@_on(ev.MouseMoved)
def _mouse_moved(state: State, event: ev.MouseMoved) -> State:
    mouse, path = event.mouse, event.path
    board = _move(state.board, mouse, event.origin, path[-1]) if path else state.board
    turn = state.mouse_turn
    if turn is not None and turn.mouse == mouse:
        turn = replace(turn, moved=True)
    return replace(state, board=board, mouse_turn=turn, water_target=None)


@_on(ev.ActionStarted)
def _action_started(state: State, event: ev.ActionStarted) -> State:
    turn = state.mouse_turn
    if turn is None:
        return state
    gave_up = turn.movement_points is not None and not turn.moved
    return replace(state, mouse_turn=replace(turn, action=event.action, moved=turn.moved or gave_up))


@_on(ev.InitiativeCardsSwapped)
def _initiative_cards_swapped(state: State, event: ev.InitiativeCardsSwapped) -> State:
    card, other = event.card, event.other
    track = tuple(other if c == card else card if c == other else c for c in state.track)
    return replace(state, track=track)


@_on(ev.TurnEnded)
def _turn_ended(state: State, event: ev.TurnEnded) -> State:
    return replace(state, mouse_turn=None, minion_turn=None, turn_open=False, trap_rest=(), water_target=None)


# Attacks, wounds, defeat and capture.


@_on(ev.AttackDeclared)
def _attack_declared(state: State, event: ev.AttackDeclared) -> State:
    attacker, target = event.attacker, event.target
    attacked = state.minion_turn.attacked if state.minion_turn is not None else ()
    if attacker in state.figures and state.figures[attacker] not in state.party:
        attacked = (*attacked, target)
    attack = Attack(
        attacker=attacker,
        target=target,
        ranged=event.ranged,
        dice=event.dice,
        others=event.others,
        weapon=event.weapon,
    )
    return replace(state, attack=attack, minion_turn=_minion_turn(state, attacked=attacked))


@_on(ev.AttackRolled)
def _attack_rolled(state: State, event: ev.AttackRolled) -> State:
    if state.attack is None:
        return state
    return replace(state, attack=replace(state.attack, hits=event.hits))


@_on(ev.AttackResolved)
def _attack_resolved(state: State, event: ev.AttackResolved) -> State:
    turn = state.minion_turn
    done = turn is not None and turn.figure == event.attacker
    if done and turn is not None and turn.extra_attacks:
        return replace(state, attack=None, minion_turn=replace(turn, extra_attacks=turn.extra_attacks - 1))
    return replace(state, attack=None, minion_turn=_minion_turn(state, stage="done") if done else turn)


@_on(ev.CheeseAddedToWheel)
def _cheese_added_to_wheel(state: State, event: ev.CheeseAddedToWheel) -> State:
    return replace(state, cheese_wheel=state.cheese_wheel + event.count)


@_on(ev.CheeseWheelEmptied)
def _cheese_wheel_emptied(state: State, event: ev.CheeseWheelEmptied) -> State:
    return replace(state, cheese_wheel=0)


@_on(ev.MouseWounded)
def _mouse_wounded(state: State, event: ev.MouseWounded) -> State:
    mouse, poison = event.mouse, event.poison
    if poison:
        return replace(
            state,
            wounds=_add(state.wounds, mouse, event.wounds),
            poison_wounds=_add(state.poison_wounds, mouse, poison),
        )
    return replace(state, wounds=_add(state.wounds, mouse, event.wounds))


@_on(ev.MinionWounded)
def _minion_wounded(state: State, event: ev.MinionWounded) -> State:
    return replace(state, wounds=_add(state.wounds, event.figure, event.wounds))


@_on(ev.MinionDefeated)
def _minion_defeated(state: State, event: ev.MinionDefeated) -> State:
    figure = event.figure
    board = _move(state.board, figure, space_of(state, figure), None)
    return replace(
        state,
        board=board,
        figures=_without(state.figures, figure),
        wounds=_without(state.wounds, figure),
        greedy=tuple(f for f in state.greedy if f != figure),
        boss_cards=_without(state.boss_cards, figure),
        effects=_without(state.effects, figure),
    )


@_on(ev.InitiativeCardRemoved)
def _initiative_card_removed(state: State, event: ev.InitiativeCardRemoved) -> State:
    card = event.card
    bosses = {f: tuple(c for c in cards if c != card) for f, cards in state.boss_cards.items()}
    return replace(_remove_card(state, card), boss_cards=bosses)


@_on(ev.InitiativeCardsAdded)
def _initiative_cards_added(state: State, event: ev.InitiativeCardsAdded) -> State:
    return replace(state, track=(*state.track, *event.cards))


@_on(ev.MouseCaptured)
def _mouse_captured(state: State, event: ev.MouseCaptured) -> State:
    mouse = event.mouse
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


@_on(ev.HourglassAdvanced)
def _hourglass_advanced(state: State, event: ev.HourglassAdvanced) -> State:
    return replace(state, hourglass_page=event.page)


@_on(ev.MouseReleased)
def _mouse_released(state: State, event: ev.MouseReleased) -> State:
    mouse = event.mouse
    board = _move(state.board, mouse, None, event.space)
    return replace(state, board=board, captured=tuple(m for m in state.captured if m != mouse))


# Minion turns.


@_on(ev.MinionActivated)
def _minion_activated(state: State, event: ev.MinionActivated) -> State:
    turn = state.minion_turn
    if turn is None:
        return state
    figure = event.figure
    return replace(state, minion_turn=replace(turn, figure=figure, stage="move", acted=(*turn.acted, figure)))


@_on(ev.MinionMoved)
def _minion_moved(state: State, event: ev.MinionMoved) -> State:
    origin, path = event.origin, event.path
    board = _move(state.board, event.figure, origin, path[-1]) if path else state.board
    return replace(
        state, board=board, minion_turn=_minion_turn(state, stage="attack", crossed=(origin, *path))
    )


@_on(ev.MinionAttackSkipped)
def _minion_attack_skipped(state: State, event: ev.MinionAttackSkipped) -> State:
    return replace(state, minion_turn=_minion_turn(state, stage="done"))


# Searching, effects, rooms and encounters.


@_on(ev.SearchSucceeded)
def _search_succeeded(state: State, event: ev.SearchSucceeded) -> State:
    mouse = event.mouse
    return replace(state, searched={**state.searched, mouse: (*state.searched.get(mouse, ()), event.tile)})


@_on(ev.SearchCardKept)
def _search_card_kept(state: State, event: ev.SearchCardKept) -> State:
    mouse = event.mouse
    return replace(state, pack={**state.pack, mouse: (*state.pack.get(mouse, ()), event.card)})


@_on(ev.EffectAdded)
def _effect_added(state: State, event: ev.EffectAdded) -> State:
    mouse = event.mouse
    return replace(state, effects={**state.effects, mouse: (*state.effects.get(mouse, ()), event.effect)})


@_on(ev.EffectRemoved)
def _effect_removed(state: State, event: ev.EffectRemoved) -> State:
    mouse, effect = event.mouse, event.effect
    left = tuple(e for e in state.effects.get(mouse, ()) if e != effect)
    return replace(state, effects={**_without(state.effects, mouse), **({mouse: left} if left else {})})


@_on(ev.TileFlipped)
def _tile_flipped(state: State, event: ev.TileFlipped) -> State:
    tile, to = event.tile, event.to
    tiles = tuple(replace(t, tile=to) if t.tile == tile else t for t in state.tiles)
    return replace(state, tiles=tiles)


@_on(ev.RoomEntered)
def _room_entered(state: State, event: ev.RoomEntered) -> State:
    return replace(state, explored=(*state.explored, event.tile)) if event.first else state


@_on(ev.EncounterRevealed)
def _encounter_revealed(state: State, event: ev.EncounterRevealed) -> State:
    return replace(state, encounter_face_up=event.card)


@_on(ev.InitiativeTrackReshuffled)
def _initiative_track_reshuffled(state: State, event: ev.InitiativeTrackReshuffled) -> State:
    cards, current = event.cards, state.turn_card
    return replace(
        state,
        track=cards,
        slot=cards.index(current) if current in cards else state.slot,
        round_ends_after_turn=state.rules_revision >= 2 and state.turn_open,
    )


@_on(ev.FigureStoodUp)
def _figure_stood_up(state: State, event: ev.FigureStoodUp) -> State:
    figure = event.figure
    state = _drop_effect(state, figure, "knocked-down")
    turn = state.mouse_turn
    if turn is not None and turn.mouse == figure:
        return replace(state, mouse_turn=replace(turn, moved=True))
    return (
        replace(state, minion_turn=_minion_turn(state, stage="attack")) if _acting(state, figure) else state
    )


@_on(ev.CheeseStolen)
def _cheese_stolen(state: State, event: ev.CheeseStolen) -> State:
    n = event.count
    return replace(
        state,
        cheese=_add(state.cheese, event.mouse, -n),
        cheese_wheel=state.cheese_wheel + (n if event.to_wheel else 0),
    )


@_on(ev.CheeseTakenFromWheel)
def _cheese_taken_from_wheel(state: State, event: ev.CheeseTakenFromWheel) -> State:
    n = event.count
    return replace(
        state, cheese=_add(state.cheese, event.mouse, n), cheese_wheel=max(state.cheese_wheel - n, 0)
    )


@_on(ev.RoachesTurnedGreedy)
def _roaches_turned_greedy(state: State, event: ev.RoachesTurnedGreedy) -> State:
    return replace(state, greedy=tuple(dict.fromkeys((*state.greedy, *event.figures))))


@_on(ev.MouseHealed)
def _mouse_healed(state: State, event: ev.MouseHealed) -> State:
    mouse, n, poison = event.mouse, event.wounds, event.poison
    return replace(
        state,
        wounds=_add(state.wounds, mouse, -(n + poison)),
        poison_wounds=_add(state.poison_wounds, mouse, -poison),
    )


@_on(ev.BossCardsAssigned)
def _boss_cards_assigned(state: State, event: ev.BossCardsAssigned) -> State:
    return replace(state, boss_cards={**state.boss_cards, event.figure: event.cards})


@_on(ev.BossWounded)
def _boss_wounded(state: State, event: ev.BossWounded) -> State:
    return replace(state, card_wounds=_add(state.card_wounds, event.card, event.wounds))


@_on(ev.AmbushDeclared)
def _ambush_declared(state: State, event: ev.AmbushDeclared) -> State:
    return replace(state, ambush=event.cards)


@_on(ev.AmbushResolved)
def _ambush_resolved(state: State, event: ev.AmbushResolved) -> State:
    return replace(state, ambush=None)


@_on(ev.InitiativeCardMovedUp)
def _initiative_card_moved_up(state: State, event: ev.InitiativeCardMovedUp) -> State:
    card = event.card
    if card not in state.track:
        return state
    current, track = state.turn_card, list(state.track)
    index = track.index(card)
    track.insert(max(index - event.by, 0), track.pop(index))
    slot = track.index(current) if current in track else state.slot
    return replace(state, track=tuple(track), slot=slot)


@_on(ev.ExtraAttackGained)
def _extra_attack_gained(state: State, event: ev.ExtraAttackGained) -> State:
    turn = state.minion_turn
    if turn is None:
        return state
    return replace(state, minion_turn=replace(turn, extra_attacks=turn.extra_attacks + event.count))


@_on(ev.DefenseResolved)
def _defense_resolved(state: State, event: ev.DefenseResolved) -> State:
    if state.attack is None or not state.attack.others:
        return state
    others = state.attack.others
    return replace(state, attack=replace(state.attack, target=others[0], others=others[1:]))


@_on(ev.MousetrapsSet)
def _mousetraps_set(state: State, event: ev.MousetrapsSet) -> State:
    return replace(state, traps=tuple(dict.fromkeys((*state.traps, *event.spaces))))


@_on(ev.MouseStoppedAtMousetrap)
def _mouse_stopped_at_mousetrap(state: State, event: ev.MouseStoppedAtMousetrap) -> State:
    return replace(state, trap_rest=event.rest)


@_on(ev.MousetrapPassed)
def _mousetrap_passed(state: State, event: ev.MousetrapPassed) -> State:
    return replace(state, trap_rest=())


@_on(ev.MousetrapSprung)
def _mousetrap_sprung(state: State, event: ev.MousetrapSprung) -> State:
    space = event.space
    return replace(state, traps=tuple(t for t in state.traps if t != space), trap_rest=())


@_on(ev.LeavingWaterStarted)
def _leaving_water_started(state: State, event: ev.LeavingWaterStarted) -> State:
    if state.mouse_turn is None:
        return state
    return replace(state, water_target=event.space, mouse_turn=replace(state.mouse_turn, moved=True))


@_on(ev.LeavingWaterFailed)
def _leaving_water_failed(state: State, event: ev.LeavingWaterFailed) -> State:
    return replace(state, water_target=None)


@_on(ev.MouseSweptByCurrent)
def _mouse_swept_by_current(state: State, event: ev.MouseSweptByCurrent) -> State:
    return replace(state, board=_move(state.board, event.mouse, event.origin, event.space))


@_on(ev.AchievementEarned)
def _achievement_earned(state: State, event: ev.AchievementEarned) -> State:
    return replace(state, achievements={**state.achievements, event.achievement: event.mouse})


@_on(ev.EndMarkerMoved)
def _end_marker_moved(state: State, event: ev.EndMarkerMoved) -> State:
    return replace(state, end_marker_page=event.page)


@_on(ev.RoachDefeatedCounted)
def _roach_defeated_counted(state: State, event: ev.RoachDefeatedCounted) -> State:
    return replace(state, roaches_defeated=_add(state.roaches_defeated, event.mouse, 1))


@_on(ev.EncounterStarted)
def _encounter_started(state: State, event: ev.EncounterStarted) -> State:
    return replace(state, roaches_defeated={})


@_on(ev.EncounterDiscarded)
def _encounter_discarded(state: State, event: ev.EncounterDiscarded) -> State:
    return replace(state, encounter_face_up=None)


# Core pending/answer nodes.


@_on(CardsDrawn)
def _cards_drawn(state: State, event: CardsDrawn) -> State:
    deck, cards = event.deck, event.cards
    state = replace(state, awaiting=None, last_drawn=cards)
    if deck == "search":
        return replace(state, search_deck=tuple(c for c in state.search_deck if c not in cards))
    if deck == "encounter":
        return replace(state, encounter_deck=tuple(c for c in state.encounter_deck if c not in cards))
    return state


@_on(RollRequested, ShuffleRequested, DrawRequested)
def _chance_requested(state: State, event: RollRequested | ShuffleRequested | DrawRequested) -> State:
    reason = event.reason
    phase = "initiative" if reason == "initiative" and state.phase == "setup" else state.phase
    return replace(state, awaiting=reason, phase=phase)


@_on(DecisionRequested)
def _decision_requested(state: State, event: DecisionRequested) -> State:
    return replace(state, awaiting=event.decision)


@_on(DecisionMade)
def _decision_made(state: State, event: DecisionMade) -> State:
    if answers_tie(state, event):
        return evolve_choices(state, event)
    return replace(state, awaiting=None)


@_on(DiceRolled, CardsShuffled)
def _chance_answered(state: State, event: DiceRolled | CardsShuffled) -> State:
    return replace(state, awaiting=None)


@_on(GameEnded)
def _game_ended(state: State, event: GameEnded) -> State:
    return replace(state, phase="ended")
