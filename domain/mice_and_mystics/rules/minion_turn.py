"""A minion card's turn, run by the server step by step (MM rulebook (it) §Muovere un Servitore; MM rulebook
(it) §Attaccare con un Servitore; MM rulebook (it) §Il Turno di un Servitore).

Every figure of the card acts in turn, the nearest to the mice first. Melee: a figure starting on a
mouse's space does not move; otherwise one die is rolled and it moves the die's move number along
the shortest path toward the nearest mouse (ties: the mouse higher on the track), getting as close
as it can when the mouse's space is full; then it attacks a mouse on its space or an adjacent one.
Ranged: it moves only when it sees no mouse, with no roll: as far along the shortest path toward
the nearest mouse as it needs, stopping as soon as it sees one (rules revision 2; revision 1 rolled
the die for it too); it attacks a mouse it sees. Target: the nearest mouse not yet attacked this
turn; ties (or, when every mouse it can attack was already attacked, regardless of distance) the
mouse higher on the track (MM rulebook (it) §Attaccare con un Servitore, rules 1-2; MM rulebook (pt) "ou se
todos foram neste turno"). Minions ignore water, yellow and red lines and traps when moving. Where several
spaces are equally close, the first in space order is taken (docs/mice-and-mystics/rulings.md). A Rat starting
on the grapes' space with no mouse there does not move and throws them instead of attacking
(``grapes.rat_throw``; MM rulebook (it) §Uva come Arma).
"""

from __future__ import annotations

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import DiceRolled, Event, RollRequested
from dicelog.domain.mice_and_mystics.content import Library
from dicelog.domain.mice_and_mystics.events import (
    AttackDeclared,
    FigureStoodUp,
    MinionActivated,
    MinionAttackSkipped,
    MinionMoved,
)
from dicelog.domain.mice_and_mystics.evolve import evolve
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import bait, brodie, grapes
from dicelog.domain.mice_and_mystics.rules.dice import MOVE_NUMBER
from dicelog.domain.mice_and_mystics.rules.graph import (
    FAR,
    can_enter,
    mice_on_board,
    minion_distances,
    minion_neighbours,
    size_of,
)
from dicelog.domain.mice_and_mystics.rules.movement import space_order
from dicelog.domain.mice_and_mystics.rules.sight import reach, sees
from dicelog.domain.mice_and_mystics.state import State, board_space, space_of

KNOCKED_DOWN = "knocked-down"


def _has_mouse(state: State, space: str) -> bool:
    return any(f in state.party for f in state.board.get(space, ()))


def next_figure(state: State, card: str, acted: tuple[str, ...]) -> str | None:
    """The card's figure on the board that has not acted yet and is nearest to the mice."""
    dist = minion_distances(library_of(state), tuple(mice_on_board(state).values()))
    left = [
        f
        for f, c in state.figures.items()
        if (c == card or card in state.boss_cards.get(f, ()))
        and f not in acted
        and space_of(state, f) is not None
    ]
    return min(left, key=lambda f: (dist.get(board_space(state, f), FAR), f), default=None)


def target_mouse(state: State, here: str) -> str | None:
    """The nearest mouse (minion distance), ties to the mouse higher on the track."""
    dist = minion_distances(library_of(state), (here,))
    mice = [(dist[s], i, m) for i, (m, s) in enumerate(mice_on_board(state).items()) if s in dist]
    return min(mice)[2] if mice else None


def path_toward(
    state: State, figure: str, mouse: str | None, steps: int, goal: str | None = None
) -> tuple[str, ...]:
    """Shortest path of at most ``steps`` toward ``mouse``'s space (or ``goal``: roach bait, where the
    move also stops), ending as close as the figure can get."""
    stop = goal
    here = space_of(state, figure)
    goal = goal or (space_of(state, mouse) if mouse is not None else None)
    if here is None or goal is None:
        raise InvariantViolated("figure-on-board", f"a path from {here} to {goal} for {figure}")
    lib = library_of(state)
    to_goal = minion_distances(lib, (goal,))
    size = size_of(state, figure)
    paths: dict[str, tuple[str, ...]] = {here: ()}
    frontier = [here]
    for _ in range(steps):
        nxt = []
        for space in frontier:
            if paths[space] and (_has_mouse(state, space) or space == stop):
                continue  # entering a mouse's space ends the move
            for other in sorted(minion_neighbours(lib, space), key=space_order):
                fits = can_enter(state, other, size, ignoring=figure)
                if other not in paths and fits and not _off_limits(lib, other):
                    paths[other] = (*paths[space], other)
                    nxt.append(other)
        frontier = nxt
    best = min(paths, key=lambda s: (to_goal.get(s, FAR), len(paths[s]), space_order(s)))
    return paths[best]


def _off_limits(lib: Library, space: str) -> bool:
    """Minions may not enter the Courtyard's tree entrance (docs/mice-and-mystics/facts.md §7, Chapter 1 room
    rules)."""
    return lib.spaces[space].feature == "tree-entrance"


def _sees_a_mouse(state: State, space: str) -> bool:
    lib = library_of(state)
    return any(sees(lib, space, s) for s in mice_on_board(state).values())


