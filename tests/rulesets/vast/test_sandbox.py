"""Sandbox tables for Vast (docs/vast/architecture.md, Projections; ``dicelog.domain.vast.rules.sandbox``): an
explicit table is laid and played on; a table that cannot be is refused naming what is wrong."""

from __future__ import annotations

import msgspec
import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import DrawRequested, GameCreated
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


def lay_new(created: GameCreated):
    """The table of a new game: checked as ``POST /games`` checks it (``check_new_game``), then laid."""
    RULESET.check_new_game(created)
    return RULESET.initial_state(created)


def created(sandbox: dict) -> GameCreated:
    setup = {"roles": ["knight", "cave"], "sandbox": sandbox}
    return GameCreated(ruleset="vast", setup=msgspec.Raw(msgspec.json.encode(setup)), seats=())


def test_a_sandbox_table_is_laid_as_given_and_its_turn_begins():
    state = lay_new(created(TABLE))
    p = Play(state)
    p.do(Begin())
    assert ev.VastTurnStarted(role="knight", round=7) in p.events
    p.settle()  # the laid table's open edges are filled by the Cave at once (Vast rulebook §Tessere Caverna)
    s = p.state
    assert (s.knight.x, s.knight.y, s.knight.grit, s.knight.smashed) == (1, 0, 11, 4)
    assert "event-01" not in s.stack and s.cave.supply == 9
    # as laid (before the Cave filled the open edges): the stack is every other tile, one pile
    assert len(state.stack) + len(state.crystals) == 45 - 3 and state.piles == (42,)  # no Vault tiles
    assert "elven-sword" not in s.treasure_deck and "swift" not in s.sidequest_deck
    assert "daring" not in s.sidequest_deck  # the setup's removals hold
    # play on: the 5th Crystal, then home to win (Vast rulebook §Il Cavaliere, Come Vincere; §Cristalli)
    p.do(cmd.PlaceHeroCube(target="strength"))
    p.do(cmd.PlaceHeroCube(target="strength"))
    p.do(cmd.PlaceHeroCube(target="perception"))  # a 2nd Encounter: she moves only with one left
    p.do(cmd.SmashCrystal())
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
        RULESET.check_new_game(created({**TABLE, **change}))
    assert info.value.rule == rule


GOBLIN_TABLE = {
    **TABLE,
    "turn": "goblins",
    "goblins": {
        "rage": 2,
        "tribes": [
            {"name": "bones", "population": 3, "x": 2, "y": 0, "monsters": ["ogre", "troll"]},
            {"name": "eye", "population": 1, "x": 3, "y": 0, "lurking": True},  # next to a Dark tile only
        ],
        "hand": ["hex"],
        "face_up": ["trap"],
    },
}


def created3(sandbox: dict) -> GameCreated:
    setup = {"roles": ["knight", "goblins", "cave"], "sandbox": sandbox}
    return GameCreated(ruleset="vast", setup=msgspec.Raw(msgspec.json.encode(setup)), seats=())


def test_a_sandbox_lays_the_goblins_and_their_turn_begins_from_the_war_card():
    state = lay_new(created3(GOBLIN_TABLE))
    p = Play(state)
    p.do(Begin())
    while p.pending is not None and p.pending.__class__.__name__ == "DecisionRequested":
        p.default()  # the Cave fills the laid table's open edges first
        if p.pending is not None and getattr(p.pending, "reason", "") == "cave-hand":
            p.draw(p.pending.cards[0])
    gob = p.state.goblins
    assert [(t.name, t.population, t.x, t.lurking) for t in gob.tribes] == [
        ("fangs", 0, None, False),
        ("bones", 3, 2, False),
        ("eye", 1, 3, True),
    ]
    assert gob.rage == 2 and gob.hand == ("hex",) and gob.face_up == ("trap",)
    assert "ogre" not in p.state.monster_deck and "hex" not in p.state.secrets_deck
    assert p.pending.deck == "war" and p.pending.count == 2  # War cards by Rage


@pytest.mark.parametrize(
    "goblins",
    [
        {"tribes": [{"name": "eye"}, {"name": "eye"}]},
        {"tribes": [{"name": "fangs", "monsters": ["ogre", "troll"]}]},
        {"tribes": [{"name": "fangs", "monsters": ["gnome"]}]},
        {"tribes": [{"name": "fangs", "x": 1, "y": 0}]},  # the Knight's tile
        {"tribes": [{"name": "fangs", "x": 9, "y": 9, "lurking": True}]},
        {"hand": ["cave-in"]},
        {"face_up": ["hex"]},
    ],
)
def test_goblins_that_cannot_be_are_refused(goblins):
    with pytest.raises(RuleBroken) as info:
        RULESET.check_new_game(created3({**TABLE, "goblins": goblins}))
    assert info.value.rule == "setup.sandbox-goblins"


