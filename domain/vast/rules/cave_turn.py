"""The Cave's turn (Vast rulebook §La Caverna): Shape the Cave, the Collapse, Place Treasure, Omens, the end
of its turn."""

from __future__ import annotations

from dicelog.domain.core.events import DecisionRequested, DrawRequested, Event
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.cave import ENTRANCE, SIDES, Pos, Side, pos_key, step
from dicelog.domain.vast.content import tile as tile_data
from dicelog.domain.vast.evolve import fold
from dicelog.domain.vast.rules import tribes
from dicelog.domain.vast.rules.common import (
    Then,
    cell_at,
    cubes_on,
    geometry,
    grit_change,
    is_crystal,
    placeable,
    placeable_at,
    refuse,
    removable,
    treasure_spots,
)
from dicelog.domain.vast.rules.pieces import spores_on_thief
from dicelog.domain.vast.rules.tiles import (
    bats_reach,
    event_tokens,
    ordered_events,
    place_dark,
    remove_tile,
    top_events,
)
from dicelog.domain.vast.state import SLOTH_ROOM, CaveRole, VastState, wakefulness

OMENS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "giant-bats": ((1,), ("chasm", "bat", "boulder")),
    "rockslide": ((2,), ("bat", "boulder", "quartz")),
    "past-plunder": ((1, 2, 3), ("boulder", "quartz", "mushroom")),
    "soporific-spores": ((3,), ("quartz", "mushroom", "trail")),
    "hatred": ((1, 2, 3), ("mushroom", "trail", "chasm")),
    "crystal-curse": ((1,), ("trail", "chasm", "bat")),
}
"""Vast rulebook §Presagi, §Usare i Presagi; docs/vast/facts.md §5 Omens: cost by use of the turn, and the
accepted symbols."""


def _cave(state: VastState) -> CaveRole:
    if state.cave is None:
        raise refuse("no-cave", "La Caverna", "the Cave is not in play")
    return state.cave


def place_tile(state: VastState, command: cmd.PlaceTile, then: Then, *, extra: bool = False) -> list[Event]:
    """Vast rulebook §2. Modella la Caverna: once a turn before the Collapse (Hatred: once more), a tile of
    the hand Dark side up next to a tile; a Crystal tile of the hand first (§Tessere Caverna, on its own
    turn)."""
    cave = _cave(state)
    if state.collapse:
        raise refuse("shape.collapsing", "Il Collasso", "during the Collapse tiles are removed, not placed")
    if not extra and cave.placed >= 1:
        raise refuse("shape.done", "2. Modella la Caverna", "one tile a turn (Hatred places another)")
    if command.tile not in cave.hand:
        raise refuse("shape.not-in-hand", "2. Modella la Caverna", "place a tile of the Cave's hand")
    if any(is_crystal(t) for t in cave.hand) and not is_crystal(command.tile):
        raise refuse(
            "shape.crystal-first",
            "Tessere Caverna",
            "on its own turn the Cave places its Crystal tiles first",
        )
    pos = (command.x, command.y)
    if not placeable_at(state, pos):
        raise refuse(
            "shape.not-adjacent",
            "2. Modella la Caverna",
            f"{pos_key(pos)} is not an empty space next to a tile",
        )
    return then(state, place_dark(state, pos, command.tile, own_turn=True))


def remove(state: VastState, command: cmd.RemoveTile, then: Then) -> list[Event]:
    """Vast rulebook §Il Collasso: 3 tiles a turn, in the order ``removable`` gives."""
    cave = _cave(state)
    if not state.collapse:
        raise refuse(
            "collapse.not-begun", "Il Collasso", "tiles are removed only once the Collapse has begun"
        )
    if cave.placed >= 3:
        raise refuse("collapse.done", "Il Collasso", "3 tiles a turn are removed")
    return _remove(state, (command.x, command.y), False, then)


def _remove(state: VastState, pos: Pos, extra: bool, then: Then) -> list[Event]:
    """Raises ``vast.collapse.entrance`` (the Entrance is never removed), ``vast.collapse.not-removable``
    (not a tile the removal order allows now)."""
    if pos == ENTRANCE:
        raise refuse("collapse.entrance", "Il Collasso", "the Entrance is never removed")
    if pos not in removable(state):
        raise refuse(
            "collapse.not-removable",
            "Il Collasso",
            "remove a tile touching the fewest others, a revealed Crystal tile first, never the Entrance",
        )
    return then(state, remove_tile(state, pos, extra))


