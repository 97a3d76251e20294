"""Vast rulebook §I Goblin: the Tribes' statistics, Rage and Malaise, the five phases of the Goblins' turn,
their actions, scattering, Ambushes, and the Knight against the Tribes (§Interagire con i Goblin,
§Equipaggiamento Arco), in the Knight, Goblins and Cave setup (docs/vast/facts.md §7)."""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.core.events import DecisionRequested, DrawRequested
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.rules import goblins as rules
from dicelog.domain.vast.rules.flow import advance, ambush, start_turn
from dicelog.domain.vast.state import GoblinsRole, KnightRole, Tribe
from tests.rulesets.vast.support import Play, dark, goblin_table, lit, refused, tribes


def test_strength_is_population_plus_discs_and_malaise_takes_1__rulebook_statistiche_della_tribu():
    state = goblin_table(
        gob=GoblinsRole(
            tribes=tribes(fangs={"population": 2}, bones={"population": 2, "monsters": ("ogre",)})
        )
    )
    gob = state.goblins
    assert rules.tribe_strength(state, gob.tribes[0]) == 3  # the Fangs' permanent Strength disc
    assert rules.tribe_strength(state, gob.tribes[1]) == 3  # the Ogre's
    malaise = replace(state, goblins=replace(gob, rage=0))
    assert rules.tribe_strength(malaise, malaise.goblins.tribes[0]) == 2  # Vast rulebook §Furia e Malessere


def test_the_turn_draws_war_cards_by_rage_keeps_one_and_populates__rulebook_scegli_una_carta_guerra():
    state = goblin_table(gob=GoblinsRole(rage=0), turn="cave")
    p = Play(state)
    p._take(start_turn(state, "goblins", 2))
    p._take(advance(p.state))
    assert p.state.goblins.rage == 1  # Rage 0 rises to 1 first
    assert isinstance(p.pending, DrawRequested) and p.pending.deck == "war" and p.pending.count == 1
    p.draw("thirst")
    assert p.state.goblins.war == "thirst"
    assert p.pending.decision == "block"  # 1 Rage may block one Tribe's discs
    p.choose("fangs")
    assert [t.population for t in p.state.goblins.tribes] == [0, 2, 1] and p.state.goblins.rage == 0


def test_overpopulation_scatters_exactly_one_revealed_tribe__rulebook_popola_le_tribu():
    gob = GoblinsRole(
        rage=0,
        war="thirst",
        phase="populate",
        tribes=tribes(
            fangs={"population": 3}, bones={"population": 4, "x": 1, "y": 0}, eye={"population": 1}
        ),
    )
    p = Play(goblin_table(dark(1, 0, "ambush-04", symbol="bones"), gob=gob))
    p._take(advance(p.state))
    assert p.pending.decision == "overpopulation" and p.pending.options == ("bones",)  # the one on the map
    p.choose("bones")
    bones = p.state.goblins.tribes[1]
    assert bones.population == 2 and bones.x is None  # 4 (capped), then -2, back to the board


def test_monsters_go_to_tribes_with_room_up_to_the_bones_population__rulebook_assegna_i_mostri():
    gob = GoblinsRole(
        tribes=tribes(bones={"population": 1}, fangs={"population": 2}), drawn=("ogre", "troll")
    )
    state = goblin_table(gob=gob)
    decision = rules.monster_decision(state, "ogre")
    assert decision.options == ("fangs", "bones", "eye", "discard")
    p = Play(state)
    p._take(advance(state))
    p.choose("fangs")
    assert p.pending.decision == "monster"
    assert p.pending.options == ("replace:fangs", "discard")  # 1 Monster already = the Bones' Population
    p.choose("discard")
    assert p.state.goblins.tribes[0].monsters == ("ogre",) and "troll" in p.state.monster_discard


def test_the_secrets_hand_holds_5_cards__rulebook_pesca_le_carte_segreti():
    gob = GoblinsRole(hand=("hex", "leader", "trap", "blind-fury", "fire-bomber", "secret-tunnels"))
    p = Play(goblin_table(gob=gob))
    p._take(advance(p.state))
    assert p.pending.decision == "secrets-limit" and p.pending.piece == "goblins"
    p.choose("leader")
    assert len(p.state.goblins.hand) == 5 and "leader" in p.state.secrets_discard


def test_a_hidden_tribe_comes_out_on_a_dark_tile_of_its_symbol_or_lurks__rulebook_rivelare():
    gob = GoblinsRole(phase="activate", tribes=tribes(eye={"population": 2}, fangs={"population": 1}))
    state = goblin_table(dark(2, 0, "event-10", symbol="eye"), lit(1, 0, "event-01"), gob=gob)
    assert refused(state, cmd.ActivateTribe(tribe="eye", action="reveal", x=1, y=0)) == "vast.goblins.reveal"
    p = Play(state)
    p.do(cmd.ActivateTribe(tribe="eye", action="reveal", x=2, y=0))
    assert rules.on_map(p.state.goblins.tribes[2])
    # no Dark tile shows Fangs: it lurks on an empty space next to the map, still hidden
    spots = rules.reveal_spots(p.state, p.state.goblins.tribes[0])
    assert spots
    assert all(not any((c.x, c.y) == s for c in p.state.cells) for s in spots)


