"""Filch's Pilfer (MM rulebook (it) §Schede dei Topi, Filch: "Ladruncolo: quando Filch sconfigge un Servitore,
aggiungete 1 segnalino Formaggio alla sua sacca. Se il Servitore sconfitto è un Ratto, Filch può
prendere il segnalino Formaggio dalla Ruota del Formaggio, se disponibile"; docs/mice-and-mystics/facts.md §2,
FAQ1: Rat Warriors and Elite Rat Warriors are Rats, Captain Vurst is not).

Each minion figure the mouse with Pilfer defeats gives it 1 cheese. For a Rat, with cheese on the
wheel, the cheese comes off the wheel (``CheeseTakenFromWheel``) instead of the supply
(``CheeseGained``). The rulebook says "may"; the other answer (the supply) gives Filch the same
cheese and leaves the minions' wheel fuller, so it is never better for the party and dicelog does
not ask (docs/mice-and-mystics/rulings.md, Filch's Pilfer).
"""

from __future__ import annotations

from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.events import CheeseGained, CheeseTakenFromWheel
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.party_items import RATS
from dicelog.domain.mice_and_mystics.state import State

PILFER = "pilfer"


def on_defeat(state: State, attacker: str | None, card: str) -> list[Event]:
    """The cheese ``attacker`` gains for defeating a figure of minion ``card`` (``state`` before the
    defeat); nothing unless the attacker is a mouse with Pilfer."""
    mouse = library_of(state).mice.get(attacker) if attacker in state.party else None
    if mouse is None or mouse.ability != PILFER:
        return []
    if card in RATS and state.cheese_wheel > 0:
        return [CheeseTakenFromWheel(mouse=mouse.id, count=1, reason=PILFER)]
    return [CheeseGained(mouse=mouse.id, count=1, reason=PILFER)]
