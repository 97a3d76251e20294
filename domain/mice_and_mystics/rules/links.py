"""Fishhook & Thread's link between two spaces (MM rulebook (it) §Amo e Lenza).

While the token is on the board, mice move between its two ends as if they were adjacent (cost 1);
the spaces also count as adjacent for everything a mouse does (sharing, melee). Minions ignore it
(docs/mice-and-mystics/rulings.md, Party items).
"""

from __future__ import annotations

from dicelog.domain.mice_and_mystics.state import State

FISHHOOK = "fishhook-and-thread"


def linked(state: State, space: str) -> tuple[tuple[str, int], ...]:
    """(other end, cost) of the Fishhook & Thread link from ``space``, if one end is there."""
    ends = state.tokens.get(FISHHOOK, ())
    if len(ends) == 2 and space in ends:
        return ((ends[1] if ends[0] == space else ends[0], 1),)
    return ()