DRAGON_TABLE = {
    **TABLE,
    "cells": [*TABLE["cells"], {"x": 1, "y": 1, "tile": "treasure-room-01", "lit": True, "gems": ["claw"]}],
    "turn": "dragon",
    "dragon": {
        "x": 1,
        "y": 1,
        "health": 3,
        "sloth": {"greed": 0, "hunger": 2, "pride-events": 1},
        "awake": True,
        "eaten": 1,
        "hand": ["claw-2", "wing-5"],
        "shriek": True,
    },
}


def created4(sandbox: dict) -> GameCreated:
    setup = {"roles": ["knight", "goblins", "dragon", "cave"], "sandbox": sandbox}
    return GameCreated(ruleset="vast", setup=msgspec.Raw(msgspec.json.encode(setup)), seats=())


def test_a_sandbox_lays_the_dragon_its_tracks_hand_and_gems_and_its_turn_begins():
    p = Play(lay_new(created4(DRAGON_TABLE)))
    p.do(Begin())
    p.settle()
    d = p.state.dragon
    assert (d.x, d.y, d.health, d.awake, d.eaten, d.hand, d.shriek) == (
        1,
        1,
        3,
        True,
        1,
        ("claw-2", "wing-5"),
        True,
    )
    assert d.sloth == {"greed": 0, "hunger": 2, "pride-events": 1, "pride-still": 1, "pride-gem": 1}
    assert d.gems == ("flame", "wing") and next(c for c in p.state.cells if (c.x, c.y) == (1, 1)).gems == (
        "claw",
    )
    assert p.state.turn == "dragon"
    p.do(cmd.UsePower(power="claw"))  # the laid Gem pays it
    assert p.of(ev.PowerUsed)[0].gems == ("claw",)


@pytest.mark.parametrize(
    "dragon",
    [
        {"x": 9, "y": 9},  # off the map
        {"sloth": {"pride-gem": 2}},  # more than the track's spaces
        {"sloth": {"greed": 0, "hunger": 0, "pride-events": 1}},  # 11 Wakefulness, not awake
        {"surfaced": True},  # asleep
        {"hand": ["claw-7"]},
        {"hand": ["claw-1", "claw-1"]},
        {"x": 1, "y": 1, "flame_wall": [5, 5]},
    ],
)
def test_a_dragon_that_cannot_be_is_refused(dragon):
    with pytest.raises(RuleBroken) as info:
        RULESET.check_new_game(created4({**DRAGON_TABLE, "dragon": dragon}))
    assert info.value.rule == "setup.sandbox-dragon"


def test_a_revision_3_sandbox_lays_its_cards_poison_and_the_goblins_crystals():
    """Rules revision 3 decks (the Gnome, the Goblin Ruby), Hero cubes Poison left on the Entrance, and the
    Crystal tokens Goblins keep with no Knight (Goblins vs Cave)."""
    from dicelog.domain.vast.rules.common import owned_cubes

    table = {
        **GOBLIN_TABLE,
        "knight": {**TABLE["knight"], "poisoned": 2},
        "goblins": {
            "tribes": [{"name": "fangs", "population": 2, "x": 2, "y": 0, "monsters": ["gnome"]}],
            "face_up": ["goblin-ruby"],
        },
    }
    setup = {"roles": ["knight", "goblins", "cave"], "sandbox": table}
    raw = msgspec.Raw(msgspec.json.encode(setup))
    state = lay_new(GameCreated(ruleset="vast", setup=raw, seats=(), rules_revision=3))
    assert state.knight.poisoned == 2 and owned_cubes(state.knight) == 2  # 4 from her Grit, 2 poisoned
    assert state.goblins.face_up == ("goblin-ruby",) and state.goblins.tribes[0].monsters == ("gnome",)
    assert "gnome" not in state.monster_deck and "goblin-ruby" not in state.secrets_deck
    goblins_vs_cave = {
        "cells": TABLE["cells"],
        "turn": "goblins",
        "goblins": {"smashed": 4},
    }
    setup = {"roles": ["goblins", "cave"], "sandbox": goblins_vs_cave}
    raw = msgspec.Raw(msgspec.json.encode(setup))
    state = lay_new(GameCreated(ruleset="vast", setup=raw, seats=(), rules_revision=3))
    assert state.goblins.smashed == 4 and state.knight is None


