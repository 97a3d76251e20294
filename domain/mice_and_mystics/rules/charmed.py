"""A charmed mouse's turn (MM rulebook (it) §Stregato): it moves and attacks as a melee minion would, using
only its initiative card's values (battle value, no ability or search card bonuses); the charmed marker is
removed as soon as the turn ends.

Played by the server like a minion turn (MM rulebook (it) §Muovere i Servitori con Armi da Mischia; MM
rulebook (it) §Attaccare con un Servitore): one die of movement along the shortest path toward the nearest
other mouse (ties: higher on the track), no move if it starts on another mouse's space; then it attacks the
nearest mouse on its space or an adjacent one. A knocked-down charmed mouse stands up instead of moving, a
webbed one does not move, a stunned one does not attack (docs/mice-and-mystics/rulings.md, Charmed).
"""

from __future__ import annotations

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import DiceRolled, Event, RollRequested
from dicelog.domain.mice_and_mystics.events import (
    ActionStarted,
    AttackDeclared,
    EffectRemoved,
    MinionAttackSkipped,
    MouseMoved,
)
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.dice import MOVE_NUMBER
from dicelog.domain.mice_and_mystics.rules.effects import (
    CHARMED,
    KNOCKED_DOWN,
    STUNNED,
    WEBBED,
    has,
    stand_up,
)
from dicelog.domain.mice_and_mystics.rules.graph import FAR, mice_on_board, minion_distances
from dicelog.domain.mice_and_mystics.rules.minion_turn import path_toward
from dicelog.domain.mice_and_mystics.rules.sight import reach
from dicelog.domain.mice_and_mystics.state import State, board_space, space_of

CHARMED_MOVE, CHARMED_ATTACK = "charmed-move", "charmed-attack"


def is_charmed_turn(state: State) -> bool:
    turn = state.mouse_turn
    return turn is not None and has(state, turn.mouse, CHARMED) and space_of(state, turn.mouse) is not None


def _others(state: State, mouse: str) -> list[tuple[int, int, str]]:
    """(distance, track rank, mouse) of every other mouse on the board."""
    here = board_space(state, mouse)
    dist = minion_distances(library_of(state), (here,))
    return [
        (dist.get(s, FAR), i, m)
        for i, (m, s) in enumerate(mice_on_board(state).items())
        if m != mouse and s in dist
    ]


def charmed_step(state: State) -> list[Event]:
    """The next step of a charmed mouse's turn; ``[]`` once it has moved and attacked."""
    turn = state.mouse_turn
    if turn is None:
        raise InvariantViolated("mouse-turn", "a charmed step outside a mouse's turn")
    mouse, here = turn.mouse, board_space(state, turn.mouse)
    if not turn.moved:
        if has(state, mouse, KNOCKED_DOWN):
            return stand_up(mouse)
        others = _others(state, mouse)
        if has(state, mouse, WEBBED) or not others or any(d == 0 for d, _, _ in others):
            return [MouseMoved(mouse=mouse, origin=here, path=(), cost=0)]
        return [RollRequested(reason=CHARMED_MOVE, dice=1)]
    if turn.action is not None:
        return []
    lib = library_of(state)
    near = [
        (d, i, m) for d, i, m in _others(state, mouse) if reach(lib, here, board_space(state, m)) is not None
    ]
    started = ActionStarted(mouse=mouse, action=CHARMED_ATTACK)
    if not near or has(state, mouse, STUNNED):
        return [started, MinionAttackSkipped(figure=mouse, reason="stunned" if near else "no mouse in reach")]
    dice = library_of(state).mice[mouse].battle
    target = min(near)[2]
    return [
        started,
        AttackDeclared(attacker=mouse, target=target, ranged=False, dice=dice),
        RollRequested(reason=CHARMED_ATTACK, dice=dice),
    ]


def resolve_charmed_move(state: State, answer: DiceRolled) -> list[Event]:
    if state.mouse_turn is None:
        raise InvariantViolated("mouse-turn", "a charmed move roll outside a mouse's turn")
    mouse = state.mouse_turn.mouse
    here = board_space(state, mouse)
    target = min(_others(state, mouse))[2]
    path = path_toward(state, mouse, target, MOVE_NUMBER[answer.faces[0]])
    return [MouseMoved(mouse=mouse, origin=here, path=path, cost=len(path))]


def charm_ends(mouse: str) -> list[Event]:
    return [EffectRemoved(mouse=mouse, effect=CHARMED)]
