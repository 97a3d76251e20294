"""A mouse's Battle action (MM rulebook (it) §Attacco; §Attacco in Mischia; §Attacco a Distanza; §Vedere il
Bersaglio).

Melee weapon: a minion on the same or an adjacent space. Ranged weapon (or spell): any minion of
the room the mouse can see, but while minions stand on its space or an adjacent one it must target
one of the nearest of those. Dice: battle value plus the weapon's bonus (Tilda's Mace: +1 per other
wounded mouse on her space; Maginos' Staff counts as a melee weapon against a figure on its own
space). The rolls themselves are resolved in ``combat.py``.
"""

from __future__ import annotations

from dicelog.domain.core.commands import Command
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import Event, RollRequested
from dicelog.domain.mice_and_mystics.commands import Battle
from dicelog.domain.mice_and_mystics.events import ActionStarted, AttackDeclared
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import sections, shots
from dicelog.domain.mice_and_mystics.rules.actions import can_act, check_action
from dicelog.domain.mice_and_mystics.rules.cards import equipment, weapon
from dicelog.domain.mice_and_mystics.rules.graph import is_minion
from dicelog.domain.mice_and_mystics.rules.sight import reach, same_room, sees
from dicelog.domain.mice_and_mystics.state import State, space_of


def _room_minions(state: State, here: str) -> dict[str, str]:
    """Minion figure -> its space, for the minions of the room of ``here``."""
    lib = library_of(state)
    return {
        f: s
        for s, figs in state.board.items()
        for f in figs
        if is_minion(state, f) and same_room(lib, here, s)
    }


def melee_targets(state: State, mouse: str) -> list[str]:
    """The minion figures on the mouse's space or an adjacent one of its room (melee reach, MM rulebook (it)
    §Attacco in Mischia), sorted; also Knife Strike's targets (``knife_strike.py``)."""
    here = space_of(state, mouse)
    if here is None:
        return []
    lib = library_of(state)
    return sorted(f for f, s in _room_minions(state, here).items() if reach(lib, here, s) is not None)


def battle_targets(state: State, mouse: str) -> dict[str, bool]:
    """Every minion figure the mouse may attack now, mapped to whether the attack is ranged."""
    item = weapon(mouse, state)
    here = space_of(state, mouse)
    if item is None or here is None:
        return {}
    if item.attack == "melee":
        return dict.fromkeys(melee_targets(state, mouse), False)
    lib, minions = library_of(state), _room_minions(state, here)
    near = {f: d for f, s in minions.items() if (d := reach(lib, here, s)) is not None}
    if near:
        closest = min(near.values())
        chosen = [f for f, d in near.items() if d == closest]
    else:
        chosen = [f for f, s in minions.items() if sees(lib, here, s)]
    melee_here = item.special == "staff-melee-on-own-space"
    return {f: not (melee_here and minions[f] == here) for f in sorted(chosen)}


def battle_dice(state: State, mouse: str) -> int:
    item = weapon(mouse, state)
    dice = library_of(state).mice[mouse].battle + (item.battle if item is not None else 0)
    if item is not None and item.special == "maces-wounded-friends":
        here = space_of(state, mouse)
        friends = state.board.get(here, ()) if here is not None else ()
        dice += sum(1 for m in friends if m != mouse and m in state.party and state.wounds.get(m, 0))
    return dice


def accessory_battle(state: State, mouse: str, ranged: bool) -> int:
    """Battle bonuses of equipped non-weapons (Ring of Feline Strength: not with a ranged weapon,
    docs/mice-and-mystics/facts.md §5); no known armour gives battle."""
    return 0 if ranged else sum(i.battle for i in equipment(mouse, state) if i.kind != "weapon")


def refused_target(state: State, mouse: str, target: str) -> RuleBroken:
    """Why ``mouse`` may not attack ``target``, one rule id per reason:

    - ``battle.invalid-target``: not a minion in the mouse's room (MM rulebook (it) §Attacco);
    - ``battle.out-of-reach``: a melee weapon and the minion neither on the mouse's space nor on an
      adjacent one (MM rulebook (it) §Attacco in Mischia);
    - ``battle.nearer-minion-first``: a ranged weapon while minions stand on the mouse's space or an
      adjacent one, and this is not one of the nearest (MM rulebook (it) §Attacco a Distanza);
    - ``battle.no-line-of-sight``: a ranged weapon and the mouse does not see the minion (MM rulebook (it)
      §Vedere il Bersaglio)."""
    here = space_of(state, mouse)
    item = weapon(mouse, state)
    minions = _room_minions(state, here) if here is not None else {}
    if target not in minions or item is None or here is None:
        return RuleBroken(
            "battle.invalid-target", section=sections.ATTACK, detail=f"{target} is not a minion in this room"
        )
    if item.attack == "melee":
        return RuleBroken(
            "battle.out-of-reach",
            section=sections.MELEE,
            detail=f"{target} is neither on {mouse}'s space nor on an adjacent one",
        )
    lib = library_of(state)
    if any(reach(lib, here, s) is not None for s in minions.values()):
        return RuleBroken(
            "battle.nearer-minion-first",
            section=sections.RANGED,
            detail=f"minions are on or next to {mouse}'s space: a ranged attack targets one of the nearest",
        )
    return RuleBroken(
        "battle.no-line-of-sight", section=sections.SIGHT, detail=f"{mouse} does not see {target}"
    )


def decide_battle(state: State, cmd: Battle) -> list[Event]:
    check_action(state, cmd.mouse, "battle")
    if weapon(cmd.mouse, state) is None:
        raise RuleBroken("battle.unarmed", section=sections.ATTACK, detail=f"{cmd.mouse} has no weapon")
    targets = battle_targets(state, cmd.mouse)
    if cmd.target not in targets:
        raise refused_target(state, cmd.mouse, cmd.target)
    dice = shots.battle_dice(
        state,
        cmd.mouse,
        battle_dice(state, cmd.mouse) + accessory_battle(state, cmd.mouse, targets[cmd.target]),
        targets[cmd.target],
    )
    return [
        ActionStarted(mouse=cmd.mouse, action="battle"),
        AttackDeclared(attacker=cmd.mouse, target=cmd.target, ranged=targets[cmd.target], dice=dice),
        RollRequested(reason="battle", dice=dice, piece=cmd.mouse),
    ]


def legal_battles(state: State, mouse: str) -> list[Command]:
    if not can_act(state, mouse, "battle"):
        return []
    return [Battle(mouse=mouse, target=t) for t in battle_targets(state, mouse)]
