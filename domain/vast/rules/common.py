"""Helpers every Vast rule module shares: refusals, the map's geometry, the Knight's stats and cubes,
Grit and Health changes, and the tile stack's draws (Vast rulebook; docs/vast/facts.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from msgspec.structs import replace

from dicelog.domain.core.errors import InvariantViolated, NotYourTurn, RuleBroken
from dicelog.domain.core.events import DrawRequested, Event
from dicelog.domain.vast.cave import ENTRANCE, SIDES, STEP, Geometry, Pos, Side, edge_walled, step, tile_walls
from dicelog.domain.vast.content import goblin_file
from dicelog.domain.vast.content import tile as tile_data
from dicelog.domain.vast.events import GritChanged, HeroCubeReturned
from dicelog.domain.vast.state import CaveCell, KnightRole, VastState, armor

SOURCE = "Vast rulebook"
GRIT_CUBES = (5, 11, 18, 26, 35)
"""Grit spaces holding a Hero cube (Vast rulebook §Preparazione)."""
MAX_GRIT = 45
BASE_CUBES = 2
MAX_CUBES = 7
"""The Knight has 7 Hero cubes (Vast rulebook §Preparazione: 2 beside the board, 5 on the Grit track)."""
MOVEMENT = (1, 3, 5, 7)
PERCEPTION = (1, 2, 3, 4)
STRENGTH = (1, 2, 3, 4)
"""A stat's value by the cubes on its track (docs/vast/facts.md §2 Stat tracks)."""
STAT_SLOTS = {"movement": 3, "perception": 3, "strength": 3, "map": 3, "bomb": 1, "shield": 1}
CUBE_TREASURES = ("elven-sword", "heroic-boots", "mighty-axe", "pixie-lantern", "potion-kit", "enchanted-bow")
"""Treasure cards a cube activates (the Enchanted Bow only with the Dragon in play)."""
AMBUSHER_STRENGTH = 3
"""Goblin Infestation, line B "Tough" (docs/vast/facts.md §7 Variant cards), the Knight vs Cave setup's
ambusher."""
INFESTATION = {"infestation:A": 2, "infestation:B": 3}
"""Goblin Infestation's ambusher Strength by line (docs/vast/facts.md §7 Variant cards: A "Normal" 2, B
"Tough" 3)."""


def infestation(state: VastState) -> int:
    """The Strength of Goblin Infestation's ambusher in this setup (line B unless the setup says A; line C:
    the drawn Monster's Ambush STR, +1 while the Bright Beetles wait beside the deck: docs/vast/facts.md §3
    Monster cards)."""
    if "infestation:C" in state.variants:
        card = state.ambusher
        beetles = "bright-beetles" in state.infestation_aside and card != "bright-beetles"
        return next((m.ambush_strength for m in goblin_file().monsters if m.id == card), 0) + int(beetles)
    return next((INFESTATION[v] for v in state.variants if v in INFESTATION), AMBUSHER_STRENGTH)


def dragon_armor(state: VastState) -> int:
    """The Dragon's Armor (docs/vast/facts.md §4), +1 with the Ash Dragon card (at most 4: docs/vast/facts.md
    §7 Variant cards)."""

    d = state.dragon
    return 0 if d is None else armor(d, ash="ash-dragon" in state.variants)


Fold = Callable[[VastState, Iterable[Event]], VastState]
Then = Callable[[VastState, list[Event]], list[Event]]
"""What follows a command's events: the driver's ``flow.then_advance``, passed to each role's command handler
(``then(state, events)``: ``events``, then every event the rules cause by themselves from the state they
lead to, up to the first pending roll, draw or decision). The roles never import the driver, which imports
them."""


def section(name: str) -> str:
    """The citation of a Vast rulebook section (``Vast rulebook §Cristalli``)."""
    return f"Vast rulebook §{name}"


def refuse(rule: str, where: str, detail: str, error: type[RuleBroken] = RuleBroken) -> RuleBroken:
    """A refusal ``vast.<rule>`` citing Vast rulebook section ``where``."""
    return error(f"vast.{rule}", section=section(where), detail=detail)


def not_your_turn(role: str) -> RuleBroken:
    return refuse("not-your-turn", "Riepilogo del Turno", f"it is not the {role}'s turn", NotYourTurn)


