"""Choices and pieces in the Dragon's and the Goblins' rules no test reached (issue 30): the Goblins letting a
Power through their face-up Trap (docs/vast/facts.md §3 Secrets cards, Trap), the Dragon keeping a roll with
the Shriek token (Vast rulebook, Il Drago, Poteri, Strillo), the Enchanted Bow with the Dragon off the map
(Tesori, Arco Incantato) and a lurking Tribe's activation (I Goblin, Disperdere la Tribù). Knight, Goblins,
Dragon and Cave tables, dice explicit."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.state import DragonRole, GoblinsRole, KnightRole
from tests.rulesets.vast.support import Play, goblin_table, lit, refused, tribes
from tests.rulesets.vast.test_dragon import HAND, OPEN, dragon_table


def test_the_goblins_may_let_a_claw_through_their_trap__docs_vast_facts_secrets_trap():
    """docs/vast/facts.md §3 Secrets cards, Trap: a Power aimed at a Tribe asks the Goblins whether to spend
    the face-up Trap; letting it through (``let``), the Claw strikes as rolled (Vast rulebook, Il Drago,
    Poteri, Artiglio: the Tribe hit is scattered and eaten) and the Trap stays face up."""
    gob = GoblinsRole(phase="", face_up=("trap",), tribes=tribes(fangs={"population": 3, "x": 1, "y": 1}))
    p = Play(dragon_table(lit(1, 0, OPEN), lit(1, 1, OPEN), gob=gob))
    p.do(cmd.UsePower(power="claw", pay=("claw-1",)))
    p.roll(2)  # diamond: the 4 orthogonal neighbours, (1, 1) among them
    assert p.pending.decision == "trap:claw:1,0:2" and p.pending.piece == "goblins"
    p.choose("let")
    assert [s.tribe for s in p.of(ev.TribeScattered)] == ["fangs"] and p.state.dragon.eaten == 2
    assert "trap" in p.state.goblins.face_up


@pytest.mark.parametrize(
    "power, pay", [("hiss", ("claw-1", "claw-2")), ("scratch", ("claw-1", "claw-2", "claw-3"))]
)
def test_the_goblins_may_let_hiss_and_scratch_through_their_trap__docs_vast_facts_secrets_trap(power, pay):
    """docs/vast/facts.md §3 Secrets cards, Trap; Vast rulebook, Il Drago, Poteri, Sibilo and Graffio: let
    through, Hiss hides the Tribe at one Goblin less and Scratch drops the Tribe on the Dragon's tile to 0."""
    gob = GoblinsRole(phase="", face_up=("trap",), tribes=tribes(eye={"population": 3, "x": 1, "y": 0}))
    p = Play(dragon_table(lit(1, 0, OPEN), gob=gob))
    p.do(cmd.UsePower(power=power, pay=pay, tribe="eye" if power == "hiss" else None))
    assert p.pending.decision.startswith(f"trap:{power}:")
    p.choose("let")
    eye = p.state.goblins.tribes[2]
    assert eye.x is None and eye.population == (2 if power == "hiss" else 0)


def test_with_the_shriek_token_the_dragon_may_keep_its_roll__rulebook_il_drago_poteri_strillo():
    """Vast rulebook, Il Drago, Poteri, Strillo: the token lets the Dragon re-roll its die once; keeping the
    roll, the Power strikes as rolled and the token stays."""
    state = dragon_table(lit(1, 0, OPEN), dragon=DragonRole(x=1, y=0, hand=HAND, shriek=True))
    p = Play(state)
    p.do(cmd.UsePower(power="flame", pay=("flame-1",)))
    p.roll(3)
    p.choose("keep")
    assert p.of(ev.PowerStruck)[0].face == 3 and p.state.dragon.shriek and not p.of(ev.ShriekSpent)


def test_the_enchanted_bow_cannot_shoot_a_dragon_off_the_map__rulebook_tesori_arco_incantato():
    """Vast rulebook, Tesori, Arco Incantato: it hits the Dragon on the map; one not placed is refused
    (``vast.dragon.bow``)."""
    knight = KnightRole(x=0, y=0, treasures=("enchanted-bow",), placed={"enchanted-bow": 1})
    state = dragon_table(lit(1, 0, OPEN), knight=knight, turn="knight", dragon=DragonRole(hand=HAND))
    assert refused(replace(state, dragon=replace(state.dragon, x=None, y=None)), cmd.ShootDragon()) == (
        "vast.dragon.bow"
    )


def lurking_table():
    """The Fangs lurking on the empty space (2, 0) east of the Lit tile (1, 0); the Knight on (1, 0)."""
    gob = GoblinsRole(
        phase="activate", tribes=tribes(fangs={"population": 2, "x": 2, "y": 0, "lurking": True})
    )
    state = goblin_table(lit(1, 0, OPEN), gob=gob, knight=KnightRole(x=0, y=0))
    return replace(state, cells=tuple(c for c in state.cells if (c.x, c.y) != (2, 0)))


def test_a_lurking_tribe_steps_onto_a_tile_next_to_it_or_hides__rulebook_i_goblin_disperdere_la_tribu():
    """Vast rulebook, I Goblin, Disperdere la Tribù: a Tribe lurking beside the map, activated, moves onto a
    tile next to it and stops, or hides; any other action, a space that is not a tile, or the Knight's tile
    is refused (``vast.goblins.lurking``, ``vast.goblins.knight-tile``)."""
    state = lurking_table()
    p = Play(state)
    p.do(cmd.ActivateTribe(tribe="fangs", action="none", x=1, y=0))
    assert ev.TribeMoved(tribe="fangs", x=1, y=0) in p.events
    hide = Play(state)
    hide.do(cmd.ActivateTribe(tribe="fangs", action="hide"))
    assert hide.of(ev.TribeHidden) and hide.state.goblins.tribes[0].x is None
    assert (
        refused(state, cmd.ActivateTribe(tribe="fangs", action="attack", x=1, y=0)) == "vast.goblins.lurking"
    )
    assert refused(state, cmd.ActivateTribe(tribe="fangs", action="none", x=3, y=0)) == "vast.goblins.lurking"
    on_knight = replace(state, knight=KnightRole(x=1, y=0))
    assert refused(on_knight, cmd.ActivateTribe(tribe="fangs", action="none", x=1, y=0)) == (
        "vast.goblins.knight-tile"
    )