def place_treasure(
    state: VastState, command: cmd.PlaceTreasure, then: Then, *, extra: bool = False
) -> list[Event]:
    """Vast rulebook §3. Piazza un Tesoro (Past Plunder: once more)."""
    cave = _cave(state)
    if not extra and cave.treasure_placed:
        raise refuse(
            "treasure.done", "3. Piazza un Tesoro", "one Treasure token a turn (Past Plunder places another)"
        )
    if cave.supply < 1:
        raise refuse("treasure.no-token", "3. Piazza un Tesoro", "the Cave has no Treasure token left")
    if (command.x, command.y) not in treasure_spots(state):
        raise refuse(
            "treasure.bad-tile",
            "3. Piazza un Tesoro",
            "a Dark tile with no player's piece and no Treasure token",
        )
    return [ev.TreasureTokenPlaced(x=command.x, y=command.y)]


def _pay(state: VastState, omen: str, pay: tuple[str, ...]) -> list[Event]:
    """Vast rulebook §Usare i Presagi: the Omen's cost in accepted symbols, from the tokens held."""
    cave = _cave(state)
    costs, symbols = OMENS[omen]
    used = {"hatred": cave.hatred, "past-plunder": cave.past_plunder}.get(omen, 0)
    cost = costs[min(used, len(costs) - 1)]
    if len(pay) != cost:
        raise refuse("omen.cost", "Usare i Presagi", f"{omen} costs {cost} Omen token(s) now")
    held = list(cave.omens)
    for token in pay:
        if token not in held:
            raise refuse("omen.not-held", "Usare i Presagi", "pay with Omen tokens the Cave holds")
        held.remove(token)
        if token.rpartition("-")[0] not in symbols:
            raise refuse("omen.symbol", "Usare i Presagi", f"{omen} accepts {', '.join(symbols)}")
    return [ev.OmenUsed(omen=omen, paid=pay)]


def hatred(state: VastState, command: cmd.Hatred, then: Then) -> list[Event]:
    """Vast rulebook §Presagi, Disprezzo: another tile placed, or during the Collapse removed."""
    paid = _pay(state, "hatred", command.pay)
    after = fold(state, paid)
    if state.collapse:
        return paid + _remove(after, (command.x, command.y), True, then)
    if command.tile is None:
        raise refuse("omen.no-tile", "Presagi", "Hatred before the Collapse places a tile: name it")
    return paid + place_tile(
        after, cmd.PlaceTile(tile=command.tile, x=command.x, y=command.y), then, extra=True
    )


def past_plunder(state: VastState, command: cmd.PastPlunder, then: Then) -> list[Event]:
    """Vast rulebook §Presagi, Antichi Bottini: another Treasure token, as in Place Treasure."""
    paid = _pay(state, "past-plunder", command.pay)
    return paid + place_treasure(
        fold(state, paid), cmd.PlaceTreasure(x=command.x, y=command.y), then, extra=True
    )


def spores(state: VastState, command: cmd.SoporificSpores, then: Then) -> list[Event]:
    """Vast rulebook §Presagi, Spore Soporifere: the Knight loses 5 Grit; the Goblins choose a Tribe that goes
    down to Population 1 (decision ``spores-tribe``, default the one losing fewest discs; Rage +1, §Furia e
    Malessere)."""
    if command.target == "goblins":
        gob = state.goblins
        if gob is None:
            raise refuse("omen.no-target", "Presagi", "the Goblins are not in play")
        options = tuple(t.name for t in gob.tribes if t.population > 1)
        if not options:
            raise refuse("omen.no-target", "Presagi", "no Tribe has more than 1 Goblin")
        paid = _pay(state, "soporific-spores", command.pay)
        fewest = min(options, key=lambda n: next(t.population for t in gob.tribes if t.name == n))
        return [
            *paid,
            DecisionRequested(decision="spores-tribe", options=options, piece="goblins", default=fewest),
        ]
    if command.target == "dragon":
        d = state.dragon
        if d is None:
            raise refuse("omen.no-target", "Presagi", "the Dragon is not in play")

        tracks = tuple(
            t for t, n in d.sloth.items() if n < SLOTH_ROOM[t] and not (t == "hunger" and d.locked)
        )
        if wakefulness(d) - d.locked < 1 or not tracks:
            raise refuse("omen.no-target", "Presagi", "no cube on the Dragon's Wakefulness can go back")
        paid = _pay(state, "soporific-spores", command.pay)
        return [
            *paid,
            DecisionRequested(decision="spores-track", options=tracks, piece="dragon", default=tracks[0]),
        ]
    if command.target == "thief":
        decision = spores_on_thief(state)  # raises when he has no Upgrade
        return [*_pay(state, "soporific-spores", command.pay), *decision]
    if state.knight is None:
        raise refuse("omen.no-target", "Presagi", "the Knight is not in play")
    paid = _pay(state, "soporific-spores", command.pay)
    return then(state, paid + grit_change(fold(state, paid), -5, "spores"))


