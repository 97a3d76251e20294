"""``evolve(state, event) -> state``: apply one stored event. Never validates, never fails.

Core events other than the pending/answer nodes leave the state unchanged.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.core.events import (
    CardsShuffled,
    DecisionMade,
    DecisionRequested,
    DiceRolled,
    Event,
    GameEnded,
    RollRequested,
    ShuffleRequested,
)
from domain.mice_and_mystics.events import (
    CheeseGained,
    DecksPrepared,
    FigurePlaced,
    InitiativeCardsSwapped,
    InitiativeTrackLaid,
    MinionTurnPassed,
    MouseMoved,
    MovementPointsGained,
    RoomTilePlaced,
    RoundStarted,
    StoryBoardPrepared,
    TurnEnded,
    TurnStarted,
)
from domain.mice_and_mystics.state import MouseTurn, PlacedTile, State, space_of


def _move(board: dict[str, tuple[str, ...]], figure: str, origin: str | None, target: str):
    board = dict(board)
    if origin is not None:
        left = tuple(f for f in board.get(origin, ()) if f != figure)
        if left:
            board[origin] = left
        else:
            board.pop(origin, None)
    board[target] = (*board.get(target, ()), figure)
    return board


def evolve(state: State, event: Event) -> State:
    match event:
        case RoomTilePlaced(tile=tile, column=column, row=row):
            return replace(state, tiles=(*state.tiles, PlacedTile(tile=tile, column=column, row=row)))
        case FigurePlaced(figure=figure, card=card, space=space):
            board = _move(state.board, figure, space_of(state, figure), space)
            return replace(state, board=board, figures={**state.figures, figure: card})
        case StoryBoardPrepared(hourglass_page=hourglass, end_marker_page=end):
            return replace(state, hourglass_page=hourglass, end_marker_page=end)
        case DecksPrepared(encounter_deck=deck):
            return replace(state, encounter_deck=deck)
        case InitiativeTrackLaid(cards=cards):
            return replace(state, track=cards, phase="playing", slot=None)
        case CheeseGained(mouse=mouse, count=count):
            return replace(state, cheese={**state.cheese, mouse: state.cheese.get(mouse, 0) + count})
        case RoundStarted(round=number):
            return replace(state, round=number, slot=None)
        case TurnStarted(card=card, slot=slot):
            turn = MouseTurn(mouse=card) if card in state.party else None
            return replace(state, slot=slot, mouse_turn=turn)
        case MovementPointsGained(points=points) if state.mouse_turn is not None:
            return replace(state, mouse_turn=replace(state.mouse_turn, movement_points=points))
        case MouseMoved(mouse=mouse, origin=origin, path=path):
            board = _move(state.board, mouse, origin, path[-1]) if path else state.board
            turn = state.mouse_turn
            if turn is not None and turn.mouse == mouse:
                turn = replace(turn, moved=True)
            return replace(state, board=board, mouse_turn=turn)
        case InitiativeCardsSwapped(card=card, other=other):
            track = tuple(other if c == card else card if c == other else c for c in state.track)
            return replace(state, track=track)
        case TurnEnded():
            return replace(state, mouse_turn=None)
        case MinionTurnPassed():
            return state
        case RollRequested(reason=reason) | ShuffleRequested(reason=reason):
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
