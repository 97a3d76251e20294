"""Vast rulebook §Il Ladro, Preparazione, §1. Assegna i Segnalini Statistica and §2. Muovi e Agisci (with
§Arrampicare): the Thief's setup, his Stat decision and Action cubes, his Movement, walls and Climb, looking
at the Dark tile he ends his movement on (his secret) and revealing it without an Ambush, his coming back on
the Entrance after a death, and the Thief's Flare (docs/vast/facts.md §6, §7). Dice, cards and decisions are
explicit."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from dicelog.domain.core.events import DecisionRequested, GameCreated, Seat
from dicelog.domain.core.ruleset import Begin
from dicelog.domain.core.visibility import seat_viewer
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.ruleset import RULESET
from dicelog.domain.vast.state import HIDDEN, CaveRole, KnightRole, ThiefRole
from tests.rulesets.vast.support import Play, dark, lit, refused
from tests.rulesets.vast.thief_support import OPEN, TUNNEL, thief, thief_table, thief_turn

SEATS = tuple(Seat(name=r, controls=(r,)) for r in ("knight", "cave", "thief"))


# --- Preparazione ---------------------------------------------------------------------------------------


def test_setup_twelve_treasure_tokens_six_vaults_loot_drop_3_off_the_map__rulebook_il_ladro_preparazione():
    roles = ["knight", "goblins", "dragon", "cave", "thief"]
    created = GameCreated(
        ruleset="vast",
        setup=msgspec.Raw(msgspec.json.encode({"roles": roles})),
        seats=tuple(Seat(name=r, controls=(r,)) for r in roles),
    )
    state = RULESET.initial_state(created)
    th = state.thief
    assert (th.x, th.y, th.loot_drop, th.stashed, th.upgrades) == (None, None, 3, 0, ())
    # Vast rulebook §La Caverna: 12 with the Thief
    assert state.treasure_tokens == 12 and state.cave.supply == 12
    assert len(state.vaults) == 6
    p = Play(state)
    p.do(Begin())
    p.draw(*p.pending.cards[:4])
    built = p.of(ev.StackBuilt)[0]
    assert built.pile_vaults == (2, 2, 2)  # docs/vast/facts.md §1 Tile stack setup: 2 Vault tiles a pile


# --- 1. Assegna i Segnalini Statistica --------------------------------------------------------------------


def test_first_turn_puts_him_on_the_entrance_then_he_assigns_2_3_4__rulebook_preparazione_1_assegna():
    p = thief_turn(thief_table(th=ThiefRole()))
    assert p.of(ev.ThiefEntered) and (p.state.thief.x, p.state.thief.y) == (0, 0)
    asked = p.pending
    assert isinstance(asked, DecisionRequested) and asked.decision == "thief-stats" and asked.piece == "thief"
    assert sorted(asked.options) == sorted(["2-3-4", "2-4-3", "3-2-4", "3-4-2", "4-2-3", "4-3-2"])
    p.choose("2-3-4")  # Movement 2, Stealth 3, Thievery 4
    th = p.state.thief
    assert (th.movement, th.stealth, th.thievery, th.cubes, th.assigned) == (2, 3, 4, 4, True)


def test_action_cubes_equal_thievery_plus_its_boost__rulebook_1_assegna_migliorie():
    p = thief_turn(thief_table(th=ThiefRole(x=0, y=0, upgrades=("thievery+1",))))
    assert not p.of(ev.ThiefEntered)  # already on the map
    p.choose("3-2-4")
    assert p.state.thief.cubes == 5 and p.of(ev.ThiefStatsAssigned)[0].cubes == 5


def test_no_action_before_the_stat_tokens_are_assigned__rulebook_riepilogo_del_turno():
    state = thief_table(lit(1, 0, OPEN), th=ThiefRole(x=0, y=0))
    assert refused(state, cmd.MoveThief(x=1, y=0)) == "vast.thief.stats-first"
    assert refused(state, cmd.HideLoot(cubes=1)) == "vast.thief.stats-first"


# --- 2. Muovi e Agisci: Movimento ---------------------------------------------------------------------------


def test_movement_is_the_tiles_he_may_move_one_orthogonal_step_at_a_time__rulebook_2_muovi_e_agisci():
    state = thief_table(
        lit(1, 0, OPEN), lit(2, 0, OPEN), lit(3, 0, OPEN), lit(1, 1, OPEN), th=thief(movement=2)
    )
    assert refused(state, cmd.MoveThief(x=1, y=1)) == "vast.move.not-adjacent"  # diagonal
    assert refused(state, cmd.MoveThief(x=2, y=0)) == "vast.move.not-adjacent"  # two tiles
    p = Play(state)
    p.do(cmd.MoveThief(x=1, y=0))
    p.do(cmd.MoveThief(x=2, y=0))
    assert (p.state.thief.x, p.state.thief.moves, p.state.thief.cubes) == (2, 2, 4)  # moving costs no cube
    assert refused(p.state, cmd.MoveThief(x=3, y=0)) == "vast.move.no-movement-left"


def test_the_movement_boost_adds_a_tile__rulebook_migliorie_incremento_delle_statistiche():
    state = thief_table(
        lit(1, 0, OPEN), lit(2, 0, OPEN), lit(3, 0, OPEN), th=thief(movement=2, upgrades=("movement+1",))
    )
    p = Play(state)
    for x in (1, 2, 3):
        p.do(cmd.MoveThief(x=x, y=0))
    assert p.state.thief.x == 3


def test_he_enters_dark_and_occupied_tiles_without_revealing_them__rulebook_2_muovi_e_agisci():
    knight = KnightRole(x=1, y=0)
    state = thief_table(lit(1, 0, OPEN), dark(2, 0, "ambush-01"), knight=knight)
    p = Play(state)
    p.do(cmd.MoveThief(x=1, y=0))  # the Knight's tile
    p.do(cmd.MoveThief(x=2, y=0))  # a Dark tile
    assert (p.state.thief.x, p.state.thief.y) == (2, 0)
    assert not p.of(ev.TileRevealed) and not p.of(ev.EncounterBegun)
    cell = next(c for c in p.state.cells if (c.x, c.y) == (2, 0))
    assert not cell.lit and p.state.knight.health == 7 and p.pending is None


# --- Arrampicare -------------------------------------------------------------------------------------------


def test_a_wall_stops_him_unless_he_climbs_for_2_cubes_and_a_movement__rulebook_arrampicare():
    state = thief_table(lit(1, 0, TUNNEL), lit(1, 1, OPEN), th=thief(1, 0, movement=3, cubes=3))
    assert refused(state, cmd.MoveThief(x=1, y=1)) == "vast.move.wall"
    p = Play(state)
    p.do(cmd.MoveThief(x=1, y=1, climb=True))
    th = p.state.thief
    assert (th.x, th.y, th.cubes, th.moves) == (1, 1, 1, 1)  # Climb spends cubes and still a Movement
    assert p.of(ev.ThiefMoved)[0].climbed == 2


def test_climbing_needs_a_wall_and_two_cubes__rulebook_arrampicare():
    assert refused(thief_table(lit(1, 0, OPEN)), cmd.MoveThief(x=1, y=0, climb=True)) == "vast.climb.no-wall"
    state = thief_table(lit(1, 0, TUNNEL), lit(1, 1, OPEN), th=thief(1, 0, cubes=1))
    assert refused(state, cmd.MoveThief(x=1, y=1, climb=True)) == "vast.thief.no-cubes"


def test_climbing_gear_makes_climb_cost_1_cube__rulebook_arrampicare_attrezzatura_da_arrampicata():
    th = thief(1, 0, cubes=1, upgrades=("climbing-gear",))
    p = Play(thief_table(lit(1, 0, TUNNEL), lit(1, 1, OPEN), th=th))
    p.do(cmd.MoveThief(x=1, y=1, climb=True))
    assert (p.state.thief.y, p.state.thief.cubes) == (1, 0)


# --- 2. Muovi e Agisci: guardare una tessera Buia -----------------------------------------------------------


def test_looking_at_the_dark_tile_ends_his_movement_and_he_may_keep_it_dark__rulebook_2_muovi_e_agisci():
    state = thief_table(dark(1, 0, "treasure-room-02"), lit(-1, 0, OPEN), th=thief(1, 0))
    p = Play(state)
    p.do(cmd.PeekTile())
    assert p.of(ev.TilePeeked)[0].tile == "treasure-room-02"
    asked = p.pending
    assert asked.decision == "peek:1,0" and asked.options == ("reveal", "keep") and asked.default == "keep"
    assert asked.piece == "thief"
    p.choose("keep")
    cell = next(c for c in p.state.cells if (c.x, c.y) == (1, 0))
    assert not cell.lit and p.state.thief.moving_done and p.state.thief.peeked == ("treasure-room-02",)
    assert refused(p.state, cmd.MoveThief(x=0, y=0)) == "vast.move.ended"
    assert refused(p.state, cmd.PeekTile()) == "vast.peek.done"


def test_he_looks_only_at_a_dark_tile__rulebook_2_muovi_e_agisci():
    assert refused(thief_table(lit(1, 0, OPEN), th=thief(1, 0)), cmd.PeekTile()) == "vast.peek.not-dark"


def test_the_tile_he_looked_at_is_his_and_the_caves_secret__rulebook_2_muovi_e_agisci():
    p = Play(thief_table(dark(1, 0, "treasure-room-02"), dark(0, 1, "event-01"), th=thief(1, 0)))
    p.do(cmd.PeekTile())
    peeked = p.of(ev.TilePeeked)[0]
    for seat, sees in (("thief", True), ("cave", True), ("knight", False)):
        viewer = seat_viewer(SEATS, seat)
        assert (RULESET.view_event(peeked, viewer).tile == "treasure-room-02") is sees
    p.choose("keep")
    for seat, sees in (("thief", True), ("knight", False)):
        view = RULESET.view_state(p.state, seat_viewer(SEATS, seat))
        cell = next(c for c in view.cells if (c.x, c.y) == (1, 0))
        assert (cell.tile == "treasure-room-02") is sees
        assert (view.thief.peeked == ("treasure-room-02",)) is sees
    other = next(
        c for c in RULESET.view_state(p.state, seat_viewer(SEATS, "thief")).cells if (c.x, c.y) == (0, 1)
    )
    assert other.tile == HIDDEN  # only what he looked at


def test_an_ambush_he_reveals_never_triggers_and_a_treasure_room_gets_its_token__rulebook_2_muovi_e_agisci():
    state = thief_table(dark(1, 0, "ambush-01"), lit(-1, 0, OPEN), th=thief(1, 0))
    p = Play(state)
    p.do(cmd.PeekTile())
    p.choose("reveal")
    p.settle()
    revealed = p.of(ev.TileRevealed)
    assert revealed[0].by == "thief" and revealed[0].mode == "thief"
    assert next(c for c in p.state.cells if (c.x, c.y) == (1, 0)).lit
    assert not p.of(ev.VastAmbushResolved) and not p.of(ev.HealthChanged) and not p.of(ev.GritChanged)
    # the Knight entering it later is not ambushed either
    p = Play(replace(p.state, turn="knight"))
    p.do(cmd.MoveKnight(x=1, y=0))  # onto the Thief's tile too (Vast rulebook §Interagire con il Ladro)
    assert not p.of(ev.VastAmbushResolved) and p.state.knight.health == 7

    room = Play(thief_table(dark(1, 0, "treasure-room-02"), th=thief(1, 0)))
    room.do(cmd.PeekTile())
    room.choose("reveal")
    room.settle()
    assert next(c for c in room.state.cells if (c.x, c.y) == (1, 0)).treasure == 1


# --- Morire: back on the Entrance ---------------------------------------------------------------------------


def test_killed_he_comes_back_on_the_entrance_at_the_start_of_his_next_turn__rulebook_morire():
    dead = ThiefRole(x=None, y=None, loot_drop=1, stashed=2, upgrades=("climbing-gear", "stealth+1"))
    state = thief_table(lit(1, 0, OPEN), th=dead)
    assert refused(replace(state, thief=replace(dead, assigned=True, cubes=3)), cmd.HideLoot(cubes=1)) == (
        "vast.thief.off-map"
    )
    p = thief_turn(state)
    assert p.of(ev.ThiefEntered) and (p.state.thief.x, p.state.thief.y) == (0, 0)
    assert p.state.thief.loot_drop == 1  # Vast rulebook §Consigli Rapidi: back to 3 only when he stashes


def test_his_turn_ends_when_he_says_so_and_the_next_turn_resets_his_cubes__rulebook_riepilogo_del_turno():
    p = Play(thief_table(lit(1, 0, OPEN), th=thief(cubes=2, moves=1, targeted=("knight",))))
    p.do(cmd.VastEndTurn(role="thief"))
    assert p.of(ev.VastTurnEnded)[0].role == "thief" and p.state.turn == "knight"  # the order wraps
    assert p.of(ev.VastRoundStarted)
    nxt = thief_turn(replace(p.state, turn=None))
    th = nxt.state.thief
    assert (th.cubes, th.moves, th.targeted, th.assigned) == (0, 0, (), False)


# --- docs/vast/facts.md §7 Variant cards: Flare
# -----------------------------------------------------------------------------


def test_cave_vs_thief_seats_flare_for_him_and_makes_place_treasure_optional__vf_7_setup_by_player_count():
    created = GameCreated(
        ruleset="vast",
        setup=msgspec.Raw(msgspec.json.encode({"roles": ["cave", "thief"]})),
        seats=(Seat(name="c", controls=("cave",)), Seat(name="t", controls=("thief",))),
    )
    state = RULESET.initial_state(created)
    assert state.roles == ("cave", "thief") and state.dragon is None and state.knight is None
    p = Play(state)
    p.do(Begin())
    seated = p.of(ev.RolesSeated)[0]
    assert set(seated.variants) == {"flare:thief", "place-treasure-optional"}


def test_in_cave_vs_thief_place_treasure_is_optional__vf_7_setup_by_player_count():
    cave = CaveRole(hand=("ambush-01",), placed=1, supply=12)
    state = thief_table(lit(1, 0, OPEN), roles=("cave", "thief"), cave=cave, turn="cave")
    assert refused(state, cmd.VastEndTurn(role="cave")) == "vast.treasure.owed"
    p = Play(replace(state, variants=("flare:thief", "place-treasure-optional")))
    p.do(cmd.VastEndTurn(role="cave"))
    assert p.state.turn == "thief" and p.pending.decision == "thief-stats"
