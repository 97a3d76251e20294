"""Vast rulebook §Il Drago: the Dragon's setup, statistics, movement underground and surfaced, every Power and
its payment, the Sloth tracks and Wakefulness (one cube a track a turn), Treasure, Gems, surfacing, the end of
its turn; and the others against it (§Incontrare il Drago, §Attaccare il Drago, §Gemme e altri giocatori), in
the Knight, Goblins, Dragon and Cave setup (docs/vast/facts.md §7). Dice and cards are explicit."""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from dicelog.domain.core.events import DecisionRequested, DrawRequested, GameCreated, RollRequested, Seat
from dicelog.domain.core.ruleset import Begin
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.rules.flow import start_turn
from dicelog.domain.vast.ruleset import RULESET
from dicelog.domain.vast.state import (
    SLOTH_ROOM,
    CaveRole,
    DragonRole,
    GoblinsRole,
    KnightRole,
    armor,
    spirit,
    wakefulness,
)
from tests.rulesets.vast.support import Play, dark, goblin_table, lit, refused, tribes

HAND = ("claw-1", "claw-2", "claw-3", "flame-1", "flame-2", "flame-3", "wing-1", "wing-2")


def sloth(**left: int) -> dict[str, int]:
    """Sloth cubes left on each track (the rest are on Wakefulness)."""
    out = dict(SLOTH_ROOM)
    out.update({k.replace("_", "-"): v for k, v in left.items()})
    return out


def dragon_table(*cells, dragon: DragonRole | None = None, turn: str = "dragon", knight=None, gob=None, **kw):
    """A Knight, Goblins, Dragon and Cave table in play (docs/vast/facts.md §7, 4 players)."""
    state = goblin_table(*cells, gob=gob, knight=knight or KnightRole(x=0, y=0), turn=turn, **kw)
    return replace(
        state, roles=("knight", "goblins", "dragon", "cave"), dragon=dragon or DragonRole(x=1, y=0, hand=HAND)
    )


OPEN = "treasure-room-01"  # an open tile: no walls
TUNNEL = "ambush-05"  # walls N and S at rotation 0


# --- Preparazione, Statistiche -------------------------------------------------------------------


def test_setup_health_5_fourteen_sloth_cubes_three_cards_and_placed_on_the_knight__rulebook_preparazione():
    created = GameCreated(
        ruleset="vast",
        setup=msgspec.Raw(msgspec.json.encode({"roles": ["knight", "goblins", "dragon", "cave"]})),
        seats=tuple(Seat(name=r, controls=(r,)) for r in ("knight", "goblins", "dragon", "cave")),
    )
    p = Play(RULESET.initial_state(created))
    d = p.state.dragon
    assert (d.health, sum(d.sloth.values()), d.eaten, d.x) == (5, 14, 0, None)
    p.do(Begin())
    draws = []
    for _ in range(50):
        pending = p.pending
        if isinstance(pending, DrawRequested) and pending.deck == "power":
            draws.append(pending.count)
        if pending is None:
            break
        p.settle() if not isinstance(pending, DrawRequested) else p.draw(*pending.cards[: pending.count])
    assert draws == [3]
    assert len(p.state.dragon.hand) == 3
    # its first turn places it on the Knight's tile (Vast rulebook §Il Drago, Preparazione)
    k = p.state.knight
    events = start_turn(replace(p.state, turn="goblins"), "dragon", 1)
    assert ev.DragonPlaced(x=k.x, y=k.y) in events


def test_without_the_knight_the_dragon_starts_on_the_entrance__rulebook_preparazione():
    state = replace(dragon_table(dragon=DragonRole(hand=HAND)), knight=None, roles=("dragon", "cave"))
    assert ev.DragonPlaced(x=0, y=0) in start_turn(state, "dragon", 1)


@pytest.mark.parametrize(
    "awake_cubes,armor_,spirit_",
    [(0, 1, 3), (1, 1, 3), (2, 1, 4), (4, 2, 4), (6, 2, 5), (8, 3, 5), (10, 3, 6), (12, 4, 6), (14, 4, 7)],
)
def test_armor_and_spirit_by_wakefulness__rulebook_statistiche_vf4_table(awake_cubes, armor_, spirit_):
    left = 14 - awake_cubes
    tracks = {}
    for name, room in SLOTH_ROOM.items():
        tracks[name] = min(room, left)
        left -= tracks[name]
    d = DragonRole(sloth=tracks)
    assert (wakefulness(d), armor(d), spirit(d)) == (awake_cubes, armor_, spirit_)


# --- 1. Muovi e Usa i Poteri, Limitazioni di Movimento ------------------------------------------------


def test_free_move_is_1_or_2_tiles_in_a_straight_line_once_a_turn__rulebook_muovi_e_usa_i_poteri():
    state = dragon_table(lit(1, 0, OPEN), lit(2, 0, OPEN), lit(3, 0, OPEN), lit(2, 1, OPEN))
    assert refused(state, cmd.MoveDragon(x=2, y=1)) == "vast.dragon.move"  # not straight
    assert refused(state, cmd.MoveDragon(x=1, y=3)) == "vast.dragon.move"  # 3 tiles
    p = Play(state)
    p.do(cmd.MoveDragon(x=3, y=0))
    assert (p.state.dragon.x, p.state.dragon.y) == (3, 0)
    assert refused(p.state, cmd.MoveDragon(x=2, y=0)) == "vast.dragon.moved"


