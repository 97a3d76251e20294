"""Captured mice and their release; the chapter's end (MM rulebook (it) §Topi Catturati; MM rulebook (it)
§Liberare un Topo; MM rulebook (it) §Plancia del Racconto; MM rulebook (it) §Capitolo 1: Obiettivi del
Capitolo).

A captured mouse skips its turns while minions are on the board. Its first turn with no minion on
the board releases it: the players place it on the space of another mouse or a space adjacent to
it (a ``DecisionRequested``, default: the space of the mouse highest on the track, else the first
free adjacent space), and it does nothing else that turn (docs/mice-and-mystics/rulings.md, Releasing a
captured mouse).

The chapter is lost when the hourglass reaches the end marker, or when every mouse is captured at
once; won when the chapter's goal holds (Chapter 1: every mouse on the Courtyard's tree-entrance
space, the Courtyard clear of minions, none captured).
"""

from __future__ import annotations

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import DecisionMade, DecisionRequested, Event
from dicelog.domain.mice_and_mystics.events import MouseReleased, MouseTurnSkipped
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.graph import can_enter, is_minion, mice_on_board, mouse_neighbours
from dicelog.domain.mice_and_mystics.rules.movement import space_order
from dicelog.domain.mice_and_mystics.state import State

RELEASE = "release-space"


def minions_on_board(state: State) -> bool:
    return any(is_minion(state, f) for figures in state.board.values() for f in figures)


def release_spaces(state: State) -> tuple[str, ...]:
    """Spaces a released mouse may be placed on, best first: the other mice's spaces (track order),
    then the spaces adjacent to them, each only if a small figure fits."""
    near = list(dict.fromkeys(mice_on_board(state).values()))
    lib = library_of(state)
    adjacent = sorted({o for s in near for o, _ in mouse_neighbours(lib, s)} - set(near), key=space_order)
    return tuple(s for s in (*near, *adjacent) if can_enter(state, s, "small"))


def captured_turn(state: State, mouse: str) -> list[Event]:
    """The turn of a captured mouse: skipped while minions are on the board, else its release."""
    if minions_on_board(state):
        return [MouseTurnSkipped(mouse=mouse, reason="captured while minions are on the board")]
    options = release_spaces(state)
    if not options:
        return [MouseTurnSkipped(mouse=mouse, reason="no space next to another mouse")]
    return [DecisionRequested(decision=RELEASE, options=options, piece=mouse, default=options[0])]


def resolve_release(state: State, answer: DecisionMade) -> list[Event]:
    mouse = state.turn_card
    if mouse is None:
        raise InvariantViolated("turn-card", "a release is only asked in a captured mouse's turn")
    return [
        MouseReleased(mouse=mouse, space=answer.option),
        MouseTurnSkipped(mouse=mouse, reason="released this turn"),
    ]


def chapter_won(state: State) -> bool:
    """The chapter's goal is met: its goal room clear of minions and every mouse that is not captured
    on its goal spaces (MM rulebook (it) Capitolo 1, Obiettivi del Capitolo: «Liberate il cortile dai
    Servitori e portate tutti i Topi non Catturati sulla casella di entrata dell'albero»; MM rulebook (pt)
    «levem todos os ratos ... sem ser capturados»). Rules revision 1 read it as "no mouse captured"
    (docs/mice-and-mystics/rulings.md, Chapter 1 victory with a captured mouse)."""
    lib = library_of(state)
    goal = lib.chapters[state.chapter].goal
    if goal is None or goal.tile not in {t.tile for t in state.tiles}:
        return False
    if state.captured and state.rules_revision < 2:
        return False
    free = [m for m in state.party if m not in state.captured]
    if not free:
        return False
    tile = lib.tiles[goal.tile]
    spaces = [s.id for s in tile.spaces if s.feature == goal.feature]
    on_goal = all(any(m in state.board.get(s, ()) for s in spaces) for m in free)
    clear = not any(is_minion(state, f) for s in tile.spaces for f in state.board.get(s.id, ()))
    return on_goal and clear


def outcome_reason(state: State) -> str:
    """Why the chapter ended, in English, for ``GameEnded.reason`` (rules revision 2 on; ``""`` for
    games of revision 1, whose stored ``GameEnded`` has none, and while the chapter goes on)."""
    if state.rules_revision < 2 or outcome(state) is None:
        return ""
    if state.end_marker_page and state.hourglass_page >= state.end_marker_page:
        return "the hourglass reached the end marker (MM rulebook (it) §Plancia del Racconto)"
    if state.party and all(m in state.captured for m in state.party):
        return "every mouse was captured at once"
    return "the chapter's goal was reached"


def outcome(state: State) -> str | None:
    if state.phase != "playing":
        return None
    if state.end_marker_page and state.hourglass_page >= state.end_marker_page:
        return "defeat"
    if state.party and all(m in state.captured for m in state.party):
        return "defeat"
    return "victory" if chapter_won(state) else None
