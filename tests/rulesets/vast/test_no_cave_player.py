"""Vast rulebook §Varianti ("Nelle partite senza il giocatore Caverna ...") and docs/vast/facts.md §7 Setup by
player count: the setups without a Cave player (Knight vs Goblins, Knight vs Dragon, Goblins vs Dragon;
Knight, Goblins and Dragon), the Past Plunder and Flare variant cards (docs/vast/facts.md §7 Variant cards),
Goblins vs Cave, and each setup's win conditions. The Cave's work falls to the players: the revealer draws and
places the tiles on open edges (Vast rulebook §Rivelare e risolvere le tessere Buie), the Knight draws her own
Treasure and Event cards (§Tesori, Evento), an exploring Tribe draws its tile (§Esplorare), and every turn
ends with a Dark tile placed or, in the Collapse, 3 tiles removed. Dice and cards are explicit."""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from dicelog.domain.core.events import (
    CardsDrawn,
    DecisionRequested,
    DrawRequested,
    GameCreated,
    Seat,
)
from dicelog.domain.core.ruleset import Begin
from dicelog.domain.core.visibility import seat_viewer
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.rules.setup import SETUPS
from dicelog.domain.vast.ruleset import RULESET
from dicelog.domain.vast.state import HIDDEN, DragonRole, GoblinsRole, KnightRole
from tests.rulesets.vast.support import Play, dark, goblin_table, lit, tribes

OPEN = "treasure-room-01"  # no walls


def no_cave(*cells, roles=("knight", "goblins"), variants=("past-plunder:goblins",), turn="knight", **kw):
    """A table without a Cave player (Knight vs Goblins unless ``roles`` say otherwise)."""
    state = goblin_table(*cells, turn=turn, **kw)
    return replace(
        state,
        roles=roles,
        variants=variants,
        cave=None,
        knight=state.knight if "knight" in roles else None,
        goblins=state.goblins if "goblins" in roles else None,
        dragon=DragonRole(x=3, y=0, hand=("claw-1", "claw-2")) if "dragon" in roles else None,
    )


def empty_stack(state):
    return replace(state, stack=(), crystals=(), piles=(0,), pile_crystals=(0,))


def created(roles: tuple[str, ...], setup: str | None = None, revision: int = 2) -> GameCreated:
    document = {"roles": list(roles)} if setup is None else {"setup": setup}
    return GameCreated(
        ruleset="vast",
        setup=msgspec.Raw(msgspec.json.encode(document)),
        seats=tuple(Seat(name=r, controls=(r,)) for r in roles),
        rules_revision=revision,
    )


# --- docs/vast/facts.md §7 Setup by player count
# --------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_every_setup_of_the_four_roles_begins_with_its_variant_cards__vf_7_setup_by_player_count(name):
    row = SETUPS[name]
    p = Play(RULESET.initial_state(created(row.roles, name, revision=5)))
    p.do(Begin())
    seated = p.of(ev.RolesSeated)[0]
    assert seated.setup == name and seated.variants == row.variants
    assert p.state.cave is None if "cave" not in row.roles else p.state.cave is not None
    assert p.pending.reason == "setup-entrance" and p.pending.piece in row.roles  # a seat draws them
    p.settle()
    assert p.state.phase == "play" and p.state.turn == row.roles[0]
    assert len(p.state.cells) == 5  # the Entrance and its 4 Dark tiles


def test_the_setups_without_a_cave_and_their_cards__vf_7_setup_by_player_count():
    assert SETUPS["knight-vs-goblins"].variants == ("past-plunder:goblins",)
    assert set(SETUPS["knight-vs-dragon"].variants) == {
        "infestation:A",
        "hunger-locked:2",
        "past-plunder:dragon",
    }
    assert set(SETUPS["goblins-vs-dragon"].variants) == {"ash-dragon", "past-plunder:goblins"}
    assert SETUPS["knight-goblins-dragon"].variants == ("past-plunder:dragon",)
    assert SETUPS["goblins-vs-cave"].variants == ("flare:goblins",)
    without_thief = [name for name, row in SETUPS.items() if "thief" not in row.roles and len(row.roles) > 1]
    # every docs/vast/facts.md §7 row without the Thief: 1 of 4 players, 4 of 3, 6 of 2
    assert len(without_thief) == 11


# --- the end of each turn: a Dark tile, or 3 removed in the Collapse -----------------------------------