def created_at(sandbox: dict, roles: list[str], revision: int = 6) -> GameCreated:
    from dicelog.domain.core.events import Seat

    setup = {"roles": roles, "sandbox": sandbox}
    raw = msgspec.Raw(msgspec.json.encode(setup))
    seats = (Seat(name="table", controls=tuple(roles)),)
    return GameCreated(ruleset="vast", setup=raw, seats=seats, rules_revision=revision)


def test_a_dragon_turn_laid_with_no_dragon_on_the_map_places_it_first__rulebook_il_drago_preparazione():
    """Vast rulebook, Il Drago, Preparazione: the Sleeping Dragon is placed at the start of its first turn (on
    the Knight's tile). A sandbox laid on the Dragon's turn with no position placed it never, and a
    ``MoveDragon`` was still accepted from nowhere; from rules revision 6 it is placed, and an unplaced
    Dragon's move is refused."""
    from msgspec.structs import replace

    sandbox = {**DRAGON_TABLE, "dragon": {"hand": ["claw-2"]}, "knight": {"x": 1, "y": 0}}
    p = Play(lay_new(created_at(sandbox, ["knight", "goblins", "dragon", "cave"])))
    p.do(Begin())
    p.settle()
    assert p.of(ev.DragonPlaced) == [ev.DragonPlaced(x=1, y=0)]
    assert (p.state.dragon.x, p.state.dragon.y) == (1, 0)
    unplaced = replace(p.state, dragon=replace(p.state.dragon, x=None, y=None))
    with pytest.raises(RuleBroken) as info:
        RULESET.decide(unplaced, cmd.MoveDragon(x=1, y=1))
    assert info.value.rule == "vast.dragon.not-placed"
    old = Play(lay_new(created_at(sandbox, ["knight", "goblins", "dragon", "cave"], 5)))
    old.do(Begin())
    old.settle()
    assert not old.of(ev.DragonPlaced)  # revision 5 games keep what they did


def test_a_turn_laid_at_its_start_runs_its_start_steps__rulebook_la_caverna_raccogli_i_presagi():
    """Vast rulebook, La Caverna, 1. Raccogli i Segnalini Presagio: the Cave's turn starts by collecting
    Omens; a table laid at the start of that turn (``at_start``) collects them, one laid as it stands does
    not."""
    laid = {**TABLE, "turn": "cave"}
    p = Play(lay_new(created_at({**laid, "at_start": True}, ["knight", "cave"])))
    p.do(Begin())
    assert p.of(ev.OmensCollected)
    q = Play(lay_new(created_at(laid, ["knight", "cave"])))
    q.do(Begin())
    assert not q.of(ev.OmensCollected)


def test_event_and_vault_tokens_are_laid_on_their_lit_tiles__rulebook_rivelare_le_tessere():
    """Vast rulebook, Rivelare le Tessere, Evento: an Event tile revealed from afar gets an Event token;
    Cripta: a revealed Vault tile a Vault token. The sandbox lays them, on their own Lit tiles only."""
    cells = [*TABLE["cells"], {"x": 0, "y": 1, "tile": "event-02", "lit": True, "event_token": True}]
    state = lay_new(created_at({**TABLE, "cells": cells}, ["knight", "cave"]))
    assert next(c for c in state.cells if (c.x, c.y) == (0, 1)).event_token
    for bad in (
        {"x": 0, "y": 1, "tile": "event-02", "event_token": True},  # Dark
        {"x": 0, "y": 1, "tile": "ambush-02", "lit": True, "event_token": True},  # not an Event tile
    ):
        with pytest.raises(RuleBroken) as info:
            RULESET.check_new_game(created_at({**TABLE, "cells": [*TABLE["cells"], bad]}, ["knight", "cave"]))
        assert info.value.rule == "setup.sandbox-token"


THIEF_TABLE = {
    **TABLE,
    "turn": "thief",
    "thief": {
        "x": 1,
        "y": 0,
        "movement": 4,
        "stealth": 2,
        "thievery": 3,
        "cubes": 3,
        "carried": 2,
        "stashed": 1,
        "upgrades": ["thievery+1"],
        "loot_drop": 1,
        "peeked": ["ambush-01"],
    },
}


