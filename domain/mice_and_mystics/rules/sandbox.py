"""A sandbox table: a game set up from an explicit ``Sandbox`` document instead of the chapter's
setup (docs/architecture.md, Content is data: "a sandbox to teach, test, or reconstruct a disputed table").

``check_sandbox`` refuses anything the table could not hold, with ``RuleBroken("setup.*")``:
unknown tile, tile number, space, mouse or minion card; two faces of one board, or two tiles on one
cell; a space not on a placed tile; a party mouse placed twice or not at all; a full space (MM rulebook (it)
§Condividere le Caselle); a minion on the tree entrance (MM rulebook (it) §Capitolo 1); wounds that would
capture or defeat; a track that is not exactly the mice and minion cards on the table, or a turn
given to a card not on it; an
hourglass at or past the end marker; unknown deck cards; poison wounds beyond a mouse's wounds; a
search card on the table twice, in a pack over its limit or equipped where it cannot be (MM rulebook (it)
§Equipaggiare). ``sandbox_begin`` then emits the same
kinds of setup events as a chapter (``RoomTilePlaced``, ``FigurePlaced``, ``StoryBoardPrepared``,
``DecksPrepared``, the initiative shuffle or the given track), so the game goes on as any other.
"""

from __future__ import annotations

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import CardsShuffled, Event, ShuffleRequested
from dicelog.domain.mice_and_mystics.chapter_events import (
    RoomsMarkedExplored,
    RoomsMarkedSearched,
    SearchDeckCardTaken,
)
from dicelog.domain.mice_and_mystics.content import Library
from dicelog.domain.mice_and_mystics.documents import Sandbox, SandboxFigure, SandboxTile
from dicelog.domain.mice_and_mystics.events import (
    BossCardsAssigned,
    CheeseAddedToWheel,
    CheeseGained,
    DecksPrepared,
    EffectAdded,
    EncounterRevealed,
    FigurePlaced,
    MinionWounded,
    MousetrapsSet,
    MouseWounded,
    RoomTilePlaced,
    StoryBoardPrepared,
    TurnStarted,
)
from dicelog.domain.mice_and_mystics.evolve import evolve_all
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import sections
from dicelog.domain.mice_and_mystics.rules.bosses import BOSSES
from dicelog.domain.mice_and_mystics.rules.cards import loadout, over_limit
from dicelog.domain.mice_and_mystics.rules.equip import EQUIP_SECTION, equip_one
from dicelog.domain.mice_and_mystics.rules.graph import can_enter
from dicelog.domain.mice_and_mystics.rules.initiative import resolve_initiative
from dicelog.domain.mice_and_mystics.rules.placement import next_figure_id
from dicelog.domain.mice_and_mystics.state import State


def _refuse(rule: str, detail: str, section: str = sections.SETUP) -> RuleBroken:
    return RuleBroken(f"setup.{rule}", section=section, detail=detail)


def tile_id(lib: Library, tile: SandboxTile) -> str:
    if isinstance(tile.tile, int):
        found = next((t.id for t in lib.tiles.values() if t.number == tile.tile), None)
        if found is None:
            raise _refuse("unknown-tile", f"no room tile number {tile.tile}")
        return found
    if tile.tile not in lib.tiles:
        raise _refuse("unknown-tile", f"no room tile {tile.tile!r}")
    return tile.tile


def _boss_cards(figure: SandboxFigure) -> tuple[str, ...]:
    """A sandbox boss's cards in play. Errors: ``setup.boss`` (no such boss, or cards that are not 2 of
    its own, or all of them for a boss with at most 2; MM rulebook (it) §Carte Iniziativa dei Boss)."""
    own = BOSSES.get(figure.boss or "")
    if own is None:
        raise _refuse("boss", f"no boss {figure.boss!r}: one of {sorted(BOSSES)}", sections.BOSS_CARDS)
    cards = figure.boss_cards or (own if len(own) <= 2 else ())
    if len(cards) != min(2, len(own)) or len(set(cards)) != len(cards) or not set(cards) <= set(own):
        want = "2 of" if len(own) > 2 else "all of"
        raise _refuse(
            "boss", f"{figure.boss} plays {want} {list(own)}, not {list(cards)}", sections.BOSS_CARDS
        )
    if figure.wounds or figure.poison or figure.effects:
        raise _refuse("boss", f"{figure.boss} starts with no wounds or effects on a sandbox table")
    return tuple(cards)


