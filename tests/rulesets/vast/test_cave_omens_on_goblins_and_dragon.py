"""The Cave's Omens against the Goblins and the Dragon refuse a target the rulebook does not allow (Vast
rulebook, La Caverna, Presagi: Spore Soporifere, Pipistrelli Giganti), naming the rule, nothing stored.
Knight, Goblins, Dragon and Cave tables on the Cave's turn."""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast.cave import step
from dicelog.domain.vast.ruleset import RULESET
from dicelog.domain.vast.state import SLOTH_ROOM, CaveRole, DragonRole, GoblinsRole
from tests.rulesets.vast.support import Play, dark, lit, refused, tribes
from tests.rulesets.vast.test_dragon import HAND, OPEN, dragon_table

SPORES = ("quartz-1", "mushroom-1", "trail-1")  # Soporific Spores: 3 tokens (docs/vast/facts.md §5 Omens)


def omen_table(gob: GoblinsRole, dragon: DragonRole):
    state = dragon_table(lit(1, 0, OPEN), gob=gob, dragon=dragon, turn="cave")
    return replace(state, cave=CaveRole(hand=("ambush-01",), omens=(*SPORES, "bat-1")))


def test_spores_on_the_goblins_need_a_tribe_of_more_than_one__rulebook_la_caverna_presagi_spore():
    """Vast rulebook, La Caverna, Presagi, Spore Soporifere: the Goblins bring a Tribe down to Population 1;
    with none above 1 there is no target (``vast.omen.no-target``)."""
    gob = GoblinsRole(phase="", tribes=tribes(fangs={"population": 1}, bones={"population": 1}))
    state = omen_table(gob, DragonRole(x=1, y=0, hand=HAND))
    assert refused(state, cmd.SoporificSpores(pay=SPORES, target="goblins")) == "vast.omen.no-target"


def test_spores_on_the_dragon_need_a_cube_on_wakefulness__rulebook_la_caverna_presagi_spore():
    """Vast rulebook, La Caverna, Presagi, Spore Soporifere: a cube of the Dragon's Wakefulness goes back to a
    Sloth track; with every cube on its tracks there is none (``vast.omen.no-target``)."""
    asleep = DragonRole(x=1, y=0, hand=HAND, sloth=dict(SLOTH_ROOM))
    state = omen_table(GoblinsRole(phase=""), asleep)
    assert refused(state, cmd.SoporificSpores(pay=SPORES, target="dragon")) == "vast.omen.no-target"


def test_giant_bats_carry_only_a_tribe_on_the_map__rulebook_la_caverna_presagi_pipistrelli_giganti():
    """Vast rulebook, La Caverna, Presagi, Pipistrelli Giganti (docs/vast/rulings.md: a revealed Tribe); a
    hidden Tribe is refused (``vast.omen.no-target``)."""
    gob = GoblinsRole(phase="", tribes=tribes(eye={"population": 3}))
    state = omen_table(gob, DragonRole(x=1, y=0, hand=HAND))
    assert refused(state, cmd.GiantBats(pay=("bat-1",), target="eye", x=1, y=0)) == "vast.omen.no-target"


def test_spores_on_the_dragon_are_among_the_caves_legal_commands__rulebook_la_caverna_presagi_spore():
    """Vast rulebook, La Caverna, Presagi, Spore Soporifere («Scegli un giocatore: … il Drago sposta un
    cubetto dal tracciato Risveglio ad uno dei tracciati Indolenza»; §Interazioni: the Cave acts on the Dragon
    «rimuovendo un cubetto Indolenza dal tracciato Risveglio col presagio Spore Soporifere»): the Cave's legal
    commands list Spores on the Dragon while a cube of its Wakefulness can go back, and not when none can."""
    awake_some = DragonRole(x=1, y=0, hand=HAND, sloth={**SLOTH_ROOM, "greed": 2})
    on_dragon = cmd.SoporificSpores(pay=SPORES, target="dragon")
    state = replace(omen_table(GoblinsRole(phase=""), awake_some), begun=True)
    assert on_dragon in RULESET.legal_commands(state)
    asleep = replace(state, dragon=DragonRole(x=1, y=0, hand=HAND, sloth=dict(SLOTH_ROOM)))
    assert on_dragon not in RULESET.legal_commands(asleep)


