"""Placing minions on minion entrances (001 §Collocare i Servitori sul Tabellone; 002 summary).

1. Small ranged minions: all on the entrance farthest from the mice (an entrance inside a special
   area outlined in red first); if it fills up, the next one by the same rule.
2. Large minions, one at a time: the free entrance nearest the mice.
3. Small melee minions: the remaining free entrances, spread as evenly as possible.

Where the rulebook lets the players choose between equally good entrances, this slice takes the
first in the tile's space order (a documented default, not yet a ``DecisionRequested``).
Distances are counted along minion borders (minions ignore red and yellow lines).
"""

from __future__ import annotations

from domain.core.events import Event
from domain.mice_and_mystics.content import library
from domain.mice_and_mystics.events import FigurePlaced
from domain.mice_and_mystics.evolve import evolve
from domain.mice_and_mystics.rules.figures import available
from domain.mice_and_mystics.rules.graph import can_enter, is_minion, minion_distances
from domain.mice_and_mystics.state import State

FAR = 10_000


def next_figure_id(state: State, card: str) -> str:
    n = 1
    while f"{card}-{n}" in state.figures:
        n += 1
    return f"{card}-{n}"


def _choose(state: State, card: str, tile: str, placed: dict[str, int]) -> str | None:
    minion = library().minions[card]
    spaces = library().tiles[tile].spaces
    entrances = [s for s in spaces if s.kind == "minion-entrance" and can_enter(state, s.id, minion.size)]
    if not entrances:
        return None
    mice = tuple(sp for sp, figs in state.board.items() if any(not is_minion(state, f) for f in figs))
    dist = minion_distances(mice)
    if minion.size == "large":
        return min(entrances, key=lambda s: dist.get(s.id, FAR)).id
    if minion.attack == "ranged":
        return min(entrances, key=lambda s: (s.capacity != "unlimited", -dist.get(s.id, FAR))).id
    return min(entrances, key=lambda s: placed.get(s.id, 0)).id


def place_minions(state: State, card: str, count: int, tile: str) -> list[Event]:
    """``count`` figures of ``card`` placed on ``tile``'s entrances; figures that fit nowhere are
    not placed (001 §Il Turno di un Servitore: "collocate le miniature disponibili")."""
    events: list[Event] = []
    placed: dict[str, int] = {}
    for _ in range(min(count, available(state, card))):
        space = _choose(state, card, tile, placed)
        if space is None:
            break
        event = FigurePlaced(figure=next_figure_id(state, card), card=card, space=space)
        placed[space] = placed.get(space, 0) + 1
        state = evolve(state, event)
        events.append(event)
    return events
