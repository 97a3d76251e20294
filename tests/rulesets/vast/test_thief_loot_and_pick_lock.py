"""Vast rulebook §Il Ladro, Saccheggiare (Loot) and Scassinare (Pick Lock), with §Gemme e altri giocatori (the
Thief and a Dragon Gem's trap), §Rivelare e risolvere le tessere Buie (Cripta: the Vault token) and §Celare il
Bottino's last paragraph (a token from the map when the Cave's supply is empty). docs/vast/facts.md §6. Dice
and decisions are explicit."""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.core.events import DecisionRequested, DrawRequested, RollRequested
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.state import CaveRole, DragonRole, thief_stealth
from tests.rulesets.vast.support import Play, dark, lit, refused
from tests.rulesets.vast.thief_support import HAND, OPEN, thief, thief_table, thief_turn

VAULT = "vault-04"  # a Vault tile ('side': a wall on N at rotation 0)


def cell(state, x, y):
    return next(c for c in state.cells if (c.x, c.y) == (x, y))


def gem_table(**kw):
    """The Thief on (1, 0) with the Claw Gem; the Dragon elsewhere (Knight, Dragon, Cave and Thief)."""
    dragon = DragonRole(x=-1, y=0, hand=HAND, gems=("flame", "wing"))
    return thief_table(
        lit(1, 0, OPEN, gems=("claw",)),
        lit(-1, 0, OPEN),
        roles=("knight", "dragon", "cave", "thief"),
        dragon=dragon,
        th=thief(1, 0, **kw),
    )


# --- Saccheggiare ---------------------------------------------------------------------------------------


def test_loot_takes_the_treasure_token_on_his_tile_for_1_cube__rulebook_saccheggiare():
    p = Play(thief_table(lit(1, 0, OPEN, treasure=1), th=thief(1, 0, stealth=3)))
    p.do(cmd.Loot())
    th = p.state.thief
    assert (th.carried, th.cubes, cell(p.state, 1, 0).treasure) == (1, 3, 0)
    assert p.of(ev.ThiefLooted)[0].source == "tile"
    assert thief_stealth(th) == 2  # Vast rulebook §Trasportare: each token carried, -1 Stealth


def test_loot_needs_a_token_on_his_tile_and_1_cube_for_a_treasure__rulebook_saccheggiare():
    assert refused(thief_table(lit(1, 0, OPEN), th=thief(1, 0)), cmd.Loot()) == "vast.loot.none-here"
    state = thief_table(lit(1, 0, OPEN, treasure=1), th=thief(1, 0))
    assert refused(state, cmd.Loot(cubes=2)) == "vast.loot.cubes"
    assert refused(state, cmd.Loot(gem="claw", cubes=2)) == "vast.loot.none-here"
    assert refused(replace(state, thief=thief(1, 0, cubes=0)), cmd.Loot()) == "vast.thief.no-cubes"


def test_a_gem_for_1_cube_rolls_the_dragon_die_and_off_center_he_takes_it__rulebook_saccheggiare_gemme():
    p = Play(gem_table())
    p.do(cmd.Loot(gem="claw"))
    assert isinstance(p.pending, RollRequested) and p.pending.reason == "thief-gem:claw"
    assert p.pending.piece == "thief" and p.state.thief.cubes == 3
    p.roll(2)  # diamond: not the center
    assert p.state.thief.gems == ("claw",) and cell(p.state, 1, 0).gems == ()
    assert not p.of(ev.ThiefKilled) and (p.state.thief.x, p.state.thief.y) == (1, 0)
    assert p.state.dragon.gems == ("flame", "wing")  # carried, not yet back to the Dragon


def test_a_gem_for_1_cube_on_a_center_hit_is_a_trap_with_no_loot_drop__rulebook_gemme_e_altri_giocatori():
    # Unnatural Evasion does not turn a trap: it is no player's attack (Vast rulebook §Migliorie)
    p = Play(gem_table(upgrades=("unnatural-evasion",)))
    p.do(cmd.Loot(gem="claw"))
    p.roll(3)  # cross: the center
    killed = p.of(ev.ThiefKilled)
    assert killed and killed[0].by == "trap" and killed[0].loot_drop == 0
    assert not p.of(ev.ThiefEvaded) and not p.of(ev.GritChanged)
    assert not isinstance(p.pending, (DrawRequested, RollRequested))  # no Power cards, no Evasion die
    assert p.state.thief.x is None and p.state.dragon.hand == HAND
    assert cell(p.state, 1, 0).gems == ("claw",)  # Vast rulebook §Gemme: the Gem stays where he died


def test_a_gem_for_2_cubes_is_taken_safely__rulebook_saccheggiare():
    p = Play(gem_table())
    p.do(cmd.Loot(gem="claw", cubes=2))
    assert p.pending is None and p.state.thief.gems == ("claw",) and p.state.thief.cubes == 2
    assert thief_stealth(p.state.thief) == 2


