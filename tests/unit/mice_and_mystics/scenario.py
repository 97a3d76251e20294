"""Helpers to speak in events: build games with the core, or fold given events with ``evolve``."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone

import msgspec

from domain.core.commands import Command
from domain.core.events import Event, GameCreated, Seat
from domain.core.game import Game, create, fold, play
from domain.mice_and_mystics.ruleset import RULESET
from domain.mice_and_mystics.state import State

AT = datetime(2024, 1, 1, tzinfo=timezone.utc)
PARTY = ("collin", "tilda", "filch", "maginos")


def created(mice=PARTY, chapter: str | None = "chapter-1", seats=None) -> GameCreated:
    setup = {"mice": list(mice)} | ({"chapter": chapter} if chapter else {})
    if seats is None:
        seats = (Seat(name="north", controls=tuple(mice[:2])), Seat(name="south", controls=tuple(mice[2:])))
    return GameCreated(
        ruleset="mice-and-mystics", setup=msgspec.Raw(json.dumps(setup).encode()), seats=seats, dice_mode="manual"
    )


class Table:
    """A game played through the core (``create``/``play``/``fold``), recording every event."""

    def __init__(self, mice=PARTY) -> None:
        self.records = create(uuid.UUID(int=7), created(mice), at=AT, seed=None, command_id="create")
        self.game: Game = fold(None, self.records)
        self.n = 0

    @property
    def state(self) -> State:
        return self.game.state

    def play(self, command: Command, seat: str = "north") -> list[Event]:
        self.n += 1
        new = play(self.game, command, seat=seat, command_id=f"c{self.n}", at=AT, seed=None)
        self.records += new
        self.game = fold(self.game, new)
        return [r.payload for r in new]

    @property
    def events(self) -> list[Event]:
        return [r.payload for r in self.records]


def given(*events: Event, mice=PARTY) -> State:
    """The state after ``events``, folded with ``evolve`` from a fresh chapter-1 game."""
    state = RULESET.initial_state(created(mice))
    for event in events:
        state = RULESET.evolve(state, event)
    return state


def of_type(events, kind) -> list:
    return [e for e in events if isinstance(e, kind)]


def chapter_1_table(*events: Event, track=("filch", "collin", "tilda", "maginos", "rat-warriors"), mice=PARTY) -> State:
    """Chapter 1 on the table (tiles, mice on GR-6, rats on GR-2/GR-4/GR-13), ``track`` laid, round 1,
    first card's turn started; then ``events``."""
    from domain.mice_and_mystics.events import (
        FigurePlaced,
        InitiativeTrackLaid,
        RoomTilePlaced,
        RoundStarted,
        StoryBoardPrepared,
        TurnStarted,
    )

    setup = [
        RoomTilePlaced(tile="guard-room", column=0, row=0),
        RoomTilePlaced(tile="kitchen-tunnels", column=1, row=0),
        RoomTilePlaced(tile="tunnel-entrance", column=1, row=1),
        *(FigurePlaced(figure=m, card=m, space="GR-6") for m in mice),
        FigurePlaced(figure="rat-warriors-1", card="rat-warriors", space="GR-2"),
        FigurePlaced(figure="rat-warriors-2", card="rat-warriors", space="GR-4"),
        FigurePlaced(figure="rat-warriors-3", card="rat-warriors", space="GR-13"),
        StoryBoardPrepared(hourglass_page=1, end_marker_page=6),
        InitiativeTrackLaid(cards=track),
        RoundStarted(round=1),
        TurnStarted(card=track[0], slot=0),
    ]
    return given(*setup, *events, mice=mice)


def fold_events(state: State, events) -> State:
    for event in events:
        state = RULESET.evolve(state, event)
    return state


def act(state: State, command: Command) -> tuple[list[Event], State]:
    """``decide`` then fold: (events, state after)."""
    events = RULESET.decide(state, command)
    return events, fold_events(state, events)


def answer(state: State, event: Event) -> tuple[list[Event], State]:
    """Apply an answer (``DiceRolled``/``CardsDrawn``/``DecisionMade``/``CardsShuffled``) and ``resolve``."""
    state = RULESET.evolve(state, event)
    events = RULESET.resolve(state, event)
    return events, fold_events(state, events)


def roll(state: State, *faces: int) -> tuple[list[Event], State]:
    from domain.core.events import DiceRolled

    assert state.awaiting is not None, "no roll pending"
    return answer(state, DiceRolled(reason=state.awaiting, faces=faces, source="manual"))