# --- the map ------------------------------------------------------------------------------------


_OFFSETS = tuple(STEP[s] for s in SIDES)
"""Each side's step (``dicelog.domain.vast.cave.STEP``), in ``SIDES`` order."""


def cells_by_pos(state: VastState) -> dict[Pos, CaveCell]:
    return {(c.x, c.y): c for c in state.cells}


def cell_at(state: VastState, pos: Pos) -> CaveCell | None:
    x, y = pos
    for c in state.cells:
        if c.x == x and c.y == y:
            return c
    return None


def geometry(state: VastState) -> Geometry:
    """The map's walls and adjacency (``dicelog.domain.vast.cave``)."""
    return Geometry(
        ((c.x, c.y) for c in state.cells),
        {(c.x, c.y): (c.tile, c.rotation) for c in state.cells if c.lit},
        state.rockslides,
        state.bombs,
    )


def first_open_edge(state: VastState) -> tuple[Pos, Side] | None:
    """The first of ``geometry(state).all_open_edges()`` (Lit tiles in ``(x, y)`` order, sides N, E, S, W)
    not in ``state.open_left``, without listing the others; ``None`` when there is none."""
    taken = {(c.x, c.y) for c in state.cells}
    beyond = [  # the Lit tiles' sides with no tile beyond them, in the order all_open_edges lists them
        (c.x, c.y, i, c.tile, c.rotation)
        for c in state.cells
        if c.lit
        for i, (dx, dy) in enumerate(_OFFSETS)
        if (c.x + dx, c.y + dy) not in taken
    ]
    beyond.sort()
    rockslides, bombs = frozenset(state.rockslides), frozenset(state.bombs)
    for x, y, i, tile_id, rotation in beyond:
        side = SIDES[i]
        if (x, y, side) in state.open_left:
            continue
        if not edge_walled((x, y), side, tile_walls(tile_id, rotation), rockslides, bombs):
            return (x, y), side
    return None


class Tried:
    """What ``legal_commands`` learns of one state while it tries every candidate command on it, kept for the
    next candidate (made anew for each call; nothing outlives it): each Tribe's ``paths`` (``goblins.Reach``,
    filled by ``goblins.known_paths``) and the last ``first_open_edge`` asked, by the identity of what it
    reads (``cells``, ``rockslides``, ``bombs``, ``open_left``: a state's tuples are never changed, and most
    candidates leave them as they were)."""

    __slots__ = ("_edge", "_edge_of", "paths")

    def __init__(self) -> None:
        self.paths: dict[str, dict[Pos, int]] = {}
        self._edge_of: tuple[object, ...] = ()
        self._edge: tuple[Pos, Side] | None = None

    def first_open_edge(self, state: VastState) -> tuple[Pos, Side] | None:
        """``first_open_edge(state)``, searched again only when what it reads is not the last state's."""
        of = (state.cells, state.rockslides, state.bombs, state.open_left)
        if len(self._edge_of) != len(of) or any(a is not b for a, b in zip(of, self._edge_of, strict=True)):
            self._edge_of, self._edge = of, first_open_edge(state)
        return self._edge


def the_knight(state: VastState) -> KnightRole:
    """The Knight's board; ``InvariantViolated`` when a rule that needs her runs without her."""
    if state.knight is None:
        raise InvariantViolated("vast-knight", "a Knight rule ran in a game without the Knight")
    return state.knight


def knight_pos(state: VastState) -> Pos | None:
    k = state.knight
    return None if k is None else (k.x, k.y)


def thief_pos(state: VastState) -> Pos | None:
    """Where the Thief's piece is; ``None`` off the map (or not in play)."""
    th = state.thief
    if th is None or th.x is None or th.y is None:
        return None
    return (th.x, th.y)


def dragon_at(state: VastState, pos: Pos) -> bool:
    d = state.dragon
    return d is not None and d.x is not None and (d.x, d.y) == pos


def pieces_at(state: VastState, pos: Pos) -> bool:
    """Whether a player's piece is on ``pos`` (the Knight, the Dragon)."""
    return knight_pos(state) == pos or dragon_at(state, pos)


