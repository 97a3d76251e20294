"""Attack and defense rolls, wounds (MM rulebook (it) §Attacco; §Attacco in Mischia; §Attacco a Distanza;
§Ferire un Servitore; MM rulebook (it) §Attaccare con un Servitore; MM rulebook (it) §Topi Catturati).

One roll per ``RollRequested``: the attack roll (``battle`` by a mouse, ``minion-attack`` by a
minion), then, if it hit, the defense roll (``minion-defense`` / ``mouse-defense``). Faces are those
of docs/mice-and-mystics/facts.md §1: melee hits on swords and swords/shields, ranged on bows; only
swords/shields block; each cheese goes to a mouse's stash (Maginos: 2 when attacking) or to the minion cheese
wheel.
"""

from __future__ import annotations

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import DecisionMade, DecisionRequested, DiceRolled, Event, RollRequested
from dicelog.domain.mice_and_mystics.events import (
    AttackResolved,
    AttackRolled,
    CheeseAddedToWheel,
    CheeseGained,
    DefenseResolved,
    HourglassAdvanced,
    InitiativeCardRemoved,
    MinionDefeated,
    MinionWounded,
    MouseCaptured,
    MouseWounded,
)
from dicelog.domain.mice_and_mystics.evolve import evolve_all
from dicelog.domain.mice_and_mystics.item_events import MouseDisplaced
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import abilities, achievements, bosses, item_cards, pilfer, shots
from dicelog.domain.mice_and_mystics.rules.cards import attack_weapon, equipment
from dicelog.domain.mice_and_mystics.rules.dice import (
    BLOCKS,
    CHEESE,
    MELEE_HITS,
    RANGED_HITS,
    count,
)
from dicelog.domain.mice_and_mystics.rules.equip import discard_on_capture
from dicelog.domain.mice_and_mystics.rules.graph import is_mouse
from dicelog.domain.mice_and_mystics.state import State, space_of

DRAW_POWER = "draw-power"


def mouse_defense_dice(mouse: str, state: State) -> int:
    """Defense value plus armour and accessory bonuses (MM rulebook (it) §Attacco;
    docs/mice-and-mystics/facts.md §5)."""
    return library_of(state).mice[mouse].defense + sum(item.defense for item in equipment(mouse, state))


def minion_defense_dice(state: State, attacker: str, figure: str) -> int:
    """The minion card's defense value; a Dagger makes a defender lower on the track roll 1 fewer
    (docs/mice-and-mystics/facts.md §5, Dagger)."""
    card = state.figures[figure]
    dice = library_of(state).minions[card].defense
    item = attack_weapon(state, attacker) if is_mouse(state, attacker) else None
    with_dagger = (
        item is not None and item.special == "dagger" and (state.attack is None or not state.attack.ranged)
    )
    on_track = card in state.track and attacker in state.track
    if with_dagger and on_track and state.track.index(card) > state.track.index(attacker):
        dice -= 1
    dice -= shots.defense_penalty(state, attacker)
    return max(dice - achievements.cat_tamer_penalty(state, attacker, figure), 0)


def resolve_attack_roll(state: State, answer: DiceRolled) -> list[Event]:
    """Count hits and cheese of the attack roll; ask for the defense roll if anything hit."""
    attack = state.attack
    if attack is None:
        raise InvariantViolated("attack-in-flight", "an attack roll with no attack declared")
    hits = count(answer.faces, RANGED_HITS if attack.ranged else MELEE_HITS)

    hits += item_cards.precision_hits(state, answer.faces)  # Bow of Precision (item_cards.py)
    cheese = count(answer.faces, CHEESE)
    events: list[Event] = [
        AttackRolled(attacker=attack.attacker, target=attack.target, hits=hits, cheese=cheese)
    ]
    if cheese and is_mouse(state, attack.attacker):
        per = 2 if library_of(state).mice[attack.attacker].ability == DRAW_POWER else 1
        events.append(CheeseGained(mouse=attack.attacker, count=per * cheese, reason="attack"))
    elif cheese:
        events += abilities.minion_attack_cheese(state, attack.attacker, cheese)
    events += achievements.on_roll(state, attack.attacker, answer.faces, defending=False)
    if hits == 0:
        return [
            *events,
            AttackResolved(attacker=attack.attacker, target=attack.target, hits=0, blocks=0, wounds=0),
        ]
    return events + defense_request(evolve_all(state, events), hits)


def defense_request(state: State, hits: int) -> list[Event]:
    """The defense roll of the attack's current target (none against Constrict: docs/mice-and-mystics/facts.md
    §3)."""
    attack = state.attack
    if attack is None:
        raise InvariantViolated("attack-in-flight", "a defense request with no attack declared")
    if is_mouse(state, attack.target):
        dice, reason, piece = mouse_defense_dice(attack.target, state), "mouse-defense", attack.target
        if abilities.constricts(state, attack.attacker):
            dice = 0
    else:
        dice, reason, piece = (
            minion_defense_dice(state, attack.attacker, attack.target),
            "minion-defense",
            None,
        )
    if dice == 0:
        return resolve_defense(state, attack.target, hits, ())
    return [RollRequested(reason=reason, dice=dice, piece=piece)]


def resolve_defense_roll(state: State, answer: DiceRolled) -> list[Event]:
    attack = state.attack
    if attack is None:
        raise InvariantViolated("attack-in-flight", "a defense roll with no attack declared")
    return resolve_defense(state, attack.target, attack.hits, answer.faces)


