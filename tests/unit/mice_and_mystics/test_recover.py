"""Recover (MM rulebook (it) §Recupero; MM rulebook (it) §Stordito e Intrappolato)."""

import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import RollRequested
from dicelog.domain.mice_and_mystics.commands import Recover
from dicelog.domain.mice_and_mystics.events import ActionStarted, EffectAdded, EffectRemoved
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import act, chapter_1_table, roll


def test_recover_removes_stunned_without_a_roll__rulebook_recupero():
    """MM rulebook (it) §Recupero, Recupero dallo Stordimento: "rimuovete il segnalino Stordito" (no roll)."""
    events, state = act(chapter_1_table(EffectAdded(mouse="filch", effect="stunned")), Recover(mouse="filch"))
    assert events == [
        ActionStarted(mouse="filch", action="recover"),
        EffectRemoved(mouse="filch", effect="stunned"),
    ]
    assert "filch" not in state.effects


@pytest.mark.parametrize(
    ("face", "freed"), [(2, True), (5, True), (6, True), (1, False), (3, False), (4, False)]
)
def test_recover_from_webbed_needs_a_star__rulebook_recupero(face, freed):
    """MM rulebook (it) §Recupero, Recupero dall'Intrappolamento: "lanciate un Dado Azione. Se ottenete un
    simbolo" (a star: faces 2, 5, 6, docs/mice-and-mystics/facts.md §1) "rimuovete il segnalino
    Intrappolato"."""
    events, state = act(chapter_1_table(EffectAdded(mouse="filch", effect="webbed")), Recover(mouse="filch"))
    assert events[-1] == RollRequested(reason="recover", dice=1, piece="filch")
    events, state = roll(state, face)
    assert (events == [EffectRemoved(mouse="filch", effect="webbed")]) is freed
    assert ("webbed" in state.effects.get("filch", ())) is not freed


def test_recover_is_refused_without_an_effect__rulebook_recupero():
    """MM rulebook (it) §Recupero: "Quando un Topo è Stordito o Intrappolato può usare un'Azione di
    Recupero"."""
    with pytest.raises(RuleBroken, match="recover.nothing-to-recover"):
        RULESET.decide(chapter_1_table(), Recover(mouse="filch"))
