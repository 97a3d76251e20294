"""docs/vast/facts.md §7 Variant cards, Past Plunder: at the end of its holder's turn a Treasure token goes on
an empty Dark tile; with none, a new tile is drawn and placed first."""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.state import GoblinsRole
from tests.rulesets.vast.support import Play, dark, lit, tribes
from tests.rulesets.vast.test_no_cave_player import OPEN, no_cave


def test_past_plunder_places_a_treasure_token_at_the_end_of_its_holders_turn__vf_7_past_plunder():
    gob = GoblinsRole(phase="activate", tribes=tribes(fangs={"population": 1, "x": 2, "y": 0}))
    state = no_cave(dark(1, 0, OPEN, "fangs"), dark(2, 0, OPEN, "eye"), gob=gob, turn="goblins")
    p = Play(state)
    p.do(cmd.VastEndTurn(role="goblins"))
    assert p.of(ev.TurnEnding)[0].steps == ("plunder", "shape")
    assert p.pending.decision == "plunder" and p.pending.piece == "goblins"
    assert p.pending.default == "2,0"  # the Dark tile nearest its Tribes
    p.choose("1,0")
    assert next(c for c in p.state.cells if (c.x, c.y) == (1, 0)).treasure == 1
    assert p.pending.decision == "shape"  # then its Dark tile


def test_past_plunder_with_no_free_dark_tile_draws_and_places_one_first__vf_7_past_plunder():
    state = no_cave(lit(1, 0, OPEN), turn="goblins", gob=GoblinsRole(phase="activate"))
    full = tuple(c if c.lit else replace(c, treasure=1) for c in state.cells)  # every Dark tile has a token
    p = Play(replace(state, cells=full))
    p.do(cmd.VastEndTurn(role="goblins"))
    assert p.pending.decision == "plunder-tile"
    spot = p.pending.options[0]
    p.choose(spot)
    p.draw("ambush-02")
    assert p.pending.decision == "plunder" and p.pending.options == (spot,)
    p.choose(spot)
    assert next(c for c in p.state.cells if f"{c.x},{c.y}" == spot).treasure == 1


def test_only_the_holder_of_past_plunder_places_treasure__vf_7_past_plunder():
    p = Play(no_cave())  # the Goblins hold it; the Knight's turn ends
    p.do(cmd.VastEndTurn(role="knight"))
    assert p.of(ev.TurnEnding)[0].steps == ("shape",)
