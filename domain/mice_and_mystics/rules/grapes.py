"""Grapes as a weapon (MM rulebook (it) §Oggetti del Gruppo, Uva come Arma; docs/mice-and-mystics/facts.md
§5).

From the Dinner Fork's space a mouse uses its Battle action to throw the Grapes token from the stash
at a minion of the room (no sight needed); large figures cannot be hit. The token is flipped like a
coin (a 2-sided ``RollRequested``; face 1 = squashed, 2 = whole: docs/mice-and-mystics/rulings.md, Party
items). Squashed: the target and every small figure on its space take an automatic hit, each defends normally;
then the token is discarded and its card shuffled back into the search deck. Whole: the small figures there
are knocked down and the token stays on that space, as roach bait (``bait.py``) or for a rat to throw.

A Rat (a figure of the Rat Warriors or Elite Rat Warriors card, not a boss) that starts its
activation on the grapes' space with no mouse there does not move and, instead of its attack,
throws the grapes at the space of its room holding the most mice; ties: the space holding the mouse
highest on the initiative track (MM rulebook (it) §Uva come Arma, last paragraph; MM rulebook (pt) the same).
Same coin flip: squashed hits every small figure there (the mice defend), whole knocks them down and leaves
the grapes there. No sight is needed. With no mouse in its room the rat neither moves nor attacks
(docs/mice-and-mystics/rulings.md,Party items: a rat throwing the grapes). ``minion_turn.py`` calls
``rat_on_grapes`` and ``rat_throw``.
"""

from __future__ import annotations

from dicelog.domain.core.commands import Command
from dicelog.domain.core.errors import InvariantViolated, RuleBroken
from dicelog.domain.core.events import DiceRolled, Event, RollRequested
from dicelog.domain.mice_and_mystics.commands import ThrowGrapes
from dicelog.domain.mice_and_mystics.events import (
    ActionStarted,
    AttackDeclared,
    AttackResolved,
    AttackRolled,
    MinionAttackSkipped,
)
from dicelog.domain.mice_and_mystics.evolve import evolve_all
from dicelog.domain.mice_and_mystics.item_events import PartyItemPlaced
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.actions import can_act, check_action
from dicelog.domain.mice_and_mystics.rules.combat import defense_request
from dicelog.domain.mice_and_mystics.rules.effects import knock_down
from dicelog.domain.mice_and_mystics.rules.graph import is_minion, mice_on, size_of
from dicelog.domain.mice_and_mystics.rules.party_items import FORK, GRAPES, in_stash, lost
from dicelog.domain.mice_and_mystics.rules.sight import same_room
from dicelog.domain.mice_and_mystics.state import State, board_space, space_of

SECTION = "MM rulebook (it) §Oggetti del Gruppo"
THROW = "grapes"
SQUASHED, WHOLE = 1, 2


def _targets(state: State, mouse: str) -> list[str]:
    here = space_of(state, mouse)
    if here is None or state.tokens.get(FORK) != (here,) or not in_stash(state, GRAPES):
        return []
    lib = library_of(state)
    return sorted(
        f
        for s, figs in state.board.items()
        for f in figs
        if is_minion(state, f) and same_room(lib, here, s) and size_of(state, f) == "small"
    )


def decide_throw_grapes(state: State, cmd: ThrowGrapes) -> list[Event]:
    check_action(state, cmd.mouse, "battle")
    here = space_of(state, cmd.mouse)
    if here is None or state.tokens.get(FORK) != (here,):
        raise RuleBroken(
            "grapes.not-on-fork", section=SECTION, detail="grapes are thrown from the Dinner Fork's space"
        )
    if not in_stash(state, GRAPES):
        raise RuleBroken(
            "party-item.not-in-stash", section=SECTION, detail="the Grapes are not in the party stash"
        )
    if cmd.target not in _targets(state, cmd.mouse):
        raise RuleBroken(
            "grapes.invalid-target", section=SECTION, detail=f"{cmd.target} is no small minion of this room"
        )
    space = board_space(state, cmd.target)
    others = tuple(f for f in state.board.get(space, ()) if f != cmd.target and size_of(state, f) == "small")
    return [
        ActionStarted(mouse=cmd.mouse, action="battle"),
        AttackDeclared(attacker=cmd.mouse, target=cmd.target, ranged=True, dice=0, others=others),
        RollRequested(reason=THROW, dice=1, sides=2, piece=cmd.mouse),
    ]


