"""The bots' rules for the rows where the Goblins hunt the Dragon beside the Thief
(``dicelog.domain.vast.bot``), driven directly on tables laid by hand: the Knight declines Treasure cards
(``knight_decide``), the Dragon is wary of the Tribes that may attack it (``wary``, ``dragon_danger``) and the
Cave, with no Knight, keeps the Tribes off the Dragon (``CaveContext.hunted``: Rockslides, ``seal``; Giant
Bats, ``menaces``). The 50-game benchmarks measure them (bench/README.md §8); these tests pin what each rule
does on one table.

The Dragon's and the Cave's tables are one row of Lit tiles, (1, 0) to (7, 0) east of the Entrance, no walls
and nothing around (the open edges left open, so a Tribe walks only along the row): each Lit tile a Tribe
leaves on its way costs a disc for every 2 (Vast rulebook §5. Attiva le Tribù), so a Tribe far along the row
reaches a tile weaker than one next to it. The Bones (no Fangs' disc) at Rage 1 (no Malaise), Population 2;
the Ash Dragon card gives the Dragon Armor 2 at Wakefulness 0 (docs/vast/facts.md §7 Variant cards)."""

from __future__ import annotations

import random
from typing import Any

from msgspec.structs import replace

from dicelog.domain.vast import bot
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast.rules.common import dragon_armor
from dicelog.domain.vast.ruleset import RULES_REVISION, RULESET
from dicelog.domain.vast.state import CaveRole, DragonRole, GoblinsRole, KnightRole, VastState
from tests.rulesets.vast.support import lit, tribes
from tests.rulesets.vast.thief_support import HAND, thief, thief_table

ROW = tuple(lit(x, 0, f"treasure-room-0{1 + x % 3}") for x in range(1, 8))
"""Lit tiles (1, 0) to (7, 0), no walls."""

HUNT = ("goblins", "dragon", "cave", "thief")
"""The ``goblins-dragon-cave-thief`` row: no Knight."""


def hunt_table(
    *,
    roles: tuple[str, ...] = HUNT,
    turn: str,
    bones: tuple[int, int],
    dragon: DragonRole,
    variants: tuple[str, ...] = ("ash-dragon",),
    **kw: Any,
) -> VastState:
    """``ROW`` in play at the current rules revision with ``roles`` (the Thief on the Entrance, the Knight
    there too when in play), the Bones revealed on ``bones`` at Population 2, Rage 1."""
    gob = GoblinsRole(phase="", rage=1, tribes=tribes(bones={"population": 2, "x": bones[0], "y": bones[1]}))
    return thief_table(
        *ROW,
        roles=roles,
        turn=turn,
        gob=gob,
        dragon=dragon,
        th=thief(0, 0),
        knight=KnightRole(x=0, y=0),
        variants=variants,
        begun=True,
        sealed=False,
        rules_revision=RULES_REVISION,
        **kw,
    )


# --- the Knight: no Treasure card while the Dragon is hunted ------------------------------------------

KEEP = {"decision": "keep-treasure", "options": ["keep", "decline"], "piece": "knight", "default": "keep"}
"""The Knight's decision on a Treasure card (5 Grit if she declines it), as the rules ask it."""


def knight_view(roles: tuple[str, ...]) -> VastState:
    """The Knight's turn with ``roles`` in play (``thief_table`` lays the Thief always: taken off without)."""
    state = thief_table(roles=roles, turn="knight", variants=("ash-dragon",))
    return state if "thief" in roles else replace(state, thief=None)


def test_the_knight_declines_treasure_cards_while_the_dragon_is_hunted__rulebook_tesori_e_gemme():
    """Hunting the Dragon beside the Goblins and the Thief, with or without the Cave, she declines the card
    for 5 Grit (her next Hero cubes): the documented default is to keep it."""
    for roles in (("knight", "goblins", "dragon", "cave", "thief"), ("knight", "goblins", "dragon", "thief")):
        view = knight_view(roles)
        assert bot.dragon_hunt(view)
        assert bot.decide(view, KEEP, ["keep", "decline"], random.Random(0)) == "decline"
        assert bot.knight_decide(view, "keep-treasure", ["keep", "decline"], "keep") == "decline"


