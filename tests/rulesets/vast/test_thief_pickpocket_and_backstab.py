"""Vast rulebook §Il Ladro, Borseggiare (Pickpocket), Pugnalare alle Spalle (Backstab) and Interagire con gli
Altri (with §Determinare la Percezione and §Consigli Rapidi, Il Ladro): his Stealth against the target's
Perception or the Dragon's Armor, each player once a turn, a target with nothing to take, the harm of a
Pickpocket and its Treasure token, Sticky Fingers, the wounds table and the Hand Crossbow. docs/vast/facts.md
§3 Goblin Ruby and Trap, §6. Dice, cards and decisions are explicit."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from dicelog.domain.core.events import DecisionRequested, DrawRequested, RollRequested, Seat
from dicelog.domain.core.visibility import seat_viewer
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.ruleset import RULESET
from dicelog.domain.vast.state import HIDDEN, SLOTH_ROOM, DragonRole, GoblinsRole, KnightRole, wakefulness
from tests.rulesets.vast.support import Play, dark, lit, refused, tribes
from tests.rulesets.vast.thief_support import HAND, OPEN, TUNNEL, all_roles, thief, thief_table

TREASURES = ("elven-sword", "javelin")


def sloth(**left: int) -> dict[str, int]:
    out = dict(SLOTH_ROOM)
    out.update({k.replace("_", "-"): v for k, v in left.items()})
    return out


def knight_table(knight: KnightRole | None = None, **kw):
    """The Knight on the Entrance with two face-down Treasure cards, the Thief there too."""
    return thief_table(lit(1, 0, OPEN), knight=knight or KnightRole(treasures=TREASURES), **kw)


def goblins_table(gob: GoblinsRole, **kw):
    """Knight, Goblins, Cave and Thief; the Thief on (1, 0)."""
    return thief_table(
        lit(1, 0, OPEN),
        roles=("knight", "goblins", "cave", "thief"),
        gob=gob,
        th=kw.pop("th", thief(1, 0)),
        **kw,
    )


def fangs_at_1_0(population: int = 2, **kw) -> GoblinsRole:
    return GoblinsRole(
        phase="activate", tribes=tribes(fangs={"population": population, "x": 1, "y": 0}), **kw
    )


# --- Interagire con gli Altri, Determinare la Percezione --------------------------------------------------


def test_pickpocket_needs_stealth_above_perception__rulebook_interagire_con_gli_altri():
    seen = KnightRole(treasures=TREASURES, placed={"perception": 2})  # Perception 3
    assert refused(knight_table(seen, th=thief(stealth=3)), cmd.Pickpocket(target="knight", cubes=3)) == (
        "vast.thief.seen"
    )
    p = Play(knight_table(seen, th=thief(stealth=4)))
    p.do(cmd.Pickpocket(target="knight", cubes=3))
    assert p.of(ev.ThiefActionRolled)[0].success


def test_each_token_carried_lowers_the_stealth_he_targets_with__rulebook_trasportare_e_mettere_al_sicuro():
    state = knight_table(th=thief(stealth=2, carried=1))  # Stealth 1 against Perception 1
    assert refused(state, cmd.Backstab(target="knight", cubes=1)) == "vast.thief.seen"
    state = knight_table(th=thief(stealth=2, upgrades=("stealth+1",), carried=1))  # 2 + 1 - 1
    Play(state).do(cmd.Backstab(target="knight", cubes=1))


def test_a_tribes_perception_is_population_plus_1_less_1_with_the_ruby__rulebook_determinare_la_percezione():
    state = goblins_table(fangs_at_1_0(2, hand=("hex",)), th=thief(1, 0, stealth=3))  # Perception 3
    assert refused(state, cmd.Pickpocket(target="fangs", cubes=3)) == "vast.thief.seen"
    ruby = fangs_at_1_0(2, face_up=("goblin-ruby",))  # docs/vast/facts.md §3 Goblin Ruby: -1 Perception
    Play(goblins_table(ruby, th=thief(1, 0, stealth=3))).do(cmd.Pickpocket(target="fangs", cubes=3))


def test_against_the_dragon_his_stealth_must_beat_its_armor__rulebook_interagire_con_gli_altri():
    awake = DragonRole(x=0, y=0, hand=HAND, sloth=sloth(greed=0, hunger=0))  # Wakefulness 8: Armor 3
    roles = ("dragon", "cave", "thief")
    assert refused(
        thief_table(roles=roles, dragon=awake, th=thief(stealth=3)), cmd.Backstab(target="dragon", cubes=1)
    ) == ("vast.thief.seen")
    p = Play(thief_table(roles=roles, dragon=awake, th=thief(stealth=4)))
    p.do(cmd.Backstab(target="dragon", cubes=1))
    assert p.of(ev.ThiefWounded)[0].target == "dragon"


def test_the_target_must_be_in_play_and_on_his_tile__rulebook_borseggiare():
    state = knight_table(th=thief(1, 0))
    assert refused(state, cmd.Pickpocket(target="knight", cubes=1)) == "vast.thief.not-here"
    assert refused(state, cmd.Pickpocket(target="dragon", cubes=1)) == "vast.thief.no-target"
    assert refused(state, cmd.Backstab(target="fangs", cubes=1)) == "vast.thief.no-target"


def test_each_player_is_targeted_once_a_turn__rulebook_consigli_rapidi_il_ladro():
    p = Play(knight_table(th=thief(stealth=4)))
    p.do(cmd.Pickpocket(target="knight", cubes=1))
    p.roll(1)  # failed: still a target of this turn
    assert refused(p.state, cmd.Pickpocket(target="knight", cubes=2)) == "vast.thief.targeted"
    assert refused(p.state, cmd.Backstab(target="knight", cubes=1)) == "vast.thief.targeted"


def test_the_goblins_are_one_player_whichever_tribe_he_targets__rulebook_consigli_rapidi_il_ladro():
    gob = GoblinsRole(
        phase="activate",
        tribes=tribes(fangs={"population": 1, "x": 1, "y": 0}, bones={"population": 1, "x": 1, "y": 0}),
    )
    p = Play(goblins_table(gob, th=thief(1, 0, stealth=4, cubes=5)))
    p.do(cmd.Backstab(target="fangs", cubes=1))
    assert p.state.thief.targeted == ("goblins",)
    assert refused(p.state, cmd.Backstab(target="bones", cubes=1)) == "vast.thief.targeted"


# --- Borseggiare --------------------------------------------------------------------------------------------


def test_a_target_with_nothing_to_take_cannot_be_pickpocketed__rulebook_borseggiare():
    assert refused(knight_table(KnightRole()), cmd.Pickpocket(target="knight", cubes=1)) == (
        "vast.thief.nothing-to-take"
    )
    assert refused(goblins_table(fangs_at_1_0(1)), cmd.Pickpocket(target="fangs", cubes=1)) == (
        "vast.thief.nothing-to-take"
    )
    asleep = DragonRole(x=0, y=0, hand=HAND)  # every cube still on its Sloth track: Greed is full
    assert refused(
        thief_table(roles=("dragon", "cave", "thief"), dragon=asleep),
        cmd.Pickpocket(target="dragon", cubes=1),
    ) == ("vast.thief.nothing-to-take")
    # Backstab needs nothing to take
    Play(knight_table(KnightRole())).do(cmd.Backstab(target="knight", cubes=1))


@pytest.mark.parametrize("cubes,face,success", [(1, 3, False), (1, 4, True), (2, 1, False), (2, 2, True)])
def test_pickpocket_succeeds_on_4_with_1_cube_2_with_2__rulebook_borseggiare(cubes, face, success):
    p = Play(knight_table(th=thief(stealth=4)))
    p.do(cmd.Pickpocket(target="knight", cubes=cubes))
    assert (
        isinstance(p.pending, RollRequested) and p.pending.reason == f"thief-action:pickpocket:knight:{cubes}"
    )
    p.roll(face)
    assert p.of(ev.ThiefActionRolled)[0].success is success
    assert p.state.thief.cubes == 4 - cubes
    assert isinstance(p.pending, DrawRequested) is success  # the Knight's card, only on a success


def test_the_knights_face_down_card_is_drawn_at_random_to_the_bottom_of_the_deck__rulebook_borseggiare():
    p = Play(knight_table(th=thief(stealth=4)))
    p.do(cmd.Pickpocket(target="knight", cubes=3))
    draw = p.pending
    assert isinstance(draw, DrawRequested) and draw.deck == "knight-treasures" and draw.count == 1
    assert draw.cards == TREASURES and draw.piece == "thief"
    seats = tuple(Seat(name=r, controls=(r,)) for r in ("knight", "cave", "thief"))
    assert RULESET.view_event(draw, seat_viewer(seats, "thief")).cards == (HIDDEN, HIDDEN)
    p.draw("javelin")
    assert p.state.knight.treasures == ("elven-sword",) and p.state.treasure_bottom[-1] == "javelin"
    stole = p.of(ev.ThiefStole)[0]
    assert stole.hidden and stole.card == "javelin"
    # and he takes a Treasure token from the Cave's supply
    assert p.state.thief.carried == 1 and p.state.cave.supply == 11
    assert RULESET.view_event(stole, seat_viewer(seats, "thief")).card == HIDDEN
    assert RULESET.view_event(stole, seat_viewer(seats, "knight")).card == "javelin"
    assert RULESET.view_event(stole, seat_viewer(seats, "cave")).card == "javelin"


def test_a_face_up_treasure_card_may_be_chosen_by_name__rulebook_borseggiare():
    knight = KnightRole(treasures=("javelin",), face_up=("heroic-boots",))
    p = Play(knight_table(knight, th=thief(stealth=4)))
    p.do(cmd.Pickpocket(target="knight", cubes=3))
    asked = p.pending
    assert isinstance(asked, DecisionRequested) and asked.decision == "pickpocket:knight"
    assert asked.options == ("heroic-boots", "hidden") and asked.piece == "thief"
    p.choose("heroic-boots")
    assert p.state.knight.face_up == () and p.state.knight.treasures == ("javelin",)
    assert p.state.treasure_bottom == ("heroic-boots",) and p.state.thief.carried == 1


def test_a_tribe_pickpocketed_discards_a_hidden_secrets_card_and_gains_rage__rulebook_borseggiare_furia():
    gob = fangs_at_1_0(1, hand=("hex", "trap"), rage=1)
    p = Play(goblins_table(gob))
    p.do(cmd.Pickpocket(target="fangs", cubes=3))
    draw = p.pending
    assert isinstance(draw, DrawRequested) and draw.deck == "goblin-secrets" and draw.cards == ("hex", "trap")
    p.draw("trap")
    assert p.state.goblins.hand == ("hex",) and "trap" in p.state.secrets_discard
    assert p.state.goblins.rage == 2  # Vast rulebook §Furia e Malessere: attacked by the Thief's Pickpocket
    assert p.state.thief.carried == 1


def test_the_face_up_goblin_ruby_is_the_only_revealed_card_he_may_take__rulebook_borseggiare():
    gob = fangs_at_1_0(1, face_up=("goblin-ruby", "trap"))  # Perception 2 (Ruby -1, Trap +1)
    p = Play(goblins_table(gob))
    p.do(cmd.Pickpocket(target="fangs", cubes=3))
    assert p.pending is None and p.of(ev.ThiefStole)[0].card == "goblin-ruby"
    assert p.state.goblins.face_up == () and "goblin-ruby" in p.state.secrets_discard
    assert "trap" in p.state.secrets_discard  # docs/vast/facts.md §3 Trap: spent by his attack on a Tribe


def test_the_dragon_pickpocketed_moves_a_wakefulness_cube_back_to_greed__rulebook_borseggiare():
    d = DragonRole(x=0, y=0, hand=HAND, sloth=sloth(greed=2))  # Wakefulness 2, Armor 1
    p = Play(thief_table(roles=("dragon", "cave", "thief"), dragon=d, th=thief(stealth=2)))
    p.do(cmd.Pickpocket(target="dragon", cubes=3))
    assert p.state.dragon.sloth["greed"] == 3 and wakefulness(p.state.dragon) == 1
    assert p.of(ev.ThiefStole)[0].target == "dragon" and p.state.thief.carried == 1


def test_sticky_fingers_rerolls_a_failed_pickpocket_once_a_turn__rulebook_borseggiare_mani_lunghe():
    d = DragonRole(x=0, y=0, hand=HAND, sloth=sloth(greed=2))
    state = all_roles(
        lit(1, 0, OPEN),
        knight=KnightRole(treasures=TREASURES),
        dragon=d,
        th=thief(stealth=4, upgrades=("sticky-fingers",)),
    )
    p = Play(state)
    p.do(cmd.Pickpocket(target="knight", cubes=1))
    p.roll(3)
    again = p.pending
    assert isinstance(again, RollRequested) and again.reason == "thief-action:pickpocket:knight:1:reroll"
    p.roll(3)  # the re-roll fails too
    assert p.pending is None and p.state.thief.sticky_used
    p.do(cmd.Pickpocket(target="dragon", cubes=1))
    p.roll(2)
    assert p.pending is None  # used already this turn
    assert [e.success for e in p.of(ev.ThiefActionRolled)] == [False, False, False]


def test_without_sticky_fingers_or_on_a_pick_lock_a_failure_stands__rulebook_borseggiare_mani_lunghe():
    p = Play(knight_table(th=thief(stealth=4)))
    p.do(cmd.Pickpocket(target="knight", cubes=1))
    p.roll(1)
    assert p.pending is None
    vault = thief_table(lit(1, 0, "vault-04", vault=True), th=thief(1, 0, upgrades=("sticky-fingers",)))
    p = Play(vault)
    p.do(cmd.PickLock(cubes=1))
    p.roll(1)
    assert p.pending is None and not p.state.thief.sticky_used


def test_a_sticky_fingers_reroll_that_succeeds_takes_the_card_and_token__rulebook_borseggiare_mani_lunghe():
    p = Play(knight_table(th=thief(stealth=4, upgrades=("sticky-fingers",))))
    p.do(cmd.Pickpocket(target="knight", cubes=2))
    p.roll(1)
    p.roll(2)
    p.draw("elven-sword")
    assert p.state.knight.treasures == ("javelin",) and p.state.thief.carried == 1


# --- Pugnalare alle Spalle ----------------------------------------------------------------------------------


@pytest.mark.parametrize("cubes,grit_lost", [(1, 1), (2, 3), (3, 5)])
def test_backstab_wounds_the_knight_1_3_5_grit__rulebook_pugnalare_alle_spalle(cubes, grit_lost):
    p = Play(knight_table(KnightRole(grit=10)))
    p.do(cmd.Backstab(target="knight", cubes=cubes))
    assert p.state.knight.grit == 10 - grit_lost and p.state.thief.cubes == 4 - cubes
    assert p.of(ev.ThiefWounded)[0].wound == cubes


@pytest.mark.parametrize("cubes", [1, 2, 3])
def test_backstab_costs_a_tribe_1_2_3_population_and_gains_rage__rulebook_pugnalare_alle_spalle(cubes):
    gob = fangs_at_1_0(3, rage=1)
    p = Play(goblins_table(gob, th=thief(1, 0, stealth=5)))
    p.do(cmd.Backstab(target="fangs", cubes=cubes))
    fangs = p.state.goblins.tribes[0]
    assert fangs.population == 3 - cubes and p.state.goblins.rage == 2
    assert bool(p.of(ev.TribeScattered)) is (cubes == 3)  # at Population 0 the Tribe scatters


def test_backstab_makes_the_dragon_discard_power_cards__rulebook_pugnalare_alle_spalle():
    d = DragonRole(x=0, y=0, hand=("claw-1", "flame-1", "wing-1"))
    p = Play(thief_table(roles=("dragon", "cave", "thief"), dragon=d, th=thief(stealth=2)))
    p.do(cmd.Backstab(target="dragon", cubes=2))
    asked = p.pending
    assert isinstance(asked, DecisionRequested) and asked.decision == "power-discard:2:backstab"
    assert asked.piece == "dragon"
    p.choose("flame-1")
    p.choose("wing-1")
    assert p.state.dragon.hand == ("claw-1",) and p.pending is None


def test_the_hand_crossbow_reaches_a_visible_target_3_lit_tiles_away__rulebook_pugnalare_balestra():
    cells = (lit(1, 0, OPEN), lit(2, 0, OPEN), lit(3, 0, OPEN))
    crossbow = thief(stealth=4, upgrades=("hand-crossbow",))
    far = KnightRole(x=3, y=0, grit=10)
    assert refused(
        thief_table(*cells, knight=far, th=thief(stealth=4)), cmd.Backstab(target="knight", cubes=1)
    ) == ("vast.thief.not-here")
    p = Play(thief_table(*cells, knight=far, th=crossbow))
    p.do(cmd.Backstab(target="knight", cubes=2))
    assert p.state.knight.grit == 7
    # Pickpocket still needs his own tile
    robbed = replace(far, treasures=TREASURES)
    assert refused(
        thief_table(*cells, knight=robbed, th=crossbow), cmd.Pickpocket(target="knight", cubes=1)
    ) == ("vast.thief.not-here")


def test_the_hand_crossbow_needs_a_straight_lit_line_without_walls__rulebook_pugnalare_alle_spalle_balestra():
    crossbow = thief(stealth=4, upgrades=("hand-crossbow",))
    stab = cmd.Backstab(target="knight", cubes=1)
    four = (lit(1, 0, OPEN), lit(2, 0, OPEN), lit(3, 0, OPEN), lit(4, 0, OPEN))
    assert (
        refused(thief_table(*four, knight=KnightRole(x=4, y=0), th=crossbow), stab) == "vast.thief.not-here"
    )
    through_dark = (dark(1, 0, "event-01"), lit(2, 0, OPEN))
    assert refused(thief_table(*through_dark, knight=KnightRole(x=2, y=0), th=crossbow), stab) == (
        "vast.thief.not-here"
    )
    diagonal = (lit(1, 0, OPEN), lit(1, 1, OPEN))
    assert (
        refused(thief_table(*diagonal, knight=KnightRole(x=1, y=1), th=crossbow), stab)
        == "vast.thief.not-here"
    )
    walled = (lit(0, 1, TUNNEL), lit(0, 2, OPEN))  # the tunnel's south wall faces the Entrance
    assert (
        refused(thief_table(*walled, knight=KnightRole(x=0, y=2), th=crossbow), stab) == "vast.thief.not-here"
    )


def test_a_face_up_trap_gives_the_tribe_he_attacks_1_more_perception__vf_3_secrets_cards_trap():
    gob = fangs_at_1_0(2, face_up=("trap",))  # Perception 3, 4 with the Trap
    state = goblins_table(gob, th=thief(1, 0, stealth=4))
    assert refused(state, cmd.Backstab(target="fangs", cubes=1)) == "vast.thief.seen"
    p = Play(goblins_table(gob, th=thief(1, 0, stealth=5)))
    p.do(cmd.Backstab(target="fangs", cubes=1))
    assert "trap" not in p.state.goblins.face_up and "trap" in p.state.secrets_discard  # spent