def _figure_card(lib: Library, figure: SandboxFigure, party: tuple[str, ...]) -> str:
    if sum(x is not None for x in (figure.mouse, figure.card, figure.boss)) != 1:
        raise _refuse("figure", f"a figure on {figure.space} needs exactly one of mouse, card or boss")
    if figure.boss is not None:
        return _boss_cards(figure)[0]
    if figure.mouse is not None:
        if figure.mouse not in lib.mice:
            raise _refuse("unknown-mouse", f"no mouse {figure.mouse!r}")
        if figure.mouse not in party:
            raise _refuse("mouse-not-in-party", f"{figure.mouse} is not one of the setup's mice")
        if figure.wounds >= lib.mice[figure.mouse].lives:
            raise _refuse("wounds", f"{figure.mouse} would be captured")
        return figure.mouse
    if figure.card not in lib.minions:
        raise _refuse("unknown-card", f"no minion card {figure.card!r}")
    if figure.wounds >= lib.minions[figure.card].lives:
        raise _refuse("wounds", f"a {figure.card} figure would be defeated")
    return figure.card


def _effects(figure: SandboxFigure, name: str, mouse: bool, size: str) -> list[Event]:
    """``EffectAdded`` for each of the figure's ``effects``. Errors: ``setup.effect`` (an effect
    twice; on a minion anything but knocked-down, or knocked-down on a large one, MM rulebook (it)
    §Atterrato)."""
    if len(set(figure.effects)) != len(figure.effects):
        raise _refuse("effect", f"{name}: an effect is given twice", sections.NEGATIVE_EFFECTS)
    for effect in figure.effects:
        if not mouse and (effect != "knocked-down" or size != "small"):
            raise _refuse("effect", f"{name} cannot be {effect}", sections.NEGATIVE_EFFECTS)
    return [EffectAdded(mouse=name, effect=e) for e in figure.effects]


def _mousetraps(lib: Library, spaces: tuple[str, ...], on_table: set[str]) -> MousetrapsSet:
    """``MousetrapsSet`` for armed tokens on ``spaces``. Errors: ``setup.mousetrap`` (not a red-X
    space, not on the table, or given twice; MM rulebook (it) §Trappole per Topi)."""
    if len(set(spaces)) != len(spaces):
        raise _refuse("mousetrap", "a mousetrap space is given twice", "MM rulebook (it) §Trappole per Topi")
    for space in spaces:
        known = lib.spaces.get(space)
        if known is None or known.kind != "mousetrap" or lib.space_tile[space] not in on_table:
            raise _refuse(
                "mousetrap",
                f"{space} is not a mousetrap space on the table",
                "MM rulebook (it) §Trappole per Topi",
            )
    return MousetrapsSet(spaces=tuple(spaces))