def test_moving_costs_a_disc_per_2_lit_tiles_left_and_never_crosses_walls__rulebook_attiva_le_tribu():
    cells = (lit(1, 0, "event-01"), lit(2, 0, "event-02"), lit(3, 0, "event-03"), dark(4, 0, "event-10"))
    gob = GoblinsRole(phase="activate", tribes=tribes(eye={"population": 3, "x": 1, "y": 0}))
    state = goblin_table(*cells, gob=gob, knight=KnightRole(x=0, y=0))
    p = Play(state)
    p.do(cmd.ActivateTribe(tribe="eye", action="none", x=4, y=0))  # leaves 3 Lit tiles: 1 disc
    assert p.state.goblins.tribes[2].population == 2
    walled = goblin_table(lit(1, 0, "crystal-04", rotation=1), lit(2, 0, "event-02"), gob=gob, sealed=False)
    assert (2, 0) not in rules.paths(walled, walled.goblins.tribes[2])  # a wall on the E side of (1, 0)


def test_a_tribe_enters_the_knights_tile_only_stronger_and_must_attack__rulebook_attaccare():
    gob = GoblinsRole(phase="activate", tribes=tribes(fangs={"population": 3, "x": 1, "y": 0}))
    state = goblin_table(lit(1, 0, "event-01"), gob=gob, knight=KnightRole(x=0, y=0))
    assert (
        refused(state, cmd.ActivateTribe(tribe="fangs", action="none", x=0, y=0))
        == "vast.goblins.must-attack"
    )
    weak = replace(state, goblins=replace(gob, tribes=tribes(fangs={"population": 0, "x": 1, "y": 0})))
    assert refused(weak, cmd.ActivateTribe(tribe="fangs", action="attack", x=0, y=0)) == "vast.goblins.empty"
    p = Play(state)
    p.do(cmd.ActivateTribe(tribe="fangs", action="attack", x=0, y=0))
    assert p.state.knight.health == 6 and p.state.goblins.rage == 0
    fangs = p.state.goblins.tribes[0]
    assert fangs.x is None and fangs.population == 1  # scattered: -2


def test_the_goblins_win_when_the_knight_dies__rulebook_i_goblin_come_vincere():
    gob = GoblinsRole(phase="activate", tribes=tribes(fangs={"population": 3, "x": 1, "y": 0}))
    p = Play(goblin_table(lit(1, 0, "event-01"), gob=gob, knight=KnightRole(health=1)))
    p.do(cmd.ActivateTribe(tribe="fangs", action="attack", x=0, y=0))
    assert p.events[-1] == ev.GameWon(winner="goblins", reason="the Goblins killed the Knight")


def test_two_tribes_of_strength_3_smash_a_crystal_for_the_knight__rulebook_attaccare():
    crystal = lit(1, 0, "crystal-01", crystal=True)
    gob = GoblinsRole(
        phase="activate",
        tribes=tribes(fangs={"population": 2, "x": 1, "y": 0}, eye={"population": 3, "x": 1, "y": 0}),
    )
    p = Play(goblin_table(crystal, gob=gob, knight=KnightRole(x=0, y=0)))
    p.do(cmd.ActivateTribe(tribe="fangs", action="attack"))
    assert next(c for c in p.state.cells if (c.x, c.y) == (1, 0)).crystal  # one attack is not enough
    p.do(cmd.ActivateTribe(tribe="eye", action="attack"))
    assert p.state.knight.smashed == 1  # the token goes to the Knight
    assert all(t.x is None for t in p.state.goblins.tribes if t.name != "bones")


def test_plunder_takes_a_treasure_token_for_1_rage__rulebook_razziare():
    gob = GoblinsRole(phase="activate", tribes=tribes(bones={"population": 1, "x": 1, "y": 0}))
    p = Play(goblin_table(dark(1, 0, "event-03", symbol="bones", treasure=1), gob=gob))
    p.do(cmd.ActivateTribe(tribe="bones", action="plunder"))
    assert p.state.goblins.rage == 2 and p.state.cave.supply == 11


def test_special_actions__rulebook_azioni_speciali():
    gob = GoblinsRole(
        phase="activate", tribes=tribes(fangs={"population": 1, "x": 1, "y": 0}, eye={"population": 1})
    )
    state = goblin_table(lit(1, 0, "event-01"), gob=gob)
    p = Play(state)
    p.do(cmd.ActivateTribe(tribe="fangs", action="special"))
    assert p.state.goblins.rage == 2
    assert refused(state, cmd.ActivateTribe(tribe="eye", action="special")) == "vast.goblins.reveal"  # hidden


