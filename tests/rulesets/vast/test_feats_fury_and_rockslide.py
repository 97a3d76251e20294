"""What a played command leaves on the table, for rules no test reached (issue 30): the Knight's feats against
the Goblins that fulfil Daring and Stalwart (docs/vast/facts.md §2 Sidequests), Blind Fury on its Tribe
(docs/vast/facts.md §3 Secrets cards) and a Rockslide over a Bomb token (Vast rulebook, Equipaggiamento,
Bomba). Tables are laid by hand and played with explicit commands."""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.cave import edge
from dicelog.domain.vast.state import CaveRole, GoblinsRole, KnightRole
from tests.rulesets.vast.support import Play, goblin_table, lit, table, tribes

OPEN = "treasure-room-01"


def test_attacking_a_tribe_of_3_with_a_monster_fulfils_daring_and_stalwart__docs_vast_facts_sidequests():
    """docs/vast/facts.md §2 Sidequests, against the Goblins: Daring, she attacks a Tribe with a Monster (4
    Grit); Stalwart, she attacks a Tribe of Population 3 or more (5 Grit). Her attack (Vast rulebook,
    Interagire con i Goblin) records both, and she then completes both cards."""
    gob = GoblinsRole(tribes=tribes(bones={"population": 3, "x": 1, "y": 0, "monsters": ("blob",)}))
    state = goblin_table(lit(1, 0, "event-01"), gob=gob, turn="knight")
    knight = KnightRole(grit=11, placed={"strength": 3}, sidequests=("stalwart", "daring"))
    p = Play(replace(state, knight=knight))
    p.do(cmd.MoveKnight(x=1, y=0))
    assert p.of(ev.KnightAttackedTribes)[0].tribes == ("bones",)
    assert {"feat:daring", "feat:stalwart"} <= set(p.state.knight.feats)
    p.do(cmd.CompleteSidequest(card="stalwart"))
    p.settle()
    p.do(cmd.CompleteSidequest(card="daring"))
    p.settle()
    assert p.state.knight.completed == ("stalwart", "daring") and p.state.knight.grit == 11 + 5 + 4


def test_attacking_a_small_tribe_without_a_monster_fulfils_neither__docs_vast_facts_sidequests():
    """docs/vast/facts.md §2 Sidequests: a Tribe of Population 2 without a Monster is neither Daring's nor
    Stalwart's."""
    gob = GoblinsRole(tribes=tribes(bones={"population": 2, "x": 1, "y": 0}))
    state = goblin_table(lit(1, 0, "event-01"), gob=gob, turn="knight")
    p = Play(replace(state, knight=KnightRole(grit=11, placed={"strength": 3}, stage=2)))
    p.do(cmd.MoveKnight(x=1, y=0))
    assert p.of(ev.KnightAttackedTribes) and not {"feat:daring", "feat:stalwart"} & set(p.state.knight.feats)


def test_blind_fury_is_played_on_a_tribe_and_goes_to_the_discard__docs_vast_facts_secrets_cards():
    """docs/vast/facts.md §3 Secrets cards, Blind Fury: played in the activation phase on a Tribe, which it
    marks for this turn; the card is discarded (Vast rulebook, I Goblin, 4. Pesca le Carte Segreti)."""
    gob = GoblinsRole(phase="activate", hand=("blind-fury",), tribes=tribes(fangs={"population": 2}))
    p = Play(goblin_table(gob=gob))
    p.do(cmd.PlaySecret(card="blind-fury", tribe="fangs"))
    assert p.state.goblins.blind_fury == "fangs" and p.state.goblins.hand == ()
    assert "blind-fury" in p.state.secrets_discard


def test_a_rockslide_on_a_bomb_token_removes_the_bomb__rulebook_equipaggiamento_bomba():
    """Vast rulebook, Il Cavaliere, Equipaggiamento, Bomba: a Rockslide placed on the edge of a Bomb token
    removes the Bomb (rules revision 3 on; La Caverna, Presagi, Frana). Revision 2 games keep both."""
    bomb = edge((0, 0), "E")
    cave = CaveRole(hand=("ambush-01",), omens=("boulder-1", "boulder-2"))
    laid = table(lit(1, 0, OPEN), cave=cave, turn="cave", bombs=(bomb,))
    for revision, bombs in ((3, ()), (2, (bomb,))):
        p = Play(replace(laid, rules_revision=revision))
        p.do(cmd.Rockslide(pay=("boulder-1", "boulder-2"), x=0, y=0, side="E"))
        assert p.state.rockslides == (bomb,) and p.state.bombs == bombs
        assert p.state.cave.rockslides == 2