def test_a_sandbox_lays_the_thief_mid_turn_and_he_plays_on__rulebook_il_ladro():
    """Vast rulebook, Il Ladro: his Stat tokens on his board (1. Assegna i Segnalini Statistica), his Action
    cubes (2. Muovi e Agisci), the tokens he carries and those stashed on Upgrade spaces (Trasportare e
    Mettere al Sicuro; Migliorie), the Loot Drop. Laid mid-turn, the Thief's board is as laid and he moves
    on: entering the Entrance stashes what he carries, and each token takes an Upgrade space."""
    p = Play(lay_new(created_at(THIEF_TABLE, ["knight", "cave", "thief"])))
    th = p.state.thief
    assert (th.x, th.y, th.movement, th.stealth, th.thievery, th.assigned, th.cubes) == (
        1,
        0,
        4,
        2,
        3,
        True,
        3,
    )
    assert (th.carried, th.stashed, th.upgrades, th.loot_drop, th.peeked) == (
        2,
        1,
        ("thievery+1",),
        1,
        ("ambush-01",),
    )
    assert p.state.treasure_tokens == 12 and p.state.cave.supply == 12 - 1 - 2 - 1
    assert len(p.state.vaults) == 6 and p.state.pile_vaults == (6,)  # Vault tiles in the stack
    p.do(Begin())
    p.settle()
    assert p.state.turn == "thief" and p.state.thief.cubes == 3  # the laid turn is not cleared
    p.do(cmd.MoveThief(x=0, y=0))
    assert ev.TreasureStashed(tokens=2, gems=()) in p.events
    assert p.pending.decision == "upgrade"


def test_a_thief_off_the_map_enters_at_the_start_of_his_turn__rulebook_morire():
    """Vast rulebook, Morire: a Thief off the map comes back on the Entrance at the start of his turn."""
    table = {**TABLE, "turn": "thief", "at_start": True, "thief": {"stashed": 2, "upgrades": ["flip-2"]}}
    p = Play(lay_new(created_at(table, ["knight", "cave", "thief"])))
    assert p.state.thief.x is None
    p.do(Begin())
    assert ev.ThiefEntered() in p.events
    assert p.pending.decision == "thief-stats" and p.pending.options == (
        "4-3-3",
        "3-4-3",
        "3-3-4",
    )  # flip-2: 3, 3, 4


@pytest.mark.parametrize(
    "thief",
    [
        {"x": 9, "y": 9},  # off the map
        {"x": 1},  # x without y
        {"movement": 4, "stealth": 4, "thievery": 2},  # not his tokens
        {"x": 1, "y": 0, "movement": 4, "stealth": 3, "thievery": 2, "cubes": 3},  # more cubes than Thievery
        {"x": 1, "y": 0, "movement": 2, "stealth": 3, "thievery": 4, "moves": 3},  # more moves than Movement
        {"upgrades": ["flip-3"], "stashed": 1},  # Flip Stat Tokens out of order
        {"upgrades": ["climbing-gear", "climbing-gear"], "stashed": 2},
        {"upgrades": ["climbing-gear"]},  # no token stashed to hold it
        {"upgrades": ["wings"], "stashed": 1},
        {"gems": ["claw"]},  # no Dragon in play
        {"peeked": ["crystal-04"]},  # Lit
        {"x": 1, "y": 0},  # his turn as it stands, Stat tokens not placed
    ],
)
def test_a_thief_that_cannot_be_is_refused__rulebook_il_ladro(thief):
    with pytest.raises(RuleBroken) as info:
        RULESET.check_new_game(
            created_at({**TABLE, "turn": "thief", "thief": thief}, ["knight", "cave", "thief"])
        )
    assert info.value.rule == "setup.sandbox-thief"


def test_more_treasure_tokens_than_the_game_has_are_refused__rulebook_preparazione():
    """docs/vast/facts.md §1: 12 Treasure tokens with the Thief; the map, the Cave's supply and the Thief's
    tokens hold no more."""
    table = {**TABLE, "thief": {"carried": 6, "stashed": 6}}
    with pytest.raises(RuleBroken) as info:
        RULESET.check_new_game(created_at(table, ["knight", "cave", "thief"]))
    assert info.value.rule == "setup.sandbox-treasure"


OPEN_LEFT = ((0, 0, "N"), (0, 0, "S"), (0, 0, "W"), (1, 0, "N"), (1, 0, "S"))  # crystal-04 turned: walls E, W


def test_open_edges_are_left_as_laid_when_asked__rulebook_tessere_caverna():
    """Vast rulebook, Tessere Caverna: «Ogni volta che una tessera ha uno o più lati aperti ... devi piazzare
    a contatto di ogni lato aperto una nuova tessera». A laid table's open edges are filled at once by
    default; with ``fill_open_edges`` false they stay open, while a
    tile revealed later still has its own open edges filled."""
    filled = Play(lay_new(created_at(TABLE, ["knight", "cave"])))
    filled.do(Begin())
    filled.settle()
    assert filled.of(ev.DarkTilePlaced)
    table = {**TABLE, "fill_open_edges": False, "cave": {"hand": ["event-01", "event-02", "ambush-02"]}}
    state = lay_new(created_at(table, ["knight", "cave"]))
    assert state.open_left == OPEN_LEFT
    p = Play(state)
    p.do(Begin())
    p.settle()
    assert p.state.turn == "knight" and not p.of(ev.DarkTilePlaced)
    cells = [*TABLE["cells"], {"x": 0, "y": 1, "tile": "treasure-room-01"}]
    laid = {**table, "cells": cells, "knight": {**TABLE["knight"], "x": 0, "y": 0}}
    p = Play(lay_new(created_at(laid, ["knight", "cave"])))
    p.do(Begin())
    p.settle()
    p.do(cmd.PlaceHeroCube(target="movement"))
    p.do(cmd.MoveKnight(x=0, y=1))  # onto the Dark tile: it is revealed, and its own open edges filled
    p.settle()
    placed = {(e.x, e.y) for e in p.of(ev.DarkTilePlaced)}
    assert placed and not placed & {(0, -1), (-1, 0), (1, -1)}  # the laid open edges stay open


