"""Chapter room rules run by the ids the chapter data names (``Chapter.room_rules``: a tile and a rule id;
MM rulebook (it) §Capitolo 1, Regole Speciali del Capitolo). ``REGISTRY`` holds every rule this release plays,
each chapter's module registering its own (``chapter_1.ROOM_RULES``); the ruleset calls the hooks below, which
run the chapter's rules for their tiles in the order the chapter lists them. A rule id the registry does not
know is reported by ``dicelog content check`` (``chapter.unknown-room-rule``) and plays nothing."""

from __future__ import annotations

from collections.abc import Mapping

from dicelog.domain.core.errors import InvariantViolated, RuleBroken
from dicelog.domain.core.events import DiceRolled, Event
from dicelog.domain.mice_and_mystics.chapter_events import StoryRead
from dicelog.domain.mice_and_mystics.events import RoomEntered
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import chapter_1
from dicelog.domain.mice_and_mystics.rules.room_rule_hooks import (
    PLAYED_ROOM_RULES,
    RollHandler,
    RoomRuleHooks,
)
from dicelog.domain.mice_and_mystics.state import State

REGISTRY: Mapping[str, RoomRuleHooks] = {**chapter_1.ROOM_RULES}
"""Every room rule this release plays, by id (``room_rule_hooks.PLAYED_ROOM_RULES``)."""
if set(REGISTRY) != PLAYED_ROOM_RULES:
    raise InvariantViolated("room-rules", f"{sorted(REGISTRY)} against {sorted(PLAYED_ROOM_RULES)}")
ROLLS: Mapping[str, RollHandler] = {
    reason: handler for hooks in REGISTRY.values() for reason, handler in hooks.rolls
}
"""The rolls the room rules ask for, by ``RollRequested.reason`` (the ruleset's roll table includes them)."""


def _rules(state: State) -> list[tuple[RoomRuleHooks, str]]:
    """The chapter's room rules this release plays, with their tiles, in the chapter's order."""
    chapter = library_of(state).chapters.get(state.chapter)
    if chapter is None:
        return []
    return [(REGISTRY[r.rule], r.tile) for r in chapter.room_rules if r.rule in REGISTRY]


def after_explore(state: State, events: list[Event]) -> list[Event]:
    """The first entry of a room (``RoomEntered.first``): its read-aloud text (``StoryRead``), then each of
    its room rules' ``first_entry`` events, before a pending node the Explore left."""
    entered = next((e for e in events if isinstance(e, RoomEntered) and e.first), None)
    chapter = library_of(state).chapters.get(state.chapter)
    if entered is None or chapter is None:
        return events
    extra: list[Event] = [
        StoryRead(room=r.tile, text=r.text) for r in chapter.read_aloud if r.tile == entered.tile
    ]
    for hooks, tile in _rules(state):
        if tile == entered.tile and hooks.first_entry is not None:
            extra += hooks.first_entry(state)
    return chapter_1.before_pending(events, extra)


def check_explore(state: State, mouse: str) -> None:
    """Raises the ``RuleBroken`` of the first room rule forbidding ``mouse``'s Explore."""
    for hooks, tile in _rules(state):
        if hooks.check_explore is not None:
            hooks.check_explore(state, mouse, tile)


def may_explore(state: State, mouse: str) -> bool:
    """Whether no room rule forbids ``mouse``'s Explore."""
    try:
        check_explore(state, mouse)
    except RuleBroken:
        return False
    return True


def after_roll(state: State, answer: DiceRolled, events: list[Event]) -> list[Event]:
    """Every roll's events as the chapter's room rules change them (chapter 1: the crow, the counter
    cheese, Miz Maggie)."""
    for hooks, tile in _rules(state):
        if hooks.after_roll is not None:
            events = hooks.after_roll(state, answer, events, tile)
    return events
