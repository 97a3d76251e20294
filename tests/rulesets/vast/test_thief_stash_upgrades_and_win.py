"""Vast rulebook §Il Ladro, Trasportare e Mettere al Sicuro il Bottino, Migliorie (Stat Boosts, Flip Stat
Tokens), Celare il Bottino and Come Vincere, with §La Caverna (tokens he carries count for the Omens, stashed
ones leave the game) and §Il Drago (a carried Gem lends its symbol; the Flame Wall on the Entrance).
docs/vast/facts.md §6. Dice, cards and decisions are explicit."""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.core.events import DecisionRequested
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.rules.common import treasure_supply
from dicelog.domain.vast.rules.flow import tokens_on_map
from dicelog.domain.vast.ruleset import RULESET
from dicelog.domain.vast.state import UPGRADES, DragonRole, ThiefRole, thief_stat
from tests.rulesets.vast.support import Play, lit, refused
from tests.rulesets.vast.thief_support import HAND, OPEN, thief, thief_table, thief_turn


def home(th: ThiefRole, *cells, **kw):
    """The Thief on (1, 0), one step from the Entrance."""
    return thief_table(lit(1, 0, OPEN), *cells, th=th, **kw)


# --- Trasportare e Mettere al Sicuro il Bottino -------------------------------------------------------------


def test_entering_the_entrance_stashes_every_token_and_each_takes_an_upgrade__rulebook_trasportare():
    p = Play(home(thief(1, 0, carried=2, loot_drop=1)))
    p.do(cmd.MoveThief(x=0, y=0))
    stashed = p.of(ev.TreasureStashed)[0]
    assert stashed.tokens == 2 and stashed.gems == ()
    th = p.state.thief
    assert (th.stashed, th.carried, th.loot_drop) == (2, 0, 3)  # Loot Drop back to 3
    asked = p.pending
    assert isinstance(asked, DecisionRequested) and asked.decision == "upgrade" and asked.piece == "thief"
    p.choose("sticky-fingers")
    assert "sticky-fingers" not in p.pending.options  # each space once
    p.choose("climbing-gear")
    assert p.pending is None and p.state.thief.upgrades == ("sticky-fingers", "climbing-gear")


def test_loot_drop_goes_back_to_3_only_when_he_stashes__rulebook_consigli_rapidi_il_ladro():
    p = Play(home(thief(1, 0, loot_drop=1), lit(2, 0, OPEN, treasure=1)))
    p.do(cmd.MoveThief(x=2, y=0))
    p.do(cmd.Loot())
    assert p.state.thief.loot_drop == 1  # not on picking it up
    p.do(cmd.MoveThief(x=1, y=0))
    p.do(cmd.MoveThief(x=0, y=0))
    assert p.state.thief.loot_drop == 3


def test_a_stashed_gem_goes_back_to_the_dragon_for_a_token_from_the_caves_supply__rulebook_trasportare():
    d = DragonRole(x=2, y=0, hand=HAND, gems=("flame",))
    state = home(thief(1, 0, gems=("claw", "wing"), carried=1), roles=("dragon", "cave", "thief"), dragon=d)
    p = Play(state)
    p.do(cmd.MoveThief(x=0, y=0))
    assert p.of(ev.TreasureStashed)[0].tokens == 3
    assert p.state.dragon.gems == ("claw", "flame", "wing") and p.state.cave.supply == 10  # 2 swapped
    assert p.state.thief.gems == () and p.state.thief.stashed == 3


def test_carried_tokens_count_for_the_omens_and_stashed_ones_leave_the_game__rulebook_la_caverna_tesori():
    state = home(thief(1, 0, carried=2), lit(2, 0, OPEN, treasure=1))
    assert tokens_on_map(state) == 3
    p = Play(state)
    p.do(cmd.MoveThief(x=0, y=0))
    p.settle()
    assert tokens_on_map(p.state) == 1 and p.state.cave.supply == 12  # never back to the Cave
    no_cave = replace(p.state, cave=None, roles=("knight", "thief"))
    assert treasure_supply(no_cave) == 12 - 1 - 2  # the one on the map, the two stashed


