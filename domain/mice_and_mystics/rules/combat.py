"""Attack and defense rolls, wounds (001 §Attacco; §Attacco in Mischia; §Attacco a Distanza; §Ferire
un Servitore; 000 §Attaccare con un Servitore; 000 §Topi Catturati).

One roll per ``RollRequested``: the attack roll (``battle`` by a mouse, ``minion-attack`` by a
minion), then, if it hit, the defense roll (``minion-defense`` / ``mouse-defense``). Faces are those
of facts.md §1: melee hits on swords and swords/shields, ranged on bows; only swords/shields block;
each cheese goes to a mouse's stash (Maginos: 2 when attacking) or to the minion cheese wheel.
"""

from __future__ import annotations

from domain.core.events import DiceRolled, Event, RollRequested
from domain.mice_and_mystics.content import library
from domain.mice_and_mystics.events import (
    AttackResolved,
    AttackRolled,
    CheeseAddedToWheel,
    CheeseGained,
    HourglassAdvanced,
    InitiativeCardRemoved,
    MinionDefeated,
    MinionWounded,
    MouseCaptured,
    MouseWounded,
)
from domain.mice_and_mystics.evolve import evolve
from domain.mice_and_mystics.state import State, space_of

CHEESE, SWORD_STAR, SWORD_SHIELD, BOW, BOW_STAR, SWORD_SHIELD_STAR = 1, 2, 3, 4, 5, 6
MELEE_HITS = frozenset({SWORD_STAR, SWORD_SHIELD, SWORD_SHIELD_STAR})
RANGED_HITS = frozenset({BOW, BOW_STAR})
BLOCKS = frozenset({SWORD_SHIELD, SWORD_SHIELD_STAR})
STARS = frozenset({SWORD_STAR, BOW_STAR, SWORD_SHIELD_STAR})
DRAW_POWER = "draw-power"


def count(faces: tuple[int, ...], symbols: frozenset[int] | int) -> int:
    wanted = symbols if isinstance(symbols, frozenset) else frozenset({symbols})
    return sum(1 for face in faces if face in wanted)


def is_mouse(state: State, figure: str) -> bool:
    return figure in state.party


def equipment(mouse: str) -> tuple:
    """The mouse's equipped cards: its starting equipment (content; provisional where unknown)."""
    items = library().items
    return tuple(items[i] for i in library().mice[mouse].starting_equipment if i in items)


def weapon(mouse: str):
    return next((item for item in equipment(mouse) if item.kind == "weapon"), None)


def mouse_defense_dice(mouse: str) -> int:
    """Defense value plus armour and accessory bonuses (001 §Attacco; facts.md §5)."""
    return library().mice[mouse].defense + sum(item.defense for item in equipment(mouse))


def minion_defense_dice(state: State, attacker: str, figure: str) -> int:
    """The minion card's defense value; a Dagger makes a defender lower on the track roll 1 fewer
    (facts.md §5, Dagger)."""
    card = state.figures[figure]
    dice = library().minions[card].defense
    item = weapon(attacker) if is_mouse(state, attacker) else None
    if item is not None and item.special == "dagger" and card in state.track and attacker in state.track:
        if state.track.index(card) > state.track.index(attacker):
            dice -= 1
    return max(dice, 0)


def resolve_attack_roll(state: State, answer: DiceRolled) -> list[Event]:
    """Count hits and cheese of the attack roll; ask for the defense roll if anything hit."""
    attack = state.attack
    assert attack is not None
    hits = count(answer.faces, RANGED_HITS if attack.ranged else MELEE_HITS)
    cheese = count(answer.faces, CHEESE)
    events: list[Event] = [AttackRolled(attacker=attack.attacker, target=attack.target, hits=hits, cheese=cheese)]
    if cheese and is_mouse(state, attack.attacker):
        per = 2 if library().mice[attack.attacker].ability == DRAW_POWER else 1
        events.append(CheeseGained(mouse=attack.attacker, count=per * cheese, reason="attack"))
    elif cheese:
        events.append(CheeseAddedToWheel(count=cheese, reason="minion-attack"))
    if hits == 0:
        return [*events, AttackResolved(attacker=attack.attacker, target=attack.target, hits=0, blocks=0, wounds=0)]
    if is_mouse(state, attack.target):
        dice, reason, piece = mouse_defense_dice(attack.target), "mouse-defense", attack.target
    else:
        dice, reason, piece = minion_defense_dice(state, attack.attacker, attack.target), "minion-defense", None
    if dice == 0:
        return [*events, *resolve_defense(state, attack.target, hits, ())]
    return [*events, RollRequested(reason=reason, dice=dice, piece=piece)]


def resolve_defense_roll(state: State, answer: DiceRolled) -> list[Event]:
    attack = state.attack
    assert attack is not None
    return resolve_defense(state, attack.target, attack.hits, answer.faces)


def resolve_defense(state: State, target: str, hits: int, faces: tuple[int, ...]) -> list[Event]:
    """Blocks, cheese of the defender, then wounds for the unblocked hits."""
    attack = state.attack
    assert attack is not None
    blocks = min(count(faces, BLOCKS), hits)
    wounds = hits - blocks
    events: list[Event] = [AttackResolved(attacker=attack.attacker, target=target, hits=hits, blocks=blocks, wounds=wounds)]
    cheese = count(faces, CHEESE)
    if cheese and is_mouse(state, target):
        events.append(CheeseGained(mouse=target, count=cheese, reason="defense"))
    elif cheese:
        events.append(CheeseAddedToWheel(count=cheese, reason="minion-defense"))
    if wounds:
        after = evolve_all(state, events)
        events += wound_mouse(after, target, wounds) if is_mouse(state, target) else wound_minion(after, target, wounds)
    return events


def evolve_all(state: State, events: list[Event]) -> State:
    for event in events:
        state = evolve(state, event)
    return state


def wound_minion(state: State, figure: str, wounds: int) -> list[Event]:
    """001 §Ferire un Servitore: wounds >= lives defeats the figure; a card with no figures left
    leaves the track (wounds are kept per figure: RULINGS.md)."""
    card = state.figures[figure]
    events: list[Event] = [MinionWounded(figure=figure, wounds=wounds)]
    if state.wounds.get(figure, 0) + wounds >= library().minions[card].lives:
        events.append(MinionDefeated(figure=figure, card=card))
        others = [f for f, c in state.figures.items() if c == card and f != figure and space_of(state, f) is not None]
        if not others:
            events.append(InitiativeCardRemoved(card=card))
    return events


def wound_mouse(state: State, mouse: str, wounds: int) -> list[Event]:
    """000 §Topi Catturati: wounds >= lives captures the mouse; the hourglass moves one page on."""
    events: list[Event] = [MouseWounded(mouse=mouse, wounds=wounds)]
    if state.wounds.get(mouse, 0) + wounds >= library().mice[mouse].lives:
        events.append(MouseCaptured(mouse=mouse, cheese_discarded=state.cheese.get(mouse, 0)))
        events.append(HourglassAdvanced(page=state.hourglass_page + 1, reason="capture"))
    return events
