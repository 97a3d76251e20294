"""Vast rulebook §Il Ladro, Morire (the Loot Drop table) and Migliorie (Unnatural Evasion), and the others
against him: §Il Cavaliere, Interagire con il Ladro; §I Goblin, Attaccare il Ladro; §Il Drago, Uccidere il
Ladro and §Poteri (Claw, Scratch, Flame Wall); §La Caverna, Presagi (Soporific Spores). docs/vast/facts.md §6.
Dice, cards and decisions are explicit."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from dicelog.domain.core.events import DecisionRequested, DrawRequested, RollRequested
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.ruleset import RULESET
from dicelog.domain.vast.state import (
    POWER_CARDS,
    CaveRole,
    DragonRole,
    GoblinsRole,
    KnightRole,
    thief_stealth,
)
from tests.rulesets.vast.support import Play, lit, refused, tribes
from tests.rulesets.vast.thief_support import HAND, OPEN, thief, thief_table, thief_turn

SEEING = {"perception": 2}
"""Hero cubes that give the Knight Perception 3."""


def cell(state, x, y):
    return next(c for c in state.cells if (c.x, c.y) == (x, y))


def knight_turn(th=None, knight=None, **kw):
    """The Knight's turn, she and the Thief (Stealth 2) on (1, 0)."""
    knight = knight or KnightRole(x=1, y=0, placed=SEEING, grit=4)
    return thief_table(
        lit(1, 0, OPEN), lit(2, 0, OPEN), knight=knight, th=th or thief(1, 0, stealth=2), turn="knight", **kw
    )


def dragon_turn(th, dragon=None, roles=("dragon", "cave", "thief"), **kw):
    """The Dragon's turn on (1, 0) (Dragon, Cave and Thief unless ``roles`` say otherwise)."""
    d = dragon or DragonRole(x=1, y=0, hand=HAND)
    return thief_table(lit(1, 0, OPEN), lit(2, 0, OPEN), roles=roles, dragon=d, th=th, turn="dragon", **kw)


def goblins_turn(th, fangs: dict, rage: int = 2):
    gob = GoblinsRole(phase="activate", rage=rage, tribes=tribes(fangs=fangs))
    return thief_table(
        lit(1, 0, OPEN), roles=("knight", "goblins", "cave", "thief"), gob=gob, th=th, turn="goblins"
    )


# --- Il Cavaliere: Interagire con il Ladro ------------------------------------------------------------------


def test_the_knight_kills_him_for_an_encounter_he_drops_his_loot__rulebook_interagire_con_il_ladro_morire():
    p = Play(knight_turn(thief(1, 0, stealth=3, carried=1, gems=("claw",))))  # Stealth 1
    p.do(cmd.AttackThief())
    assert p.of(ev.EncounterBegun) and p.state.knight.encounters == 1
    killed = p.of(ev.ThiefKilled)[0]
    assert (killed.by, killed.why, killed.loot_drop) == ("knight", "attack", 3)
    assert p.state.knight.grit == 7  # + his Loot Drop level
    th = p.state.thief
    assert (th.x, th.y, th.carried, th.gems) == (None, None, 0, ())
    here = cell(p.state, 1, 0)
    assert here.treasure == 1 and here.gems == ("claw",)  # dropped on his tile


@pytest.mark.parametrize("level", [0, 1, 2])
def test_the_knights_grit_is_the_loot_drop_level__rulebook_morire(level):
    p = Play(knight_turn(thief(1, 0, stealth=2, loot_drop=level)))
    p.do(cmd.AttackThief())
    assert p.state.knight.grit == 4 + level and p.state.thief.x is None


def test_the_knight_attacks_only_on_her_tile_seeing_him_with_an_encounter__rulebook_interagire_con_il_ladro():
    assert refused(knight_turn(thief(2, 0, stealth=2)), cmd.AttackThief()) == "vast.thief.not-here"
    equal = knight_turn(thief(1, 0, stealth=3))  # Perception 3 is not greater than Stealth 3
    assert refused(equal, cmd.AttackThief()) == "vast.thief.unseen"
    spent = KnightRole(x=1, y=0, placed=SEEING, encounters=3)
    assert refused(knight_turn(knight=spent), cmd.AttackThief()) == "vast.no-encounter-left"


