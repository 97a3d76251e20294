"""Helpers to speak in events: build games with the core, or fold given events with ``evolve``."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime

import msgspec

from dicelog.domain.core.commands import Choose, Command
from dicelog.domain.core.events import DecisionRequested, Event, GameCreated, Seat
from dicelog.domain.core.game import Game, create, fold, run_command_and_auto_answers_records
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from dicelog.domain.mice_and_mystics.state import RULES_REVISION, State

AT = datetime(2024, 1, 1, tzinfo=UTC)
PARTY = ("collin", "tilda", "filch", "maginos")


def created(
    mice=PARTY,
    chapter: str | None = "chapter-1",
    seats=None,
    content_pack: dict | None = None,
    rules_revision: int = RULES_REVISION,
) -> GameCreated:
    """A chapter game's ``GameCreated``; with ``content_pack`` (file name -> document) a game of that
    content (``dicelog.domain.mice_and_mystics.packs``); of the current rules unless ``rules_revision``
    says otherwise."""
    setup = {"mice": list(mice)} | ({"chapter": chapter} if chapter else {})
    setup |= {"content_pack": content_pack} if content_pack is not None else {}
    if seats is None:
        seats = (Seat(name="north", controls=tuple(mice[:2])), Seat(name="south", controls=tuple(mice[2:])))
    return GameCreated(
        ruleset="mice-and-mystics",
        setup=msgspec.Raw(json.dumps(setup).encode()),
        seats=seats,
        dice_mode="manual",
        rules_revision=rules_revision,
    )


class Table:
    """A game played through the core (``create``/``run_command_and_auto_answers_records``/``fold``),
    recording every event.

    With ``choose_abilities`` the seats answer the starting-ability decisions of the setup with
    each decision's default (MM rulebook (it) §Preparazione del Gioco, "Scegliere una Abilità"), so the table
    stands at the initiative shuffle. ``content_pack``: a game created with that content pack."""

    def __init__(self, mice=PARTY, choose_abilities: bool = True, content_pack: dict | None = None) -> None:
        first = created(mice, content_pack=content_pack)
        self.records = create(uuid.UUID(int=7), first, at=AT, seed=None, command_id="create")
        self.game: Game = fold(None, self.records)
        self.n = 0
        while (
            choose_abilities
            and isinstance(self.game.pending, DecisionRequested)
            and self.game.pending.decision == "starting-ability"
        ):
            pending = self.game.pending
            seat = next(s.name for s in self.game.created.seats if pending.piece in s.controls)
            self.play(Choose(option=pending.default), seat=seat)

    @property
    def state(self) -> State:
        return self.game.state

    def play(self, command: Command, seat: str = "north") -> list[Event]:
        self.n += 1
        new = run_command_and_auto_answers_records(
            self.game, command, seat=seat, command_id=f"c{self.n}", at=AT, seed=None
        )
        self.records += new
        self.game = fold(self.game, new)
        return [r.payload for r in new]

    @property
    def events(self) -> list[Event]:
        return [r.payload for r in self.records]


def given(
    *events: Event, mice=PARTY, content_pack: dict | None = None, rules_revision: int = RULES_REVISION
) -> State:
    """The state after ``events``, folded with ``evolve`` from a fresh chapter-1 game (of the
    content pack ``content_pack``, if given; of rules revision ``rules_revision``)."""
    state = RULESET.initial_state(created(mice, content_pack=content_pack, rules_revision=rules_revision))
    for event in events:
        state = RULESET.evolve(state, event)
    return state


def of_type(events, kind) -> list:
    return [e for e in events if isinstance(e, kind)]


def chapter_1_table(
    *events: Event,
    track=("filch", "collin", "tilda", "maginos", "rat-warriors"),
    mice=PARTY,
    content_pack: dict | None = None,
    rules_revision: int = RULES_REVISION,
) -> State:
    """Chapter 1 on the table (tiles, mice on GR-6, rats on GR-2/GR-4/GR-13), ``track`` laid, round 1,
    first card's turn started; then ``events``. ``content_pack``: a game created with that pack."""
    from dicelog.domain.mice_and_mystics.events import (
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
    return given(*setup, *events, mice=mice, content_pack=content_pack, rules_revision=rules_revision)


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
    from dicelog.domain.core.events import DiceRolled

    assert state.awaiting is not None, "no roll pending"
    return answer(state, DiceRolled(reason=state.awaiting, faces=faces, source="manual"))


def choose(state: State, *options: str) -> tuple[list[Event], State]:
    """Answer pending decisions with ``options`` in order (``DecisionMade`` by seat north, then
    ``resolve`` each): (every event the answers caused, the state after them)."""
    from dicelog.domain.core.events import DecisionMade

    caused: list[Event] = []
    for option in options:
        assert state.awaiting is not None, f"no decision pending for {option!r}"
        events, state = answer(state, DecisionMade(decision=state.awaiting, option=option, by="north"))
        caused += events
    return caused, state
