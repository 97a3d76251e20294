"""A simple, readable bot policy that tries to win Chapter 1: the ruleset's ``bot``
(``dicelog.domain.core.ruleset``), for bot seats, ``dicelog demo`` and tests.

It reads the game state (``GET /games/{id}/state``, decoded into the ruleset's ``State``) and picks
one of the legal commands, in this order of wishes:

1. fight: attack a minion in reach (the most wounded first);
2. with minions in the room: walk toward the nearest one (a ranged mouse that sees one stays);
3. with the room clear: in the goal room walk to the goal space (the tree entrance); elsewhere
   explore the way out whose room is fewest explorations from the goal room, or walk toward it;
4. search a room once when nothing else is useful, scurry when the goal is still far;
5. end the turn.
Water spaces are never chosen as destinations. Ties go to the first in the legal list. Decisions are
answered with their documented default. Pure: it draws nothing from the ``rng`` it is given.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.cards import weapon
from dicelog.domain.mice_and_mystics.rules.explore import OFFSET, OPPOSITE
from dicelog.domain.mice_and_mystics.rules.graph import is_minion, mouse_neighbours
from dicelog.domain.mice_and_mystics.rules.sight import sees
from dicelog.domain.mice_and_mystics.state import State, board_space

if TYPE_CHECKING:
    import random

FAR = 10_000


def decode_state(raw: dict[str, Any]) -> State:
    return msgspec.convert(raw, State, strict=False)


def distances(targets: set[str]) -> dict[str, int]:
    """Movement cost from every space to the nearest target (Dijkstra over mouse steps)."""
    best: dict[str, int] = {}
    heap = [(0, t) for t in targets]
    while heap:
        cost, here = heapq.heappop(heap)
        if here in best:
            continue
        best[here] = cost
        for other, step in mouse_neighbours(here):
            if other not in best:
                heapq.heappush(heap, (cost + step, other))
    return best


def _face_neighbours(state: State, face: str) -> list[tuple[str, str]]:
    """(via, face entered) for every way out of ``face`` where its board lies on the table."""
    lib = library_of(state)
    tile = lib.tiles[face]
    placed = next((p for p in state.tiles if p.tile in (face, tile.reverse)), None)
    if placed is None:
        return []
    out = []
    if any(s.kind == "flip" and not s.flip_requires for s in tile.spaces):
        out.append(("flip", tile.reverse))
    for exit_ in tile.exits:
        dx, dy = OFFSET[exit_.side]
        beside = next(
            (p for p in state.tiles if (p.column, p.row) == (placed.column + dx, placed.row + dy)), None
        )
        if beside is None:
            continue
        other = lib.tiles[beside.tile]
        other = other if other.side == tile.side else lib.tiles[other.reverse]
        if any(e.side == OPPOSITE[exit_.side] and e.colour == exit_.colour for e in other.exits):
            out.append((exit_.side, other.id))
    return out


def rooms_to(state: State, goal: str) -> dict[str, int]:
    """Explorations needed from each face to the goal face (BFS backwards over the ways out)."""
    lib = library_of(state)
    faces = {f for p in state.tiles for f in (p.tile, lib.tiles[p.tile].reverse)}
    dist, frontier = {goal: 0}, [goal]
    while frontier:
        nxt = []
        for face in faces - set(dist):
            if any(to in frontier for _, to in _face_neighbours(state, face)):
                dist[face] = dist[frontier[0]] + 1
                nxt.append(face)
        frontier = nxt
    return dist


def _way_out(state: State, room: str, goal: str) -> tuple[str | None, set[str]]:
    """The best way out of ``room`` (via) and the spaces a mouse must stand on to take it."""
    dist = rooms_to(state, goal)
    options = sorted(_face_neighbours(state, room), key=lambda o: dist.get(o[1], FAR))
    if not options or dist.get(options[0][1], FAR) >= dist.get(room, FAR):
        return None, set()
    via = options[0][0]
    tile = library_of(state).tiles[room]
    if via == "flip":
        return via, {s.id for s in tile.spaces if s.kind == "flip"}
    return via, set(next(e.spaces for e in tile.exits if e.side == via))


def choose_for(state: State, mouse: str, commands: list[dict[str, Any]]) -> dict[str, Any]:
    lib = library_of(state)
    by: dict[str, list[dict[str, Any]]] = {}
    for c in commands:
        by.setdefault(c["type"], []).append(c)
    if "Recover" in by:
        return by["Recover"][0]
    if "Battle" in by:
        return max(by["Battle"], key=lambda c: state.wounds.get(c["target"], 0))
    here = board_space(state, mouse)  # the mouse on turn stands on the board
    room = lib.space_tile[here]
    minions = {
        s
        for s, figs in state.board.items()
        for f in figs
        if is_minion(state, f) and lib.space_tile[s] == room
    }
    goal = lib.chapters[state.chapter].goal
    targets: set[str] = set()
    if minions:
        item = weapon(mouse, state)
        if item is not None and item.attack == "ranged" and any(sees(here, s) for s in minions):
            targets = {here}
        else:
            targets = minions
    elif goal is not None and room == goal.tile:
        targets = {s.id for s in lib.tiles[room].spaces if s.feature == goal.feature}
    elif goal is not None:
        via, targets = _way_out(state, room, goal.tile)
        explore = next((c for c in by.get("Explore", []) if c["via"] == via), None)
        if explore is not None:
            return explore
    dist = distances(targets) if targets else {}
    wants_to_move = bool(targets) and here not in targets
    if "MoveTo" in by and wants_to_move:
        dry = [c for c in by["MoveTo"] if not lib.spaces[c["path"][-1]].water] or by["MoveTo"]
        best = min(dry, key=lambda c: dist.get(c["path"][-1], FAR))
        if dist.get(best["path"][-1], FAR) < dist.get(here, FAR):
            return best
    if "Move" in by and wants_to_move:
        return by["Move"][0]
    if "Scurry" in by and wants_to_move and not minions and dist.get(here, FAR) > 2:
        return by["Scurry"][0]
    if "Search" in by and not minions:
        return by["Search"][0]
    if "EndTurn" in by:
        return by["EndTurn"][0]
    return commands[0]


def _mouse_on_turn(state: State) -> str:
    return state.mouse_turn.mouse if state.mouse_turn is not None and state.phase == "playing" else ""


def choose(view: State, legal: Sequence[Any], rng: random.Random) -> Any:
    """One of ``legal`` (the seat's ruleset commands) for the mouse on turn in ``view``, by ``choose_for``."""
    shown = [msgspec.to_builtins(c) for c in legal]
    picked = choose_for(view, _mouse_on_turn(view), shown)
    return legal[next(i for i, c in enumerate(shown) if c is picked)]


def decide(view: State, pending: dict[str, Any], options: Sequence[str], rng: random.Random) -> str:
    """The pending decision's documented default, else its first option."""
    default = pending.get("default")
    return default if isinstance(default, str) and default in options else options[0]


# Order of preference among legal commands; unknown command types come before EndTurn.
PREFERENCE = ("Battle", "Explore", "Search", "Recover", "Move", "MoveTo", "Scurry")


def choose_command(
    commands: list[dict[str, Any]], rng: random.Random, state: Any = None, mouse: str | None = None
) -> dict[str, Any]:
    """The bot policy. Given the game state, ``dicelog.service.bot.choose_for`` (fight, explore toward the
    goal room, walk to the goal space). Without it, the most preferred command type; among several
    of that type, a random one (for ``MoveTo``, favouring longer paths)."""
    if state is not None and mouse is not None and commands:
        return choose_for(state, mouse, commands)
    by_type: dict[str, list[dict[str, Any]]] = {}
    for command in commands:
        by_type.setdefault(command["type"], []).append(command)
    unknown = [t for t in by_type if t not in PREFERENCE and t != "EndTurn"]
    for kind in (*PREFERENCE[:4], *unknown, *PREFERENCE[4:], "EndTurn"):
        options = by_type.get(kind)
        if options:
            if kind == "MoveTo":
                longest = max(len(c["path"]) for c in options)
                options = [c for c in options if len(c["path"]) == longest]
            return rng.choice(options)
    raise ValueError("no legal command")
