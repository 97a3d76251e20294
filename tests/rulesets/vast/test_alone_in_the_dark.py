"""docs/vast/facts.md §7 Solo and the variant card Alone in the Dark (Vast rulebook §Consigli Rapidi,
Varianti: "piazza o rimuovi le tessere alla fine del tuo turno secondo la carta variante Solo nell'Oscurità al
posto del normale piazzamento o rimozione"), and choosing a docs/vast/facts.md §7 row by its id
(``VastSetup.setup``). Dice and cards are explicit."""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import GameCreated, Seat
from dicelog.domain.core.ruleset import Begin
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.rules.flow import advance, alone_count, alone_removable
from dicelog.domain.vast.rules.setup import SETUPS
from dicelog.domain.vast.ruleset import RULESET
from dicelog.domain.vast.state import DragonRole, KnightRole, ThiefRole, Tribe, wakefulness
from tests.rulesets.vast.support import Play, dark, goblin_table, lit

OPEN = "treasure-room-01"  # no walls


def created(document: dict[str, object], revision: int = 4) -> GameCreated:
    row = SETUPS.get(str(document.get("setup")))
    roles = document.get("roles") or (row.roles if row is not None else ("knight",))
    return GameCreated(
        ruleset="vast",
        setup=msgspec.Raw(msgspec.json.encode(document)),
        seats=tuple(Seat(name=r, controls=(r,)) for r in roles),  # type: ignore[union-attr]
        rules_revision=revision,
    )


def solo(*cells, role="knight", variants=("alone-in-the-dark", "infestation:A"), **kw):
    """A solo table (the Knight alone unless ``role`` says otherwise)."""
    state = goblin_table(*cells, turn=role, **kw)
    return replace(
        state,
        roles=(role,),
        variants=variants,
        cave=None,
        rules_revision=4,
        knight=state.knight if role == "knight" else None,
        goblins=state.goblins if role == "goblins" else None,
        dragon=DragonRole(x=0, y=0) if role == "dragon" else None,
        thief=ThiefRole(x=0, y=0, movement=4, stealth=2, thievery=3, assigned=True)
        if role == "thief"
        else None,
    )


# --- choosing the row -------------------------------------------------------------------------------


def test_a_row_is_chosen_by_its_id_and_its_variant_cards_come_with_it__vf_7_solo():
    easy = RULESET.initial_state(created({"setup": "dragon-solo-easy"}))
    hard = RULESET.initial_state(created({"setup": "dragon-solo-hard"}))
    assert easy.roles == hard.roles == ("dragon",)
    assert easy.dragon is not None and hard.dragon is not None
    # docs/vast/facts.md §7: 4 / 2 / 0 Hunger cubes
    assert wakefulness(easy.dragon) == 4 and wakefulness(hard.dragon) == 0
    p = Play(RULESET.initial_state(created({"setup": "knight-solo-medium"})))
    p.do(Begin())
    seated = p.of(ev.RolesSeated)[0]
    assert seated.setup == "knight-solo-medium"
    assert set(seated.variants) == {"alone-in-the-dark", "infestation:B"}
    assert "daring" not in seated.sidequests and "eagle-eyed" not in seated.sidequests


def test_roles_alone_pick_the_first_row_of_those_roles__vf_7_setup_by_player_count():
    state = RULESET.initial_state(created({"roles": ["knight"]}))
    assert state.setup_row == "knight-solo-easy"
    both = RULESET.initial_state(created({"roles": ["cave", "thief"], "setup": "cave-vs-thief"}))
    assert both.setup_row == "cave-vs-thief" and both.thief is not None


@pytest.mark.parametrize(
    "document,revision,detail",
    [
        ({"setup": "knight-vs-thieves"}, 4, "unknown setup"),
        ({"setup": "dragon-solo-easy", "roles": ["knight"]}, 4, "seats"),
        ({"setup": "thief-solo"}, 3, "revision 4"),
    ],
)
def test_a_row_that_is_not_played_or_does_not_match_its_roles_is_refused__vf_7(document, revision, detail):
    with pytest.raises(RuleBroken) as refused:
        RULESET.initial_state(created(document, revision))
    assert refused.value.rule == "setup.invalid" and detail in str(refused.value.detail)


# --- Alone in the Dark: how many tiles ---------------------------------------------------------------


