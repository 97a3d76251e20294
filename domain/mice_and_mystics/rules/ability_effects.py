"""The effects of the ability cards dicelog plays (docs/mice-and-mystics/facts.md §4; MM rulebook (it) §Carte
Abilità dei Topi). The one-card-a-turn bookkeeping, costs and refusals are in ``ability_cards.py``.

- First Aid: free, once a turn, not in water: 1 wound (not a poison wound) off a mouse on the space.
- Aimed / Power / Accurate Shot: before a Battle action of a mouse with a ranged weapon, once per
  attack, paid each time (``shots.py``).
- Cure (an action): poison wounds or effect markers off a mouse on the same space, 1 to 3.
- Chain Lightning (the Battle action): 1 to Lore minions the mouse sees, one 3-dice ranged roll, each
  target defends in turn.
- Knife Strike (the Battle action): one melee attack per equipped dagger (``knife_strike.py``).
- Inspire: before the leader's turn; an extra action for 1 cheese until the round ends (``inspire.py``).
- Preemptive Shot: played in the window after a placement, never by command (``preemptive_shot.py``).
"""

from __future__ import annotations

from dicelog.domain.core.errors import InvariantViolated, RuleBroken
from dicelog.domain.core.events import Event, RollRequested
from dicelog.domain.mice_and_mystics.commands import UseAbility
from dicelog.domain.mice_and_mystics.events import ActionStarted, AttackDeclared, EffectRemoved, MouseHealed
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.actions import check_action
from dicelog.domain.mice_and_mystics.rules.cards import weapon
from dicelog.domain.mice_and_mystics.rules.free_actions import check_free_action
from dicelog.domain.mice_and_mystics.rules.graph import is_minion
from dicelog.domain.mice_and_mystics.rules.inspire import INSPIRE, decide_inspire
from dicelog.domain.mice_and_mystics.rules.knife_strike import KNIFE_STRIKE, decide_knife_strike
from dicelog.domain.mice_and_mystics.rules.preemptive_shot import PREEMPTIVE_SHOT, decide_preemptive_shot
from dicelog.domain.mice_and_mystics.rules.shots import SHOTS
from dicelog.domain.mice_and_mystics.rules.sight import same_room, sees
from dicelog.domain.mice_and_mystics.state import State, space_of

SECTION = "MM rulebook (it) §Carte Abilità dei Topi"
FIRST_AID, CURE, CHAIN_LIGHTNING = "first-aid", "cure", "chain-lightning"
CURE_MAX, CHAIN_LIGHTNING_DICE, POISON = 3, 3, "poison"


def broken(rule: str, detail: str) -> RuleBroken:
    return RuleBroken(rule, section=SECTION, detail=detail)


def _same_space_mouse(state: State, mouse: str, target: str | None) -> str:
    there = space_of(state, target) if target is not None else None
    if target is None or target not in state.party or there is None or there != space_of(state, mouse):
        raise broken("ability.invalid-target", f"{target} is not a mouse on {mouse}'s space")
    return target


def _first_aid(state: State, cmd: UseAbility) -> list[Event]:
    check_free_action(state, cmd.mouse, FIRST_AID)
    if state.mouse_turn is None:
        raise InvariantViolated("mouse-turn", "check_free_action passed but no mouse turn is open")
    if FIRST_AID in state.mouse_turn.ability_uses:
        raise broken("ability.once-per-turn", "First Aid is used at most once a turn")
    target = _same_space_mouse(state, cmd.mouse, cmd.target)
    if state.wounds.get(target, 0) - state.poison_wounds.get(target, 0) <= 0:
        raise broken("ability.nothing-to-heal", f"{target} has no wound First Aid can take off")
    return [MouseHealed(mouse=target, wounds=1, reason=FIRST_AID)]


def _shot(state: State, cmd: UseAbility) -> list[Event]:
    check_action(state, cmd.mouse, "battle")
    turn = state.mouse_turn
    if (
        turn is not None
        and cmd.ability in turn.ability_uses
        and turn.ability_after_action == (turn.action is not None)
    ):
        raise broken("ability.once-per-attack", f"{cmd.ability} already applies to this action's attack")
    item = weapon(cmd.mouse, state)
    if item is None or item.attack != "ranged":
        raise broken("ability.needs-ranged-weapon", f"{cmd.ability} is played before a ranged attack")
    return []


def _cure(state: State, cmd: UseAbility) -> list[Event]:
    check_action(state, cmd.mouse, CURE)
    target = _same_space_mouse(state, cmd.mouse, cmd.target)
    if not 1 <= len(cmd.remove) <= CURE_MAX:
        raise broken("ability.invalid-remove", "Cure takes off 1 to 3 poison wounds or effect markers")
    poison, effects = cmd.remove.count(POISON), [r for r in cmd.remove if r != POISON]
    has = state.effects.get(target, ())
    repeated = len(set(effects)) != len(effects)
    if poison > state.poison_wounds.get(target, 0) or repeated or not set(effects) <= set(has):
        raise broken("ability.invalid-remove", f"{target} has not got {', '.join(cmd.remove)}")
    events: list[Event] = [ActionStarted(mouse=cmd.mouse, action=CURE)]
    if poison:
        events.append(MouseHealed(mouse=target, wounds=0, poison=poison, reason=CURE))
    return events + [EffectRemoved(mouse=target, effect=e) for e in effects]


def lightning_targets(state: State, mouse: str) -> list[str]:
    here = space_of(state, mouse)
    if here is None:
        return []
    lib = library_of(state)
    return sorted(
        f
        for s, figs in state.board.items()
        for f in figs
        if is_minion(state, f) and same_room(lib, here, s) and (s == here or sees(lib, here, s))
    )


def _chain_lightning(state: State, cmd: UseAbility) -> list[Event]:
    check_action(state, cmd.mouse, "battle")
    lore = library_of(state).mice[cmd.mouse].lore
    if not 1 <= len(cmd.targets) <= lore or len(set(cmd.targets)) != len(cmd.targets):
        raise broken("ability.invalid-targets", f"Chain Lightning picks 1 to {lore} minions")
    if not set(cmd.targets) <= set(lightning_targets(state, cmd.mouse)):
        raise RuleBroken(
            "ability.invalid-targets",
            section="MM rulebook (it) §Vedere il Bersaglio",
            detail="a target is not in sight",
        )
    first, *rest = cmd.targets
    return [
        ActionStarted(mouse=cmd.mouse, action="battle"),
        AttackDeclared(
            attacker=cmd.mouse, target=first, ranged=True, dice=CHAIN_LIGHTNING_DICE, others=tuple(rest)
        ),
        RollRequested(reason="battle", dice=CHAIN_LIGHTNING_DICE, piece=cmd.mouse),
    ]


EFFECTS = {
    FIRST_AID: _first_aid,
    CURE: _cure,
    CHAIN_LIGHTNING: _chain_lightning,
    **dict.fromkeys(SHOTS, _shot),
    KNIFE_STRIKE: decide_knife_strike,
    INSPIRE: decide_inspire,
    PREEMPTIVE_SHOT: decide_preemptive_shot,
}
