"""Real cards by their printed names and dice by their symbols (issue 10, the table companion): a
table that plays with its own box enters the search card it drew as printed (``Toothpick``) and the
die as it lies (``bow-star``); the stored ``CommandAccepted`` keeps what the table sent, the
``CardsDrawn`` / ``DiceRolled`` the ids and numbers the rules read, and the log verifies."""

import pytest

from dicelog.domain.core.commands import Draw, Roll, Shuffle
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import CardsDrawn, CommandAccepted, DiceRolled
from dicelog.domain.core.verify import verify
from dicelog.domain.mice_and_mystics.commands import Search
from tests.unit.mice_and_mystics.scenario import PARTY, Table


def _at_a_search_draw() -> tuple[Table, str]:
    table = Table()
    order = tuple(sorted(table.game.pending.cards, key=lambda card: card not in PARTY))
    table.play(Shuffle(order=order))
    mouse = table.game.state.turn_card
    seat = next(s.name for s in table.game.created.seats if mouse in s.controls)
    table.play(Search(mouse=mouse), seat=seat)
    events = table.play(Roll(faces=("bow-star",)), seat=seat)  # a star: draw (MM rulebook (it) §Ricerca)
    assert DiceRolled(reason="search", faces=(5,), source="manual") in events
    return table, seat


def test_a_drawn_search_card_entered_by_its_printed_name__rulebook_ricerca():
    table, seat = _at_a_search_draw()
    events = table.play(Draw(cards=(" fishhook & THREAD",)), seat=seat)  # any case, spaces ignored
    drawn = CardsDrawn(reason="search", deck="search", cards=("fishhook-and-thread",), source="manual")
    assert drawn in events
    accepted = next(e for e in events if isinstance(e, CommandAccepted))
    assert b'" fishhook & THREAD"' in bytes(accepted.command)  # the command as the table sent it
    assert verify(table.records).ok


def test_a_name_no_card_of_the_deck_has_is_refused_without_naming_the_deck__rulebook_ricerca():
    table, seat = _at_a_search_draw()
    with pytest.raises(RuleBroken, match="draw.not-in-deck"):
        table.play(Draw(cards=("Excalibur",)), seat=seat)
