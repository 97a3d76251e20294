"""``evolve(state, event) -> state``: apply one event to Vast's state. Never validates, never fails for a
stored event.

One handler per event type, looked up by ``type(event)`` in ``HANDLERS``, built once at import by
``@_on(...)`` (as Mice and Mystics' ``evolve``). ``CardsDrawn`` goes on to the handler of its deck
(``_DRAWN``). An event type with no handler (another ruleset's, a core event other than ``CardsDrawn`` and
``DecisionRequested``) leaves the state unchanged; a handler whose precondition does not hold (e.g. no
Knight) returns the state unchanged. No event class subclasses another; a subclass would still get the
handler of its nearest registered base (``dicelog.domain.core.dispatch.ByEventType``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from msgspec.structs import replace

from dicelog.domain.core.dispatch import ByEventType
from dicelog.domain.core.events import CardsDrawn, DecisionRequested, Event
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.cave import edge, parse_pos
from dicelog.domain.vast.rules.common import cells_by_pos, is_crystal
from dicelog.domain.vast.state import (
    TRIBES,
    CaveCell,
    CaveRole,
    DragonRole,
    GoblinsRole,
    KnightRole,
    ThiefRole,
    Tribe,
    VastState,
    player_of,
)

Handler = Callable[[VastState, Any], VastState]
EVOLVE: ByEventType[VastState, VastState] = ByEventType("handler", lambda state, event: state)
"""The handler of each event type (``dicelog.domain.core.dispatch``); an unknown type leaves the state
unchanged."""
HANDLERS = EVOLVE.handlers
_on = EVOLVE.on


def evolve(state: VastState, event: Event) -> VastState:
    """Apply ``event`` to ``state`` (see the module docstring)."""
    return EVOLVE(state, event)


def fold(state: VastState, events: Iterable[Event]) -> VastState:
    """``state`` after each of ``events`` in turn (``evolve``)."""
    for event in events:
        state = EVOLVE(state, event)  # ``evolve``, one call less per event
    return state


def _without(items: tuple[str, ...], gone: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    left = list(items)
    for item in gone:
        if item in left:
            left.remove(item)
    return tuple(left)


def _pop(state: VastState, step: str) -> VastState:
    if step and state.todo and state.todo[0] == step:
        return replace(state, todo=state.todo[1:])
    return state


def _cell(state: VastState, x: int, y: int, **changes: object) -> VastState:
    return replace(
        state, cells=tuple(replace(c, **changes) if (c.x, c.y) == (x, y) else c for c in state.cells)
    )


def _knight(state: VastState, **changes: object) -> VastState:
    return state if state.knight is None else replace(state, knight=replace(state.knight, **changes))


def _cave(state: VastState, **changes: object) -> VastState:
    return state if state.cave is None else replace(state, cave=replace(state.cave, **changes))


def _gob(state: VastState, **changes: object) -> VastState:
    return state if state.goblins is None else replace(state, goblins=replace(state.goblins, **changes))


def _dragon(state: VastState, **changes: object) -> VastState:
    return state if state.dragon is None else replace(state, dragon=replace(state.dragon, **changes))


def _thief(state: VastState, **changes: object) -> VastState:
    return state if state.thief is None else replace(state, thief=replace(state.thief, **changes))


def _hit_resolved(state: VastState) -> VastState:
    """The first ``thief-hit`` step leaves ``todo`` (the attack on the Thief is resolved)."""
    todo = list(state.todo)
    hit = next((s for s in todo if s.startswith("thief-hit:")), None)
    if hit is not None:
        todo.remove(hit)
    return replace(state, todo=tuple(todo))


def _gems_back(state: VastState, gems: tuple[str, ...]) -> VastState:
    d = state.dragon
    return state if d is None or not gems else _dragon(state, gems=tuple(sorted((*d.gems, *gems))))


def _tile_gone(state: VastState, x: int, y: int) -> VastState:
    """The tile at ``x``, ``y`` leaves the map (the Collapse, Wrath): Rockslides on its edges go back to the
    Cave (Vast rulebook §Presagi, Frana), Bombs leave the game, its Treasure tokens go back to the Cave, its
    Gems to the Dragon, a Tribe on it to the Goblins' board (docs/vast/rulings.md)."""
    cell = cells_by_pos(state).get((x, y))
    state = replace(state, cells=tuple(c for c in state.cells if (c.x, c.y) != (x, y)))
    gone = {edge((x, y), s) for s in "NESW"}
    back = sum(1 for e in state.rockslides if e in gone)
    state = replace(
        state,
        rockslides=tuple(e for e in state.rockslides if e not in gone),
        bombs=tuple(e for e in state.bombs if e not in gone),
    )
    if cell is not None:
        state = _gems_back(state, cell.gems)
        if state.cave is not None:
            cave = state.cave
            state = _cave(state, supply=cave.supply + cell.treasure, rockslides=cave.rockslides + back)
    if state.goblins is not None:
        for t in state.goblins.tribes:
            if (t.x, t.y) == (x, y) and not t.lurking:
                state = _tribe(state, t.name, x=None, y=None)
    th = state.thief
    if th is not None and (th.x, th.y) == (
        x,
        y,
    ):  # docs/vast/rulings.md: he falls with it and comes back as killed
        state = _gems_back(state, th.gems)
        if state.cave is not None:
            state = _cave(state, supply=state.cave.supply + th.carried)
        state = _thief(state, x=None, y=None, carried=0, gems=())
    return state


def groups(cells: set[tuple[int, int]]) -> list[set[tuple[int, int]]]:
    """The map's groups of tiles touching orthogonally, the Entrance's first, then by their first tile."""
    left, out = set(cells), []
    while left:
        start = (0, 0) if (0, 0) in left else min(left)
        group, todo = {start}, [start]
        while todo:
            x, y = todo.pop()
            for nxt in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)):
                if nxt in left and nxt not in group:
                    group.add(nxt)
                    todo.append(nxt)
        out.append(group)
        left -= group
    return out


def _slid(state: VastState, moved: set[tuple[int, int]], dx: int, dy: int) -> VastState:
    """Every tile of ``moved`` and what is on it shifted by ``dx``, ``dy`` (``MapGroupSlid``)."""

    def shift(pos: tuple[int, int]) -> tuple[int, int]:
        return (pos[0] + dx, pos[1] + dy) if pos in moved else pos

    def edge_kept(e: tuple[int, int, str]) -> bool:
        a = (e[0], e[1])
        b = (e[0] + 1, e[1]) if e[2] == "E" else (e[0], e[1] + 1)
        return (a in moved) == (b in moved)

    def edge_shift(e: tuple[int, int, str]) -> tuple[int, int, str]:
        x, y = shift((e[0], e[1]))
        return x, y, e[2]

    cells = tuple(replace(c, x=c.x + dx, y=c.y + dy) if (c.x, c.y) in moved else c for c in state.cells)
    lost = sum(1 for e in state.rockslides if not edge_kept(e))
    state = replace(
        state,
        cells=cells,
        rockslides=tuple(edge_shift(e) for e in state.rockslides if edge_kept(e)),
        bombs=tuple(edge_shift(e) for e in state.bombs if edge_kept(e)),
    )
    if lost and state.cave is not None:  # Vast rulebook §Presagi, Frana: back to the Cave's supply
        state = _cave(state, rockslides=state.cave.rockslides + lost)
    k = state.knight
    if k is not None and (k.x, k.y) in moved:
        state = _knight(state, x=k.x + dx, y=k.y + dy)
    d = state.dragon
    if d is not None and d.x is not None and d.y is not None:
        x, y = shift((d.x, d.y))
        wall = shift(d.flame_wall) if d.flame_wall is not None else None
        state = _dragon(state, x=x, y=y, flame_wall=wall)
    if state.goblins is not None:
        for t in state.goblins.tribes:
            if t.x is not None and t.y is not None and not t.lurking and (t.x, t.y) in moved:
                state = _tribe(state, t.name, x=t.x + dx, y=t.y + dy)
    th = state.thief
    if th is not None and th.x is not None and th.y is not None and (th.x, th.y) in moved:
        state = _thief(state, x=th.x + dx, y=th.y + dy)
    return state


