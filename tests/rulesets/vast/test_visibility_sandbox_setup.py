"""A sandbox table's secrets in ``GameCreated.setup`` are masked as the same secrets are in play
(docs/who-sees-what.md, Vast; ``dicelog.domain.vast.visibility.view_setup``): the Cave reads its own hand and
the Event deck's top three (Vast rulebook, La Caverna, Eventi), the Knight her Sidequests, nobody the
Sidequest deck's order or the stack, the auditor everything, everyone everything once the game has ended."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from dicelog.domain.core.events import GameCreated, Seat, UndoApplied
from dicelog.domain.core.visibility import AUDITOR_VIEWER, SPECTATOR_VIEWER, Lens, Viewer
from dicelog.domain.vast.rules.setup import VastSetup
from dicelog.domain.vast.ruleset import RULESET
from dicelog.domain.vast.state import HIDDEN
from dicelog.domain.vast.visibility import view_event, view_setup
from tests.rulesets.vast.test_sandbox import TABLE

ROLES = ["knight", "goblins", "dragon", "cave", "thief"]
SANDBOX: dict[str, Any] = {
    **TABLE,
    "cells": [*TABLE["cells"], {"x": 0, "y": 1, "tile": "ambush-02"}],
    "knight": {**TABLE["knight"], "face_up": ["javelin"]},
    "cave": {"hand": ["event-01", "vault-03"], "omens": ["bat-1"]},
    "event_top": ["deep-and-dark-2", "fresh-water", "vantage-point"],
    "event_bottom": ["cave-bread"],
    "treasure_bottom": ["potion-kit"],
    "treasures_gone": ["mighty-axe"],
    "sidequest_top": ["eagle-eyed", "stalwart"],
    "stack": ["ambush-05", "crystal-01"],
    "goblins": {"hand": ["poison"], "monster_discard": ["spider"], "secrets_discard": ["trap"]},
    "dragon": {"hand": ["claw-2"]},
    "thief": {"peeked": ["ambush-01"]},
}
"""A table with one secret of every kind (the ids need not make a table ``lay`` accepts: only masked)."""
SEATS = {role: Viewer(kind="seat", seat=role, pieces=frozenset({role})) for role in ROLES}


def _created(sandbox: dict[str, Any] | None) -> GameCreated:
    setup: dict[str, Any] = {"roles": ROLES} if sandbox is None else {"roles": ROLES, "sandbox": sandbox}
    seats = tuple(Seat(name=r, controls=(r,)) for r in ROLES)
    return GameCreated(ruleset="vast", setup=msgspec.Raw(msgspec.json.encode(setup)), seats=seats)


def _sandbox(event: Any) -> dict[str, Any]:
    sandbox: dict[str, Any] = msgspec.json.decode(event.setup)["sandbox"]
    return sandbox


def _dark(sandbox: dict[str, Any]) -> dict[tuple[int, int], str]:
    return {
        (c["x"], c["y"]): c["tile"] for c in sandbox["cells"] if not c.get("lit") and c["tile"] != "entrance"
    }


def test_each_seat_sees_only_the_laid_secrets_it_may_know_at_the_start():
    """Per seat, the same audiences as the state's (``view_state``): the Cave its hand, the Event deck's top
    three and both bottoms (La Caverna, Eventi and Tesori), the Dark tiles and the Knight's face-down
    Treasures; the Knight her Treasures and Sidequests; the Goblins their hand and discards; the Dragon its
    hand; the Thief the tile he looked at; nobody the Sidequest deck's order or the stack."""
    created = _created(SANDBOX)
    seen = {role: _sandbox(view_event(created, viewer)) for role, viewer in SEATS.items()}
    cave, knight, goblins, dragon, thief = (seen[r] for r in ("cave", "knight", "goblins", "dragon", "thief"))
    assert cave["cave"]["hand"] == ["event-01", "vault-03"]
    assert knight["cave"]["hand"] == [HIDDEN, HIDDEN]
    assert cave["event_top"] == SANDBOX["event_top"] and cave["event_bottom"] == ["cave-bread"]
    assert cave["treasure_bottom"] == ["potion-kit"]
    for role in ("knight", "goblins", "dragon", "thief"):
        assert seen[role]["event_top"] == [HIDDEN] * 3, role
        assert seen[role]["event_bottom"] == [HIDDEN] and seen[role]["treasure_bottom"] == [HIDDEN]
    for role in ROLES:
        assert seen[role]["sidequest_top"] == [HIDDEN, HIDDEN], role
        assert seen[role]["stack"] == [HIDDEN, HIDDEN], role
    assert _dark(cave) == {(2, 0): "ambush-01", (0, 1): "ambush-02"}
    assert _dark(thief) == {(2, 0): "ambush-01", (0, 1): HIDDEN} and thief["thief"]["peeked"] == ["ambush-01"]
    assert _dark(knight) == {(2, 0): HIDDEN, (0, 1): HIDDEN} and knight["thief"]["peeked"] == [HIDDEN]
    assert knight["knight"]["sidequests"] == ["swift"] and cave["knight"]["sidequests"] == [HIDDEN]
    assert cave["knight"]["treasures"] == ["elven-sword"] and dragon["knight"]["treasures"] == [HIDDEN]
    assert cave["treasures_gone"] == ["mighty-axe"] and goblins["treasures_gone"] == [HIDDEN]
    assert goblins["goblins"] == {
        "hand": ["poison"],
        "monster_discard": ["spider"],
        "secrets_discard": ["trap"],
    }
    assert cave["goblins"] == {"hand": [HIDDEN], "monster_discard": [HIDDEN], "secrets_discard": [HIDDEN]}
    assert dragon["dragon"]["hand"] == ["claw-2"] and thief["dragon"]["hand"] == [HIDDEN]
    # public: a Lit tile, the face-up Treasures, the Omens, the turn
    assert knight["knight"]["face_up"] == ["javelin"] and knight["cave"]["omens"] == ["bat-1"]
    assert knight["cells"][1] == SANDBOX["cells"][1] and knight["round"] == 7