def test_the_knights_turn_is_laid_with_her_placed_cubes_moves_and_encounters__rulebook_cubetti_eroe():
    """Vast rulebook, Il Cavaliere, 1. Posiziona i Cubetti Eroe and 2. Muovi e Agisci: the cubes she placed
    this turn, the tiles she moved and the Encounters she had stay as laid when her turn is laid as it
    stands; a cube more is hers to place while she has one."""
    placed = {"strength": 2, "movement": 1, "perception": 1}
    knight = {**TABLE["knight"], "placed": placed, "moves": 1, "encounters": 1}
    p = Play(lay_new(created_at({**TABLE, "knight": knight}, ["knight", "cave"])))
    p.do(Begin())
    p.settle()
    k = p.state.knight
    assert (k.placed, k.moves, k.encounters) == (placed, 1, 1)
    with pytest.raises(RuleBroken) as info:
        RULESET.decide(p.state, cmd.PlaceHeroCube(target="perception"))  # Grit 11: 4 cubes, all placed
    assert info.value.rule == "vast.cube.none-left"


@pytest.mark.parametrize(
    "knight",
    [
        {"placed": {"strength": 3, "movement": 2}},  # Grit 11: 4 cubes
        {"placed": {"mighty-axe": 1}},  # a Treasure card she does not hold
        {"moves": 3},  # Movement 2 with no cube on it
        {"encounters": 2},  # Perception 1
    ],
)
def test_a_knights_turn_that_cannot_be_is_refused__rulebook_cubetti_eroe(knight):
    with pytest.raises(RuleBroken) as info:
        RULESET.check_new_game(
            created_at({**TABLE, "knight": {**TABLE["knight"], **knight}}, ["knight", "cave"])
        )
    assert info.value.rule == "setup.sandbox-knight"


def test_the_goblins_turn_is_laid_in_a_phase_past_the_war_card__rulebook_i_goblin_riepilogo_del_turno():
    """Vast rulebook, I Goblin, Riepilogo del Turno: 1. a War card, 2. Popola le Tribù by it, 3. Monsters, 4.
    Secrets, 5. activate. A Goblins' turn laid in its populate phase with the War card chosen goes on from
    populating (no War card drawn), Secrets window first (rules revision 6)."""
    goblins = {**GOBLIN_TABLE["goblins"], "phase": "populate", "war": "pain"}
    table = {**GOBLIN_TABLE, "goblins": goblins, "fill_open_edges": False}
    p = Play(lay_new(created_at(table, ["knight", "goblins", "cave"])))
    p.do(Begin())
    assert ev.GoblinsPhaseBegun(phase="populate") in p.events and p.state.goblins.war == "pain"
    p.settle()
    assert not any(getattr(e, "deck", "") == "war" for e in p.events)  # no War card drawn
    assert p.state.goblins.phase not in ("", "war", "war-draw", "populate")


@pytest.mark.parametrize(
    "goblins,turn",
    [
        ({"phase": "populate"}, "goblins"),  # no War card
        ({"phase": "war", "war": "pain"}, "goblins"),  # a War card before it is chosen
        ({"phase": "populate", "war": "pain"}, "knight"),  # not their turn
        ({"phase": "populate", "war": "peace"}, "goblins"),
        ({"tribes": [{"name": "eye", "activated": True}]}, "goblins"),  # activated in the war phase
    ],
)
def test_a_goblins_phase_that_cannot_be_is_refused(goblins, turn):
    with pytest.raises(RuleBroken) as info:
        RULESET.check_new_game(
            created_at({**TABLE, "turn": turn, "goblins": goblins}, ["knight", "goblins", "cave"])
        )
    assert info.value.rule == "setup.sandbox-goblins"


