"""Recover (MM rulebook (it) §Recupero; MM rulebook (it) §Stordito e Intrappolato).

A stunned or webbed mouse may use its action to recover: stunned is removed at once; webbed is
removed on a star of one die. Recovering from both removes stunned and rolls for the web.
"""

from __future__ import annotations

from dicelog.domain.core.commands import Command
from dicelog.domain.core.errors import InvariantViolated, RuleBroken
from dicelog.domain.core.events import DiceRolled, Event, RollRequested
from dicelog.domain.mice_and_mystics.commands import Recover
from dicelog.domain.mice_and_mystics.events import ActionStarted, EffectRemoved
from dicelog.domain.mice_and_mystics.rules import sections
from dicelog.domain.mice_and_mystics.rules.actions import STUNNED, WEBBED, can_act, check_action
from dicelog.domain.mice_and_mystics.rules.dice import STARS, count
from dicelog.domain.mice_and_mystics.state import State


def decide_recover(state: State, cmd: Recover) -> list[Event]:
    check_action(state, cmd.mouse, "recover")
    effects = state.effects.get(cmd.mouse, ())
    if STUNNED not in effects and WEBBED not in effects:
        raise RuleBroken(
            "recover.nothing-to-recover",
            section=sections.RECOVER,
            detail=f"{cmd.mouse} is neither stunned nor webbed",
        )
    events: list[Event] = [ActionStarted(mouse=cmd.mouse, action="recover")]
    if STUNNED in effects:
        events.append(EffectRemoved(mouse=cmd.mouse, effect=STUNNED))
    if WEBBED in effects:
        events.append(RollRequested(reason="recover", dice=1, piece=cmd.mouse))
    return events


def resolve_recover_roll(state: State, answer: DiceRolled) -> list[Event]:
    if state.mouse_turn is None:
        raise InvariantViolated("mouse-turn", "a recover roll outside a mouse's turn")
    return [EffectRemoved(mouse=state.mouse_turn.mouse, effect=WEBBED)] if count(answer.faces, STARS) else []


def legal_recovers(state: State, mouse: str) -> list[Command]:
    effects = state.effects.get(mouse, ())
    if (STUNNED in effects or WEBBED in effects) and can_act(state, mouse, "recover"):
        return [Recover(mouse=mouse)]
    return []
