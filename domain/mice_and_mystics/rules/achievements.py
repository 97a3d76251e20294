"""Personal achievements, the optional rule (MM rulebook (it), Conquiste Personali, back page;
docs/mice-and-mystics/facts.md appendix).

- Cheese Master: first mouse to roll 3+ cheese in one attack or defense roll. End marker +1 page;
  from its next roll on, each of its defense rolls showing cheese gives every active mouse 1 cheese.
- Roach Master: first mouse to defeat 4 roaches in one encounter. End marker +1; roaches on its
  tile are never greedy (``abilities.is_greedy``; on its space in rules revision 1).
- Poison Master: first mouse captured holding a poison wound. Its poison wounds are normal wounds
  from then on (``abilities.on_mouse_hit``).
- Escape Artist: first mouse captured twice in the chapter. End marker +1; a third capture frees it
  at once (wounds and cheese still lost), placed like a released mouse (default space).
- Cat Tamer: first mouse to defeat Brodie. Large figures roll 1 fewer defense die against it.
Each is earned once per chapter (``State.achievements``: achievement -> mouse). Every capture, by
wounds or by a current, runs ``before_capture`` / ``after_capture`` through ``combat.capture_mouse``.
"""

from __future__ import annotations

from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.events import (
    AchievementEarned,
    CheeseGained,
    EndMarkerMoved,
    MouseReleased,
    RoachDefeatedCounted,
)
from dicelog.domain.mice_and_mystics.rules.captured import release_spaces
from dicelog.domain.mice_and_mystics.rules.graph import size_of
from dicelog.domain.mice_and_mystics.state import State, space_of

CHEESE_MASTER, ROACH_MASTER, POISON_MASTER = "cheese-master", "roach-master", "poison-master"
ESCAPE_ARTIST, CAT_TAMER = "escape-artist", "cat-tamer"
CHEESE, ROACHES, BRODIE = 1, "roaches", "brodie"


def _earn(state: State, mouse: str, achievement: str, end_marker: bool) -> list[Event]:
    if achievement in state.achievements:
        return []
    events: list[Event] = [AchievementEarned(mouse=mouse, achievement=achievement)]
    if end_marker:
        events.append(EndMarkerMoved(page=state.end_marker_page + 1, reason=achievement))
    return events


def on_roll(state: State, figure: str, faces: tuple[int, ...], defending: bool) -> list[Event]:
    if figure not in state.party:
        return []
    cheese = sum(1 for f in faces if f == CHEESE)
    events: list[Event] = []
    if defending and cheese and state.achievements.get(CHEESE_MASTER) == figure:
        active = [m for m in state.party if m not in state.captured and space_of(state, m) is not None]
        events += [CheeseGained(mouse=m, count=1, reason=CHEESE_MASTER) for m in active]
    if cheese >= 3:
        events += _earn(state, figure, CHEESE_MASTER, end_marker=True)
    return events


def on_defeat(state: State, attacker: str | None, figure: str, card: str) -> list[Event]:
    if attacker not in state.party:
        return []
    if figure == BRODIE:
        return _earn(state, attacker, CAT_TAMER, end_marker=False)
    if card != ROACHES:
        return []
    events: list[Event] = [RoachDefeatedCounted(mouse=attacker)]
    if state.roaches_defeated.get(attacker, 0) + 1 >= 4:
        events += _earn(state, attacker, ROACH_MASTER, end_marker=True)
    return events


def before_capture(state: State, mouse: str) -> list[Event]:
    return _earn(state, mouse, POISON_MASTER, end_marker=False) if state.poison_wounds.get(mouse, 0) else []


def after_capture(state: State, mouse: str) -> list[Event]:
    """``state`` is after ``MouseCaptured`` (its capture count already raised)."""
    captures = state.captures.get(mouse, 0)
    if captures == 2:
        return _earn(state, mouse, ESCAPE_ARTIST, end_marker=True)
    if captures >= 3 and state.achievements.get(ESCAPE_ARTIST) == mouse:
        spaces = release_spaces(state)
        return [MouseReleased(mouse=mouse, space=spaces[0])] if spaces else []
    return []


def cat_tamer_penalty(state: State, attacker: str, figure: str) -> int:
    return 1 if state.achievements.get(CAT_TAMER) == attacker and size_of(state, figure) == "large" else 0