def test_without_the_thief_or_the_dragon_the_knight_keeps_a_treasure_card__rulebook_tesori_e_gemme():
    """Without the Thief, or without the Dragon, no Dragon hunt: she keeps the documented default (keep);
    hunting, every other decision keeps its default too."""
    for roles in (("knight", "goblins", "dragon", "cave"), ("knight", "goblins", "cave", "thief")):
        view = knight_view(roles)
        assert not bot.dragon_hunt(view)
        assert bot.decide(view, KEEP, ["keep", "decline"], random.Random(0)) == "keep"
    hunting = knight_view(("knight", "goblins", "dragon", "cave", "thief"))
    axe = {"decision": "axe", "options": ["strike", "keep"], "piece": "knight", "default": "strike"}
    assert bot.decide(hunting, axe, ["strike", "keep"], random.Random(0)) == "strike"


# --- the Dragon: wary of the Tribes that may attack it -----------------------------------------------


def dragon_turn(variants: tuple[str, ...] = ("ash-dragon",)) -> VastState:
    """The Dragon's turn, underground on (4, 0) at 1 Health (each expected attack weighs 5 times more than
    at 5), asleep and hungry (its goal: the Bones on (7, 0))."""
    d = DragonRole(x=4, y=0, hand=HAND, health=1)
    return hunt_table(turn="dragon", bones=(7, 0), dragon=d, variants=variants)


def test_wary_only_with_the_ash_dragon_card_the_goblins_and_the_thief__docs_vast_facts_variant_cards():
    """The Goblins' Tribes attack the Dragon only with the Ash Dragon card; without it, or without the Thief
    (or the Goblins), the Dragon is not wary."""
    assert bot.wary(dragon_turn())
    assert not bot.wary(dragon_turn(variants=()))
    assert not bot.wary(replace(dragon_turn(), thief=None))
    assert not bot.wary(replace(dragon_turn(), goblins=None))


def test_a_tile_next_to_a_strong_tribe_is_more_dangerous_than_one_far_away__rulebook_5_attiva_le_tribu():
    """The Bones (Population 2) reach (6, 0) leaving 1 Lit tile, no disc lost: 9 War cards of 10 bring them
    above Armor 2. To (4, 0) they leave 3 (1 disc lost): half the cards. To (2, 0) they leave 5 (2 discs
    lost of at most 4: Strength 2 at best): never."""
    state = dragon_turn()
    assert dragon_armor(state) == 2
    danger = bot.dragon_danger(state)
    near, here, far = (sum(danger.get(p, {}).values()) for p in ((6, 0), (4, 0), (2, 0)))
    assert near == 0.9 and here == 0.5 and far == 0
    assert near > here > far
    bones = state.goblins.tribes[1]  # type: ignore[union-attr]
    assert bot.tribe_threat(state, bones, 1, 2) > bot.tribe_threat(state, bones, 5, 2) == 0


def dragon_moves(state: VastState) -> list[cmd.MoveDragon]:
    return [c for c in RULESET.legal_commands(state) if isinstance(c, cmd.MoveDragon)]


def test_the_wary_dragon_moves_off_the_tribes_way_when_a_safe_move_exists__rulebook_i_goblin_attaccare():
    """Hungry for the Bones (its goal, east), the wary Dragon moves west, where no War card brings them
    above its Armor, rather than to (5, 0) or (6, 0): nearer its goal, but as dangerous as where it stands or
    more. Without the Ash Dragon card (not wary) it goes for them: (6, 0)."""
    state = dragon_turn()
    moves = dragon_moves(state)
    assert {(m.x, m.y) for m in moves} >= {(2, 0), (3, 0), (5, 0), (6, 0)}
    danger = bot.dragon_danger(state)
    for seed in range(5):
        chosen = bot.choose(state, moves, random.Random(seed))
        assert (chosen.x, chosen.y) in ((2, 0), (3, 0)) and not danger.get((chosen.x, chosen.y))
    plain = dragon_turn(variants=())
    chosen = bot.choose(plain, dragon_moves(plain), random.Random(0))
    assert (chosen.x, chosen.y) == (6, 0)