def test_a_stored_table_a_later_check_refuses_still_folds_and_verifies():
    """A sandbox table is checked when its game is created (``check_new_game``), never when a stored game is
    folded again: a table stored before a check was added (here 10 Treasure tokens on the Cave's board and 1
    on the map, 11 of the 10 a game without the Thief has, docs/vast/facts.md §1: refused since
    ``setup.sandbox-treasure`` counts them all) still re-derives, and its log verifies."""
    from datetime import UTC, datetime
    from uuid import uuid4

    from dicelog.domain.core.game import (
        GENESIS_HASH,
        SERVER_SEAT,
        Recorded,
        apply,
        create,
        fold,
        run_command_and_auto_answers_records,
    )
    from dicelog.domain.core.verify import verify

    stored = created_at({**TABLE, "cave": {**TABLE["cave"], "supply": 10}}, ["knight", "cave"])
    at = datetime(2026, 11, 28, tzinfo=UTC)
    game_id = uuid4()
    with pytest.raises(RuleBroken) as info:  # a new game with this table: refused, nothing to store
        create(game_id, stored, at=at, seed=b"s", command_id="new")
    assert info.value.rule == "setup.sandbox-treasure"
    first = Recorded(
        originator_id=game_id,
        originator_version=1,
        timestamp=at,
        seat=SERVER_SEAT,
        command_id="create",
        prev_hash=GENESIS_HASH,
        payload=stored,
    )
    game = apply(None, first)  # the stored game folds again, its table as laid
    assert game.state.cave.supply == 10 and game.state.cells[2].treasure == 1
    begun = run_command_and_auto_answers_records(
        game, Begin(), seat=SERVER_SEAT, command_id="create/begin", at=at, seed=b"s"
    )
    game = fold(game, begun)
    assert game.state.phase == "play" and game.state.turn == "knight"
    assert verify([first, *begun]).ok


def new_game(sandbox: dict, roles: list[str], revision: int = 6):
    """The table of a new game of ``roles`` at rules revision ``revision`` (``lay_new``)."""
    return lay_new(created_at(sandbox, roles, revision))


DECKS = {
    "event_top": ["light", "rats-1", "fresh-air"],
    "event_bottom": ["cave-bread"],
    "treasure_bottom": ["javelin"],
    "stack": ["ambush-05", "crystal-01", "event-07"],
}


def test_the_decks_and_the_stack_are_laid_in_order__rulebook_la_caverna_eventi():
    """Vast rulebook, La Caverna, Eventi: «Puoi esaminare le tre carte in cima al mazzo degli Eventi in
    qualunque momento»; Tesori: the second Treasure card goes to the bottom of the deck. The Event deck's top
    three and its bottom, the Treasure deck's bottom and the tiles left in the stack are laid as given; the
    Crystal Curse then sends exactly the laid top three to the bottom, below the laid one."""
    table = {**TABLE, **DECKS, "turn": "cave", "cave": {**TABLE["cave"], "omens": ["bat-1"]}}
    state = new_game(table, ["knight", "cave"])
    assert state.event_top == ("light", "rats-1", "fresh-air") and state.event_bottom == ("cave-bread",)
    assert "light" in state.event_deck and "cave-bread" not in state.event_deck
    assert state.treasure_bottom == ("javelin",) and "javelin" not in state.treasure_deck
    assert (state.stack, state.crystals, state.piles) == (("ambush-05", "event-07"), ("crystal-01",), (3,))
    p = Play(state)
    p.do(Begin())
    p.settle()
    p.do(cmd.CrystalCurse(pay=("bat-1",), effect="events-to-bottom"))
    assert p.of(ev.EventsSentToBottom)[-1].cards == ("light", "rats-1", "fresh-air")
    assert p.state.event_bottom == ("cave-bread", "light", "rats-1", "fresh-air")


@pytest.mark.parametrize("top", [[], ["light"], ["light", "rats-1"]])
def test_an_event_decks_top_laid_short_of_three_is_topped_up_when_the_game_begins__la_caverna_eventi(top):
    """Vast rulebook, La Caverna, Eventi: «Puoi esaminare le tre carte in cima al mazzo degli Eventi in
    qualunque momento». A top laid with fewer than 3 cards (none too) keeps them first, in order; at
    ``Begin`` the Cave draws the others up from the cards below them (an ``event-top`` draw: never a card
    played, at the bottom or already up), whatever the turn and however it is laid."""
    for extra in ({}, {"turn": "cave", "at_start": True}, {"fill_open_edges": False}):
        table = {
            **TABLE,
            **extra,
            "event_top": top,
            "event_bottom": ["cave-bread"],
            "events_played": ["fresh-water"],
        }
        state = new_game(table, ["knight", "cave"], revision=7)
        assert state.event_top == tuple(top)
        p = Play(state)
        p.do(Begin())
        p.settle()  # the Cave's Omens first when its turn is laid at its start
        (draw,) = [e for e in p.events if isinstance(e, DrawRequested) and e.reason == "event-top"]
        assert draw.piece == "cave" and draw.count == 3 - len(top)
        assert not {*top, "cave-bread", "fresh-water"} & set(draw.cards) and len(draw.cards) == 15 - 2 - len(
            top
        )
        assert p.state.event_top[: len(top)] == tuple(top) and len(p.state.event_top) == 3
        assert p.state.turn == table["turn"]