def test_each_player_places_a_dark_tile_from_the_stack_at_the_end_of_the_turn__rulebook_varianti():
    p = Play(no_cave(variants=()))
    p.do(cmd.VastEndTurn(role="knight"))
    ending = p.of(ev.TurnEnding)[0]
    assert ending.role == "knight" and ending.steps == ("shape",)
    assert isinstance(p.pending, DecisionRequested) and p.pending.decision == "shape"
    assert p.pending.piece == "knight" and "2,0" in p.pending.options  # an empty space next to a tile
    p.choose("2,0")
    assert isinstance(p.pending, DrawRequested) and p.pending.deck == "tiles" and p.pending.piece == "knight"
    p.draw("ambush-02")
    placed = p.of(ev.DarkTilePlaced)[-1]
    assert (placed.x, placed.y, placed.tile, placed.by, placed.own_turn) == (
        2,
        0,
        "ambush-02",
        "knight",
        True,
    )
    assert p.state.turn == "goblins" and not p.state.ending and p.state.todo == ()
    assert "ambush-02" not in p.state.stack and p.state.piles == (2,)


def test_the_dark_tiles_default_space_is_the_one_nearest_her_from_revision_5__rulebook_varianti():
    """Rules revision 5: the default of ``shape`` is the free space nearest the player's piece (the Knight on
    (2, 1) here); earlier revisions keep the first free space, west to east, south to north."""
    cells = (lit(1, 0, "treasure-room-01"), lit(2, 0, "treasure-room-02"), lit(2, 1, "treasure-room-03"))
    knight = KnightRole(x=2, y=1)
    for revision, expected in ((5, None), (4, "first")):
        p = Play(no_cave(*cells, variants=(), knight=knight, rules_revision=revision))
        p.do(cmd.VastEndTurn(role="knight"))
        asked = p.pending
        assert isinstance(asked, DecisionRequested) and asked.decision == "shape"
        if expected == "first":
            assert asked.default == asked.options[0]
        else:

            def far(key: str) -> int:
                x, y = (int(v) for v in key.split(","))
                return abs(x - 2) + abs(y - 1)

            assert far(asked.default) == min(far(o) for o in asked.options) < far(asked.options[0])


def test_the_dark_tile_placed_is_nobodys_secret_but_the_stacks__rulebook_varianti():
    p = Play(no_cave(variants=()))
    p.do(cmd.VastEndTurn(role="knight"))
    p.choose("2,0")
    p.draw("ambush-02")
    seats = (Seat(name="k", controls=("knight",)), Seat(name="g", controls=("goblins",)))
    for seat in ("k", "g"):
        viewer = seat_viewer(seats, seat)
        drawn = RULESET.view_event(next(e for e in p.events if isinstance(e, CardsDrawn)), viewer)
        placed = RULESET.view_event(p.of(ev.DarkTilePlaced)[-1], viewer)
        assert drawn.cards == (HIDDEN,) and placed.tile == HIDDEN
        cell = next(c for c in RULESET.view_state(p.state, viewer).cells if (c.x, c.y) == (2, 0))
        assert cell.tile == HIDDEN


def test_the_collapse_begins_at_the_end_of_the_first_turn_finding_the_stack_empty__rulebook_il_collasso():
    p = Play(empty_stack(no_cave(dark(2, 0, "crystal-02", "eye"), variants=())))
    p.do(cmd.VastEndTurn(role="knight"))
    assert p.of(ev.CollapseBegun) and p.of(ev.TurnEnding)[0].steps == ("remove",) * 3
    removed = 0
    while isinstance(p.pending, DecisionRequested):
        assert p.pending.decision == "collapse-remove" and p.pending.piece == "knight"
        assert "0,0" not in p.pending.options  # never the Entrance
        p.default()
        removed += 1
    assert removed == 3 and len(p.of(ev.TileRemoved)) == 3
    assert all(e.step == "remove" for e in p.of(ev.TileRemoved))
    assert p.state.turn == "goblins"


def test_the_collapse_removes_tiles_touching_fewest_first_crystal_tiles_first__rulebook_il_collasso():
    state = empty_stack(no_cave(lit(1, 0, OPEN), lit(2, 0, "crystal-02"), variants=(), sealed=False))
    state = replace(state, collapse=True)
    p = Play(state)
    p.do(cmd.VastEndTurn(role="knight"))
    assert p.pending.options == ("2,0",)  # the revealed Crystal tile touching one tile goes first


def test_the_knight_on_a_tile_removed_steps_off_first_and_the_step_completes__rulebook_il_collasso():
    state = empty_stack(no_cave(lit(1, 0, OPEN), lit(2, 0, "crystal-02"), variants=(), sealed=False))
    state = replace(state, collapse=True, knight=KnightRole(x=2, y=0))
    p = Play(state)
    p.do(cmd.VastEndTurn(role="knight"))
    p.choose("2,0")
    assert p.pending.decision == "step-off:2,0:remove"
    p.choose("1,0")
    assert (p.state.knight.x, p.state.knight.y) == (1, 0) and p.of(ev.TileRemoved)[0].step == "remove"


