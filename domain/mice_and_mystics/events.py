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


class ActionStarted(Event, kw_only=True):
    """A mouse takes its one action of the turn (001 §Il Turno di un Topo). A rolled move not yet
    walked is given up (RULINGS.md, Mouse turn)."""

    mouse: str
    action: str


class AttackDeclared(Event, kw_only=True):
    """``attacker`` attacks ``target`` with ``dice`` dice, hitting on bows if ``ranged`` else on
    swords and swords/shields (001 §Attacco in Mischia; §Attacco a Distanza)."""

    attacker: str
    target: str
    ranged: bool
    dice: int


class AttackRolled(Event, kw_only=True):
    """The attack roll's hits and cheese (facts.md §1 faces)."""

    attacker: str
    target: str
    hits: int
    cheese: int = 0


class AttackResolved(Event, kw_only=True):
    """The defense roll blocked ``blocks`` of ``hits``; ``wounds`` are unblocked hits (001 §Ferire un Servitore)."""

    attacker: str
    target: str
    hits: int
    blocks: int
    wounds: int


class CheeseAddedToWheel(Event, kw_only=True):
    """Cheese put on the minion cheese wheel (001 §Evocazioni; §Il Tempo Scorre)."""

    count: int
    reason: str


class CheeseWheelEmptied(Event, kw_only=True):
    """The wheel emptied after a summon (001 §Evocazioni, 5)."""

    count: int


class MinionWounded(Event, kw_only=True):
    figure: str
    wounds: int


class MinionDefeated(Event, kw_only=True):
    """A minion figure with wounds >= lives is removed from the room (001 §Ferire un Servitore)."""

    figure: str
    card: str


class InitiativeCardRemoved(Event, kw_only=True):
    """A card with no figures left leaves the track; the cards below move up (001 §Round di Gioco)."""

    card: str


class InitiativeCardsAdded(Event, kw_only=True):
    """New minion cards laid on the first free slots (001 §Determinare l'Ordine di Iniziativa)."""

    cards: tuple[str, ...]


class MouseWounded(Event, kw_only=True):
    mouse: str
    wounds: int


class MouseCaptured(Event, kw_only=True):
    """Wounds >= lives: figure removed, cheese and equipped search cards discarded, wounds and effects
    removed (000 §Topi Catturati)."""

    mouse: str
    cheese_discarded: int = 0


class HourglassAdvanced(Event, kw_only=True):
    """The hourglass moves one page toward the end marker."""

    page: int
    reason: str


class MouseTurnSkipped(Event, kw_only=True):
    """A captured mouse skips its turn while minions are on the board (000 §Liberare un Topo)."""

    mouse: str
    reason: str


class MouseReleased(Event, kw_only=True):
    """A captured mouse is released on ``space`` (000 §Liberare un Topo)."""

    mouse: str
    space: str


class MinionActivated(Event, kw_only=True):
    """The next figure of the minion card acts: the nearest to the mice first (000 §Muovere un Servitore)."""

    figure: str


class MinionMoved(Event, kw_only=True):
    """A minion moved along ``path`` (empty: it stayed, for ``reason``)."""

    figure: str
    origin: str
    path: tuple[str, ...]
    reason: str = ""


class MinionAttackSkipped(Event, kw_only=True):
    figure: str
    reason: str


class SearchSucceeded(Event, kw_only=True):
    """A star on the search die: the mouse draws a search card (001 §Ricerca)."""

    mouse: str
    tile: str


class SearchFailed(Event, kw_only=True):
    mouse: str


class SearchCardKept(Event, kw_only=True):
    mouse: str
    card: str


class SearchCardDiscarded(Event, kw_only=True):
    mouse: str
    card: str


class EffectRemoved(Event, kw_only=True):
    """A negative effect removed, e.g. by Recover (001 §Recupero)."""

    mouse: str
    effect: str


class EffectAdded(Event, kw_only=True):
    mouse: str
    effect: str


class TileFlipped(Event, kw_only=True):
    """A room tile turned over to its other side (001 §Esplorare)."""

    tile: str
    to: str


class RoomEntered(Event, kw_only=True):
    """The party entered ``tile`` through an exploration; ``first`` if it was unexplored (001 §Incontri)."""

    tile: str
    first: bool


class EncounterRevealed(Event, kw_only=True):
    """The encounter card drawn for a room; it stays face up and sets the next summon (001 §Incontri)."""

    card: str
    page: int


class EncounterDiscarded(Event, kw_only=True):
    """The face-up encounter card is discarded after its summon (001 §Evocazioni, 3)."""

    card: str


class InitiativeTrackReshuffled(Event, kw_only=True):
    """The whole track laid again after an encounter found no minion card on it (001 §Determinare
    l'Ordine di Iniziativa); the turn in progress goes on from its card's new slot (RULINGS.md)."""

    cards: tuple[str, ...]


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
    | ActionStarted
    | AttackDeclared
    | AttackRolled
    | AttackResolved
    | CheeseAddedToWheel
    | CheeseWheelEmptied
    | MinionWounded
    | MinionDefeated
    | InitiativeCardRemoved
    | InitiativeCardsAdded
    | MouseWounded
    | MouseCaptured
    | HourglassAdvanced
    | MouseTurnSkipped
    | MouseReleased
    | MinionActivated
    | MinionMoved
    | MinionAttackSkipped
    | SearchSucceeded
    | SearchFailed
    | SearchCardKept
    | SearchCardDiscarded
    | EffectRemoved
    | EffectAdded
    | TileFlipped
    | RoomEntered
    | EncounterRevealed
    | EncounterDiscarded
    | InitiativeTrackReshuffled
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
    ActionStarted,
    AttackDeclared,
    AttackRolled,
    AttackResolved,
    CheeseAddedToWheel,
    CheeseWheelEmptied,
    MinionWounded,
    MinionDefeated,
    InitiativeCardRemoved,
    InitiativeCardsAdded,
    MouseWounded,
    MouseCaptured,
    HourglassAdvanced,
    MouseTurnSkipped,
    MouseReleased,
    MinionActivated,
    MinionMoved,
    MinionAttackSkipped,
    SearchSucceeded,
    SearchFailed,
    SearchCardKept,
    SearchCardDiscarded,
    EffectRemoved,
    EffectAdded,
    TileFlipped,
    RoomEntered,
    EncounterRevealed,
    EncounterDiscarded,
    InitiativeTrackReshuffled,
)
CoreEvent = RollRequested | ShuffleRequested | DecisionRequested | DiceRolled | CardsShuffled | DecisionMade
decode_event = msgspec.json.Decoder(MouseEvent).decode
