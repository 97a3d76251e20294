"""docs/vast/facts.md §3 Secrets cards built in Vast rules revision 3: Cave-In (Vast rulebook §La Caverna, Gli
altri giocatori; §Esempio #1), Hiding Spots, Poison, and Hex hitting the Cave; the decks of earlier revisions
stay as they were played. Dice, cards and decisions are explicit."""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.core.events import DecisionRequested
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.rules.common import owned_cubes
from dicelog.domain.vast.rules.goblins import REVISION_3_CARDS, built_secrets
from dicelog.domain.vast.state import CaveRole, GoblinsRole, KnightRole
from tests.rulesets.vast.support import Play, dark, goblin_table, lit, refused, tribes
from tests.rulesets.vast.thief_support import thief, thief_table

OPEN = "treasure-room-01"  # no walls
AMBUSH = "ambush-01"


def rev3(*cells, gob: GoblinsRole, **kw):
    return replace(goblin_table(*cells, gob=gob, **kw), rules_revision=3)


def hand(*cards: str, **tribe_fields) -> GoblinsRole:
    return GoblinsRole(phase="activate", hand=cards, tribes=tribes(**tribe_fields))


def test_the_secrets_deck_of_revision_3_holds_cave_in_hiding_spots_and_poison__vf_3_secrets_cards():
    secrets = REVISION_3_CARDS - {"gnome", "underworm", "wisp"}
    assert set(built_secrets(3)) >= secrets
    assert not secrets & set(built_secrets(2))  # a revision-2 game draws as it was played


def test_cave_in_collapses_up_to_the_eyes_population_in_tiles_chosen_one_at_a_time__vf_3_cave_in():
    cells = [lit(1, 0, OPEN), dark(0, 1, "event-02", "eye"), dark(-1, 0, "event-03", "eye")]
    gob = hand("cave-in", eye={"population": 2})
    p = Play(rev3(*cells, gob=gob, knight=KnightRole(x=1, y=0)))
    p.do(cmd.PlaySecret(card="cave-in"))
    assert p.pending.decision == "cave-in:2:" and "1,0" not in p.pending.options  # the Knight's tile
    assert "0,0" not in p.pending.options and p.pending.options[-1] == "done"
    p.choose("0,1")
    assert p.pending.decision == "cave-in:1:0,1" and "0,1" not in p.pending.options
    p.choose("-1,0")
    assert p.of(ev.CaveInStruck)[0].tiles == ((0, 1), (-1, 0))
    fallen = p.of(ev.TileCollapsed)
    assert [(e.x, e.y) for e in fallen] == [(0, 1), (-1, 0)] and all(e.by == "goblins" for e in fallen)
    assert {"event-02", "event-03"} <= set(p.state.stack)  # before the Collapse, back under the stack
    assert p.pending.decision.startswith("fill:")  # then the Cave fills the open edges
    assert "cave-in" in p.state.secrets_discard


def test_cave_in_never_takes_a_crystal_token_or_a_tribe_and_may_stop_early__vf_3_cave_in():
    cells = [lit(1, 0, "crystal-01", crystal=True), lit(0, 1, OPEN), dark(-1, 0, "event-03", "eye")]
    gob = hand("cave-in", eye={"population": 3}, fangs={"population": 1, "x": 0, "y": 1})
    p = Play(rev3(*cells, gob=gob, sealed=False))
    p.do(cmd.PlaySecret(card="cave-in"))
    assert p.pending.options == ("-1,0", "done")
    p.choose("done")
    assert p.of(ev.CaveInStruck)[0].tiles == ()


def test_cave_in_splitting_the_map_has_the_goblins_slide_the_group__rulebook_esempio_1():
    cells = [lit(1, 0, OPEN), lit(2, 0, OPEN), lit(3, 0, OPEN)]
    gob = hand("cave-in", eye={"population": 1})
    p = Play(rev3(*cells, gob=gob, sealed=False))
    p.do(cmd.PlaySecret(card="cave-in"))
    p.choose("2,0")  # (3,0) is cut off
    while not (isinstance(p.pending, DecisionRequested) and p.pending.decision == "slide"):
        p.default() if isinstance(p.pending, DecisionRequested) else p.draw(*p.pending.cards[:1])
    assert p.pending.piece == "goblins" and p.pending.default == "3,0:W:1"
    p.choose("3,0:W:1")
    assert p.of(ev.MapGroupSlid)[0].step == "reunite"