def test_five_crystal_tiles_collapsed_without_a_cave_lose_for_everyone__rulebook_il_collasso():
    state = empty_stack(no_cave(dark(2, 0, "crystal-02", "eye"), variants=()))
    p = Play(replace(state, collapse=True, crystal_tiles_collapsed=4))
    p.do(cmd.VastEndTurn(role="knight"))
    while p.state.winner is None and isinstance(p.pending, DecisionRequested):
        p.choose("2,0" if "2,0" in p.pending.options else p.pending.default)
    assert p.state.winner == "everyone-lost" and p.state.phase == "ended"
    assert RULESET.outcome(p.state) == "lost:everyone"


def test_a_dead_knight_skipping_her_turn_owes_no_tile__vf_7_knight_dragon_and_cave():
    state = no_cave(roles=("knight", "dragon"), variants=("past-plunder:dragon",), turn="dragon")
    p = Play(replace(state, knight=KnightRole(health=0)))
    from dicelog.domain.vast.rules.flow import end_turn, then_advance

    p._take(then_advance(p.state, end_turn(p.state, "knight")))
    assert p.of(ev.TurnEnding) == []


# --- the Cave's other work, done by the players ---------------------------------------------------------


def test_the_revealer_draws_and_places_the_tiles_on_open_edges__rulebook_rivelare_e_risolvere():
    p = Play(no_cave(dark(1, 0, OPEN, "fangs"), variants=()))
    p.do(cmd.MoveKnight(x=1, y=0))
    p.settle()
    draws = [e for e in p.of(DrawRequested) if e.reason.startswith("fill:")]
    assert draws and all(d.deck == "tiles" and d.piece == "knight" and d.count == 1 for d in draws)
    fills = [e for e in p.of(ev.DarkTilePlaced) if e.by == "knight"]
    assert [f"fill:{e.x},{e.y}" for e in fills] == [d.reason for d in draws]
    assert all(not e.own_turn and e.step == "" for e in fills)
    from dicelog.domain.vast.rules.common import geometry

    assert geometry(p.state).all_open_edges() == []  # every open edge got its tile


def test_without_a_cave_she_draws_the_top_treasure_card_and_sees_it__rulebook_tesori():
    p = Play(no_cave(lit(1, 0, OPEN, treasure=1), variants=(), knight=KnightRole(x=1, y=0)))
    p.do(cmd.CollectTreasure())
    assert p.pending.reason == "treasure-top" and p.pending.count == 1 and p.pending.piece == "knight"
    p.draw("javelin")
    assert p.of(ev.TreasureOffered)[0].card == "javelin" and p.pending.decision == "keep-treasure"
    seats = (Seat(name="k", controls=("knight",)), Seat(name="g", controls=("goblins",)))
    drawn = next(e for e in p.events if isinstance(e, CardsDrawn))
    assert RULESET.view_event(drawn, seat_viewer(seats, "k")).cards == ("javelin",)
    assert RULESET.view_event(drawn, seat_viewer(seats, "g")).cards == (HIDDEN,)
    assert RULESET.view_state(p.state, seat_viewer(seats, "g")).offer == (HIDDEN,)
    p.choose("keep")
    assert p.state.knight.treasures == ("javelin",)


def test_without_a_cave_she_draws_and_resolves_the_top_event_card__rulebook_evento():
    from dicelog.domain.vast.rules.flow import event_offer

    p = Play(no_cave(variants=(), knight=KnightRole(grit=5)))
    p._take(event_offer(p.state))
    assert p.pending.reason == "event-top" and p.pending.count == 1
    p.draw("rats-1")
    assert p.of(ev.EventPlayed)[0].card == "rats-1" and p.state.knight.grit < 5


def test_an_exploring_tribe_draws_its_tile_from_the_stack__rulebook_esplorare():
    gob = GoblinsRole(phase="activate", tribes=tribes(bones={"population": 2, "x": 1, "y": 0}))
    p = Play(no_cave(dark(1, 0, OPEN, "bones"), gob=gob, turn="goblins", variants=()))
    p.do(cmd.ActivateTribe(tribe="bones", action="explore", x=1, y=0, ex=1, ey=1))
    assert p.pending.reason == "explore:1,1:bones" and p.pending.piece == "goblins"
    p.draw("ambush-03")
    assert (p.state.goblins.tribes[1].x, p.state.goblins.tribes[1].y) == (1, 1)
    assert p.of(ev.DarkTilePlaced)[-1].tile == "ambush-03"


# --- Past Plunder (docs/vast/facts.md §7 Variant cards)
# -------------------------------------------------------------------


# --- Flare for the Goblins, Goblins vs Cave (docs/vast/facts.md §7)
# --------------------------------------------------------


def goblins_vs_cave(*cells, gob):
    state = goblin_table(*cells, gob=gob)
    return replace(state, roles=("goblins", "cave"), knight=None, variants=("flare:goblins",))