def placeable(state: VastState) -> list[Pos]:
    """Empty spaces next to a tile (Vast rulebook §2. Modella la Caverna: "adjacent to any tile already
    present")."""
    cells = cells_by_pos(state)
    spots = {step(p, s) for p in cells for s in SIDES}
    return sorted(p for p in spots if p not in cells)


def placeable_at(state: VastState, pos: Pos) -> bool:
    """Whether ``pos`` is in ``placeable(state)``: an empty space next to a tile, found without listing every
    other."""
    taken = {(c.x, c.y) for c in state.cells}
    return pos not in taken and any(step(pos, s) in taken for s in SIDES)


def removable(state: VastState) -> list[Pos]:
    """Tiles the Collapse may remove now (Vast rulebook §Il Collasso): never the Entrance; tiles touching the
    fewest other tiles (1, then 2...) first; among them a revealed Crystal tile first; a tile under the Knight
    only if she has a tile next to it to step onto (docs/vast/rulings.md). From rules revision 6 a tile under
    any player's piece (the Knight, the Dragon, the Thief, a Tribe) only if each has a tile next to it whose
    entering causes no attack (``safe_steps``)."""
    g = geometry(state)
    cells = cells_by_pos(state)
    candidates = [p for p in cells if p != ENTRANCE]
    if not candidates:
        return []
    fewest = min(g.touching(p) for p in candidates)
    first = [p for p in candidates if g.touching(p) == fewest]
    crystals = [p for p in first if cells[p].lit and is_crystal(cells[p].tile)]
    chosen = crystals or first
    out = []
    for p in sorted(chosen):
        if state.rules_revision >= 6:
            if any(not safe_steps(state, p, piece) for piece in pieces_on(state, p)):
                continue
        elif pieces_at(state, p) and not g.neighbours(p):
            continue
        out.append(p)
    return out


def pieces_on(state: VastState, pos: Pos) -> list[str]:
    """The players' pieces on ``pos``, in the order a collapsing tile moves them off (rules revision 6):
    ``knight``, ``dragon``, ``thief``, then each revealed Tribe by name."""
    out = [name for name, at in (("knight", knight_pos(state)), ("thief", thief_pos(state))) if at == pos]
    if dragon_at(state, pos):
        out.insert(1 if out[:1] == ["knight"] else 0, "dragon")
    if state.goblins is not None:
        out += [
            t.name for t in state.goblins.tribes if not t.lurking and t.x is not None and (t.x, t.y) == pos
        ]
    return out


def safe_steps(state: VastState, pos: Pos, piece: str) -> list[Pos]:
    """The tiles next to ``pos`` that ``piece`` (``knight``, ``dragon``, ``thief`` or a Tribe's name) may step
    onto when its tile collapses: those whose entering causes no attack (Vast rulebook §Il Collasso: «Se non
    ci sono tessere adiacenti che non causino un attacco, quella tessera viene ignorata»): the Knight not onto
    a revealed Tribe nor the surfaced Dragon; the surfaced Dragon not onto the Knight nor a Tribe; a Tribe not
    onto the Knight nor the surfaced Dragon; the Thief anywhere (rules revision 6)."""
    d = state.dragon
    surfaced = (d.x, d.y) if d is not None and d.surfaced and d.x is not None else None
    knight = knight_pos(state)
    tribes = tribe_spaces(state)
    if piece == "knight":
        barred = {*tribes, surfaced}
    elif piece == "dragon":
        barred = {knight, *tribes} if surfaced is not None else set()
    elif piece == "thief":
        barred = set()
    else:
        barred = {knight, surfaced}
    return [q for q in geometry(state).neighbours(pos) if q not in barred]


def tribe_spaces(state: VastState) -> set[Pos]:
    """The tiles a revealed Tribe stands on (a Tribe is a player's piece: Vast rulebook, I Goblin)."""
    if state.goblins is None:
        return set()
    return {(t.x, t.y) for t in state.goblins.tribes if t.x is not None and t.y is not None and not t.lurking}


