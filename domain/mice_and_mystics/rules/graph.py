"""Spaces as a graph: adjacency, line costs and capacity.

MM rulebook (it) §Caselle Adiacenti: moving between adjacent spaces costs 1. MM rulebook (it) §Linee Gialle:
crossing a yellow line against its arrow costs 3, with it 1; the spaces stay adjacent. MM rulebook (it) §Linee
Rosse: spaces across a red line are not adjacent, mice cannot cross. MM rulebook (it) §Condividere le Caselle:
a space holds 4 small figures or 1 large one; a full space cannot be entered or crossed. MM rulebook (it)
§Aree Speciali: special areas hold any number. MM rulebook (it) §Il Turno di un Servitore: minions ignore red
and yellow lines (and water and mousetraps). MM rulebook (it) §Aree Nere e Muri: the black gaps between the
Pipes' sections (``gap`` edges) are crossed by nobody but a mouse with an item that crosses red lines.

The helpers without a state take the game's content library (``packs.library_of(state)``); the
edges are derived once per library (``content.derived``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from dicelog.domain.mice_and_mystics.content import Edge, Library, derived, shipped_library
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.state import State, space_of

YELLOW_AGAINST_ARROW = 3
SMALL_PER_SPACE = 4


def _edges(lib: Library) -> dict[str, tuple[tuple[str, Edge], ...]]:
    return derived(lib, "graph.edges", _build_edges)


def _build_edges(lib: Library) -> dict[str, tuple[tuple[str, Edge], ...]]:
    out: dict[str, list[tuple[str, Edge]]] = {}
    for tile in lib.tiles.values():
        for edge in tile.edges:
            out.setdefault(edge.a, []).append((edge.b, edge))
            out.setdefault(edge.b, []).append((edge.a, edge))
    return {space: tuple(pairs) for space, pairs in out.items()}


def mouse_neighbours(lib: Library | str, space: str | None = None) -> tuple[tuple[str, int], ...]:
    """(neighbour, cost) of every space a mouse may step to from ``space``, in the content ``lib``.

    Deprecated call form ``mouse_neighbours(space)`` (earlier releases): the shipped content. Kept
    only for the bot (``bot.py``) until it passes ``packs.library_of(state)``; the rules never use it."""
    if space is None:
        lib, space = shipped_library(), str(lib)
    if not isinstance(lib, Library):
        raise TypeError(f"mouse_neighbours(lib, space): lib must be a Library, not {type(lib).__name__}")
    steps = []
    for other, edge in _edges(lib).get(space, ()):
        if edge.line in ("red", "gap"):
            continue
        cost = YELLOW_AGAINST_ARROW if edge.line == "yellow" and edge.arrow_to != other else 1
        steps.append((other, cost))
    return tuple(steps)


def mouse_step_cost(lib: Library, origin: str, target: str) -> int | None:
    """Cost for a mouse to step from ``origin`` to ``target``; ``None`` if not adjacent."""
    return next((cost for other, cost in mouse_neighbours(lib, origin) if other == target), None)


def minion_neighbours(lib: Library, space: str) -> tuple[str, ...]:
    """Spaces a minion may step to: every border, red and yellow lines ignored (cost 1), but no black gap
    (MM rulebook (it) §Aree Nere e Muri: black areas cannot be crossed)."""
    return tuple(other for other, edge in _edges(lib).get(space, ()) if edge.line != "gap")


def size_of(state: State, figure: str) -> str:
    """ "small", "large" or "none" (takes no room, e.g. Brodie's paw token)."""
    card = state.figures.get(figure, figure)
    minion = library_of(state).minions.get(card)
    return minion.size if minion is not None else "small"


def is_mouse(state: State, figure: str) -> bool:
    """Whether ``figure`` is a mouse of the party (not a minion)."""
    return figure in state.party


FAR = 10_000
"""A distance or track slot larger than any on the board (sorts last)."""


def mice_on_board(state: State) -> dict[str, str]:
    """Mouse -> space, for the party mice on the board, in track order."""
    spaces = {m: space for m in state.party if (space := space_of(state, m)) is not None}
    order = sorted(state.party, key=lambda m: state.track.index(m) if m in state.track else FAR)
    return {m: spaces[m] for m in order if m in spaces}


def is_minion(state: State, figure: str) -> bool:
    return state.figures.get(figure) in library_of(state).minions


def minions_on(state: State, space: str) -> tuple[str, ...]:
    return tuple(f for f in state.board.get(space, ()) if is_minion(state, f))


def mice_on(state: State, space: str) -> tuple[str, ...]:
    return tuple(f for f in state.board.get(space, ()) if not is_minion(state, f))


def small_room(state: State, space: str, ignoring: str | None = None) -> int | None:
    """How many more small figures fit on ``space`` (MM rulebook (it) §Condividere le Caselle: 4 small or 1
    large; ``ignoring`` the moving figure itself); ``None`` for a special area of any number."""
    if library_of(state).spaces[space].capacity == "unlimited":
        return None
    others = [size_of(state, f) for f in state.board.get(space, ()) if f != ignoring]
    return 0 if "large" in others else max(0, SMALL_PER_SPACE - others.count("small"))


def can_enter(state: State, space: str, size: str = "small", ignoring: str | None = None) -> bool:
    """Whether a figure of ``size`` fits on ``space`` (``ignoring`` the moving figure itself)."""
    if size == "none":
        return True
    room = small_room(state, space, ignoring)
    if room is None:
        return True
    return room == SMALL_PER_SPACE if size == "large" else room > 0


def is_full(state: State, space: str) -> bool:
    return not can_enter(state, space, "small")


def minion_distances(lib: Library, origins: tuple[str, ...]) -> Mapping[str, int]:
    """Steps from the nearest of ``origins`` to every space, along minion borders (read-only).

    The board's borders do not change during a game, so the distances from each space are found once
    per content library (a breadth-first search, kept with the library: ``content.derived``) and the
    nearest of several origins is the least of their distances."""
    tables = [_distances_from(lib, origin) for origin in dict.fromkeys(origins)]
    if len(tables) == 1:
        return tables[0]
    nearest: dict[str, int] = {}
    for table in tables:
        for space, steps in table.items():
            if steps < nearest.get(space, FAR):
                nearest[space] = steps
    return nearest


def _distances_from(lib: Library, origin: str) -> Mapping[str, int]:
    """Steps from ``origin`` to every space it reaches along minion borders (BFS), computed once per
    library and origin."""
    known: dict[str, Mapping[str, int]] = derived(lib, "graph.minion_distances", lambda _: {})
    found = known.get(origin)
    if found is None:
        dist = {origin: 0}
        frontier = [origin]
        while frontier:
            nxt = []
            for space in frontier:
                for other in minion_neighbours(lib, space):
                    if other not in dist:
                        dist[other] = dist[space] + 1
                        nxt.append(other)
            frontier = nxt
        found = known.setdefault(origin, MappingProxyType(dist))
    return found