def test_cave_in_needs_eye_goblins__vf_3_cave_in():
    state = rev3(lit(1, 0, OPEN), gob=hand("cave-in"), sealed=False)
    assert refused(state, cmd.PlaySecret(card="cave-in")) == "vast.secret.not-now"


def test_hiding_spots_lets_a_hidden_tribe_attack_the_knight_by_an_ambush_tile__vf_3_hiding_spots():
    cells = [lit(1, 0, AMBUSH), lit(2, 0, OPEN)]
    gob = hand("hiding-spots", bones={"population": 3, "monsters": ("blob",)})
    p = Play(rev3(*cells, gob=gob, knight=KnightRole(x=2, y=0, grit=10)))  # next to the Ambush tile
    p.do(cmd.PlaySecret(card="hiding-spots", tribe="bones"))
    attack = p.of(ev.TribeAttackedKnight)[0]
    assert attack.tribe == "bones" and attack.strength == 3  # its Monster does not count
    assert p.state.knight.health == 6 and p.state.knight.grit == 10  # nor the Blob's 5 Grit
    assert p.state.goblins.tribes[1].population == 1  # it scatters


def test_hiding_spots_needs_an_ambush_tile_near_her_and_a_stronger_hidden_tribe__vf_3_hiding_spots():
    far = rev3(
        lit(1, 0, AMBUSH), lit(2, 0, OPEN), lit(3, 0, OPEN), gob=hand("hiding-spots", bones={"population": 3})
    )
    far = replace(far, knight=KnightRole(x=3, y=0))
    assert refused(far, cmd.PlaySecret(card="hiding-spots", tribe="bones")) == "vast.secret.not-now"
    weak = rev3(
        lit(1, 0, AMBUSH), gob=hand("hiding-spots", bones={"population": 1}), knight=KnightRole(x=1, y=0)
    )
    assert refused(weak, cmd.PlaySecret(card="hiding-spots", tribe="bones")) == "vast.goblins.too-weak"
    shown = rev3(
        lit(1, 0, AMBUSH),
        gob=hand("hiding-spots", bones={"population": 3, "x": 1, "y": 0}),
        knight=KnightRole(x=0, y=0),
    )
    assert refused(shown, cmd.PlaySecret(card="hiding-spots", tribe="bones")) == "vast.secret.tribe"


def test_poison_leaves_her_cubes_on_the_entrance_until_she_enters_it__vf_3_poison():
    cells = [lit(1, 0, OPEN), lit(2, 0, OPEN)]
    gob = hand("poison", fangs={"population": 4, "x": 1, "y": 0})
    knight = KnightRole(x=2, y=0, grit=11)  # 4 Hero cubes, Strength 1
    p = Play(rev3(*cells, gob=gob, knight=knight))
    before = owned_cubes(p.state.knight)
    p.do(cmd.PlaySecret(card="poison"))
    assert p.state.goblins.poison_played
    p.do(cmd.ActivateTribe(tribe="fangs", action="attack", x=2, y=0))
    assert p.of(ev.KnightPoisoned)[0].cubes == 2  # Strength 5 beat her 1 by 2 or more
    assert owned_cubes(p.state.knight) == before - 2 and not p.state.goblins.poison_played
    moved = Play(replace(p.state, turn="knight", cells=(*p.state.cells, lit(-1, 0, OPEN))))
    moved._take([ev.KnightMoved(x=0, y=0)])
    assert moved.state.knight.poisoned == 0 and owned_cubes(moved.state.knight) == before


def test_hex_may_hit_the_cave_which_discards_x_omens__vf_3_hex():
    gob = hand("hex", eye={"population": 2})
    cave = CaveRole(hand=("ambush-01",), omens=("bat-1", "chasm-2", "quartz-3"))
    p = Play(rev3(lit(1, 0, OPEN), gob=gob, cave=cave))
    p.do(cmd.PlaySecret(card="hex"))
    assert p.pending.decision == "hex-target" and p.pending.options == ("knight", "cave")
    p.choose("cave")
    assert p.pending.decision == "omen-discard:2" and p.pending.piece == "cave"
    p.choose("chasm-2")
    p.choose("bat-1")
    assert p.state.cave.omens == ("quartz-3",) and {"chasm-2", "bat-1"} <= set(p.state.omen_bag)


def test_hex_in_a_revision_2_game_hits_the_knight_only__vf_3_hex():
    gob = hand("hex", eye={"population": 2})
    p = Play(replace(rev3(lit(1, 0, OPEN), gob=gob, knight=KnightRole(grit=5)), rules_revision=2))
    p.do(cmd.PlaySecret(card="hex"))
    assert p.pending is None and p.state.knight.grit == 3


