"""Vast rulebook, Rivelare e risolvere le tessere Buie, Evento; La Caverna, Eventi: the Knight revealing an
Event tile when the Event deck runs low. With no card left anywhere nothing is played; with the deck drawn
out, the bottom's cards are offered as they are; from rules revision 6 (the Cave reads the top cards) a last
card is played with no choice. Knight vs Cave tables; the Event tile is a tunnel turned E-W."""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.core.events import DecisionRequested, DrawRequested
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from tests.rulesets.vast.support import Play, dark, table


def reveal(**kw) -> Play:
    """The Knight steps onto the Dark Event tile (1, 0) and the Cave turns it (its default) and fills."""
    p = Play(replace(table(dark(1, 0, "event-06")), **kw))
    p.do(cmd.MoveKnight(x=1, y=0))
    while isinstance(p.pending, DecisionRequested) and p.pending.decision.startswith(("orient", "fill")):
        p.default()
        if isinstance(p.pending, DrawRequested) and p.pending.reason == "cave-hand":
            p.draw(p.pending.cards[0])
    return p


def test_with_no_event_card_left_the_event_tile_plays_nothing__rulebook_eventi():
    """Vast rulebook, La Caverna, Eventi: the Cave plays an Event card on her; with the deck and its bottom
    empty there is none to play: no draw, no choice, and the reveal is resolved (+1 Grit)."""
    p = reveal(event_deck=(), event_bottom=())
    assert p.pending is None and not p.of(ev.EventPlayed)
    assert p.state.knight.grit == 1


def test_with_the_deck_drawn_out_the_bottom_cards_are_offered__rulebook_eventi():
    """Vast rulebook, La Caverna, Eventi: the cards sent to the bottom come up again once the deck above them
    is gone; the Cave chooses among them without a draw."""
    p = reveal(event_deck=(), event_bottom=("light", "vantage-point"))
    assert isinstance(p.pending, DecisionRequested) and p.pending.decision == "event-choice"
    assert p.pending.options == ("light", "vantage-point")
    assert not [e for e in p.events if isinstance(e, DrawRequested) and e.deck == "events"]


def test_from_revision_6_a_last_event_card_is_played_with_no_choice__rulebook_la_caverna_eventi():
    """Vast rulebook, La Caverna, Eventi (rules revision 6: the Cave reads the deck's top cards): with one
    card left it is the one played, no choice asked."""
    p = reveal(rules_revision=6, event_deck=("rats-1",), event_top=("rats-1",), event_bottom=())
    p.settle()
    assert [e.card for e in p.of(ev.EventPlayed)] == ["rats-1"]
    assert not [e for e in p.events if isinstance(e, DecisionRequested) and e.decision == "event-choice"]