def test_underground_it_crosses_walls_and_enters_dark_tiles__rulebook_limitazioni_di_movimento():
    state = dragon_table(lit(1, 0, TUNNEL), dark(1, 1, "ambush-01"), dragon=DragonRole(x=1, y=0, hand=HAND))
    p = Play(state)
    p.do(cmd.MoveDragon(x=1, y=1))  # through the tunnel's north wall onto a Dark tile
    assert (p.state.dragon.x, p.state.dragon.y) == (1, 1)
    assert not p.of(ev.TileRevealed)  # its piece reveals nothing


def test_surfaced_it_obeys_walls_and_stays_off_dark_tiles__rulebook_limitazioni_di_movimento():
    d = DragonRole(x=1, y=0, hand=HAND, awake=True, surfaced=True)
    state = dragon_table(lit(1, 0, TUNNEL), lit(1, 1, OPEN), dark(2, 0, "ambush-01"), dragon=d)
    assert refused(state, cmd.MoveDragon(x=1, y=1)) == "vast.dragon.wall"  # the wall
    assert refused(state, cmd.MoveDragon(x=2, y=0)) == "vast.dragon.dark-tile"  # a Dark tile
    # Wing: 1 tile through a wall (Vast rulebook §Poteri, Ala)
    p = Play(state)
    p.do(cmd.UsePower(power="wing", x=1, y=1, pay=("wing-1",)))
    assert (p.state.dragon.x, p.state.dragon.y) == (1, 1)


def test_surfaced_entering_her_tile_is_her_attack_when_strong_enough__rulebook_limitazioni_di_movimento():
    d = DragonRole(
        x=1, y=0, hand=HAND, awake=True, surfaced=True, sloth=sloth(greed=0, hunger=0, pride_events=3)
    )
    knight = KnightRole(x=2, y=0)  # Strength 1 off her turn; Armor 3 at Wakefulness 9
    state = dragon_table(lit(1, 0, OPEN), lit(2, 0, OPEN), dragon=d, knight=knight)
    p = Play(state)
    p.do(cmd.MoveDragon(x=2, y=0))
    assert not p.of(ev.DragonAttacked)  # too weak to attack it
    weak_armor = replace(d, sloth=sloth())  # Armor 1 = her Strength: the Dragon die decides
    p = Play(replace(state, dragon=weak_armor))
    p.do(cmd.MoveDragon(x=2, y=0))
    assert isinstance(p.pending, RollRequested) and p.pending.reason.startswith("dragon-attack:")
    p.roll(1)  # center: a hit
    assert p.of(ev.DragonAttacked)[0].hit and p.state.dragon.health == 4


# --- Poteri and their payment --------------------------------------------------------------------------


def test_a_power_is_paid_with_its_symbols_and_a_question_mark_takes_any__rulebook_poteri():
    state = dragon_table(lit(1, 0, OPEN), dark(1, 1, "event-01"), dark(2, 0, "ambush-01"))
    assert refused(state, cmd.UsePower(power="burn", x=1, y=1, pay=("flame-1", "flame-2"))) == (
        "vast.dragon.cannot-pay"
    )  # Burn is Flame + Wing
    assert refused(state, cmd.UsePower(power="burn", x=1, y=1, pay=("flame-1", "wing-9"))) == (
        "vast.dragon.not-in-hand"
    )
    p = Play(state)
    p.do(cmd.UsePower(power="shriek", pay=("claw-1", "wing-2")))  # ? + ?
    used = p.of(ev.PowerUsed)[0]
    assert (
        used.cards == ("claw-1", "wing-2") and "claw-1" not in p.state.dragon.hand and p.state.dragon.shriek
    )


def test_each_gem_on_the_map_lends_its_symbol_once_a_turn__rulebook_muovi_e_usa_i_poteri():
    d = DragonRole(x=1, y=0, hand=("claw-1",), gems=("flame", "wing"))
    state = dragon_table(lit(1, 0, OPEN, gems=("claw",)), lit(2, 0, OPEN), dragon=d)
    p = Play(state)
    # Claw paid by the Gem first (the cheapest payment), the card stays in hand
    p.do(cmd.UsePower(power="claw"))
    assert p.of(ev.PowerUsed)[0].gems == ("claw",) and p.state.dragon.hand == ("claw-1",)
    p.roll(1)
    # the Gem's symbol is used for this turn: the second Claw takes the card
    p.do(cmd.UsePower(power="claw"))
    assert p.of(ev.PowerUsed)[1].cards == ("claw-1",)
    p.roll(1)
    assert refused(p.state, cmd.UsePower(power="claw")) == "vast.dragon.cannot-pay"
    assert refused(p.state, cmd.UsePower(power="claw", pay=("gem:claw",))) == "vast.dragon.gem-used"


def test_claw_scatters_tribes_hit_the_dragon_eats_and_may_push_the_knight__rulebook_poteri_artiglio():
    gob = GoblinsRole(phase="", tribes=tribes(fangs={"population": 3, "x": 1, "y": 1}))
    knight = KnightRole(x=2, y=0)
    state = dragon_table(
        lit(1, 0, OPEN), lit(1, 1, OPEN), lit(2, 0, OPEN), lit(3, 0, OPEN), gob=gob, knight=knight
    )
    p = Play(state)
    p.do(cmd.UsePower(power="claw", pay=("claw-1",)))
    p.roll(2)  # diamond: the 4 orthogonal neighbours
    scattered = p.of(ev.TribeScattered)
    assert [s.tribe for s in scattered] == ["fangs"] and p.state.dragon.eaten == 2
    assert isinstance(p.pending, DecisionRequested) and p.pending.decision == "claw-push"
    p.choose("3,0")
    assert (p.state.knight.x, p.state.knight.y) == (3, 0)