def test_the_wary_dragon_hisses_a_threatening_tribe_before_collecting_treasure__rulebook_poteri_sibilo():
    """A Treasure token on its tile: collecting it ends its Powers (Vast rulebook §Riepilogo del Turno), so
    the wary Dragon first Hisses the Bones, who may attack it where it stands; not wary, it collects."""
    treasure = tuple(replace(c, treasure=1) if (c.x, c.y) == (4, 0) else c for c in dragon_turn().cells)
    state = replace(dragon_turn(), cells=treasure)
    legal = RULESET.legal_commands(state)
    assert any(isinstance(c, cmd.DragonCollect) for c in legal)
    chosen = bot.choose(state, legal, random.Random(0))
    assert isinstance(chosen, cmd.UsePower) and chosen.power == "hiss" and chosen.tribe == "bones"
    plain = replace(dragon_turn(variants=()), cells=treasure)
    assert isinstance(bot.choose(plain, RULESET.legal_commands(plain), random.Random(0)), cmd.DragonCollect)


# --- the Cave: with no Knight, the Tribes kept off the Dragon ----------------------------------------

OMENS = CaveRole(hand=("ambush-01", "event-01", "treasure-room-04"), omens=("bat-1", "boulder-1", "quartz-1"))
"""The Cave's board after placing its tile: a Bat, a Boulder and a Quartz (a Rockslide costs 2, Giant Bats
1)."""


def cave_turn(roles: tuple[str, ...] = HUNT) -> VastState:
    """The Cave's turn: the Dragon underground on (2, 0), the Bones on (4, 0), who reach it over (4, 0) and
    (3, 0) (1 disc lost) at Strength 3 with 2 more discs from a War card, above its Armor 2."""
    cave = replace(OMENS, placed=1, supply=12)
    return hunt_table(
        roles=roles, turn="cave", bones=(4, 0), dragon=DragonRole(x=2, y=0, hand=HAND), cave=cave
    )


def test_a_rockslide_on_the_dragons_side_the_tribe_comes_through__rulebook_la_caverna_presagi_frana():
    """Of the Rockslides it may lay, the one on the Dragon's east side keeps the Bones off it (worth 2); the
    west side closes a side but keeps no Tribe off (1); one elsewhere is worth nothing. The Cave lays the
    east one."""
    state = cave_turn()
    c = bot.CaveContext(state)
    assert c.hunted
    assert c.seal((2, 0), "E") == c.seal((3, 0), "W") == 2
    assert c.seal((2, 0), "W") == 1
    assert c.seal((4, 0), "E") == 0
    slides = [x for x in RULESET.legal_commands(state) if isinstance(x, cmd.Rockslide)]
    assert len(slides) > 2
    for seed in range(5):
        chosen = bot.choose(state, slides, random.Random(seed))
        assert (chosen.x, chosen.y, chosen.side) == (2, 0, "E")


def test_giant_bats_carry_a_tribe_off_the_dragons_reach__rulebook_la_caverna_presagi_pipistrelli_giganti():
    """The Bones menace the Dragon from (4, 0); carried to (6, 0) or (7, 0) they would leave 4 or 5 Lit tiles
    on the way (2 discs lost): no longer. Carried to (5, 0) (3 left, 1 disc) they still would: worth
    nothing. The Cave's Giant Bats carry them out of reach."""
    state = cave_turn()
    c = bot.CaveContext(state)
    assert c.menaces("bones") and c.menaces("bones", (5, 0))
    assert not c.menaces("bones", (6, 0)) and not c.menaces("bones", (7, 0))
    bats = [x for x in RULESET.legal_commands(state) if isinstance(x, cmd.GiantBats) and x.target == "bones"]
    scores = {(b.x, b.y): bot.cave_score(state, b, c) for b in bats}
    assert scores[(5, 0)] == 0 and scores[(6, 0)] > 0 and scores[(7, 0)] > 0
    chosen = bot.choose(state, bats, random.Random(0))
    assert (chosen.x, chosen.y) in ((6, 0), (7, 0))


def test_with_the_knight_in_play_the_cave_does_not_wall_the_dragon_in__rulebook_la_caverna_presagi_frana():
    """With the Knight in play too the rule does not apply (she may kill the Dragon, and the Cave shields her
    from the Goblins): a Rockslide on the Dragon's side is worth nothing."""
    state = cave_turn(roles=("knight", *HUNT))
    c = bot.CaveContext(state)
    assert not c.hunted
    east = cmd.Rockslide(pay=("bat-1", "boulder-1"), x=2, y=0, side="E")
    assert east in RULESET.legal_commands(state)
    assert bot.cave_score(state, east, c) == 0
    assert bot.cave_score(cave_turn(), east) > 0