# --- I Goblin: Attaccare il Ladro ---------------------------------------------------------------------------


def test_a_tribe_that_sees_him_kills_him_loses_1_rage_and_does_not_scatter__rulebook_attaccare_il_ladro():
    p = Play(goblins_turn(thief(1, 0, stealth=3, loot_drop=1), {"population": 3, "x": 1, "y": 0}, rage=2))
    p.do(cmd.ActivateTribe(tribe="fangs", action="attack"))
    assert p.of(ev.ThiefKilled)[0].by == "fangs" and p.state.thief.x is None
    assert not p.of(ev.TribeScattered) and p.state.goblins.tribes[0].population == 3
    assert p.state.goblins.rage == 1
    asked = p.pending
    assert (
        isinstance(asked, DecisionRequested) and asked.decision == "loot-drop:1" and asked.piece == "goblins"
    )
    assert set(asked.options) == {"secrets", "rage"}
    p.choose("rage")
    assert p.state.goblins.rage == 2


def test_the_goblins_loot_drop_may_be_secrets_cards__rulebook_morire_attaccare_il_ladro():
    p = Play(goblins_turn(thief(1, 0, stealth=3), {"population": 3, "x": 1, "y": 0}))
    p.do(cmd.ActivateTribe(tribe="fangs", action="attack"))
    p.choose("secrets")
    draw = p.pending
    assert isinstance(draw, DrawRequested) and draw.deck == "secrets" and draw.count == 3
    p.draw(*draw.cards[:3])
    assert len(p.state.goblins.hand) == 3


def test_a_tribe_must_see_him_to_attack__rulebook_attaccare_il_ladro():
    state = goblins_turn(thief(1, 0, stealth=4), {"population": 3, "x": 1, "y": 0})  # Perception 4
    assert refused(state, cmd.ActivateTribe(tribe="fangs", action="attack")) == "vast.goblins.no-target"


# --- Il Drago: Uccidere il Ladro, Poteri --------------------------------------------------------------------


def test_claw_kills_him_on_a_tile_hit_and_the_dragon_draws_his_loot_drop__rulebook_uccidere_il_ladro():
    p = Play(dragon_turn(thief(2, 0, loot_drop=2, carried=1)))
    p.do(cmd.UsePower(power="claw", pay=("claw-1",)))
    p.roll(2)  # diamond: (2, 0)
    killed = p.of(ev.ThiefKilled)[0]
    assert (killed.by, killed.why, killed.loot_drop) == ("dragon", "claw", 2)
    draw = p.pending
    assert isinstance(draw, DrawRequested) and draw.deck == "power" and draw.count == 2
    assert draw.piece == "dragon" and set(draw.cards) == set(POWER_CARDS) - set(p.state.dragon.hand)
    p.draw("claw-4", "wing-5")
    assert {"claw-4", "wing-5"} <= set(p.state.dragon.hand) and cell(p.state, 2, 0).treasure == 1


def test_claw_missing_his_tile_leaves_him_be__rulebook_poteri_artiglio():
    p = Play(dragon_turn(thief(2, 0)))
    p.do(cmd.UsePower(power="claw", pay=("claw-1",)))
    p.roll(4)  # corners
    assert not p.of(ev.ThiefAttacked) and p.state.thief.x == 2


def test_scratch_kills_him_on_the_dragons_tile__rulebook_poteri_graffio():
    knight = KnightRole(x=1, y=0, grit=10)
    p = Play(
        dragon_turn(thief(1, 0, loot_drop=1), roles=("knight", "dragon", "cave", "thief"), knight=knight)
    )
    p.do(cmd.UsePower(power="scratch", pay=("claw-1", "claw-2", "claw-3")))
    assert p.of(ev.ThiefKilled)[0].why == "scratch" and p.state.knight.grit == 5
    assert isinstance(p.pending, DrawRequested) and p.pending.count == 1