def treasure_spots(state: VastState) -> list[Pos]:
    """Dark tiles with no player's piece (the Thief's included) and no Treasure token (Vast rulebook §3.
    Piazza un Tesoro), for Place Treasure and Past Plunder. From rules revision 6 a revealed Tribe's tile is
    excluded too (Vast rulebook §La Caverna, 3. Piazza un Tesoro: «una tessera Buia che non contenga la pedina
    di un giocatore»: a Tribe is a Goblin player's piece)."""
    thief = thief_pos(state)
    tribes = tribe_spaces(state) if state.rules_revision >= 6 else set()
    return sorted(
        (c.x, c.y)
        for c in state.cells
        if not c.lit
        and not c.treasure
        and not pieces_at(state, (c.x, c.y))
        and (c.x, c.y) != thief
        and (c.x, c.y) not in tribes
    )


def treasure_supply(state: VastState) -> int:
    """Treasure tokens not on the map nor held by the Dragon (docs/vast/facts.md §1: 10 in play); the Cave's
    supply when it is in play."""
    if state.cave is not None:
        return state.cave.supply
    held = state.dragon.held if state.dragon is not None else 0
    th = state.thief
    thief = th.carried + th.stashed if th is not None else 0
    return max(0, state.treasure_tokens - sum(c.treasure for c in state.cells) - held - thief)


# --- the Knight's stats and cubes ---------------------------------------------------------------


def cubes_on(knight: KnightRole, target: str) -> int:
    return knight.placed.get(target, 0)


def owned_cubes(knight: KnightRole) -> int:
    """Hero cubes the Knight has (Vast rulebook §Coraggio, §Cubetti Eroe): the 2 she starts with, one per Grit
    space reached, less the discarded ones (Cave Bread gives one back: ``discarded`` may go below 0); never
    fewer than 2 (§Consigli Rapidi, Il Cavaliere) nor more than 7; those Poison left on the Entrance are not
    hers until she enters it."""
    reached = sum(1 for g in GRIT_CUBES if knight.grit >= g)
    owned = min(MAX_CUBES, max(BASE_CUBES, BASE_CUBES + reached - knight.discarded))
    return max(0, owned - knight.poisoned)


def placed_cubes(knight: KnightRole) -> int:
    return sum(knight.placed.values())


def free_cubes(knight: KnightRole) -> int:
    """Hero cubes she may still place this turn."""
    return max(0, owned_cubes(knight) - placed_cubes(knight))


def active(knight: KnightRole, card: str) -> bool:
    """Whether Treasure card ``card`` has its cube this turn."""
    return cubes_on(knight, card) > 0


def movement(knight: KnightRole) -> int:
    """Movement (docs/vast/facts.md §2): track value, +4 Heroic Boots, +1 Pixie Lantern (with their cubes)."""
    value = MOVEMENT[min(3, cubes_on(knight, "movement"))]
    return value + 4 * active(knight, "heroic-boots") + active(knight, "pixie-lantern")


def perception(knight: KnightRole) -> int:
    """Perception, the Encounters of a turn (docs/vast/facts.md §2): track value, +1 Elven Sword, +1 Pixie
    Lantern."""
    value = PERCEPTION[min(3, cubes_on(knight, "perception"))]
    return value + active(knight, "elven-sword") + active(knight, "pixie-lantern")


def strength(knight: KnightRole, own_turn: bool) -> int:
    """Strength (docs/vast/facts.md §2): track value; on her own turn +1 Elven Sword, +1 Mighty Axe (with
    their cubes)."""
    value = STRENGTH[min(3, cubes_on(knight, "strength"))]
    if own_turn:
        value += active(knight, "elven-sword") + active(knight, "mighty-axe")
    return value


def shielded(state: VastState) -> bool:
    """Whether the Knight's Shield has its cube, so that no other player can force her to move (rules
    revision 6: Vast rulebook, Equipaggiamento, Scudo: «Ti consente di ignorare gli effetti causati dagli
    altri giocatori che ti obbligherebbero a spostarti»; before, only Giant Bats and the Wisp checked it)."""
    k = state.knight
    return state.rules_revision >= 6 and k is not None and cubes_on(k, "shield") > 0


