"""Read-model views (used by ``projections/``) and game-log lines."""

from __future__ import annotations

from typing import NamedTuple

from msgspec import Struct

from dicelog.domain.core.dispatch import ByEventType
from dicelog.domain.core.events import (
    CardsShuffled,
    DecisionMade,
    DecisionRequested,
    DiceRolled,
    Event,
    GameEnded,
    RollRequested,
    ShuffleRequested,
)
from dicelog.domain.mice_and_mystics import events as ev
from dicelog.domain.mice_and_mystics.chapter_events import (
    ChapterStoryRead,
    CounterCheesePlaced,
    CounterCheeseTaken,
    CrowDived,
    MizMaggieSwatted,
    StartingAbilityTaken,
    StoryAchievementGained,
)
from dicelog.domain.mice_and_mystics.choice_events import ChoiceDeferred, ChoicesSettled, TieFound
from dicelog.domain.mice_and_mystics.content import Library
from dicelog.domain.mice_and_mystics.events import (
    CheeseGained,
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
from dicelog.domain.mice_and_mystics.item_events import ITEM_EVENTS
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.read_models_items import describe_item
from dicelog.domain.mice_and_mystics.state import State
from dicelog.domain.mice_and_mystics.words import (
    TWO_SIDED,
    Words,
    face_text,
    reason_text,
    singular,
    story_text,
)


class InitiativeCard(Struct, frozen=True, kw_only=True):
    """One card on the initiative track (a mouse's card or a minion or boss card) and the figures it moves."""

    slot: int
    """Position on the track, 0-based from the top: the card in slot 0 takes its turn first each round."""
    card: str
    """The initiative card id: a mouse id (``collin``) for a mouse's card, else a minion or boss card id
    (``rat-warriors``), as listed by ``/content/mice-and-mystics/mice`` and ``/minions``."""
    name: str
    """The card's English name from the content (``Prince Collin``, ``Rat Warriors``); the id if the
    content has none."""
    kind: str
    """``mouse`` for a party mouse's card, ``minion`` for every other card (bosses included)."""
    figures: tuple[str, ...]
    """Ids of the figures this card moves, sorted: the mouse itself for a mouse's card (even while
    captured); for a minion card its figures on the board (``<card>-<n>``, e.g. ``rat-warriors-1``), a
    boss's figure (named after the boss, ``brodie``) under one of its cards only; empty when none is left."""
    current: bool
    """Whether this is the card at the track's current slot: the card taking its turn, or the one whose
    turn just ended until the next turn starts (see ``InitiativeView.turn``)."""


class InitiativeView(Struct, frozen=True, kw_only=True):
    """The initiative track as ``GET /games/{id}/initiative`` returns it: the round and the cards, top
    first."""

    round: int
    """The round number, from 1 once the track is laid; 0 before the chapter's first round."""
    turn: str | None
    """The card id at the current slot: the card taking its turn (or whose turn just ended); ``null``
    before the first turn of a round and before the track is laid."""
    cards: tuple[InitiativeCard, ...]
    """The initiative track, top first (the order turns are taken); empty before the track is laid."""


class SpaceView(Struct, frozen=True, kw_only=True):
    """One space of a room tile as the board shows it, with the figures standing on it."""

    id: str
    """The space id, ``<tile code>-<n>`` (``GR-6``: space 6 of the Guard Room), unique across all tiles;
    the id commands use (``MoveTo.path``)."""
    kind: str
    """``normal``; ``start`` (where the mice start the chapter); ``minion-entrance`` (where new minions are
    placed); ``flip`` (explore by turning the board over); ``mousetrap`` (a red-X trap space)."""
    centre: tuple[float, float]
    """The space's centre as ``[x, y]`` in tile units from the tile's top-left corner (x right, y down),
    within the tile's ``width`` x ``height`` (``/content/mice-and-mystics/tiles``); for drawing."""
    figures: tuple[str, ...]
    """Ids of the figures standing here, in order of arrival: mouse ids and minion figure ids
    (``<card>-<n>``); empty when the space is free. A space holds 4 small figures or 1 large one, except
    a special area."""
    water: bool = False
    """Whether this is a water space (entering it stops a mouse's movement; leaving it takes a roll)."""


class TileView(Struct, frozen=True, kw_only=True):
    """One room tile on the table: the face now up, its grid cell and its spaces."""

    tile: str
    """The id of the face now up (``guard-room``); it changes when the board is turned over by a flip
    space."""
    number: int
    """The face's printed tile number, 1-16 (odd: orange castle side, even: blue side)."""
    name: str
    """The face's English name (``Guard Room``)."""
    column: int
    """The tile's grid column on the table (grows to the east); tiles in neighbouring cells are the rooms
    an exit can lead to."""
    row: int
    """The tile's grid row on the table (grows to the south)."""
    provisional: bool
    """Whether the face's layout (spaces, lines, walls) is a provisional drawing rather than the printed
    tile; see the tile's ``provisional_reason`` at ``/content/mice-and-mystics/tiles/{number}``."""
    spaces: tuple[SpaceView, ...]
    """Every space of the face, in content order, with the figures on it."""


class BoardView(Struct, frozen=True, kw_only=True):
    """The table as ``GET /games/{id}/board`` returns it: the room tiles with their figures, the story
    board's hourglass and chapter end marker, the minion cheese wheel and the mice's cheese."""

    tiles: tuple[TileView, ...]
    """The room tiles on the table, in the order they were laid at setup; empty before the chapter is set
    up."""
    hourglass_page: int
    """The story-board page the hourglass is on (1-based); it moves 1 page on at each summon and each
    capture, and the chapter is lost when it reaches ``end_marker_page``. 0 before setup."""
    end_marker_page: int
    """The story-board page of the chapter end marker (some achievements move it later); 0 before setup."""
    cheese_wheel: int
    """Cheese on the minion cheese wheel; once it holds 6 or more, minions are summoned and it is emptied."""
    mouse_cheese: dict[str, int]
    """Cheese in each mouse's stash, by mouse id; a mouse not listed has none."""


def name_of(lib: Library, card: str) -> str:
    found = lib.mice.get(card) or lib.minions.get(card)
    return found.name if found is not None else card


def possessive(lib: Library, card: str) -> str:
    name = name_of(lib, card)
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def initiative_view(state: State) -> InitiativeView:
    lib = library_of(state)
    cards = tuple(
        InitiativeCard(
            slot=i,
            card=card,
            name=name_of(lib, card),
            kind="mouse" if card in state.party else "minion",
            figures=tuple(sorted(f for f, c in state.figures.items() if c == card)),
            current=i == state.slot,
        )
        for i, card in enumerate(state.track)
    )
    return InitiativeView(round=state.round, turn=state.turn_card, cards=cards)


def board_view(state: State) -> BoardView:
    lib = library_of(state)
    tiles = []
    for placed in state.tiles:
        tile = lib.tiles[placed.tile]
        spaces = tuple(
            SpaceView(id=s.id, kind=s.kind, centre=s.centre, figures=state.board.get(s.id, ()), water=s.water)
            for s in tile.spaces
        )
        tiles.append(
            TileView(
                tile=tile.id,
                number=tile.number,
                name=tile.name,
                column=placed.column,
                row=placed.row,
                provisional=tile.provisional,
                spaces=spaces,
            )
        )
    return BoardView(
        tiles=tuple(tiles),
        hourglass_page=state.hourglass_page,
        end_marker_page=state.end_marker_page,
        cheese_wheel=state.cheese_wheel,
        mouse_cheese=dict(state.cheese),
    )


class _Line(NamedTuple):
    """What a describer reads: the state after the event, its content library and its players' words."""

    state: State
    lib: Library
    words: Words


DESCRIBE: ByEventType[_Line, str | None] = ByEventType("describer", lambda line, event: None)
"""The describers, one per event type (``dicelog.domain.core.dispatch``); an event type with none has no
log line."""

_describes = DESCRIBE.on


def describe(state: State, event: Event) -> str | None:
    """One English log line for ``event`` (``state`` is the state after it), or ``None``: in players' words
    (``words.Words``): figures, spaces, cards and dice faces by their printed names, never content ids.
    One describer per event type, looked up by ``type(event)`` in ``DESCRIBE`` (registered once at import
    by ``@_describes(...)``, as ``evolve``)."""
    lib = library_of(state)
    return DESCRIBE(_Line(state, lib, Words(lib, state.figures)), event)


# --- chapter events (chapter_events.py) ---------------------------------------------------------


@_describes(CrowDived)
def _crow_dived(line: _Line, event: CrowDived) -> str | None:
    fig, at = line.words.figure, line.words.space
    return f"The nasty old crow dives on {fig(event.figure)} on {at(event.space)}: 1 wound, no defence"


@_describes(CounterCheesePlaced)
def _counter_cheese_placed(line: _Line, event: CounterCheesePlaced) -> str | None:
    return f"{event.count} cheese on the Kitchen counter"


@_describes(CounterCheeseTaken)
def _counter_cheese_taken(line: _Line, event: CounterCheeseTaken) -> str | None:
    fig = line.words.figure
    return (
        f"{fig(event.figure)} takes {event.count} cheese from the Kitchen counter to the minion cheese wheel"
    )


@_describes(MizMaggieSwatted)
def _miz_maggie_swatted(line: _Line, event: MizMaggieSwatted) -> str | None:
    name = line.words.card
    return f"Miz Maggie's broom knocks {name(event.mouse)} down; the roach is back on the counter"


@_describes(StoryAchievementGained)
def _story_achievement_gained(line: _Line, event: StoryAchievementGained) -> str | None:
    return f"Story achievement: {line.words.thing(event.achievement)}"


@_describes(ChapterStoryRead)
def _chapter_story_read(line: _Line, event: ChapterStoryRead) -> str | None:
    heading = "The story continues" if event.part == "story-continues" else "Read aloud"
    return f"{heading}: {story_text(event.text)}"


@_describes(StartingAbilityTaken)
def _starting_ability_taken(line: _Line, event: StartingAbilityTaken) -> str | None:
    name, card = line.words.card, line.words.card
    where = " (chosen in the game's setup)" if event.chosen_in == "setup" else ""
    return f"{name(event.mouse)} takes the ability card {card(event.ability)}{where}"


# --- setup, rounds and turns --------------------------------------------------------------------


@_describes(RoomTilePlaced)
def _room_tile_placed(line: _Line, event: RoomTilePlaced) -> str | None:
    return f"{line.lib.tiles[event.tile].name} is placed"


@_describes(FigurePlaced)
def _figure_placed(line: _Line, event: FigurePlaced) -> str | None:
    name, fig, at = line.words.card, line.words.figure, line.words.space
    if event.figure != event.card:
        return f"{fig(event.figure)} is placed on {at(event.space)}"
    return f"{name(event.card)} starts on {at(event.space)}"


@_describes(StoryBoardPrepared)
def _story_board_prepared(line: _Line, event: StoryBoardPrepared) -> str | None:
    return f"Hourglass on page {event.hourglass_page}, chapter end marker on page {event.end_marker_page}"


@_describes(ShuffleRequested)
def _shuffle_requested(line: _Line, event: ShuffleRequested) -> str | None:
    return "Initiative cards are shuffled" if event.reason == "initiative" else None


@_describes(InitiativeTrackLaid)
def _initiative_track_laid(line: _Line, event: InitiativeTrackLaid) -> str | None:
    name = line.words.card
    return "Initiative track: " + ", ".join(name(c) for c in event.cards)


@_describes(CheeseGained)
def _cheese_gained(line: _Line, event: CheeseGained) -> str | None:
    name = line.words.card
    return f"{name(event.mouse)} gains {event.count} cheese ({reason_text(event.reason)})"


@_describes(RoundStarted)
def _round_started(line: _Line, event: RoundStarted) -> str | None:
    return f"Round {event.round} begins"


@_describes(TurnStarted)
def _turn_started(line: _Line, event: TurnStarted) -> str | None:
    return f"{possessive(line.lib, event.card)} turn"


@_describes(TurnEnded)
def _turn_ended(line: _Line, event: TurnEnded) -> str | None:
    return f"{possessive(line.lib, event.card)} turn ends"


@_describes(RollRequested)
def _roll_requested(line: _Line, event: RollRequested) -> str | None:
    if event.reason != "move" or not event.piece:
        return None
    return f"{line.words.card(event.piece)} rolls for movement"


@_describes(MovementPointsGained)
def _movement_points_gained(line: _Line, event: MovementPointsGained) -> str | None:
    name = line.words.card
    return (
        f"{name(event.mouse)} may move {event.points} ({event.die_number} rolled + move {event.move_value})"
    )


@_describes(MouseMoved)
def _mouse_moved(line: _Line, event: MouseMoved) -> str | None:
    name, at, path = line.words.card, line.words.space, event.path
    if not path:  # a charmed mouse that cannot or need not move (MM rulebook (it) §Stregato)
        return f"{name(event.mouse)} stays where it is"
    spaces = "space" if len(path) == 1 else "spaces"
    return f"{name(event.mouse)} moves {len(path)} {spaces} to {at(path[-1])} (cost {event.cost})"


@_describes(MinionTurnPassed)
def _minion_turn_passed(line: _Line, event: MinionTurnPassed) -> str | None:
    return f"{line.words.card(event.card)} do nothing: {event.reason}"


@_describes(InitiativeCardsSwapped)
def _initiative_cards_swapped(line: _Line, event: InitiativeCardsSwapped) -> str | None:
    name = line.words.card
    return f"{name(event.card)} move above {name(event.other)} ({reason_text(event.reason)})"


@_describes(ev.ActionStarted)
def _action_started(line: _Line, event: ev.ActionStarted) -> str | None:
    return f"{line.words.card(event.mouse)} takes the {event.action} action"


# --- battles ------------------------------------------------------------------------------------


@_describes(ev.AttackDeclared)
def _attack_declared(line: _Line, event: ev.AttackDeclared) -> str | None:
    fig, dice = line.words.figure, event.dice
    kind = "ranged" if event.ranged else "melee"
    return (
        f"{fig(event.attacker)} attacks {fig(event.target)} ({kind}, {dice} {'die' if dice == 1 else 'dice'})"
    )


@_describes(ev.AttackRolled)
def _attack_rolled(line: _Line, event: ev.AttackRolled) -> str | None:
    return f"{line.words.figure(event.attacker)} scores {hits_text(event.hits)}"


@_describes(ev.AttackResolved, ev.DefenseResolved)
def _attack_resolved(line: _Line, event: ev.AttackResolved | ev.DefenseResolved) -> str | None:
    fig = line.words.figure
    if isinstance(event, ev.AttackResolved) and event.hits == 0:
        return f"The attack on {fig(event.target)} scores no hit"
    # the wounds (or the cheese a roach steals instead) have their own lines
    return f"{fig(event.target)} blocks {event.blocks} of {hits_text(event.hits)}"


@_describes(ev.MinionWounded)
def _minion_wounded(line: _Line, event: ev.MinionWounded) -> str | None:
    return f"{line.words.figure(event.figure)} takes {wounds_text(event.wounds)}"


@_describes(ev.CheeseStolen)
def _cheese_stolen(line: _Line, event: ev.CheeseStolen) -> str | None:
    name, fig = line.words.card, line.words.figure
    where = "onto the minion cheese wheel" if event.to_wheel else "and discards it"
    return f"{fig(event.figure)} steals {event.count} cheese from {name(event.mouse)} {where}"


@_describes(ev.MinionDefeated)
def _minion_defeated(line: _Line, event: ev.MinionDefeated) -> str | None:
    return f"{line.words.figure(event.figure)} is defeated"


@_describes(ev.MouseWounded)
def _mouse_wounded(line: _Line, event: ev.MouseWounded) -> str | None:
    return f"{line.words.card(event.mouse)} takes {wounds_text(event.wounds)}"


@_describes(ev.MouseCaptured)
def _mouse_captured(line: _Line, event: ev.MouseCaptured) -> str | None:
    return f"{line.words.card(event.mouse)} is captured"


@_describes(ev.MouseReleased)
def _mouse_released(line: _Line, event: ev.MouseReleased) -> str | None:
    return f"{line.words.card(event.mouse)} is released on {line.words.space(event.space)}"


@_describes(ev.MouseTurnSkipped)
def _mouse_turn_skipped(line: _Line, event: ev.MouseTurnSkipped) -> str | None:
    return f"{line.words.card(event.mouse)} does nothing: {event.reason}"


# --- the story board, the cheese wheel and the initiative track ---------------------------------


@_describes(ev.EndMarkerMoved)
def _end_marker_moved(line: _Line, event: ev.EndMarkerMoved) -> str | None:
    return (
        f"The chapter end marker moves on to page {event.page} ({line.words.thing(event.reason)}): more time"
    )


@_describes(ev.CheeseAddedToWheel)
def _cheese_added_to_wheel(line: _Line, event: ev.CheeseAddedToWheel) -> str | None:
    return (
        f"{event.count} cheese on the minion cheese wheel ({reason_text(event.reason)}): "
        f"{line.state.cheese_wheel}"
    )


@_describes(ev.CheeseTakenFromWheel)
def _cheese_taken_from_wheel(line: _Line, event: ev.CheeseTakenFromWheel) -> str | None:
    return (
        f"{line.words.card(event.mouse)} takes {event.count} cheese off the minion cheese wheel "
        f"({reason_text(event.reason)}): {line.state.cheese_wheel}"
    )


@_describes(ev.CheeseWheelEmptied)
def _cheese_wheel_emptied(line: _Line, event: ev.CheeseWheelEmptied) -> str | None:
    return "The minion cheese wheel is emptied"


@_describes(ev.InitiativeCardRemoved)
def _initiative_card_removed(line: _Line, event: ev.InitiativeCardRemoved) -> str | None:
    return f"{line.words.card(event.card)} leave the initiative track"


@_describes(ev.InitiativeCardsAdded, ev.InitiativeTrackReshuffled)
def _initiative_track_changed(
    line: _Line, event: ev.InitiativeCardsAdded | ev.InitiativeTrackReshuffled
) -> str | None:
    name = line.words.card
    return "Initiative track: " + ", ".join(name(c) for c in line.state.track)


@_describes(ev.HourglassAdvanced)
def _hourglass_advanced(line: _Line, event: ev.HourglassAdvanced) -> str | None:
    return f"The hourglass moves to page {event.page} ({reason_text(event.reason)})"


# --- minions ------------------------------------------------------------------------------------


@_describes(ev.MinionMoved)
def _minion_moved(line: _Line, event: ev.MinionMoved) -> str | None:
    fig, at, path = line.words.figure, line.words.space, event.path
    if path:
        return f"{fig(event.figure)} moves to {at(path[-1])}"
    return f"{fig(event.figure)} stays ({event.reason or 'cannot get closer'})"


@_describes(ev.MinionAttackSkipped)
def _minion_attack_skipped(line: _Line, event: ev.MinionAttackSkipped) -> str | None:
    return f"{line.words.figure(event.figure)} does not attack: {event.reason}"


# --- searches, effects and rooms ----------------------------------------------------------------


@_describes(ev.SearchSucceeded)
def _search_succeeded(line: _Line, event: ev.SearchSucceeded) -> str | None:
    return f"{line.words.card(event.mouse)} finds something"


@_describes(ev.SearchFailed)
def _search_failed(line: _Line, event: ev.SearchFailed) -> str | None:
    return f"{line.words.card(event.mouse)} finds nothing"


@_describes(ev.SearchCardKept)
def _search_card_kept(line: _Line, event: ev.SearchCardKept) -> str | None:
    name, card = line.words.card, line.words.card
    return f"{name(event.mouse)} keeps {card(event.card)}"


@_describes(ev.SearchCardDiscarded)
def _search_card_discarded(line: _Line, event: ev.SearchCardDiscarded) -> str | None:
    name, card = line.words.card, line.words.card
    return f"{name(event.mouse)} discards {card(event.card)} for 1 cheese"


@_describes(ev.EffectRemoved)
def _effect_removed(line: _Line, event: ev.EffectRemoved) -> str | None:
    return f"{line.words.card(event.mouse)} is no longer {event.effect}"


@_describes(ev.TileFlipped)
def _tile_flipped(line: _Line, event: ev.TileFlipped) -> str | None:
    return f"The board is turned over: {line.lib.tiles[event.to].name}"


@_describes(ev.RoomEntered)
def _room_entered(line: _Line, event: ev.RoomEntered) -> str | None:
    return f"The mice enter {line.lib.tiles[event.tile].name}"


@_describes(ev.EncounterRevealed)
def _encounter_revealed(line: _Line, event: ev.EncounterRevealed) -> str | None:
    return f"Encounter {event.card.replace('-', ' ')} (page {event.page})"


# --- dice, shuffles, decisions and the end (core events) ----------------------------------------


@_describes(DiceRolled)
def _dice_rolled(line: _Line, event: DiceRolled) -> str | None:
    sides = 2 if event.reason in TWO_SIDED else 6
    rolled = ", ".join(face_text(f, sides=sides) for f in event.faces)
    return f"Rolled {rolled} for {reason_text(event.reason)}"


@_describes(CardsShuffled)
def _cards_shuffled(line: _Line, event: CardsShuffled) -> str | None:
    return f"Cards shuffled for {reason_text(event.reason)}"


@_describes(DecisionRequested)
def _decision_requested(line: _Line, event: DecisionRequested) -> str | None:
    words, options = line.words, event.options
    who = f"{words.card(event.piece)}: " if event.piece else ""
    more = " ..." if len(options) > 12 else ""
    among = ", ".join(words.thing(o) for o in options[:12])
    return f"{who}the players choose the {event.decision.replace('-', ' ')}: {among}{more}"


@_describes(DecisionMade)
def _decision_made(line: _Line, event: DecisionMade) -> str | None:
    who = "The default choice" if event.by == "policy" else f"Seat {event.by} chooses"
    return f"{who}: {line.words.thing(event.option)} ({event.decision.replace('-', ' ')})"


@_describes(ChoiceDeferred)
def _choice_deferred(line: _Line, event: ChoiceDeferred) -> str | None:
    return f"The players must break a tie before the {reason_text(event.context)} can go on"


@_describes(TieFound)
def _tie_found(line: _Line, event: TieFound) -> str | None:
    name, fig, count = line.words.card, line.words.figure, event.count
    if event.subject == "brodie":
        return f"Brodie has equally short paths toward {fig(event.toward or '')} ({count} movement left)"
    figures = f"{singular(name(event.subject))} figure" if count == 1 else f"{name(event.subject)} figures"
    return f"{count} {figures} to place on equally good minion entrances"


@_describes(ChoicesSettled)
def _choices_settled(line: _Line, event: ChoicesSettled) -> str | None:
    settled = ", ".join(line.words.thing(c) for c in event.choices)
    return f"Ties settled for the {reason_text(event.context)}: {settled}"


@_describes(GameEnded)
def _game_ended(line: _Line, event: GameEnded) -> str | None:
    return f"The chapter ends: {event.result}"


@_describes(*ITEM_EVENTS)
def _item(line: _Line, event: Event) -> str | None:
    """Free actions, ability cards and party items (``read_models_items``)."""
    return describe_item(line.words, event)


def hits_text(hits: int) -> str:
    """``1 hit``, ``3 hits``."""
    return f"{hits} hit" if hits == 1 else f"{hits} hits"


def wounds_text(wounds: int) -> str:
    """``1 wound``, ``2 wounds``."""
    return f"{wounds} wound" if wounds == 1 else f"{wounds} wounds"
