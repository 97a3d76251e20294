"""The shape of a chapter room rule (``Chapter.room_rules``): what it does at each moment the rules call
it. Each chapter's module registers its rules by id (``chapter_1.ROOM_RULES``); ``room_rules.py`` runs
them for the tile the chapter data gives."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from dicelog.domain.core.events import DiceRolled, Event
from dicelog.domain.mice_and_mystics.state import State

FirstEntry = Callable[[State], list[Event]]
"""``(state) -> events`` when a mouse first enters the rule's room tile."""
AfterRoll = Callable[[State, DiceRolled, list[Event], str], list[Event]]
"""``(state, roll, events, tile) -> events``: the events a roll produced, as the rule changes them."""
CheckExplore = Callable[[State, str, str], None]
"""``(state, mouse, tile)``: raises ``RuleBroken`` when the rule forbids the mouse's Explore."""
RollHandler = Callable[[State, DiceRolled], list[Event]]
"""``(state, roll) -> events``: the answer to a roll the rule asked for."""

PLAYED_ROOM_RULES: frozenset[str] = frozenset(
    {"crow", "tree-entrance", "counter-cheese", "miz-maggie", "leaving-the-sewer"}
)
"""The id of every room rule this release plays: what ``content_check`` accepts in ``Chapter.room_rules``
(``chapter.unknown-room-rule``). ``room_rules.REGISTRY`` holds their hooks and raises ``InvariantViolated``
at import when its ids differ from these; the ids live here, below the rules, so that the content check
(run when a content pack is read) does not import the rules that read content."""


class RoomRuleHooks(NamedTuple):
    """What a room rule does, by the moment it is called; ``None`` (or empty): nothing then."""

    first_entry: FirstEntry | None = None
    """On the first entry of its room tile, after the read-aloud text."""
    after_roll: AfterRoll | None = None
    """After every roll's events, in the order the chapter lists its rules."""
    check_explore: CheckExplore | None = None
    """Before an Explore (and when listing legal Explores)."""
    rolls: tuple[tuple[str, RollHandler], ...] = ()
    """The rolls the rule asks for (``RollRequested.reason`` -> its handler)."""