def _collapse_steps(state: VastState, tiles: tuple[tuple[int, int], ...]) -> tuple[str, ...]:
    """The steps of tiles Wrath or Cave-In collapse, one each, then ``reunite`` when their fall splits the
    map before the Collapse (rules revision 3: Vast rulebook §Il Collasso, §Esempio #1 and #2)."""
    steps = tuple(f"collapse:{x},{y}" for x, y in tiles)
    left = {(c.x, c.y) for c in state.cells} - set(tiles)
    if state.rules_revision >= 3 and not state.collapse and len(groups(left)) > 1:
        steps = (*steps, "reunite")
    return steps


def _ruby_lost(state: VastState) -> VastState:
    """A Tribe reached Population 0: a face-up Goblin Ruby is discarded (docs/vast/facts.md §3 Secrets
    cards)."""
    gob = state.goblins
    if gob is None or "goblin-ruby" not in gob.face_up:
        return state
    state = _gob(state, face_up=_without(gob.face_up, ["goblin-ruby"]))
    return replace(state, secrets_discard=(*state.secrets_discard, "goblin-ruby"))


def _tribe(state: VastState, name: str, **changes: object) -> VastState:
    gob = state.goblins
    if gob is None:
        return state
    tribes = tuple([replace(t, **changes) if t.name == name else t for t in gob.tribes])
    return replace(state, goblins=replace(gob, tribes=tribes))


def _tribe_of(state: VastState, name: str) -> Tribe | None:
    gob = state.goblins
    return None if gob is None else next((t for t in gob.tribes if t.name == name), None)


