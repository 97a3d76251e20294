"""A tiny ruleset for testing the game-agnostic core: pieces race to square 10 on a die.

Begin shuffles the turn order (a public shuffle); ``Advance`` asks for one die; the face moves
the piece; the first piece on square 10 or beyond wins. ``Pick`` asks a decision (for tests of
pending decisions).
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct
from msgspec.structs import replace

from dicelog.domain.core.commands import Choose, Command, Roll, Shuffle
from dicelog.domain.core.errors import NotYourTurn, RuleBroken
from dicelog.domain.core.events import (
    CardsShuffled,
    DecisionMade,
    DecisionRequested,
    DiceRolled,
    Event,
    GameCreated,
    RollRequested,
    ShuffleRequested,
)
from dicelog.domain.core.ruleset import Answer, Begin


class Setup(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pieces: tuple[str, ...]
    goal: int = 10


class State(Struct, frozen=True, kw_only=True):
    goal: int
    pieces: tuple[str, ...]
    order: tuple[str, ...] = ()
    turn: int = 0
    squares: dict[str, int] = {}
    colour: str | None = None


class Advance(Command, kw_only=True):
    piece: str


class Pick(Command, kw_only=True):
    piece: str


class OrderSet(Event, kw_only=True):
    order: tuple[str, ...]


class Advanced(Event, kw_only=True):
    piece: str
    squares: int


class ColourPicked(Event, kw_only=True):
    colour: str


AnyCommand = Begin | Advance | Pick | Roll | Shuffle | Choose


class Race:
    name = "race"
    state_type = State
    command_type = AnyCommand
    event_types = (OrderSet, Advanced, ColourPicked)

    def initial_state(self, created: GameCreated) -> State:
        try:
            setup = msgspec.json.decode(created.setup, type=Setup)
        except msgspec.ValidationError as e:
            raise RuleBroken("setup.invalid", section="race §1", detail=str(e)) from None
        return State(goal=setup.goal, pieces=setup.pieces, squares=dict.fromkeys(setup.pieces, 0))

    def decide(self, state: State, command: Command) -> list[Event]:
        match command:
            case Begin():
                return [ShuffleRequested(reason="order", cards=state.pieces)]
            case Advance(piece=piece):
                if piece != self.turn_piece(state):
                    raise NotYourTurn(
                        "turn.not-your-turn", section="race §2", detail=f"it is not {piece}'s turn"
                    )
                return [RollRequested(reason="advance", dice=1, piece=piece)]
            case Pick(piece=piece):
                return [
                    DecisionRequested(decision="colour", options=("red", "blue"), piece=piece, default="red")
                ]
        raise RuleBroken("command.unknown", section="race", detail=type(command).__name__)

    def resolve(self, state: State, answer: Answer) -> list[Event]:
        match answer:
            case CardsShuffled(order=order):
                return [OrderSet(order=order)]
            case DiceRolled(faces=faces):
                return [Advanced(piece=self.turn_piece(state) or "", squares=faces[0])]
            case DecisionMade(option=option):
                return [ColourPicked(colour=option)]
        return []

    def evolve(self, state: State, event: Event) -> State:
        match event:
            case OrderSet(order=order):
                return replace(state, order=order)
            case Advanced(piece=piece, squares=n):
                return replace(
                    state, squares={**state.squares, piece: state.squares[piece] + n}, turn=state.turn + 1
                )
            case ColourPicked(colour=colour):
                return replace(state, colour=colour)
        return state

    def outcome(self, state: State) -> str | None:
        winners = [p for p, n in state.squares.items() if n >= state.goal]
        return f"won:{winners[0]}" if winners else None

    def piece_of(self, command: Command) -> str | None:
        return getattr(command, "piece", None)

    def turn_piece(self, state: State) -> str | None:
        return state.order[state.turn % len(state.order)] if state.order else None

    def legal_commands(self, state: State) -> list[Command]:
        piece = self.turn_piece(state)
        return [Advance(piece=piece), Pick(piece=piece)] if piece else []

    def initiative_view(self, state: State) -> Any:
        return {"order": state.order, "turn": self.turn_piece(state)}

    def board_view(self, state: State) -> Any:
        return {"squares": state.squares}

    def describe(self, state: State, event: Event) -> str | None:
        return f"{event.piece} advances {event.squares}" if isinstance(event, Advanced) else None


RACE = Race()
