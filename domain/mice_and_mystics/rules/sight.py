"""Line of sight and reach (MM rulebook (it) §Vedere il Bersaglio; MM rulebook (it) §Caselle Adiacenti; MM
rulebook (it) §Linee Rosse).

A figure sees a space of its own room when the segment from the centre of its space to the centre
of the other does not cross a wall or the outline of a black area (``RoomTile.walls``; provisional
geometry, docs/mice-and-mystics/facts.md §8). Touching a wall counts as crossing it. Spaces across a red line
are not adjacent for anyone (MM summary (fr) "considérée non adjacente (pour tout le monde)"), so melee
reaches the same space and the spaces adjacent across plain and yellow lines.

Every function takes the game's content library (``packs.library_of(state)``); what a space
sees is remembered per library (``content.derived``), so games of different content never share it.
"""

from __future__ import annotations

from dicelog.domain.mice_and_mystics.content import Library, derived, shipped_library
from dicelog.domain.mice_and_mystics.rules.graph import mouse_neighbours

Point = tuple[float, float]


def _orientation(p: Point, q: Point, r: Point) -> int:
    value = (q[1] - p[1]) * (r[0] - q[0]) - (q[0] - p[0]) * (r[1] - q[1])
    return 0 if abs(value) < 1e-9 else (1 if value > 0 else 2)


def _on_segment(p: Point, q: Point, r: Point) -> bool:
    """``q`` lies on segment ``pr`` (given the three are collinear)."""
    return (
        min(p[0], r[0]) - 1e-9 <= q[0] <= max(p[0], r[0]) + 1e-9
        and min(p[1], r[1]) - 1e-9 <= q[1] <= max(p[1], r[1]) + 1e-9
    )


def segments_intersect(p1: Point, q1: Point, p2: Point, q2: Point) -> bool:
    """Whether segments p1-q1 and p2-q2 share a point (touching included)."""
    o1, o2 = _orientation(p1, q1, p2), _orientation(p1, q1, q2)
    o3, o4 = _orientation(p2, q2, p1), _orientation(p2, q2, q1)
    if o1 != o2 and o3 != o4:
        return True
    return (
        (o1 == 0 and _on_segment(p1, p2, q1))
        or (o2 == 0 and _on_segment(p1, q2, q1))
        or (o3 == 0 and _on_segment(p2, p1, q2))
        or (o4 == 0 and _on_segment(p2, q1, q2))
    )


def same_room(lib: Library, a: str, b: str) -> bool:
    return lib.space_tile[a] == lib.space_tile[b]


def sees(lib: Library | str, a: str, b: str | None = None) -> bool:
    """Whether a figure on space ``a`` sees space ``b`` in the content ``lib``: same room, no wall crossed.

    Deprecated call form ``sees(a, b)`` (earlier releases): the shipped content. Kept only for
    the bot (``bot.py``) until it passes ``packs.library_of(state)``; the rules never use it."""
    if b is None:
        lib, a, b = shipped_library(), str(lib), a
    if not isinstance(lib, Library):
        raise TypeError(f"sees(lib, a, b): lib must be a Library, not {type(lib).__name__}")
    seen = derived(lib, "sight.sees", _no_sight_yet)
    found = seen.get((a, b))
    if found is None:
        found = seen.setdefault((a, b), _sees(lib, a, b))
    return found


def _no_sight_yet(lib: Library) -> dict[tuple[str, str], bool]:
    return {}


def _sees(lib: Library, a: str, b: str) -> bool:
    if a == b:
        return True
    if not same_room(lib, a, b):
        return False
    if "tree-entrance" in (lib.spaces[a].feature, lib.spaces[b].feature):
        # MM rulebook (it) §Capitolo 1, Il Cortile: only the space next to the trunk hole
        return reach(lib, a, b) is not None
    start, end = lib.spaces[a].centre, lib.spaces[b].centre
    walls = lib.tiles[lib.space_tile[a]].walls
    return not any(segments_intersect(start, end, w.a, w.b) for w in walls)


def reach(lib: Library, a: str, b: str) -> int | None:
    """0 on the same space, 1 when adjacent (plain or yellow line), else ``None``."""
    if a == b:
        return 0
    return 1 if any(other == b for other, _ in mouse_neighbours(lib, a)) else None
