"""Scrolls and event cards, by search-card kind (MM rulebook (it) §Carte Ricerca; MM rulebook (it) §Ricerca;
MM rulebook (it) §Azioni Gratuite; docs/mice-and-mystics/facts.md §5).

- Scroll: an item carried in the pack (it takes room); used as a free action unless the card says
  otherwise, then discarded (MM rulebook (pt): "O pergaminho deve ser descartado pelo rato depois do uso").
  Like every free action: once a turn, never inside another action, never in water. Its effect lasts the rest
  of the mouse's turn (``MouseTurn.scroll_effects``). Only scrolls whose effect the rules know
  (``SearchCard.special``) can be used; the core catalogue knows one: the Scroll of Levitation
  (``levitation``: the mouse crosses red lines, ``movement.py``; provisional,
  docs/mice-and-mystics/rulings.md).
- Event: resolves at once when drawn and is discarded; it is never kept (no keep/discard decision).
  No core event card's text is known (docs/mice-and-mystics/facts.md §5), so no effect follows the
  ``EventCardResolved``.
- Trick: kept in the pack without taking room (``cards.NO_ROOM``); no trick's text is known, so
  there is no command to play one.
"""

from __future__ import annotations

from dicelog.domain.core.commands import Command
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.commands import UseScroll
from dicelog.domain.mice_and_mystics.content import Library
from dicelog.domain.mice_and_mystics.item_events import EventCardResolved, ScrollUsed
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.cards import card_type
from dicelog.domain.mice_and_mystics.rules.equip import requirement_met
from dicelog.domain.mice_and_mystics.rules.free_actions import check_free_action, may_take
from dicelog.domain.mice_and_mystics.state import State

SECTION = "MM rulebook (it) §Carte Ricerca"
SCROLL, EVENT, TRICK = "scroll", "event", "trick"
LEVITATION = "levitation"
KNOWN_EFFECTS = (LEVITATION,)


def scroll_effect(lib: Library, card: str) -> str | None:
    """The effect the rules know for scroll ``card`` (its catalogue ``special``), else ``None``."""
    found = lib.search_cards.get(card)
    if found is None or found.type != SCROLL or found.special not in KNOWN_EFFECTS:
        return None
    return found.special


def decide_use_scroll(state: State, cmd: UseScroll) -> list[Event]:
    """``UseScroll(mouse, card)`` -> ``[ScrollUsed(mouse, card, effect)]`` (the card leaves the pack).

    Raises ``RuleBroken``: the free-action checks (``free-action.*``: not its turn, inside an action,
    in water, a scroll already used this turn), ``scroll.not-in-pack``, ``scroll.not-a-scroll``,
    ``scroll.requirement`` (the card's class/mouse requirement), ``scroll.effect-unknown`` (a scroll
    whose text the rules do not know). MM rulebook (it) §Carte Ricerca; docs/mice-and-mystics/facts.md §5.
    """
    check_free_action(state, cmd.mouse, SCROLL)
    if cmd.card not in state.pack.get(cmd.mouse, ()):
        raise RuleBroken(
            "scroll.not-in-pack", section=SECTION, detail=f"{cmd.card} is not in {cmd.mouse}'s pack"
        )
    lib = library_of(state)
    if card_type(lib, cmd.card) != SCROLL:
        raise RuleBroken("scroll.not-a-scroll", section=SECTION, detail=f"{cmd.card} is not a scroll")

    if not requirement_met(lib, cmd.mouse, cmd.card):
        raise RuleBroken("scroll.requirement", section=SECTION, detail=f"{cmd.mouse} may not use {cmd.card}")
    effect = scroll_effect(lib, cmd.card)
    if effect is None:
        raise RuleBroken(
            "scroll.effect-unknown",
            section=SECTION,
            detail=f"the text of {cmd.card} is not known, so the rules cannot apply it",
        )
    return [ScrollUsed(mouse=cmd.mouse, card=cmd.card, effect=effect)]


def in_force(state: State, mouse: str, effect: str) -> bool:
    """Whether a scroll ``effect`` used by ``mouse`` this turn still holds (it ends with the turn)."""
    turn = state.mouse_turn
    return turn is not None and turn.mouse == mouse and effect in turn.scroll_effects


def is_event(lib: Library, card: str) -> bool:
    return card_type(lib, card) == EVENT


def resolve_event(mouse: str, card: str) -> list[Event]:
    """A drawn event card: resolved at once and discarded (MM rulebook (it) §Ricerca). No core event text is
    known (docs/mice-and-mystics/facts.md §5), so nothing else follows."""
    return [EventCardResolved(mouse=mouse, card=card)]


def legal_scrolls(state: State, mouse: str) -> list[Command]:
    if not may_take(state, mouse, SCROLL):
        return []
    out: list[Command] = []
    for card in dict.fromkeys(state.pack.get(mouse, ())):
        command = UseScroll(mouse=mouse, card=card)
        try:
            decide_use_scroll(state, command)
        except RuleBroken:
            continue
        out.append(command)
    return out
