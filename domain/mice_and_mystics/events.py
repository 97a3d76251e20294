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
    others: tuple[str, ...] = ()
    weapon: str | None = None  # the card attacked with when it is not the first weapon (Knife Strike)


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
    """``poison`` of the ``wounds`` are poison wounds (000 §Avvelenato)."""

    mouse: str
    wounds: int
    poison: int = 0


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


class FigureStoodUp(Event, kw_only=True):
    """A knocked-down figure spent its whole move standing up (000 §Atterrato)."""

    figure: str


class CheeseStolen(Event, kw_only=True):
    """Roaches' Steal: a wound taken as 1 cheese from the mouse's stash; a greedy roach's cheese goes
    to the wheel (facts.md §3; 001 §Blatte Avide)."""

    mouse: str
    figure: str
    count: int
    to_wheel: bool = False


class CheeseTakenFromWheel(Event, kw_only=True):
    """A mouse takes ``count`` cheese off the minion cheese wheel into its stash (Filch's Pilfer on a
    defeated Rat: 001 §Schede dei Topi, Filch, "Ladruncolo"; facts.md §2)."""

    mouse: str
    count: int
    reason: str


class RoachesTurnedGreedy(Event, kw_only=True):
    """Greedy roaches entered: every roach in play is greedy (001 §Blatte Avide)."""

    figures: tuple[str, ...]


class MouseHealed(Event, kw_only=True):
    """Wounds removed: ``poison`` poison wounds only by antidotes or Cure (000 §Avvelenato)."""

    mouse: str
    wounds: int
    poison: int = 0
    reason: str = ""


class BossCardsAssigned(Event, kw_only=True):
    """The boss figure ``figure`` acts on these initiative cards (001 §Carte Iniziativa dei Boss)."""

    figure: str
    cards: tuple[str, ...]


class BossWounded(Event, kw_only=True):
    """Wounds put on one of a boss's initiative cards, the one the players chose (001 §Ferire un Boss)."""

    figure: str
    card: str
    wounds: int


class AmbushDeclared(Event, kw_only=True):
    """An ambush is due once the minion cards are on the track: ``cards`` (empty: every minion card)
    (001 §Imboscate; §Carte Iniziativa dei Boss)."""

    cards: tuple[str, ...] = ()


class InitiativeCardMovedUp(Event, kw_only=True):
    """``card`` moved ``by`` slots up the track, the others down (001 §Imboscate)."""

    card: str
    by: int
    reason: str = "ambush"


class AmbushResolved(Event, kw_only=True):
    pass


class ExtraAttackGained(Event, kw_only=True):
    """Captain Vurst's Pistoleer: a cheese on his attack roll is one more attack (facts.md §3)."""

    figure: str
    count: int
    reason: str = "pistoleer"


class DefenseResolved(Event, kw_only=True):
    """One of several defenders of a single attack roll defended (000 §Brodie); the next one defends."""

    attacker: str
    target: str
    hits: int
    blocks: int
    wounds: int


class MousetrapsSet(Event, kw_only=True):
    """Mousetrap tokens on the room's red-X spaces (001 §Trappole per Topi)."""

    spaces: tuple[str, ...]


class MouseStoppedAtMousetrap(Event, kw_only=True):
    """The mouse stopped on a mousetrap to roll; ``rest`` is the path it may walk on if it passes."""

    mouse: str
    space: str
    rest: tuple[str, ...] = ()


class MousetrapPassed(Event, kw_only=True):
    mouse: str
    space: str


class MousetrapSprung(Event, kw_only=True):
    """No star: the trap token is removed; 1 wound, 1 cheese, knocked down, turn over (001
    §Attraversare le Trappole per Topi)."""

    mouse: str
    space: str


class LeavingWaterStarted(Event, kw_only=True):
    """A mouse in water spends its whole move trying to reach ``space`` (001 §Muoversi nell'Acqua)."""

    mouse: str
    space: str


class LeavingWaterFailed(Event, kw_only=True):
    mouse: str
    space: str


class MouseSweptByCurrent(Event, kw_only=True):
    """End of turn on a water space with a current: moved one space its way (001 §Muoversi nell'Acqua)."""

    mouse: str
    origin: str
    space: str


class AchievementEarned(Event, kw_only=True):
    """A personal achievement (001, Conquiste Personali)."""

    mouse: str
    achievement: str


class EndMarkerMoved(Event, kw_only=True):
    page: int
    reason: str


class RoachDefeatedCounted(Event, kw_only=True):
    """A mouse defeated a roach in the current encounter (Roach Master, 001 Conquiste Personali)."""

    mouse: str


class EncounterStarted(Event, kw_only=True):
    """A new encounter (room entered with an encounter card): per-encounter counts start again."""

    card: str


NEW_EVENTS = (
    FigureStoodUp, CheeseStolen, RoachesTurnedGreedy, MouseHealed, BossCardsAssigned, BossWounded, AmbushDeclared,
    InitiativeCardMovedUp, AmbushResolved, ExtraAttackGained, DefenseResolved, MousetrapsSet, MouseStoppedAtMousetrap,
    MousetrapPassed, MousetrapSprung, LeavingWaterStarted, LeavingWaterFailed, MouseSweptByCurrent, AchievementEarned,
    EndMarkerMoved, RoachDefeatedCounted, EncounterStarted, CheeseTakenFromWheel,
)


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
    | FigureStoodUp
    | CheeseStolen
    | CheeseTakenFromWheel
    | RoachesTurnedGreedy
    | MouseHealed
    | BossCardsAssigned
    | BossWounded
    | AmbushDeclared
    | InitiativeCardMovedUp
    | AmbushResolved
    | ExtraAttackGained
    | DefenseResolved
    | MousetrapsSet
    | MouseStoppedAtMousetrap
    | MousetrapPassed
    | MousetrapSprung
    | LeavingWaterStarted
    | LeavingWaterFailed
    | MouseSweptByCurrent
    | AchievementEarned
    | EndMarkerMoved
    | RoachDefeatedCounted
    | EncounterStarted
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
    *NEW_EVENTS,
)
CoreEvent = RollRequested | ShuffleRequested | DecisionRequested | DiceRolled | CardsShuffled | DecisionMade
from domain.mice_and_mystics.chapter_events import CHAPTER_EVENTS, ChapterEvent  # noqa: E402 (room rules, sandbox, campaign)

MouseEvent = MouseEvent | ChapterEvent  # type: ignore[misc]
EVENT_TYPES = (*EVENT_TYPES, *CHAPTER_EVENTS)
from domain.mice_and_mystics.item_events import ITEM_EVENTS, ItemEvent  # noqa: E402 (free actions, abilities, party items)

MouseEvent = MouseEvent | ItemEvent  # type: ignore[misc]
EVENT_TYPES = (*EVENT_TYPES, *ITEM_EVENTS)
from domain.mice_and_mystics.choice_events import CHOICE_EVENTS, ChoiceEvent  # noqa: E402 (ties the players break)

MouseEvent = MouseEvent | ChoiceEvent  # type: ignore[misc]
EVENT_TYPES = (*EVENT_TYPES, *CHOICE_EVENTS)
decode_event = msgspec.json.Decoder(MouseEvent).decode
