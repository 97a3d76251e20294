"""Explore and encounters (MM rulebook (it) §Esplorare; MM rulebook (it) §Incontri; MM rulebook (it)
§Determinare l'Ordine di Iniziativa).

Not while minions are in the mouse's room. Through an exit: the mouse stands on a space next to
it, and the tile beside that side of the room has an aligned exit (opposite side) of the same
colour, on the face of that board whose colour matches (the board is flipped if needed). By a flip
space: the room's board is turned over. Every mouse of the room is then placed on the spaces next to
the new room's exit (or its flip space), overflowing to adjacent spaces. A room entered for the
first time draws an encounter card (a hidden draw): its band for the hourglass page places minions
in the room, then initiative (no minion card on the track: the whole track is shuffled again; else
only new cards are added). The card stays face up and sets the next summon. A placement tie the
players break (MM rulebook (it) §Collocare i Servitori sul Tabellone) defers the encounter until answered
(``rules/ties.py``, context ``encounter``, the drawn card recorded): it is then re-run.
"""

from __future__ import annotations

from dicelog.domain.core.commands import Command
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import CardsDrawn, CardsShuffled, DrawRequested, Event, ShuffleRequested
from dicelog.domain.mice_and_mystics.commands import Explore
from dicelog.domain.mice_and_mystics.content import Library
from dicelog.domain.mice_and_mystics.events import (
    ActionStarted,
    EncounterRevealed,
    FigurePlaced,
    InitiativeTrackReshuffled,
    RoomEntered,
    TileFlipped,
)
from dicelog.domain.mice_and_mystics.evolve import evolve, evolve_all
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import keywords, party_items, sections
from dicelog.domain.mice_and_mystics.rules.actions import can_act, check_action
from dicelog.domain.mice_and_mystics.rules.graph import can_enter, is_minion, mouse_neighbours
from dicelog.domain.mice_and_mystics.rules.initiative import born_to_lead
from dicelog.domain.mice_and_mystics.rules.summoning import encounter_band, new_cards_step, place_groups
from dicelog.domain.mice_and_mystics.rules.ties import ENCOUNTER, Choices, settle
from dicelog.domain.mice_and_mystics.state import State, board_space, space_of

ENCOUNTER_INITIATIVE = "encounter-initiative"
OFFSET = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def _room_of(state: State, mouse: str) -> str:
    return library_of(state).space_tile[board_space(state, mouse)]


def flip_class_allowed(lib: Library, mouse: str, space: str) -> bool:
    """Whether ``mouse`` is of a class that may explore by the flip space ``space``: any mouse when
    the space names no class (``Space.flip_classes``), else a mouse of one of them (MM rulebook (it)
    §Esplorare: "Una casella di Rotazione con questo simbolo può essere Esplorata solamente da un Fabbro o da
    un Furfante" — the Pipes' flip space, Tinkerer or Scamp)."""
    classes = lib.spaces[space].flip_classes
    return not classes or bool(set(classes) & set(lib.mice[mouse].classes))


def destination(state: State, mouse: str, via: str) -> tuple[str, str, tuple[str, ...]] | None:
    """(board now on the table, face to enter, spaces to land on) for exploring ``via``, or ``None``.

    ``via`` is an exit side (``"N"``, ``"E"``, ``"S"``, ``"W"``) or ``"flip"``. A flip space needs
    its party item (``Space.flip_requires``) and a mouse of one of its classes (``flip_class_allowed``)."""
    lib, here = library_of(state), board_space(state, mouse)
    tile = lib.tiles[lib.space_tile[here]]
    if via == "flip":
        space = lib.spaces[here]
        if space.kind != "flip" or (
            space.flip_requires and not party_items.holds(state, space.flip_requires)
        ):
            return None
        if not flip_class_allowed(lib, mouse, here):
            return None
        other = lib.tiles[tile.reverse]
        return tile.id, other.id, tuple(s.id for s in other.spaces if s.kind == "flip")
    exit_ = next((e for e in tile.exits if e.side == via and here in e.spaces), None)
    placed = next((p for p in state.tiles if p.tile == tile.id), None)
    if placed is None:  # a figure left on a board that was turned over (rules revision 1): no way out
        return None
    dx, dy = OFFSET[via]
    beside = next(
        (p for p in state.tiles if (p.column, p.row) == (placed.column + dx, placed.row + dy)), None
    )
    if exit_ is None or beside is None:
        return None
    face = lib.tiles[beside.tile]
    face = face if face.side == tile.side else lib.tiles[face.reverse]
    aligned = next((e for e in face.exits if e.side == OPPOSITE[via] and e.colour == exit_.colour), None)
    return (beside.tile, face.id, aligned.spaces) if aligned is not None else None


def _land(state: State, mice: list[str], spaces: tuple[str, ...]) -> list[Event]:
    events: list[Event] = []
    lib = library_of(state)
    order = [*spaces, *sorted({o for s in spaces for o, _ in mouse_neighbours(lib, s)} - set(spaces))]
    for mouse in mice:
        space = next(s for s in order if can_enter(state, s, "small", ignoring=mouse))
        event = FigurePlaced(figure=mouse, card=mouse, space=space)
        state = evolve(state, event)
        events.append(event)
    return events


def blocked_by(state: State, via: str, board: str, face: str) -> list[str]:
    """The figures standing on the board an Explore by an exit must turn over (``board`` shows another
    face than ``face``), which from rules revision 3 refuse it (``explore.board-occupied``); ``[]`` when the
    board is not turned, by a flip space (the mice's own room: they land on its other face), or before
    revision 3."""
    if via == "flip" or board == face or state.rules_revision < 3:
        return []
    return sorted(f for sp in library_of(state).tiles[board].spaces for f in state.board.get(sp.id, ()))