# --- Cripta: the Vault token --------------------------------------------------------------------------------


def test_a_vault_tile_revealed_gets_a_vault_token__rulebook_rivelare_e_risolvere_cripta():
    p = Play(thief_table(dark(1, 0, VAULT), th=thief(1, 0)))
    p.do(cmd.PeekTile())
    p.choose("reveal")
    p.settle()
    assert p.of(ev.TileResolved)[0].kind == "vault"
    assert cell(p.state, 1, 0).vault


# --- Scassinare ---------------------------------------------------------------------------------------------


def vault_table(**kw):
    return thief_table(lit(1, 0, VAULT, vault=True), lit(2, 0, VAULT, vault=True), th=thief(1, 0, **kw))


def test_pick_lock_needs_a_vault_on_his_tile__rulebook_scassinare():
    assert (
        refused(thief_table(lit(1, 0, OPEN), th=thief(1, 0)), cmd.PickLock(cubes=1)) == "vast.vault.none-here"
    )


def test_pick_lock_with_1_cube_needs_4_or_more__rulebook_scassinare():
    p = Play(vault_table())
    p.do(cmd.PickLock(cubes=1))
    assert isinstance(p.pending, RollRequested) and p.pending.reason == "thief-action:pick-lock:-:1"
    p.roll(3)
    assert cell(p.state, 1, 0).vault and p.state.thief.carried == 0 and p.state.thief.cubes == 3
    p = Play(vault_table())
    p.do(cmd.PickLock(cubes=1))
    p.roll(4)
    assert not cell(p.state, 1, 0).vault and p.of(ev.VaultOpened)
    looted = p.of(ev.ThiefLooted)[0]
    assert looted.source == "supply" and p.state.cave.supply == 11 and p.state.thief.carried == 1


def test_pick_lock_with_2_cubes_needs_2_or_more__rulebook_scassinare():
    p = Play(vault_table())
    p.do(cmd.PickLock(cubes=2))
    p.roll(1)
    assert cell(p.state, 1, 0).vault and p.state.thief.cubes == 2
    p = Play(vault_table())
    p.do(cmd.PickLock(cubes=2))
    p.roll(2)
    assert not cell(p.state, 1, 0).vault and p.state.thief.carried == 1


def test_pick_lock_with_3_cubes_always_succeeds_without_a_roll__rulebook_scassinare():
    p = Play(vault_table())
    p.do(cmd.PickLock(cubes=3))
    assert not p.of(RollRequested) and p.pending is None
    assert not cell(p.state, 1, 0).vault and p.state.thief.carried == 1 and p.state.thief.cubes == 1


def test_each_vault_may_be_tried_once_a_turn__rulebook_scassinare():
    p = Play(vault_table(movement=3))
    p.do(cmd.PickLock(cubes=1))
    p.roll(1)
    assert refused(p.state, cmd.PickLock(cubes=2)) == "vast.vault.tried"
    p.do(cmd.MoveThief(x=2, y=0))  # another Vault
    p.do(cmd.PickLock(cubes=2))
    p.roll(6)
    assert not cell(p.state, 2, 0).vault and cell(p.state, 1, 0).vault
    nxt = thief_turn(replace(p.state, thief=replace(p.state.thief, x=1, y=0)))
    nxt.choose("2-3-4")
    nxt.do(cmd.PickLock(cubes=3))  # a new turn: the first Vault again
    assert not cell(nxt.state, 1, 0).vault


def test_the_lock_picking_kit_makes_pick_lock_cost_1_cube_less__rulebook_scassinare_kit_da_scassinatore():
    p = Play(vault_table(cubes=2, upgrades=("lock-picking-kit",)))
    p.do(cmd.PickLock(cubes=3))  # the sure level for 2 cubes
    assert p.state.thief.cubes == 0 and not cell(p.state, 1, 0).vault
    assert p.of(ev.ThiefActed)[0].cubes == 2
    assert refused(vault_table(cubes=2), cmd.PickLock(cubes=3)) == "vast.thief.no-cubes"


def test_with_the_caves_supply_empty_the_token_comes_from_the_map__rulebook_celare_il_bottino():
    cells = (lit(1, 0, VAULT, vault=True), lit(-1, 0, OPEN, treasure=1), dark(0, 1, "event-01", treasure=1))
    state = thief_table(*cells, th=thief(1, 0), cave=CaveRole(hand=("ambush-01",), supply=0))
    p = Play(state)
    p.do(cmd.PickLock(cubes=3))
    asked = p.pending
    assert isinstance(asked, DecisionRequested) and asked.decision == "loot-from" and asked.piece == "thief"
    assert set(asked.options) == {"-1,0", "0,1"}
    p.choose("0,1")
    assert cell(p.state, 0, 1).treasure == 0 and cell(p.state, -1, 0).treasure == 1
    assert p.state.thief.carried == 1 and p.of(ev.ThiefLooted)[0].source == "map"