def test_flame_reveals_dark_tiles_hit_and_an_event_tile_moves_a_pride_cube__rulebook_poteri_fiamma():
    state = dragon_table(lit(1, 0, OPEN), dark(1, 1, "event-01"), dark(2, 0, "ambush-01"))
    p = Play(state)
    p.do(cmd.UsePower(power="flame", pay=("flame-1",)))
    p.roll(2)
    p.settle()
    revealed = {(e.x, e.y) for e in p.of(ev.TileRevealed)}
    assert revealed >= {(1, 1), (2, 0)}
    assert p.state.dragon.sloth["pride-events"] == 3 and "pride" in p.state.dragon.advanced
    assert not p.of(ev.VastAmbushResolved)  # an Ambush tile revealed by the Dragon attacks nobody


def test_hiss_hides_a_tribe_anywhere_minus_1_and_the_dragon_eats_1__rulebook_poteri_sibilo():
    gob = GoblinsRole(phase="", tribes=tribes(eye={"population": 3, "x": 0, "y": 1}))
    state = dragon_table(lit(1, 0, OPEN), lit(0, 1, OPEN), gob=gob)
    p = Play(state)
    p.do(cmd.UsePower(power="hiss", tribe="eye", pay=("claw-1", "claw-2")))
    eye = p.state.goblins.tribes[2]
    assert (eye.population, eye.x, p.state.dragon.eaten, p.state.goblins.rage) == (2, None, 1, 2)
    assert refused(p.state, cmd.UsePower(power="hiss", tribe="eye")) == "vast.dragon.target"  # hidden now


def test_slither_moves_a_cube_to_a_track_with_room__rulebook_poteri_striscio():
    d = DragonRole(x=1, y=0, hand=HAND, sloth=sloth(greed=3))
    state = dragon_table(lit(1, 0, OPEN), dragon=d)
    assert refused(state, cmd.UsePower(power="slither", source="hunger", target="pride-events")) == (
        "vast.dragon.target"
    )  # Pride (Events) is full
    p = Play(state)
    p.do(cmd.UsePower(power="slither", source="hunger", target="greed"))
    assert (p.state.dragon.sloth["hunger"], p.state.dragon.sloth["greed"]) == (3, 4)


def test_swat_sends_a_gem_or_treasure_up_to_5_spaces_in_a_line__rulebook_poteri_colpo():
    cells = [lit(1, 0, OPEN), lit(1, 1, OPEN, treasure=1)] + [lit(1, y, OPEN) for y in range(2, 8)]
    state = dragon_table(*cells)
    assert refused(state, cmd.UsePower(power="swat", from_x=1, from_y=1, token="treasure", x=1, y=7)) == (
        "vast.dragon.target"
    )  # 6 spaces
    p = Play(state)
    p.do(cmd.UsePower(power="swat", from_x=1, from_y=1, token="treasure", x=1, y=6))
    cells_now = {(c.x, c.y): c for c in p.state.cells}
    assert cells_now[(1, 1)].treasure == 0 and cells_now[(1, 6)].treasure == 1


def test_scorch_reveals_every_dark_tile_around_and_burn_any_one__rulebook_poteri_ustione_bruciatura():
    state = dragon_table(lit(1, 0, OPEN), dark(2, 1, "ambush-01"), dark(5, 5, "ambush-02"), sealed=False)
    p = Play(state)
    p.do(cmd.UsePower(power="scorch", pay=("flame-1", "flame-2")))
    assert p.of(ev.PowerStruck)[0].tiles == ((2, 1),)
    p.settle()
    p.do(cmd.UsePower(power="burn", x=5, y=5, pay=("flame-3", "wing-1")))
    p.settle()
    assert {(e.x, e.y) for e in p.of(ev.TileRevealed)} >= {(2, 1), (5, 5)}


def test_slap_pushes_the_adjacent_knight_up_to_3_spaces__rulebook_poteri_schiaffo():
    cells = [lit(x, 0, OPEN) for x in range(1, 7)]
    state = dragon_table(*cells, knight=KnightRole(x=2, y=0))
    assert refused(state, cmd.UsePower(power="slap", x=6, y=0)) == "vast.dragon.target"  # 3 spaces only
    p = Play(state)
    p.do(cmd.UsePower(power="slap", x=4, y=0, pay=("wing-1", "wing-2")))
    assert (p.state.knight.x, p.state.knight.y) == (4, 0)


def test_shriek_re_rolls_the_dragon_die_once__rulebook_poteri_strillo():
    state = dragon_table(lit(1, 0, OPEN), dragon=DragonRole(x=1, y=0, hand=HAND, shriek=True))
    p = Play(state)
    p.do(cmd.UsePower(power="flame", pay=("flame-1",)))
    p.roll(1)
    assert isinstance(p.pending, DecisionRequested) and p.pending.options == ("keep", "reroll")
    p.choose("reroll")
    assert p.of(ev.ShriekSpent) and isinstance(p.pending, RollRequested) and not p.state.dragon.shriek
    p.roll(6)
    assert p.of(ev.PowerStruck)[0].face == 6  # no second re-roll: the token is spent


def test_scratch_costs_the_knight_5_grit_and_tribes_drop_to_0__rulebook_poteri_graffio():
    gob = GoblinsRole(phase="", tribes=tribes(bones={"population": 3, "x": 1, "y": 0}))
    state = dragon_table(lit(1, 0, OPEN), gob=gob, knight=KnightRole(x=1, y=0, grit=9))
    p = Play(state)
    p.do(cmd.UsePower(power="scratch", pay=("claw-1", "claw-2", "claw-3")))
    bones = p.state.goblins.tribes[1]
    assert (bones.population, bones.x) == (0, None)
    assert p.of(ev.GoblinsEaten)[0].count == 3  # 3 eaten, 2 of them then pay a Hunger cube
    assert (p.state.dragon.eaten, p.state.dragon.sloth["hunger"]) == (1, 3)
    assert p.state.knight.grit == 4