def resolve_defense(state: State, target: str, hits: int, faces: tuple[int, ...]) -> list[Event]:
    """Blocks, cheese of the defender, then wounds for the unblocked hits."""
    attack = state.attack
    if attack is None:
        raise InvariantViolated("attack-in-flight", "a defense resolved with no attack declared")
    blocks = min(count(faces, BLOCKS) + abilities.extra_blocks(state, target, faces), hits)
    wounds = hits - blocks
    resolved = DefenseResolved if attack.others else AttackResolved
    events: list[Event] = [
        resolved(attacker=attack.attacker, target=target, hits=hits, blocks=blocks, wounds=wounds)
    ]
    cheese = count(faces, CHEESE)
    if cheese and is_mouse(state, target):
        events.append(CheeseGained(mouse=target, count=cheese, reason="defense"))
        events += achievements.on_roll(state, target, faces, defending=True)
    elif cheese and not abilities.ignores_cheese(state, target):
        events.append(CheeseAddedToWheel(count=cheese, reason="minion-defense"))
    if wounds:
        after = evolve_all(state, events)
        if is_mouse(state, target):
            events += hit_mouse(after, attack.attacker, target, wounds)
        elif target in state.boss_cards:
            events += bosses.wound_boss(after, target, wounds, attack.attacker)
        else:
            events += wound_minion(after, target, wounds, attack.attacker)
    else:  # every hit blocked: Cloak of Displacement (item_cards.py)
        events += item_cards.cloak_offer(evolve_all(state, events), attack.attacker, target, hits, blocks)
    if attack.others and not (events and isinstance(events[-1], DecisionRequested)):
        events += defense_request(evolve_all(state, events), hits)
    return events


def hit_mouse(state: State, attacker: str, mouse: str, wounds: int) -> list[Event]:
    """Wounds dealt to a mouse, through the attacker's abilities (``abilities.on_mouse_hit``)."""
    before, wounds, poison, after = abilities.on_mouse_hit(state, attacker, mouse, wounds)
    if not wounds:
        return before
    wounded = wound_mouse(evolve_all(state, before), mouse, wounds, poison)
    return before + wounded + ([] if any(isinstance(e, MouseCaptured) for e in wounded) else after)


def wound_minion(state: State, figure: str, wounds: int, attacker: str | None = None) -> list[Event]:
    """MM rulebook (it) §Ferire un Servitore: wounds >= lives defeats the figure; a card with no figures left
    leaves the track (wounds are kept per figure: docs/mice-and-mystics/rulings.md). ``attacker`` is the
    figure that dealt the wounds (``None``: no figure, e.g. a room rule): a mouse defeating a minion may earn
    an achievement (Roach Master) or cheese (Filch's Pilfer). The attack in flight is already resolved in
    ``state``, so the attacker is passed, not read from ``state.attack``."""
    card = state.figures[figure]
    events: list[Event] = [MinionWounded(figure=figure, wounds=wounds)]
    if state.wounds.get(figure, 0) + wounds >= library_of(state).minions[card].lives:
        events.append(MinionDefeated(figure=figure, card=card))
        events += achievements.on_defeat(state, attacker, figure, card)
        events += pilfer.on_defeat(state, attacker, card)
        others = [
            f
            for f, c in state.figures.items()
            if c == card and f != figure and space_of(state, f) is not None
        ]
        if not others:
            events.append(InitiativeCardRemoved(card=card))
    return events


def wound_mouse(state: State, mouse: str, wounds: int, poison: int = 0) -> list[Event]:
    """MM rulebook (it) §Topi Catturati: wounds >= lives captures the mouse; the hourglass moves one page on.
    ``poison`` of the wounds are poison wounds (MM rulebook (it) §Avvelenato); they count like any wound."""
    events: list[Event] = [MouseWounded(mouse=mouse, wounds=wounds, poison=poison)]
    if state.wounds.get(mouse, 0) + wounds >= library_of(state).mice[mouse].lives:
        events += capture_mouse(evolve_all(state, events), mouse)
    return events


def capture_mouse(state: State, mouse: str) -> list[Event]:
    """The one way a mouse is captured, by wounds or otherwise (a current, ``water.current``) (MM rulebook
    (it) §Topi Catturati; MM rulebook (it) Conquiste Personali): Poison Master (``AchievementEarned``) if it
    holds a poison wound, ``EquipmentDiscarded`` (not on the Escape Artist's third capture), ``MouseCaptured``
    (its cheese discarded), ``HourglassAdvanced`` (reason ``capture``), then Escape Artist on a second capture
    or its instant ``MouseReleased`` on a third. ``state`` is before the capture (wounds already dealt)."""
    events: list[Event] = achievements.before_capture(state, mouse)
    events += discard_on_capture(state, mouse)
    events.append(MouseCaptured(mouse=mouse, cheese_discarded=state.cheese.get(mouse, 0)))
    events.append(HourglassAdvanced(page=state.hourglass_page + 1, reason="capture"))
    return events + achievements.after_capture(evolve_all(state, events), mouse)


def resolve_cloak(state: State, answer: DecisionMade) -> list[Event]:
    """The Cloak of Displacement's decision (``item_cards.cloak_offer``; MM rulebook (it) §Carte Ricerca):
    ``stay`` -> nothing; a space -> ``MouseDisplaced``. If the attack goes on against further figures (an
    attack on several figures), the next defense roll follows."""
    mouse = item_cards.wearer(state)
    here = space_of(state, mouse) if mouse is not None else None
    events: list[Event] = []
    if mouse is not None and here is not None and answer.option in item_cards.normal_spaces(state, mouse):
        events.append(MouseDisplaced(mouse=mouse, origin=here, space=answer.option))
    if state.attack is not None:
        events += defense_request(evolve_all(state, events), state.attack.hits)
    return events