def test_a_hidden_tribe_stronger_than_the_knight_may_ambush_her__rulebook_imboscata():
    gob = GoblinsRole(tribes=tribes(eye={"population": 3}), phase="activate")
    p = Play(goblin_table(gob=gob, turn="knight", knight=KnightRole(placed={"movement": 2})))
    p._take(ambush(p.state))
    assert isinstance(p.pending, DecisionRequested) and p.pending.decision == "ambush-tribe"
    assert p.pending.options == ("eye", "none") and p.pending.piece == "goblins"
    p.choose("eye")
    assert p.state.knight.health == 6 and p.state.goblins.tribes[2].population == 1


def test_the_knight_enters_a_tribes_tile_only_stronger_and_attacks__rulebook_interagire_con_i_goblin():
    gob = GoblinsRole(
        tribes=tribes(bones={"population": 2, "x": 1, "y": 0}, fangs={"population": 1, "x": 1, "y": 0})
    )
    state = goblin_table(lit(1, 0, "event-01"), gob=gob, turn="knight")
    assert refused(state, cmd.MoveKnight(x=1, y=0)) == "vast.move.tribe-too-strong"
    p = Play(replace(state, knight=KnightRole(grit=5, placed={"strength": 2})))  # Strength 3
    p.do(cmd.MoveKnight(x=1, y=0))
    assert p.of(ev.KnightAttackedTribes)[0].tribes == ("fangs", "bones")
    assert all(t.x is None for t in p.state.goblins.tribes) and p.state.goblins.rage == 3
    assert p.state.knight.encounters == 1


def test_the_bow_hits_a_visible_tribe_without_scattering_it__rulebook_equipaggiamento_arco():
    gob = GoblinsRole(tribes=tribes(eye={"population": 4, "x": 3, "y": 0}))
    state = goblin_table(
        lit(1, 0, "event-01"), lit(2, 0, "event-02"), lit(3, 0, "event-03"), gob=gob, turn="knight"
    )
    p = Play(replace(state, knight=KnightRole(grit=11, placed={"strength": 2})))  # Strength 3, 2 cubes free
    p.do(cmd.PlaceHeroCube(target="bow"))
    p.do(cmd.UseBow(tribe="eye"))
    eye = p.state.goblins.tribes[2]
    assert eye.population == 2 and eye.x == 3  # Strength 3 - 1 = 2 discs; no scattering
    assert "feat:eagle-eyed" in p.state.knight.feats


def test_scattering_loses_2_and_the_monster__rulebook_disperdere_la_tribu():
    t = Tribe(name="fangs", population=3, x=1, y=0, monsters=("ogre",))
    state = goblin_table(gob=GoblinsRole(tribes=(t, Tribe(name="bones"), Tribe(name="eye"))))
    assert rules.scatter(state, t) == ev.TribeScattered(tribe="fangs", loss=2, discarded=("ogre",))
    beetles = replace(t, monsters=("bright-beetles",))
    assert rules.scatter(state, beetles).loss == 1  # docs/vast/facts.md §3 Bright Beetles


def test_soporific_spores_bring_a_tribe_of_the_goblins_choice_to_1__rulebook_presagi():
    gob = GoblinsRole(tribes=tribes(fangs={"population": 4}, eye={"population": 2}))
    state = goblin_table(gob=gob, turn="cave")
    state = replace(state, cave=replace(state.cave, omens=("quartz-1", "mushroom-1", "trail-1")))
    p = Play(state)
    p.do(cmd.SoporificSpores(pay=("quartz-1", "mushroom-1", "trail-1"), target="goblins"))
    assert p.pending.decision == "spores-tribe" and p.pending.piece == "goblins"
    assert p.pending.options == ("fangs", "eye") and p.pending.default == "eye"
    p.choose("fangs")
    assert p.state.goblins.tribes[0].population == 1 and p.state.goblins.rage == 2


def test_giant_bats_carry_a_revealed_tribe__rulebook_presagi():
    gob = GoblinsRole(tribes=tribes(bones={"population": 2, "x": 1, "y": 0}))
    state = goblin_table(lit(1, 0, "event-01"), lit(2, 0, "event-02"), gob=gob, turn="cave")
    state = replace(state, cave=replace(state.cave, omens=("bat-1",)))
    assert refused(state, cmd.GiantBats(pay=("bat-1",), target="bones", x=0, y=0)) == "vast.omen.bats-reach"
    p = Play(state)
    p.do(cmd.GiantBats(pay=("bat-1",), target="bones", x=2, y=0))
    assert (p.state.goblins.tribes[1].x, p.state.goblins.tribes[1].y) == (2, 0)