def _add_unique(items: tuple[tuple[int, int], ...], pos: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    return items if pos in items else (*items, pos)


@_on(ev.RolesSeated)
def _roles_seated(state: VastState, event: ev.RolesSeated) -> VastState:
    roles, sidequests, variants = event.roles, event.sidequests, event.variants
    return replace(
        state,
        roles=roles,
        knight=(state.knight or KnightRole()) if "knight" in roles else None,
        cave=(state.cave or CaveRole()) if "cave" in roles else None,
        goblins=(state.goblins or GoblinsRole()) if "goblins" in roles else None,
        dragon=(state.dragon or DragonRole()) if "dragon" in roles else None,
        thief=(state.thief or ThiefRole()) if "thief" in roles else None,
        sidequest_deck=tuple(sorted(sidequests)),
        variants=variants,
        begun=True,
    )


@_on(ev.StackBuilt)
def _stack_built(state: VastState, event: ev.StackBuilt) -> VastState:
    piles, crystals, vaults = event.piles, event.pile_crystals, event.pile_vaults
    return replace(state, piles=piles, pile_crystals=crystals, pile_vaults=vaults)


def _tiles_drawn(state: VastState, event: CardsDrawn) -> VastState:
    reason, cards = event.reason, event.cards
    if reason == "setup-entrance":
        return replace(state, stack=_without(state.stack, cards))
    pile = next((i for i, n in enumerate(state.piles) if n > 0), None)
    pile_tiles, pile_crystals = list(state.piles), list(state.pile_crystals)
    pile_vaults = list(state.pile_vaults)
    for card in cards:
        if pile is not None:
            pile_tiles[pile] -= 1
            if is_crystal(card):
                pile_crystals[pile] -= 1
            if card in state.vaults and pile < len(pile_vaults):
                pile_vaults[pile] -= 1
    state = replace(
        state,
        stack=_without(state.stack, cards),
        crystals=_without(state.crystals, cards),
        vaults=_without(state.vaults, cards),
        piles=tuple(pile_tiles),
        pile_crystals=tuple(pile_crystals),
        pile_vaults=tuple(pile_vaults),
    )
    if state.cave is not None:
        state = _cave(state, hand=tuple(sorted((*state.cave.hand, *cards))))
    return state


def _sidequests_drawn(state: VastState, event: CardsDrawn) -> VastState:
    k = state.knight
    cards = event.cards
    state = replace(
        state,
        sidequest_deck=_without(state.sidequest_deck, cards),
        sidequest_top=_without(state.sidequest_top, cards),
    )
    return state if k is None else _knight(state, sidequests=tuple(sorted((*k.sidequests, *cards))))


def _treasure_drawn(state: VastState, event: CardsDrawn) -> VastState:
    return replace(state, treasure_deck=_without(state.treasure_deck, event.cards))


def _events_drawn(state: VastState, event: CardsDrawn) -> VastState:
    if event.reason == "event-top":  # the cards come up on top of the deck, for the Cave to read
        return replace(state, event_top=(*state.event_top, *event.cards))
    return replace(state, event_deck=_without(state.event_deck, event.cards))


def _monsters_drawn(state: VastState, event: CardsDrawn) -> VastState:
    """``monsters`` and ``infestation`` draws."""
    deck, cards, reason = event.deck, event.cards, event.reason
    if reason.endswith("-reshuffled"):
        state = replace(state, monster_deck=(*state.monster_deck, *state.monster_discard), monster_discard=())
    state = replace(state, monster_deck=tuple(sorted(_without(state.monster_deck, cards))))
    # docs/vast/facts.md §7 Goblin Infestation, line C: the Monster ambushing the Knight
    if deck == "infestation":
        return replace(state, ambusher=cards[0]) if cards else state
    return state if state.goblins is None else _gob(state, drawn=(*state.goblins.drawn, *cards))


def _secrets_drawn(state: VastState, event: CardsDrawn) -> VastState:
    cards, reason = event.cards, event.reason
    if reason.endswith("-reshuffled"):
        state = replace(state, secrets_deck=(*state.secrets_deck, *state.secrets_discard), secrets_discard=())
    state = replace(state, secrets_deck=tuple(sorted(_without(state.secrets_deck, cards))))
    return state if state.goblins is None else _gob(state, hand=tuple(sorted((*state.goblins.hand, *cards))))


def _omens_drawn(state: VastState, event: CardsDrawn) -> VastState:
    state = replace(state, omen_bag=_without(state.omen_bag, event.cards))
    if state.cave is not None:
        state = _cave(state, omens=tuple(sorted((*state.cave.omens, *event.cards))))
    return state


def _power_drawn(state: VastState, event: CardsDrawn) -> VastState:
    d = state.dragon
    return state if d is None else _dragon(state, hand=tuple(sorted((*d.hand, *event.cards))))


# The handler of each deck's draw; a deck not here (``war``: its cards are the offer of the
# ``ruby:war`` / ``war-choice`` decision) leaves the state unchanged.
_DRAWN: dict[str, Handler] = {
    "tiles": _tiles_drawn,
    "sidequests": _sidequests_drawn,
    "treasure": _treasure_drawn,
    "events": _events_drawn,
    "monsters": _monsters_drawn,
    "infestation": _monsters_drawn,
    "secrets": _secrets_drawn,
    "omens": _omens_drawn,
    "power": _power_drawn,
}


@_on(CardsDrawn)
def _cards_drawn(state: VastState, event: CardsDrawn) -> VastState:
    drawn = _DRAWN.get(event.deck)
    return state if drawn is None else drawn(state, event)


@_on(DecisionRequested)
def _decision_requested(state: VastState, event: DecisionRequested) -> VastState:
    decision, options = event.decision, event.options
    if decision in ("treasure-choice", "event-choice", "war-choice"):
        return replace(state, offer=options, offer_to="goblins" if decision == "war-choice" else "cave")
    if decision == "ruby:war":  # the War cards drawn, kept or not
        return replace(state, offer=options[1:], offer_to="goblins")
    return state


@_on(ev.VastRoundStarted)
def _vast_round_started(state: VastState, event: ev.VastRoundStarted) -> VastState:
    n = event.round
    return replace(state, round=n, phase="play")


@_on(ev.VastTurnStarted)
def _vast_turn_started(state: VastState, event: ev.VastTurnStarted) -> VastState:
    k = state.knight
    role = event.role
    state = replace(state, turn=role, phase="play", turn_over=False, ending=False)
    if event.as_laid:  # a sandbox's turn as laid: its per-turn fields are the table's
        return state
    if role == "knight" and k is not None:
        state = _knight(
            state,
            placed={},
            moves=0,
            encounters=0,
            stage=3,
            walls_crossed=0,
            bomb_used=False,
            bow_used=False,
            dragon_attacks=0,
            enchanted_bow_used=False,
            flare_used=False,
            spaces=(),
            encounter_spaces=(),
            tokens_taken=0,
            ambushes=0,
            unhurt_ambushes=0,
            feats=(),
        )
    if role == "cave" and state.cave is not None:
        state = _cave(state, placed=0, treasure_placed=False, hatred=0, past_plunder=0)
    if role == "dragon" and state.dragon is not None:
        state = _dragon(state, moved=False, still=True, advanced=(), gems_used=(), stage=0)
    if role == "thief" and state.thief is not None:
        state = _thief(
            state,
            assigned=False,
            cubes=0,
            moves=0,
            moving_done=False,
            targeted=(),
            vaults_tried=(),
            sticky_used=False,
        )
    # Unnatural Evasion: the first attack of each turn (Vast rulebook §Migliorie)
    if state.thief is not None:
        state = _thief(state, evaded=False)
    if state.thief is not None and role == "goblins":  # Hex lasts until the Goblins' next turn
        state = _thief(state, hexed=0)
    return state


@_on(ev.VastTurnEnded)
def _vast_turn_ended(state: VastState, event: ev.VastTurnEnded) -> VastState:
    todo = state.todo[1:] if state.todo[:1] and state.todo[0].startswith("end-turn:") else state.todo
    return replace(state, turn=None, turn_over=False, ending=False, todo=todo)


@_on(ev.TurnEnding)
def _turn_ending(state: VastState, event: ev.TurnEnding) -> VastState:
    role, steps = event.role, event.steps
    return replace(state, ending=True, todo=(*state.todo, *steps, f"end-turn:{role}"))


@_on(ev.StepPassed)
def _step_passed(state: VastState, event: ev.StepPassed) -> VastState:
    step = event.step
    return _pop(state, step)


@_on(ev.DarkTilePlaced)
def _dark_tile_placed(state: VastState, event: ev.DarkTilePlaced) -> VastState:
    x, y, tile, symbol, by, own_turn, step = (
        event.x,
        event.y,
        event.tile,
        event.symbol,
        event.by,
        event.own_turn,
        event.step,
    )
    new_cell = CaveCell(x=x, y=y, tile=tile, symbol=symbol)
    state = replace(_pop(state, step), cells=(*state.cells, new_cell))
    # Vast rulebook §Rivelare: a tile placed under a lurking Tribe reveals it
    if state.goblins is not None:
        for tribe in state.goblins.tribes:
            if tribe.lurking and (tribe.x, tribe.y) == (x, y):
                state = _tribe(state, tribe.name, lurking=False)
    if by == "cave" and state.cave is not None:
        cave = state.cave
        state = _cave(state, hand=_without(cave.hand, [tile]), placed=cave.placed + (1 if own_turn else 0))
    return state


@_on(ev.TileRevealed)
def _tile_revealed(state: VastState, event: ev.TileRevealed) -> VastState:
    x, y, tile, step, mode, rotation = event.x, event.y, event.tile, event.step, event.mode, event.rotation
    state = _pop(state, step)
    state = _cell(state, x, y, tile=tile, lit=True, rotation=rotation or 0)
    follow = [f"resolve:{x},{y}:{mode}"]
    if mode in ("full", "vantage"):
        follow.append("grit:1:reveal")
    return replace(state, revealed=state.revealed + 1, todo=(*follow, *state.todo))


@_on(ev.TileOriented)
def _tile_oriented(state: VastState, event: ev.TileOriented) -> VastState:
    x, y, rotation = event.x, event.y, event.rotation
    return _cell(state, x, y, rotation=rotation)


@_on(ev.TileResolved)
def _tile_resolved(state: VastState, event: ev.TileResolved) -> VastState:
    x, y, step, treasure, crystal, vault = (
        event.x,
        event.y,
        event.step,
        event.treasure,
        event.crystal,
        event.vault,
    )
    state = _pop(state, step)
    cell = cells_by_pos(state).get((x, y))
    if cell is not None:
        state = _cell(
            state,
            x,
            y,
            treasure=cell.treasure + treasure,
            crystal=cell.crystal or crystal,
            vault=cell.vault or vault,
        )
    return state


@_on(ev.GritChanged)
def _grit_changed(state: VastState, event: ev.GritChanged) -> VastState:
    k = state.knight
    delta, step = event.delta, event.step
    state = _pop(state, step)
    return state if k is None else _knight(state, grit=max(0, min(45, k.grit + delta)))


@_on(ev.HeroCubeReturned)
def _hero_cube_returned(state: VastState, event: ev.HeroCubeReturned) -> VastState:
    k = state.knight
    target = event.target
    if k is None:
        return state
    placed = dict(k.placed)
    placed[target] = placed.get(target, 0) - 1
    if placed[target] <= 0:
        del placed[target]
    state = _knight(state, placed=placed)
    return replace(state, turn_over=state.turn == "knight")


@_on(ev.KnightMoved)
def _knight_moved(state: VastState, event: ev.KnightMoved) -> VastState:
    k = state.knight
    x, y, through, forced = event.x, event.y, event.through_wall, event.forced
    if k is None:
        return state
    # docs/vast/facts.md §3 Poison: her cubes back on entering the Entrance
    if (x, y) == (0, 0) and k.poisoned:
        state = _knight(state, poisoned=0)
        k = state.knight or k
    if forced:
        return _knight(state, x=x, y=y, stage=3)
    return _knight(
        state,
        x=x,
        y=y,
        moves=k.moves + 1,
        walls_crossed=k.walls_crossed + (1 if through else 0),
        stage=3,
        spaces=_add_unique(k.spaces, (x, y)),
    )


@_on(ev.HeroCubePlaced)
def _hero_cube_placed(state: VastState, event: ev.HeroCubePlaced) -> VastState:
    k = state.knight
    target = event.target
    if k is None:
        return state
    return _knight(state, placed={**k.placed, target: k.placed.get(target, 0) + 1})


@_on(ev.EncounterBegun)
def _encounter_begun(state: VastState, event: ev.EncounterBegun) -> VastState:
    k = state.knight
    x, y, attack = event.x, event.y, event.attack
    if k is None:
        return state
    state = _knight(
        state,
        encounters=k.encounters + 1,
        stage=0,
        encounter_spaces=_add_unique(k.encounter_spaces, (x, y)),
    )
    return replace(state, todo=(*state.todo, f"knight-attack:{x},{y}")) if attack else state


@_on(ev.CrystalSmashed)
def _crystal_smashed(state: VastState, event: ev.CrystalSmashed) -> VastState:
    k = state.knight
    x, y = event.x, event.y
    state = _cell(state, x, y, crystal=False)
    state = replace(state, smashed_total=state.smashed_total + 1)
    return state if k is None else _knight(state, smashed=k.smashed + 1, stage=1)


@_on(ev.TreasureTokenTaken)
def _treasure_token_taken(state: VastState, event: ev.TreasureTokenTaken) -> VastState:
    k = state.knight
    x, y, count, gems = event.x, event.y, event.count, event.gems
    state = _cell(state, x, y, treasure=0)
    gem_steps = tuple(f"gem:{g}:{x},{y}" for g in gems)
    if state.cave is not None:
        state = _cave(state, supply=state.cave.supply + count)
    if k is not None:
        state = _knight(state, tokens_taken=k.tokens_taken + count, stage=2)
    return replace(state, todo=(*(["treasure"] * count), *gem_steps, *state.todo))


@_on(ev.TreasureOffered)
def _treasure_offered(state: VastState, event: ev.TreasureOffered) -> VastState:
    card, bottom = event.card, event.bottom
    gone = [card, *bottom]
    return replace(
        state,
        treasure_deck=_without(state.treasure_deck, gone),
        treasure_bottom=(*_without(state.treasure_bottom, gone), *bottom),
        offer=(card,),
        offer_to="knight",  # she and the Cave see the card given (visibility.py)
    )


@_on(ev.TreasureKept)
def _treasure_kept(state: VastState, event: ev.TreasureKept) -> VastState:
    k = state.knight
    card, step = event.card, event.step
    state = replace(_pop(state, step), offer=())
    return state if k is None else _knight(state, treasures=tuple(sorted((*k.treasures, card))))


@_on(ev.TreasureDeclined)
def _treasure_declined(state: VastState, event: ev.TreasureDeclined) -> VastState:
    step = event.step
    return replace(_pop(state, step), offer=())


@_on(ev.TreasureUsed)
def _treasure_used(state: VastState, event: ev.TreasureUsed) -> VastState:
    k = state.knight
    card, heal = event.card, event.heal
    if k is None:
        return state
    if card == "javelin":  # Vast rulebook §Tesori, Giavellotto: used once, then out of the game
        return _knight(state, treasures=_without(k.treasures, [card]), face_up=_without(k.face_up, [card]))
    if card == "potion-kit":
        return _knight(
            state,
            treasures=_without(k.treasures, [card]),
            face_up=_without(k.face_up, [card]),
            health=min(k.max_health, k.health + heal),
        )
    if card in k.treasures:
        return _knight(state, treasures=_without(k.treasures, [card]), face_up=(*k.face_up, card))
    return state


@_on(ev.EventPlayed)
def _event_played(state: VastState, event: ev.EventPlayed) -> VastState:
    card, bottom, reveals = event.card, event.bottom, event.reveals
    gone = [card, *bottom]
    steps = tuple(f"reveal:{x},{y}:vantage" for x, y in reveals)
    return replace(
        state,
        event_deck=_without(state.event_deck, gone),
        event_top=_without(state.event_top, gone),
        event_bottom=(*_without(state.event_bottom, gone), *bottom),
        offer=(),
        todo=(*steps, *state.todo),
    )


@_on(ev.HealthChanged)
def _health_changed(state: VastState, event: ev.HealthChanged) -> VastState:
    k = state.knight
    delta = event.delta
    return state if k is None else _knight(state, health=max(0, min(k.max_health, k.health + delta)))


@_on(ev.HeroCubeDiscarded)
def _hero_cube_discarded(state: VastState, event: ev.HeroCubeDiscarded) -> VastState:
    k = state.knight
    spent, placed_on = event.spent, event.placed_on
    if k is None:
        return state
    if spent:
        return _knight(state, placed={**k.placed, "spent": k.placed.get("spent", 0) + 1})
    if placed_on and k.placed.get(placed_on):  # a placed cube leaves its target for the Discarded space
        placed = {**k.placed, placed_on: k.placed[placed_on] - 1}
        placed = {t: n for t, n in placed.items() if n > 0}
        return _knight(state, discarded=k.discarded + 1, placed=placed)
    return _knight(state, discarded=k.discarded + 1)


@_on(ev.HeroCubeRecovered)
def _hero_cube_recovered(state: VastState, event: ev.HeroCubeRecovered) -> VastState:
    k = state.knight
    return state if k is None else _knight(state, discarded=k.discarded - 1)


@_on(ev.VastAmbushResolved)
def _vast_ambush_resolved(state: VastState, event: ev.VastAmbushResolved) -> VastState:
    k = state.knight
    hurt, step = event.hurt, event.step
    state = _pop(state, step)
    if k is None:
        return state
    return _knight(state, ambushes=k.ambushes + 1, unhurt_ambushes=k.unhurt_ambushes + (0 if hurt else 1))


@_on(ev.InfestationMonsterPlaced)
def _infestation_monster_placed(state: VastState, event: ev.InfestationMonsterPlaced) -> VastState:
    card, to = event.card, event.to
    aside = _without(state.infestation_aside, [card])
    if to != "discard":
        aside = (*aside, card)
    return replace(
        state,
        ambusher="" if card == state.ambusher else state.ambusher,
        infestation_aside=aside,
        monster_discard=(*state.monster_discard, card) if to == "discard" else state.monster_discard,
    )


@_on(ev.TreasureCardDiscarded)
def _treasure_card_discarded(state: VastState, event: ev.TreasureCardDiscarded) -> VastState:
    k = state.knight
    card = event.card
    if k is None:
        return state
    state = _knight(state, treasures=_without(k.treasures, [card]), face_up=_without(k.face_up, [card]))
    return replace(state, treasure_bottom=(*state.treasure_bottom, card))


@_on(ev.SidequestCompleted)
def _sidequest_completed(state: VastState, event: ev.SidequestCompleted) -> VastState:
    k = state.knight
    card = event.card
    if k is None:
        return state
    return _knight(state, sidequests=_without(k.sidequests, [card]), completed=(*k.completed, card))


@_on(ev.BombPlaced)
def _bomb_placed(state: VastState, event: ev.BombPlaced) -> VastState:
    k = state.knight
    x, y, side = event.x, event.y, event.side
    state = replace(state, bombs=(*state.bombs, edge((x, y), side)))
    return state if k is None else _knight(state, bombs=k.bombs - 1, bomb_used=True)


@_on(ev.FlareUsed)
def _flare_used(state: VastState, event: ev.FlareUsed) -> VastState:
    k = state.knight
    name = event.tribe
    if name:
        return state if state.goblins is None else _gob(state, flared=(*state.goblins.flared, name))
    return state if k is None else _knight(state, flare_used=True)


@_on(ev.FlareHit)
def _flare_hit(state: VastState, event: ev.FlareHit) -> VastState:
    reveals, by = event.reveals, event.by
    mode = {"goblins": "goblin-flare", "thief": "thief-flare"}.get(by, "flare")
    steps = tuple(f"reveal:{x},{y}:{mode}" for x, y in reveals)
    return replace(state, todo=(*steps, *state.todo))


@_on(ev.OmenUsed)
def _omen_used(state: VastState, event: ev.OmenUsed) -> VastState:
    omen, paid = event.omen, event.paid
    if state.cave is None:
        return state
    cave = replace(state.cave, omens=_without(state.cave.omens, paid))
    if omen == "hatred":
        cave = replace(cave, hatred=cave.hatred + 1)
    if omen == "past-plunder":
        cave = replace(cave, past_plunder=cave.past_plunder + 1)
    return replace(state, cave=cave, omen_bag=tuple(sorted((*state.omen_bag, *paid))))


@_on(ev.RockslidePlaced)
def _rockslide_placed(state: VastState, event: ev.RockslidePlaced) -> VastState:
    x, y, side = event.x, event.y, event.side
    state = replace(state, rockslides=(*state.rockslides, edge((x, y), side)))
    # Vast rulebook §Equipaggiamento, Bomba: a Rockslide there removes the Bomb
    if state.rules_revision >= 3:
        state = replace(state, bombs=tuple(b for b in state.bombs if b != edge((x, y), side)))
    return state if state.cave is None else _cave(state, rockslides=state.cave.rockslides - 1)


@_on(ev.RockslideMoved)
def _rockslide_moved(state: VastState, event: ev.RockslideMoved) -> VastState:
    gone, x, y, side = event.from_edge, event.x, event.y, event.side
    kept = tuple(e for e in state.rockslides if e != tuple(gone))
    bombs = tuple(b for b in state.bombs if b != edge((x, y), side))
    return replace(state, rockslides=(*kept, edge((x, y), side)), bombs=bombs)


@_on(ev.CarriedByBats)
def _carried_by_bats(state: VastState, event: ev.CarriedByBats) -> VastState:
    x, y = event.x, event.y
    if event.target == "knight":
        state = _knight(state, poisoned=0) if (x, y) == (0, 0) else state  # docs/vast/facts.md §3 Poison
        return _knight(state, x=x, y=y, stage=3)
    fx, fy = event.from_x, event.from_y
    cells = cells_by_pos(state)
    from_cell, to_cell = cells.get((fx, fy)), cells.get((x, y))
    if from_cell is not None and to_cell is not None:
        state = _cell(state, fx, fy, treasure=max(0, from_cell.treasure - 1))
        state = _cell(state, x, y, treasure=to_cell.treasure + 1)
    return state


@_on(ev.TileRotated)
def _tile_rotated(state: VastState, event: ev.TileRotated) -> VastState:
    x, y, rotation = event.x, event.y, event.rotation
    state = _cell(state, x, y, rotation=rotation)
    turned = {edge((x, y), s) for s in "NESW"}
    # Vast rulebook §Presagi, Frana: back to the supply
    back = sum(1 for e in state.rockslides if e in turned)
    state = replace(
        state,
        rockslides=tuple(e for e in state.rockslides if e not in turned),
        # Vast rulebook §Bomba: out of the game
        bombs=tuple(e for e in state.bombs if e not in turned),
    )
    return state if state.cave is None else _cave(state, rockslides=state.cave.rockslides + back)


@_on(ev.EventsSentToBottom)
def _events_sent_to_bottom(state: VastState, event: ev.EventsSentToBottom) -> VastState:
    cards = event.cards
    return replace(
        state,
        event_deck=_without(state.event_deck, cards),
        event_top=_without(state.event_top, cards),
        event_bottom=(*_without(state.event_bottom, cards), *cards),
    )


@_on(ev.TreasureTokenPlaced)
def _treasure_token_placed(state: VastState, event: ev.TreasureTokenPlaced) -> VastState:
    x, y, step = event.x, event.y, event.step
    state = _pop(state, step)
    cell = cells_by_pos(state).get((x, y))
    if cell is not None:
        state = _cell(state, x, y, treasure=cell.treasure + 1)
    if state.cave is not None:
        state = _cave(state, supply=state.cave.supply - 1, treasure_placed=True)
    return state


@_on(ev.MapGroupSlid)
def _map_group_slid(state: VastState, event: ev.MapGroupSlid) -> VastState:
    tiles, dx, dy, step = event.tiles, event.dx, event.dy, event.step
    return _slid(_pop(state, step), set(tiles), dx, dy)


@_on(ev.CollapseBegun)
def _collapse_begun(state: VastState, event: ev.CollapseBegun) -> VastState:
    return replace(state, collapse=True)


@_on(ev.TileRemoved)
def _tile_removed(state: VastState, event: ev.TileRemoved) -> VastState:
    x, y, crystal_tile, extra, step = event.x, event.y, event.crystal_tile, event.extra, event.step
    state = _tile_gone(_pop(state, step), x, y)
    if state.cave is not None and not extra:
        state = _cave(state, placed=state.cave.placed + 1)
    if crystal_tile:
        state = replace(state, crystal_tiles_collapsed=state.crystal_tiles_collapsed + 1)
    return state


@_on(ev.GoblinsPhaseBegun)
def _goblins_phase_begun(state: VastState, event: ev.GoblinsPhaseBegun) -> VastState:
    phase = event.phase
    gob = state.goblins
    if gob is None:
        return state
    if phase == "war":
        tribes = tuple(replace(t, activated=False, lit_left=0) for t in gob.tribes)
        return replace(
            state,
            goblins=replace(
                gob,
                phase=phase,
                tribes=tribes,
                war=None,
                fire_bomber=None,
                blind_fury=None,
                tunnels=False,
                crystal_attack=None,
                flared=(),
                poison_played=False,
                wisp_used=False,
                ruby_used=False,
                window="",
            ),
        )
    return _gob(state, phase=phase, window="")


@_on(ev.SecretsWindowClosed)
def _secrets_window_closed(state: VastState, event: ev.SecretsWindowClosed) -> VastState:
    return _gob(state, window=event.phase)


@_on(ev.WarCardChosen)
def _war_card_chosen(state: VastState, event: ev.WarCardChosen) -> VastState:
    card = event.card
    return replace(_gob(state, war=card), offer=())


@_on(ev.RageChanged)
def _rage_changed(state: VastState, event: ev.RageChanged) -> VastState:
    delta = event.delta
    gob = state.goblins
    return state if gob is None else _gob(state, rage=max(0, min(3, gob.rage + delta)))


@_on(ev.TribesPopulated)
def _tribes_populated(state: VastState, event: ev.TribesPopulated) -> VastState:
    added = event.added
    for name, more in zip(("fangs", "bones", "eye"), added, strict=True):
        t = _tribe_of(state, name)
        if t is not None and more:
            state = _tribe(state, name, population=min(4, t.population + more))
    return state


@_on(ev.TribeScattered)
def _tribe_scattered(state: VastState, event: ev.TribeScattered) -> VastState:
    name, loss, discarded = event.tribe, event.loss, event.discarded
    t = _tribe_of(state, name)
    if t is None:
        return state
    state = _tribe(
        state,
        name,
        x=None,
        y=None,
        lurking=False,
        population=max(0, t.population - loss),
        monsters=_without(t.monsters, discarded),
    )
    state = replace(state, monster_discard=(*state.monster_discard, *discarded))
    return _ruby_lost(state) if t.population > 0 and t.population - loss <= 0 else state


@_on(ev.PopulationLost)
def _population_lost(state: VastState, event: ev.PopulationLost) -> VastState:
    name, count = event.tribe, event.count
    t = _tribe_of(state, name)
    if t is None:
        return state
    state = _tribe(state, name, population=max(0, t.population - count))
    return _ruby_lost(state) if t.population > 0 and t.population - count <= 0 else state


@_on(ev.MonsterAssigned)
def _monster_assigned(state: VastState, event: ev.MonsterAssigned) -> VastState:
    card, name, replaced = event.card, event.tribe, event.replaced
    t = _tribe_of(state, name)
    gob = state.goblins
    if t is None or gob is None:
        return state
    monsters_kept = _without(t.monsters, [replaced]) if replaced else t.monsters
    state = _tribe(state, name, monsters=(*monsters_kept, card))
    state = _gob(state, drawn=_without(gob.drawn, [card]))
    return replace(state, monster_discard=(*state.monster_discard, *([replaced] if replaced else [])))


@_on(ev.MonsterDiscarded)
def _monster_discarded(state: VastState, event: ev.MonsterDiscarded) -> VastState:
    card = event.card
    gob = state.goblins
    state = state if gob is None else _gob(state, drawn=_without(gob.drawn, [card]))
    return replace(state, monster_discard=(*state.monster_discard, card))


@_on(ev.SecretDiscarded)
def _secret_discarded(state: VastState, event: ev.SecretDiscarded) -> VastState:
    card = event.card
    gob = state.goblins
    state = state if gob is None else _gob(state, hand=_without(gob.hand, [card]))
    return replace(state, secrets_discard=(*state.secrets_discard, card))


@_on(ev.SecretPlayed)
def _secret_played(state: VastState, event: ev.SecretPlayed) -> VastState:
    card, name = event.card, event.tribe
    gob = state.goblins
    if gob is None:
        return state
    state = _gob(state, hand=_without(gob.hand, [card]))
    if card in ("trap", "goblin-ruby"):
        state = _gob(state, face_up=(*gob.face_up, card))
    else:
        state = replace(state, secrets_discard=(*state.secrets_discard, card))
    if card == "fire-bomber":
        state = _gob(state, fire_bomber=name)
    if card == "blind-fury":
        state = _gob(state, blind_fury=name)
    if card == "secret-tunnels":
        state = _gob(state, tunnels=True)
    if card == "poison":
        state = _gob(state, poison_played=True)
    return state


@_on(ev.CaveInStruck)
def _cave_in_struck(state: VastState, event: ev.CaveInStruck) -> VastState:
    tiles = event.tiles
    return replace(state, todo=(*_collapse_steps(state, tiles), *state.todo))


@_on(ev.OmenDiscarded)
def _omen_discarded(state: VastState, event: ev.OmenDiscarded) -> VastState:
    token = event.token
    if state.cave is None:
        return state
    state = _cave(state, omens=_without(state.cave.omens, [token]))
    return replace(state, omen_bag=tuple(sorted((*state.omen_bag, token))))


@_on(ev.RubyRedrawn)
def _ruby_redrawn(state: VastState, event: ev.RubyRedrawn) -> VastState:
    deck, card = event.deck, event.card
    gob = state.goblins
    if gob is None:
        return state
    state = _gob(state, ruby_used=True)
    if deck == "monsters":
        state = _gob(state, drawn=_without(gob.drawn, [card]))
        return replace(state, monster_discard=(*state.monster_discard, card))
    if deck == "secrets":
        state = _gob(state, hand=_without(gob.hand, [card]))
        return replace(state, secrets_discard=(*state.secrets_discard, card))
    return replace(state, offer=_without(state.offer, [card]))  # a War card: out of this turn's draw


@_on(ev.WispUsed)
def _wisp_used(state: VastState, event: ev.WispUsed) -> VastState:
    return _gob(state, wisp_used=True)


@_on(ev.KnightPoisoned)
def _knight_poisoned(state: VastState, event: ev.KnightPoisoned) -> VastState:
    k = state.knight
    cubes = event.cubes
    state = state if state.goblins is None else _gob(state, poison_played=False)
    return state if k is None else _knight(state, poisoned=k.poisoned + cubes)


@_on(ev.TribeRevealed)
def _tribe_revealed(state: VastState, event: ev.TribeRevealed) -> VastState:
    name, x, y, lurking = event.tribe, event.x, event.y, event.lurking
    return _tribe(state, name, x=x, y=y, lurking=lurking)


@_on(ev.TribeMoved)
def _tribe_moved(state: VastState, event: ev.TribeMoved) -> VastState:
    name, x, y, lit_left = event.tribe, event.x, event.y, event.lit_left
    t = _tribe_of(state, name)
    return (
        state if t is None else _tribe(state, name, x=x, y=y, lurking=False, lit_left=t.lit_left + lit_left)
    )


@_on(ev.TribeActivated)
def _tribe_activated(state: VastState, event: ev.TribeActivated) -> VastState:
    name = event.tribe
    return _tribe(state, name, activated=True)


@_on(ev.TribeHidden)
def _tribe_hidden(state: VastState, event: ev.TribeHidden) -> VastState:
    name = event.tribe
    return _tribe(state, name, x=None, y=None, lurking=False)


@_on(ev.TribeAttackedCrystal)
def _tribe_attacked_crystal(state: VastState, event: ev.TribeAttackedCrystal) -> VastState:
    k = state.knight
    name, x, y, smashed = event.tribe, event.x, event.y, event.smashed
    if not smashed:
        return _gob(state, crystal_attack=(name, x, y))
    state = _cell(_gob(state, crystal_attack=None), x, y, crystal=False)
    state = replace(state, smashed_total=state.smashed_total + 1)
    if k is None:  # Vast rulebook §Attaccare: with no Knight, they keep it on their board
        return _gob(state, smashed=state.goblins.smashed + 1) if state.goblins is not None else state
    return _knight(state, smashed=k.smashed + 1)  # Vast rulebook: the token goes to her


@_on(ev.TribePlundered)
def _tribe_plundered(state: VastState, event: ev.TribePlundered) -> VastState:
    x, y = event.x, event.y
    cell = cells_by_pos(state).get((x, y))
    if cell is not None:
        state = _cell(state, x, y, treasure=max(0, cell.treasure - 1))
    return state if state.cave is None else _cave(state, supply=state.cave.supply + 1)


@_on(ev.KnightAttackedTribes)
def _knight_attacked_tribes(state: VastState, event: ev.KnightAttackedTribes) -> VastState:
    k = state.knight
    names, step = event.tribes, event.step
    state = _pop(state, step)
    gob = state.goblins
    # docs/vast/facts.md §3 Trap: spent on the first attack
    if gob is not None and "trap" in gob.face_up:
        state = replace(
            _gob(state, face_up=_without(gob.face_up, ["trap"])),
            secrets_discard=(
                *state.secrets_discard,
                "trap",
            ),
        )
    if k is None or gob is None:
        return state
    attacked = [t for t in gob.tribes if t.name in names]
    feats = set(k.feats)
    if any(t.monsters for t in attacked):
        feats.add("feat:daring")
    if any(t.population >= 3 for t in attacked):
        feats.add("feat:stalwart")
    if k.stage == 0:
        feats.add("feat:fearless")
    return _knight(state, feats=tuple(sorted(feats)))


@_on(ev.BowShot)
def _bow_shot(state: VastState, event: ev.BowShot) -> VastState:
    k = state.knight
    name, loss = event.tribe, event.loss
    t = _tribe_of(state, name)
    if t is not None:
        state = _tribe(state, name, population=max(0, t.population - loss))
    if k is not None:
        bow_feats = tuple(sorted({*k.feats, "feat:eagle-eyed"})) if loss > 0 else k.feats
        state = _knight(state, feats=bow_feats, bow_used=True)
    return state


# --- the Dragon ------------------------------------------------------------------------------


@_on(ev.DragonPlaced)
def _dragon_placed(state: VastState, event: ev.DragonPlaced) -> VastState:
    x, y = event.x, event.y
    return _dragon(state, x=x, y=y)


@_on(ev.DragonMoved)
def _dragon_moved(state: VastState, event: ev.DragonMoved) -> VastState:
    x, y, how = event.x, event.y, event.how
    d = state.dragon
    if d is None:
        return state
    if how == "forced":
        return _dragon(state, x=x, y=y)
    return _dragon(state, x=x, y=y, still=False, moved=d.moved or how == "free")


@_on(ev.PowerUsed)
def _power_used(state: VastState, event: ev.PowerUsed) -> VastState:
    power, cards, gems = event.power, event.cards, event.gems
    d = state.dragon
    if d is None:
        return state
    return _dragon(
        state,
        hand=_without(d.hand, cards),
        gems_used=(*d.gems_used, *gems),
        shriek=True if power == "shriek" else d.shriek,
    )


@_on(ev.SlothCubeMoved)
def _sloth_cube_moved(state: VastState, event: ev.SlothCubeMoved) -> VastState:
    source, target, why = event.source, event.target, event.why
    d = state.dragon
    if d is None:
        return state
    sloth = dict(d.sloth)
    if source in sloth:
        sloth[source] -= 1
    if target in sloth:
        sloth[target] += 1
    track = "pride" if source.startswith("pride") else source
    changes: dict[str, object] = {"sloth": sloth}
    if target == "wakefulness":
        changes["advanced"] = (*d.advanced, track)
    if why == "eaten":
        changes["eaten"] = max(0, d.eaten - 2)
    if why == "treasure":
        changes["held"] = max(0, d.held - 1)
    return _dragon(state, **changes)


@_on(ev.DragonAwoke)
def _dragon_awoke(state: VastState, event: ev.DragonAwoke) -> VastState:
    return _dragon(state, awake=True)


@_on(ev.DragonSurfaced)
def _dragon_surfaced(state: VastState, event: ev.DragonSurfaced) -> VastState:
    x, y, crystal = event.x, event.y, event.crystal
    state = _dragon(state, surfaced=True)
    return _cell(state, x, y, crystal=False) if crystal else state


@_on(ev.GoblinsEaten)
def _goblins_eaten(state: VastState, event: ev.GoblinsEaten) -> VastState:
    count = event.count
    d = state.dragon
    return state if d is None else _dragon(state, eaten=d.eaten + count)


@_on(ev.DragonTreasureTaken)
def _dragon_treasure_taken(state: VastState, event: ev.DragonTreasureTaken) -> VastState:
    x, y, count = event.x, event.y, event.count
    state = _cell(state, x, y, treasure=0)
    if state.cave is not None:
        state = _cave(state, supply=state.cave.supply + count)
    d = state.dragon
    return state if d is None else _dragon(state, held=d.held + count, stage=1)


@_on(ev.GemPlaced)
def _gem_placed(state: VastState, event: ev.GemPlaced) -> VastState:
    gem, x, y = event.gem, event.x, event.y
    d = state.dragon
    cell = cells_by_pos(state).get((x, y))
    if d is None or cell is None:
        return state
    state = _cell(state, x, y, gems=(*cell.gems, gem))
    return _dragon(state, gems=_without(d.gems, [gem]), stage=2)


@_on(ev.GemTaken)
def _gem_taken(state: VastState, event: ev.GemTaken) -> VastState:
    k = state.knight
    gem, x, y, by, step, from_dragon = event.gem, event.x, event.y, event.by, event.step, event.from_dragon
    state = _pop(state, step)
    if from_dragon:
        return state
    if by == "knight" and k is not None and "feat:cunning" not in k.feats:
        state = _knight(state, feats=(*k.feats, "feat:cunning"))
    cell = cells_by_pos(state).get((x, y))
    if cell is not None:
        state = _cell(state, x, y, gems=_without(cell.gems, [gem]))
    return _gems_back(state, (gem,))


@_on(ev.GemMoved)
def _gem_moved(state: VastState, event: ev.GemMoved) -> VastState:
    token, fx, fy, x, y = event.token, event.from_x, event.from_y, event.x, event.y
    src = cells_by_pos(state).get((fx, fy))
    if src is None:
        return state
    if token == "treasure":
        state = _cell(state, fx, fy, treasure=max(0, src.treasure - 1))
        dst = cells_by_pos(state).get((x, y))
        return state if dst is None else _cell(state, x, y, treasure=dst.treasure + 1)
    state = _cell(state, fx, fy, gems=_without(src.gems, [token]))
    dst = cells_by_pos(state).get((x, y))
    return state if dst is None else _cell(state, x, y, gems=(*dst.gems, token))


@_on(ev.PowerCardsDiscarded)
def _power_cards_discarded(state: VastState, event: ev.PowerCardsDiscarded) -> VastState:
    cards = event.cards
    d = state.dragon
    return state if d is None else _dragon(state, hand=_without(d.hand, cards))


@_on(ev.DragonAttacked)
def _dragon_attacked(state: VastState, event: ev.DragonAttacked) -> VastState:
    k = state.knight
    hit, bomb = event.hit, event.bomb
    if k is not None and state.turn == "knight":
        attack_feats = (*k.feats, "feat:daring") if hit and "feat:daring" not in k.feats else k.feats
        state = _knight(
            state,
            dragon_attacks=k.dragon_attacks + 1,
            bomb_used=k.bomb_used or bomb,
            feats=attack_feats,
            stage=1,
        )
    d = state.dragon
    if d is None or not hit:
        return state
    return _dragon(state, health=max(0, d.health - 1))


@_on(ev.PowerStruck)
def _power_struck(state: VastState, event: ev.PowerStruck) -> VastState:
    power, tiles = event.power, event.tiles
    if power in ("flame", "scorch", "burn"):
        steps = tuple(f"reveal:{x},{y}:dragon" for x, y in tiles)
    elif power == "wrath":
        steps = _collapse_steps(state, tiles)
    else:
        steps = ()
    return replace(state, todo=(*steps, *state.todo))


@_on(ev.DragonDied)
def _dragon_died(state: VastState, event: ev.DragonDied) -> VastState:
    return _dragon(state, health=0)


@_on(ev.EventTokenPlaced)
def _event_token_placed(state: VastState, event: ev.EventTokenPlaced) -> VastState:
    x, y = event.x, event.y
    return _cell(state, x, y, event_token=True)


@_on(ev.EventTokenTaken)
def _event_token_taken(state: VastState, event: ev.EventTokenTaken) -> VastState:
    x, y = event.x, event.y
    return _cell(state, x, y, event_token=False)


@_on(ev.AxeStruck, ev.TribeAttackedDragon)
def __axe_struck_or_tribe_attacked_dragon(
    state: VastState, event: ev.AxeStruck | ev.TribeAttackedDragon
) -> VastState:
    d = state.dragon
    return state if d is None else _dragon(state, health=max(0, d.health - 1))


@_on(ev.DragonShot)
def _dragon_shot(state: VastState, event: ev.DragonShot) -> VastState:
    k = state.knight
    discards = event.discards
    if k is None:
        return state
    earned = discards and "feat:eagle-eyed" not in k.feats
    return _knight(state, enchanted_bow_used=True, feats=(*k.feats, "feat:eagle-eyed") if earned else k.feats)


@_on(ev.TrapSprung)
def _trap_sprung(state: VastState, event: ev.TrapSprung) -> VastState:
    gob = state.goblins
    if gob is None:
        return state
    state = _gob(state, face_up=_without(gob.face_up, ["trap"]))
    return replace(state, secrets_discard=(*state.secrets_discard, "trap"))


@_on(ev.FlameWallPlaced)
def _flame_wall_placed(state: VastState, event: ev.FlameWallPlaced) -> VastState:
    x, y = event.x, event.y
    return _dragon(state, flame_wall=(x, y), burned=())


@_on(ev.FlameWallBurned)
def _flame_wall_burned(state: VastState, event: ev.FlameWallBurned) -> VastState:
    piece = event.piece
    d = state.dragon
    return state if d is None else _dragon(state, burned=(*d.burned, piece))


@_on(ev.FlameWallReturned)
def _flame_wall_returned(state: VastState, event: ev.FlameWallReturned) -> VastState:
    return _dragon(state, flame_wall=None, burned=())


@_on(ev.ShriekSpent)
def _shriek_spent(state: VastState, event: ev.ShriekSpent) -> VastState:
    return _dragon(state, shriek=False)


@_on(ev.CrystalDestroyed)
def _crystal_destroyed(state: VastState, event: ev.CrystalDestroyed) -> VastState:
    x, y = event.x, event.y
    return _cell(state, x, y, crystal=False)


@_on(ev.TileCollapsed)
def _tile_collapsed(state: VastState, event: ev.TileCollapsed) -> VastState:
    x, y, tile, crystal_tile, step = event.x, event.y, event.tile, event.crystal_tile, event.step
    state = _tile_gone(_pop(state, step), x, y)
    if crystal_tile:
        return replace(state, crystal_tiles_collapsed=state.crystal_tiles_collapsed + 1)
    # Vast rulebook §La Caverna, Gli altri giocatori: to the bottom of the stack
    if not state.collapse:
        pile_tiles = list(state.piles) or [0, 0, 0]
        pile_tiles[-1] += 1
        state = replace(
            state,
            stack=tuple(sorted((*state.stack, tile))),
            piles=tuple(pile_tiles),
            pile_crystals=state.pile_crystals or (0, 0, 0),
        )
    return state


# --- the Thief -------------------------------------------------------------------------------


@_on(ev.ThiefEntered)
def _thief_entered(state: VastState, event: ev.ThiefEntered) -> VastState:
    return _thief(state, x=0, y=0)


@_on(ev.ThiefStatsAssigned)
def _thief_stats_assigned(state: VastState, event: ev.ThiefStatsAssigned) -> VastState:
    movement, stealth, thievery, cubes = event.movement, event.stealth, event.thievery, event.cubes
    return _thief(state, movement=movement, stealth=stealth, thievery=thievery, cubes=cubes, assigned=True)


@_on(ev.ThiefMoved)
def _thief_moved(state: VastState, event: ev.ThiefMoved) -> VastState:
    x, y, climbed, forced = event.x, event.y, event.climbed, event.forced
    th = state.thief
    if th is None:
        return state
    return _thief(state, x=x, y=y, moves=th.moves + (0 if forced else 1), cubes=th.cubes - climbed)


@_on(ev.TilePeeked)
def _tile_peeked(state: VastState, event: ev.TilePeeked) -> VastState:
    tile = event.tile
    th = state.thief
    if th is None:
        return state
    return _thief(state, moving_done=True, peeked=tuple(sorted({*th.peeked, tile})))


@_on(ev.ThiefActed)
def _thief_acted(state: VastState, event: ev.ThiefActed) -> VastState:
    action, cubes, target = event.action, event.cubes, event.target
    th = state.thief
    if th is None:
        return state
    changes: dict[str, object] = {"cubes": max(0, th.cubes - cubes)}
    player = player_of(target)
    if action in ("pickpocket", "backstab") and player not in th.targeted:
        changes["targeted"] = (*th.targeted, player)
    if action == "pick-lock" and th.x is not None and th.y is not None:
        changes["vaults_tried"] = _add_unique(th.vaults_tried, (th.x, th.y))
    gob = state.goblins
    tribe_hit = action in ("pickpocket", "backstab") and target in TRIBES
    # docs/vast/facts.md §3 Trap: spent on that attack
    if tribe_hit and gob is not None and "trap" in gob.face_up:
        state = _gob(state, face_up=_without(gob.face_up, ["trap"]))
        state = replace(state, secrets_discard=(*state.secrets_discard, "trap"))
    return _thief(state, **changes)


@_on(ev.ThiefLooted)
def _thief_looted(state: VastState, event: ev.ThiefLooted) -> VastState:
    source, gem, x, y, step = event.source, event.gem, event.x, event.y, event.step
    state = _pop(state, step)
    th = state.thief
    if th is None:
        return state
    if x is not None and y is not None and (cell := cells_by_pos(state).get((x, y))) is not None:
        if gem:
            state = _cell(state, x, y, gems=_without(cell.gems, [gem]))
        else:
            state = _cell(state, x, y, treasure=max(0, cell.treasure - 1))
    if source == "supply" and state.cave is not None:
        state = _cave(state, supply=max(0, state.cave.supply - 1))
    if gem:
        return _thief(state, gems=(*th.gems, gem))
    return _thief(state, carried=th.carried + 1)


@_on(ev.ThiefActionRolled)
def _thief_action_rolled(state: VastState, event: ev.ThiefActionRolled) -> VastState:
    rerolled, success = event.rerolled, event.success
    if success:  # the Treasure token it takes comes next (Vast rulebook §Borseggiare, §Scassinare)
        state = replace(state, todo=("thief-supply", *state.todo))
    return _thief(state, sticky_used=True) if rerolled else state


@_on(ev.ThiefStole)
def _thief_stole(state: VastState, event: ev.ThiefStole) -> VastState:
    k = state.knight
    target, card = event.target, event.card
    if target == "knight" and k is not None:
        state = _knight(state, treasures=_without(k.treasures, [card]), face_up=_without(k.face_up, [card]))
        return replace(state, treasure_bottom=(*state.treasure_bottom, card))
    if target == "goblins" and state.goblins is not None:
        gob = state.goblins
        state = _gob(state, hand=_without(gob.hand, [card]), face_up=_without(gob.face_up, [card]))
        return replace(state, secrets_discard=(*state.secrets_discard, card))
    return state


@_on(ev.VaultOpened)
def _vault_opened(state: VastState, event: ev.VaultOpened) -> VastState:
    x, y = event.x, event.y
    return _cell(state, x, y, vault=False)


@_on(ev.LootHidden)
def _loot_hidden(state: VastState, event: ev.LootHidden) -> VastState:
    count = event.count
    th = state.thief
    return state if th is None else _thief(state, loot_drop=max(0, th.loot_drop - count))


@_on(ev.TreasureStashed)
def _treasure_stashed(state: VastState, event: ev.TreasureStashed) -> VastState:
    tokens, gems = event.tokens, event.gems
    th = state.thief
    if th is None:
        return state
    state = _gems_back(state, gems)
    if gems and state.cave is not None:
        state = _cave(state, supply=max(0, state.cave.supply - len(gems)))
    state = replace(state, todo=(*(["upgrade"] * tokens), *state.todo))
    return _thief(state, stashed=th.stashed + tokens, carried=0, gems=(), loot_drop=3)


@_on(ev.UpgradeTaken)
def _upgrade_taken(state: VastState, event: ev.UpgradeTaken) -> VastState:
    upgrade, step = event.upgrade, event.step
    state = _pop(state, step)
    th = state.thief
    return state if th is None else _thief(state, upgrades=(*th.upgrades, upgrade))


@_on(ev.UpgradeLost)
def _upgrade_lost(state: VastState, event: ev.UpgradeLost) -> VastState:
    upgrade = event.upgrade
    th = state.thief
    return state if th is None else _thief(state, upgrades=_without(th.upgrades, [upgrade]))


@_on(ev.ThiefAttacked)
def _thief_attacked(state: VastState, event: ev.ThiefAttacked) -> VastState:
    by, why = event.by, event.why
    return replace(state, todo=(f"thief-hit:{by}:{why}", *state.todo))


@_on(ev.ThiefShot)
def _thief_shot(state: VastState, event: ev.ThiefShot) -> VastState:
    k = state.knight
    return state if k is None else _knight(state, enchanted_bow_used=True)


@_on(ev.ThiefHexed)
def _thief_hexed(state: VastState, event: ev.ThiefHexed) -> VastState:
    count = event.count
    th = state.thief
    return state if th is None else _thief(state, hexed=th.hexed + count)


@_on(ev.ThiefEvaded)
def _thief_evaded(state: VastState, event: ev.ThiefEvaded) -> VastState:
    return _thief(_hit_resolved(state), evaded=True)


@_on(ev.ThiefKilled)
def _thief_killed(state: VastState, event: ev.ThiefKilled) -> VastState:
    k = state.knight
    by, why = event.by, event.why
    state = _hit_resolved(state)
    if by == "knight" and k is not None and state.rules_revision >= 6:
        # docs/vast/facts.md §2 Sidequests: killing the Thief is Daring, the Enchanted Bow
        # that kills him Eagle-Eyed (rules revision 6; before, neither counted)
        feat = "feat:eagle-eyed" if why == "bow" else "feat:daring"
        state = _knight(state, feats=tuple(sorted({*k.feats, feat})))
    th = state.thief
    if th is None or th.x is None or th.y is None:
        return state
    cell = cells_by_pos(state).get((th.x, th.y))
    if cell is not None:
        state = _cell(state, th.x, th.y, treasure=cell.treasure + th.carried, gems=(*cell.gems, *th.gems))
    return _thief(state, x=None, y=None, carried=0, gems=())


@_on(ev.KnightDied)
def _knight_died(state: VastState, event: ev.KnightDied) -> VastState:
    why = event.why
    return _knight(state, health=0, died_of=why)


@_on(ev.GameWon)
def _game_won(state: VastState, event: ev.GameWon) -> VastState:
    winner, reason = event.winner, event.reason
    return replace(state, winner=winner, end_reason=reason, phase="ended")


def parse_step(step: str) -> tuple[str, tuple[int, int] | None, str]:
    """``("resolve", (x, y), "full")`` from ``"resolve:x,y:full"``; ``("grit", None, "1:reveal")`` from
    ``"grit:1:reveal"``; ``("treasure", None, "")`` from ``"treasure"``."""
    kind, _, rest = step.partition(":")
    if kind in ("reveal", "resolve"):
        where, _, mode = rest.partition(":")
        return kind, parse_pos(where), mode
    if kind in ("knight-attack", "collapse"):
        return kind, parse_pos(rest), ""
    return kind, None, rest