def test_a_spectator_sees_no_laid_secret_and_the_masked_setup_still_decodes_as_a_setup():
    shown = view_event(_created(SANDBOX), SPECTATOR_VIEWER)
    assert isinstance(shown, GameCreated)
    text = bytes(shown.setup)
    secret = {
        "event-01",
        "vault-03",
        "deep-and-dark-2",
        "eagle-eyed",
        "stalwart",
        "ambush-05",
        "swift",
        "poison",
    }
    assert [s for s in secret if f'"{s}"'.encode() in text] == []
    decoded = msgspec.json.decode(text, type=VastSetup)
    assert decoded.sandbox is not None and decoded.sandbox.cave.hand == (HIDDEN, HIDDEN)
    assert replace(shown, setup=_created(SANDBOX).setup) == _created(SANDBOX)  # only the setup differs


@pytest.mark.parametrize("sandbox", [None, {"cells": TABLE["cells"][:2]}])
def test_a_setup_laying_no_secret_is_shown_whole_to_everyone(sandbox):
    """No sandbox, or a table whose every tile is Lit and no card laid: the very event (shown ``full``)."""
    created = _created(sandbox)
    for viewer in (*SEATS.values(), SPECTATOR_VIEWER):
        assert view_event(created, viewer) is created
        assert view_setup(created.setup, viewer) is created.setup


def test_the_auditor_and_every_reader_after_the_end_see_the_table_as_laid():
    created = _created(SANDBOX)
    assert Lens(RULESET, AUDITOR_VIEWER).event(created) is created
    for viewer in (*SEATS.values(), SPECTATOR_VIEWER):
        assert Lens(RULESET, viewer, reveal=True).event(created) is created
        assert Lens(RULESET, viewer).event(created) != created


def test_an_undo_shows_the_games_created_event_as_the_lens_shows_it():
    """``UndoApplied.game`` carries the game's ``GameCreated``: the Lens masks its setup there too."""
    created = _created(SANDBOX)
    game = {
        "id": "00000000-0000-4000-8000-000000000031",
        "version": 1,
        "created": msgspec.json.decode(msgspec.json.encode(created)),
    }
    state = RULESET.initial_state(
        GameCreated(
            ruleset="vast",
            setup=msgspec.Raw(msgspec.json.encode({"roles": ["knight", "cave"]})),
            seats=(Seat(name="knight", controls=("knight",)), Seat(name="cave", controls=("cave",))),
        )
    )
    undo = UndoApplied(
        to_version=1,
        approved_by=("knight",),
        game=msgspec.Raw(msgspec.json.encode(game)),
        state=msgspec.Raw(msgspec.json.encode(state)),
    )
    shown = Lens(RULESET, SEATS["knight"]).event(undo)
    assert isinstance(shown, UndoApplied)
    held = msgspec.json.decode(shown.game)["created"]["setup"]["sandbox"]
    assert held["cave"]["hand"] == [HIDDEN, HIDDEN] and held["knight"]["sidequests"] == ["swift"]
    assert held["sidequest_top"] == [HIDDEN, HIDDEN]
    whole = Lens(RULESET, AUDITOR_VIEWER).event(undo)
    assert whole is undo