def test_a_carried_gem_still_lends_its_symbol_to_the_dragon__rulebook_gemme_e_altri_giocatori():
    d = DragonRole(x=2, y=0, hand=("claw-1",), gems=("flame", "wing"))
    state = home(
        thief(1, 0, gems=("claw",)),
        lit(2, 0, OPEN),
        roles=("dragon", "cave", "thief"),
        dragon=d,
        turn="dragon",
    )
    p = Play(state)
    p.do(cmd.UsePower(power="claw"))
    assert p.of(ev.PowerUsed)[0].gems == ("claw",) and p.state.dragon.hand == ("claw-1",)


# --- Migliorie ----------------------------------------------------------------------------------------------


def test_flip_stat_tokens_are_filled_left_to_right__rulebook_migliorie_segnalini_statistica():
    p = Play(home(thief(1, 0, carried=1)))
    p.do(cmd.MoveThief(x=0, y=0))
    options = p.pending.options
    assert "flip-2" in options and "flip-3" not in options and "all-4" not in options
    assert set(options) == set(UPGRADES) - {"flip-3", "all-4"}
    p = Play(home(thief(1, 0, carried=1, upgrades=("flip-2",))))
    p.do(cmd.MoveThief(x=0, y=0))
    assert (
        "flip-3" in p.pending.options
        and "flip-2" not in p.pending.options
        and "all-4" not in p.pending.options
    )


def test_flipped_tokens_change_the_stat_choices__rulebook_migliorie_segnalini_statistica():
    p = thief_turn(thief_table(th=ThiefRole(x=0, y=0, upgrades=("flip-2",))))
    assert sorted(p.pending.options) == ["3-3-4", "3-4-3", "4-3-3"]  # the 2 flipped to 3
    p = thief_turn(thief_table(th=ThiefRole(x=0, y=0, upgrades=("flip-2", "flip-3"))))
    assert sorted(p.pending.options) == ["3-4-4", "4-3-4", "4-4-3"]


def test_all_4_leaves_nothing_to_assign__rulebook_migliorie_tutti_4():
    p = thief_turn(thief_table(th=ThiefRole(x=0, y=0, upgrades=("flip-2", "flip-3", "all-4"))))
    assert p.pending is None
    th = p.state.thief
    assert (th.movement, th.stealth, th.thievery, th.cubes, th.assigned) == (4, 4, 4, 4, True)


def test_stat_boosts_add_1_up_to_5__rulebook_migliorie_incremento_delle_statistiche():
    ups = ("flip-2", "flip-3", "all-4", "movement+1", "stealth+1", "thievery+1")
    p = thief_turn(thief_table(th=ThiefRole(x=0, y=0, upgrades=ups)))
    th = p.state.thief
    assert th.cubes == 5 and thief_stat(th, "movement") == 5 and thief_stat(th, "stealth") == 5
    assert thief_stat(replace(th, movement=9), "movement") == 5  # never above 5


# --- Celare il Bottino --------------------------------------------------------------------------------------


def test_hide_loot_lowers_the_loot_drop_by_the_cubes_spent__rulebook_celare_il_bottino():
    p = Play(home(thief(1, 0, cubes=4)))
    p.do(cmd.HideLoot(cubes=2))
    assert p.state.thief.loot_drop == 1 and p.state.thief.cubes == 2
    p.do(cmd.HideLoot(cubes=1))
    assert p.state.thief.loot_drop == 0 and p.of(ev.LootHidden)[-1].count == 1
    assert refused(p.state, cmd.HideLoot(cubes=1)) == "vast.loot-drop.zero"


def test_hide_loot_needs_the_cubes__rulebook_celare_il_bottino():
    assert refused(home(thief(1, 0, cubes=1)), cmd.HideLoot(cubes=2)) == "vast.thief.no-cubes"


# --- Come Vincere -------------------------------------------------------------------------------------------


def test_six_tokens_stashed_win__rulebook_il_ladro_come_vincere():
    ups = ("sticky-fingers", "climbing-gear", "flip-2", "movement+1", "hand-crossbow")
    p = Play(home(thief(1, 0, carried=1, stashed=5, upgrades=ups)))
    p.do(cmd.MoveThief(x=0, y=0))
    assert p.of(ev.GameWon)[0].winner == "thief"
    assert RULESET.outcome(p.state) == "won:thief" and p.state.phase == "ended"


