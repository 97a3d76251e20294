"""Goblin rules no test reached (issue 30): Blind Fury's Tribe moving without losing Goblins, the Goblins
declining an Ambush, the Blob's bite on the Knight and a Special action with its deck spent (Vast rulebook, I
Goblin: 5. Attiva le Tribù, Imboscata, Azioni Speciali; docs/vast/facts.md §3 Secrets and Monster cards).
Knight, Goblins and Cave tables, dice explicit."""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.core.events import DecisionRequested
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.rules.flow import ambush
from dicelog.domain.vast.state import GoblinsRole, KnightRole
from tests.rulesets.vast.support import Play, dark, goblin_table, lit, refused, tribes

CELLS = (lit(1, 0, "event-01"), lit(2, 0, "event-02"), lit(3, 0, "event-03"), dark(4, 0, "event-10"))


def test_blind_furys_tribe_loses_no_goblin_moving__docs_vast_facts_secrets_blind_fury():
    """Vast rulebook, I Goblin, 5. Attiva le Tribù: a Tribe loses a disc for every 2 Lit tiles it leaves;
    docs/vast/facts.md §3 Secrets cards, Blind Fury: the Tribe it is played on loses none this turn."""
    gob = GoblinsRole(phase="activate", tribes=tribes(eye={"population": 3, "x": 1, "y": 0}))
    state = goblin_table(*CELLS, gob=gob, knight=KnightRole(x=0, y=0))
    for fury, population in (("", 2), ("eye", 3)):
        p = Play(replace(state, goblins=replace(gob, blind_fury=fury)))
        p.do(cmd.ActivateTribe(tribe="eye", action="none", x=4, y=0))  # leaves 3 Lit tiles
        assert p.state.goblins.tribes[2].population == population


def test_the_goblins_may_decline_to_ambush_the_knight__rulebook_i_goblin_imboscata():
    """Vast rulebook, I Goblin, Imboscata: a hidden Tribe stronger than the Knight may ambush her; choosing
    none, the Ambush is resolved unhurt and the Tribe stays hidden."""
    gob = GoblinsRole(tribes=tribes(eye={"population": 3}), phase="activate")
    p = Play(goblin_table(gob=gob, turn="knight", knight=KnightRole(placed={"movement": 2})))
    p._take(ambush(p.state))
    assert isinstance(p.pending, DecisionRequested) and p.pending.decision == "ambush-tribe"
    p.choose("none")
    assert not p.of(ev.VastAmbushResolved)[0].hurt and p.state.knight.health == 7
    assert p.state.goblins.tribes[2].x is None


def test_a_tribe_with_the_blob_that_attacks_the_knight_costs_her_5_grit__docs_vast_facts_monster_blob():
    """docs/vast/facts.md §3 Monster cards, Blob: when its Tribe attacks the Knight she also loses 5 Grit
    (Vast rulebook, I Goblin, Attaccare: she loses 1 Health)."""
    gob = GoblinsRole(
        phase="activate", tribes=tribes(fangs={"population": 3, "x": 1, "y": 0, "monsters": ("blob",)})
    )
    p = Play(goblin_table(lit(1, 0, "event-01"), gob=gob, knight=KnightRole(x=0, y=0, grit=9)))
    p.do(cmd.ActivateTribe(tribe="fangs", action="attack", x=0, y=0))
    p.settle()
    assert p.of(ev.TribeAttackedKnight) and p.state.knight.grit == 4 and p.state.knight.health == 6


def test_a_special_action_with_no_card_left_is_refused__rulebook_i_goblin_azioni_speciali():
    """Vast rulebook, I Goblin, Azioni Speciali: the Bones draw a Monster card; with the Monster deck and its
    discards empty there is none, and the action is refused (``vast.goblins.empty-deck``)."""
    gob = GoblinsRole(phase="activate", tribes=tribes(bones={"population": 2, "x": 1, "y": 0}))
    state = replace(goblin_table(lit(1, 0, "event-01"), gob=gob), monster_deck=(), monster_discard=())
    assert refused(state, cmd.ActivateTribe(tribe="bones", action="special")) == "vast.goblins.empty-deck"