def minion_step(state: State) -> list[Event]:
    """The next step of the minion card's turn; ``[]`` once every figure has acted."""
    turn = state.minion_turn
    if turn is None:
        raise InvariantViolated("minion-turn", "a minion step outside a minion turn")
    if turn.figure is None or turn.stage == "done":
        figure = next_figure(state, turn.card, turn.acted)
        return [MinionActivated(figure=figure)] if figure is not None else []
    figure = turn.figure
    here = space_of(state, figure)
    if here is None:
        raise InvariantViolated("figure-on-board", f"the acting minion {figure} is off the board")

    if brodie.is_brodie_turn(state):
        return brodie.brodie_step(state, figure, here)

    if turn.stage == "move":
        # MM rulebook (it) §Uva come Arma: a rat on the grapes does not move
        stays = grapes.rat_on_grapes(state, figure)
        on_grapes: list[Event] = (
            [MinionMoved(figure=figure, origin=here, path=(), reason="on the grapes")] if stays else []
        )
        if KNOCKED_DOWN in state.effects.get(figure, ()):
            return [FigureStoodUp(figure=figure), *on_grapes]  # MM rulebook (it) §Atterrato
        return on_grapes or _move_step(state, figure, here)
    if grapes.rat_on_grapes(state, figure) and turn.crossed == (here,):  # it started its activation there
        return grapes.rat_throw(state, figure)
    return _attack_step(state, figure, here)


def _move_step(state: State, figure: str, here: str) -> list[Event]:
    turn = state.minion_turn
    if turn is None:
        raise InvariantViolated("minion-turn", "a minion move outside a minion turn")
    grapes = bait.bait_for(state, figure)
    if grapes == here:  # a roach ending (here: starting) its move on the grapes eats them
        stay: list[Event] = [MinionMoved(figure=figure, origin=here, path=(), reason="on the grapes")]
        return stay + bait.eaten(evolve(state, stay[0]), figure, here)
    if grapes is not None:
        return [RollRequested(reason="minion-move", dice=1)]  # roaches head for the grapes
    ranged = library_of(state).minions[turn.card].attack == "ranged"
    if ranged and _sees_a_mouse(state, here):
        return [MinionMoved(figure=figure, origin=here, path=(), reason="sees a mouse")]
    if not ranged and _has_mouse(state, here):
        return [MinionMoved(figure=figure, origin=here, path=(), reason="starts on a mouse's space")]
    mouse = target_mouse(state, here)
    if mouse is None:
        return [MinionMoved(figure=figure, origin=here, path=(), reason="no mouse to move toward")]
    if ranged and state.rules_revision >= 2:
        # MM rulebook (it) §Muovere i Servitori con Armi a Distanza: «dovrà usare tutto il movimento
        # necessario per seguire il percorso più breve verso il Topo più vicino»: no movement roll
        return [
            MinionMoved(figure=figure, origin=here, path=_until_it_sees(state, figure, mouse, ALL_THE_WAY))
        ]
    return [RollRequested(reason="minion-move", dice=1)]


ALL_THE_WAY = 1_000
"""Steps a ranged minion that sees no mouse may take (rules revision 2): as many as it needs."""


def _until_it_sees(state: State, figure: str, mouse: str, steps: int) -> tuple[str, ...]:
    """The shortest path toward ``mouse`` (at most ``steps``), cut at the first space from which the
    ranged ``figure`` sees a mouse (MM rulebook (it) «Non appena sarà in grado di vedere un Topo, smetterà di
    muoversi»)."""
    path = path_toward(state, figure, mouse, steps)
    seen = next((i for i, s in enumerate(path) if _sees_a_mouse(state, s)), None)
    return path if seen is None else path[: seen + 1]


def resolve_minion_move(state: State, answer: DiceRolled) -> list[Event]:
    turn = state.minion_turn
    if turn is None or turn.figure is None:
        raise InvariantViolated("minion-turn", "a minion move roll with no minion figure acting")
    figure = turn.figure
    here = board_space(state, figure)
    grapes = bait.bait_for(state, figure)
    if grapes is not None:
        path = path_toward(state, figure, None, MOVE_NUMBER[answer.faces[0]], goal=grapes)
        moved: list[Event] = [MinionMoved(figure=figure, origin=here, path=path)]
        after = state
        for event in moved:
            after = evolve(after, event)
        return moved + (bait.eaten(after, figure, path[-1]) if path else [])
    mouse = target_mouse(state, here)
    steps = MOVE_NUMBER[answer.faces[0]]
    if mouse is not None and library_of(state).minions[turn.card].attack == "ranged":
        path = _until_it_sees(state, figure, mouse, steps)  # rules revision 1 rolled for a ranged minion
    else:
        path = path_toward(state, figure, mouse, steps) if mouse else ()
    return [MinionMoved(figure=figure, origin=here, path=path)]


def _attack_step(state: State, figure: str, here: str) -> list[Event]:
    turn = state.minion_turn
    if turn is None:
        raise InvariantViolated("minion-turn", "a minion attack outside a minion turn")
    lib = library_of(state)
    card = lib.minions[turn.card]
    ranged = card.attack == "ranged"
    attacked = turn.attacked
    dist = minion_distances(lib, (here,))
    options = []
    for i, (mouse, space) in enumerate(mice_on_board(state).items()):
        close = sees(lib, here, space) if ranged else reach(lib, here, space) is not None
        if close:  # rule 2: among mice already attacked only the track counts, not distance
            done = mouse in attacked
            options.append((done, 0 if done else dist.get(space, FAR), i, mouse))
    if not options:
        return [
            MinionAttackSkipped(figure=figure, reason="no mouse in reach" if not ranged else "sees no mouse")
        ]
    target = min(options)[3]
    return [
        AttackDeclared(attacker=figure, target=target, ranged=ranged, dice=card.battle),
        RollRequested(reason="minion-attack", dice=card.battle),
    ]