def test_rockslide_is_among_the_caves_legal_commands__rulebook_la_caverna_presagi_frana():
    """Vast rulebook, La Caverna, Presagi, Frana (cost 2: Bat, Boulder, Quartz; «tra due tessere, almeno una
    illuminata»): the Cave's legal commands list a Rockslide on each open edge between two tiles once, named
    from the tile of smaller (x, y), after every other command; not with one accepted token."""
    state = replace(omen_table(GoblinsRole(phase=""), DragonRole(x=1, y=0, hand=HAND)), begun=True)
    legal = RULESET.legal_commands(state)
    slides = [c for c in legal if isinstance(c, cmd.Rockslide)]
    assert cmd.Rockslide(pay=("quartz-1", "bat-1"), x=0, y=0, side="E") in slides  # the Entrance to (1, 0)
    rest = legal[legal.index(slides[0]) :]
    assert rest[: len(slides)] == slides  # after all but Past Plunder and Giant Bats on tokens
    assert all(isinstance(c, cmd.PastPlunder | cmd.GiantBats) for c in rest[len(slides) :])
    edges = {frozenset({(c.x, c.y), step((c.x, c.y), c.side)}) for c in slides}
    assert len(edges) == len(slides)  # each edge once
    assert all((c.x, c.y) < step((c.x, c.y), c.side) for c in slides)
    assert cmd.Rockslide(pay=("quartz-1", "bat-1"), x=1, y=0, side="W") not in slides  # the same edge
    play = Play(state)
    play.do(cmd.Rockslide(pay=("quartz-1", "bat-1"), x=1, y=0, side="W"))  # accepted named either way
    assert play.state.rockslides
    one = replace(state, cave=replace(state.cave, omens=("bat-1", "mushroom-1")))
    assert not any(isinstance(c, cmd.Rockslide) for c in RULESET.legal_commands(one))


def test_past_plunder_and_bats_on_a_treasure_token_are_among_the_caves_legal_commands__rulebook_presagi():
    """Vast rulebook, La Caverna, Presagi: Antichi Bottini (cost 1, then 2, then 3: Boulder, Quartz, Mushroom;
    «piazza un altro Tesoro» as in §3. Piazza un Tesoro: a Dark tile with no player's piece) and Pipistrelli
    Giganti (cost 1: Chasm, Bat, Boulder; a Treasure token up to 3 tiles, not through walls): the Cave's legal
    commands list Past Plunder on each Dark tile a Treasure token may go to, and Giant Bats from each tile
    with a Treasure token to each tile in reach; each listed one is accepted; none without an Omen to pay."""
    state = dragon_table(lit(1, 0, OPEN), lit(0, 1, OPEN, treasure=1), dark(2, 0, OPEN), dark(0, -1, OPEN))
    state = replace(
        state, begun=True, turn="cave", cave=CaveRole(hand=("ambush-01",), omens=("quartz-1", "bat-1"))
    )
    legal = RULESET.legal_commands(state)
    plunder = [c for c in legal if isinstance(c, cmd.PastPlunder)]
    dark_tiles = {(c.x, c.y) for c in state.cells if not c.lit}  # none holds a piece or a token
    assert {(2, 0), (0, -1)} <= dark_tiles
    assert {(c.x, c.y) for c in plunder} == dark_tiles
    assert all(c.pay == ("quartz-1",) for c in plunder)
    bats = [c for c in legal if isinstance(c, cmd.GiantBats) and c.target == "treasure"]
    assert {(c.from_x, c.from_y) for c in bats} == {(0, 1)}
    carried_to = {(c.x, c.y) for c in bats}
    assert {(0, 0), (1, 0), (2, 0), (0, -1)} <= carried_to  # through open tiles, onto the Dragon's too
    assert all(abs(x) + abs(y - 1) <= 3 for x, y in carried_to) and (0, 1) not in carried_to
    play = Play(state)
    play.do(cmd.PastPlunder(pay=("quartz-1",), x=2, y=0))
    assert next(c for c in play.state.cells if (c.x, c.y) == (2, 0)).treasure == 1
    play = Play(state)
    play.do(cmd.GiantBats(pay=("bat-1",), target="treasure", from_x=0, from_y=1, x=2, y=0))
    moved = {(c.x, c.y): c.treasure for c in play.state.cells}
    assert (moved[(0, 1)], moved[(2, 0)]) == (0, 1)
    broke = replace(state, cave=replace(state.cave, omens=("trail-1",)))
    assert not any(isinstance(c, cmd.PastPlunder | cmd.GiantBats) for c in RULESET.legal_commands(broke))
