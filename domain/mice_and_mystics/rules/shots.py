"""Archer ability cards that change the next ranged attack of the turn (docs/mice-and-mystics/facts.md §4:
Aimed Shot, Power Shot, Accurate Shot; MM rulebook (it) §Carte Abilità dei Topi).

Played before the mouse's Battle action (``ability_cards.py``), they apply to that action's attack if
it is ranged: Aimed Shot +1 battle die; Power Shot doubles the attack's battle dice
(docs/mice-and-mystics/rulings.md,Ability cards); Accurate Shot makes the target roll 2 fewer defense dice. A
shot changes only the attack of the action it was played before: played before the turn's first action, not
the attack of Inspire's extra action; played once the first action is over, only the extra action's attack.
"""

from __future__ import annotations

from dicelog.domain.mice_and_mystics.state import State

AIMED_SHOT, POWER_SHOT, ACCURATE_SHOT = "aimed-shot", "power-shot", "accurate-shot"
SHOTS = (AIMED_SHOT, POWER_SHOT, ACCURATE_SHOT)
ACCURATE_SHOT_PENALTY = 2


def _shot(state: State, mouse: str) -> str | None:
    turn = state.mouse_turn
    if turn is None or turn.mouse != mouse or turn.ability not in SHOTS:
        return None
    # the attack is the extra action's once ExtraActionTaken is evolved, or, while its Battle is being
    # decided (no attack in flight), as soon as the first action was taken
    extra = turn.extra_action or (state.attack is None and turn.action is not None)
    return turn.ability if extra == turn.ability_after_action else None


def battle_dice(state: State, mouse: str, dice: int, ranged: bool) -> int:
    """The battle dice of the mouse's attack, after Aimed Shot or Power Shot (ranged attacks only)."""
    shot = _shot(state, mouse) if ranged else None
    if shot == AIMED_SHOT:
        return dice + 1
    if shot == POWER_SHOT:
        return dice * 2
    return dice


def defense_penalty(state: State, attacker: str) -> int:
    """Accurate Shot: defense dice the target of the mouse's ranged attack loses."""
    if state.attack is None or not state.attack.ranged or _shot(state, attacker) != ACCURATE_SHOT:
        return 0
    return ACCURATE_SHOT_PENALTY