def test_flame_wall_burns_the_knight_once_and_returns_at_its_next_turn__rulebook_poteri_muro_di_fiamme():
    state = dragon_table(
        lit(1, 0, OPEN), lit(1, 1, OPEN), lit(2, 1, OPEN), knight=KnightRole(x=2, y=1, grit=12)
    )
    assert refused(state, cmd.UsePower(power="flame-wall", x=2, y=1)) == "vast.dragon.target"  # not adjacent
    p = Play(state)
    p.do(cmd.UsePower(power="flame-wall", x=1, y=1, pay=("flame-1", "flame-2", "flame-3")))
    assert p.state.dragon.flame_wall == (1, 1)
    knight_turn = replace(p.state, turn="knight", knight=replace(p.state.knight, placed={"movement": 1}))
    k = Play(knight_turn)
    k.do(cmd.MoveKnight(x=1, y=1))
    assert k.of(ev.FlameWallBurned)[0].piece == "knight" and k.state.knight.grit == 7
    k.do(cmd.MoveKnight(x=2, y=1))
    k.do(cmd.MoveKnight(x=1, y=1))
    assert len(k.of(ev.FlameWallBurned)) == 1  # the first entry only
    assert ev.FlameWallReturned() in start_turn(replace(k.state, turn="goblins"), "dragon", 2)


def test_smash_destroys_the_crystal_on_its_tile__rulebook_poteri_distruzione():
    state = dragon_table(lit(1, 0, "crystal-01", crystal=True))
    p = Play(state)
    p.do(cmd.UsePower(power="smash", pay=("claw-1", "flame-1", "wing-1")))
    assert p.of(ev.CrystalDestroyed) and not p.state.cells[1].crystal
    assert p.state.smashed_total == 0  # nobody smashed it


def test_wrath_in_revision_2_games_spares_a_tile_that_would_split_the_map__rulebook_poteri_collera():
    # (1,0) Dragon; (1,1) crystal tile; (2,0) joins (3,0) to the rest: its fall would split the map
    cells = [lit(1, 0, OPEN), lit(1, 1, "crystal-02"), lit(2, 0, OPEN), lit(3, 0, OPEN), lit(1, -1, OPEN)]
    state = dragon_table(*cells, sealed=False, knight=KnightRole(x=0, y=0))
    p = Play(state)
    p.do(cmd.UsePower(power="wrath", pay=("claw-1", "claw-2", "flame-1", "wing-1")))
    p.roll(2)  # diamond: (1,1), (2,0), (1,-1), (0,0) the Entrance
    p.settle()
    collapsed = {(e.x, e.y) for e in p.of(ev.TileCollapsed)}
    assert collapsed == {(1, 1), (1, -1)}
    assert p.state.crystal_tiles_collapsed == 1  # the Crystal tile counts for the Cave
    assert "treasure-room-01" in p.state.stack  # before the Collapse the others go back under the stack


def wrath_split(**kw):
    """(1,0) the Dragon; (2,0) joins (3,0), with the Knight and a Treasure token, to the rest; a Rockslide
    between (3,0) and (4,0), one between (2,0) and (3,0)."""
    cells = [lit(1, 0, OPEN), lit(2, 0, OPEN), lit(3, 0, OPEN, treasure=1), lit(4, 0, OPEN)]
    state = dragon_table(*cells, sealed=False, knight=KnightRole(x=3, y=0), rules_revision=3, **kw)
    state = replace(state, rockslides=((3, 0, "E"), (2, 0, "E")))
    p = Play(state)
    p.do(cmd.UsePower(power="wrath", pay=("claw-1", "claw-2", "flame-1", "wing-1")))
    p.roll(3)  # the cross: (1,1), (2,0), (1,-1), (0,0) the Entrance
    return p


def test_wrath_splitting_the_map_has_the_dragon_slide_the_group_back__rulebook_il_collasso_esempio_2():
    p = wrath_split()
    while not (isinstance(p.pending, DecisionRequested) and p.pending.decision == "slide"):
        p.default() if isinstance(p.pending, DecisionRequested) else p.draw(*p.pending.cards[:1])
    assert {(e.x, e.y) for e in p.of(ev.TileCollapsed)} >= {(2, 0)}
    assert p.pending.piece == "dragon" and p.pending.default == "3,0:W:1"  # the shortest slide first
    assert not [e for e in p.of(ev.DarkTilePlaced) if (e.x, e.y) == (2, 0)]  # no fill before the slide
    p.choose("3,0:W:1")
    slid = p.of(ev.MapGroupSlid)[0]
    assert (slid.tiles, slid.dx, slid.dy, slid.step) == (((3, 0), (4, 0)), -1, 0, "reunite")
    cells = {(c.x, c.y): c for c in p.state.cells}
    assert (4, 0) not in cells and cells[(2, 0)].treasure == 1  # the tile and its token moved
    assert (p.state.knight.x, p.state.knight.y) == (2, 0)  # and the Knight on it
    # the Rockslide between the moved tiles moved with them; the one on (2,0)'s edge went back with its tile
    assert p.state.rockslides == ((2, 0, "E"),) and p.state.cave.rockslides == CaveRole().rockslides + 1
    assert "reunite" not in p.state.todo


