"""docs/vast/facts.md §3 Secrets cards, Goblin Ruby: face up, once in the Goblins' turn, right after drawing
War or Monster cards one of them may be discarded and another drawn in its place; keeping the draw leaves the
Ruby for a later draw (Vast rulebook, I Goblin, Riepilogo del Turno). The Goblins' turn is played from its
start (rules revision 6), cards explicit."""

from __future__ import annotations

from dicelog.domain.core.events import DecisionRequested, DrawRequested
from dicelog.domain.vast import events as ev
from tests.rulesets.vast.test_rules_revision_6 import goblins_turn


def to_decision(p, name: str) -> None:
    """Answer every node the plain way until the decision ``name`` is pending."""
    for _ in range(40):
        pending = p.pending
        if isinstance(pending, DecisionRequested) and pending.decision == name:
            return
        if isinstance(pending, DecisionRequested):
            p.default()
        elif isinstance(pending, DrawRequested):
            p.draw(*pending.cards[: pending.count])
        else:
            raise AssertionError(f"{name} never came: {pending}")
    raise AssertionError(f"{name} never came")


def test_the_ruby_redraws_a_war_card__docs_vast_facts_secrets_goblin_ruby():
    """A War card discarded with the Ruby is replaced by one of the cards not drawn this turn, and the Ruby is
    used for the turn."""
    p = goblins_turn(6, face_up=("goblin-ruby",))
    p.draw("consumption", "desolation")
    assert p.pending.decision == "ruby:war" and p.pending.options == ("keep", "consumption", "desolation")
    p.choose("consumption")
    assert p.of(ev.RubyRedrawn) == [ev.RubyRedrawn(deck="war", card="consumption")]
    assert p.pending.reason == "war-ruby" and "consumption" not in p.pending.cards
    assert "desolation" not in p.pending.cards and p.state.goblins.ruby_used


def test_kept_at_the_war_draw_the_ruby_redraws_a_monster_card__docs_vast_facts_secrets_goblin_ruby():
    """Keeping the War cards, the Ruby is still there at the Monster draw: the Monster card discarded goes to
    the Monster discards and another is drawn."""
    p = goblins_turn(6, face_up=("goblin-ruby",))
    p.draw("consumption", "desolation")
    p.choose("keep")
    assert not p.state.goblins.ruby_used
    to_decision(p, "ruby:monsters")
    card = p.pending.options[1]
    p.choose(card)
    assert p.of(ev.RubyRedrawn) == [ev.RubyRedrawn(deck="monsters", card=card)]
    assert card in p.state.monster_discard and p.state.goblins.ruby_used
    assert p.pending.reason == "monsters-ruby" and card not in p.pending.cards