def resolve_grapes(state: State, answer: DiceRolled) -> list[Event]:
    attack = state.attack
    if attack is None:
        raise InvariantViolated("attack-in-flight", "a grapes roll with no attack declared")
    if answer.faces[0] == SQUASHED:
        rolled = AttackRolled(attacker=attack.attacker, target=attack.target, hits=1)
        events: list[Event] = [*lost(GRAPES, "squashed"), rolled]
        return events + defense_request(evolve_all(state, events), 1)
    space = space_of(state, attack.target)
    if space is None:
        raise InvariantViolated("figure-on-board", f"the grapes' target {attack.target} is off the board")
    events = [e for f in (attack.target, *attack.others) for e in knock_down(state, f)]
    missed = AttackResolved(attacker=attack.attacker, target=attack.target, hits=0, blocks=0, wounds=0)
    return [*events, missed, PartyItemPlaced(mouse=attack.attacker, item=GRAPES, spaces=(space,))]


def legal_throws(state: State, mouse: str) -> list[Command]:
    if not can_act(state, mouse, "battle"):
        return []
    return [ThrowGrapes(mouse=mouse, target=t) for t in _targets(state, mouse)]


def rat_on_grapes(state: State, figure: str) -> bool:
    """Whether ``figure`` is a Rat (a non-boss minion card of rat figures) on the grapes' space with no
    mouse on it: it will not move and throws the grapes instead of attacking (MM rulebook (it) §Uva come
    Arma)."""
    spaces = state.tokens.get(GRAPES, ())
    card = library_of(state).minions.get(state.figures.get(figure, ""))
    if (
        len(spaces) != 1
        or card is None
        or card.figure != "rat"
        or card.rank != "minion"
        or figure in state.boss_cards
    ):
        return False
    here = space_of(state, figure)
    return here == spaces[0] and not mice_on(state, here)


def rat_target(state: State, here: str) -> str | None:
    """The mouse a rat on ``here`` throws the grapes at: on the space of the room with the most mice,
    ties to the space holding the mouse highest on the track; that mouse, the highest there."""
    order = sorted(
        (m for m in state.party if space_of(state, m) is not None),
        key=lambda m: state.track.index(m) if m in state.track else len(state.track),
    )
    counts: dict[str, int] = {}
    first: dict[str, str] = {}
    lib = library_of(state)
    for mouse in order:
        space = space_of(state, mouse)
        if space is not None and same_room(lib, here, space):  # never None: ``order`` holds mice on the board
            counts[space] = counts.get(space, 0) + 1
            first.setdefault(space, mouse)
    if not counts:
        return None
    space = min(counts, key=lambda s: (-counts[s], order.index(first[s])))
    return first[space]


def rat_throw(state: State, figure: str) -> list[Event]:
    """The rat's throw: ``AttackDeclared`` (ranged, no dice) on the chosen mouse with every other small
    figure of its space, then the coin flip (``RollRequested("grapes", sides=2)``, resolved by
    ``resolve_grapes``); ``MinionAttackSkipped`` when no mouse is in its room."""
    here = space_of(state, figure)
    if here is None:
        raise InvariantViolated("figure-on-board", f"the throwing rat {figure} is off the board")
    target = rat_target(state, here)
    if target is None:
        return [MinionAttackSkipped(figure=figure, reason="no mouse in the room to throw the grapes at")]
    space = board_space(state, target)
    others = tuple(f for f in state.board.get(space, ()) if f != target and size_of(state, f) == "small")
    return [
        AttackDeclared(attacker=figure, target=target, ranged=True, dice=0, others=others),
        RollRequested(reason=THROW, dice=1, sides=2),
    ]