# --- Monsters of revision 3: Gnome, Underworm, Wisp (docs/vast/facts.md §3 Monster cards)
# -----------------------------


def test_the_monster_deck_of_revision_3_holds_gnome_underworm_and_wisp__vf_3_monster_cards():
    from dicelog.domain.vast.rules.goblins import built_monsters

    assert {"gnome", "underworm", "wisp"} <= set(built_monsters(3))
    assert not {"gnome", "underworm", "wisp"} & set(built_monsters(2))


def test_a_gnome_tribe_reveals_onto_a_dark_tile_of_any_symbol__vf_3_gnome():
    from dicelog.domain.vast.rules.goblins import reveal_spots, tribe

    cells = [dark(1, 0, "event-02", "bones"), dark(0, 1, "event-03", "eye")]
    state = rev3(*cells, gob=hand(fangs={"population": 2, "monsters": ("gnome",)}), sealed=False)
    assert set(reveal_spots(state, tribe(state, "fangs"))) == {(1, 0), (0, 1)}
    plain = rev3(*cells, gob=hand(fangs={"population": 2}), sealed=False)
    assert reveal_spots(plain, tribe(plain, "fangs")) != [(1, 0)]  # no Fangs tile: it lurks


def test_a_gnome_tribe_may_jump_to_an_unoccupied_dark_tile_after_plundering__vf_3_gnome():
    cells = [dark(1, 0, OPEN, "fangs", treasure=1), dark(3, 0, "event-03", "eye")]
    gob = hand(fangs={"population": 2, "x": 1, "y": 0, "monsters": ("gnome",)})
    p = Play(rev3(*cells, gob=gob, knight=KnightRole(x=0, y=0)))
    p.do(cmd.ActivateTribe(tribe="fangs", action="plunder"))
    assert p.pending.decision == "gnome-jump:fangs" and p.pending.default == "stay"
    p.choose("3,0")
    t = p.state.goblins.tribes[0]
    assert (t.x, t.y) == (3, 0) and p.of(ev.TribeMoved)[-1].teleported


def test_an_underworm_tribe_jumps_up_to_2_tiles_diagonally_over_walls__vf_3_underworm():
    from dicelog.domain.vast.rules.goblins import paths, tribe

    # (3,2) touches no tile: only two diagonal steps from (1,0) reach it
    cells = [lit(1, 0, OPEN), lit(3, 2, OPEN)]
    gob = hand(bones={"population": 2, "x": 1, "y": 0, "monsters": ("underworm",)})
    state = rev3(*cells, gob=gob, sealed=False)
    reach = paths(state, tribe(state, "bones"))
    assert (3, 2) in reach and reach[(3, 2)] == 1  # it left one Lit tile
    plain = rev3(*cells, gob=hand(bones={"population": 2, "x": 1, "y": 0}), sealed=False)
    assert (3, 2) not in paths(plain, tribe(plain, "bones"))


def test_the_wisp_moves_the_knight_up_to_3_spaces_once_a_turn_before_its_tribe_acts__vf_3_wisp():
    cells = [lit(1, 0, OPEN), lit(2, 0, OPEN), lit(3, 0, OPEN), lit(4, 0, OPEN)]
    gob = hand(eye={"population": 1, "x": 4, "y": 0, "monsters": ("wisp",)})
    p = Play(rev3(*cells, gob=gob, knight=KnightRole(x=0, y=0)))
    assert refused(p.state, cmd.WispMove(tribe="eye", x=4, y=0)) == "vast.goblins.wisp"  # 4 spaces away
    p.do(cmd.WispMove(tribe="eye", x=3, y=0))
    assert (p.state.knight.x, p.state.knight.y) == (3, 0) and p.state.goblins.wisp_used
    assert refused(p.state, cmd.WispMove(tribe="eye", x=2, y=0)) == "vast.goblins.wisp"  # once a turn


def test_the_knights_shield_stops_the_wisp__rulebook_equipaggiamento_scudo():
    gob = hand(eye={"population": 1, "x": 2, "y": 0, "monsters": ("wisp",)})
    state = rev3(lit(1, 0, OPEN), lit(2, 0, OPEN), gob=gob, knight=KnightRole(placed={"shield": 1}))
    assert refused(state, cmd.WispMove(tribe="eye", x=1, y=0)) == "vast.goblins.wisp"