def test_scratch_may_be_used_on_the_thief_alone__rulebook_poteri_graffio():
    p = Play(dragon_turn(thief(1, 0, loot_drop=1)))
    p.do(cmd.UsePower(power="scratch", pay=("claw-1", "claw-2", "claw-3")))
    assert p.of(ev.ThiefKilled)[0].why == "scratch"


def test_a_hidden_loot_drop_of_0_gives_the_dragon_nothing__rulebook_morire_celare_il_bottino():
    p = Play(dragon_turn(thief(1, 0, loot_drop=0)))
    p.do(cmd.UsePower(power="claw", pay=("claw-1",)))
    p.roll(1)  # the center: its own tile
    assert p.of(ev.ThiefKilled)[0].loot_drop == 0 and not isinstance(p.pending, DrawRequested)
    assert p.state.dragon.hand == tuple(c for c in HAND if c != "claw-1")


def test_entering_the_flame_wall_kills_him__rulebook_poteri_muro_di_fiamme():
    d = DragonRole(x=2, y=0, hand=HAND, flame_wall=(1, 0))
    state = thief_table(lit(1, 0, OPEN), lit(2, 0, OPEN), roles=("dragon", "cave", "thief"), dragon=d)
    p = Play(state)
    p.do(cmd.MoveThief(x=1, y=0))
    killed = p.of(ev.ThiefKilled)[0]
    assert (killed.by, killed.why) == ("dragon", "flame-wall")
    assert isinstance(p.pending, DrawRequested) and p.pending.count == 3
    p.draw(*p.pending.cards[:3])
    assert p.state.thief.x is None and len(p.state.dragon.hand) == len(HAND) + 3
    assert refused(p.state, cmd.HideLoot(cubes=1)) == "vast.thief.off-map"


# --- Il Cavaliere: Arco Incantato; I Goblin: Maledizione (the others' cards against him) --------------------


def test_the_enchanted_bow_serves_against_the_thief__rulebook_tesori_arco_incantato():
    knight = KnightRole(x=-1, y=0, treasures=("enchanted-bow",))
    state = thief_table(
        lit(1, 0, OPEN), lit(-1, 0, OPEN), knight=knight, th=thief(1, 0, stealth=0), turn="knight"
    )
    p = Play(state)
    assert refused(p.state, cmd.ShootThief()) == "vast.thief.bow"  # its cube first
    hidden = replace(state, thief=replace(state.thief, stealth=1))  # Perception 1 does not beat Stealth 1
    seen = Play(hidden)
    seen.do(cmd.PlaceHeroCube(target="enchanted-bow"))
    assert refused(seen.state, cmd.ShootThief()) == "vast.thief.unseen"
    p.do(cmd.PlaceHeroCube(target="enchanted-bow"))
    assert p.state.knight.placed == {"enchanted-bow": 1}
    p.do(cmd.ShootThief())  # 2 tiles east in a straight line; her Perception 1 beats his Stealth 0
    assert p.of(ev.ThiefKilled)[0].why == "bow" and p.state.thief.x is None
    assert p.state.knight.enchanted_bow_used
    assert refused(p.state, cmd.ShootThief()) == "vast.thief.bow"  # once a turn


def test_hex_may_hit_the_thief__vf_3_secrets_cards_hex():
    gob = GoblinsRole(phase="activate", hand=("hex",), tribes=tribes(eye={"population": 2}))
    state = thief_table(
        lit(1, 0, OPEN), roles=("knight", "goblins", "cave", "thief"), gob=gob, turn="goblins"
    )
    p = Play(replace(state, rules_revision=4))
    p.do(cmd.PlaySecret(card="hex"))
    assert isinstance(p.pending, DecisionRequested) and "thief" in p.pending.options
    before = thief_stealth(p.state.thief)
    p.choose("thief")
    assert p.of(ev.ThiefHexed)[0].count == 2  # X: the Eye's Population
    assert thief_stealth(p.state.thief) == max(0, before - 2)
    p.do(cmd.VastEndTurn(role="goblins"))
    assert p.state.thief.hexed == 2  # until the Goblins' next turn
    assert RULESET.evolve(p.state, ev.VastTurnStarted(role="goblins", round=2)).thief.hexed == 0
    older = Play(replace(state, rules_revision=3))
    older.do(cmd.PlaySecret(card="hex"))
    assert isinstance(older.pending, DecisionRequested) and "thief" not in older.pending.options