def test_each_group_cut_off_slides_until_the_map_is_whole__rulebook_esempio_2():
    cells = [lit(1, 0, OPEN), lit(1, 1, OPEN), lit(1, 2, OPEN), lit(2, 0, OPEN), lit(3, 0, OPEN)]
    p = Play(dragon_table(*cells, sealed=False, knight=KnightRole(x=0, y=0), rules_revision=3))
    p.do(cmd.UsePower(power="wrath", pay=("claw-1", "claw-2", "flame-1", "wing-1")))
    p.roll(3)  # the cross round (1,0): (1,1) and (2,0) fall, cutting off (1,2) and (3,0)
    while not (isinstance(p.pending, DecisionRequested) and p.pending.decision == "slide"):
        p.default() if isinstance(p.pending, DecisionRequested) else p.draw(*p.pending.cards[:1])
    assert set(p.pending.options) >= {"1,2:S:1", "3,0:W:1"}
    p.choose("1,2:S:1")
    assert p.of(ev.MapGroupSlid)[0].step == "" and p.pending.options == ("3,0:W:1",)  # still split
    p.choose("3,0:W:1")
    assert p.of(ev.MapGroupSlid)[1].step == "reunite"
    assert {(c.x, c.y) for c in p.state.cells} >= {(0, 0), (1, 0), (1, 1), (2, 0)}


def test_wrath_during_the_collapse_still_spares_a_tile_that_would_split_the_map__rulebook_il_collasso():
    p = wrath_split(collapse=True)
    p.settle()
    assert (2, 0) not in {(e.x, e.y) for e in p.of(ev.TileCollapsed)} and not p.of(ev.MapGroupSlid)


# --- Risveglio e Risalita in Superficie ------------------------------------------------------------------


def test_two_goblins_eaten_move_a_hunger_cube_one_a_turn__rulebook_risveglio():
    gob = GoblinsRole(phase="", tribes=tribes(fangs={"population": 4, "x": 1, "y": 0}))
    state = dragon_table(lit(1, 0, OPEN), gob=gob)
    p = Play(state)
    p.do(cmd.UsePower(power="scratch", pay=("claw-1", "claw-2", "claw-3")))  # eats 4
    assert p.state.dragon.sloth["hunger"] == 3 and p.state.dragon.eaten == 2  # one cube a turn
    assert len([e for e in p.of(ev.SlothCubeMoved) if e.source == "hunger"]) == 1


def test_a_treasure_token_collected_moves_a_greed_cube_and_ends_its_movement__rulebook_raccogli_un_tesoro():
    state = dragon_table(lit(1, 0, OPEN, treasure=2), lit(2, 0, OPEN))
    p = Play(state)
    p.do(cmd.DragonCollect())
    d = p.state.dragon
    assert (d.sloth["greed"], d.held, p.state.cave.supply) == (3, 1, 12)  # one kept for a later turn
    assert refused(p.state, cmd.MoveDragon(x=2, y=0)) == "vast.dragon.phase-over"


def test_a_gem_placed_with_another_on_the_map_moves_a_pride_cube__rulebook_posa_una_gemma():
    d = DragonRole(x=1, y=0, hand=HAND, gems=("flame", "wing"))
    state = dragon_table(lit(1, 0, OPEN), lit(2, 0, OPEN, gems=("claw",)), dragon=d)
    p = Play(state)
    p.do(cmd.PlaceGem(gem="flame"))
    assert p.state.dragon.sloth["pride-gem"] == 0 and p.state.cells[1].gems == ("flame",)
    assert refused(p.state, cmd.PlaceGem(gem="wing")) == "vast.dragon.phase-over"  # one Gem a turn


def test_a_turn_without_moving_moves_a_pride_cube_then_the_hand_is_replaced__rulebook_rimpiazza_la_mano():
    state = dragon_table(lit(1, 0, OPEN))
    p = Play(state)
    p.do(cmd.VastEndTurn(role="dragon"))
    assert p.state.dragon.sloth["pride-still"] == 0
    discarded = p.of(ev.PowerCardsDiscarded)[0]
    assert discarded.cards == HAND
    assert isinstance(p.pending, DrawRequested) and p.pending.count == spirit(p.state.dragon)
    assert len(p.pending.cards) == 18  # all Power cards reshuffled
    p.draw("claw-1", "wing-6", "flame-4")
    assert p.state.turn == "cave" and p.state.dragon.hand == ("claw-1", "flame-4", "wing-6")


def test_eleven_wakefulness_awakens_for_good_and_a_lit_crystal_tile_surfaces_it__rulebook_risalire():
    d = DragonRole(
        x=1, y=0, hand=HAND, sloth=sloth(greed=0, hunger=0, pride_events=2, pride_still=1, pride_gem=0)
    )
    state = dragon_table(lit(1, 0, "crystal-01", crystal=True), lit(2, 0, OPEN), dragon=d)
    p = Play(state)
    p.do(cmd.MoveDragon(x=2, y=0))
    p.do(cmd.UsePower(power="wing", x=1, y=0, pay=("wing-1",)))
    p.do(cmd.VastEndTurn(role="dragon"))  # it moved: no Pride cube; Wakefulness 11 wakes it
    assert p.of(ev.DragonAwoke) and p.of(ev.DragonSurfaced)[0].crystal
    assert p.state.dragon.surfaced and not p.state.cells[1].crystal


