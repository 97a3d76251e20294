"""Mice and Mystics events: past tense, frozen, tagged; never changed once stored (STYLE.md, 8).

Figure ids: a mouse's figure id is its mouse id (``filch``); a minion figure is
``<card>-<n>`` (``rat-warriors-1``). Initiative card ids: mouse id or minion card id.
"""

from __future__ import annotations

import msgspec

from domain.core.events import (
    CardsShuffled,
    DecisionMade,
    DecisionRequested,
    DiceRolled,
    Event,
    RollRequested,
    ShuffleRequested,
)


class RoomTilePlaced(Event, kw_only=True):
    """A room tile put on the table at a grid position (001 §Preparazione del Gioco, 5)."""

    tile: str
    column: int
    row: int


class FigurePlaced(Event, kw_only=True):
    """A figure (mouse or minion) put on a space. ``card`` is its initiative card."""

    figure: str
    card: str
    space: str


class StoryBoardPrepared(Event, kw_only=True):
    """Hourglass and chapter end marker set on the bookmark (001 §Preparazione del Gioco, 8)."""

    hourglass_page: int
    end_marker_page: int


class DecksPrepared(Event, kw_only=True):
    """The chapter's decks as sets of card ids; their order is drawn only when a card is drawn."""

    encounter_deck: tuple[str, ...]
    search_deck: tuple[str, ...] = ()
    provisional_reason: str = ""


class InitiativeTrackLaid(Event, kw_only=True):
    """Initiative cards laid down the track in shuffled order (001 §Determinare l'Ordine di Iniziativa)."""

    cards: tuple[str, ...]


class CheeseGained(Event, kw_only=True):
    """A mouse adds cheese to its stash (e.g. Collin's Born to Lead)."""

    mouse: str
    count: int
    reason: str


class RoundStarted(Event, kw_only=True):
    """A new round begins at the top of the initiative track (001 §Round di Gioco)."""

    round: int


class TurnStarted(Event, kw_only=True):
    """The card at ``slot`` (0-based) of the initiative track takes its turn."""

    card: str
    slot: int


class MovementPointsGained(Event, kw_only=True):
    """A mouse's movement points: action-die move number plus its move value (001 §Movimento dei Topi)."""

    mouse: str
    die_number: int
    move_value: int
    points: int


class MouseMoved(Event, kw_only=True):
    """A mouse moved from ``origin`` through ``path`` (spaces entered, last = destination)."""

    mouse: str
    origin: str
    path: tuple[str, ...]
    cost: int


class MinionTurnPassed(Event, kw_only=True):
    """A minion card's turn passed without actions, with the honest reason why."""

    card: str
    reason: str


class InitiativeCardsSwapped(Event, kw_only=True):
    """``card`` swapped places with ``other``, the card directly above it (Rat Warriors: Aggressive)."""

    card: str
    other: str
    reason: str


class TurnEnded(Event, kw_only=True):
    card: str


MouseEvent = (
    RoomTilePlaced
    | FigurePlaced
    | StoryBoardPrepared
    | DecksPrepared
    | InitiativeTrackLaid
    | CheeseGained
    | RoundStarted
    | TurnStarted
    | MovementPointsGained
    | MouseMoved
    | MinionTurnPassed
    | InitiativeCardsSwapped
    | TurnEnded
)
EVENT_TYPES = (
    RoomTilePlaced,
    FigurePlaced,
    StoryBoardPrepared,
    DecksPrepared,
    InitiativeTrackLaid,
    CheeseGained,
    RoundStarted,
    TurnStarted,
    MovementPointsGained,
    MouseMoved,
    MinionTurnPassed,
    InitiativeCardsSwapped,
    TurnEnded,
)
CoreEvent = RollRequested | ShuffleRequested | DecisionRequested | DiceRolled | CardsShuffled | DecisionMade
decode_event = msgspec.json.Decoder(MouseEvent).decode
