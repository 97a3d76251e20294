"""Mouse ability cards: the one-card-a-turn bookkeeping (MM rulebook (it) §Carte Abilità dei Topi; MM rulebook
(it) §Salire di Livello; docs/mice-and-mystics/facts.md §4).

A mouse uses only one ability card a turn, though it may use that card at several moments of the
turn; each use pays the card's cheese (First Aid: a Healer pays 1 less; Cure: 1 per item taken off).
The effects dicelog plays are in ``ability_effects.py`` (Knife Strike, Inspire and Preemptive Shot in
their own modules). A card whose effect is an action taken as Inspire's extra action costs its cheese
plus 1 (``inspire.py``). Cards whose cost or effect no source gives are refused with
``ability.effect-unknown`` (docs/mice-and-mystics/rulings.md, Ability cards).
"""

from __future__ import annotations

from itertools import combinations

from dicelog.domain.core.commands import Command
from dicelog.domain.core.errors import InvariantViolated, RuleBroken
from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.commands import UseAbility
from dicelog.domain.mice_and_mystics.content import Library
from dicelog.domain.mice_and_mystics.events import ActionStarted
from dicelog.domain.mice_and_mystics.item_events import AbilityUsed
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import knife_strike
from dicelog.domain.mice_and_mystics.rules.ability_effects import (
    CHAIN_LIGHTNING,
    CURE,
    EFFECTS,
    FIRST_AID,
    POISON,
    broken,
    lightning_targets,
)
from dicelog.domain.mice_and_mystics.rules.actions import can_act
from dicelog.domain.mice_and_mystics.rules.free_actions import check_not_inside_action
from dicelog.domain.mice_and_mystics.rules.inspire import EXTRA_ACTION_CHEESE, INSPIRE
from dicelog.domain.mice_and_mystics.rules.knife_strike import KNIFE_STRIKE
from dicelog.domain.mice_and_mystics.rules.preemptive_shot import PREEMPTIVE_SHOT
from dicelog.domain.mice_and_mystics.rules.shots import SHOTS
from dicelog.domain.mice_and_mystics.state import State, space_of

IMPLEMENTED = (FIRST_AID, CURE, CHAIN_LIGHTNING, *SHOTS, KNIFE_STRIKE, INSPIRE, PREEMPTIVE_SHOT)
KNOWN_NOT_IMPLEMENTED: tuple[str, ...] = ()  # known effects dicelog does not play yet: none today


def cost_of(lib: Library, mouse: str, ability: str, cmd: UseAbility) -> int:
    if ability == CURE:
        return len(cmd.remove)
    cost = lib.abilities[ability].cost or 0
    return max(cost - 1, 0) if ability == FIRST_AID and "healer" in lib.mice[mouse].classes else cost


def decide_use_ability(state: State, cmd: UseAbility) -> list[Event]:
    """Use an ability card in the mouse's turn: ``[ActionStarted?, AbilityUsed, *effect]``.

    Errors (MM rulebook (it) §Carte Abilità dei Topi): ``free-action.inside-action`` / ``turn.*`` outside the
    mouse's turn or inside another action; ``ability.not-owned``; ``ability.not-implemented``;
    ``ability.effect-unknown``; ``ability.one-per-turn``; the effect's own (``ability_effects.py``);
    ``ability.not-enough-cheese`` (the card's cost, +1 when it is Inspire's extra action)."""
    check_not_inside_action(state, cmd.mouse)
    if cmd.ability not in state.abilities.get(cmd.mouse, ()):
        raise broken("ability.not-owned", f"{cmd.mouse} has no {cmd.ability} card")
    if cmd.ability in KNOWN_NOT_IMPLEMENTED:
        raise broken(
            "ability.not-implemented", f"{cmd.ability}: its effect is known but dicelog does not play it yet"
        )
    if cmd.ability not in IMPLEMENTED:
        raise broken(
            "ability.effect-unknown",
            f"{cmd.ability}: neither the rulebook nor the card texts we hold give its cost and effect",
        )
    turn = state.mouse_turn
    if turn is None:
        raise InvariantViolated("mouse-turn", "check_turn passed but no mouse turn is open")
    if turn.ability is not None and turn.ability != cmd.ability:
        raise broken("ability.one-per-turn", f"{cmd.mouse} already used {turn.ability} this turn")
    effect = EFFECTS[cmd.ability](state, cmd)
    cost = cost_of(library_of(state), cmd.mouse, cmd.ability, cmd)
    extra = (
        EXTRA_ACTION_CHEESE
        if turn.action is not None and any(isinstance(e, ActionStarted) for e in effect)
        else 0
    )
    if cost + extra > state.cheese.get(cmd.mouse, 0):
        raise broken(
            "ability.not-enough-cheese",
            f"{cmd.ability} costs {cost} cheese" + (" + 1 for Inspire's extra action" if extra else ""),
        )
    used = AbilityUsed(mouse=cmd.mouse, ability=cmd.ability, cost=cost)
    if effect and isinstance(effect[0], ActionStarted):
        return [effect[0], used, *effect[1:]]
    return [used, *effect]


def _candidates(state: State, mouse: str, ability: str) -> list[UseAbility]:
    here = space_of(state, mouse)
    friends = sorted(m for m in state.board.get(here, ()) if m in state.party) if here is not None else []
    if ability == FIRST_AID:
        return [UseAbility(mouse=mouse, ability=ability, target=m) for m in friends]
    if ability == CURE:
        return [
            UseAbility(mouse=mouse, ability=ability, target=m, remove=(r,))
            for m in friends
            for r in (*((POISON,) if state.poison_wounds.get(m, 0) else ()), *state.effects.get(m, ()))
        ]
    if ability == CHAIN_LIGHTNING:
        targets, lore = lightning_targets(state, mouse), library_of(state).mice[mouse].lore
        picks = [c for n in range(1, lore + 1) for c in combinations(targets, n)]
        return [UseAbility(mouse=mouse, ability=ability, targets=c) for c in picks]
    if ability == KNIFE_STRIKE:
        return knife_strike.candidates(state, mouse)
    if ability == INSPIRE:
        return [UseAbility(mouse=mouse, ability=ability)]
    shot = ability in SHOTS and can_act(state, mouse, "battle")
    return [UseAbility(mouse=mouse, ability=ability)] if shot else []


def legal_abilities(state: State, mouse: str) -> list[Command]:
    """Every concrete ``UseAbility`` of the mouse that ``decide_use_ability`` accepts now (Preemptive
    Shot never: it answers its window's decision)."""
    out: list[Command] = []
    for ability in state.abilities.get(mouse, ()):
        if ability not in IMPLEMENTED:
            continue
        for command in _candidates(state, mouse, ability):
            try:
                decide_use_ability(state, command)
            except RuleBroken:
                continue
            out.append(command)
    return out
