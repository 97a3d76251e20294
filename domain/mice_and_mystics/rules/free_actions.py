"""Free actions: Share and Level Up, and the checks every free action makes (MM rulebook (it) §Azioni
Gratuite; MM rulebook (it) §Condividere; MM rulebook (it) §Salire di Livello; MM rulebook (it) §Muoversi
nell'Acqua; docs/mice-and-mystics/facts.md §0). Equip is in ``equip.py``.

Besides its action, a mouse may take each free action once in its turn, at any moment but never in
the middle of another action (between an action's roll, draw or decision and its resolution), and
never while it stands in water. Share: exchange search cards from the packs and/or cheese with a mouse on
the same or an adjacent space, a free exchange (MM rulebook (it) "scambiare liberamente"; MM rulebook (pt)
"livremente trocar"): one Share may give and take cards and cheese; a pack left over 3 cards is followed by
its player's discard (``cards.pack_limit``). Level Up: 6 cheese for a new ability card of the mouse's class,
chosen by the player (MM rulebook (it) "a scelta"; docs/mice-and-mystics/rulings.md, Level up).
"""

from __future__ import annotations

from dicelog.domain.core.commands import Command
from dicelog.domain.core.errors import InvariantViolated, RuleBroken
from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.commands import LevelUp, Share
from dicelog.domain.mice_and_mystics.item_events import CheeseShared, MouseLeveledUp, SearchCardShared
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import sections
from dicelog.domain.mice_and_mystics.rules.cards import pack_limit
from dicelog.domain.mice_and_mystics.rules.graph import mouse_neighbours
from dicelog.domain.mice_and_mystics.rules.links import linked
from dicelog.domain.mice_and_mystics.rules.turns import check_turn
from dicelog.domain.mice_and_mystics.state import State, space_of

FREE_ACTIONS = "MM rulebook (it) §Azioni Gratuite"
SHARE, EQUIP, LEVEL_UP = "share", "equip", "level-up"
LEVEL_UP_CHEESE = 6
ANY = "any"


def check_not_inside_action(state: State, mouse: str) -> None:
    """The mouse's turn, with no roll, draw, decision, attack or interrupted move under way."""
    check_turn(state, mouse)
    interrupted = state.trap_rest or state.water_target is not None
    if state.awaiting is not None or state.attack is not None or interrupted:
        raise RuleBroken(
            "free-action.inside-action", section=FREE_ACTIONS, detail="another action is being resolved"
        )


def check_free_action(state: State, mouse: str, kind: str) -> None:
    check_not_inside_action(state, mouse)
    space = space_of(state, mouse)
    if space is not None and library_of(state).spaces[space].water:
        raise RuleBroken("free-action.in-water", section=sections.WATER, detail=f"{mouse} is in water")
    if state.mouse_turn is None:
        raise InvariantViolated("mouse-turn", "check_turn passed but no mouse turn is open")
    if kind in state.mouse_turn.free_actions:
        raise RuleBroken(
            "free-action.once-per-turn", section=FREE_ACTIONS, detail=f"{mouse} already took {kind} this turn"
        )


def may_take(state: State, mouse: str, kind: str) -> bool:
    try:
        check_free_action(state, mouse, kind)
    except RuleBroken:
        return False
    return True


def near(state: State, a: str, b: str) -> bool:
    """Same or adjacent space (a Fishhook & Thread link counts as adjacent)."""
    here, there = space_of(state, a), space_of(state, b)
    if here is None or there is None:
        return False
    steps = (*mouse_neighbours(library_of(state), here), *linked(state, here))
    return here == there or any(o == there for o, _ in steps)


