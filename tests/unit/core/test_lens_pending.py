"""``Lens.pending``: a pending node as a reader sees it keeps its type (``domain/core/visibility.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import DiceRolled, DrawRequested, RollRequested
from dicelog.domain.core.visibility import AUDITOR_VIEWER, SPECTATOR_VIEWER, Lens, Viewer
from dicelog_secret_hand.ruleset import SECRET_HAND

DRAW = DrawRequested(reason="deal", deck="deck", cards=("card-01", "card-02"), count=1)


def test_a_pending_draw_is_masked_and_stays_a_draw() -> None:
    shown = Lens(SECRET_HAND, SPECTATOR_VIEWER).pending(DRAW)
    assert isinstance(shown, DrawRequested)
    assert shown.cards != DRAW.cards and len(shown.cards) == len(DRAW.cards)
    assert Lens(SECRET_HAND, AUDITOR_VIEWER).pending(DRAW) is DRAW
    assert Lens(SECRET_HAND, SPECTATOR_VIEWER).pending(None) is None


class _Shapeshifter:
    """A ruleset whose ``view_event`` turns a pending roll into another event: a bug ``pending`` names."""

    def view_event(self, event: Any, viewer: Viewer) -> Any:
        return DiceRolled(reason="x", faces=(1,))


def test_a_pending_node_shown_as_another_type_is_a_broken_invariant() -> None:
    with pytest.raises(InvariantViolated, match="lens-pending"):
        Lens(_Shapeshifter(), SPECTATOR_VIEWER).pending(RollRequested(reason="x", dice=1))