@pytest.mark.parametrize(
    "change,rule",
    [
        ({"event_top": ["light"], "events_played": ["light"]}, "setup.sandbox-duplicate"),
        ({"event_bottom": ["rats-1", "rats-1"]}, "setup.sandbox-duplicate"),
        ({"event_bottom": ["dragon-fire"]}, "setup.sandbox-card"),
        ({"treasure_bottom": ["elven-sword"]}, "setup.sandbox-duplicate"),  # in the Knight's hand
        ({"treasure_bottom": ["claw-1"]}, "setup.sandbox-card"),
        ({"event_top": ["light", "rats-1", "rats-2", "rats-3"]}, "setup.sandbox-deck"),
        ({"stack": ["event-01"]}, "setup.sandbox-duplicate"),  # in the Cave's hand
        ({"stack": ["crystal-04"]}, "setup.sandbox-duplicate"),  # on the map
        ({"stack": ["ambush-05", "ambush-05"]}, "setup.sandbox-duplicate"),
        ({"stack": ["vault-01"]}, "setup.sandbox-tile"),  # no Thief
        ({"stack": ["entrance"]}, "setup.sandbox-tile"),
        ({"knight": {**TABLE["knight"], "smashed": 9}}, "setup.sandbox-crystal"),  # 9 + 1 on the map
    ],
)
def test_decks_a_stack_and_crystal_tokens_that_cannot_be_are_refused(change, rule):
    with pytest.raises(RuleBroken) as info:
        new_game({**TABLE, **change}, ["knight", "cave"])
    assert info.value.rule == rule


def test_the_event_decks_top_is_laid_only_where_the_cave_reads_it__rulebook_la_caverna_eventi():
    """Before rules revision 6, or with no Cave player, the Event deck has no order anyone read."""
    with pytest.raises(RuleBroken) as info:
        new_game({**TABLE, "event_top": ["light"]}, ["knight", "cave"], revision=5)
    assert info.value.rule == "setup.sandbox-deck"


def test_the_crystal_tokens_are_the_games_nine__rulebook_il_drago_rivelare_le_tessere():
    """Vast rulebook, Il Drago, Rivelare le Tessere: a revealed Crystal tile gets a Crystal token, one per
    Crystal tile (docs/vast/facts.md §1: 9). 5 smashed by the Knight and 4 kept by the Goblins are all of
    them: a Crystal token on the map as well is one too many."""
    goblins = {"smashed": 4}
    knight = {**TABLE["knight"], "smashed": 5}
    cells = [TABLE["cells"][0], {**TABLE["cells"][1], "crystal": False}, TABLE["cells"][2]]
    state = new_game(
        {**TABLE, "cells": cells, "knight": knight, "goblins": goblins}, ["knight", "goblins", "cave"]
    )
    assert state.knight.smashed + state.goblins.smashed == 9
    with pytest.raises(RuleBroken) as info:
        new_game({**TABLE, "knight": knight, "goblins": goblins}, ["knight", "goblins", "cave"])
    assert info.value.rule == "setup.sandbox-crystal"


def test_the_goblins_discard_piles_are_laid__rulebook_i_goblin():
    goblins = {
        **GOBLIN_TABLE["goblins"],
        "monster_discard": ["golem"],
        "secrets_discard": ["poison", "leader"],
    }
    state = new_game({**GOBLIN_TABLE, "goblins": goblins}, ["knight", "goblins", "cave"])
    assert state.monster_discard == ("golem",) and "golem" not in state.monster_deck
    assert state.secrets_discard == ("poison", "leader") and not {"poison", "leader"} & set(
        state.secrets_deck
    )
    laid = [m for t in GOBLIN_TABLE["goblins"]["tribes"] for m in t.get("monsters", ())]
    for bad, rule in (
        ({"monster_discard": [laid[0]]}, "setup.sandbox-duplicate"),  # a Tribe's Monster
        ({"secrets_discard": ["dragon-fire"]}, "setup.sandbox-card"),
        ({"secrets_discard": [GOBLIN_TABLE["goblins"]["hand"][0]]}, "setup.sandbox-duplicate"),
    ):
        with pytest.raises(RuleBroken) as info:
            new_game(
                {**GOBLIN_TABLE, "goblins": {**GOBLIN_TABLE["goblins"], **bad}}, ["knight", "goblins", "cave"]
            )
        assert info.value.rule == rule