def decide_explore(state: State, cmd: Explore) -> list[Event]:
    """``ActionStarted``, ``TileFlipped`` if the board turns, the room's mice placed
    (``FigurePlaced``), ``RoomEntered``, and for a room never explored the encounter draw
    (``DrawRequested`` reason ``encounter``) (MM rulebook (it) §Esplorare).

    Errors: the action rules (``check_action``); ``explore.minions-in-room``; ``explore.flip-class``
    (a flip space only some classes may explore by); ``explore.no-way`` (no aligned exit, not on a
    flip space, or the flip space's party item not held); from rules revision 3
    ``explore.board-occupied``: the board of the room entered must be turned over (MM rulebook (it)
    §Esplorare, "ruotate il tabellone della Stanza di arrivo") while figures stand on it, which no source
    settles (provisional; docs/mice-and-mystics/rulings.md)."""
    check_action(state, cmd.mouse, "explore")
    lib = library_of(state)
    room = _room_of(state, cmd.mouse)
    if any(is_minion(state, f) for s in lib.tiles[room].spaces for f in state.board.get(s.id, ())):
        raise RuleBroken(
            "explore.minions-in-room", section=sections.EXPLORE, detail="minions are in the room"
        )
    here = space_of(state, cmd.mouse)
    on_flip = cmd.via == "flip" and here is not None and lib.spaces[here].kind == "flip"
    if on_flip and here is not None and not flip_class_allowed(lib, cmd.mouse, here):
        detail = f"only a {' or '.join(lib.spaces[here].flip_classes)} may explore by {here}"
        raise RuleBroken("explore.flip-class", section=sections.EXPLORE, detail=detail)
    found = destination(state, cmd.mouse, cmd.via)
    if found is None:
        raise RuleBroken(
            "explore.no-way",
            section=sections.EXPLORE,
            detail=f"no aligned exit or usable flip space via {cmd.via}",
        )
    board, face, spaces = found
    standing = blocked_by(state, cmd.via, board, face)
    if standing:
        raise RuleBroken(
            "explore.board-occupied",
            section=sections.EXPLORE,
            detail=f"the board to turn over ({lib.tiles[board].name}) has figures on it: "
            + ", ".join(standing),
        )
    events: list[Event] = [ActionStarted(mouse=cmd.mouse, action="explore")]
    if board != face:
        events.append(TileFlipped(tile=board, to=face))
    party = [m for m in state.party if space_of(state, m) is not None and _room_of(state, m) == room]
    after = evolve_all(state, events)
    events += _land(after, party, spaces)
    start = lib.space_tile[lib.chapters[state.chapter].start_space]
    first = face not in state.explored and face != start
    events.append(RoomEntered(tile=face, first=first))
    if first and state.encounter_deck:
        events.append(
            DrawRequested(reason="encounter", deck="encounter", cards=tuple(sorted(state.encounter_deck)))
        )
    return events


def resolve_encounter_draw(state: State, answer: CardsDrawn) -> list[Event]:
    """The drawn encounter card (MM rulebook (it) §Incontri): ``EncounterRevealed``, its minions placed in the
    mouse's room, keywords, initiative; or, at a placement tie not yet answered, only the deferral
    and the decision (``ties.settle``, context ``encounter``)."""
    return settle(state, ENCOUNTER, lambda choices: _encounter(state, answer, choices), answer)


def _encounter(state: State, answer: CardsDrawn, choices: Choices) -> list[Event]:
    card, page = answer.cards[0], state.hourglass_page
    room = _room_of(state, state.mouse_turn.mouse) if state.mouse_turn else None
    events: list[Event] = [EncounterRevealed(card=card, page=page)]
    before = state.track
    if room is not None:
        minions, disguised = party_items.disguise(state, encounter_band(library_of(state), card, page))
        events += disguised + place_groups(evolve_all(state, disguised), minions, room, choices)
    after = evolve_all(state, events)
    marked = keywords.on_encounter(after, card, page, room)
    after = evolve_all(after, marked)
    events += marked
    if not any(c not in state.party for c in before):
        cards = tuple(
            dict.fromkeys(
                [
                    *(c for c in before if c in state.party),
                    *sorted(set(after.figures.values()) - set(state.party)),
                ]
            )
        )
        return events + (
            [ShuffleRequested(reason=ENCOUNTER_INITIATIVE, cards=cards)] if len(cards) > len(before) else []
        )
    return events + new_cards_step(after, before)


def resolve_encounter_initiative(state: State, answer: CardsShuffled) -> list[Event]:
    """The whole track laid again in the shuffled order (MM rulebook (it) §Determinare l'Ordine di Iniziativa,
    no minion card on the track): ``InitiativeTrackReshuffled``, then Collin's Born to Lead
    (``initiative.born_to_lead``: 1 cheese if his card is laid below the first slot)."""
    return [InitiativeTrackReshuffled(cards=answer.order), *born_to_lead(answer.order)]


def legal_explores(state: State, mouse: str) -> list[Command]:
    if not can_act(state, mouse, "explore"):
        return []
    room = _room_of(state, mouse)
    spaces = library_of(state).tiles[room].spaces
    if any(is_minion(state, f) for s in spaces for f in state.board.get(s.id, ())):
        return []
    return [
        Explore(mouse=mouse, via=v)
        for v in ("N", "E", "S", "W", "flip")
        if (found := destination(state, mouse, v)) is not None and not blocked_by(state, v, *found[:2])
    ]
