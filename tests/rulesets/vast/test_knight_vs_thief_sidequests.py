"""Knight vs Thief (docs/vast/facts.md §7: the Knight keeps every Sidequest, Daring and Eagle-Eyed too):
docs/vast/facts.md §2 Sidequests, Daring «she ... attacks and kills the Thief», Eagle-Eyed «her Bow or
Enchanted Bow hits another player and does damage». Her feat against the Thief fulfils the card, which she
then completes for its Grit (Vast rulebook, Il Cavaliere, Missioni Secondarie)."""

from __future__ import annotations

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.state import KnightRole
from tests.rulesets.vast.support import Play, lit, refused
from tests.rulesets.vast.test_rules_revision_6 import rev
from tests.rulesets.vast.thief_support import OPEN, thief, thief_table


def knight_vs_thief(knight: KnightRole, **th):
    return rev(
        thief_table(
            lit(1, 0, OPEN),
            lit(-1, 0, OPEN),
            roles=("knight", "thief"),
            knight=knight,
            turn="knight",
            th=thief(1, 0, **th),
        )
    )


def test_killing_the_thief_fulfils_daring_in_knight_vs_thief__docs_vast_facts_sidequests_daring():
    """Before the kill Daring is not fulfilled; her attack that kills him fulfils it (rules revision 6, when
    the kill started to count: test_rules_revision_6.py)."""
    knight = KnightRole(x=1, y=0, placed={"perception": 2}, grit=4, sidequests=("daring",))
    state = knight_vs_thief(knight, stealth=2)
    assert refused(state, cmd.CompleteSidequest(card="daring")) == "vast.sidequest.not-fulfilled"
    p = Play(state)
    p.do(cmd.AttackThief())
    assert p.of(ev.ThiefKilled)
    p.do(cmd.CompleteSidequest(card="daring"))
    p.settle()
    assert p.state.knight.completed == ("daring",) and p.of(ev.SidequestCompleted)


def test_the_enchanted_bow_killing_the_thief_fulfils_eagle_eyed__docs_vast_facts_sidequests():
    """Her Enchanted Bow shot that kills him fulfils Eagle-Eyed (Vast rulebook, Tesori, Arco Incantato)."""
    knight = KnightRole(
        x=-1, y=0, treasures=("enchanted-bow",), placed={"enchanted-bow": 1}, sidequests=("eagle-eyed",)
    )
    p = Play(knight_vs_thief(knight, stealth=0))
    p.do(cmd.ShootThief())
    assert p.of(ev.ThiefKilled)
    p.do(cmd.CompleteSidequest(card="eagle-eyed"))
    p.settle()
    assert p.state.knight.completed == ("eagle-eyed",)
