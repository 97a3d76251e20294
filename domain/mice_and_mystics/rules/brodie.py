"""Brodie the cat (MM rulebook (it) §Brodie; §Brodie Graffia; §Brodie Insegue; docs/mice-and-mystics/facts.md
§3).

Brodie is the boss figure ``brodie`` (a paw token taking no room) acting on two cards.
- Pounces: he jumps to the space of his room holding the most figures (minions included, his own
  paw not counted); ties go to the space holding the figure highest on the track; with no figure
  in the room he stays. One attack roll; every figure on that space defends separately.
- Chases: two dice, the sum of their move numbers is his move, along the shortest path toward the
  nearest mouse not on his start space (ties: higher on the track); movement left once he reaches it
  carries him on toward the next nearest. He does not move if every mouse is on his space. One
  attack roll then hits every figure on every space he crossed, start and end included, each
  defending separately. "Se ci sono vari percorsi egualmente brevi, i giocatori possono decidere
  quale di questi utilizzare": when the shortest paths toward his target, cut to the movement he
  has left, are not all the same, the players choose one (decision ``brodie-path``, options the
  paths as spaces joined with ``>``, default the first found in tile order); after reaching a mouse
  with movement left he may need a second choice toward the next. The chase is deferred until every
  such choice is made and then re-run (``rules/ties.py``, context ``brodie-chase``).
His cheese never goes on the wheel (``abilities.ignores_cheese``).
"""

from __future__ import annotations

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import DiceRolled, Event, RollRequested
from dicelog.domain.mice_and_mystics.content import Library
from dicelog.domain.mice_and_mystics.events import AttackDeclared, MinionAttackSkipped, MinionMoved
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.dice import MOVE_NUMBER
from dicelog.domain.mice_and_mystics.rules.graph import (
    FAR,
    mice_on_board,
    minion_distances,
    minion_neighbours,
)
from dicelog.domain.mice_and_mystics.rules.movement import space_order
from dicelog.domain.mice_and_mystics.rules.ties import BRODIE_CHASE, BRODIE_PATH, Choices, settle
from dicelog.domain.mice_and_mystics.state import State, board_space

CHASE = "brodie-chase"
PATH_JOIN = ">"


def is_brodie_turn(state: State) -> bool:
    turn = state.minion_turn
    if turn is None:
        return False
    card = library_of(state).minions.get(turn.card)
    return card is not None and bool({"chase", "pounce"} & set(card.abilities))


def _rank(state: State, figure: str) -> int:
    card = state.figures.get(figure, figure)
    cards = (card, *state.boss_cards.get(figure, ()))
    return min((state.track.index(c) for c in cards if c in state.track), default=FAR)


def pounce_space(state: State, figure: str, here: str) -> str:
    tiles = library_of(state).space_tile
    room = tiles[here]
    scored = []
    for space, figures in state.board.items():
        others = [f for f in figures if f != figure]
        if others and tiles[space] == room:
            scored.append((-len(others), min(_rank(state, f) for f in others), space_order(space), space))
    return min(scored)[3] if scored else here


def shortest_path(lib: Library, origin: str, goal: str) -> tuple[str, ...]:
    """The first shortest path of a breadth-first search in tile order along minion borders (he
    ignores lines and capacity): the default among equally short paths."""
    paths: dict[str, tuple[str, ...]] = {origin: ()}
    frontier = [origin]
    while frontier and goal not in paths:
        nxt = []
        for space in frontier:
            for other in sorted(minion_neighbours(lib, space), key=space_order):
                if other not in paths:
                    paths[other] = (*paths[space], other)
                    nxt.append(other)
        frontier = nxt
    return paths.get(goal, ())


