"""The cave's geometry (Vast rulebook §Rivelare e risolvere le tessere Buie, §Consigli Rapidi - Generali,
§Equipaggiamento, §Il Collasso; docs/vast/facts.md §1 Cave tiles, §4 Dragon die): pure functions on the map.

The map is a set of cells on a square grid addressed by ``(x, y)`` from the Entrance at ``(0, 0)``;
``y`` grows to the north. Sides are ``N``, ``E``, ``S``, ``W``. A Lit tile's walls are its shape's
walls (docs/vast/facts.md §1: ``side`` N; ``corner`` N+E; ``tunnel`` N+S; ``deadend`` N+E+W) turned by its
rotation, in quarter turns clockwise (a ``side`` tile at rotation 1 has its wall on E). A Dark tile shows no
walls. Between two cells there is a wall when either tile has one on the touching edge (Vast rulebook
§Equipaggiamento, Mappa Antica: "they are a single wall"), or a Rockslide lies on the edge (Vast rulebook
§Presagi, Frana), unless a Bomb token lies on it (Vast rulebook §Equipaggiamento, Bomba: the wall is removed
for good).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from typing import Literal

from dicelog.domain.vast.content import tile as tile_data

Side = Literal["N", "E", "S", "W"]
Pos = tuple[int, int]
SIDES: tuple[Side, ...] = ("N", "E", "S", "W")
STEP: dict[str, Pos] = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
OPPOSITE: dict[str, Side] = {"N": "S", "E": "W", "S": "N", "W": "E"}
BASE_WALLS: dict[str, tuple[Side, ...]] = {
    "open": (),
    "side": ("N",),
    "corner": ("N", "E"),
    "tunnel": ("N", "S"),
    "deadend": ("N", "E", "W"),
}
ENTRANCE: Pos = (0, 0)

DRAGON_DIE: dict[int, tuple[str, tuple[Pos, ...]]] = {
    1: ("center", ((0, 0),)),
    2: ("diamond", ((0, 1), (1, 0), (0, -1), (-1, 0))),
    3: ("cross", ((0, 0), (0, 1), (1, 0), (0, -1), (-1, 0))),
    4: ("corners", ((1, 1), (1, -1), (-1, -1), (-1, 1))),
    5: ("saltire", ((0, 0), (1, 1), (1, -1), (-1, -1), (-1, 1))),
    6: ("around", ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))),
}
"""The Dragon die's six faces (docs/vast/facts.md §4, HRF's pattern names): face -> (name, offsets from the
roller's tile). A "center hit" is a face whose pattern holds ``(0, 0)`` (center, cross, saltire: 3 in 6)."""


def center_hit(face: int) -> bool:
    """Whether Dragon die ``face`` (1-6) hits the center tile (docs/vast/facts.md §4: center, cross,
    saltire)."""
    return (0, 0) in DRAGON_DIE[face][1]


def die_tiles(center: Pos, face: int) -> tuple[Pos, ...]:
    """The positions Dragon die ``face`` hits around ``center`` (docs/vast/facts.md §4), center first when
    hit."""
    x, y = center
    return tuple((x + dx, y + dy) for dx, dy in DRAGON_DIE[face][1])


def pos_key(pos: Pos) -> str:
    """``"x,y"``: how a position is written in decision options and log lines."""
    return f"{pos[0]},{pos[1]}"


def parse_pos(text: str) -> Pos:
    """The position written ``"x,y"``. Raises ``ValueError`` for anything else."""
    x, y = text.split(",")
    return int(x), int(y)


def step(pos: Pos, side: str) -> Pos:
    """The neighbouring position across ``side``."""
    dx, dy = STEP[side]
    return pos[0] + dx, pos[1] + dy


def side_towards(a: Pos, b: Pos) -> Side | None:
    """The side of ``a`` that touches ``b``; ``None`` when they are not orthogonally adjacent."""
    for side in SIDES:
        if step(a, side) == b:
            return side
    return None


def rotate(side: str, quarter_turns: int) -> Side:
    """``side`` turned clockwise by ``quarter_turns``."""
    return SIDES[(SIDES.index(side) + quarter_turns) % 4]


_SHAPE_WALLS: dict[tuple[str, int], frozenset[str]] = {
    (shape, rotation): frozenset(rotate(s, rotation) for s in walls)
    for shape, walls in BASE_WALLS.items()
    for rotation in range(4)
}
"""``shape_walls`` of every shape at rotations 0-3, computed once (the rules ask for walls in every path
search)."""
_NO_WALLS: frozenset[str] = frozenset()


def shape_walls(shape: str, rotation: int) -> frozenset[str]:
    """The walled sides of a tile of ``shape`` at ``rotation`` (quarter turns clockwise). Raises ``KeyError``
    for a shape not in ``BASE_WALLS``."""
    return _SHAPE_WALLS[(shape, rotation % 4)]


def tile_walls(tile_id: str, rotation: int) -> frozenset[str]:
    """The walled sides of Lit tile ``tile_id`` at ``rotation``."""
    return shape_walls(tile_data(tile_id).shape, rotation)


def edge(pos: Pos, side: str) -> tuple[int, int, str]:
    """The canonical name of the edge on ``side`` of ``pos``: ``(x, y, "E")`` or ``(x, y, "N")`` of the
    cell to its west or south, so both cells name an edge the same way."""
    if side in ("E", "N"):
        return pos[0], pos[1], side
    other = step(pos, side)
    return other[0], other[1], OPPOSITE[side]


def edge_walled(
    pos: Pos,
    side: str,
    walls: frozenset[str],
    rockslides: frozenset[tuple[int, int, str]],
    bombs: frozenset[tuple[int, int, str]],
) -> bool:
    """``Geometry.wall_between(pos, side)`` where no tile lies beyond ``side``: the tile at ``pos`` has a wall
    there (its ``walls``), or a Rockslide lies on the edge, unless a Bomb does."""
    if bombs or rockslides:
        e = edge(pos, side)
        if e in bombs:
            return False
        if e in rockslides:
            return True
    return side in walls


class Geometry:
    """Walls and adjacency of one map: ``lit`` maps each Lit cell to ``(tile id, rotation)``, ``cells``
    is every occupied position (Lit or Dark), ``rockslides`` and ``bombs`` are edges (``edge``)."""

    def __init__(
        self,
        cells: Iterable[Pos],
        lit: Mapping[Pos, tuple[str, int]],
        rockslides: Iterable[tuple[int, int, str]] = (),
        bombs: Iterable[tuple[int, int, str]] = (),
    ) -> None:
        self.cells = frozenset(cells)
        self.lit = dict(lit)
        self.rockslides = frozenset(rockslides)
        self.bombs = frozenset(bombs)
        self._walls: dict[Pos, frozenset[str]] = {}
        """``walls`` of each Lit cell asked so far (a ``Geometry`` is never changed once made)."""

    def walls(self, pos: Pos) -> frozenset[str]:
        """The walled sides of the tile at ``pos`` (none for a Dark tile or an empty space)."""
        walls = self._walls.get(pos)
        if walls is None:
            at = self.lit.get(pos)
            if at is None:
                return _NO_WALLS
            walls = self._walls[pos] = tile_walls(*at)
        return walls

    def wall_between(self, pos: Pos, side: str) -> bool:
        """Whether a wall stands on ``side`` of ``pos``: either tile's wall or a Rockslide, unless bombed."""
        if self.bombs or self.rockslides:
            e = edge(pos, side)
            if e in self.bombs:
                return False
            if e in self.rockslides:
                return True
        if side in self.walls(pos):
            return True
        dx, dy = STEP[side]
        return OPPOSITE[side] in self.walls((pos[0] + dx, pos[1] + dy))

    def neighbours(self, pos: Pos) -> list[Pos]:
        """The occupied positions orthogonally adjacent to ``pos`` (walls or not), N, E, S, W order."""
        return [p for p in (step(pos, s) for s in SIDES) if p in self.cells]

    def open_edges(self, pos: Pos) -> list[Side]:
        """The sides of Lit tile ``pos`` with no wall and no tile beyond (Vast rulebook §Tessere Caverna: each
        is filled with a Dark tile before the Collapse)."""
        if pos not in self.lit:
            return []
        return [s for s in SIDES if step(pos, s) not in self.cells and not self.wall_between(pos, s)]

    def all_open_edges(self) -> list[tuple[Pos, Side]]:
        """Every open edge of the map, Lit tiles in ``(x, y)`` order, sides N, E, S, W."""
        return [(p, s) for p in sorted(self.lit) for s in self.open_edges(p)]

    def lit_connected(self, start: Pos, target: Pos = ENTRANCE) -> bool:
        """Whether ``start`` reaches ``target`` through Lit tiles without crossing a wall."""
        seen, queue = {start}, deque([start])
        while queue:
            here = queue.popleft()
            if here == target:
                return True
            for side in SIDES:
                there = step(here, side)
                if there in self.lit and there not in seen and not self.wall_between(here, side):
                    seen.add(there)
                    queue.append(there)
        return False

    def reveal_rotations(self, pos: Pos, tile_id: str, came_from: Pos | None) -> list[int]:
        """The rotations (0-3) a revealed tile may take at ``pos`` (Vast rulebook §Rivelare e risolvere le
        tessere Buie; §Consigli Rapidi - Generali), one per distinct set of walls.

        Entered from ``came_from`` through an open side: an open side must face it. Among those, the
        rotations that connect the tile to the Entrance through Lit tiles; when none does, every one of
        them ("the player who revealed it orients it as they like")."""
        shape = tile_data(tile_id).shape
        candidates: list[int] = []
        seen_walls: set[frozenset[str]] = set()
        for rotation in range(4):
            walls = shape_walls(shape, rotation)
            if walls in seen_walls:
                continue
            seen_walls.add(walls)
            if came_from is not None:
                side = side_towards(pos, came_from)
                if side is not None and side in walls:
                    continue
            candidates.append(rotation)
        connecting = [
            r
            for r in candidates
            if Geometry(
                self.cells, {**self.lit, pos: (tile_id, r)}, self.rockslides, self.bombs
            ).lit_connected(pos)
        ]
        return connecting or candidates

    def touching(self, pos: Pos) -> int:
        """How many tiles touch ``pos`` orthogonally (Vast rulebook §Il Collasso: removal order)."""
        return len(self.neighbours(pos))