def rockslide(state: VastState, command: cmd.Rockslide, then: Then) -> list[Event]:
    """Vast rulebook §Presagi, Frana: a Rockslide on the edge between two tiles, at least one Lit; with all 3
    on the map, one of them moves there (decision ``rockslide-from:x,y:side``, the Cave's: which one; default
    the first)."""
    cave = _cave(state)
    here = (command.x, command.y)
    there = step(here, command.side)
    a, b = cell_at(state, here), cell_at(state, there)
    if a is None or b is None or not (a.lit or b.lit):
        raise refuse("omen.rockslide-edge", "Presagi", "a Rockslide goes between two tiles, at least one Lit")
    if geometry(state).wall_between(here, command.side):
        raise refuse("omen.rockslide-wall", "Presagi", "there is a wall there already")
    paid = _pay(state, "rockslide", command.pay)
    if cave.rockslides < 1:
        placed = tuple(f"{x},{y}:{side}" for x, y, side in state.rockslides)
        if not placed:
            raise refuse("omen.no-rockslide", "Presagi", "no Rockslide is left to place or move")
        name = f"rockslide-from:{pos_key(here)}:{command.side}"
        return [*paid, DecisionRequested(decision=name, options=placed, piece="cave", default=placed[0])]
    return [*paid, ev.RockslidePlaced(x=command.x, y=command.y, side=command.side)]


def giant_bats(state: VastState, command: cmd.GiantBats, then: Then) -> list[Event]:
    """Vast rulebook §Presagi, Pipistrelli Giganti: the Knight (unless her Shield has its cube, §Scudo) or a
    Treasure token, up to 3 tiles."""
    knight = state.knight
    if command.target in ("fangs", "bones", "eye"):
        return _bats_carry_tribe(state, command, then)
    if command.target == "knight":
        if knight is None:
            raise refuse("omen.no-target", "Presagi", "the Knight is not in play")
        if cubes_on(knight, "shield"):
            raise refuse("omen.shield", "Equipaggiamento", "the Knight's Shield keeps her from being moved")
        start = (knight.x, knight.y)
    else:
        start = (command.from_x or 0, command.from_y or 0)
        source = cell_at(state, start)
        if command.from_x is None or command.from_y is None or source is None or source.treasure < 1:
            raise refuse("omen.no-treasure", "Presagi", "name the tile of a Treasure token to move")
    to = (command.x, command.y)
    if to not in bats_reach(state, start, command.target == "knight"):
        raise refuse(
            "omen.bats-reach",
            "Esempio #3",
            "up to 3 tiles, not through walls (the Knight: over Lit tiles only)",
        )
    paid = _pay(state, "giant-bats", command.pay)
    moved = ev.CarriedByBats(target=command.target, from_x=start[0], from_y=start[1], x=to[0], y=to[1])
    return then(state, [*paid, moved])


def _bats_carry_tribe(state: VastState, command: cmd.GiantBats, then: Then) -> list[Event]:
    """Giant Bats carry a revealed Tribe up to 3 tiles, never through a wall, not onto the Knight
    (docs/vast/rulings.md)."""
    t = tribes.tribe(state, command.target)
    if not tribes.on_map(t):
        raise refuse("omen.no-target", "Presagi", "Giant Bats carry a Tribe on the map")
    to = (command.x, command.y)
    reach = bats_reach(state, tribes.where(t), False)
    if to not in reach or (state.knight is not None and to == (state.knight.x, state.knight.y)):
        raise refuse("omen.bats-reach", "Esempio #3", "up to 3 tiles, not through walls, not onto the Knight")
    paid = _pay(state, "giant-bats", command.pay)
    return then(state, [*paid, ev.TribeMoved(tribe=t.name, x=to[0], y=to[1])])


