"""Minion abilities (docs/mice-and-mystics/facts.md §3; MM rulebook (it) §Blatte Avide; MM rulebook (it) §Boss
dei Servitori; MM rulebook (it) §Brodie).

- Roaches, Steal: each wound a roach deals to a mouse with cheese removes 1 cheese instead; once the
  stash is empty, wounds are taken normally. A greedy roach's stolen cheese goes to the wheel
  (otherwise it is discarded); roaches on the Roach Master's tile are never greedy.
- Spider and Vanestra's Sting, Poison: every wound is a poison wound (the Poison Master takes
  normal wounds instead). Cave Centipede, Stun; Vanestra's Web / Charm: a wounded mouse is stunned,
  webbed or charmed. Tilda's Empathetic Power: 1 cheese when another mouse of her room gets one of
  these (docs/mice-and-mystics/facts.md §2).
- Captain Vurst, Pistoleer: cheese on his attack roll go on no wheel; each is one more attack.
- Skitter-Clak, Constrict: mice roll no defense against him; Carapace: each sword/shield+star he
  rolls in defense blocks 2.
- Brodie: his attack and defense cheese never go on the wheel.
Abilities belong to initiative cards, so a boss is never touched by what affects its base type
(MM rulebook (it) §Boss dei Servitori): Captain Vurst is no Rat Warrior, Skitter-Clak no Cave Centipede.
"""

from __future__ import annotations

from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.content import MinionCard
from dicelog.domain.mice_and_mystics.events import (
    CheeseAddedToWheel,
    CheeseGained,
    CheeseStolen,
    ExtraAttackGained,
)
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.effects import CHARMED, STUNNED, WEBBED, add_effect
from dicelog.domain.mice_and_mystics.state import State, space_of

ROACHES = "roaches"
ON_WOUND = {"stun": STUNNED, "web": WEBBED, "charm": CHARMED}
EMPATHETIC_POWER, TILDA = "empathetic-power", "tilda"
ROACH_MASTER, POISON_MASTER = "roach-master", "poison-master"
SWORD_SHIELD_STAR = 6


def acting_card(state: State, figure: str) -> MinionCard | None:
    """The card a minion figure acts on now (a boss acts on the card taking its turn)."""
    turn = state.minion_turn
    card = turn.card if turn is not None and turn.figure == figure else state.figures.get(figure)
    return library_of(state).minions.get(card) if card is not None else None


def _has(state: State, figure: str, ability: str) -> bool:
    card = acting_card(state, figure)
    return card is not None and ability in card.abilities


def is_greedy(state: State, figure: str) -> bool:
    """A greedy roach, unless the Roach Master stands on its tile (MM rulebook (it) Conquiste Personali; MM
    rulebook (pt) «no mesmo bloco», MM summary (fr) «sur la même tuile»; docs/mice-and-mystics/facts.md).
    Rules revision 1 read "on its space"."""
    master = state.achievements.get(ROACH_MASTER)
    if figure not in state.greedy or master is None:
        return figure in state.greedy
    here, there = space_of(state, master), space_of(state, figure)
    if here is None or there is None:
        return True
    if state.rules_revision < 2:
        return here != there
    tile_of = library_of(state).space_tile
    return tile_of.get(here) != tile_of.get(there)


def ignores_cheese(state: State, figure: str) -> bool:
    """MM rulebook (it) §Brodie: when Brodie attacks or defends, no cheese goes on the wheel."""
    return _has(state, figure, "chase") or _has(state, figure, "pounce")


def minion_attack_cheese(state: State, figure: str, cheese: int) -> list[Event]:
    if ignores_cheese(state, figure):
        return []
    if _has(state, figure, "pistoleer"):
        return [ExtraAttackGained(figure=figure, count=cheese)]
    return [CheeseAddedToWheel(count=cheese, reason="minion-attack")]


def constricts(state: State, attacker: str) -> bool:
    return _has(state, attacker, "constrict")


def extra_blocks(state: State, defender: str, faces: tuple[int, ...]) -> int:
    """Carapace: a sword/shield+star counts as 2 blocks (docs/mice-and-mystics/facts.md §1, §3)."""
    return sum(1 for f in faces if f == SWORD_SHIELD_STAR) if _has(state, defender, "carapace") else 0


def on_mouse_hit(
    state: State, attacker: str, mouse: str, wounds: int
) -> tuple[list[Event], int, int, list[Event]]:
    """(events before the wounds, wounds left, of which poison, effect events after them)."""
    card = acting_card(state, attacker)
    if card is None:
        return [], wounds, 0, []
    before: list[Event] = []
    stash = state.cheese.get(mouse, 0)
    if "steal" in card.abilities and stash > 0:
        stolen = min(stash, wounds)
        before.append(
            CheeseStolen(mouse=mouse, figure=attacker, count=stolen, to_wheel=is_greedy(state, attacker))
        )
        wounds -= stolen
    poisoned = "poison" in card.abilities and state.achievements.get(POISON_MASTER) != mouse
    after: list[Event] = []
    if wounds:
        for ability, effect in ON_WOUND.items():
            if ability in card.abilities:
                after += add_effect(state, mouse, effect)
        if after or poisoned:
            after += _empathy(state, mouse)
    return before, wounds, wounds if poisoned else 0, after


def _empathy(state: State, mouse: str) -> list[Event]:
    """Tilda's Empathetic Power (docs/mice-and-mystics/facts.md §2; MM rulebook (it) "nella sua stessa
    Stanza")."""
    lib = library_of(state)
    here, hers = space_of(state, mouse), space_of(state, TILDA)
    if mouse == TILDA or TILDA not in state.party or hers is None or here is None:
        return []
    if lib.mice[TILDA].ability != EMPATHETIC_POWER or lib.space_tile[hers] != lib.space_tile[here]:
        return []
    return [CheeseGained(mouse=TILDA, count=1, reason=EMPATHETIC_POWER)]