# --- Migliorie: Evasione Innaturale -------------------------------------------------------------------------


def test_unnatural_evasion_on_4_or_more_turns_the_first_attack_and_he_may_step__rulebook_migliorie():
    p = Play(knight_turn(thief(1, 0, stealth=2, upgrades=("unnatural-evasion",))))
    p.do(cmd.AttackThief())
    roll = p.pending
    assert (
        isinstance(roll, RollRequested) and roll.reason == "evasion:knight:attack" and roll.piece == "thief"
    )
    p.roll(4)
    assert p.of(ev.ThiefEvaded) and not p.of(ev.ThiefKilled) and p.state.knight.grit == 4
    asked = p.pending
    assert asked.decision == "evade-step" and asked.default == "stay" and {"0,0", "2,0"} <= set(asked.options)
    p.choose("2,0")
    assert (p.state.thief.x, p.state.thief.moves) == (2, 0)  # no Movement spent
    # the second attack of the turn is not rolled for
    p.do(cmd.MoveKnight(x=2, y=0))
    p.do(cmd.AttackThief())
    assert p.of(ev.ThiefKilled) and not isinstance(p.pending, RollRequested)


def test_unnatural_evasion_below_4_and_he_dies__rulebook_migliorie():
    p = Play(knight_turn(thief(1, 0, stealth=2, upgrades=("unnatural-evasion",))))
    p.do(cmd.AttackThief())
    p.roll(3)
    assert p.of(ev.ThiefKilled) and p.state.knight.grit == 7


def test_an_evasion_step_onto_the_entrance_stashes__rulebook_migliorie_trasportare():
    p = Play(knight_turn(thief(1, 0, stealth=3, carried=1, upgrades=("unnatural-evasion",))))
    p.do(cmd.AttackThief())
    p.roll(6)
    p.choose("0,0")
    assert p.state.thief.stashed == 1 and p.pending.decision == "upgrade"


# --- La Caverna: Spore Soporifere ---------------------------------------------------------------------------


def test_soporific_spores_takes_an_upgrade_he_picks_the_token_still_counts__rulebook_presagi_migliorie():
    cave = CaveRole(hand=("ambush-01",), omens=("mushroom-1", "quartz-1", "trail-1"), supply=12)
    th = thief(1, 0, stashed=2, upgrades=("climbing-gear", "sticky-fingers"))
    p = Play(thief_table(lit(1, 0, OPEN), th=th, cave=cave, turn="cave"))
    p.do(cmd.SoporificSpores(pay=("mushroom-1", "quartz-1", "trail-1"), target="thief"))
    asked = p.pending
    assert (
        isinstance(asked, DecisionRequested) and asked.decision == "spores-upgrade" and asked.piece == "thief"
    )
    assert asked.options == ("climbing-gear", "sticky-fingers")
    p.choose("climbing-gear")
    assert p.state.thief.upgrades == ("sticky-fingers",) and p.state.thief.stashed == 2
    bare = thief_table(lit(1, 0, OPEN), th=thief(1, 0), cave=cave, turn="cave")
    assert refused(bare, cmd.SoporificSpores(pay=("mushroom-1", "quartz-1", "trail-1"), target="thief")) == (
        "vast.omen.no-target"
    )


def test_killed_on_anothers_turn_he_reenters_at_the_start_of_his__rulebook_morire():
    p = Play(dragon_turn(thief(1, 0, loot_drop=0)))
    p.do(cmd.UsePower(power="claw", pay=("claw-1",)))
    p.roll(5)  # saltire: the center too
    assert p.state.thief.x is None
    nxt = thief_turn(p.state)
    assert nxt.of(ev.ThiefEntered) and (nxt.state.thief.x, nxt.state.thief.y) == (0, 0)
