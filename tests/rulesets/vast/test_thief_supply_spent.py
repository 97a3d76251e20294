"""Vast rulebook, Il Ladro, Celare il Bottino (last paragraph): the Treasure token a Pick Lock takes comes
from the Cave's supply, or with it empty from a tile of the map; with no token in the supply nor on the map
he takes none (the step passes) and the Vault is still opened (Scassinare, level 3: no roll). Knight, Cave
and Thief table."""

from __future__ import annotations

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.state import CaveRole
from tests.rulesets.vast.support import Play, lit
from tests.rulesets.vast.test_thief_loot_and_pick_lock import VAULT, cell
from tests.rulesets.vast.thief_support import thief, thief_table


def test_a_pick_lock_with_no_treasure_token_left_takes_none__rulebook_il_ladro_celare_il_bottino():
    state = thief_table(
        lit(1, 0, VAULT, vault=True), th=thief(1, 0), cave=CaveRole(hand=("ambush-01",), supply=0)
    )
    p = Play(state)
    p.do(cmd.PickLock(cubes=3))
    assert p.pending is None  # no roll, no choice
    assert ev.StepPassed(step="thief-supply", why="no Treasure token is left") in p.events
    assert p.state.thief.carried == 0 and not cell(p.state, 1, 0).vault
