"""Sandbox tables for Vast (VAST-DESIGN.md §3.4; ``dicelog.domain.vast.rules.sandbox``): an explicit table is
laid and played on; a table that cannot be is refused naming what is wrong."""

from __future__ import annotations

import msgspec
import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import GameCreated
from dicelog.domain.core.ruleset import Begin
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.ruleset import RULESET
from tests.rulesets.vast.support import Play

TABLE = {
    "cells": [
        {"x": 0, "y": 0, "tile": "entrance"},
        {"x": 1, "y": 0, "tile": "crystal-04", "lit": True, "rotation": 1, "crystal": True},
        {"x": 2, "y": 0, "tile": "ambush-01", "treasure": 1},
    ],
    "knight": {
        "x": 1,
        "y": 0,
        "grit": 11,
        "smashed": 4,
        "treasures": ["elven-sword"],
        "sidequests": ["swift"],
    },
    "cave": {"hand": ["event-01"], "omens": ["bat-1"]},
    "turn": "knight",
    "round": 7,
}


def created(sandbox: dict) -> GameCreated:
    setup = {"roles": ["knight", "cave"], "sandbox": sandbox}
    return GameCreated(ruleset="vast", setup=msgspec.Raw(msgspec.json.encode(setup)), seats=())


def test_a_sandbox_table_is_laid_as_given_and_its_turn_begins():
    state = RULESET.initial_state(created(TABLE))
    p = Play(state)
    p.do(Begin())
    assert p.events[-1] == ev.VastTurnStarted(role="knight", round=7)
    s = p.state
    assert (s.knight.x, s.knight.y, s.knight.grit, s.knight.smashed) == (1, 0, 11, 4)
    assert s.cave.hand == ("event-01",) and s.cave.supply == 9
    assert len(s.stack) + len(s.crystals) == 45 - 3 and s.piles == (42,)  # no Vault tiles without the Thief
    assert "elven-sword" not in s.treasure_deck and "swift" not in s.sidequest_deck
    assert "daring" not in s.sidequest_deck  # the setup's removals hold
    # play on: the 5th Crystal, then home to win (004 §Il Cavaliere, Come Vincere; §Cristalli)
    p.do(cmd.PlaceHeroCube(target="strength"))
    p.do(cmd.PlaceHeroCube(target="strength"))
    p.do(cmd.PlaceHeroCube(target="perception"))  # a 2nd Encounter: she moves only with one left
    p.do(cmd.SmashCrystal())
    p.settle()  # the Cave fills the open edges of the laid table first (004 §Tessere Caverna)
    p.do(cmd.MoveKnight(x=0, y=0))
    assert p.events[-1] == ev.GameWon(
        winner="knight", reason="5 Crystals smashed and the Knight escaped by the Entrance"
    )


@pytest.mark.parametrize(
    "change,rule",
    [
        ({"cells": [{"x": 0, "y": 0, "tile": "ambush-01"}]}, "setup.sandbox-entrance"),
        ({"cells": [*TABLE["cells"], {"x": 2, "y": 0, "tile": "event-02"}]}, "setup.sandbox-space"),
        ({"cells": [*TABLE["cells"], {"x": 3, "y": 0, "tile": "ambush-01"}]}, "setup.sandbox-duplicate"),
        ({"cells": [*TABLE["cells"], {"x": 3, "y": 0, "tile": "vault-01"}]}, "setup.sandbox-tile"),
        ({"knight": {"x": 5, "y": 5}}, "setup.sandbox-knight"),
        ({"cave": {"hand": ["crystal-04"]}}, "setup.sandbox-duplicate"),
        ({"cave": {"omens": ["owl-1"]}}, "setup.sandbox-omen"),
        ({"knight": {"sidequests": ["daring"]}}, "setup.sandbox-card"),
        ({"rockslides": [[0, 0, "N"]]}, "setup.sandbox-edge"),
        (
            {"cells": [*TABLE["cells"][:1], {"x": 1, "y": 0, "tile": "event-02", "crystal": True}]},
            "setup.sandbox-crystal",
        ),
        ({"turn": "dragon"}, "setup.sandbox-turn"),
    ],
)
def test_a_table_that_cannot_be_is_refused_naming_why(change, rule):
    with pytest.raises(RuleBroken) as info:
        RULESET.initial_state(created({**TABLE, **change}))
    assert info.value.rule == rule