def test_the_count_is_the_largest_of_crystal_tiles_revealed_and_the_roles_number__vf_7_variant_cards():
    knight = solo(knight=KnightRole(x=0, y=0))
    # the 2 Hero cubes she starts with (Vast rulebook §Cubetti Eroe)
    assert alone_count(knight, "knight") == 2
    grit = replace(knight, knight=replace(knight.knight, grit=11))
    assert alone_count(grit, "knight") == 4  # one more at Grit 5 and at 11
    crystals = replace(
        knight,
        cells=(*knight.cells, lit(1, 0, "crystal-01"), lit(2, 0, "crystal-02")),
        crystal_tiles_collapsed=4,
    )
    assert alone_count(crystals, "knight") == 6  # 2 on the map + 4 collapsed
    gob = solo(role="goblins", variants=("alone-in-the-dark", "flare:goblins"))
    gob = replace(
        gob,
        goblins=replace(
            gob.goblins, tribes=(Tribe(name="fangs", population=3), Tribe(name="bones"), Tribe(name="eye"))
        ),
    )
    assert alone_count(gob, "goblins") == 3
    assert alone_count(solo(role="dragon", variants=("alone-in-the-dark",)), "dragon") == 3  # Spirit at 0
    assert alone_count(solo(role="thief", variants=("alone-in-the-dark", "flare:thief")), "thief") == 4


def test_a_solo_turn_ends_with_that_many_tiles_placed_instead_of_one__rulebook_consigli_rapidi_varianti():
    p = Play(solo(knight=KnightRole(x=0, y=0)))
    p.do(cmd.VastEndTurn(role="knight"))
    ending = p.of(ev.TurnEnding)[0]
    assert ending.steps == ("shape",) * 2


def test_in_the_collapse_a_solo_turn_removes_that_many_tiles__vf_7_variant_cards():
    state = solo(dark(1, 0, OPEN), knight=KnightRole(x=0, y=0))
    state = replace(state, collapse=True, stack=(), crystals=(), piles=(0,), pile_crystals=(0,))
    p = Play(state)
    p.do(cmd.VastEndTurn(role="knight"))
    assert p.of(ev.TurnEnding)[0].steps == ("remove",) * 2


def test_the_solo_collapse_takes_crystal_tiles_first_then_dark_then_lit__vf_7_variant_cards():
    cells = (lit(1, 0, OPEN), dark(0, 1, "ambush-01"), lit(-1, 0, "crystal-01"), lit(2, 0, OPEN))
    state = solo(*cells, knight=KnightRole(x=1, y=0), sealed=False)
    assert alone_removable(state) == [(-1, 0)]
    no_crystal = replace(state, cells=tuple(c for c in state.cells if c.tile != "crystal-01"))
    assert alone_removable(no_crystal) == [(0, 1)]
    only_lit = replace(no_crystal, cells=tuple(c for c in no_crystal.cells if c.lit))
    assert alone_removable(only_lit) == [(1, 0), (2, 0)]  # under the Knight: she has a tile to step onto


def test_a_solo_knight_who_dies_loses__vf_7_solo():
    alive = solo(knight=KnightRole(x=0, y=0, health=1))
    assert not [e for e in advance(alive) if isinstance(e, ev.GameWon)]
    dead = replace(alive, knight=replace(alive.knight, health=0, died_of="ambush"))
    won = [e for e in advance(dead) if isinstance(e, ev.GameWon)]
    assert [w.winner for w in won] == ["everyone-lost"]


def test_the_solo_collapse_skips_a_tile_whose_thief_has_no_tile_to_step_onto__il_collasso():
    """Vast rulebook §Il Collasso: «Se una tessera contenente la pedina di un giocatore deve essere rimossa,
    quel giocatore può prima muoversi su una tessera adiacente … Se non ci sono tessere adiacenti … quella
    tessera viene ignorata». From rules revision 6 the Thief's piece counts: a tile of his with no tile next
    to it is not removable (before, the removal asked him to step off with no option and the rules raised
    IndexError, found by bench/vast_bots.py in thief-solo)."""
    cells = (lit(1, 0, OPEN), lit(3, 0, OPEN))  # (3, 0) touches no tile
    state = replace(
        solo(*cells, role="thief", variants=("alone-in-the-dark", "flare:thief")), rules_revision=6
    )
    lit_only = tuple(c for c in state.cells if c.lit)  # the Entrance and the two Lit tiles
    state = replace(state, cells=lit_only, thief=replace(state.thief, x=3, y=0))
    assert alone_removable(state) == [(1, 0)]
    # a Thief who has a tile to step onto leaves his tile removable: (0, 0) is next to (1, 0)
    beside = replace(state, thief=replace(state.thief, x=1, y=0))
    assert alone_removable(beside) == [(1, 0), (3, 0)]