def crystal_curse(state: VastState, command: cmd.CrystalCurse, then: Then) -> list[Event]:
    """Vast rulebook §Presagi, Maledizione del Cristallo: a quarter turn of a Lit tile (not the Entrance), an
    Event token restored on a revealed Event tile (rules revision 2), or the top 3 Event cards to the bottom
    of the deck."""
    if command.effect == "event-token":
        cell = cell_at(state, (command.x, command.y))
        if (
            not event_tokens(state)
            or cell is None
            or not cell.lit
            or cell.event_token
            or tile_data(cell.tile).kind != "event"
        ):
            raise refuse(
                "omen.event-token", "Presagi", "restore an Event token on a revealed Event tile without one"
            )
        paid = _pay(state, "crystal-curse", command.pay)
        return then(state, [*paid, ev.EventTokenPlaced(x=cell.x, y=cell.y)])
    if command.effect == "rotate":
        cell = cell_at(state, (command.x, command.y))
        if cell is None or not cell.lit or (cell.x, cell.y) == ENTRANCE:
            raise refuse("omen.rotate", "Presagi", "turn a Lit tile other than the Entrance")
        paid = _pay(state, "crystal-curse", command.pay)
        turned = ev.TileRotated(
            x=cell.x, y=cell.y, rotation=(cell.rotation + (1 if command.clockwise else 3)) % 4
        )
        return then(state, [*paid, turned])
    if not state.event_deck and not state.event_bottom:
        raise refuse("omen.no-events", "Presagi", "no Event card is left")
    paid = _pay(state, "crystal-curse", command.pay)
    after = fold(state, paid)
    if ordered_events(state):  # rules revision 6: the top 3, which the Cave has read
        return then(state, [*paid, ev.EventsSentToBottom(cards=top_events(state))])
    if state.event_deck:
        count = min(3, len(state.event_deck))
        draw = DrawRequested(
            reason="crystal-curse", deck="events", cards=after.event_deck, count=count, piece="cave"
        )
        return [*paid, draw]
    return then(state, [*paid, ev.EventsSentToBottom(cards=state.event_bottom[:3])])


def check_end(state: VastState) -> None:
    """Whether its turn may end (Vast rulebook §Riepilogo del Turno): after its three phases; Shape the Cave
    and Place Treasure are owed when possible. Raises ``vast.collapse.owed``, ``vast.shape.owed``,
    ``vast.treasure.owed``."""
    cave = _cave(state)
    if state.collapse:
        if cave.placed < 3 and removable(state):
            raise refuse("collapse.owed", "Il Collasso", "remove 3 tiles this turn while any can be removed")
    elif cave.placed < 1 and cave.hand:
        raise refuse("shape.owed", "2. Modella la Caverna", "place a tile first")
    # docs/vast/facts.md §7: any 2 roles + Thief, Cave vs Thief
    optional = "place-treasure-optional" in state.variants
    if not optional and not cave.treasure_placed and cave.supply > 0 and treasure_spots(state):
        raise refuse("treasure.owed", "3. Piazza un Tesoro", "place a Treasure token first")