def test_without_knight_and_dragon_the_goblins_win_by_smashing_5_crystals__rulebook_i_goblin_come_vincere():
    crystal = lit(1, 0, "crystal-01", crystal=True)
    gob = GoblinsRole(
        phase="activate",
        tribes=tribes(fangs={"population": 2, "x": 1, "y": 0}, eye={"population": 3, "x": 1, "y": 0}),
    )
    p = Play(goblins_vs_cave(crystal, gob=replace(gob, smashed=4)))
    p.do(cmd.ActivateTribe(tribe="fangs", action="attack"))
    assert p.state.winner is None
    p.do(cmd.ActivateTribe(tribe="eye", action="attack"))
    assert p.state.winner == "goblins" and p.state.goblins.smashed == 5


# --- Knight vs Dragon (docs/vast/facts.md §7)
# -----------------------------------------------------------------------------


def knight_vs_dragon(**kw):
    return no_cave(roles=("knight", "dragon"), variants=SETUPS["knight-vs-dragon"].variants, **kw)


def test_an_ambush_killing_the_knight_wins_for_the_dragon__vf_7_knight_vs_dragon():
    from dicelog.domain.vast.rules.flow import ambush

    p = Play(knight_vs_dragon(knight=KnightRole(health=1)))
    p._take(ambush(p.state))  # Infestation line A: Strength 2 against her 1
    p.choose("0")  # no Hero cube on Strength
    assert p.state.knight.died_of == "ambush"
    from dicelog.domain.vast.rules.flow import advance

    p._take(advance(p.state))
    assert p.state.winner == "dragon"


def test_a_knight_killed_otherwise_only_skips_her_turns__vf_7_knight_vs_dragon():
    p = Play(knight_vs_dragon(knight=KnightRole(health=0, died_of="claw")))
    from dicelog.domain.vast.rules.flow import check_win

    assert check_win(p.state) == []


# --- docs/vast/facts.md §7 Difficulty cards
# ------------------------------------------------------------------------------


def created_with(roles: tuple[str, ...], difficulty: dict[str, int]) -> GameCreated:
    setup = {"roles": list(roles), "difficulty": difficulty}
    return GameCreated(
        ruleset="vast",
        setup=msgspec.Raw(msgspec.json.encode(setup)),
        seats=tuple(Seat(name=r, controls=(r,)) for r in roles),
        rules_revision=3,
    )


FOUR = ("knight", "goblins", "dragon", "cave")


@pytest.mark.parametrize(
    "level,dragon_health,knight_health,awake_at", [(1, 3, 5, 7), (3, 5, 7, 11), (4, 6, 8, 13)]
)
def test_difficulty_cards_set_health_and_wakefulness__vf_7_difficulty_cards(
    level, dragon_health, knight_health, awake_at
):
    levels = {"knight": level, "goblins": level, "dragon": level}
    state = RULESET.initial_state(created_with(FOUR, levels))
    assert state.dragon.health == dragon_health  # the Knight's card: the Dragon's Health
    assert state.knight.health == state.knight.max_health == knight_health  # the Goblins' card: hers
    assert state.dragon.awake_at == awake_at  # the Dragon's card: the Wakefulness that awakens it
    assert state.difficulty == levels


def test_the_knight_heals_up_to_her_starting_health__vf_7_difficulty_cards():
    state = RULESET.initial_state(created_with(FOUR, {"goblins": 5}))
    p = Play(replace(state, knight=replace(state.knight, health=7)))
    p._take([ev.HealthChanged(delta=5, why="test")])
    assert p.state.knight.health == 9


def test_the_dragon_awakens_at_the_wakefulness_its_card_sets__vf_7_difficulty_cards():
    from dicelog.domain.vast.rules.dragon import next_step
    from dicelog.domain.vast.state import SLOTH_ROOM, wakefulness

    d = DragonRole(x=1, y=0, awake_at=7, sloth={**SLOTH_ROOM, "greed": 0, "hunger": 1})
    assert wakefulness(d) == 7
    state = replace(no_cave(roles=("knight", "dragon"), turn="dragon"), dragon=d)
    assert ev.DragonAwoke() in next_step(state)


@pytest.mark.parametrize(
    "difficulty", [{"thief": 3}, {"cave": 1}, {"cave": 5}, {"dragon": 5}, {"knight": 6}, {"goblins": 0}]
)
def test_a_difficulty_card_not_built_or_out_of_play_is_refused__vf_7_difficulty_cards(difficulty):
    from dicelog.domain.core.errors import RuleBroken

    with pytest.raises(RuleBroken) as info:
        RULESET.initial_state(created_with(FOUR, difficulty))
    assert info.value.rule == "setup.invalid"
