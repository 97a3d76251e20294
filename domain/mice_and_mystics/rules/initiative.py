"""Laying the initiative track (MM rulebook (it) §Determinare l'Ordine di Iniziativa) and Collin's Born to
Lead, which pays when the cards are laid: a leaf module, so the chapter start (``flow``), an encounter that
lays the track again (``explore``) and a sandbox table (``sandbox``) all import it downward."""

from __future__ import annotations

from dicelog.domain.core.events import CardsShuffled, Event
from dicelog.domain.mice_and_mystics.events import CheeseGained, InitiativeTrackLaid, RoundStarted
from dicelog.domain.mice_and_mystics.state import State

BORN_TO_LEAD = "collin"
"""The mouse whose hero card has Born to Lead (MM rulebook (it) Collin's hero card;
docs/mice-and-mystics/facts.md §2)."""


def born_to_lead(order: tuple[str, ...]) -> list[Event]:
    """Collin's Born to Lead when the initiative cards are laid on the track in ``order`` (the whole
    track: chapter start, or an encounter with no minion card on it): ``[CheeseGained]`` (1, reason
    ``born-to-lead``) if Collin's card is laid but not in the first slot, else ``[]`` (MM rulebook (it)
    Collin's hero card, "quando collocate le carte sulla Colonna dell'Iniziativa";
    docs/mice-and-mystics/facts.md §2; docs/mice-and-mystics/rulings.md, Born to Lead)."""
    if BORN_TO_LEAD in order and order[0] != BORN_TO_LEAD:
        return [CheeseGained(mouse=BORN_TO_LEAD, count=1, reason="born-to-lead")]
    return []


def resolve_initiative(state: State, answer: CardsShuffled) -> list[Event]:
    """Lay the shuffled cards down the track, top first (MM rulebook (it) §Determinare l'Ordine di
    Iniziativa), apply Collin's Born to Lead (``born_to_lead``), start round 1."""
    return [InitiativeTrackLaid(cards=answer.order), *born_to_lead(answer.order), RoundStarted(round=1)]