def sandbox_events(game: State, sandbox: Sandbox) -> list[Event]:
    """Validate the sandbox and return its setup events up to the decks (no initiative yet), for
    ``game``'s chapter, party and content (a state with nothing on the table yet)."""
    lib, party, chapter = library_of(game), game.party, game.chapter
    state = State(
        chapter=chapter,
        party=party,
        content_pack=game.content_pack,
        content_pack_digest=game.content_pack_digest,
    )
    events: list[Event] = []
    boards, cells = set(), set()
    for placed in sandbox.tiles:
        tile = tile_id(lib, placed)
        board = frozenset({tile, lib.tiles[tile].reverse})
        if board in boards or (placed.column, placed.row) in cells:
            raise _refuse(
                "tile-overlap",
                f"{tile}: its board or its cell ({placed.column}, {placed.row}) is already used",
            )
        boards.add(board)
        cells.add((placed.column, placed.row))
        events.append(RoomTilePlaced(tile=tile, column=placed.column, row=placed.row))
    on_table = {e.tile for e in events if isinstance(e, RoomTilePlaced)}
    state = evolve_all(state, events)
    for figure in sandbox.figures:
        card = _figure_card(lib, figure, party)
        if figure.space not in lib.spaces:
            raise _refuse("unknown-space", f"no space {figure.space!r}")
        if lib.space_tile[figure.space] not in on_table:
            raise _refuse("space-not-on-table", f"{figure.space} is not on a room tile on the table")
        size = lib.minions[card].size if card in lib.minions else "small"
        if not can_enter(state, figure.space, size):
            raise _refuse("space-full", f"{figure.space} is full", sections.SHARING)
        if card in lib.minions and lib.spaces[figure.space].feature == "tree-entrance":
            raise _refuse(
                "minion-on-tree-entrance", "minions may not enter the tree entrance", sections.CHAPTER_1
            )
        name = card if card in party else figure.boss or next_figure_id(state, card)
        if name in state.figures:
            raise _refuse("mouse-placed-twice", f"{name} is placed twice")
        placed_events: list[Event] = [FigurePlaced(figure=name, card=card, space=figure.space)]
        if figure.boss is not None:
            placed_events.append(BossCardsAssigned(figure=figure.boss, cards=_boss_cards(figure)))
        if figure.poison and (card not in party or figure.poison > figure.wounds):
            raise _refuse(
                "poison",
                f"{name}: poison wounds are a mouse's, at most its wounds",
                "MM rulebook (it) §Avvelenato",
            )
        if figure.wounds:
            wounded = (
                MouseWounded(mouse=name, wounds=figure.wounds, poison=figure.poison)
                if card in party
                else MinionWounded(figure=name, wounds=figure.wounds)
            )
            placed_events.append(wounded)
        placed_events += _effects(figure, name, card in party, size)
        state = evolve_all(state, placed_events)
        events += placed_events
    if sandbox.mousetraps:
        events.append(_mousetraps(lib, sandbox.mousetraps, on_table))
    laid_out = len(events)
    missing = [m for m in party if m not in state.figures]
    if missing:
        raise _refuse("mouse-not-placed", f"every party mouse needs a space: {missing}")
    if sandbox.hourglass_page >= sandbox.end_marker_page:
        raise _refuse("hourglass", "the hourglass must be before the end marker", sections.STORY_BOARD)
    events.append(
        StoryBoardPrepared(hourglass_page=sandbox.hourglass_page, end_marker_page=sandbox.end_marker_page)
    )
    events += _decks(lib, sandbox, chapter)
    face_up = sandbox.encounter_face_up
    if face_up is not None:
        deck = next(e for e in events if isinstance(e, DecksPrepared)).encounter_deck
        if face_up not in lib.encounters or face_up in deck:
            raise _refuse("encounter-face-up", f"{face_up} is not an encounter card out of the deck")
        events.append(EncounterRevealed(card=face_up, page=sandbox.hourglass_page))
    if sandbox.cheese_wheel:
        events.append(CheeseAddedToWheel(count=sandbox.cheese_wheel, reason="sandbox"))
    for mouse, n in sorted(sandbox.mouse_cheese.items()):
        if mouse not in party:
            raise _refuse("mouse-not-in-party", f"cheese for {mouse}, not in the party")
        if n:
            events.append(CheeseGained(mouse=mouse, count=n, reason="sandbox"))
    explored = on_table if sandbox.explored is None else set(sandbox.explored)
    unknown = sorted(explored - set(lib.tiles))
    if unknown:
        raise _refuse("unknown-tile", f"explored: no room tile {unknown}")
    events.append(RoomsMarkedExplored(tiles=tuple(sorted(explored))))
    return events + _belongings(lib, sandbox, evolve_all(state, events[laid_out:]))