def test_surfaced_it_wins_on_reaching_the_entrance__rulebook_il_drago_come_vincere():
    d = DragonRole(x=1, y=0, hand=HAND, awake=True, surfaced=True)
    state = dragon_table(lit(1, 0, OPEN), dragon=d, knight=KnightRole(x=0, y=1))
    p = Play(state)
    p.do(cmd.MoveDragon(x=0, y=0))
    assert p.state.winner == "dragon"


def test_spores_move_a_wakefulness_cube_back_where_the_dragon_chooses__rulebook_presagi_spore_soporifere():
    d = DragonRole(x=1, y=0, hand=HAND, sloth=sloth(greed=2))
    cave_omens = ("quartz-1", "quartz-2", "mushroom-1")
    state = dragon_table(lit(1, 0, OPEN), dragon=d, turn="cave")
    state = replace(state, cave=replace(state.cave, omens=cave_omens))
    p = Play(state)
    p.do(cmd.SoporificSpores(pay=cave_omens, target="dragon"))
    assert p.pending.piece == "dragon" and p.pending.options == ("greed",)
    p.choose("greed")
    assert p.state.dragon.sloth["greed"] == 3


# --- the Knight against the Dragon (Vast rulebook §Incontrare il Drago, §Attaccare il Drago)
# ----------------------


def knight_turn(*cells, dragon: DragonRole, **k):
    return dragon_table(lit(1, 0, OPEN), *cells, dragon=dragon, turn="knight", knight=KnightRole(**k))


def test_underground_before_the_collapse_only_the_bomb_attacks_once_a_turn__rulebook_attaccare_il_drago():
    d = DragonRole(x=1, y=0, hand=HAND)  # Armor 1
    state = knight_turn(dragon=d, x=1, y=0, placed={"strength": 1})  # Strength 2
    assert refused(state, cmd.AttackDragon()) == "vast.dragon.underground"
    assert refused(state, cmd.AttackDragon(bomb=True)) == "vast.bomb.no-cube"
    bomb = replace(state, knight=replace(state.knight, placed={"strength": 1, "bomb": 1, "perception": 1}))
    p = Play(bomb)
    p.do(cmd.AttackDragon(bomb=True))
    assert p.of(ev.DragonAttacked)[0].hit and p.state.dragon.health == 4
    assert refused(p.state, cmd.AttackDragon(bomb=True)) == "vast.dragon.once"
    collapsing = replace(state, collapse=True)
    Play(collapsing).do(cmd.AttackDragon())  # during the Collapse no Bomb is needed


def test_surfaced_it_is_attacked_once_per_encounter_equal_strength_rolls__rulebook_attaccare_il_drago():
    d = DragonRole(x=1, y=0, hand=HAND, awake=True, surfaced=True, sloth=sloth(greed=0))  # Armor 2
    state = knight_turn(dragon=d, x=1, y=0, placed={"strength": 1, "perception": 2})  # Strength 2 = Armor
    p = Play(state)
    p.do(cmd.AttackDragon())
    assert isinstance(p.pending, RollRequested)
    p.roll(2)  # diamond: no center, a miss
    assert not p.of(ev.DragonAttacked)[0].hit
    p.do(cmd.AttackDragon())
    p.roll(3)  # cross: the center, a hit
    assert p.of(ev.DragonAttacked)[1].hit and p.state.dragon.health == 4
    weaker = replace(state, knight=replace(state.knight, placed={}))
    assert refused(weaker, cmd.AttackDragon()) == "vast.dragon.too-strong"


def test_entering_the_surfaced_dragon_costs_strength_up_to_armor_and_attacks__rulebook_incontrare_il_drago():
    d = DragonRole(x=1, y=0, hand=HAND, awake=True, surfaced=True)  # Armor 1
    state = knight_turn(dragon=d, x=0, y=0, placed={"strength": 1})  # Strength 2
    p = Play(state)
    p.do(cmd.MoveKnight(x=1, y=0))
    assert p.of(ev.EncounterBegun)[0].attack and p.of(ev.DragonAttacked)[0].hit
    strong = replace(d, sloth=sloth(greed=0, hunger=0))  # Armor 3
    assert refused(replace(state, dragon=strong), cmd.MoveKnight(x=1, y=0)) == "vast.move.dragon-too-strong"
    # underground she walks onto its tile freely
    q = Play(replace(state, dragon=replace(d, surfaced=False, awake=False)))
    q.do(cmd.MoveKnight(x=1, y=0))
    assert not q.of(ev.DragonAttacked) and not q.of(ev.EncounterBegun)


def test_the_dragons_last_health_lost_wins_the_game_for_the_knight__rulebook_attaccare_il_drago():
    d = DragonRole(x=1, y=0, hand=HAND, awake=True, surfaced=True, health=1)
    p = Play(knight_turn(dragon=d, x=1, y=0, placed={"strength": 1}))
    p.do(cmd.AttackDragon())
    assert p.of(ev.DragonDied) and p.state.winner == "knight"


def test_a_gem_the_knight_picks_up_rolls_the_dragon_die_and_goes_back__rulebook_tesori_e_gemme():
    d = DragonRole(x=2, y=0, hand=HAND, gems=("flame", "wing"))
    state = knight_turn(lit(2, 0, OPEN), dragon=d, x=1, y=0, grit=10)
    state = replace(
        state, cells=tuple(replace(c, gems=("claw",)) if (c.x, c.y) == (1, 0) else c for c in state.cells)
    )
    p = Play(state)
    p.do(cmd.CollectTreasure())
    assert isinstance(p.pending, RollRequested) and p.pending.reason == "gem:knight:claw:1,0"
    p.roll(5)  # saltire: the center, a trap
    assert p.of(ev.GemTaken)[0].trapped and p.state.knight.grit == 8
    assert p.state.dragon.gems == ("claw", "flame", "wing") and "feat:cunning" in p.state.knight.feats


