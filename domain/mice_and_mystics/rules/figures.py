"""How many minion figures and tokens the box holds (docs/mice-and-mystics/facts.md §0 components; MM rulebook
(it) §Collocare i Servitori sul Tabellone: "collocate le miniature disponibili ignorando le rimanenti"; MM
rulebook (it) Ratti Guerrieri e Capitano Vurst: Elite Rat Warriors and Captain Vurst are rat figures with a
token under).

6 rats, 8 roaches, 1 centipede, 1 spider; 4 Elite Rat tokens, 1 Captain Vurst token; Brodie's paw
token and Vanestra are single pieces. A card's figures can enter only while both its figure and its
token are left.
"""

from __future__ import annotations

from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.state import State

FIGURES = {"rat": 6, "roach": 8, "centipede": 1, "spider": 1, "brodie-paw": 1, "vanestra": 1}
TOKENS = {"elite-rat-warriors": 4, "captain-vurst": 1}


def available(state: State, card: str) -> int:
    """Figures of ``card`` that can still be put on the board."""
    minions = library_of(state).minions
    kind = minions[card].figure
    on_board = [
        c
        for f, c in state.figures.items()
        if c in minions and any(f in figs for figs in state.board.values())
    ]
    left = FIGURES.get(kind, 99) - sum(1 for c in on_board if minions[c].figure == kind)
    if card in TOKENS:
        left = min(left, TOKENS[card] - on_board.count(card))
    return max(left, 0)