def _belongings(lib: Library, sandbox: Sandbox, state: State) -> list[Event]:
    """The rooms each mouse has searched, the cards in its pack and what it has equipped, on ``state`` (the
    sandbox table with its decks): ``RoomsMarkedSearched``, then per mouse ``SearchDeckCardTaken`` for each
    card and ``SearchCardEquipped`` for each equipped one. Errors: ``setup.mouse-not-in-party``,
    ``setup.unknown-tile``, ``setup.unknown-card``, ``setup.card-twice``, ``setup.equipped`` (a card the
    mouse may not equip there, MM rulebook (it) §Equipaggiare) and ``setup.pack-limit`` (more than 3 cards
    that take room in a pack once the equipped cards displaced what they replace)."""
    party = state.party
    strangers = sorted({*sandbox.searched, *sandbox.packs, *sandbox.equipped} - set(party))
    if strangers:
        raise _refuse("mouse-not-in-party", f"searched, packs or equipped of {strangers}, not in the party")
    events: list[Event] = []
    for mouse in party:
        tiles = tuple(dict.fromkeys(sandbox.searched.get(mouse, ())))
        unknown = sorted(set(tiles) - set(lib.tiles))
        if unknown:
            raise _refuse("unknown-tile", f"searched by {mouse}: no room tile {unknown}", sections.SEARCH)
        if tiles:
            events.append(RoomsMarkedSearched(mouse=mouse, tiles=tiles))
    given = [*(c for cards in sandbox.packs.values() for c in cards)]
    given += [e.card for cards in sandbox.equipped.values() for e in cards]
    twice = sorted({c for c in given if given.count(c) > 1})
    if twice:
        raise _refuse("card-twice", f"search cards on the table twice: {twice}")
    strangers = sorted(set(given) - {*lib.items, *getattr(lib, "search_cards", {}), "tinkerers-treasure"})
    if strangers:
        raise _refuse("unknown-card", f"not search cards: {strangers}")
    for mouse in party:
        events += [
            SearchDeckCardTaken(mouse=mouse, card=c, reason="sandbox") for c in sandbox.packs.get(mouse, ())
        ]
        for equipped in sandbox.equipped.get(mouse, ()):
            events.append(SearchDeckCardTaken(mouse=mouse, card=equipped.card, reason="sandbox"))
            now = evolve_all(state, events)
            try:
                event = equip_one(
                    lib, mouse, now.pack.get(mouse, ()), loadout(now, mouse), equipped.card, equipped.slot
                )
            except RuleBroken as refused:
                raise _refuse("equipped", f"{mouse}: {refused.detail}", EQUIP_SECTION) from None
            events.append(event)
    over = over_limit(evolve_all(state, events))
    if over is not None:
        raise _refuse("pack-limit", f"{over}'s pack holds more than 3 cards that take room", EQUIP_SECTION)
    return events


def _decks(lib: Library, sandbox: Sandbox, chapter_id: str) -> list[Event]:
    chapter = lib.chapters[chapter_id]
    search = chapter.search_deck if sandbox.search_deck is None else sandbox.search_deck
    known = {*chapter.search_deck, *lib.items, *getattr(lib, "search_cards", {}), "tinkerers-treasure"}
    strangers = sorted(set(search) - known)
    if strangers:
        raise _refuse("unknown-card", f"not search cards: {strangers}")
    encounters = chapter.encounter_deck if sandbox.encounter_deck is None else sandbox.encounter_deck
    strangers = sorted(set(encounters) - set(lib.encounters))
    if strangers:
        raise _refuse("unknown-card", f"not encounter cards: {strangers}")
    return [
        DecksPrepared(
            encounter_deck=tuple(encounters), search_deck=tuple(search), provisional_reason="sandbox"
        )
    ]


def sandbox_begin(state: State, sandbox: Sandbox) -> list[Event]:
    """The sandbox's setup events, then the given initiative track (or the initiative shuffle)."""
    events = sandbox_events(state, sandbox)
    after = evolve_all(state, events)
    bosses = [c for cards in after.boss_cards.values() for c in cards]
    minions = (c for f, c in after.figures.items() if c not in state.party and f not in after.boss_cards)
    cards = tuple(dict.fromkeys([*state.party, *minions, *bosses]))
    if sandbox.turn is not None and (sandbox.track is None or sandbox.turn not in sandbox.track):
        raise _refuse("turn", f"{sandbox.turn} is not a card of the given track", sections.ROUNDS)
    if sandbox.track is None:
        return [*events, ShuffleRequested(reason="initiative", cards=cards)]
    if sorted(sandbox.track) != sorted(cards):
        raise _refuse("track", f"the initiative track must hold exactly {sorted(cards)}", sections.INITIATIVE)
    laid = resolve_initiative(after, CardsShuffled(reason="initiative", order=sandbox.track, source="manual"))
    slot = sandbox.track.index(sandbox.turn) if sandbox.turn is not None else 0
    # the cards above have played this round: the turn goes to this one (MM rulebook (it) §Round di Gioco)
    if slot and sandbox.turn is not None:  # slot 0 unless the turn is given
        laid.append(TurnStarted(card=sandbox.turn, slot=slot))
    return events + laid