def _share_cards(cmd: Share) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The cards given and taken by a Share (``card`` is one more card given)."""
    return ((cmd.card,) if cmd.card is not None else ()) + cmd.give, cmd.take


def decide_share(state: State, cmd: Share) -> list[Event]:
    """A Share, a free exchange between the acting mouse and ``with_mouse`` on the same or an adjacent
    space (MM rulebook (it) §Condividere; MM rulebook (pt) §Compartilhar: "livremente trocar").

    Returns ``[SearchCardShared(mouse→with_mouse, by=mouse)...]`` for cards given,
    ``[SearchCardShared(with_mouse→mouse, by=mouse)...]`` for cards taken, then ``CheeseShared``
    each way, then the pack-limit discard decision if a pack is now over 3 (MM rulebook (it) §Equipaggiare:
    ``cards.pack_limit``). Pack cards only (equipped cards are unequipped first).

    Raises the free-action rules (``check_free_action``), ``share.unknown-mouse``,
    ``share.not-adjacent``, ``share.nothing``, ``share.same-card`` (a card named twice),
    ``share.not-in-pack`` (a card given not in ``mouse``'s pack, or taken not in ``with_mouse``'s),
    ``share.not-enough-cheese``.
    """
    check_free_action(state, cmd.mouse, SHARE)
    section = "MM rulebook (it) §Condividere"
    if cmd.with_mouse == cmd.mouse or cmd.with_mouse not in state.party or cmd.with_mouse in state.captured:
        raise RuleBroken(
            "share.unknown-mouse",
            section=section,
            detail=f"{cmd.with_mouse} is not another mouse on the board",
        )
    if not near(state, cmd.mouse, cmd.with_mouse):
        raise RuleBroken(
            "share.not-adjacent",
            section=section,
            detail=f"{cmd.with_mouse} is not on the same or an adjacent space",
        )
    give, take = _share_cards(cmd)
    if not give and not take and not cmd.cheese and not cmd.take_cheese:
        raise RuleBroken("share.nothing", section=section, detail="name cards and/or cheese to give or take")
    if len(set(give + take)) < len(give + take):
        raise RuleBroken("share.same-card", section=section, detail="a card is named twice")
    events: list[Event] = []
    for cards, giver, receiver in ((give, cmd.mouse, cmd.with_mouse), (take, cmd.with_mouse, cmd.mouse)):
        for card in cards:
            if card not in state.pack.get(giver, ()):
                raise RuleBroken(
                    "share.not-in-pack", section=section, detail=f"{card} is not in {giver}'s pack"
                )
            events.append(SearchCardShared(mouse=giver, with_mouse=receiver, card=card, by=cmd.mouse))
    for count, giver, receiver in (
        (cmd.cheese, cmd.mouse, cmd.with_mouse),
        (cmd.take_cheese, cmd.with_mouse, cmd.mouse),
    ):
        if not count:
            continue
        if count > state.cheese.get(giver, 0):
            raise RuleBroken(
                "share.not-enough-cheese",
                section=section,
                detail=f"{giver} has {state.cheese.get(giver, 0)} cheese",
            )
        events.append(CheeseShared(mouse=giver, with_mouse=receiver, count=count, by=cmd.mouse))
    return pack_limit(state, events)


def owned(state: State) -> set[str]:
    return {a for abilities in state.abilities.values() for a in abilities}


def eligible_abilities(state: State, mouse: str) -> list[str]:
    """Ability cards the mouse may take: its class (or any), its name if the card names mice, and
    not held by any mouse (each card exists once: docs/mice-and-mystics/facts.md §4); never a card only the
    story gives (Meeps: "story-unlocked", docs/mice-and-mystics/facts.md §4)."""
    lib = library_of(state)
    classes = set(lib.mice[mouse].classes) | {ANY}
    taken = owned(state)
    return sorted(
        a.id
        for a in lib.abilities.values()
        if a.id not in taken
        and not a.story_unlocked
        and set(a.classes) & classes
        and (not a.mice or mouse in a.mice)
    )


def decide_level_up(state: State, cmd: LevelUp) -> list[Event]:
    check_free_action(state, cmd.mouse, LEVEL_UP)
    section = "MM rulebook (it) §Salire di Livello"
    if state.cheese.get(cmd.mouse, 0) < LEVEL_UP_CHEESE:
        raise RuleBroken(
            "level-up.not-enough-cheese",
            section=section,
            detail=f"{cmd.mouse} needs {LEVEL_UP_CHEESE} cheese",
        )
    if cmd.ability not in eligible_abilities(state, cmd.mouse):
        raise RuleBroken(
            "level-up.not-eligible",
            section=section,
            detail=f"{cmd.ability} is not an ability card {cmd.mouse} may take",
        )
    return [MouseLeveledUp(mouse=cmd.mouse, ability=cmd.ability, cheese=LEVEL_UP_CHEESE)]


def legal_shares(state: State, mouse: str) -> list[Command]:
    """The simple Shares with each mouse near: give or take one pack card, give or take 1..n cheese
    (``decide_share`` accepts any larger exchange too)."""
    if not may_take(state, mouse, SHARE):
        return []
    out: list[Command] = []
    others = sorted(
        m for m in state.party if m != mouse and m not in state.captured and near(state, mouse, m)
    )
    for other in others:
        out += [
            Share(mouse=mouse, with_mouse=other, card=c) for c in dict.fromkeys(state.pack.get(mouse, ()))
        ]
        out += [
            Share(mouse=mouse, with_mouse=other, take=(c,)) for c in dict.fromkeys(state.pack.get(other, ()))
        ]
        out += [
            Share(mouse=mouse, with_mouse=other, cheese=n) for n in range(1, state.cheese.get(mouse, 0) + 1)
        ]
        out += [
            Share(mouse=mouse, with_mouse=other, take_cheese=n)
            for n in range(1, state.cheese.get(other, 0) + 1)
        ]
    return out


def legal_level_ups(state: State, mouse: str) -> list[Command]:
    if not may_take(state, mouse, LEVEL_UP) or state.cheese.get(mouse, 0) < LEVEL_UP_CHEESE:
        return []
    return [LevelUp(mouse=mouse, ability=a) for a in eligible_abilities(state, mouse)]
