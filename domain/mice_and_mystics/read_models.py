"""Read-model views (used by ``projections/``) and game-log lines."""

from __future__ import annotations

from msgspec import Struct

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


def describe(state: State, event: Event) -> str | None:
    """One English log line for ``event`` (``state`` is the state after it), or ``None``: in players' words
    (``words.Words``): figures, spaces, cards and dice faces by their printed names, never content ids."""
    lib = library_of(state)
    words = Words(lib, state.figures)
    name, fig, at, card = words.card, words.figure, words.space, words.card

    match event:
        case CrowDived(figure=figure, space=space):
            return f"The nasty old crow dives on {fig(figure)} on {at(space)}: 1 wound, no defence"
        case CounterCheesePlaced(count=count):
            return f"{count} cheese on the Kitchen counter"
        case CounterCheeseTaken(count=count, figure=figure):
            return f"{fig(figure)} takes {count} cheese from the Kitchen counter to the minion cheese wheel"
        case MizMaggieSwatted(mouse=mouse):
            return f"Miz Maggie's broom knocks {name(mouse)} down; the roach is back on the counter"
        case StoryAchievementGained(achievement=achievement):
            return f"Story achievement: {words.thing(achievement)}"
        case ChapterStoryRead(part=part, text=text):
            heading = "The story continues" if part == "story-continues" else "Read aloud"
            return f"{heading}: {story_text(text)}"
        case RoomTilePlaced(tile=tile):
            return f"{lib.tiles[tile].name} is placed"
        case FigurePlaced(figure=figure, card=card_id, space=space):
            return (
                f"{fig(figure)} is placed on {at(space)}"
                if figure != card_id
                else f"{name(card_id)} starts on {at(space)}"
            )
        case StoryBoardPrepared(hourglass_page=h, end_marker_page=e):
            return f"Hourglass on page {h}, chapter end marker on page {e}"
        case ShuffleRequested(reason="initiative"):
            return "Initiative cards are shuffled"
        case InitiativeTrackLaid(cards=cards):
            return "Initiative track: " + ", ".join(name(c) for c in cards)
        case CheeseGained(mouse=mouse, count=count, reason=reason):
            return f"{name(mouse)} gains {count} cheese ({reason_text(reason)})"
        case RoundStarted(round=number):
            return f"Round {number} begins"
        case TurnStarted(card=card_id):
            return f"{possessive(lib, card_id)} turn"
        case RollRequested(reason="move", piece=piece) if piece:
            return f"{name(piece)} rolls for movement"
        case MovementPointsGained(mouse=mouse, die_number=n, move_value=v, points=p):
            return f"{name(mouse)} may move {p} ({n} rolled + move {v})"
        case MouseMoved(mouse=mouse, path=path, cost=cost):
            if not path:  # a charmed mouse that cannot or need not move (MM rulebook (it) §Stregato)
                return f"{name(mouse)} stays where it is"
            spaces = "space" if len(path) == 1 else "spaces"
            return f"{name(mouse)} moves {len(path)} {spaces} to {at(path[-1])} (cost {cost})"
        case MinionTurnPassed(card=card_id, reason=reason):
            return f"{name(card_id)} do nothing: {reason}"
        case InitiativeCardsSwapped(card=card_id, other=other, reason=reason):
            return f"{name(card_id)} move above {name(other)} ({reason_text(reason)})"
        case TurnEnded(card=card_id):
            return f"{possessive(lib, card_id)} turn ends"
        case ev.ActionStarted(mouse=mouse, action=action):
            return f"{name(mouse)} takes the {action} action"
        case ev.AttackDeclared(attacker=a, target=t, ranged=ranged, dice=dice):
            kind = "ranged" if ranged else "melee"
            return f"{fig(a)} attacks {fig(t)} ({kind}, {dice} {'die' if dice == 1 else 'dice'})"
        case ev.AttackRolled(attacker=a, hits=hits):
            return f"{fig(a)} scores {hits_text(hits)}"
        case ev.AttackResolved(target=t, hits=0):
            return f"The attack on {fig(t)} scores no hit"
        case (
            ev.AttackResolved(target=t, hits=hits, blocks=blocks)
            | ev.DefenseResolved(target=t, hits=hits, blocks=blocks)
        ):
            # the wounds (or the cheese a roach steals instead) have their own lines
            return f"{fig(t)} blocks {blocks} of {hits_text(hits)}"
        case ev.MinionWounded(figure=figure, wounds=wounds):
            return f"{fig(figure)} takes {wounds_text(wounds)}"
        case ev.CheeseStolen(mouse=mouse, figure=figure, count=count, to_wheel=to_wheel):
            where = "onto the minion cheese wheel" if to_wheel else "and discards it"
            return f"{fig(figure)} steals {count} cheese from {name(mouse)} {where}"
        case ev.EndMarkerMoved(page=page, reason=reason):
            return f"The chapter end marker moves on to page {page} ({words.thing(reason)}): more time"
        case ev.CheeseAddedToWheel(count=count, reason=reason):
            return f"{count} cheese on the minion cheese wheel ({reason_text(reason)}): {state.cheese_wheel}"
        case ev.CheeseTakenFromWheel(mouse=mouse, count=count, reason=reason):
            return (
                f"{name(mouse)} takes {count} cheese off the minion cheese wheel ({reason_text(reason)}): "
                f"{state.cheese_wheel}"
            )
        case ev.CheeseWheelEmptied():
            return "The minion cheese wheel is emptied"
        case ev.MinionDefeated(figure=figure):
            return f"{fig(figure)} is defeated"
        case ev.InitiativeCardRemoved(card=card_id):
            return f"{name(card_id)} leave the initiative track"
        case ev.InitiativeCardsAdded(cards=cards) | ev.InitiativeTrackReshuffled(cards=cards):
            return "Initiative track: " + ", ".join(name(c) for c in state.track)
        case ev.MouseWounded(mouse=mouse, wounds=wounds):
            return f"{name(mouse)} takes {wounds_text(wounds)}"
        case ev.MouseCaptured(mouse=mouse):
            return f"{name(mouse)} is captured"
        case ev.MouseReleased(mouse=mouse, space=space):
            return f"{name(mouse)} is released on {at(space)}"
        case ev.MouseTurnSkipped(mouse=mouse, reason=reason):
            return f"{name(mouse)} does nothing: {reason}"
        case ev.HourglassAdvanced(page=page, reason=reason):
            return f"The hourglass moves to page {page} ({reason_text(reason)})"
        case ev.MinionMoved(figure=figure, path=path, reason=reason):
            return (
                f"{fig(figure)} moves to {at(path[-1])}"
                if path
                else f"{fig(figure)} stays ({reason or 'cannot get closer'})"
            )
        case ev.MinionAttackSkipped(figure=figure, reason=reason):
            return f"{fig(figure)} does not attack: {reason}"
        case ev.SearchSucceeded(mouse=mouse) | ev.SearchFailed(mouse=mouse):
            found = "finds something" if isinstance(event, ev.SearchSucceeded) else "finds nothing"
            return f"{name(mouse)} {found}"
        case ev.SearchCardKept(mouse=mouse, card=card_id):
            return f"{name(mouse)} keeps {card(card_id)}"
        case ev.SearchCardDiscarded(mouse=mouse, card=card_id):
            return f"{name(mouse)} discards {card(card_id)} for 1 cheese"
        case ev.EffectRemoved(mouse=mouse, effect=effect):
            return f"{name(mouse)} is no longer {effect}"
        case ev.TileFlipped(to=to):
            return f"The board is turned over: {lib.tiles[to].name}"
        case ev.RoomEntered(tile=tile):
            return f"The mice enter {lib.tiles[tile].name}"
        case ev.EncounterRevealed(card=card_id, page=page):
            return f"Encounter {card_id.replace('-', ' ')} (page {page})"
        case DiceRolled(reason=reason, faces=faces):
            sides = 2 if reason in TWO_SIDED else 6
            rolled = ", ".join(face_text(f, sides=sides) for f in faces)
            return f"Rolled {rolled} for {reason_text(reason)}"
        case CardsShuffled(reason=reason):
            return f"Cards shuffled for {reason_text(reason)}"
        case DecisionRequested(decision=decision, options=options, piece=piece):
            who = f"{name(piece)}: " if piece else ""
            more = " ..." if len(options) > 12 else ""
            among = ", ".join(words.thing(o) for o in options[:12])
            return f"{who}the players choose the {decision.replace('-', ' ')}: {among}{more}"
        case DecisionMade(decision=decision, option=option, by=by):
            who = "The default choice" if by == "policy" else f"Seat {by} chooses"
            return f"{who}: {words.thing(option)} ({decision.replace('-', ' ')})"
        case ChoiceDeferred(context=context):
            return f"The players must break a tie before the {reason_text(context)} can go on"
        case TieFound(subject="brodie", count=count, toward=toward):
            return f"Brodie has equally short paths toward {fig(toward or '')} ({count} movement left)"
        case TieFound(subject=subject, count=count):
            figures = f"{singular(name(subject))} figure" if count == 1 else f"{name(subject)} figures"
            return f"{count} {figures} to place on equally good minion entrances"
        case ChoicesSettled(context=context, choices=choices):
            settled = ", ".join(words.thing(c) for c in choices)
            return f"Ties settled for the {reason_text(context)}: {settled}"
        case StartingAbilityTaken(mouse=mouse, ability=ability, chosen_in=chosen_in):
            where = " (chosen in the game's setup)" if chosen_in == "setup" else ""
            return f"{name(mouse)} takes the ability card {card(ability)}{where}"
        case GameEnded(result=result):
            return f"The chapter ends: {result}"
        case _ if isinstance(event, ITEM_EVENTS):
            return describe_item(words, event)
        case _:
            return None


def hits_text(hits: int) -> str:
    """``1 hit``, ``3 hits``."""
    return f"{hits} hit" if hits == 1 else f"{hits} hits"


def wounds_text(wounds: int) -> str:
    """``1 wound``, ``2 wounds``."""
    return f"{wounds} wound" if wounds == 1 else f"{wounds} wounds"
