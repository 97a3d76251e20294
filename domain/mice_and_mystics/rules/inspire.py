"""Inspire, the Leader's ability card (2 cheese; docs/mice-and-mystics/facts.md §4 row 14; MM rulebook (it)
§Carte Abilità dei Topi).

"Use before this mouse's turn: until the end of the round, any mouse that has just taken an action
may pay 1 cheese for one extra action (max 1 extra each)." dicelog plays it at the very start of the
leader's turn, before it rolls to move, moves, acts or uses another ability card (free actions such
as the Level Up that bought the card do not count): ``UseAbility(mouse, ability="inspire")`` →
``AbilityUsed``, ``MiceInspired(round)``; it is then the leader's one card of that turn. Until the
round ends, a mouse whose action is over may take one more action in its own
turn, by the usual command (Battle, Search, …): ``actions.check_action`` lets it through once, and
``charge_extra_action`` (called by ``ruleset.decide``) puts ``ExtraActionTaken`` (1 cheese) before the
action's ``ActionStarted`` (docs/mice-and-mystics/rulings.md, Inspire).
"""

from __future__ import annotations

from dicelog.domain.core.errors import InvariantViolated, RuleBroken
from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.commands import UseAbility
from dicelog.domain.mice_and_mystics.events import ActionStarted
from dicelog.domain.mice_and_mystics.item_events import ExtraActionTaken, MiceInspired
from dicelog.domain.mice_and_mystics.rules import sections
from dicelog.domain.mice_and_mystics.state import State

SECTION = "MM rulebook (it) §Carte Abilità dei Topi"
INSPIRE = "inspire"
EXTRA_ACTION_CHEESE = 1


def in_force(state: State) -> bool:
    """Whether Inspire was played this round."""
    return state.inspire_round != 0 and state.inspire_round == state.round


def check_extra_action(state: State, mouse: str) -> None:
    """Refuse a second action of the mouse's turn unless Inspire lets it take one now: Inspire in force
    this round, no extra action taken yet this turn, the first action over, 1 cheese to pay.

    Errors: ``action.already-taken`` (MM rulebook (it) §Il Turno di un Topo) when Inspire is not in force, the
    extra action was taken, or the first action is still being resolved; ``action.extra-needs-cheese`` (MM
    rulebook (it) §Carte Abilità dei Topi) when the mouse has no cheese."""
    turn = state.mouse_turn
    if turn is None:
        raise InvariantViolated("mouse-turn", "check_turn passed but no mouse turn is open")
    if not in_force(state) or turn.extra_action:
        raise RuleBroken(
            "action.already-taken", section=sections.MOUSE_TURN, detail=f"{mouse} already took {turn.action}"
        )
    if (
        state.awaiting is not None
        or state.attack is not None
        or state.trap_rest
        or state.water_target is not None
    ):
        raise RuleBroken(
            "action.already-taken",
            section=sections.MOUSE_TURN,
            detail=f"{mouse}'s {turn.action} is still being resolved",
        )
    if state.cheese.get(mouse, 0) < EXTRA_ACTION_CHEESE:
        raise RuleBroken(
            "action.extra-needs-cheese",
            section=SECTION,
            detail=f"Inspire's extra action costs {EXTRA_ACTION_CHEESE} cheese",
        )


def charge_extra_action(state: State, events: list[Event]) -> list[Event]:
    """``events`` of a command, with ``ExtraActionTaken`` put before the turn mouse's ``ActionStarted``
    when that action is Inspire's extra action (the turn's action already taken); else unchanged."""
    turn = state.mouse_turn
    if turn is None or turn.action is None or turn.extra_action or not in_force(state):
        return events
    at = next(
        (i for i, e in enumerate(events) if isinstance(e, ActionStarted) and e.mouse == turn.mouse), None
    )
    if at is None:
        return events
    return [*events[:at], ExtraActionTaken(mouse=turn.mouse, cheese=EXTRA_ACTION_CHEESE), *events[at:]]


def decide_inspire(state: State, cmd: UseAbility) -> list[Event]:
    """The effect of ``UseAbility(mouse, ability="inspire")``: ``[MiceInspired(mouse, round)]``.

    Errors: ``ability.once-per-turn`` when already played this turn; ``ability.too-late`` once the
    mouse has rolled to move, moved, acted or used another ability card this turn (free actions do
    not count)."""
    turn = state.mouse_turn
    if turn is None:
        raise InvariantViolated("mouse-turn", "check_turn passed but no mouse turn is open")
    if INSPIRE in turn.ability_uses:
        raise RuleBroken(
            "ability.once-per-turn", section=SECTION, detail="Inspire is played once, before the turn"
        )
    started = turn.moved or turn.movement_points is not None or turn.action is not None
    if started or turn.ability_uses:
        raise RuleBroken(
            "ability.too-late",
            section=SECTION,
            detail="Inspire is played before the mouse's turn: before it moves or acts",
        )
    return [MiceInspired(mouse=cmd.mouse, round=state.round)]
