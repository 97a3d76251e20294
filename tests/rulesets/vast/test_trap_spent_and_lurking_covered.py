"""What the Knight's attack and the Cave's tile leave on the Goblins, for rules no test reached (issue 30):
the face-up Trap spent on the first Tribe she attacks (docs/vast/facts.md §3 Secrets cards, Trap) and a tile
placed on a lurking Tribe's space revealing it (Vast rulebook, Rivelare; I Goblin, Disperdere la Tribù)."""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.state import CaveRole, GoblinsRole, KnightRole
from tests.rulesets.vast.support import Play, goblin_table, lit, refused, tribes


def test_the_trap_makes_the_tribe_stronger_and_is_spent_on_her_attack__docs_vast_facts_secrets_trap():
    """docs/vast/facts.md §3 Secrets cards, Trap: face up, the next Tribe attacked has +1 Strength, then the
    card is discarded. The Bones (Population 2) with the Trap are too strong for her Strength 3 (Vast
    rulebook, Interagire con i Goblin: she enters only stronger); at Strength 4 she attacks and the Trap goes
    to the discard."""
    gob = GoblinsRole(face_up=("trap",), tribes=tribes(bones={"population": 2, "x": 1, "y": 0}))
    state = goblin_table(lit(1, 0, "event-01"), gob=gob, turn="knight")
    three = replace(state, knight=KnightRole(grit=5, placed={"strength": 2}))
    assert refused(three, cmd.MoveKnight(x=1, y=0)) == "vast.move.tribe-too-strong"
    untrapped = Play(replace(three, goblins=replace(gob, face_up=())))
    untrapped.do(cmd.MoveKnight(x=1, y=0))  # without the Trap, Strength 3 beats the Bones' 2
    assert untrapped.of(ev.KnightAttackedTribes)
    p = Play(replace(state, knight=KnightRole(grit=11, placed={"strength": 3})))
    p.do(cmd.MoveKnight(x=1, y=0))
    assert p.of(ev.KnightAttackedTribes)[0].tribes == ("bones",)
    assert "trap" not in p.state.goblins.face_up and "trap" in p.state.secrets_discard


def test_a_tile_placed_on_a_lurking_tribes_space_reveals_it__rulebook_rivelare():
    """Vast rulebook, I Goblin, Disperdere la Tribù: a Tribe with no tile to come out on lurks on an empty
    space beside the map; a Dark tile the Cave places there (La Caverna, 2. Modella la Caverna) puts it on the
    map: it is no longer lurking, on the same space."""
    gob = GoblinsRole(phase="", tribes=tribes(fangs={"population": 2, "x": 2, "y": 0, "lurking": True}))
    state = goblin_table(
        lit(1, 0, "treasure-room-01"),
        gob=gob,
        knight=KnightRole(x=0, y=0),
        turn="cave",
        cave=CaveRole(hand=("ambush-01",)),
    )
    p = Play(replace(state, cells=tuple(c for c in state.cells if (c.x, c.y) != (2, 0))))
    p.do(cmd.PlaceTile(tile="ambush-01", x=2, y=0))
    fangs = p.state.goblins.tribes[0]
    assert (fangs.x, fangs.y, fangs.lurking) == (2, 0, False)