def test_a_tribe_plundering_a_gem_rolls_the_dragon_die__rulebook_razziare():
    gob = GoblinsRole(phase="activate", tribes=tribes(fangs={"population": 2, "x": 1, "y": 1}))
    d = DragonRole(x=2, y=0, hand=HAND, gems=("flame", "wing"))
    state = dragon_table(lit(1, 0, OPEN), lit(1, 1, OPEN, gems=("claw",)), lit(2, 0, OPEN), gob=gob, dragon=d)
    state = replace(state, turn="goblins")
    p = Play(state)
    p.do(cmd.ActivateTribe(tribe="fangs", action="plunder"))
    p.roll(4)  # corners: no center, Rage +1
    assert not p.of(ev.GemTaken)[0].trapped and p.state.goblins.rage == 2 and "claw" in p.state.dragon.gems


def test_a_collapsing_tile_under_the_dragon_has_it_step_off__rulebook_il_collasso():
    d = DragonRole(x=2, y=0, hand=HAND)
    state = dragon_table(lit(1, 0, OPEN), lit(2, 0, OPEN), dragon=d, turn="cave", collapse=True, sealed=False)
    p = Play(state)
    p.do(cmd.RemoveTile(x=2, y=0))
    assert p.pending.decision == "dragon-off:2,0" and p.pending.piece == "dragon"
    p.choose("1,0")
    assert (p.state.dragon.x, p.state.dragon.y) == (1, 0) and p.of(ev.TileRemoved)


# --- Treasures and Secrets against the Dragon (Vast rulebook §Tesori; docs/vast/facts.md §3 Secrets)
# ---------------------------------


def test_the_javelin_attacks_it_underground_at_plus_1_and_leaves_the_game__rulebook_tesori_giavellotto():
    d = DragonRole(x=1, y=0, hand=HAND, sloth=sloth(greed=0))  # Armor 2
    state = knight_turn(dragon=d, x=1, y=0, treasures=("javelin",), placed={"strength": 1})  # Strength 2
    p = Play(state)
    p.do(cmd.AttackDragon(with_javelin=True))  # underground, before the Collapse, at Strength 3
    assert p.of(ev.DragonAttacked)[0].hit and p.of(ev.DragonAttacked)[0].strength == 3
    assert "javelin" not in (*p.state.knight.treasures, *p.state.knight.face_up)
    assert refused(state, cmd.AttackDragon(with_javelin=True, bomb=True)) == "vast.dragon.javelin"


def test_the_mighty_axe_cube_is_discarded_for_a_second_health_point__rulebook_tesori_ascia_possente():
    d = DragonRole(x=1, y=0, hand=HAND, awake=True, surfaced=True)  # Armor 1
    state = knight_turn(dragon=d, x=1, y=0, face_up=("mighty-axe",), placed={"mighty-axe": 1}, grit=5)
    p = Play(state)
    p.do(cmd.AttackDragon())  # Strength 2 with the Axe
    assert p.pending.decision == "axe"
    p.choose("strike")
    assert p.state.dragon.health == 3 and p.state.knight.discarded == 1
    assert "mighty-axe" not in p.state.knight.placed


def test_the_enchanted_bow_has_it_discard_strength_less_1_cards_it_picks__rulebook_tesori_arco_incantato():
    d = DragonRole(x=1, y=4, hand=("claw-1", "flame-2", "wing-3"))
    cells = [lit(1, y, OPEN) for y in range(1, 6)]
    state = knight_turn(*cells, dragon=d, x=1, y=0, face_up=("enchanted-bow",), placed={"strength": 2})
    assert refused(state, cmd.ShootDragon()) == "vast.dragon.bow"  # no cube on the Bow
    armed = replace(state, knight=replace(state.knight, placed={"strength": 2, "enchanted-bow": 1}))
    p = Play(armed)
    p.do(cmd.ShootDragon())  # 4 tiles away, Strength 3: 2 cards
    assert p.of(ev.DragonShot)[0].discards == 2 and p.pending.piece == "dragon"
    p.choose("wing-3")
    p.choose("claw-1")
    assert p.state.dragon.hand == ("flame-2",)
    assert refused(p.state, cmd.ShootDragon()) == "vast.dragon.bow"  # once a turn
    far = replace(armed, dragon=replace(d, x=2, y=4))
    assert refused(far, cmd.ShootDragon()) == "vast.dragon.bow"  # not in a straight line


def test_hex_on_the_dragon_discards_the_eyes_population__vf3_secrets_hex():
    gob = GoblinsRole(phase="activate", hand=("hex",), tribes=tribes(eye={"population": 2}))
    state = replace(dragon_table(lit(1, 0, OPEN), gob=gob), turn="goblins")
    p = Play(state)
    p.do(cmd.PlaySecret(card="hex"))
    assert p.pending.decision == "hex-target" and p.pending.piece == "goblins"
    p.choose("dragon")
    assert p.pending.decision == "power-discard:2:hex"
    p.default()
    p.default()
    assert len(p.state.dragon.hand) == len(HAND) - 2


def test_a_face_up_trap_cancels_a_power_aimed_at_a_tribe__vf3_secrets_trap():
    gob = GoblinsRole(phase="", face_up=("trap",), tribes=tribes(eye={"population": 3, "x": 0, "y": 1}))
    state = dragon_table(lit(1, 0, OPEN), lit(0, 1, OPEN), gob=gob)
    p = Play(state)
    p.do(cmd.UsePower(power="hiss", tribe="eye", pay=("claw-1", "claw-2")))
    assert p.pending.piece == "goblins" and p.pending.decision == "trap:hiss:eye"
    p.choose("cancel")
    eye = p.state.goblins.tribes[2]
    assert (eye.population, eye.x) == (3, 0) and "trap" not in p.state.goblins.face_up
    assert "trap" in p.state.secrets_discard and "claw-1" not in p.state.dragon.hand  # the Power is paid