# --- Goblin Ruby ----------------------------------------------------------------------------------------


def ruby_turn(**kw):
    """The Goblins' turn at its War draw, the Goblin Ruby face up."""
    from dicelog.domain.vast.rules.flow import advance, start_turn

    gob = GoblinsRole(rage=2, face_up=("goblin-ruby",), **kw)
    state = rev3(lit(1, 0, OPEN), gob=gob, turn="cave")
    p = Play(state)
    p._take(start_turn(state, "goblins", 2))
    p._take(advance(p.state))
    return p


def test_the_goblin_ruby_redraws_one_war_card_once_a_turn__vf_3_goblin_ruby():
    p = ruby_turn()
    p.draw("thirst", "spite")
    assert p.pending.decision == "ruby:war" and p.pending.options == ("keep", "thirst", "spite")
    p.choose("spite")
    assert (
        p.pending.reason == "war-ruby" and "spite" not in p.pending.cards and "thirst" not in p.pending.cards
    )
    new = p.pending.cards[0]
    p.draw(new)
    assert p.pending.decision == "war-choice" and set(p.pending.options) == {"thirst", new}
    assert p.state.goblins.ruby_used


def test_keeping_the_draw_goes_on_as_without_the_ruby__vf_3_goblin_ruby():
    p = ruby_turn()
    p.draw("thirst", "spite")
    p.choose("keep")
    assert p.pending.decision == "war-choice" and p.pending.options == ("thirst", "spite")


def test_the_rubys_choice_and_discard_are_the_goblins_secret__vf_3_goblin_ruby():
    from dicelog.domain.core.events import Seat
    from dicelog.domain.core.visibility import seat_viewer
    from dicelog.domain.vast.ruleset import RULESET

    p = ruby_turn()
    p.draw("thirst", "spite")
    seats = tuple(Seat(name=r, controls=(r,)) for r in ("knight", "goblins", "cave"))
    knight = seat_viewer(seats, "knight")
    asked = RULESET.view_event(p.pending, knight)
    assert "thirst" not in str(asked) and "spite" not in str(asked)
    p.choose("spite")
    redrawn = RULESET.view_event(p.of(ev.RubyRedrawn)[0], knight)
    assert redrawn.card != "spite"
    assert "spite" in str(RULESET.view_event(p.of(ev.RubyRedrawn)[0], seat_viewer(seats, "goblins")))


def test_the_ruby_is_discarded_when_a_tribe_reaches_population_0__vf_3_goblin_ruby():
    gob = GoblinsRole(phase="activate", face_up=("goblin-ruby",), tribes=tribes(eye={"population": 1}))
    p = Play(rev3(lit(1, 0, OPEN), gob=gob))
    p._take([ev.PopulationLost(tribe="eye", count=1, why="test")])
    assert "goblin-ruby" not in p.state.goblins.face_up and "goblin-ruby" in p.state.secrets_discard


def test_the_goblin_ruby_played_stays_face_up__vf_3_goblin_ruby():
    p = Play(rev3(lit(1, 0, OPEN), gob=hand("goblin-ruby")))
    p.do(cmd.PlaySecret(card="goblin-ruby"))
    assert p.state.goblins.face_up == ("goblin-ruby",) and p.state.goblins.hand == ()


def test_cave_in_never_takes_the_thiefs_tile_from_rules_revision_8__vf_3_cave_in():
    """docs/vast/facts.md §3, Cave-In: «not a tile with a player's piece», the Thief's too (rules revision 8).
    Before, his tile could fall and his step-off (``wrath-thief``) was asked of the Dragon: in Knight, Goblins
    and Thief (no Dragon) nobody could answer it and the game stood still (a bot game, traced)."""
    cells = [lit(1, 0, OPEN), dark(0, 1, "event-02", "eye"), lit(-1, 0, OPEN)]
    gob = hand("cave-in", eye={"population": 2})
    roles = ("knight", "goblins", "thief")
    state = thief_table(*cells, gob=gob, roles=roles, turn="goblins", th=thief(-1, 0))
    p = Play(replace(state, rules_revision=8))
    p.do(cmd.PlaySecret(card="cave-in"))
    assert "-1,0" not in p.pending.options and "0,1" in p.pending.options
    # a game created before revision 8 plays on as it was played: his tile may fall
    p = Play(replace(state, rules_revision=7))
    p.do(cmd.PlaySecret(card="cave-in"))
    assert "-1,0" in p.pending.options