def shortest_paths(lib: Library, origin: str, goal: str, steps: int) -> tuple[tuple[str, ...], ...]:
    """Every distinct first ``steps`` steps (fewer if the goal is nearer) of the shortest paths from
    ``origin`` to ``goal`` along minion borders, found depth first in tile order; ``()`` if none."""
    to_goal = minion_distances(lib, (goal,))
    if origin not in to_goal:
        return ()
    limit = min(steps, to_goal[origin])
    found: list[tuple[str, ...]] = []

    def walk(here: str, path: tuple[str, ...]) -> None:
        if len(path) == limit:
            found.append(path)
            return
        for other in sorted(minion_neighbours(lib, here), key=space_order):
            if to_goal.get(other) == to_goal[here] - 1:
                walk(other, (*path, other))

    walk(origin, ())
    return tuple(found)


def chase_path(state: State, origin: str, steps: int, choices: Choices | None = None) -> tuple[str, ...]:
    """The spaces Brodie steps on chasing with ``steps`` movement from ``origin`` (MM rulebook (it) §Brodie
    Insegue). Equally short paths that differ are broken by ``choices`` (``rules/ties.py``:
    ``Undecided`` at an unanswered tie; ``None`` takes the default, the first shortest path of a
    breadth-first search in tile order)."""
    choices = choices if choices is not None else Choices.defaults()
    path: list[str] = []
    reached: set[str] = {origin}
    here, left = origin, steps
    lib = library_of(state)
    while left > 0:
        dist = minion_distances(lib, (here,))
        targets = [
            (dist[s], i, s, m)
            for i, (m, s) in enumerate(mice_on_board(state).items())
            if s in dist and s not in reached
        ]
        if not targets:
            break
        _, _, goal, mouse = min(targets)
        route = shortest_path(lib, here, goal)[:left]
        routes = shortest_paths(lib, here, goal, left)
        if len(routes) > 1:
            options = tuple(PATH_JOIN.join(r) for r in routes)
            picked = choices.pick(
                BRODIE_PATH, options, PATH_JOIN.join(route), subject="brodie", count=left, toward=mouse
            )
            route = tuple(picked.split(PATH_JOIN))
        path += route
        left -= len(route)
        here = path[-1] if path else here
        if here == goal or not route:
            reached.add(goal)
    return tuple(path)


def brodie_step(state: State, figure: str, here: str) -> list[Event]:
    turn = state.minion_turn
    if turn is None:
        raise InvariantViolated("minion-turn", "a Brodie step outside a minion turn")
    card = library_of(state).minions[turn.card]
    if turn.stage == "move":
        if "pounce" in card.abilities:
            target = pounce_space(state, figure, here)
            return [
                MinionMoved(
                    figure=figure, origin=here, path=(target,) if target != here else (), reason="pounce"
                )
            ]
        if not chase_path(state, here, 1):
            return [MinionMoved(figure=figure, origin=here, path=(), reason="no mouse off his space")]
        return [RollRequested(reason=CHASE, dice=2)]
    spaces = (here,) if "pounce" in card.abilities else turn.crossed or (here,)
    defenders = [f for s in dict.fromkeys(spaces) for f in state.board.get(s, ()) if f != figure]
    if not defenders:
        return [MinionAttackSkipped(figure=figure, reason="no figure where he passed")]
    return [
        AttackDeclared(
            attacker=figure, target=defenders[0], ranged=False, dice=card.battle, others=tuple(defenders[1:])
        ),
        RollRequested(reason="minion-attack", dice=card.battle),
    ]


def resolve_chase(state: State, answer: DiceRolled) -> list[Event]:
    """Brodie's chase after his move roll (MM rulebook (it) §Brodie Insegue: the sum of the two dice's move
    numbers): ``MinionMoved`` along ``chase_path``; or, at equally short paths not yet chosen
    between, only the deferral and the decision (``ties.settle``, context ``brodie-chase``)."""
    turn = state.minion_turn
    if turn is None or turn.figure is None:
        raise InvariantViolated("minion-turn", "a chase roll with no minion figure acting")
    here = board_space(state, turn.figure)
    steps = sum(MOVE_NUMBER[f] for f in answer.faces)
    figure = turn.figure

    def chase(choices: Choices) -> list[Event]:
        return [
            MinionMoved(
                figure=figure, origin=here, path=chase_path(state, here, steps, choices), reason="chase"
            )
        ]

    return settle(state, BRODIE_CHASE, chase, answer)