def test_a_tribe_plunders_the_dragon_itself_only_with_no_gem_on_the_map__rulebook_razziare():
    gob = GoblinsRole(phase="activate", tribes=tribes(fangs={"population": 2, "x": 1, "y": 0}))
    state = replace(dragon_table(lit(1, 0, OPEN), gob=gob), turn="goblins")  # Fangs Strength 3 > Armor 1
    p = Play(state)
    p.do(cmd.ActivateTribe(tribe="fangs", action="plunder"))
    p.roll(6)  # around: no center
    taken = p.of(ev.GemTaken)[0]
    assert (
        taken.from_dragon and p.state.goblins.rage == 2 and p.state.dragon.gems == ("claw", "flame", "wing")
    )
    with_gem = replace(state, cells=(*state.cells[:1], lit(2, 2, OPEN, gems=("claw",)), *state.cells[1:]))
    with_gem = replace(with_gem, dragon=replace(with_gem.dragon, gems=("flame", "wing")))
    assert refused(with_gem, cmd.ActivateTribe(tribe="fangs", action="plunder")) == "vast.goblins.no-treasure"


# --- the setups with the Dragon and without the Knight or the Goblins (docs/vast/facts.md §7)
# -------------------------------


def test_knight_dragon_cave_ambushes_at_strength_2_and_a_dead_knight_skips_her_turns__vf7_setups():
    d = DragonRole(x=1, y=0, hand=HAND)
    state = replace(
        dragon_table(
            lit(1, 0, OPEN), dragon=d, turn="knight", knight=KnightRole(x=0, y=0, placed={"strength": 1})
        ),
        roles=("knight", "dragon", "cave"),
        goblins=None,
        variants=("infestation:A", "hunger-locked:2"),
    )
    from dicelog.domain.vast.rules.flow import ambush

    p = Play(state)
    p._take(ambush(state))
    assert p.pending.decision == "ambush-cubes" and p.pending.default == "1"  # 1 cube beats line A's 2
    p.choose("0")
    assert isinstance(p.pending, RollRequested)  # Strength 2 against 2: the Dragon die decides
    p.roll(2)
    assert p.of(ev.VastAmbushResolved)[0] == ev.VastAmbushResolved(strength=2, ambusher=2, hurt=False)
    dead = replace(state, knight=replace(state.knight, health=0), turn="cave")
    events = start_turn(dead, "knight", 2)
    p = Play(dead)
    p._take(events)
    from dicelog.domain.vast.rules.flow import advance

    p._take(advance(p.state))
    assert p.state.turn == "dragon" and p.state.winner is None  # she skipped her turn; nobody won by it


# --- Event tokens (rules revision 2) ------------------------------------------------------------------------


def test_an_event_tile_the_dragon_reveals_gets_an_event_token_she_meets__rulebook_rivelare_le_tessere():
    state = replace(dragon_table(lit(1, 0, OPEN), dark(1, 1, "event-01")), rules_revision=2)
    p = Play(state)
    p.do(cmd.UsePower(power="burn", x=1, y=1, pay=("flame-1", "wing-1")))
    p.settle()
    assert p.of(ev.EventTokenPlaced) == [ev.EventTokenPlaced(x=1, y=1)]
    knight = replace(p.state, turn="knight", knight=KnightRole(x=1, y=0, placed={"perception": 1}))
    k = Play(knight)
    k.do(cmd.MoveKnight(x=1, y=1))
    assert k.of(ev.EncounterBegun) and k.of(ev.EventTokenTaken) == [ev.EventTokenTaken(x=1, y=1)]
    assert (
        isinstance(k.pending, DrawRequested) and k.pending.deck == "events"
    )  # the Cave plays an Event on her
    assert not next(c for c in k.state.cells if (c.x, c.y) == (1, 1)).event_token


def test_a_revision_1_game_places_no_event_token__stored_games_replay_as_played():
    state = replace(dragon_table(lit(1, 0, OPEN), dark(1, 1, "event-01")), rules_revision=1)
    p = Play(state)
    p.do(cmd.UsePower(power="burn", x=1, y=1, pay=("flame-1", "wing-1")))
    p.settle()
    assert not p.of(ev.EventTokenPlaced)


def test_giant_bats_stop_on_an_event_token_and_crystal_curse_restores_one__rulebook_esempio_3_presagi():
    from dicelog.domain.vast.rules.tiles import bats_reach

    cells = [lit(1, 0, OPEN), lit(2, 0, "event-02", event_token=True), lit(3, 0, OPEN), lit(4, 0, OPEN)]
    state = replace(dragon_table(*cells, turn="cave"), rules_revision=2)
    reach = bats_reach(state, (0, 0), knight=True)
    assert (2, 0) in reach and (3, 0) not in reach
    spent = replace(state, cells=tuple(replace(c, event_token=False) for c in state.cells))
    spent = replace(spent, cave=replace(spent.cave, omens=("trail-1",)))
    p = Play(spent)
    p.do(cmd.CrystalCurse(pay=("trail-1",), effect="event-token", x=2, y=0))
    assert p.of(ev.EventTokenPlaced) == [ev.EventTokenPlaced(x=2, y=0)]
