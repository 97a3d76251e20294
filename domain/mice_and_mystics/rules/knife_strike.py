"""Knife Strike, the Scamp's ability card (2 cheese; docs/mice-and-mystics/facts.md §4 row 9; MM rulebook (it)
§Carte Abilità dei Topi; MM rulebook (it) §Attacco in Mischia).

"Replaces the normal battle action: attack once with each knife/dagger equipped." The card is the
mouse's Battle action: ``UseAbility(mouse, ability="knife-strike", target=figure)`` makes the first
attack, with the first equipped dagger, on a minion of its room on its space or an adjacent one (a
dagger is a melee weapon). Each further equipped dagger (two paws; Filch's tail holds a third,
docs/mice-and-mystics/facts.md §2) gives one more attack once the previous one is resolved: a
``DecisionRequested`` (decision ``knife-strike``, the minions then in reach and ``pass``; default: the first
of them) picks its target, so a second attack may go to another minion if the first target fell. Each attack
rolls battle + the dagger's bonus (+ equipped accessories' melee bonus) and carries the dagger's own rule: a
defender lower on the initiative track rolls 1 fewer defense die (``cards.attack_weapon``). No "knife" card is
known (docs/mice-and-mystics/facts.md §5): every equipped card whose special is ``dagger`` counts
(docs/mice-and-mystics/rulings.md,Knife Strike).
"""

from __future__ import annotations

from dicelog.domain.core.errors import InvariantViolated, RuleBroken
from dicelog.domain.core.events import DecisionMade, DecisionRequested, Event, RollRequested
from dicelog.domain.mice_and_mystics.commands import UseAbility
from dicelog.domain.mice_and_mystics.events import ActionStarted, AttackDeclared
from dicelog.domain.mice_and_mystics.item_events import KnifeStrikesLeft
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import sections
from dicelog.domain.mice_and_mystics.rules.actions import check_action
from dicelog.domain.mice_and_mystics.rules.battle import accessory_battle, melee_targets, refused_target
from dicelog.domain.mice_and_mystics.rules.cards import item_of, loadout
from dicelog.domain.mice_and_mystics.state import State

SECTION = "MM rulebook (it) §Carte Abilità dei Topi"
KNIFE_STRIKE = "knife-strike"
PASS = "pass"


def daggers(state: State, mouse: str) -> tuple[str, ...]:
    """The mouse's equipped dagger cards (special ``dagger``), in the order equipped."""
    lib = library_of(state)
    items = ((card, item_of(lib, card)) for card, _ in loadout(state, mouse))
    return tuple(
        card
        for card, item in items
        if item is not None and item.kind == "weapon" and item.special == "dagger"
    )


def _strike(state: State, mouse: str, target: str, card: str) -> list[Event]:
    lib = library_of(state)
    item = item_of(lib, card)
    if item is None:
        raise InvariantViolated("dagger-is-an-item", f"{card} is held as a dagger but is no item card")
    dice = lib.mice[mouse].battle + item.battle + accessory_battle(state, mouse, False)
    return [
        AttackDeclared(attacker=mouse, target=target, ranged=False, dice=dice, weapon=card),
        RollRequested(reason="battle", dice=dice, piece=mouse),
    ]


def decide_knife_strike(state: State, cmd: UseAbility) -> list[Event]:
    """The effect of ``UseAbility(mouse, ability="knife-strike", target=figure)``: ``ActionStarted``
    (battle), ``KnifeStrikesLeft`` (with 2+ daggers), the first attack's ``AttackDeclared`` and roll.

    Errors: those of ``actions.check_action`` (the Battle action); ``ability.needs-dagger`` without an
    equipped dagger; ``battle.out-of-reach`` (MM rulebook (it) §Attacco in Mischia) for a minion out of reach,
    ``battle.invalid-target`` for no target or one that is not a minion in the room."""
    check_action(state, cmd.mouse, "battle")
    held = daggers(state, cmd.mouse)
    if not held:
        raise RuleBroken(
            "ability.needs-dagger", section=SECTION, detail="Knife Strike attacks with equipped daggers"
        )
    if cmd.target is None:
        raise RuleBroken(
            "battle.invalid-target", section=sections.MELEE, detail="Knife Strike needs a target minion"
        )
    if cmd.target not in melee_targets(state, cmd.mouse):
        raise refused_target(state, cmd.mouse, cmd.target)  # battle.out-of-reach, or not a minion here
    left = [KnifeStrikesLeft(mouse=cmd.mouse, count=len(held) - 1)] if len(held) > 1 else []
    return [
        ActionStarted(mouse=cmd.mouse, action="battle"),
        *left,
        *_strike(state, cmd.mouse, cmd.target, held[0]),
    ]


def candidates(state: State, mouse: str) -> list[UseAbility]:
    """One ``UseAbility`` per minion in reach (``legal_abilities`` keeps those ``decide`` accepts)."""
    return [UseAbility(mouse=mouse, ability=KNIFE_STRIKE, target=t) for t in melee_targets(state, mouse)]


def next_strike(state: State) -> list[Event]:
    """``flow`` step while Knife Strike attacks are left and none is in flight: ask for the next
    target (``DecisionRequested``), or end the Knife Strike (``KnifeStrikesLeft(count=0)``) when no
    minion is in reach."""
    turn = state.mouse_turn
    if turn is None:
        raise InvariantViolated("mouse-turn", "Knife Strike outside a mouse's turn")
    targets = melee_targets(state, turn.mouse)
    if not targets:
        return [KnifeStrikesLeft(mouse=turn.mouse, count=0)]
    return [
        DecisionRequested(
            decision=KNIFE_STRIKE, options=(*targets, PASS), piece=turn.mouse, default=targets[0]
        )
    ]


def resolve_knife_strike(state: State, answer: DecisionMade) -> list[Event]:
    """The next Knife Strike attack on the chosen minion, with the next dagger; ``pass`` ends it."""
    turn = state.mouse_turn
    if turn is None:
        return []
    if answer.option == PASS or answer.option not in melee_targets(state, turn.mouse):
        return [KnifeStrikesLeft(mouse=turn.mouse, count=0)]
    held = daggers(state, turn.mouse)
    card = held[max(len(held) - turn.knife_strikes, 0)] if held else "dagger"
    return [
        KnifeStrikesLeft(mouse=turn.mouse, count=turn.knife_strikes - 1),
        *_strike(state, turn.mouse, answer.option, card),
    ]