def test_the_knights_open_encounter_is_laid__rulebook_2_muovi_e_agisci():
    """Vast rulebook, Il Cavaliere, 2. Muovi e Agisci: an Encounter reveals, then attacks, then collects. Laid
    with the Encounter of her tile open and her one Encounter had, she smashes the Crystal in it (no new
    Encounter); laid with none open, smashing needs an Encounter her Perception no longer allows."""
    knight = {**TABLE["knight"], "placed": {"strength": 2}, "encounters": 1, "encounter": "revealed"}
    p = Play(new_game({**TABLE, "knight": knight}, ["knight", "cave"]))
    p.do(Begin())
    p.settle()
    assert p.state.knight.stage == 0
    p.do(cmd.SmashCrystal())
    assert not p.of(ev.EncounterBegun) and p.state.knight.smashed == 5
    closed = Play(new_game({**TABLE, "knight": {**knight, "encounter": "none"}}, ["knight", "cave"]))
    closed.do(Begin())
    closed.settle()
    with pytest.raises(RuleBroken) as info:
        RULESET.decide(closed.state, cmd.SmashCrystal())
    assert info.value.rule == "vast.no-encounter-left"


@pytest.mark.parametrize(
    "knight,turn",
    [
        ({"encounters": 1, "encounter": "attacked"}, "cave"),  # not her turn
        ({"encounter": "attacked"}, "knight"),  # no Encounter had
        ({"bow_used": True}, "knight"),  # no cube on the Bow
        (
            {"placed": {"strength": 1}, "encounters": 1, "dragon_attacks": 2},
            "knight",
        ),  # 2 attacks, 1 Encounter
    ],
)
def test_a_knights_encounter_that_cannot_be_is_refused__rulebook_2_muovi_e_agisci(knight, turn):
    with pytest.raises(RuleBroken) as info:
        new_game({**TABLE, "turn": turn, "knight": {**TABLE["knight"], **knight}}, ["knight", "cave"])
    assert info.value.rule == "setup.sandbox-knight"


DRAGON_ROLES = ["knight", "goblins", "dragon", "cave"]


def test_the_dragons_turn_is_laid_mid_way__rulebook_il_drago_riepilogo_del_turno():
    """Vast rulebook, Il Drago, Riepilogo del Turno: 1. Muovi e Usa i Poteri (the free move once), 2.
    Raccogli un Tesoro, 3. Posa una Gemma di Drago, in order. Laid with its free move made it moves no more
    for free; laid past collecting a Treasure it uses no Power."""
    moved = {**DRAGON_TABLE["dragon"], "moved": True, "still": False, "advanced": ["greed"]}
    p = Play(new_game({**DRAGON_TABLE, "dragon": moved}, DRAGON_ROLES))
    p.do(Begin())
    p.settle()
    d = p.state.dragon
    assert (d.moved, d.still, d.advanced, d.stage) == (True, False, ("greed",), 0)
    with pytest.raises(RuleBroken) as info:
        RULESET.decide(p.state, cmd.MoveDragon(x=1, y=0))
    assert info.value.rule == "vast.dragon.moved"
    collected = Play(new_game({**DRAGON_TABLE, "dragon": {**moved, "stage": "collected"}}, DRAGON_ROLES))
    collected.do(Begin())
    collected.settle()
    with pytest.raises(RuleBroken) as info:
        RULESET.decide(collected.state, cmd.UsePower(power="claw"))
    assert info.value.rule == "vast.dragon.phase-over"


@pytest.mark.parametrize(
    "dragon,turn",
    [
        ({"moved": True, "still": False}, "knight"),  # not its turn
        ({"moved": True}, "dragon"),  # moved, yet still
        ({"advanced": ["greed", "greed"]}, "dragon"),
        ({"gems_used": ["wing"]}, "dragon"),  # the Wing Gem is in its reserve
        ({"x": None, "y": None, "stage": "collected"}, "dragon"),  # not on the map
    ],
)
def test_a_dragons_turn_that_cannot_be_is_refused__rulebook_il_drago_riepilogo_del_turno(dragon, turn):
    table = {**DRAGON_TABLE, "turn": turn, "dragon": {**DRAGON_TABLE["dragon"], **dragon}}
    with pytest.raises(RuleBroken) as info:
        new_game(table, DRAGON_ROLES)
    assert info.value.rule == "setup.sandbox-dragon"