def candidates(state: VastState) -> list[cmd.VastCommand]:
    """Every Cave command worth trying now (``legal_commands`` keeps those ``decide`` accepts). Omens are
    listed with the first tokens that pay them; Hatred (Vast rulebook §Presagi, Disprezzo) as a removal in
    the Collapse, before it as another tile once the turn's own is placed; Soporific Spores on each player in
    play, the Dragon included (§Presagi, Spore Soporifere: «Scegli un giocatore»); Rockslide on each edge of
    ``rockslide_edges`` (§Presagi, Frana), Past Plunder on each Treasure spot (§Presagi, Antichi Bottini) and
    Giant Bats on each Treasure token (§Presagi, Pipistrelli Giganti), last."""
    cave = state.cave
    if cave is None:
        return []
    out: list[cmd.VastCommand] = []
    if state.collapse:
        out.extend(cmd.RemoveTile(x=x, y=y) for x, y in removable(state))
    else:
        spots = placeable(state)
        out.extend(cmd.PlaceTile(tile=t, x=x, y=y) for t in cave.hand for x, y in spots)
    out.extend(cmd.PlaceTreasure(x=x, y=y) for x, y in treasure_spots(state))
    hatred_pay = _payment(cave, "hatred")
    if hatred_pay is not None and state.collapse:
        out.extend(cmd.Hatred(pay=hatred_pay, x=x, y=y) for x, y in removable(state))
    elif hatred_pay is not None and cave.placed >= 1:  # after the turn's own tile (check_end: shape.owed)
        spots = placeable(state)
        out.extend(cmd.Hatred(pay=hatred_pay, tile=t, x=x, y=y) for t in cave.hand for x, y in spots)
    spores_pay = _payment(cave, "soporific-spores")
    if spores_pay is not None:
        out.append(cmd.SoporificSpores(pay=spores_pay))
        if state.goblins is not None:
            out.append(cmd.SoporificSpores(pay=spores_pay, target="goblins"))
        if state.thief is not None:
            out.append(cmd.SoporificSpores(pay=spores_pay, target="thief"))
    bats_pay = _payment(cave, "giant-bats")
    if bats_pay is not None and state.knight is not None:
        start = (state.knight.x, state.knight.y)
        out.extend(
            cmd.GiantBats(pay=bats_pay, target="knight", x=x, y=y) for x, y in bats_reach(state, start, True)
        )
    if bats_pay is not None and state.goblins is not None:
        for t in state.goblins.tribes:
            if t.x is not None and t.y is not None and not t.lurking:
                reach = bats_reach(state, (t.x, t.y), False)
                out.extend(cmd.GiantBats(pay=bats_pay, target=t.name, x=x, y=y) for x, y in reach)
    curse_pay = _payment(cave, "crystal-curse")
    if curse_pay is not None:
        out.append(cmd.CrystalCurse(pay=curse_pay, effect="events-to-bottom"))
        out.extend(
            cmd.CrystalCurse(pay=curse_pay, effect="event-token", x=c.x, y=c.y)
            for c in state.cells
            if c.lit and not c.event_token and tile_data(c.tile).kind == "event"
        )
        out.extend(
            cmd.CrystalCurse(pay=curse_pay, effect="rotate", x=c.x, y=c.y) for c in state.cells if c.lit
        )
    out.append(cmd.VastEndTurn(role="cave"))
    if spores_pay is not None and state.dragon is not None:  # a cube of its Wakefulness back to Sloth
        # listed last: the bots' seeded tie-breaks of the commands before it stay as they were
        out.append(cmd.SoporificSpores(pay=spores_pay, target="dragon"))
    rockslide_pay = _payment(cave, "rockslide")
    if rockslide_pay is not None and (cave.rockslides > 0 or state.rockslides):
        # listed last, as Spores on the Dragon: the seeded tie-breaks of the commands before it stay
        out.extend(
            cmd.Rockslide(pay=rockslide_pay, x=x, y=y, side=side) for x, y, side in rockslide_edges(state)
        )
    plunder_pay = _payment(cave, "past-plunder")
    if plunder_pay is not None and cave.supply > 0:
        # listed last, as Spores on the Dragon and Rockslide: the seeded tie-breaks before them stay
        out.extend(cmd.PastPlunder(pay=plunder_pay, x=x, y=y) for x, y in treasure_spots(state))
    if bats_pay is not None:  # a Treasure token carried (§Presagi, Pipistrelli Giganti), last too
        for c in state.cells:
            if c.treasure > 0:
                reach = bats_reach(state, (c.x, c.y), False)
                out.extend(
                    cmd.GiantBats(pay=bats_pay, target="treasure", x=x, y=y, from_x=c.x, from_y=c.y)
                    for x, y in reach
                )
    return out


def rockslide_edges(state: VastState) -> list[tuple[int, int, Side]]:
    """The edges a Rockslide may go on (Vast rulebook §Presagi, Frana): between two tiles, at least one Lit,
    no wall there yet; each edge once, named from its tile of smaller ``(x, y)`` (the same edge named from
    the other tile is the same wall, and ``rockslide`` accepts it too)."""
    cells = {(c.x, c.y): c for c in state.cells}
    g = geometry(state)
    out: list[tuple[int, int, Side]] = []
    for here in sorted(cells):
        for side in SIDES:
            there = step(here, side)
            other = cells.get(there)
            if other is None or there < here or not (cells[here].lit or other.lit):
                continue
            if not g.wall_between(here, side):
                out.append((here[0], here[1], side))
    return out


def _payment(cave: CaveRole, omen: str) -> tuple[str, ...] | None:
    costs, symbols = OMENS[omen]
    used = {"hatred": cave.hatred, "past-plunder": cave.past_plunder}.get(omen, 0)
    cost = costs[min(used, len(costs) - 1)]
    ok = [t for t in cave.omens if t.rpartition("-")[0] in symbols]
    return tuple(ok[:cost]) if len(ok) >= cost else None