def grit_change(state: VastState, delta: int, why: str, step: str = "") -> list[Event]:
    """The events of a Grit change (Vast rulebook §Coraggio): clamped to 0-45; a loss is 1 with the Shield's
    cube (§Equipaggiamento, Scudo); falling below a cube's space takes an unused cube back, else a placed one,
    which ends her turn at once (``HeroCubeReturned``; the caller ends the turn)."""
    knight = state.knight
    if knight is None:
        return []
    if delta < 0 and cubes_on(knight, "shield"):
        delta = -1
    new = max(0, min(MAX_GRIT, knight.grit + delta))
    events: list[Event] = [GritChanged(delta=new - knight.grit, why=why, step=step)]
    return events + returned_cubes(replace(knight, grit=new))


def returned_cubes(knight: KnightRole) -> list[Event]:
    """A ``HeroCubeReturned`` for each placed Hero cube she no longer has (a Grit loss, Poison), the last
    placed first."""
    placed = dict(knight.placed)
    events: list[Event] = []
    while sum(placed.values()) > owned_cubes(knight):
        last = next(t for t in reversed(list(placed)) if placed[t] > 0)
        placed[last] -= 1
        events.append(HeroCubeReturned(target=last))
    return events


# --- the tile stack -----------------------------------------------------------------------------


def is_crystal(tile_id: str) -> bool:
    return tile_data(tile_id).kind == "crystal"


def crystal_tiles_counted(state: VastState) -> int:
    """Alone in the Dark's count of Crystal tiles (docs/vast/facts.md §7 Variant cards): the Crystal tiles
    revealed on the map plus those collapsed. A Lit tile is public, so every seat's view counts the same."""
    return state.crystal_tiles_collapsed + sum(1 for c in state.cells if c.lit and is_crystal(c.tile))


def stack_size(state: VastState) -> int:
    return sum(state.piles)


def tile_draw(state: VastState, reason: str, piece: str = "cave") -> DrawRequested | None:
    """The draw of the stack's next tile (docs/vast/facts.md §1 Tile stack setup), ``None`` when the stack is
    empty.

    The stack is three piles, each shuffled with 3 Crystal tiles (and 2 Vault tiles with the Thief). Its
    order is never stored: the next tile comes from the top pile holding ``n`` tiles of which ``c`` are
    Crystal and ``v`` Vault tiles, so it is a Crystal tile with probability ``c / n``, each Crystal tile
    left equally likely, and likewise for the Vault and the other tiles. The draw weighs each other tile
    ``(n - c - v) * C * V``, each Crystal tile ``c * N * V`` and each Vault tile ``v * N * C`` (``N``,
    ``C``, ``V``: other, Crystal and Vault tiles left in the whole stack, at least 1), which is exactly
    that. Seen by the Cave."""
    pile = next((i for i, n in enumerate(state.piles) if n > 0), None)
    if pile is None:
        return None
    n, c = state.piles[pile], state.pile_crystals[pile]
    v = state.pile_vaults[pile] if pile < len(state.pile_vaults) else 0
    plain, crystals, vaults = state.stack, state.crystals, state.vaults
    big_p, big_c, big_v = max(1, len(plain)), max(1, len(crystals)), max(1, len(vaults))
    cards: list[str] = []
    weights: list[int] = []
    if n - c - v > 0 and plain:
        cards += plain
        weights += [(n - c - v) * big_c * big_v] * len(plain)
    if c > 0 and crystals:
        cards += crystals
        weights += [c * big_p * big_v] * len(crystals)
    if v > 0 and vaults:
        cards += vaults
        weights += [v * big_p * big_c] * len(vaults)
    if not cards:
        return None
    order = sorted(range(len(cards)), key=lambda i: cards[i])
    cards_sorted = tuple(cards[i] for i in order)
    weights_sorted = tuple(weights[i] for i in order)
    uniform = len(set(weights_sorted)) == 1
    return DrawRequested(
        reason=reason,
        deck="tiles",
        cards=cards_sorted,
        count=1,
        piece=piece,
        weights=() if uniform else weights_sorted,
    )


def refill_hand(state: VastState) -> list[Event]:
    """Draw the Cave's hand back toward 3 (Vast rulebook §Tessere Caverna: after every tile placed)."""
    if state.cave is None or len(state.cave.hand) >= 3:
        return []
    draw = tile_draw(state, "cave-hand")
    return [] if draw is None else [draw]
