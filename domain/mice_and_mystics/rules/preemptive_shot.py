"""Preemptive Shot, the Archer's ability card (1 cheese; docs/mice-and-mystics/facts.md §4 row 5; MM rulebook
(it) §Carte Abilità dei Topi; MM rulebook (it) §Attacco a Distanza; MM rulebook (it) §Vedere il Bersaglio).

"Right after new minions are placed: one free ranged attack on one of them; once per placement."
New minions come in another mouse's explore, a summon or an ambush, outside the archer's turn, so the
card is played in a window rather than by a command. ``evolve`` notes the minion figures placed while
the chapter is being played (``State.new_minions``, only while a mouse holds the card). Once the
placement is complete — its initiative shuffle or ambush included, nothing pending — ``flow`` opens
the window before anything else: if the holder is on the board, has the cheese, a ranged weapon, and
sees at least one of the new figures in its room, a ``DecisionRequested`` (decision
``preemptive-shot``, piece the archer, options the figures it may shoot and ``pass``, default
``pass``) asks; a figure → ``AbilityUsed`` (1 cheese) and a ranged attack on it (battle + weapon
bonus, the usual rolls of ``combat.py``); then the game goes on. ``PreemptiveShotWindowClosed``
ends the window in every case, a shot, a pass or nobody eligible (then no decision is asked).

Outside its own turn the shot is not the archer's "one ability card a turn" (it has no turn then);
in its own turn it is, like any card (docs/mice-and-mystics/rulings.md, Preemptive Shot). The nearest-target
rule of ranged attacks does not apply: the card names its targets, the new figures (Maginos' Staff still
counts as melee against a figure on its own space, as in ``battle.py``).
"""

from __future__ import annotations

from dicelog.domain.core.errors import InvariantViolated, RuleBroken
from dicelog.domain.core.events import DecisionMade, DecisionRequested, Event, RollRequested
from dicelog.domain.mice_and_mystics.commands import UseAbility
from dicelog.domain.mice_and_mystics.content import Library
from dicelog.domain.mice_and_mystics.events import AttackDeclared
from dicelog.domain.mice_and_mystics.item_events import AbilityUsed, PreemptiveShotWindowClosed
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.battle import accessory_battle, battle_dice
from dicelog.domain.mice_and_mystics.rules.cards import weapon
from dicelog.domain.mice_and_mystics.rules.graph import is_minion
from dicelog.domain.mice_and_mystics.rules.sight import same_room, sees
from dicelog.domain.mice_and_mystics.state import State, space_of

SECTION = "MM rulebook (it) §Carte Abilità dei Topi"
PREEMPTIVE_SHOT = "preemptive-shot"
PASS = "pass"
STAFF_MELEE = "staff-melee-on-own-space"


def holder(state: State) -> str | None:
    """The mouse holding Preemptive Shot (each ability card exists once: docs/mice-and-mystics/rulings.md,
    Level up)."""
    return next((m for m in state.party if PREEMPTIVE_SHOT in state.abilities.get(m, ())), None)


def cost(lib: Library) -> int:
    return lib.abilities[PREEMPTIVE_SHOT].cost or 0


def may_shoot(state: State, mouse: str) -> bool:
    """On the board, with the cheese and a ranged weapon; in its own turn, no other card used."""
    item = weapon(mouse, state)
    if mouse in state.captured or space_of(state, mouse) is None or item is None or item.attack != "ranged":
        return False
    if state.cheese.get(mouse, 0) < cost(library_of(state)):
        return False
    turn = state.mouse_turn
    return turn is None or turn.mouse != mouse or turn.ability in (None, PREEMPTIVE_SHOT)


def shot_targets(state: State, mouse: str) -> list[str]:
    """The newly placed minion figures on the board that the mouse sees in its room, sorted."""
    here = space_of(state, mouse)
    if here is None:
        return []
    new, lib = set(state.new_minions), library_of(state)
    return sorted(
        f
        for s, figs in state.board.items()
        for f in figs
        if f in new and is_minion(state, f) and same_room(lib, here, s) and sees(lib, here, s)
    )


def window(state: State) -> list[Event]:
    """``flow`` step once a placement is complete: the decision for the holder, or the window closed."""
    mouse = holder(state)
    targets = shot_targets(state, mouse) if mouse is not None and may_shoot(state, mouse) else []
    if mouse is None or not targets:
        return [PreemptiveShotWindowClosed(figures=state.new_minions)]
    return [DecisionRequested(decision=PREEMPTIVE_SHOT, options=(*targets, PASS), piece=mouse, default=PASS)]


def resolve_preemptive_shot(state: State, answer: DecisionMade) -> list[Event]:
    """A figure: pay, close the window, declare the ranged attack and ask for its roll; ``pass``:
    close the window."""
    mouse = holder(state)
    closed = PreemptiveShotWindowClosed(figures=state.new_minions)
    if mouse is None or answer.option == PASS or answer.option not in shot_targets(state, mouse):
        return [closed]
    item = weapon(mouse, state)
    if item is None:
        raise InvariantViolated("shooter-armed", f"{mouse} was offered Preemptive Shot with no weapon")
    ranged = not (item.special == STAFF_MELEE and space_of(state, answer.option) == space_of(state, mouse))
    dice = battle_dice(state, mouse) + accessory_battle(state, mouse, ranged)
    return [
        AbilityUsed(mouse=mouse, ability=PREEMPTIVE_SHOT, cost=cost(library_of(state))),
        PreemptiveShotWindowClosed(figures=state.new_minions, mouse=mouse),
        AttackDeclared(attacker=mouse, target=answer.option, ranged=ranged, dice=dice),
        RollRequested(reason="battle", dice=dice, piece=mouse),
    ]


def decide_preemptive_shot(state: State, cmd: UseAbility) -> list[Event]:
    """``UseAbility(ability="preemptive-shot")`` as a command is always refused: the card is played by
    answering its window's decision. Error: ``ability.not-now``."""
    raise RuleBroken(
        "ability.not-now",
        section=SECTION,
        detail="Preemptive Shot is played right after new minions are placed, answering the "
        "'preemptive-shot' decision",
    )