def test_a_token_spores_took_off_its_upgrade_still_counts_to_win__rulebook_migliorie():
    ups = ("sticky-fingers", "climbing-gear", "flip-2", "movement+1")  # 5 stashed, one Upgrade lost
    p = Play(home(thief(1, 0, carried=1, stashed=5, upgrades=ups)))
    p.do(cmd.MoveThief(x=0, y=0))
    assert RULESET.outcome(p.state) == "won:thief"


def test_five_stashed_do_not_win__rulebook_il_ladro_come_vincere():
    p = Play(home(thief(1, 0, carried=1, stashed=4)))
    p.do(cmd.MoveThief(x=0, y=0))
    p.settle()
    assert p.state.thief.stashed == 5 and RULESET.outcome(p.state) is None


def test_the_entrances_flame_wall_kills_him_before_he_stashes__rulebook_trasportare_muro_di_fiamme():
    # Vast rulebook §Trasportare: he stashes "after resolving the tile's effects"; the Flame Wall kills him
    # first
    d = DragonRole(x=1, y=1, hand=HAND, flame_wall=(0, 0))
    state = home(thief(1, 0, carried=1), lit(1, 1, OPEN), roles=("dragon", "cave", "thief"), dragon=d)
    p = Play(state)
    p.do(cmd.MoveThief(x=0, y=0))
    assert p.of(ev.ThiefKilled) and not p.of(ev.TreasureStashed)
    assert p.state.thief.stashed == 0 and p.state.thief.x is None
    entrance = next(c for c in p.state.cells if (c.x, c.y) == (0, 0))
    assert entrance.treasure == 1  # dropped where he died


def test_evading_the_entrances_flame_wall_he_stashes_there__rulebook_trasportare_migliorie():
    d = DragonRole(x=1, y=1, hand=HAND, flame_wall=(0, 0))
    th = thief(1, 0, carried=1, upgrades=("unnatural-evasion",))
    p = Play(home(th, lit(1, 1, OPEN), roles=("dragon", "cave", "thief"), dragon=d))
    p.do(cmd.MoveThief(x=0, y=0))
    p.roll(5)
    assert p.of(ev.ThiefEvaded) and p.pending.decision == "evade-step"
    p.choose("stay")
    assert p.state.thief.stashed == 1 and p.pending.decision == "upgrade"


def test_his_harder_difficulty_cards_leave_his_first_stashed_tokens_bare__vf_7_difficulty_cards():
    """docs/vast/facts.md §7 Difficulty cards: at Prowler (read as level 4) the first stashed token gets no
    Upgrade, at Invader (level 5) the first 2; standard play upgrades every token."""
    for level, bare in ((3, 0), (4, 1), (5, 2)):
        p = Play(replace(home(thief(1, 0, carried=3)), difficulty={"thief": level}))
        p.do(cmd.MoveThief(x=0, y=0))
        while isinstance(p.pending, DecisionRequested):
            p.default()
        assert len(p.of(ev.UpgradeTaken)) == 3 - bare, level
        assert [e.step for e in p.of(ev.StepPassed)] == ["upgrade"] * bare
        assert p.state.thief.stashed == 3 and "upgrade" not in p.state.todo
    # a second trip: the bare ones are behind him
    p = Play(replace(home(thief(1, 0, carried=2, stashed=1)), difficulty={"thief": 5}))
    p.do(cmd.MoveThief(x=0, y=0))
    while isinstance(p.pending, DecisionRequested):
        p.default()
    assert len(p.of(ev.UpgradeTaken)) == 1 and len(p.of(ev.StepPassed)) == 1


def test_the_thiefs_levels_4_and_5_are_played_and_1_2_refused__vf_7_difficulty_cards():
    from dicelog.domain.core.errors import RuleBroken
    from tests.rulesets.vast.test_alone_in_the_dark import created

    for level in (4, 5):
        state = RULESET.initial_state(created({"setup": "cave-vs-thief", "difficulty": {"thief": level}}))
        assert state.difficulty == {"thief": level}
    for level in (1, 2):
        try:
            RULESET.initial_state(created({"setup": "cave-vs-thief", "difficulty": {"thief": level}}))
        except RuleBroken as refused_:
            assert refused_.rule == "setup.invalid" and "[3, 4, 5]" in str(refused_.detail)
        else:
            raise AssertionError(f"level {level} was accepted")
