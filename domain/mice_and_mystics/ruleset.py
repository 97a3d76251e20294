"""The Mice and Mystics ruleset (``domain.core.ruleset.Ruleset``), read as a table.

``decide`` dispatches each command to ``decide_<action>`` in the rules module of its rulebook
section; ``resolve`` continues after a roll or shuffle by its reason; ``evolve`` is in
``evolve.py``. Sections cited are those of rules/001_4b5c89fefc63a991.txt (see rules/sections.py).
"""

from __future__ import annotations

from domain.core.commands import Command
from domain.core.errors import RuleBroken
from domain.core.events import CardsShuffled, DiceRolled, Event
from domain.core.ruleset import Answer, Begin
from domain.mice_and_mystics.commands import AnyCommand, EndTurn, Move, MoveTo
from domain.mice_and_mystics.events import EVENT_TYPES
from domain.mice_and_mystics.evolve import evolve
from domain.mice_and_mystics.rules import sections
from domain.mice_and_mystics.rules.movement import decide_move, decide_move_to, legal_moves, resolve_move_roll
from domain.mice_and_mystics.rules.setup import decide_begin, initial_state
from domain.mice_and_mystics.rules.turns import decide_end_turn, resolve_initiative
from domain.mice_and_mystics.state import State
from domain.mice_and_mystics.views import board_view, describe, initiative_view

NAME = "mice-and-mystics"


def decide(state: State, command: Command) -> list[Event]:
    if state.phase == "ended":
        raise RuleBroken("game.over", section=sections.STORY_BOARD, detail="the chapter has ended")
    match command:
        case Begin():
            return decide_begin(state)
        case Move():
            return decide_move(state, command)
        case MoveTo():
            return decide_move_to(state, command)
        case EndTurn():
            return decide_end_turn(state, command)
        case _:
            raise RuleBroken("command.unknown", section=sections.SETUP, detail=f"{type(command).__name__} is not a command here")


def resolve(state: State, answer: Answer) -> list[Event]:
    match answer:
        case CardsShuffled(reason="initiative"):
            return resolve_initiative(state, answer)
        case DiceRolled(reason="move"):
            return resolve_move_roll(state, answer)
        case _:
            return []


def outcome(state: State) -> str | None:
    """Defeat when the hourglass reaches the chapter end marker (001 §Plancia del Racconto)."""
    if state.phase == "playing" and state.end_marker_page and state.hourglass_page >= state.end_marker_page:
        return "defeat"
    return None


def piece_of(command: Command) -> str | None:
    return getattr(command, "mouse", None) if isinstance(command, (Move, MoveTo, EndTurn)) else None


def turn_piece(state: State) -> str | None:
    return state.mouse_turn.mouse if state.mouse_turn is not None and state.phase == "playing" else None


def legal_commands(state: State) -> list[Command]:
    """Exactly the commands ``decide`` accepts now; empty while a roll/shuffle/decision is pending."""
    if state.awaiting is not None:
        return []
    if state.phase == "setup":
        return [Begin()]
    mouse = turn_piece(state)
    if mouse is None:
        return []
    return [*legal_moves(state, mouse), EndTurn(mouse=mouse)]


class MiceAndMysticsRuleset:
    """The ruleset object registered in ``domain.rulesets``."""

    name = NAME
    state_type = State
    command_type = AnyCommand
    event_types = EVENT_TYPES
    initial_state = staticmethod(initial_state)
    decide = staticmethod(decide)
    resolve = staticmethod(resolve)
    evolve = staticmethod(evolve)
    outcome = staticmethod(outcome)
    piece_of = staticmethod(piece_of)
    turn_piece = staticmethod(turn_piece)
    legal_commands = staticmethod(legal_commands)
    initiative_view = staticmethod(initiative_view)
    board_view = staticmethod(board_view)
    describe = staticmethod(describe)


RULESET = MiceAndMysticsRuleset()
